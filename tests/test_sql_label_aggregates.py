"""The averaged label aggregates: ``SELECT g, clf_f1(y, yhat, average := 'macro')``.

DuckDB (the Python package; the command-line client 1.5.6 on one query) against the Polars
expressions and scikit-learn, per group, to 1e-9: every ratio macro under micro, macro and
weighted, weighted and not, zero_division 0.0, 1.0 and NULL, labels given or not. String and
integer labels, 3-5 classes, a one-class group, NULL rows left out. Then the clfeval: errors
and the Python runner (clfeval.sql.aggregate).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import warnings
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval as ce
from clfeval import sql

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: keeps a failure fast
)
RATIOS = ["precision", "recall", "f1", "fbeta", "specificity", "npv", "fpr", "fnr", "jaccard"]
AVERAGES = ["micro", "macro", "weighted"]
BETA = 2.0
SKLEARN = {
    "precision": skm.precision_score,
    "recall": skm.recall_score,
    "f1": skm.f1_score,
    "fbeta": lambda *a, **k: skm.fbeta_score(*a, beta=BETA, **k),
    "jaccard": skm.jaccard_score,
}


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


@st.composite
def label_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, list[Any]]:
    """Groups 'a' and 'b' of 3-5 classes (NULL labels and weights, zero weights) and group 'c'
    with one class; integer or string labels. Returns the frame and the class values."""
    text = draw(st.booleans())
    k = draw(st.integers(3, 5))
    classes: list[Any] = (
        draw(st.lists(st.sampled_from(["ant", "bee", "Cat", "dog", "ému", "x y"]),
                      min_size=k, max_size=k, unique=True))
        if text
        else draw(st.lists(st.integers(-3, 40), min_size=k, max_size=k, unique=True))
    )  # fmt: skip
    n = draw(st.integers(1, 40))
    label = st.one_of(*[st.sampled_from(classes)] * 6, st.none())
    y = draw(st.lists(label, min_size=n, max_size=n))
    yhat = draw(st.lists(label, min_size=n, max_size=n))
    w = draw(
        st.lists(st.one_of(*[st.floats(0.1, 5.0)] * 5, st.just(0.0), st.none()),
                 min_size=n, max_size=n)
    )  # fmt: skip
    g = draw(st.lists(st.sampled_from("ab"), min_size=n, max_size=n))
    one = draw(st.integers(1, 4))
    y += [classes[0]] * one
    yhat += [classes[0]] * one
    w += [1.0] * one
    g += ["c"] * one
    dtype = pl.String if text else pl.Int64
    df = pl.DataFrame(
        {"g": g, "y": y, "yhat": yhat, "w": w},
        schema={"g": pl.String, "y": dtype, "yhat": dtype, "w": pl.Float64},
    )
    return df, classes


def _lit(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def _same(a: Any, b: Any) -> bool:
    a = None if a is None or (isinstance(a, float) and math.isnan(a)) else a
    b = None if b is None or (isinstance(b, float) and math.isnan(b)) else b
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _group_data(df: pl.DataFrame, g: str, weighted: bool) -> tuple[list, list, np.ndarray | None]:
    keep = df.filter(
        (pl.col("g") == g) & pl.col("y").is_not_null() & pl.col("yhat").is_not_null()
        & (pl.col("w").is_not_null() if weighted else pl.lit(True))
    )  # fmt: skip
    w = keep["w"].to_numpy() if weighted else None
    return keep["y"].to_list(), keep["yhat"].to_list(), w


def _sk(fn, *args, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(fn(*args, **kwargs))


@SETTINGS
@given(
    data=label_frames(),
    zd=st.sampled_from([0.0, 1.0, None]),
    weighted=st.booleans(),
    pick=st.randoms(use_true_random=False),
    use_labels=st.booleans(),
    names=st.lists(st.sampled_from(RATIOS), min_size=2, max_size=3, unique=True),
)
def test_averaged_ratios_equal_polars_and_sklearn(con, data, zd, weighted, pick, use_labels, names):
    """A few ratio macros per example (each call takes DuckDB a while to bind), all three
    averages."""
    df, classes = data
    labels = pick.sample(classes, pick.randint(1, len(classes))) if use_labels else None
    con.register("lt", df)
    w_sql = ", weight := w" if weighted else ""
    l_sql = f", labels := [{', '.join(_lit(v) for v in labels)}]" if labels else ""
    cols, exprs = [], []
    for name in names:
        beta = f"{BETA}, " if name == "fbeta" else ""
        for avg in AVERAGES:
            cols.append(
                f"clf_{name}(y, yhat, {beta}average := '{avg}', zero_division := {_lit(zd)}"
                f"{w_sql}{l_sql}) AS {name}_{avg}"
            )
            extra = {"beta": BETA} if name == "fbeta" else {}
            exprs.append(
                getattr(ce, name)(
                    "y", "yhat", average=avg, labels=labels, zero_division=zd,
                    weight="w" if weighted else None, **extra,
                ).alias(f"{name}_{avg}")
            )  # fmt: skip
    got = con.sql(f"SELECT g, {', '.join(cols)} FROM lt GROUP BY g ORDER BY g").pl()
    want = df.group_by("g").agg(exprs).sort("g")
    assert got["g"].to_list() == want["g"].to_list()
    for row, ref in zip(got.iter_rows(named=True), want.iter_rows(named=True)):
        y, yhat, w = _group_data(df, row["g"], weighted)
        total = len(y) if w is None else float(w.sum())
        for key in ref:
            if key == "g":
                continue
            assert _same(row[key], ref[key]), (key, row["g"], row[key], ref[key], labels)
            name, avg = key.rsplit("_", 1)
            # scikit-learn where it has the metric; its weighted average differs (zero_division
            # instead of the plain mean) when the listed classes have no support at all
            support = sum(
                (1.0 if w is None else w[i])
                for i, v in enumerate(y)
                if labels is None or v in labels
            )
            # (jaccard_score takes no zero_division=nan)
            nan_ok = zd is not None or name != "jaccard"
            if name in SKLEARN and nan_ok and total > 0 and (avg != "weighted" or support > 0):
                sk = _sk(
                    SKLEARN[name], y, yhat, average=avg, labels=labels, sample_weight=w,
                    zero_division=np.nan if zd is None else zd,
                )  # fmt: skip
                assert _same(row[key], sk), (key, row["g"], row[key], sk, labels)
    con.unregister("lt")


def test_two_classes_keep_the_binary_numbers(con):
    """average := 'binary' (the default) is unchanged; mcc, kappa and balanced accuracy on two
    classes equal the one-vs-rest numbers of before (scikit-learn's)."""
    y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
    h = [1, 0, 0, 1, 1, 0, 1, 0, 1, 1]
    w = [1.0, 2.0, 1.0, 0.0, 3.0, 1.0, 2.0, 1.0, 1.0, 0.5]
    con.register("two", pl.DataFrame({"y": y, "yhat": h, "w": w}))
    got = con.execute(
        "SELECT clf_f1(y, yhat), clf_mcc(y, yhat, weight := w), clf_cohen_kappa(y, yhat), "
        "clf_balanced_accuracy(y, yhat, weight := w) FROM two"
    ).fetchall()[0]
    assert got is not None
    want = [
        skm.f1_score(y, h),
        skm.matthews_corrcoef(y, h, sample_weight=w),
        skm.cohen_kappa_score(y, h),
        skm.balanced_accuracy_score(y, h, sample_weight=w),
    ]
    assert list(got) == pytest.approx(want, rel=1e-12)


# --- errors -----------------------------------------------------------------------------------


def _fails(con: duckdb.DuckDBPyConnection, query: str, *parts: str) -> None:
    with pytest.raises(duckdb.Error) as info:
        con.execute(query).fetchall()
    message = str(info.value)
    assert "clfeval:" in message, message
    assert message[message.index("clfeval:") :].startswith("clfeval:")
    for part in parts:
        assert part in message, (part, message)


@pytest.fixture(scope="module")
def multi(con) -> str:
    con.execute(
        "CREATE OR REPLACE TABLE multi AS SELECT * FROM (VALUES (0, 0, 'a', 'a'), (1, 2, 'b', 'c'),"
        " (2, 1, 'c', 'b'), (2, 2, 'c', 'c')) v(y, yhat, ys, yhats)"
    )
    return "multi"


@pytest.mark.parametrize("name", RATIOS)
def test_bad_average_names_the_allowed_values(con, multi, name):
    beta = "1.0, " if name == "fbeta" else ""
    _fails(
        con,
        f"SELECT clf_{name}(y, yhat, {beta}average := 'samples') FROM multi",
        f"clfeval: clf_{name}: average = 'samples' is not one of 'binary', 'micro', 'macro', "
        "'weighted'",
    )
    _fails(con, f"SELECT clf_{name}(y, yhat, {beta}average := NULL) FROM multi", "average = NULL")


@pytest.mark.parametrize("name", RATIOS)
def test_binary_on_more_than_two_classes_says_choose_an_average(con, multi, name):
    beta = "1.0, " if name == "fbeta" else ""
    _fails(
        con,
        f"SELECT clf_{name}(y, yhat, {beta}pos_label := 1) FROM multi",
        f"clfeval: clf_{name}: y and yhat hold 3 classes but average = 'binary'",
        "choose average := 'macro', 'micro' or 'weighted'",
    )
    # averaged: pos_label is not used, so text labels need none
    con.execute(f"SELECT clf_{name}(ys, yhats, {beta}average := 'macro') FROM multi").fetchall()


@pytest.mark.parametrize("name", RATIOS)
def test_averaged_ratios_check_labels_and_zero_division(con, multi, name):
    beta = "1.0, " if name == "fbeta" else ""
    call = f"SELECT clf_{name}(y, yhat, {beta}average := 'macro'"
    _fails(con, f"{call}, labels := []) FROM multi", "labels = [] lists no class")
    _fails(con, f"{call}, labels := [1, 1]) FROM multi", "labels = [1, 1] lists a class more")
    _fails(con, f"{call}, labels := ['1']) FROM multi", "and labels (VARCHAR[])")
    _fails(con, f"{call}, zero_division := 7) FROM multi", f"clf_{name}: zero_division = 7")
    _fails(
        con,
        f"SELECT clf_{name}(ys, yhat, {beta}average := 'macro') FROM multi",
        f"clf_{name}: y (VARCHAR) and yhat (INTEGER) hold different kinds of labels",
    )


# --- the Python runner --------------------------------------------------------------------------


def test_the_python_runner_averages():
    df = pl.DataFrame(
        {
            "g": [1, 1, 1, 1, 2, 2, 2, 2],
            "y": ["a", "b", "c", "c", "a", "a", "b", "c"],
            "yhat": ["a", "c", "c", "b", "a", "b", "b", "c"],
        }
    )
    for avg in AVERAGES:
        got = sql.aggregate("clf_f1", df, "y", "yhat", by="g", average=avg).sort("g")
        want = df.group_by("g").agg(ce.f1("y", "yhat", average=avg)).sort("g")
        assert got["f1"].to_list() == pytest.approx(want["f1"].to_list())
    with pytest.raises(Exception, match="average"):  # the front door's binary rule
        sql.aggregate("clf_f1", df, "y", "yhat", by="g", pos_label="a")


# --- the DuckDB command-line client (1.5.6) --------------------------------------------------


def _cli() -> str | None:
    return shutil.which("duckdb", path=os.path.dirname(sys.executable)) or shutil.which("duckdb")


CLI = _cli()
needs_cli = pytest.mark.skipif(
    CLI is None and os.environ.get("CI") != "true",
    reason="no duckdb command-line client (pip install duckdb-cli)",
)
CLI_TABLE = (
    "CREATE TABLE t AS SELECT CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS g, "
    "CAST((i * 7) % 4 AS INTEGER) AS y, CAST((i * 3) % 5 % 4 AS INTEGER) AS yhat FROM range(200) r(i)"
)


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    assert CLI is not None
    return subprocess.run(
        [CLI, *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


@needs_cli
def test_cli_runs_the_averaged_aggregates_like_polars(tmp_path):
    db = str(tmp_path / "label.db")
    done = _run(db, "-bail", stdin="".join(sql.text()) + "\n" + CLI_TABLE + ";\n")
    assert done.returncode == 0, done.stderr
    query = (
        "SELECT g, clf_f1(y, yhat, average := 'macro') AS f1, "
        "clf_precision(y, yhat, average := 'weighted') AS precision FROM t GROUP BY ALL ORDER BY g"
    )
    done = _run(db, "-json", "-c", query)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    done = _run(db, "-json", "-c", "SELECT g, y, yhat FROM t")
    assert done.returncode == 0, done.stderr
    df = pl.DataFrame(json.loads(done.stdout))  # the client's own table
    want = (
        df.group_by("g")
        .agg(
            ce.f1("y", "yhat", average="macro").alias("f1"),
            ce.precision("y", "yhat", average="weighted").alias("precision"),
        )
        .sort("g")
    )
    assert [r["g"] for r in got] == want["g"].to_list()
    assert len({*df["y"].to_list()}) == 4  # multiclass indeed
    for row, ref in zip(got, want.iter_rows(named=True)):
        for key in ("f1", "precision"):
            assert row[key] == pytest.approx(ref[key], rel=1e-9), key


def test_a_callers_table_and_columns_do_not_capture_lambda_parameters(con):
    """Tables named like short lambda parameters, with such columns: the same numbers."""
    base = pl.DataFrame({"y": [0, 1, 2, 2, 1], "yhat": [0, 2, 2, 1, 1]})
    for table in ("t", "r", "q", "x", "k"):
        frame = base.with_columns(
            *(pl.lit(9).alias(c) for c in ("p", "q", "r", "k", "x", "v", "s", "w", "tp", "i", "j"))
        )
        con.register(table, frame)
        got = con.execute(
            f"SELECT clf_f1(y, yhat, average := 'weighted'), clf_recall(y, yhat, "
            f"average := 'macro', labels := [2, 1]), clf_jaccard(y, yhat, average := 'micro') "
            f"FROM {table}"
        ).fetchall()[0]
        con.unregister(table)
        want = base.select(
            ce.f1("y", "yhat", average="weighted"),
            ce.recall("y", "yhat", average="macro", labels=[2, 1]),
            ce.jaccard("y", "yhat", average="micro"),
        ).row(0)  # fmt: skip
        assert got is not None
        assert list(got) == pytest.approx(list(want), rel=1e-12), table
