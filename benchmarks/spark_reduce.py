"""clfeval's calls without generated SQL on a Spark DataFrame: the reduced table, timed.

A call with no generated SQL (DeLong and bootstrap intervals, the decision curve, the HTML
page...) runs on the table Spark reduces the rows to: the summed weight of each distinct
(groups, labels, score), Polars finishing on it (``clfeval._spark_reduce``). Its alternative
is to collect the rows (``pl.from_arrow(df.toArrow())``) and call clfeval on them. Both are
timed on the same Parquet file, ``local[2]``, one run each after a warm-up, with the size of
what comes back from Spark; every result is checked equal to the Polars one first.

Writes its section of ``ENGINES.md`` (replacing an earlier one)::

    python benchmarks/spark_reduce.py --rows 10000000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

import clfeval as ce

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import SEED, ensure_data, machine
from engines import spark_session
from mllib import timed

HERE = Path(__file__).resolve().parent
GROUPS = 1_000
MARK = "\n## Spark: calls on the reduced table"
NEXT = "\n## Against Spark MLlib"


def same(got: Any, want: Any, what: str) -> None:
    if isinstance(want, pl.DataFrame):
        assert_frame_equal(got, want, check_dtypes=False, rel_tol=1e-9, abs_tol=1e-12)
    else:  # a page: the same text up to how whole counts are spelled (tests/test_spark_reduce)
        import re

        def norm(text: str) -> str:
            text = re.sub(r"(?<=[:\[,])(-?\d+)\.0(?=[,}\]])", r"\1", text)
            return re.sub(r"data-[0-9a-f]{32}", "data-X", text)

        assert norm(got.to_html()) == norm(want.to_html()), what


def workloads(spark: Any, paths: dict[str, Path]) -> list[tuple[str, Any, list[str], Callable]]:
    """(title, the Spark DataFrame, the columns the call reads, the call)."""
    from pyspark.sql import functions as sf

    binary = spark.read.parquet(str(paths["binary"])).withColumn(
        "yhat", (sf.col("s_tie") >= 0.5).cast("long")
    )
    grouped = spark.read.parquet(str(paths["grouped"])).withColumn("s3", sf.round("s", 3))
    return [
        ("DeLong AUROC interval, tied scores", binary, ["y", "s_tie"],
         lambda d: ce.auroc_ci(d, "y", "s_tie")),
        ("DeLong AUROC interval, continuous scores", binary, ["y", "s_cont"],
         lambda d: ce.auroc_ci(d, "y", "s_cont")),
        ("bootstrap intervals of the metrics (1,000 replicates), tied", binary,
         ["y", "yhat", "s_tie"], lambda d: ce.metrics(d, "y", "yhat", score="s_tie", ci=0.95)),
        ("decision curve, tied scores", binary, ["y", "s_tie"],
         lambda d: ce.decision_curve(d, "y", "s_tie")),
        (f"DeLong interval of each of {GROUPS:,} groups, tied", grouped, ["g", "y", "s3"],
         lambda d: ce.auroc_ci(d, "y", "s3", by="g")),
        ("HTML report, tied scores", binary, ["y", "yhat", "s_tie"],
         lambda d: ce.report_html(d, "y", "yhat", score="s_tie")),
    ]  # fmt: skip


def rows_for(title: str, sdf: Any, columns: list[str], call: Callable) -> list[str]:
    def collected() -> Any:
        return call(pl.from_arrow(sdf.select(*columns).toArrow()))

    t_reduced, got = timed(lambda: call(sdf))
    t_collect, want = timed(collected)
    same(got, want, title)
    back = sdf.groupBy(*columns).count().count()
    n = sdf.count()
    return [
        f"| {title} | reduced table (`ce.…(spark_df)`) | {t_reduced:.3g} | {back:,} | 1× |",
        f"|  | collect the rows, then clfeval | {t_collect:.3g} | {n:,} | "
        f"{t_collect / t_reduced:.3g}× |",
    ]


def write(out: Path, section: str) -> None:
    """Put ``section`` in place of an earlier one, before the MLlib section (which its own
    script rewrites to the end of the file)."""
    text = out.read_text() if out.exists() else ""
    if MARK in text:
        head, rest = text.split(MARK, 1)
        tail = rest[rest.index("\n## ") :] if "\n## " in rest else ""
        text = head + tail
    if NEXT in text:
        head, tail = text.split(NEXT, 1)
        text = head.rstrip("\n") + "\n" + section + NEXT + tail
    else:
        text = text.rstrip("\n") + "\n" + section
    out.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--out", type=Path, default=HERE / "ENGINES.md")
    args = ap.parse_args(argv)
    paths = ensure_data(args.rows, GROUPS, SEED)
    spark = spark_session()
    lines = [line for w in workloads(spark, paths) for line in rows_for(*w)]
    spark.stop()
    m = machine()
    section = f"""{MARK}

`python benchmarks/spark_reduce.py --rows {args.rows}` ({args.rows:,} rows; {
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    }; one run each after a warm-up; Spark `local[2]`, 6 GB driver; {m["cpu"]}, {m["cores"]} cores,
load {m["load"]} at the end). A call without generated SQL on a Spark DataFrame runs on the
reduced table (the summed weight of each distinct combination of the columns it reads, Polars
finishing); the alternative collects the rows through Arrow and calls clfeval on them. Both
give the same result (checked). "rows back" is what leaves Spark.

| workload | route | seconds | rows back | × reduced |
|---|---|---|---|---|
{chr(10).join(lines)}

How to read it. The reduced route makes two passes over the Parquet file inside Spark (the
data checks, counted on the rows, then the aggregate) and ships the reduced table; the other
route makes one pass and ships every row. On one machine with a few GB, shipping 10M rows
through Arrow is cheap, so the two are close when the reduced table is small, and the reduced
route is slower where the table is large: continuous scores (about one row per row, plus
the shuffle of a GROUP BY over every distinct score) and many groups with their own scores.
The reduced route exists for the data that does not fit on the driver: a tied or rounded
score over a billion rows reduces to a few thousand rows, wherever the rows live, and its
checks and drops still count the rows. Continuous scores at that scale need the numbers
computed inside Spark by generated SQL, as `ce.metrics` and the curves are; the DeLong and
bootstrap intervals have no generated SQL yet.
"""
    write(args.out, section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
