"""The multiclass label aggregate macros against the old binary ones and Polars.

    python benchmarks/sql_label_aggregates.py [rows] [groups]

Times (best of 3, seconds) of clf_mcc, clf_balanced_accuracy and clf_cohen_kappa (multiclass,
from each group's confusion matrix) against the binary macros they replaced (pos_label against
the rest: four filtered sums, redefined here as bench_old_*) and the Polars expressions
``df.group_by("g").agg(ce.<metric>(...))``: `rows` rows in `groups` groups and in one group,
two classes and five, unweighted and weighted. The old macros are one-vs-rest, so their numbers
equal the new ones on two classes only. Defaults: 2,000,000 rows, 100 groups.
"""

from __future__ import annotations

import sys
import time

import duckdb
import numpy as np
import polars as pl

import clfeval as ce
from clfeval import sql

# the binary macros before the multiclass ones (the helpers are still in sql/)
OLD = """
CREATE OR REPLACE MACRO bench_old_mcc(y, yhat, pos_label := 1, weight := NULL) AS
    _clf_agg_guard(
        _clf_let(_clf_binary(y, yhat, pos_label, weight), lambda c: _clf_mcc(c.tp, c.fp, c.fn, c.tn)),
        y, yhat, pos_label, true, weight, 'clf_mcc');
CREATE OR REPLACE MACRO bench_old_balanced_accuracy(y, yhat, pos_label := 1, adjusted := false, weight := NULL) AS
    _clf_agg_guard(
        _clf_let(_clf_binary(y, yhat, pos_label, weight), lambda c: CASE
            WHEN adjusted THEN _clf_adjusted(c.tp, c.fp, c.fn, c.tn)
            ELSE _clf_balanced(c.tp, c.fp, c.fn, c.tn) END),
        y, yhat, pos_label, true, weight, 'clf_balanced_accuracy');
CREATE OR REPLACE MACRO bench_old_cohen_kappa(y, yhat, pos_label := 1, weight := NULL) AS
    _clf_agg_guard(
        _clf_let(_clf_binary(y, yhat, pos_label, weight), lambda c: _clf_kappa(c.tp, c.fp, c.fn, c.tn)),
        y, yhat, pos_label, true, weight, 'clf_cohen_kappa');
"""


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > 10:  # slow plans: one run is enough
            break
    return min(times)


def frame(rows: int, groups: int, k: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, rows)
    return pl.DataFrame(
        {
            "g": np.arange(rows) % groups,
            "y": y,
            "yhat": np.where(rng.random(rows) < 0.6, y, rng.integers(0, k, rows)),
            "w": rng.random(rows) * 2,
        }
    )


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    groups = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    con = duckdb.connect()
    sql.load(con)
    con.execute(OLD)
    print(f"duckdb {duckdb.__version__}, polars {pl.__version__}")
    for k in (2, 5):
        for n_groups in (groups, 1):
            df = frame(rows, n_groups, k)
            con.register("v", df.to_arrow())
            con.execute("CREATE OR REPLACE TABLE d AS FROM v")
            con.unregister("v")
            print(
                f"\n{k} classes, {rows:,} rows in {n_groups:,} group(s)   old binary   new    Polars"
            )
            for metric, extra, expr in (
                ("mcc", "", lambda w: ce.mcc("y", "yhat", weight=w)),
                ("balanced_accuracy", "", lambda w: ce.balanced_accuracy("y", "yhat", weight=w)),
                ("cohen_kappa", "", lambda w: ce.cohen_kappa("y", "yhat", weight=w)),
                ("cohen_kappa", ", weights := 'quadratic'",
                 lambda w: ce.cohen_kappa("y", "yhat", weights="quadratic", weight=w)),
            ):  # fmt: skip
                for weighted in (False, True):
                    wsql = ", weight := w" if weighted else ""
                    wpl = "w" if weighted else None
                    new = best(
                        lambda: con.sql(
                            f"SELECT g, clf_{metric}(y, yhat{extra}{wsql}) FROM d GROUP BY g"  # noqa: B023 (called at once by best)
                        ).fetchall()
                    )
                    old = (
                        best(
                            lambda: con.sql(
                                f"SELECT g, bench_old_{metric}(y, yhat{wsql}) FROM d GROUP BY g"  # noqa: B023 (called at once by best)
                            ).fetchall()
                        )
                        if not extra
                        else float("nan")
                    )
                    pol = best(lambda: df.group_by("g").agg(expr(wpl)))  # noqa: B023 (called at once by best)
                    name = f"clf_{metric}(y, yhat{extra}{wsql})"
                    print(f"  {name:58s} {old:8.3f} {new:8.3f} {pol:8.3f}")


if __name__ == "__main__":
    main()
