"""clfeval.sql.run on a real PostgreSQL server (and on DuckDB by the same path): every capability
of the generated SQL equals the Polars front door, and bad input gets its message."""

from __future__ import annotations

import secrets
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import clfeval as ce
from clfeval import sql

SETTINGS = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
PG_TYPES = {pl.Int64: "bigint", pl.Float64: "double precision", pl.String: "text",
            pl.Boolean: "boolean", pl.Int32: "integer"}  # fmt: skip


def pg_table(con: Any, df: pl.DataFrame) -> str:
    """``df`` as a new PostgreSQL table (COPY, nulls and NaN kept); its quoted name."""
    name = f"t_{secrets.token_hex(4)}"
    cols = ", ".join(
        f'"{c.replace(chr(34), chr(34) * 2)}" {PG_TYPES[type(t)]}' for c, t in df.schema.items()
    )
    with con.cursor() as cur:
        cur.execute(f"CREATE TABLE {name} ({cols})")
        with cur.copy(f"COPY {name} FROM STDIN") as copy:
            for row in df.iter_rows():
                copy.write_row(row)
    return name


class DuckDB:
    """A DuckDB connection holding each frame as a table, for run()'s DuckDB dialect."""

    def __init__(self) -> None:
        self.con = duckdb.connect()

    def table(self, df: pl.DataFrame) -> str:
        name = f"t_{secrets.token_hex(4)}"
        self.con.register("__v", df.to_arrow())
        self.con.execute(f"CREATE TABLE {name} AS FROM __v")
        self.con.unregister("__v")
        return name


