"""The aggregate forms of the ranking macros: ``SELECT g, clf_auroc(y, s) FROM t GROUP BY g``.

DuckDB (the Python package, and the command-line client 1.5.6 on one query) against the Polars
expressions and scikit-learn, per group, to 1e-9: weighted and not, tied scores, string labels,
one-class groups (NULL), NULL rows and NaN scores (left out). Then the clfeval: errors, and the
Python runner (clfeval.sql.aggregate), which finds clf_auroc as an aggregate although a table
macro has the same name.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval as ce
from clfeval import sql

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


@st.composite
def score_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, Any]:
    """Rows in up to three groups; labels 0/1 or 'no'/'yes'; scores from a few values (ties),
    NULL or NaN; weights with zeros and NULLs. Group 'c' holds one class only."""
    text = draw(st.booleans())
    n = draw(st.integers(1, 40))
    ints = st.integers(0, 1)
    y = draw(st.lists(st.one_of(ints, ints, ints, st.none()), min_size=n, max_size=n))
    s = draw(
        st.lists(
            st.one_of(
                *[st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9])] * 4, st.none(), st.just(math.nan)
            ),
            min_size=n,
            max_size=n,
        )
    )
    w = draw(
        st.lists(
            st.one_of(*[st.floats(0.1, 5.0)] * 4, st.just(0.0), st.none()), min_size=n, max_size=n
        )
    )
    g = draw(st.lists(st.sampled_from("ab"), min_size=n, max_size=n))
    one = draw(st.integers(1, 5))  # group 'c': one class, some rows
    y += [1] * one
    s += [0.5] * one
    w += [1.0] * one
    g += ["c"] * one
    pos: Any = 1
    if text:
        y = [None if v is None else ("yes" if v else "no") for v in y]
        pos = "yes"
    df = pl.DataFrame(
        {"g": g, "y": y, "s": s, "w": w},
        schema={
            "g": pl.String,
            "y": pl.String if text else pl.Int64,
            "s": pl.Float64,
            "w": pl.Float64,
        },
    )
    return df, pos


def _sk(fn: Any, sub: pl.DataFrame, pos: Any, weighted: bool) -> float | None:
    """scikit-learn on the rows with y, s (not NaN) and w; None where clfeval gives NULL."""
    keep = sub.filter(pl.col("y").is_not_null() & pl.col("s").is_not_nan())
    if weighted:
        keep = keep.filter(pl.col("w").is_not_null())
    y = (keep["y"] == pos).to_numpy()
    w = keep["w"].to_numpy() if weighted else None
    wpos = (w if w is not None else np.ones(len(y)))[y].sum()
    wneg = (w if w is not None else np.ones(len(y)))[~y].sum()
    if fn is skm.roc_auc_score and (wpos == 0 or wneg == 0):
        return None
    if fn is skm.average_precision_score and wpos == 0:
        return None
    return float(fn(y, keep["s"].to_numpy(), sample_weight=w))


def close(got: Any, want: Any) -> bool:
    if got is None or want is None:
        return got is None and want is None
    return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)


@SETTINGS
@given(case=score_frames(), weighted=st.booleans())
def test_auroc_and_average_precision_aggregates_match_polars_and_sklearn(con, case, weighted):
    df, pos = case
    wt = ", weight := w" if weighted else ""
    pl_pos = f"'{pos}'" if isinstance(pos, str) else str(pos)
    got = con.sql(
        f"SELECT g, clf_auroc(y, s, pos_label := {pl_pos}{wt}) AS auroc, "
        f"clf_average_precision(y, s, pos_label := {pl_pos}{wt}) AS ap FROM df GROUP BY g ORDER BY g"
    ).pl()
    # Polars counts a NaN score as a score; the aggregate macros leave it out, as NULL
    clean = df.with_columns(pl.col("s").fill_nan(None))
    weight = "w" if weighted else None
    want = (
        clean.group_by("g")
        .agg(
            ce.auroc("y", "s", pos_label=pos, weight=weight).alias("auroc"),
            ce.average_precision("y", "s", pos_label=pos, weight=weight).alias("ap"),
        )
        .sort("g")
    )
    assert got["g"].to_list() == want["g"].to_list()
    for key, _ in clean.group_by("g"):
        row = got.filter(pl.col("g") == key[0]).row(0, named=True)
        ref = want.filter(pl.col("g") == key[0]).row(0, named=True)
        sk_sub = df.filter(pl.col("g") == key[0])
        assert close(row["auroc"], ref["auroc"]), (key, row, ref)
        assert close(row["ap"], ref["ap"]), (key, row, ref)
        assert close(row["auroc"], _sk(skm.roc_auc_score, sk_sub, pos, weighted)), (key, row)
        assert close(row["ap"], _sk(skm.average_precision_score, sk_sub, pos, weighted)), (key, row)
    assert got.filter(pl.col("g") == "c")["auroc"].item() is None


def test_huge_weights_do_not_overflow(con):
    df = pl.DataFrame({"y": [1, 0, 1, 0, 1], "s": [0.9, 0.8, 0.7, 0.7, 0.1], "w": [1e300] * 5})
    got = con.execute(
        "SELECT clf_auroc(y, s, weight := w), clf_average_precision(y, s, weight := w) FROM df"
    ).fetchall()[0]
    y, s = df["y"].to_numpy(), df["s"].to_numpy()
    assert got[0] == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert got[1] == pytest.approx(skm.average_precision_score(y, s), rel=1e-12)


def test_table_and_aggregate_forms_live_side_by_side(con):
    con.execute(
        "CREATE OR REPLACE TABLE side AS SELECT i % 3 AS g, CAST((i * 7) % 5 < 2 AS INTEGER) AS y, "
        "((i * 37) % 101) / 100.0 AS s, 1.0 + i % 4 AS w FROM range(300) r(i)"
    )
    for weight, col in (("", ""), (", weight := w", ", weight_col := 'w'")):
        for name in ("clf_auroc", "clf_average_precision"):
            agg = con.sql(
                f"SELECT g, {name}(y, s{weight}) FROM side GROUP BY g ORDER BY g"
            ).fetchall()
            table = con.sql(f"FROM {name}('side', 'y', 's', group_cols := ['g']{col})").fetchall()
            assert len(agg) == len(table) == 3
            for a, t in zip(agg, table):
                assert a[0] == t[0]
                assert a[1] == pytest.approx(t[1], rel=1e-12)


def _fails(con: duckdb.DuckDBPyConnection, query: str, *fragments: str) -> None:
    with pytest.raises(duckdb.Error) as err:
        con.sql(query).fetchall()
    message = str(err.value)
    assert "clfeval: " in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.mark.parametrize("name", ["clf_auroc", "clf_average_precision"])
def test_ranking_aggregates_raise_the_clfeval_errors(con, name):
    con.execute(
        "CREATE OR REPLACE TABLE bad AS SELECT * FROM (VALUES (1, '1', 0.9, 1.0), (0, '0', 0.4, -5.0), "
        "(1, '1', 0.2, 1.0)) v(y, ys, s, w)"
    )
    _fails(
        con, f"SELECT {name}(y, s, weight := w) FROM bad", f"clfeval: {name}: weight has 1 negative"
    )
    _fails(
        con,
        f"SELECT {name}(ys, s) FROM bad",
        f"clfeval: {name}: y (VARCHAR) and pos_label (INTEGER) hold different kinds of labels",
    )
    _fails(
        con, f"SELECT {name}(y, ys) FROM bad", f"clfeval: {name}: score (VARCHAR) holds no numbers"
    )
    _fails(con, f"SELECT {name}(y, s, pos_label := NULL) FROM bad", "pos_label is NULL")


def test_the_python_runner_finds_the_aggregate_and_the_table_macro():
    df = pl.DataFrame(
        {
            "g": [1, 1, 1, 1, 2, 2, 2],
            "y": [1, 0, 1, 0, 1, 1, 0],
            "s": [0.9, 0.2, 0.5, 0.5, 0.3, 0.1, 0.2],
        }
    )
    agg = sql.aggregate("clf_auroc", df, "y", "s", by="g").sort("g")
    table = sql.table_macro("clf_auroc", df, "y", "s", group_cols=["g"]).sort("g")
    want = df.group_by("g").agg(ce.auroc("y", "s")).sort("g")
    assert agg["auroc"].to_list() == pytest.approx(want["auroc"].to_list())
    assert table["auroc"].to_list() == pytest.approx(want["auroc"].to_list())
    ap = sql.aggregate("clf_average_precision", df, "y", "s", by="g").sort("g")
    assert ap["average_precision"].to_list() == pytest.approx(
        df.group_by("g")
        .agg(ce.average_precision("y", "s"))
        .sort("g")["average_precision"]
        .to_list()
    )


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
    "CAST((i * 7) % 5 < 2 AS INTEGER) AS y, CAST((i * 3) % 4 AS INTEGER) AS yhat, "
    "round(((i * 37) % 101) / 100.0, 1) AS s, CAST(i % 4 AS DOUBLE) AS w FROM range(200) r(i)"
)


@needs_cli
def test_cli_runs_the_aggregates_like_polars(tmp_path):
    assert CLI is not None
    db = tmp_path / "agg.db"
    script = sql.text() + "\n" + CLI_TABLE + ";\n"
    done = subprocess.run(
        [CLI, str(db), "-bail"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    query = (
        "SELECT g, clf_auroc(y, s) AS auroc, clf_auroc(y, s, weight := w) AS auroc_w, "
        "clf_average_precision(y, s) AS ap, clf_average_precision(y, s, weight := w) AS ap_w "
        "FROM t GROUP BY ALL ORDER BY g"
    )
    done = subprocess.run(
        [CLI, str(db), "-json", "-c", query],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    done = subprocess.run(
        [CLI, str(db), "-json", "-c", "SELECT g, y, yhat, CAST(s AS DOUBLE) AS s, w FROM t"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    df = pl.DataFrame(json.loads(done.stdout))  # the client's own table
    want = (
        df.group_by("g")
        .agg(
            ce.auroc("y", "s").alias("auroc"),
            ce.auroc("y", "s", weight="w").alias("auroc_w"),
            ce.average_precision("y", "s").alias("ap"),
            ce.average_precision("y", "s", weight="w").alias("ap_w"),
        )
        .sort("g")
    )
    assert [r["g"] for r in got] == want["g"].to_list()
    for row, ref in zip(got, want.iter_rows(named=True)):
        for key in ("auroc", "auroc_w", "ap", "ap_w"):
            assert row[key] == pytest.approx(ref[key], rel=1e-9), key
