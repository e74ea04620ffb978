"""The trust contract's mechanisms, one test each (README "One contract, every surface").

Drops before checks, labels never cast between kinds or truncated, group-column collisions,
the expression rule (null, never a number) on expressions and LazyFrames, huge weights, the
same message on the Polars front door and on ``clfeval.sql`` for a frame or a DuckDB table,
and the generated SQL's null guard. The wide hostile-input matrix is ``test_hostile*.py``.
"""

from __future__ import annotations

import re

import duckdb
import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm

import clfeval as ce
from clfeval import InputError, sql


def scored() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "g": ["a", "a", "a", "b", "b", "b"],
            "y": [1, 0, 1, 0, 1, 0],
            "yhat": [1, 0, 0, 0, 1, 1],
            "p": [0.9, 0.2, 0.6, 0.3, 0.8, 0.7],
            "w": [1.0, 2.0, 1.0, 1.0, 3.0, 1.0],
        }
    )


# --- drops happen before checks ------------------------------------------------------------


def test_nonfinite_drop_runs_before_the_probability_range_check() -> None:
    df = scored().with_columns(p=pl.Series([0.9, float("nan"), 0.6, 0.3, float("inf"), 0.7]))
    out = ce.metrics(df, "y", score="p", metrics=["log_loss"], nonfinite="drop")
    kept = df.filter(pl.col("p").is_finite())
    assert out["log_loss"].item() == pytest.approx(skm.log_loss(kept["y"], kept["p"]), abs=1e-12)
    rep = ce.report(df, "y", "yhat", score="p", nonfinite="drop")
    assert rep.n_excluded == 2
    with pytest.raises(InputError, match="NaN") as err:
        ce.metrics(df, "y", score="p", metrics=["log_loss"])
    assert err.value.rule == "nan"


def test_missing_drop_never_range_checks_the_dropped_rows() -> None:
    df = scored().with_columns(
        y=pl.Series([1, None, 1, 0, 1, 0]), p=pl.Series([0.9, 7.0, 0.6, 0.3, 0.8, 0.7])
    )
    out = ce.metrics(df, "y", score="p", metrics=["brier"], missing="drop")
    kept = df.drop_nulls("y")
    assert out.columns == ["n_excluded", "brier"]
    assert out.row(0) == (1, pytest.approx(skm.brier_score_loss(kept["y"], kept["p"])))


# --- labels keep their own type -------------------------------------------------------------


def test_lazy_float_labels_are_never_truncated() -> None:
    df = pl.DataFrame({"y": [0.0, 1, 1, 0], "yhat": [0.7, 0.2, 1, 0]})
    lazy = ce.metrics(df.lazy(), "y", "yhat", metrics=["accuracy"]).collect()
    assert lazy["accuracy"].item() == 0.5  # 0.7 is its own class, as the expression says
    assert df.select(ce.accuracy("y", "yhat")).item() == 0.5
    with pytest.raises(InputError, match="non-integral") as err:
        ce.metrics(df, "y", "yhat", metrics=["accuracy"])
    assert err.value.rule == "continuous_labels"


def test_numeric_labels_compare_in_a_lossless_common_type() -> None:
    big = 2**64 - 1
    df = pl.DataFrame(
        {"y": pl.Series([big, 1, 1], dtype=pl.UInt64), "yhat": pl.Series([1, 1, 0], dtype=pl.Int8)}
    )
    cm = ce.confusion_matrix(df, "y", "yhat")
    assert cm["actual"].to_list() == [0, 0, 0, 1, 1, 1, big, big, big]
    assert cm.schema["actual"] == pl.Int128
    floats = pl.DataFrame({"y": [1e20, 1.0], "yhat": [1e20, 0.0]})
    assert ce.metrics(floats, "y", "yhat", metrics=["accuracy"]).item() == 0.5
    with pytest.raises(InputError, match="infinite") as err:
        ce.metrics(floats.with_columns(y=pl.Series([float("inf"), 1.0])), "y", "yhat")
    assert err.value.rule == "inf"


@pytest.mark.parametrize("surface", ["polars", "sql_frame", "sql_table"])
def test_text_labels_never_equal_numbers(surface: str) -> None:
    df = pl.DataFrame({"y": ["1", "01", "0", " 1"], "s": [0.9, 0.8, 0.1, 0.7]})
    con = duckdb.connect()
    con.register("t", df)
    run = {
        "polars": lambda **kw: ce.metrics(df, "y", score="s", metrics=["auroc"], **kw),
        "sql_frame": lambda **kw: sql.auroc(df, "y", "s", **kw),
        "sql_table": lambda **kw: sql.auroc("t", "y", "s", con=con, **kw),
    }[surface]
    with pytest.raises(InputError, match=r"pos_label=1 cannot be a class of column 'y'") as err:
        run()
    assert err.value.role == "pos_label"
    assert run(pos_label="1")["auroc"].item() == 1.0  # only '1' is the positive class


