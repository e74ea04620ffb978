"""The multiclass label aggregates clf_mcc, clf_balanced_accuracy and clf_cohen_kappa.

DuckDB (the Python package; the command-line client 1.5.6 on one query) against the Polars
expressions (ce.mcc, ce.balanced_accuracy, ce.cohen_kappa) and scikit-learn, per group, to
1e-9: 2-5 classes, integer and string labels, weighted (zero weights too) and not, kappa's
weights NULL / 'linear' / 'quadratic' and labels given or not, a one-class group, NULL rows left
out. Then the clfeval: errors, pos_label (gone: it raises), and the Python runner.
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
KAPPA_WEIGHTS = [None, "linear", "quadratic"]


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


@st.composite
def label_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, list[Any]]:
    """Groups 'a' and 'b' of 2-5 classes (NULL labels and weights, zero weights, many ties)
    and group 'c' with one class; integer or string labels. Returns the frame and classes."""
    text = draw(st.booleans())
    k = draw(st.integers(2, 5))
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
        try:
            return float(fn(*args, **kwargs))
        except ValueError:  # e.g. no row of labels left: scikit-learn raises
            return math.nan


@SETTINGS
@given(
    data=label_frames(),
    weighted=st.booleans(),
    adjusted=st.booleans(),
    kappa_weights=st.sampled_from(KAPPA_WEIGHTS),
    pick=st.randoms(use_true_random=False),
    use_labels=st.booleans(),
)
def test_multiclass_aggregates_equal_polars_and_sklearn(
    con, data, weighted, adjusted, kappa_weights, pick, use_labels
):
    df, classes = data
    labels = pick.sample(classes, pick.randint(1, len(classes))) if use_labels else None
    con.register("lt", df)
    w_sql = ", weight := w" if weighted else ""
    l_sql = f", labels := [{', '.join(_lit(v) for v in labels)}]" if labels else ""
    wt = None if not weighted else "w"
    got = con.sql(
        f"SELECT g, clf_mcc(y, yhat{w_sql}) AS mcc, "
        f"clf_balanced_accuracy(y, yhat, adjusted := {str(adjusted).lower()}{w_sql}) AS bal, "
        f"clf_cohen_kappa(y, yhat, weights := {_lit(kappa_weights)}{l_sql}{w_sql}) AS kappa, "
        f"clf_cohen_kappa(y, yhat{w_sql}) AS kappa_plain "
        "FROM lt GROUP BY ALL ORDER BY g"
    ).pl()
    want = (
        df.group_by("g")
        .agg(
            ce.mcc("y", "yhat", weight=wt).alias("mcc"),
            ce.balanced_accuracy("y", "yhat", adjusted=adjusted, weight=wt).alias("bal"),
            ce.cohen_kappa("y", "yhat", weights=kappa_weights, labels=labels, weight=wt).alias(
                "kappa"
            ),
            ce.cohen_kappa("y", "yhat", weight=wt).alias("kappa_plain"),
        )
        .sort("g")
    )
    con.unregister("lt")
    assert got["g"].to_list() == want["g"].to_list()
    assert got.columns == want.columns
    for row, ref in zip(got.iter_rows(named=True), want.iter_rows(named=True)):
        for key in ("mcc", "bal", "kappa", "kappa_plain"):
            assert _same(row[key], ref[key]), (key, row["g"], row[key], ref[key], labels)
        y, yhat, w = _group_data(df, row["g"], weighted)
        total = len(y) if w is None else float(w.sum())
        if total == 0:
            continue
        sk = {
            "mcc": _sk(skm.matthews_corrcoef, y, yhat, sample_weight=w),
            "bal": _sk(skm.balanced_accuracy_score, y, yhat, adjusted=adjusted, sample_weight=w),
            "kappa_plain": _sk(skm.cohen_kappa_score, y, yhat, sample_weight=w),
        }
        kept = sum(
            (1.0 if w is None else w[i])
            for i in range(len(y))
            if labels is None or (y[i] in labels and yhat[i] in labels)
        )
        if kept > 0:
            sk["kappa"] = _sk(
                skm.cohen_kappa_score, y, yhat, weights=kappa_weights, labels=labels,
                sample_weight=w,
            )  # fmt: skip
        present = {v for i, v in enumerate(y) if w is None or w[i] > 0}
        if adjusted and len(present) < 2:  # scikit-learn divides by 1 - 1/1: -inf or NaN
            assert row["bal"] is None
            del sk["bal"]
        for key, value in sk.items():
            assert _same(row[key], value), (key, row["g"], row[key], value, labels)


def test_the_briefs_query_runs_with_group_by_all(con):
    """The call forms of the README: several groups, string classes, labels in an order."""
    rng = np.random.default_rng(7)
    n = 3000
    y = rng.choice(["a", "b", "c"], n)
    pred = np.where(rng.random(n) < 0.6, y, rng.choice(["a", "b", "c", "d"], n))
    df = pl.DataFrame({"model": rng.choice(["m1", "m2", "m3"], n), "label": y, "pred": pred})
    con.register("preds", df)
    got = con.sql(
        "SELECT model, clf_mcc(label, pred) AS mcc, "
        "clf_balanced_accuracy(label, pred, adjusted := true) AS bal, "
        "clf_cohen_kappa(label, pred, weights := 'quadratic', labels := ['a','b','c']) AS kappa "
        "FROM preds GROUP BY ALL ORDER BY model"
    ).pl()
    con.unregister("preds")
    for row in got.iter_rows(named=True):
        part = df.filter(pl.col("model") == row["model"])
        yy, pp = part["label"].to_list(), part["pred"].to_list()
        assert row["mcc"] == pytest.approx(skm.matthews_corrcoef(yy, pp), rel=1e-9)
        assert row["bal"] == pytest.approx(
            _sk(skm.balanced_accuracy_score, yy, pp, adjusted=True), rel=1e-9
        )
        assert row["kappa"] == pytest.approx(
            skm.cohen_kappa_score(yy, pp, weights="quadratic", labels=["a", "b", "c"]), rel=1e-9
        )
    assert len(got) == 3


def test_two_classes_keep_the_binary_numbers_and_large_weights(con):
    """On two classes the numbers are those of the binary macros before (scikit-learn's), also
    with huge weights (shares, no overflow) and booleans."""
    y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0]
    h = [1, 0, 0, 1, 1, 0, 1, 0, 1, 1]
    w = [1.0, 2.0, 1.0, 0.0, 3.0, 1.0, 2.0, 1.0, 1.0, 0.5]
    for scale in (1.0, 1e300):
        con.register("two", pl.DataFrame({"y": y, "yhat": h, "w": [v * scale for v in w]}))
        got = con.execute(
            "SELECT clf_mcc(y, yhat, weight := w), clf_cohen_kappa(y, yhat, weight := w), "
            "clf_balanced_accuracy(y, yhat, weight := w), clf_mcc(y = 1, yhat = 1), "
            "clf_balanced_accuracy(y, yhat, adjusted := true) FROM two"
        ).fetchall()[0]
        con.unregister("two")
        want = [
            skm.matthews_corrcoef(y, h, sample_weight=w),
            skm.cohen_kappa_score(y, h, sample_weight=w),
            skm.balanced_accuracy_score(y, h, sample_weight=w),
            skm.matthews_corrcoef(y, h),
            skm.balanced_accuracy_score(y, h, adjusted=True),
        ]
        assert list(got) == pytest.approx(want, rel=1e-12), scale


def test_undefined_cases(con):
    """One class: mcc 0.0, kappa NULL, balanced accuracy 1.0 (adjusted NULL); no row left:
    mcc 0.0, the others NULL; only zero weights: as Polars."""
    con.register("u", pl.DataFrame(
        {"y": [3, 3, None, 3], "yhat": [3, 3, 1, None], "w": [1.0, 2.0, 1.0, 0.0]}
    ))  # fmt: skip
    got = con.execute(
        "SELECT clf_mcc(y, yhat), clf_cohen_kappa(y, yhat), clf_balanced_accuracy(y, yhat), "
        "clf_balanced_accuracy(y, yhat, adjusted := true), "
        "clf_cohen_kappa(y, yhat, labels := [7]) FROM u"
    ).fetchall()[0]
    assert got == (0.0, None, 1.0, None, None)
    got = con.execute(
        "SELECT clf_mcc(y, yhat), clf_cohen_kappa(y, yhat), clf_balanced_accuracy(y, yhat) "
        "FROM u WHERE y IS NULL"
    ).fetchall()[0]
    df = pl.DataFrame({"y": [None], "yhat": [1]}, schema={"y": pl.Int64, "yhat": pl.Int64})
    want = df.select(ce.mcc("y", "yhat"), ce.cohen_kappa("y", "yhat"),
                     ce.balanced_accuracy("y", "yhat")).row(0)  # fmt: skip
    assert [_same(a, b) for a, b in zip(got, want)] == [True] * 3, (got, want)
    zero = pl.DataFrame({"y": [0, 1, 1], "yhat": [0, 1, 0], "w": [0.0, 0.0, 0.0]})
    con.register("z", zero)
    got = con.execute(
        "SELECT clf_mcc(y, yhat, weight := w), clf_cohen_kappa(y, yhat, weight := w), "
        "clf_balanced_accuracy(y, yhat, weight := w) FROM z"
    ).fetchall()[0]
    want = zero.select(ce.mcc("y", "yhat", weight="w"), ce.cohen_kappa("y", "yhat", weight="w"),
                       ce.balanced_accuracy("y", "yhat", weight="w")).row(0)  # fmt: skip
    assert [_same(a, b) for a, b in zip(got, want)] == [True] * 3, (got, want)
    con.unregister("u")
    con.unregister("z")


# --- errors -----------------------------------------------------------------------------------


def _fails(con: duckdb.DuckDBPyConnection, query: str, *parts: str) -> None:
    with pytest.raises(duckdb.Error) as info:
        con.execute(query).fetchall()
    message = str(info.value)
    assert "clfeval:" in message, message
    for part in parts:
        assert part in message, (part, message)


@pytest.fixture(scope="module")
def mixed(con) -> str:
    con.execute(
        "CREATE OR REPLACE TABLE mc AS SELECT i % 3 AS y, (i * 7) % 3 AS yhat, "
        "CAST(i % 3 AS VARCHAR) AS ys, CASE WHEN i = 4 THEN -1.0 ELSE 1.0 END AS wneg, "
        "CASE WHEN i = 4 THEN 'nan'::DOUBLE ELSE 1.0 END AS wnan FROM range(12) r(i)"
    )
    return "mc"


CALLS = {
    "clf_mcc": "clf_mcc({y}, {yhat}{extra})",
    "clf_balanced_accuracy": "clf_balanced_accuracy({y}, {yhat}{extra})",
    "clf_cohen_kappa": "clf_cohen_kappa({y}, {yhat}{extra})",
}


@pytest.mark.parametrize("name", CALLS)
def test_errors_of_kinds_weights_and_pos_label(con, mixed, name):
    call = CALLS[name]
    _fails(con, f"SELECT {call.format(y='ys', yhat='yhat', extra='')} FROM mc",
           f"clfeval: {name}: y (VARCHAR) and yhat (BIGINT) hold different kinds of labels",
           "text never equals a number")  # fmt: skip
    _fails(con, f"SELECT {call.format(y='y', yhat='yhat', extra=', weight := wneg')} FROM mc",
           f"clfeval: {name}: weight has 1 negative value(s) (min -1.0); weights must be finite "
           "and >= 0")  # fmt: skip
    _fails(con, f"SELECT {call.format(y='y', yhat='yhat', extra=', weight := wnan')} FROM mc",
           f"clfeval: {name}: weight has 1 NaN value(s)")  # fmt: skip
    _fails(con, f"SELECT {call.format(y='y', yhat='yhat', extra=', pos_label := 1')} FROM mc",
           f"clfeval: {name}: pos_label = 1 is not used: the metric is multiclass",
           "drop pos_label")  # fmt: skip
    # grouped: the checks hold per group too
    _fails(con, f"SELECT y, {call.format(y='ys', yhat='yhat', extra='')} FROM mc GROUP BY y",
           "hold different kinds of labels")  # fmt: skip


def test_kappa_option_errors(con, mixed):
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, weights := 'cubic') FROM mc",
           "clfeval: clf_cohen_kappa: weights = 'cubic' is not one of NULL, 'linear', "
           "'quadratic'; weights sets how far apart two classes are in the class order")  # fmt: skip
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, weights := 2) FROM mc",
           "weights = 2 is not one of NULL, 'linear', 'quadratic'")  # fmt: skip
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, labels := [1, 1]) FROM mc",
           "clfeval: labels = [1, 1] lists a class more than once")  # fmt: skip
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, labels := [1, NULL]) FROM mc",
           "clfeval: labels = [1, NULL] lists NULL")  # fmt: skip
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, labels := ['1']) FROM mc",
           "hold different kinds of labels", "text never equals a number")  # fmt: skip
    _fails(con, "SELECT clf_cohen_kappa(y, yhat, labels := []) FROM mc",
           "clfeval: labels = [] lists no class")  # fmt: skip


def test_the_python_runner(con):
    from clfeval.exceptions import InputError

    df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2, 2], "y": ["a", "b", "c", "a", "a", "b", "c"],
                       "p": ["a", "c", "c", "b", "a", "b", "a"], "w": [1.0, 2, 0, 1, 1, 3, 1]})  # fmt: skip
    got = sql.aggregate("clf_cohen_kappa", df, "y", "p", by="g", weight="w", weights="linear",
                        labels=["c", "a", "b"])  # fmt: skip
    want = df.group_by("g").agg(
        ce.cohen_kappa("y", "p", weights="linear", labels=["c", "a", "b"], weight="w")
    ).sort("g")  # fmt: skip
    assert got.columns == ["g", "cohen_kappa"]
    assert got["cohen_kappa"].to_list() == pytest.approx(want["cohen_kappa"].to_list(), rel=1e-12)
    for name, fn, extra in (
        ("clf_mcc", ce.mcc, {}),
        ("clf_balanced_accuracy", ce.balanced_accuracy, {"adjusted": True}),
    ):
        got = sql.aggregate(name, df, "y", "p", by="g", **extra)
        want = df.group_by("g").agg(fn("y", "p", **extra)).sort("g")
        assert got["g"].to_list() == want["g"].to_list()
        pairs = list(zip(got[got.columns[-1]], want[want.columns[-1]], strict=True))
        assert all(_same(a, b) for a, b in pairs), pairs
    with pytest.raises(InputError, match="weights='cubic' is not one of"):
        sql.aggregate("clf_cohen_kappa", df, "y", "p", weights="cubic")


def test_a_callers_table_and_columns_do_not_capture_lambda_parameters(con):
    base = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0], "yhat": [0, 2, 2, 1, 1, 1],
                         "wt": [1.0, 2.0, 0.5, 1.0, 3.0, 1.0]})  # fmt: skip
    want = base.select(
        ce.mcc("y", "yhat", weight="wt"),
        ce.balanced_accuracy("y", "yhat", weight="wt"),
        ce.cohen_kappa("y", "yhat", weights="quadratic", labels=[2, 0, 1], weight="wt"),
    ).row(0)
    for table in ("t", "g", "m", "e", "k", "q"):
        frame = base.with_columns(
            *(pl.lit(9).alias(c) for c in ("p", "q", "k", "e", "s", "w", "t", "tp", "i", "j", "h"))
        )
        con.register(table, frame)
        got = con.execute(
            "SELECT clf_mcc(y, yhat, weight := wt), clf_balanced_accuracy(y, yhat, weight := wt), "
            "clf_cohen_kappa(y, yhat, weights := 'quadratic', labels := [2, 0, 1], weight := wt) "
            f"FROM {table}"
        ).fetchall()[0]
        con.unregister(table)
        assert list(got) == pytest.approx(list(want), rel=1e-12), table


# --- the DuckDB command-line client (1.5.6) --------------------------------------------------


def _cli() -> str | None:
    return shutil.which("duckdb", path=os.path.dirname(sys.executable)) or shutil.which("duckdb")


CLI = _cli()
needs_cli = pytest.mark.skipif(
    CLI is None and os.environ.get("CI") != "true",
    reason="no duckdb command-line client (pip install duckdb-cli)",
)


@needs_cli
def test_cli_runs_the_multiclass_aggregates_like_polars(tmp_path):
    db = str(tmp_path / "mc.db")
    table = (
        "CREATE TABLE t AS SELECT CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS g, "
        "CAST((i * 7) % 4 AS INTEGER) AS y, CAST((i * 3) % 5 % 4 AS INTEGER) AS yhat, "
        "(i % 5) / 2.0 AS w FROM range(200) r(i)"
    )
    done = subprocess.run([CLI, db, "-bail"], input="".join(sql.text()) + "\n" + table + ";\n",
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    query = (
        "SELECT g, clf_mcc(y, yhat, weight := w) AS mcc, clf_balanced_accuracy(y, yhat) AS bal, "
        "clf_cohen_kappa(y, yhat, weights := 'linear', weight := w) AS kappa "
        "FROM t GROUP BY ALL ORDER BY g"
    )
    done = subprocess.run([CLI, db, "-json", "-c", query], capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    done = subprocess.run([CLI, db, "-json", "-c", "SELECT g, y, yhat, w::DOUBLE AS w FROM t"],
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    df = pl.DataFrame(json.loads(done.stdout))
    want = df.group_by("g").agg(
        ce.mcc("y", "yhat", weight="w").alias("mcc"),
        ce.balanced_accuracy("y", "yhat").alias("bal"),
        ce.cohen_kappa("y", "yhat", weights="linear", weight="w").alias("kappa"),
    ).sort("g")  # fmt: skip
    assert [r["g"] for r in got] == want["g"].to_list()
    for row, ref in zip(got, want.iter_rows(named=True)):
        for key in ("mcc", "bal", "kappa"):
            assert row[key] == pytest.approx(ref[key], rel=1e-9), key
