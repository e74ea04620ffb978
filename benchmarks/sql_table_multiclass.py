"""Times of the multiclass / new table macros against the Polars expressions and frame
functions: 2M rows in 100 groups and in one group, unweighted and weighted, best of 3.

    PYTHONPATH=src python benchmarks/sql_table_multiclass.py [n_rows]
"""

from __future__ import annotations

import sys
import time

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
rng = np.random.default_rng(0)
P = rng.dirichlet(np.ones(3), N)
df = pl.DataFrame(
    {
        "g": rng.integers(0, 100, N),
        "one": np.zeros(N, dtype=np.int64),
        "y": rng.integers(0, 3, N),
        "p0": P[:, 0],
        "p1": P[:, 1],
        "p2": P[:, 2],
        "w": rng.random(N) * 2,
    }
).with_columns(yb=(pl.col("y") == 1).cast(pl.Int64))
con = duckdb.connect()
sql.load(con)
con.execute("CREATE TABLE t AS FROM df")
M = {0: "p0", 1: "p1", 2: "p2"}
COLS, LABELS = "['p0', 'p1', 'p2']", "[0, 1, 2]"


def best(f, reps: int = 3) -> float:
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return min(out)


def polars_agg(expr_of):
    return lambda g, w: lambda: df.group_by(g).agg(expr_of(w))


def polars_frame(fn):
    return lambda g, w: lambda: fn(g, w)


CASES = {
    "clf_auroc max_fpr=0.3": (
        lambda g, w: (
            f"FROM clf_auroc('t', 'yb', 'p1', group_cols := ['{g}'], weight_col := {w}, max_fpr := 0.3)"
        ),
        polars_agg(lambda w: ce.auroc("yb", "p1", max_fpr=0.3, weight=w)),
    ),
    "clf_auroc_multiclass ovr macro": (
        lambda g, w: (
            f"FROM clf_auroc_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w})"
        ),
        polars_agg(lambda w: ce.auroc("y", M, weight=w)),
    ),
    "clf_auroc_multiclass ovr micro": (
        lambda g, w: (
            f"FROM clf_auroc_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w}, average := 'micro')"
        ),
        polars_agg(lambda w: ce.auroc("y", M, average="micro", weight=w)),
    ),
    "clf_auroc_multiclass ovo macro": (
        lambda g, w: (
            f"FROM clf_auroc_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w}, multi_class := 'ovo')"
        ),
        polars_agg(lambda w: ce.auroc("y", M, multi_class="ovo", weight=w)),
    ),
    "clf_top_k_accuracy k=2": (
        lambda g, w: (
            f"FROM clf_top_k_accuracy('t', 'y', {COLS}, labels := {LABELS}, k := 2, group_cols := ['{g}'], weight_col := {w})"
        ),
        polars_agg(lambda w: ce.top_k_accuracy("y", M, k=2, weight=w)),
    ),
    "clf_ece_multiclass": (
        lambda g, w: (
            f"FROM clf_ece_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w})"
        ),
        polars_agg(lambda w: ce.ece("y", M, weight=w)),
    ),
    "clf_ece (binary)": (
        lambda g, w: f"FROM clf_ece('t', 'yb', 'p1', group_cols := ['{g}'], weight_col := {w})",
        polars_agg(lambda w: ce.ece("yb", "p1", weight=w)),
    ),
    "clf_lift": (
        lambda g, w: f"FROM clf_lift('t', 'yb', 'p1', group_cols := ['{g}'], weight_col := {w})",
        polars_frame(lambda g, w: ce.lift_curve(df, "yb", "p1", by=g, weight=w)),
    ),
    "clf_roc_curve_multiclass": (
        lambda g, w: (
            f"FROM clf_roc_curve_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w})"
        ),
        polars_frame(lambda g, w: ce.roc_curve(df, "y", M, by=g, weight=w)),
    ),
    "clf_pr_curve_multiclass": (
        lambda g, w: (
            f"FROM clf_pr_curve_multiclass('t', 'y', {COLS}, labels := {LABELS}, group_cols := ['{g}'], weight_col := {w})"
        ),
        polars_frame(lambda g, w: ce.pr_curve(df, "y", M, by=g, weight=w)),
    ),
}

only = sys.argv[2:] or list(CASES)
print(f"{N:,} rows; seconds, best of 3 (DuckDB macro on a DuckDB table / Polars on a DataFrame)")
print(f"{'case':34} {'layout':10} {'weight':6} {'duckdb':>8} {'polars':>8}")
for name in only:
    query, polars = CASES[name]
    for g, layout in (("g", "100 groups"), ("one", "1 group")):
        for w in (None, "w"):
            q = query(g, "NULL" if w is None else f"'{w}'")
            d = best(lambda: con.sql(q).fetchall())  # noqa: B023 (called at once by best)
            p = best(polars(g, w))
            print(f"{name:34} {layout:10} {bool(w)!s:6} {d:8.2f} {p:8.2f}", flush=True)