# --- group columns ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("by", "says"),
    [
        (["g", "g"], "listed twice"),
        ("y", "collides with the y column"),
        ("label", "collides with an output column"),
        ("tp", "collides with an output column"),
    ],
)
def test_group_columns_that_collide_are_named(by: object, says: str) -> None:
    df = scored().with_columns(label=pl.lit("x"), tp=pl.lit(1))
    for call in (
        lambda: ce.counts(df, "y", "yhat", by=by),
        lambda: ce.report(df, "y", "yhat", by=by),
        lambda: sql.counts(df, "y", "yhat", by=by),
    ):
        with pytest.raises(InputError, match=says) as err:
            call()
        assert err.value.rule == "by_name"


# --- the expression rule ---------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_expressions_give_null_for_meaningless_weights(bad: float) -> None:
    df = scored().with_columns(w=pl.Series([1.0, bad, 1.0, 1.0, 1.0, 1.0]))
    out = df.group_by("g", maintain_order=True).agg(
        ce.accuracy("y", "yhat", weight="w"),
        ce.f1("y", "yhat", weight="w"),
        ce.mcc("y", "yhat", weight="w"),
        ce.auroc("y", "p", weight="w"),
        ce.log_loss("y", "p", weight="w"),
    )
    assert out.row(0)[1:] == (None,) * 5  # group a holds the bad weight
    assert None not in out.row(1)


def test_expressions_and_lazy_frames_give_null_for_probabilities_outside_01() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [1.5, -0.2, 0.7, 0.3]})
    assert df.select(ce.log_loss("y", "s"), ce.brier("y", "s"), ce.ece("y", "s")).row(0) == (
        None,
        None,
        None,
    )
    lazy = ce.metrics(df.lazy(), "y", score="s", metrics=["log_loss", "brier"]).collect()
    assert lazy.row(0) == (None, None)
    curve = ce.calibration(df.lazy(), "y", "s", n_bins=2).collect()
    assert curve["mean_predicted"].null_count() == curve.height
    assert df.select(ce.auroc("y", "s")).item() == 1.0  # ranking metrics take any score


# --- huge weights -----------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e160, 1e300])
def test_huge_weights_give_the_numbers_of_small_ones(scale: float) -> None:
    rng = np.random.default_rng(3)
    df = pl.DataFrame(
        {"y": rng.integers(0, 2, 200), "s": rng.random(200).round(2), "w": rng.random(200) + 0.5}
    ).with_columns(yhat=(pl.col("s") > 0.5).cast(pl.Int64))
    heavy = df.with_columns(pl.col("w") * scale)
    names = ["accuracy", "f1", "mcc", "auroc", "average_precision"]
    small = ce.metrics(df, "y", "yhat", score="s", metrics=names, weight="w")
    large = ce.metrics(heavy, "y", "yhat", score="s", metrics=names, weight="w")
    expected = skm.average_precision_score(df["y"], df["s"], sample_weight=df["w"])
    assert large["average_precision"].item() == pytest.approx(expected, rel=1e-9)
    for name in names:
        assert large[name].item() == pytest.approx(small[name].item(), rel=1e-9), name
    exprs = heavy.select(ce.auroc("y", "s", weight="w"), ce.cohen_kappa("y", "yhat", weight="w"))
    plain = df.select(ce.auroc("y", "s", weight="w"), ce.cohen_kappa("y", "yhat", weight="w"))
    assert exprs.row(0) == pytest.approx(plain.row(0), rel=1e-9)


def test_a_total_weight_beyond_float64_is_an_error() -> None:
    df = scored().with_columns(w=pl.lit(1e308))
    with pytest.raises(InputError, match="add up to more than a float64") as err:
        ce.metrics(df, "y", "yhat", weight="w")
    assert err.value.rule == "weight_overflow"


# --- one message, every engine -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"w": [1.0, -5.0, 1.0, 1.0, 1.0, 1.0]}, "negative_weight"),
        ({"w": [1.0, float("nan"), 1.0, 1.0, 1.0, 1.0]}, "nan"),
        ({"p": [0.9, float("nan"), 0.6, 0.3, 0.8, 0.7]}, "nan"),
        ({"y": [1, None, 1, 0, 1, 0]}, "null"),
        ({"p": [0.9, 0.2, None, 0.3, 0.8, 0.7]}, "null"),
        ({"y": [1.0, 0.0, 1.0, float("nan"), 1.0, 0.0]}, "null"),  # a NaN label is missing
        ({"p": [0.9, 0.2, 0.6, float("-inf"), 0.8, 0.7]}, "inf"),
    ],
)
def test_the_same_message_on_polars_and_duckdb(change: dict, rule: str) -> None:
    df = scored().with_columns(**{k: pl.Series(v) for k, v in change.items()})
    con = duckdb.connect()
    con.register("t", df)
    calls = [
        lambda: ce.roc_curve(df, "y", "p", weight="w"),
        lambda: sql.roc_curve(df, "y", "p", weight="w"),
        lambda: sql.roc_curve("t", "y", "p", weight="w", con=con),
    ]
    messages = []
    for call in calls:
        with pytest.raises(InputError) as err:
            call()
        assert err.value.rule == rule
        messages.append(str(err.value))
    assert len(set(messages)) == 1, messages


