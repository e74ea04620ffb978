"""Uncertainty in DuckDB: the macros of sql/70_uncertainty.sql and sql/75_compare.sql against
the Polars functions.

The draws are counter-based and computed with the same arithmetic in both engines, so the
replicates are equal (to the last bits of the metric formulas), and the intervals too; the
paired macros, outside the one-column families of test_sql_guards.py, get their own guards;
the coverage tests run the macros on simulated data sets (groups of one table).
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from test_uncertainty import LABEL, binned_binormal, confusion_sets, coverage

import clfeval as ce
from clfeval import _draws, _normal, sql

TOL = 1e-12


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    return sql.connect()


@pytest.fixture(scope="module")
def data() -> pl.DataFrame:
    rng = np.random.default_rng(21)
    n = 1500
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.75, y, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.8, y, rng.integers(0, 3, n))
    return pl.DataFrame(
        {
            "g": pl.Series(rng.choice(["p", "q", "-"], n)).replace("-", None),
            "y": y,
            "a": a,
            "b": b,
            "ybin": (y == 1).astype(int),
            "abin": (a == 1).astype(int),
            "bbin": (b == 1).astype(int),
            "s": np.round(rng.random(n) * 0.6 + (y == 1) * 0.4, 2),
            "s2": np.round(rng.random(n) * 0.5 + (y == 1) * 0.5, 2),
            "w": rng.integers(0, 4, n).astype(float),
        }
    )


def test_the_arithmetic_is_the_polars_arithmetic(con):
    cells = pl.DataFrame(
        {
            _draws.CELL: pl.Series(range(60), dtype=pl.UInt64),
            _draws.LAM: [0.0, 0.3, 1.0, 7.5, 99.99, 100.0, 101.5, 1e5, 3.3e7, 42.0] * 6,
        }
    )
    reps = pl.LazyFrame({_draws.REP: pl.Series(range(500), dtype=pl.UInt64)})
    ours = _draws.draw(cells.lazy(), reps, 123).collect()
    con.register("cells", cells)
    theirs = con.sql("FROM _clf_boot_draws('cells', 500, 123)").pl()
    joined = ours.join(theirs, on=[_draws.CELL, _draws.REP])
    assert joined.height == 30_000
    assert (joined[_draws.DRAW] == joined["__clf_n"]).all()
    u = _draws.uniform_columns(cells.lazy().join(reps, how="cross"), 123).collect()
    con.register("u", u)
    same = con.sql(
        "SELECT count(*) FROM u WHERE _clf_uniform(123, __clf_cell, __clf_rep) <> __clf_u"
    )
    assert same.fetchall() == [(0,)]
    ps = pl.DataFrame({"p": np.concatenate([np.linspace(1e-6, 1 - 1e-6, 2001), [1e-300, 1e-20]])})
    con.register("ps", ps)
    z = con.sql("SELECT z, _clf_erfc(abs(z)) AS e FROM (SELECT _clf_ndtri(p) AS z FROM ps)").pl()
    want = _normal.ndtri_columns(ps.lazy(), "p", "z").collect()["z"]
    assert (z["z"] - want).abs().max() == 0.0
    tail = ps.with_columns(z=want.abs()).select(_normal.erfc_expr(pl.col("z")).alias("e"))["e"]
    assert ((z["e"] - tail).abs() / tail).max() < 1e-15


@pytest.mark.parametrize("weight", [None, "w"])
@pytest.mark.parametrize("average", ["binary", "macro"])
def test_bootstrap_replicates_equal_polars(data, average, weight):
    y, yhat = ("ybin", "abin") if average == "binary" else ("y", "a")
    kw = {"by": "g", "weight": weight, "n_boot": 300, "seed": 17, "average": average}
    assert_frame_equal(
        ce.bootstrap(data, y, yhat, **kw), sql.bootstrap(data, y, yhat, **kw), abs_tol=TOL
    )
    scored = {"score": "s", "by": "g", "weight": weight, "n_boot": 200, "seed": 17}
    assert_frame_equal(
        ce.bootstrap(data, "ybin", **scored), sql.bootstrap(data, "ybin", **scored), abs_tol=TOL
    )


def test_intervals_delong_and_paired_tests_equal_polars_on_frames_and_tables(con, data):
    con.register("t", data)
    for source in (data, "t"):
        run = {"con": con} if isinstance(source, str) else {}
        assert_frame_equal(
            ce.metrics(data, "y", "a", average="macro", by="g", ci=0.9, n_boot=100),
            sql.metrics(source, "y", "a", average="macro", by="g", ci=0.9, n_boot=100, **run),
            abs_tol=TOL,
        )
        assert_frame_equal(
            ce.auroc_ci(data, "ybin", "s", by="g", weight="w"),
            sql.auroc_ci(source, "ybin", "s", by="g", weight="w", **run),
            abs_tol=1e-9,
        )
        assert_frame_equal(
            ce.compare_auroc(data, "ybin", ["s", "s2"], by="g", level=0.9),
            sql.compare_auroc(source, "ybin", ["s", "s2"], by="g", level=0.9, **run),
            abs_tol=1e-9,
        )
        kw = {"by": "g", "weight": "w", "n_boot": 100}
        average = "weighted" if isinstance(source, str) else "binary"  # the averaged plan once
        y, a, b = ("y", "a", "b") if average == "weighted" else ("ybin", "abin", "bbin")
        assert_frame_equal(
            ce.compare(data, y, [a, b], average=average, **kw),
            sql.compare(source, y, [a, b], average=average, **kw, **run),
            abs_tol=TOL,
        )


def test_the_paired_macros_guard_their_input(con, data):
    con.register(
        "t",
        data.with_columns(
            wneg=pl.col("w") - 1, wfrac=pl.col("w") / 2, ytext=pl.col("y").cast(pl.String)
        ),
    )

    def fails(query: str, fragment: str) -> None:
        with pytest.raises(duckdb.Error, match="clfeval: ") as err:
            con.sql(query).fetchall()
        assert fragment in str(err.value), str(err.value)

    for macro, cols in (
        ("clf_compare_auroc", "'ybin', 's', 's2'"),
        ("clf_compare", "'y', 'a', 'b'"),
    ):
        fails(f"FROM {macro}('t', {cols}, weight_col := 'wneg')", "column 'wneg' (role weight) has")
        fails(f"FROM {macro}('t', {cols}, weight_col := 'wfrac')", "non-integral value(s)")
        fails(f"FROM {macro}('t', {cols}, level := 1.5)", "level = 1.5 is not a number in (0, 1)")
    fails("FROM clf_compare('t', 'ytext', 'a', 'b')", "hold different kinds of labels")
    fails("FROM clf_compare_auroc('t', 'ybin', 's', 'ytext')", "holds no numbers")
    fails("FROM clf_compare('t', 'ybin', 'abin', 'bbin', n_boot := 0)", "n_boot = 0 is not an")
    fails("FROM clf_bootstrap('t', 'y', 'a', seed := -1, average := 'macro')", "seed = -1")
    fails("FROM clf_metrics_ci('t', 'y', 'a', level := 0, average := 'macro')", "level = 0")
    fails("FROM clf_auroc_ci('t', 'ybin', 's', weight_col := 'wfrac')", "non-integral value(s)")
    with pytest.raises(
        ce.InputError, match=r"column 'wfrac' \(weight\) has \d+ non-integral value"
    ):
        sql.auroc_ci("t", "ybin", "s", weight="wfrac", con=con)
    with pytest.raises(
        ce.InputError, match=r"column 'wfrac' \(weight\) has \d+ non-integral value"
    ):
        ce.auroc_ci(con.sql("FROM t").pl(), "ybin", "s", weight="wfrac")


def test_mcnemar_in_sql_matches_polars_at_the_exact_and_chi_square_boundary(con):
    for b, c in ((2, 9), (11, 13), (13, 12)):
        df = pl.DataFrame(
            {
                "y": [1] * (b + c + 20),
                "a": [1] * b + [0] * c + [1] * 20,
                "b": [0] * b + [1] * c + [1] * 20,
            }
        )
        ours = ce.compare(df, "y", ["a", "b"], metrics=["accuracy"], n_boot=20)
        theirs = sql.compare(df, "y", ["a", "b"], metrics=["accuracy"], n_boot=20)
        assert_frame_equal(ours, theirs, abs_tol=1e-15)


def test_duckdb_coverage_of_label_metrics_and_auroc():
    """The macros' intervals on ≥ 400 simulated data sets (the Polars tests' simulations)."""
    df, truth = confusion_sets(500, 400, seed=4)
    out = sql.metrics(df, "y", "yhat", by="ds", weight="n", ci=0.95, n_boot=400, seed=8)
    for name in LABEL:
        assert 0.93 <= coverage(out, name, truth[name]) <= 0.97, name
    scores, auc = binned_binormal(400, 400, 1.0, seed=12)
    reps = sql.bootstrap(scores, "y", score="s", metrics=["auroc"], by="ds", n_boot=400, seed=3)
    ints = reps.group_by("ds").agg(
        pl.col("auroc").quantile(0.025, "linear").alias("auroc_lo"),
        pl.col("auroc").quantile(0.975, "linear").alias("auroc_hi"),
    )
    assert 0.93 <= coverage(ints, "auroc", auc) <= 0.97
    d, m, mu = 1000, 100, 1.2
    rng = np.random.default_rng(11)
    y = np.tile(np.r_[np.ones(m), np.zeros(m)], d).astype(int)
    frame = pl.DataFrame(
        {"ds": np.repeat(np.arange(d), 2 * m), "y": y, "s": rng.normal(size=2 * m * d) + mu * y}
    )
    delong = sql.auroc_ci(frame, "y", "s", by="ds")
    assert 0.93 <= coverage(delong, "auroc", 0.5 * math.erfc(-mu / 2)) <= 0.97


def test_paired_tests_drop_missing_rows_alike():
    df = pl.DataFrame(
        {
            "g": ["a", "a", "b", "b", "a", "b", "a", "b"],
            "y": [1, 0, 1, None, 1, 0, 0, 1],
            "a": [1, 0, 0, 1, None, 0, 1, 1],
            "b": [1, 1, 1, 0, 1, 0, 0, 1],
        }
    )
    kw = {"by": "g", "missing": "drop", "metrics": ["accuracy"], "n_boot": 20}
    out = ce.compare(df, "y", ["a", "b"], **kw)
    assert out["n_excluded"].to_list() == [1, 1]
    assert_frame_equal(out, sql.compare(df, "y", ["a", "b"], **kw))
    with pytest.raises(ce.InputError, match=r"column 'y' \(y\) has 1 null value"):
        sql.compare(df, "y", ["a", "b"])
