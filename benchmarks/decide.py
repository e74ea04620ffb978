"""Decisions against the plain versions: prevalence shift, costs, net benefit, folds.

    python benchmarks/decide.py [rows] [groups]

Times (best of 3, seconds) on one frame of `rows` rows (default 10,000,000) in `groups`
groups (default 1), eager Polars and DuckDB (the frame copied into a DuckDB table first):

* ``ce.metrics`` / ``clf_metrics`` plain, then with ``prevalence=0.02`` (the rows re-weighted);
* ``df.select(ce.precision(...))`` plain and at a prevalence (the expression path);
* ``ce.thresholds`` / ``clf_thresholds`` plain, with costs, and with costs at a prevalence;
* ``ce.decision_curve`` / ``clf_decision_curve`` (99 thresholds) against the thresholds table;
* ``ce.cv_summary`` (5 folds) against one ``ce.metrics`` call.

Scores are rounded to 4 decimals (ties, as real scores have); the weight column is not used.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > 20:  # slow plans: one run is enough
            break
    return min(times)


def frame(rows: int, groups: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < 0.3).astype(np.int64)
    s = np.clip(np.round(0.35 * y + rng.random(rows) * 0.65, 4), 0, 1)
    return pl.DataFrame(
        {
            "g": np.arange(rows) % groups,
            "fold": rng.integers(0, 5, rows),
            "y": y,
            "s": s,
            "yhat": (s >= 0.5).astype(np.int64),
        }
    )


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    groups = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    df = frame(rows, groups)
    by = ["g"] if groups > 1 else None
    gc = ", group_cols := ['g']" if groups > 1 else ""
    con = duckdb.connect()
    sql.load(con)
    con.register("t_v", df.to_arrow())
    con.execute("CREATE TABLE t AS FROM t_v")
    con.execute("SET enable_progress_bar = false")

    def q(text: str) -> Callable[[], object]:
        return lambda: con.sql(text).fetchall()

    costs = {"cost_fp": 1.0, "cost_fn": 10.0}
    cases: list[tuple[str, str, Callable[[], object], Callable[[], object]]] = [
        (
            "metrics (label metrics)",
            "Polars",
            lambda: ce.metrics(df, "y", "yhat", by=by),
            lambda: ce.metrics(df, "y", "yhat", by=by, prevalence=0.02),
        ),
        (
            "metrics (label metrics)",
            "DuckDB",
            q(f"FROM clf_metrics('t', 'y', 'yhat'{gc})"),
            q(f"FROM clf_metrics('t', 'y', 'yhat', prevalence := 0.02{gc})"),
        ),
        (
            "precision expression",
            "Polars",
            lambda: df.select(ce.precision("y", "yhat")),
            lambda: df.select(ce.precision("y", "yhat", prevalence=0.02)),
        ),
        (
            "thresholds",
            "Polars",
            lambda: ce.thresholds(df, "y", "s", by=by),
            lambda: ce.thresholds(df, "y", "s", by=by, **costs),
        ),
        (
            "thresholds, costs at prevalence",
            "Polars",
            lambda: ce.thresholds(df, "y", "s", by=by),
            lambda: ce.thresholds(df, "y", "s", by=by, prevalence=0.02, **costs),
        ),
        (
            "thresholds",
            "DuckDB",
            q(f"FROM clf_thresholds('t', 'y', 's'{gc})"),
            q(f"FROM clf_thresholds('t', 'y', 's', cost_fp := 1, cost_fn := 10{gc})"),
        ),
        (
            "thresholds, costs at prevalence",
            "DuckDB",
            q(f"FROM clf_thresholds('t', 'y', 's'{gc})"),
            q(
                f"FROM clf_thresholds('t', 'y', 's', cost_fp := 1, cost_fn := 10, "
                f"prevalence := 0.02{gc})"
            ),
        ),
        (
            "decision curve vs thresholds table",
            "Polars",
            lambda: ce.thresholds(df, "y", "s", by=by),
            lambda: ce.decision_curve(df, "y", "s", by=by),
        ),
        (
            "decision curve vs thresholds table",
            "DuckDB",
            q(f"FROM clf_thresholds('t', 'y', 's'{gc})"),
            q(f"FROM clf_decision_curve('t', 'y', 's'{gc})"),
        ),
        (
            "cv_summary (5 folds) vs metrics",
            "Polars",
            lambda: ce.metrics(df, "y", "yhat", by=by),
            lambda: ce.cv_summary(df, "y", "yhat", by=by),
        ),
        (
            "cv_summary (5 folds) vs metrics",
            "DuckDB",
            q(f"FROM clf_metrics('t', 'y', 'yhat'{gc})"),
            q(f"FROM clf_cv_summary('t', 'y', 'yhat'{gc})"),
        ),
    ]
    print(f"{rows:,} rows, {groups:,} group(s); best of 3, seconds\n")
    print("| workload | engine | plain | decision | ratio |")
    print("|---|---|---|---|---|")
    for name, engine, plain, decision in cases:
        a, b = best(plain), best(decision)
        print(f"| {name} | {engine} | {a:.2f} | {b:.2f} | {b / a:.2f} |", flush=True)


if __name__ == "__main__":
    main()
