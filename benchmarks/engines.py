"""The same evaluation on one Parquet file by three engines: Polars, DuckDB and local Spark.

Reads the files of ``bench.py`` (``binary`` and ``labels``) and runs the classification report
and exact AUROC on each engine, with the numbers checked against Polars (1e-9) before timing:

* **Polars**: ``ce.report(pl.scan_parquet(path), ...)`` and ``ce.metrics(scan, y,
  score=..., metrics=["auroc"])`` collected with the streaming engine;
* **DuckDB macros**: ``clfeval.sql.report`` / ``clfeval.sql.auroc`` over a view on the file;
* **DuckDB, generated SQL**: ``clfeval.sql.query(..., dialect="duckdb")`` on that view;
* **Spark local[2]**: ``clfeval.sql.query(..., dialect="spark")`` on a temporary view of the
  file, results collected to the driver.

Every engine reads the Parquet file in each timed run (nothing is cached in memory first). The
Spark session starts once; its start-up time is reported apart. Writes ``ENGINES.md``::

    python benchmarks/engines.py --rows 10000000
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

import clfeval as ce
import clfeval.sql as cesql

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import SEED, ensure_data, machine, versions

HERE = Path(__file__).resolve().parent
ATOL = 1e-9
REPORT_COLUMNS = ["precision", "recall", "f1", "support"]
WORKLOADS = {
    "report_int": ("labels", "classification report, 10 int classes", "y_int", "yhat_int"),
    "report_str": ("labels", "classification report, 10 string classes", "y_str", "yhat_str"),
    "auroc_cont": ("binary", "exact AUROC, continuous scores", "y", "s_cont"),
    "auroc_ties": ("binary", "exact AUROC, tied scores (3 decimals)", "y", "s_tie"),
}
ENGINES = {
    "polars": "Polars, lazy Parquet + streaming",
    "duckdb": "DuckDB macros over Parquet",
    "sqlgen": "DuckDB, generated SQL over Parquet",
    "spark": "Spark local[2], generated SQL over Parquet",
}


def spark_session() -> Any:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("clfeval-bench")
        .config("spark.driver.memory", "6g")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


def report_rows(rows: list[tuple[Any, ...]]) -> dict[str, tuple[float, ...]]:
    """label -> (precision, recall, f1, support), nulls as NaN (the accuracy row has some)."""
    return {str(r[0]): tuple(float("nan") if v is None else float(v) for v in r[1:]) for r in rows}


def runs(path: str, kind: str, y: str, col: str, con: Any, spark: Any) -> dict[str, Callable]:
    """engine -> a call returning the canonical result (report rows, or the AUROC)."""
    view = "bench_preds"  # fixed name of our own view; the file path never enters SQL text
    if kind == "labels":

        def polars() -> Any:
            table = ce.report(pl.scan_parquet(path), y, col).table
            return report_rows(table.select("label", *REPORT_COLUMNS).rows())

        def duck() -> Any:
            table = cesql.report(view, y, col, con=con)
            return report_rows(table.select("label", *REPORT_COLUMNS).rows())

        query = {"metric": "report", "y": y, "yhat": col}
    else:

        def polars() -> Any:
            out = ce.metrics(pl.scan_parquet(path), y, score=col, metrics=["auroc"])
            return out.collect(engine="streaming")["auroc"].item()

        def duck() -> Any:
            return cesql.auroc(view, y, col, con=con)["auroc"].item()

        query = {"metric": "auroc", "y": y, "score": col}
    duck_sql = cesql.query(table=view, dialect="duckdb", **query)
    spark_sql = cesql.query(table=view, dialect="spark", **query)

    def canon(rows: list[tuple[Any, ...]]) -> Any:
        return report_rows(rows) if kind == "labels" else float(rows[0][0])

    def sqlgen() -> Any:
        return canon(con.sql(duck_sql).fetchall())

    def on_spark() -> Any:
        return canon([tuple(r) for r in spark.sql(spark_sql).collect()])

    out = {"polars": polars, "duckdb": duck, "sqlgen": sqlgen}
    if spark is not None:
        out["spark"] = on_spark
    return out


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float):
        return abs(a - b) <= ATOL
    if a.keys() != b.keys():
        return False
    return all(
        (x != x and y != y) or abs(x - y) <= ATOL
        for k in a
        for x, y in zip(a[k], b[k], strict=True)
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-spark", action="store_true")
    ap.add_argument("--out", type=Path, default=HERE / "ENGINES.md")
    args = ap.parse_args(argv)

    paths = ensure_data(args.rows, 10_000, SEED)
    started = time.perf_counter()
    spark = None if args.no_spark else spark_session()
    spark_start = time.perf_counter() - started
    con = cesql.connect()
    lines = []
    for name, (kind, title, y, col) in WORKLOADS.items():
        path = str(paths[kind])
        con.read_parquet(path).create_view("bench_preds", replace=True)
        if spark is not None:
            spark.read.parquet(path).createOrReplaceTempView("bench_preds")
        calls = runs(path, kind, y, col, con, spark)
        ref = calls["polars"]()
        times: dict[str, list[float]] = {}
        checks: dict[str, str] = {}
        for engine, call in calls.items():
            checks[engine] = "✓" if same(ref, call()) else "✗"  # also the warm-up
            print(f"{name} / {engine}: {checks[engine]}", file=sys.stderr, flush=True)
        for _ in range(args.repeat):
            for engine, call in calls.items():
                t0 = time.perf_counter()
                call()
                times.setdefault(engine, []).append(time.perf_counter() - t0)
        fastest = min(statistics.median(t) for t in times.values())
        for i, (engine, ts) in enumerate(times.items()):
            med = statistics.median(ts)
            head = title if i == 0 else ""
            lines.append(
                f"| {head} | {ENGINES[engine]} | {checks[engine]} | {med:.3g} | "
                f"{med / fastest:.3g}× |"
            )
    con.close()
    if spark is not None:
        spark.stop()
    m, v = machine(), versions()
    if spark is not None:
        import pyspark

        v["pyspark"] = pyspark.__version__
    text = f"""# Polars, DuckDB and Spark on the same Parquet file

Latest run: {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
`python benchmarks/engines.py --rows {args.rows}` ({args.rows:,} rows, median of {args.repeat}
after a checked warm-up). Machine: {m["cpu"]}, {m["cores"]} cores, {m["ram"]}, load {m["load"]}
at the end. Versions: {", ".join(f"{k} {x}" for k, x in v.items())}.

Every engine reads the Parquet file in every run. Check: the same numbers as the Polars result
(1e-9; the report row for row). Spark: `local[2]`, 6 GB driver memory, default SQL settings;
session start-up {spark_start:.1f} s, not included.

| workload | engine | check | median s | × fastest |
|---|---|---|---|---|
{chr(10).join(lines)}
"""
    args.out.write_text(text)
    print(text)
    return 1 if any("| ✗ |" in line for line in lines) else 0


if __name__ == "__main__":
    raise SystemExit(main())