def test_clfeval_sql_checks_options_like_the_front_door() -> None:
    df = scored()
    for call, says in (
        (lambda: sql.report(df, "y", "yhat", labels=[1, 1]), "labels lists 1 twice"),
        (lambda: sql.report(df, "y", "yhat", labels=[]), "labels=[] lists no class"),
        (lambda: sql.metrics(df, "y", "yhat", zero_division=7), "zero_division=7"),
        (lambda: sql.calibration(df, "y", "p", n_bins=10**8), "n_bins=100000000"),
        (lambda: sql.aggregate("clf_fbeta", df, "y", "yhat", beta=-1), "beta=-1"),
    ):
        with pytest.raises(InputError, match=re.escape(says)):
            call()


def test_drop_options_on_a_duckdb_table_leave_rows_out_and_count_them() -> None:
    df = scored().with_columns(y=pl.Series([1, None, 1, 0, 1, 0]))
    con = duckdb.connect()
    con.register("t", df)
    out = sql.metrics("t", "y", "yhat", con=con, missing="drop", by="g")
    front = ce.metrics(df, "y", "yhat", missing="drop", by="g")
    assert out.columns == front.columns
    assert out["n_excluded"].to_list() == front["n_excluded"].to_list() == [1, 0]
    for name in ("accuracy", "f1"):
        assert out[name].to_list() == pytest.approx(front[name].to_list())
    views = con.sql("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()
    assert not [v for (v,) in views if v.startswith("__clf")]  # the kept-rows view is gone


# --- generated SQL -----------------------------------------------------------------------------


def test_generated_sql_nulls_groups_with_meaningless_values() -> None:
    pytest.importorskip("sqlglot")
    df = scored().with_columns(w=pl.Series([1.0, 1.0, 1.0, -1.0, 1.0, 1.0]))
    con = duckdb.connect()
    con.register("t", df)
    q = sql.query("auroc", table="t", y="y", score="p", weight="w", group_cols=["g"])
    assert con.sql(q).fetchall() == [("a", 1.0), ("b", None)]
    q = sql.query("log_loss", table="t", y="y", proba="p", group_cols=["g"])
    con.register("u", df.with_columns(p=pl.Series([0.9, 0.2, 0.6, 1.3, 0.8, 0.7])))
    rows = con.sql(q.replace('"t"', '"u"')).fetchall()
    assert rows[1] == ("b", None)
    assert rows[0][1] == pytest.approx(skm.log_loss([1, 0, 1], [0.9, 0.2, 0.6]))
    with pytest.raises(InputError, match="zero_division=7"):
        sql.query("report", table="t", y="y", yhat="yhat", zero_division=7)


@pytest.mark.parametrize("scale", [1e160, 1e300])
def test_huge_weights_in_the_sql_macros(scale: float) -> None:
    rng = np.random.default_rng(4)
    df = pl.DataFrame(
        {"y": rng.integers(0, 3, 300), "s": rng.random(300), "w": rng.random(300) + 0.5}
    ).with_columns(yhat=(pl.col("s") * 3).floor().cast(pl.Int64), yb=(pl.col("y") == 1))
    con = duckdb.connect()
    sql.load(con)
    got = []
    for factor in (1.0, scale):
        con.register("t", df.with_columns(pl.col("w") * factor))
        got.append(
            con.sql(
                "SELECT (SELECT auroc FROM clf_auroc('t', 'yb', 's', weight_col := 'w', "
                "pos_label := true)), (SELECT mcc FROM clf_metrics('t', 'y', 'yhat', "
                "weight_col := 'w', average := 'macro')), clf_mcc(yb, s > 0.5, weight := w), "
                "clf_cohen_kappa(yb, s > 0.5, weight := w) FROM t"
            ).fetchall()[0]
        )
    assert got[1] == pytest.approx(got[0], rel=1e-9)
    expected = skm.roc_auc_score(df["yb"], df["s"], sample_weight=df["w"])
    assert got[1][0] == pytest.approx(expected, rel=1e-9)
