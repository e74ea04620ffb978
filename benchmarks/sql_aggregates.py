"""Aggregate ranking macros against the table macros and Polars.

    python benchmarks/sql_aggregates.py [rows] [groups]

Times (best of 3, seconds): the aggregate clf_auroc over one group of `rows` rows against the
table macro clf_auroc on the same table, then over `groups` groups of 1,000 rows each against
the table macro with group_cols and Polars ``df.group_by("g").agg(ce.auroc("y", "s"))``;
unweighted and weighted. Defaults: 10,000,000 rows, 10,000 groups.
"""

from __future__ import annotations

import sys
import time

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > 10:  # slow plans: one run is enough
            break
    return min(times)


def frame(rows: int, groups: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": np.arange(rows) % groups,
            "y": (rng.random(rows) < 0.3).astype(np.int64),
            "s": np.round(rng.random(rows), 4),  # ties, as real scores have
            "w": rng.random(rows) * 2,
        }
    )


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    groups = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    con = duckdb.connect()
    sql.load(con)
    one = frame(rows, 1)
    many = frame(groups * 1_000, groups)
    con.register("one_v", one.to_arrow())
    con.register("many_v", many.to_arrow())
    con.execute("CREATE TABLE one AS FROM one_v")
    con.execute("CREATE TABLE many AS FROM many_v")
    cases = {
        f"one group of {rows:,} rows": [
            ("aggregate clf_auroc(y, s)", lambda: con.sql("SELECT clf_auroc(y, s) FROM one").fetchall()),
            ("table FROM clf_auroc('one', 'y', 's')", lambda: con.sql("FROM clf_auroc('one', 'y', 's')").fetchall()),
            ("aggregate clf_auroc(y, s, weight := w)", lambda: con.sql("SELECT clf_auroc(y, s, weight := w) FROM one").fetchall()),
            ("table clf_auroc weight_col := 'w'", lambda: con.sql("FROM clf_auroc('one', 'y', 's', weight_col := 'w')").fetchall()),
            ("aggregate clf_average_precision(y, s)", lambda: con.sql("SELECT clf_average_precision(y, s) FROM one").fetchall()),
            ("table clf_average_precision", lambda: con.sql("FROM clf_average_precision('one', 'y', 's')").fetchall()),
            ("Polars ce.auroc", lambda: one.select(ce.auroc("y", "s"))),
        ],
        f"{groups:,} groups of 1,000 rows": [
            ("aggregate ... GROUP BY g", lambda: con.sql("SELECT g, clf_auroc(y, s) FROM many GROUP BY g").fetchall()),
            ("table group_cols := ['g']", lambda: con.sql("FROM clf_auroc('many', 'y', 's', group_cols := ['g'])").fetchall()),
            ("Polars group_by(g).agg(ce.auroc)", lambda: many.group_by("g").agg(ce.auroc("y", "s"))),
            ("aggregate weight := w, GROUP BY g", lambda: con.sql("SELECT g, clf_auroc(y, s, weight := w) FROM many GROUP BY g").fetchall()),
            ("table weight_col := 'w', group_cols", lambda: con.sql("FROM clf_auroc('many', 'y', 's', group_cols := ['g'], weight_col := 'w')").fetchall()),
            ("Polars ce.auroc weight='w'", lambda: many.group_by("g").agg(ce.auroc("y", "s", weight="w"))),
            ("aggregate clf_average_precision GROUP BY g", lambda: con.sql("SELECT g, clf_average_precision(y, s) FROM many GROUP BY g").fetchall()),
            ("table clf_average_precision group_cols", lambda: con.sql("FROM clf_average_precision('many', 'y', 's', group_cols := ['g'])").fetchall()),
        ],
    }  # fmt: skip
    print(f"duckdb {duckdb.__version__}, polars {pl.__version__}")
    for title, runs in cases.items():
        print(f"\n{title}")
        for name, fn in runs:
            print(f"  {name:45s} {best(fn):8.3f} s")


if __name__ == "__main__":
    main()
