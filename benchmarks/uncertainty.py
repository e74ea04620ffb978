"""The cost of uncertainty: intervals and DeLong against the numbers they come with.

    python benchmarks/uncertainty.py [--rows N] [--repeat K] [--boot B]

Times (best of ``--repeat``, seconds), on ``--rows`` rows (default 10,000,000):

* the classification report of 10 classes, then with ``ci=0.95`` (``--boot`` Poisson
  bootstrap replicates of every score of the report, default 1,000), in Polars; in DuckDB
  ``clf_metrics`` against ``clf_metrics_ci`` (macro averages, the same replicates);
* AUROC of a continuous score (every value distinct) against DeLong's interval
  (``ce.auroc_ci``), in Polars and in DuckDB (``clf_auroc`` against ``clf_auroc_ci``), and
  DeLong's paired test of two scores (``compare_auroc``) for scale.

Targets (issue 16): the report with intervals ≤ 2× the report; DeLong ≤ 2× the AUROC. Prints
a Markdown table; ``benchmarks/RESULTS.md`` keeps the last full run.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def data(rows: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 10, rows)
    yhat = np.where(rng.random(rows) < 0.7, y, rng.integers(0, 10, rows))
    yb = (rng.random(rows) < 0.3).astype(np.int64)
    return pl.DataFrame(
        {
            "y": y,
            "yhat": yhat,
            "yb": yb,
            "s": rng.normal(size=rows) + 1.0 * yb,
            "s2": rng.normal(size=rows) + 1.1 * yb,
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--boot", type=int, default=1000)
    args = parser.parse_args()
    df = data(args.rows)
    con = sql.connect()
    con.register("t", df)
    con.execute("CREATE TABLE preds AS FROM t")  # a DuckDB table, as a warehouse holds it
    b, k = args.boot, args.repeat
    rows: list[tuple[str, str, float, float]] = []

    def pair(what: str, engine: str, base: Callable[[], object], ci: Callable[[], object]) -> None:
        base(), ci()  # warm-up (and the macros' first bind)
        t_base, t_ci = best(base, k), best(ci, k)
        rows.append((what, engine, t_base, t_ci))
        print(
            f"{what:<48} {engine:<7} {t_base:8.3f} s {t_ci:8.3f} s  {t_ci / t_base:5.2f}×",
            flush=True,
        )

    pair(
        f"report, 10 classes -> + {b} replicates",
        "Polars",
        lambda: ce.report(df, "y", "yhat"),
        lambda: ce.report(df, "y", "yhat", ci=0.95, n_boot=b),
    )
    pair(
        f"metrics (macro), 10 classes -> + {b} replicates",
        "Polars",
        lambda: ce.metrics(df, "y", "yhat", average="macro"),
        lambda: ce.metrics(df, "y", "yhat", average="macro", ci=0.95, n_boot=b),
    )
    pair(
        f"metrics (macro), 10 classes -> + {b} replicates",
        "DuckDB",
        lambda: con.sql("FROM clf_metrics('preds', 'y', 'yhat', average := 'macro')").fetchall(),
        lambda: con.sql(
            f"FROM clf_metrics_ci('preds', 'y', 'yhat', average := 'macro', n_boot := {b})"
        ).fetchall(),
    )
    pair(
        "AUROC -> DeLong interval (auroc_ci)",
        "Polars",
        lambda: ce.metrics(df, "yb", score="s", metrics=["auroc"]),
        lambda: ce.auroc_ci(df, "yb", "s"),
    )
    pair(
        "AUROC -> DeLong interval (clf_auroc_ci)",
        "DuckDB",
        lambda: con.sql("FROM clf_auroc('preds', 'yb', 's')").fetchall(),
        lambda: con.sql("FROM clf_auroc_ci('preds', 'yb', 's')").fetchall(),
    )
    pair(
        "AUROC of one score -> DeLong paired test of two",
        "Polars",
        lambda: ce.metrics(df, "yb", score="s", metrics=["auroc"]),
        lambda: ce.compare_auroc(df, "yb", ["s", "s2"]),
    )
    pair(
        "AUROC of one score -> DeLong paired test of two",
        "DuckDB",
        lambda: con.sql("FROM clf_auroc('preds', 'yb', 's')").fetchall(),
        lambda: con.sql("FROM clf_compare_auroc('preds', 'yb', 's', 's2')").fetchall(),
    )
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print()
    print(f"{args.rows:,} rows, best of {k}; {os.cpu_count()} cores, load {load}; "
          f"{platform.platform()}; polars {pl.__version__}, duckdb {duckdb.__version__}")  # fmt: skip
    print()
    print("| workload | engine | without | with | ratio |")
    print("|---|---|---|---|---|")
    for what, engine, t_base, t_ci in rows:
        print(f"| {what} | {engine} | {t_base:.3f} s | {t_ci:.3f} s | {t_ci / t_base:.2f}× |")


if __name__ == "__main__":
    main()