@pytest.fixture(params=["postgres", "duckdb"])
def target(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """(connection, a function making a table of a frame) for each engine run() reaches."""
    if request.param == "duckdb":
        db = DuckDB()
        return db.con, db.table
    con = request.getfixturevalue("postgres")
    return con, lambda df: pg_table(con, df)


def frame(seed: int, n: int, k: int, text: bool) -> pl.DataFrame:
    """Two group columns with nulls, integer or text labels (k classes), scores on a grid of
    tenths (ties), probabilities, integer weights with zeros."""
    rng = np.random.default_rng(seed)
    classes = np.array(["ant", "bee", "cat"][:k] if text else [0, 1, 2][:k], dtype=object)
    y = rng.integers(0, k, n)
    y[:2] = [0, 1]
    yhat = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    p = np.clip(np.round((y == 1) * 0.3 + rng.random(n) * 0.7, 1), 0, 1)
    return pl.DataFrame(
        {
            "g1": rng.choice(np.array(["a", "b", None], dtype=object), n).tolist(),
            "g2": rng.choice(np.array([0, 1], dtype=object), n).tolist(),
            "y": classes[y].tolist(),
            "yhat": classes[yhat].tolist(),
            "s": p,
            "w": rng.integers(0, 4, n).astype(float),
        },
        schema_overrides={"g2": pl.Int64},
    )


@st.composite
def frames(draw: st.DrawFn) -> pl.DataFrame:
    return frame(draw(st.integers(0, 2**31)), draw(st.integers(12, 80)),
                 draw(st.sampled_from([2, 3])), draw(st.booleans()))  # fmt: skip


def polars_twin(cap: str, df: pl.DataFrame, by: list[str], weight: str | None, pos: Any):
    """The Polars front door's frame for one capability of the generated SQL."""
    kw = {"by": by, "weight": weight}
    if cap == "counts":
        return ce.counts(df, "y", "yhat", **kw)
    if cap == "confusion":
        return ce.confusion_matrix(df, "y", "yhat", **kw)
    if cap == "report":
        return ce.report(df, "y", "yhat", **kw).table
    if cap == "metrics":
        return ce.metrics(df, "y", "yhat", score="s", average="macro", pos_label=pos, **kw)
    if cap in ("auroc", "average_precision", "log_loss", "brier"):
        return ce.metrics(df, "y", score="s", metrics=[cap], pos_label=pos, **kw)
    fn = {"roc_curve": ce.roc_curve, "pr_curve": ce.pr_curve, "det_curve": ce.det_curve,
          "thresholds": ce.thresholds, "calibration": ce.calibration}[cap]  # fmt: skip
    return fn(df, "y", "s", pos_label=pos, **kw)


def run_args(cap: str, by: list[str], weight: str | None, pos: Any) -> dict[str, Any]:
    kw: dict[str, Any] = {"y": "y", "group_cols": by, "weight": weight}
    if cap in ("counts", "confusion", "report"):
        return kw | {"yhat": "yhat"}
    if cap == "metrics":
        return kw | {"yhat": "yhat", "score": "s", "average": "macro", "pos_label": pos}
    return kw | {"score": "s", "pos_label": pos}


def same(got: pl.DataFrame, want: pl.DataFrame, by: list[str], what: str) -> None:
    """Equal frames up to the order of the groups (each engine sorts them its own way)."""
    if by:
        key = [pl.col(b).is_null() for b in by] + [pl.col(b) for b in by]
        got = got.with_row_index("__i").sort([*key, "__i"]).drop("__i")
        want = want.with_row_index("__i").sort([*key, "__i"]).drop("__i")
    try:
        assert_frame_equal(got, want, check_exact=False, rel_tol=1e-9, abs_tol=1e-12)
    except AssertionError as err:
        raise AssertionError(f"{what}: {err}") from None


CAPS = ["counts", "confusion", "report", "metrics", "thresholds", "roc_curve", "pr_curve",
        "det_curve", "auroc", "average_precision", "log_loss", "brier", "calibration"]  # fmt: skip


def test_every_capability_equals_the_polars_front_door(target) -> None:
    con, make = target

    @SETTINGS
    @given(df=frames(), grouped=st.booleans(), weighted=st.booleans())
    def check(df: pl.DataFrame, grouped: bool, weighted: bool) -> None:
        name = make(df)
        by = ["g1", "g2"] if grouped else []
        weight = "w" if weighted else None
        pos = df["y"][1]
        binary = df["y"].n_unique() == 2 and set(df["yhat"]) <= set(df["y"])
        for cap in CAPS:
            if cap == "report" and weighted:
                continue  # the Report table's support stays an integer count; checked below
            scored = cap not in ("counts", "confusion", "report", "metrics")
            if scored and not binary:
                df_cap = df.with_columns(pl.col("y").eq(pos).alias("y"))  # one-vs-rest view
                name_cap, pos_cap = make(df_cap), True
            else:
                df_cap, name_cap, pos_cap = df, name, pos
            got = sql.run(con, cap, table=name_cap, **run_args(cap, by, weight, pos_cap))
            want = polars_twin(cap, df_cap, by, weight, pos_cap)
            same(got, want, by, cap)

    check()


def test_weighted_report_equals_the_polars_report(target) -> None:
    con, make = target
    df = pl.DataFrame({"g": ["a", "a", "a", "b", "b", "b"], "y": [0, 1, 1, 0, 1, 2],
                       "yhat": [0, 1, 0, 0, 2, 2], "w": [1.0, 2.0, 0.5, 3.0, 1.0, 2.0]})  # fmt: skip
    got = sql.run(con, "report", table=make(df), y="y", yhat="yhat", group_cols="g", weight="w")
    want = ce.report(df, "y", "yhat", by="g", weight="w").table
    same(got.with_columns(pl.col("support").cast(want["support"].dtype)), want, ["g"], "report")


def test_drop_options_leave_rows_out_and_count_them(target) -> None:
    con, make = target
    df = pl.DataFrame({"g": ["a", "a", "a", "b", "b", "b", "b"], "y": [0, 1, 1, 0, 1, None, 1],
                       "s": [0.2, 0.8, float("nan"), 0.3, 0.6, 0.5, None]})  # fmt: skip
    name = make(df)
    got = sql.run(con, "roc_curve", table=name, y="y", score="s", group_cols="g",
                  missing="drop", nonfinite="drop")  # fmt: skip
    want = ce.roc_curve(df, "y", "s", by="g", missing="drop", nonfinite="drop")
    same(got, want, ["g"], "roc_curve with drops")
    got = sql.run(con, "auroc", table=name, y="y", score="s", missing="drop", nonfinite="drop")
    assert got.columns == ["n_excluded", "auroc"]
    assert got.row(0) == (3, pytest.approx(1.0))


BAD = pl.DataFrame({"y": [0, 1, 1, 0], "yt": ["0", "1", "1", "0"], "yhat": [0, 1, 0, 0],
                    "s": [0.2, 0.8, 1.5, 0.3], "w": [1.0, -2.0, 1.0, 1.0]})  # fmt: skip
CASES = {  # name: (run() arguments, the Polars front door's call)
    "missing column": ({"metric": "roc_curve", "y": "y", "score": "sc"},
                       lambda d: ce.roc_curve(d, "y", "sc")),
    "text against number": ({"metric": "counts", "y": "y", "yhat": "yt"},
                            lambda d: ce.counts(d, "y", "yt")),
    "negative weight": ({"metric": "roc_curve", "y": "y", "score": "s", "weight": "w"},
                        lambda d: ce.roc_curve(d, "y", "s", weight="w")),
    "probability outside [0, 1]": ({"metric": "brier", "y": "y", "score": "s"},
                                   lambda d: ce.metrics(d, "y", score="s", metrics=["brier"])),
    "pos_label of another kind": ({"metric": "auroc", "y": "y", "score": "s", "pos_label": "1"},
                                  lambda d: ce.metrics(d, "y", score="s", metrics=["auroc"],
                                                       pos_label="1")),
    "pos_label absent": ({"metric": "metrics", "y": "y", "yhat": "yhat", "pos_label": 7},
                         lambda d: ce.metrics(d, "y", "yhat", pos_label=7)),
    "bad average": ({"metric": "metrics", "y": "y", "yhat": "yhat", "average": "mean"},
                    lambda d: ce.metrics(d, "y", "yhat", average="mean")),
    "bad zero_division": ({"metric": "metrics", "y": "y", "yhat": "yhat", "zero_division": 2},
                          lambda d: ce.metrics(d, "y", "yhat", zero_division=2)),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_gets_the_front_doors_message(target, case: str) -> None:
    con, make = target
    args, front_door = CASES[case]
    with pytest.raises(ce.InputError) as polars_err:
        front_door(BAD)
    with pytest.raises(ce.InputError) as run_err:
        sql.run(con, table=make(BAD), **args)
    if case == "negative weight":  # the example rows are the engine's scan order
        assert str(run_err.value).split(" (rows")[0] == str(polars_err.value).split(" (rows")[0]
    elif case == "bad average":  # the generated SQL has no average=None (one row per class)
        assert str(run_err.value).startswith("average='mean' is not one of ['binary', 'micro'")
        assert str(polars_err.value).startswith("average='mean' is not one of ['binary', 'micro'")
    else:
        assert str(run_err.value) == str(polars_err.value)


def test_hostile_names_and_labels_stay_data(target) -> None:
    """Column, group and label text with quotes, semicolons and comments never becomes SQL."""
    con, make = target
    evil = "x'); DROP TABLE t; --\""
    df = pl.DataFrame({evil: ["a'b", "a'b", 'c"d', 'c"d'], "y": [evil, "n", evil, "n"],
                       "s": [0.9, 0.1, 0.4, 0.6]})  # fmt: skip
    got = sql.run(con, "auroc", table=make(df), y="y", score="s", group_cols=evil, pos_label=evil)
    want = ce.metrics(df, "y", score="s", metrics=["auroc"], by=evil, pos_label=evil)
    same(got, want, [evil], "hostile")


def test_missing_table_and_unknown_connection(postgres) -> None:
    with pytest.raises(ce.InputError, match="cannot be read"):
        sql.run(postgres, "auroc", table="no_such_table", y="y", score="s")
    with pytest.raises(ce.InputError, match="cannot run generated SQL"):
        sql.run(object(), "auroc", table="t", y="y", score="s")
    with pytest.raises(ce.InputError, match="as dialect 'spark'"):
        sql.run(postgres, "auroc", table="t", y="y", score="s", dialect="spark")


def proba_frame(seed: int) -> pl.DataFrame:
    """Three text classes with per-class probabilities on a grid (ties, rows sum to 1)."""
    rng = np.random.default_rng(seed)
    n = 90
    y = rng.integers(0, 3, n)
    counts = rng.integers(0, 4, (n, 3)) + np.eye(3, dtype=int)[y] * 2
    p = counts / counts.sum(axis=1, keepdims=True)
    return pl.DataFrame({"g": rng.choice(["a", "b"], n).tolist(),
                         "y": [["ant", "bee", "cat"][i] for i in y],
                         **{f"p_{c}": p[:, i] for i, c in enumerate(["ant", "bee", "cat"])},
                         "w": rng.integers(0, 3, n).astype(float)})  # fmt: skip


SCORES = {"ant": "p_ant", "bee": "p_bee", "cat": "p_cat"}


@pytest.mark.parametrize(
    "options",
    [{"multi_class": "ovr", "average": "macro"}, {"multi_class": "ovr", "average": "micro"},
     {"multi_class": "ovo", "average": "weighted"}],
)  # fmt: skip
def test_per_class_scores_equal_the_polars_front_door(target, options) -> None:
    con, make = target
    df = proba_frame(5)
    name = make(df)
    names = ["auroc", "average_precision", "log_loss", "brier"]
    if options["multi_class"] == "ovo" or options["average"] == "micro":
        names = ["auroc", "log_loss", "brier"]
    for weight in (None, "w"):
        got = sql.run(con, "metrics", table=name, y="y", score=SCORES, metrics=names,
                      group_cols="g", weight=weight, **options)  # fmt: skip
        want = ce.metrics(df, "y", score=SCORES, metrics=names, by="g", weight=weight, **options)
        same(got, want, ["g"], f"per-class {options} {weight}")
    got = sql.run(con, "auroc", table=name, y="y", score=list(SCORES.values()),
                  labels=list(SCORES), **options)  # fmt: skip
    want = ce.metrics(df, "y", score=SCORES, metrics=["auroc"], **options)
    same(got, want, [], "auroc of a list with labels=")


def test_per_class_bad_input_gets_the_front_doors_message(target) -> None:
    con, make = target
    df = proba_frame(6)
    bad_sum = df.with_columns(pl.when(pl.int_range(pl.len()) == 4).then(0.9).otherwise("p_ant")
                              .alias("p_ant"))  # fmt: skip
    two = {"ant": "p_ant", "bee": "p_bee"}
    for frame, scores in ((bad_sum, SCORES), (df, two)):
        with pytest.raises(ce.InputError) as polars_err:
            ce.metrics(frame, "y", score=scores, metrics=["log_loss"])
        with pytest.raises(ce.InputError) as run_err:
            sql.run(con, "log_loss", table=make(frame), y="y", score=scores)
        assert str(run_err.value) == str(polars_err.value)
