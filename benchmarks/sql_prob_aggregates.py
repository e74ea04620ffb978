"""The score and probability aggregate macros (sql/45_multiclass.sql, clf_auroc max_fpr) against
Polars ``df.group_by(g).agg(ce.<metric>(...))``.

    python benchmarks/sql_prob_aggregates.py [macro name ...]

Times in seconds, best of 3 (one run when the first takes over 4 s): 2,000,000 rows in 100
groups and in one group, unweighted and weighted, three classes for the multiclass forms.
"""

from __future__ import annotations

import sys
import time

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql

N = 2_000_000
rng = np.random.default_rng(0)
P = rng.dirichlet([1, 1, 1], N)
df = pl.DataFrame(
    {
        "g100": rng.integers(0, 100, N),
        "g1": np.zeros(N, dtype=np.int64),
        "y": rng.integers(0, 3, N),
        "y01": rng.integers(0, 2, N),
        "s": rng.random(N).round(3),
        "p0": P[:, 0],
        "p1": P[:, 1],
        "p2": P[:, 2],
        "w": rng.random(N) * 2,
    }
)
con = duckdb.connect()
sql.load(con)
con.register("df", df)
con.execute("CREATE TABLE t AS FROM df")
m = {0: "p0", 1: "p1", 2: "p2"}
L = "[p0, p1, p2], labels := [0, 1, 2]"
cases = {
    "clf_auroc(max_fpr := 0.3)": (
        "clf_auroc(y01, s, max_fpr := 0.3{w})",
        lambda w: ce.auroc("y01", "s", max_fpr=0.3, weight=w),
    ),
    "clf_ks": ("clf_ks(y01, s{w})", lambda w: ce.ks("y01", "s", weight=w)),
    "clf_ece": ("clf_ece(y01, s{w})", lambda w: ce.ece("y01", "s", weight=w)),
    "clf_auroc_ovr macro": (f"clf_auroc_ovr(y, {L}{{w}})", lambda w: ce.auroc("y", m, weight=w)),
    "clf_auroc_ovr weighted": (
        f"clf_auroc_ovr(y, {L}, average := 'weighted'{{w}})",
        lambda w: ce.auroc("y", m, average="weighted", weight=w),
    ),
    "clf_auroc_ovr micro": (
        f"clf_auroc_ovr(y, {L}, average := 'micro'{{w}})",
        lambda w: ce.auroc("y", m, average="micro", weight=w),
    ),
    "clf_auroc_ovo": (
        f"clf_auroc_ovo(y, {L}{{w}})",
        lambda w: ce.auroc("y", m, multi_class="ovo", weight=w),
    ),
    "clf_average_precision_ovr": (
        f"clf_average_precision_ovr(y, {L}{{w}})",
        lambda w: ce.average_precision("y", m, weight=w),
    ),
    "clf_log_loss_multiclass": (
        f"clf_log_loss_multiclass(y, {L}{{w}})",
        lambda w: ce.log_loss("y", m, weight=w),
    ),
    "clf_brier_multiclass": (
        f"clf_brier_multiclass(y, {L}{{w}})",
        lambda w: ce.brier("y", m, weight=w),
    ),
    "clf_ece_multiclass": (f"clf_ece_multiclass(y, {L}{{w}})", lambda w: ce.ece("y", m, weight=w)),
    "clf_top_k_accuracy": (
        f"clf_top_k_accuracy(y, {L}{{w}})",
        lambda w: ce.top_k_accuracy("y", m, weight=w),
    ),
}
only = sys.argv[1:]


def best(f, n=3, slow=4.0):
    """best of n; a single run when the first one takes longer than slow seconds"""
    t = []
    for _ in range(n):
        a = time.perf_counter()
        f()
        t.append(time.perf_counter() - a)
        if t[0] > slow:
            break
    return min(t)


print(f"{'macro':32s} {'groups':>6s} {'weight':>6s} {'duckdb s':>9s} {'polars s':>9s}", flush=True)
order = [n for o in only for n in cases if n == o] if only else list(cases)
for name in order:
    q, e = cases[name]
    for g in ("g100", "g1"):
        for wt in (False, True):
            qs = f"SELECT {g}, {q.format(w=', weight := w' if wt else '')} FROM t GROUP BY {g}"
            d = best(lambda: con.sql(qs).fetchall())  # noqa: B023 (called at once by best)
            p = best(lambda: df.group_by(g).agg(e("w" if wt else None)))  # noqa: B023 (called at once by best)
            print(f"{name:32s} {g[1:]:>6s} {wt!s:>6s} {d:9.3f} {p:9.3f}", flush=True)
