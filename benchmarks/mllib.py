"""clfeval on Spark against Spark MLlib's evaluators, on the same Parquet files, ``local[2]``.

MLlib bins the scores (``BinaryClassificationEvaluator`` and ``BinaryClassificationMetrics``
down-sample the ROC curve to ``numBins`` = 1,000 bins before integrating), has no grouping and
gives no curves as tables; clfeval's Spark front door (``ce.metrics(spark_df, ...)``,
``ce.report(spark_df, ...)``) computes the exact numbers with plain Spark SQL over a temporary
view. Every call reads the Parquet file (nothing cached), one run each after a warm-up:

* exact AUROC (continuous and tied scores): ``ce.metrics(df, y, score=s, metrics=["auroc"])``
  against ``BinaryClassificationEvaluator(metricName="areaUnderROC").evaluate(df)`` and
  ``BinaryClassificationMetrics(rdd).areaUnderROC`` (the RDD API: rows through Python);
  MLlib's error against the exact value is recorded;
* the classification report (10 classes): ``ce.report(df, y, yhat)`` against
  ``MulticlassMetrics`` with precision, recall and F1 of every class, accuracy and the
  weighted F1 (the same numbers: both are exact here, checked);
* grouped AUROC over 1,000 groups: ``ce.metrics(..., by="g")`` in one job, against MLlib,
  which has no grouping: a loop of ``evaluate(df.filter(g == k))`` over the first
  ``--loop-groups`` groups, its time scaled to 1,000 groups (stated as such).

Appends its table to ``ENGINES.md`` (replacing an earlier one)::

    python benchmarks/mllib.py --rows 10000000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import clfeval as ce

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import SEED, ensure_data, machine
from engines import spark_session

HERE = Path(__file__).resolve().parent
GROUPS = 1_000
MARK = "\n## Against Spark MLlib"


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    call()  # warm-up: the JIT, the file's footer and the session's caches
    t0 = time.perf_counter()
    out = call()
    return time.perf_counter() - t0, out


def auroc_rows(spark: Any, path: str, col: str, title: str) -> list[str]:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.mllib.evaluation import BinaryClassificationMetrics
    from pyspark.sql import functions as sf

    def frame(double: bool = True) -> Any:  # MLlib wants a double label; clfeval takes y as is
        label = sf.col("y").cast("double") if double else sf.col("y")
        return spark.read.parquet(path).select(label.alias("y"), col)

    def exact() -> float:
        return ce.metrics(frame(False), "y", score=col, metrics=["auroc"])["auroc"].item()

    evaluator = BinaryClassificationEvaluator(
        rawPredictionCol=col, labelCol="y", metricName="areaUnderROC"
    )

    def ml() -> float:
        return evaluator.evaluate(frame())

    def mllib_rdd() -> float:
        pairs = frame().select(col, "y").rdd.map(tuple)
        return BinaryClassificationMetrics(pairs).areaUnderROC

    t_exact, value = timed(exact)
    rows = [f"| {title} | clfeval on Spark (exact) | {t_exact:.3g} | 1× | {value:.10f} | 0 |"]
    for name, call in (
        ("MLlib `BinaryClassificationEvaluator`", ml),
        ("MLlib `BinaryClassificationMetrics` (RDD)", mllib_rdd),
    ):
        t, got = timed(call)
        rows.append(
            f"|  | {name} | {t:.3g} | {t / t_exact:.3g}× | {got:.10f} | {abs(got - value):.2e} |"
        )
    return rows


def report_rows(spark: Any, path: str) -> list[str]:
    from pyspark.mllib.evaluation import MulticlassMetrics
    from pyspark.sql import functions as sf

    def frame() -> Any:
        return spark.read.parquet(path).select("y_int", "yhat_int")

    def exact() -> Any:
        return ce.report(frame(), "y_int", "yhat_int").table

    def mllib() -> dict[str, float]:
        pairs = (
            frame()
            .select(sf.col("yhat_int").cast("double"), sf.col("y_int").cast("double"))
            .rdd.map(tuple)
        )
        m = MulticlassMetrics(pairs)
        out = {"accuracy": m.accuracy, "weighted f1": m.weightedFMeasure()}
        for k in range(10):
            out[f"{k} precision"] = m.precision(float(k))
            out[f"{k} recall"] = m.recall(float(k))
            out[f"{k} f1"] = m.fMeasure(float(k))
        return out

    t_exact, table = timed(exact)
    t_ml, got = timed(mllib)
    rows = {str(r["label"]): r for r in table.iter_rows(named=True)}
    want = {"accuracy": rows["accuracy"]["f1"], "weighted f1": rows["weighted avg"]["f1"]}
    for k in range(10):
        for metric in ("precision", "recall", "f1"):
            want[f"{k} {metric}"] = rows[str(k)][metric]
    error = max(abs(got[k] - want[k]) for k in want)
    return [
        f"| classification report, 10 classes | clfeval on Spark (`ce.report`) | {t_exact:.3g} "
        "| 1× | — | 0 |",
        f"|  | MLlib `MulticlassMetrics` (RDD; 32 numbers) | {t_ml:.3g} | {t_ml / t_exact:.3g}× "
        f"| — | {error:.2e} |",
    ]


def grouped_rows(spark: Any, path: str, loop: int) -> list[str]:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as sf

    def frame(double: bool = True) -> Any:
        label = sf.col("y").cast("double") if double else sf.col("y")
        return spark.read.parquet(path).select("g", label.alias("y"), "s")

    def exact() -> Any:
        return ce.metrics(frame(False), "y", score="s", metrics=["auroc"], by="g")

    evaluator = BinaryClassificationEvaluator(
        rawPredictionCol="s", labelCol="y", metricName="areaUnderROC"
    )

    def looped() -> dict[int, float]:
        df = frame()
        return {k: evaluator.evaluate(df.filter(sf.col("g") == k)) for k in range(loop)}

    t_exact, table = timed(exact)
    t_loop, got = timed(looped)
    want = dict(zip(table["g"].to_list(), table["auroc"].to_list(), strict=True))
    error = max(abs(got[k] - want[k]) for k in got)
    scaled = t_loop * GROUPS / loop
    return [
        f'| AUROC of each of {GROUPS:,} groups | clfeval on Spark (`by="g"`, one job) '
        f"| {t_exact:.3g} | 1× | — | 0 |",
        f"|  | MLlib: a loop of `evaluate(filter(g == k))`, {loop} groups timed × {GROUPS // loop}"
        f" | {scaled:.3g} | {scaled / t_exact:.3g}× | — | {error:.2e} |",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--loop-groups", type=int, default=20)
    ap.add_argument("--out", type=Path, default=HERE / "ENGINES.md")
    args = ap.parse_args(argv)
    paths = ensure_data(args.rows, GROUPS, SEED)
    spark = spark_session()
    binary = str(paths["binary"])
    lines = [
        *auroc_rows(spark, binary, "s_cont", "exact AUROC, continuous scores"),
        *auroc_rows(spark, binary, "s_tie", "exact AUROC, tied scores (3 decimals)"),
        *report_rows(spark, str(paths["labels"])),
        *grouped_rows(spark, str(paths["grouped"]), args.loop_groups),
    ]
    spark.stop()
    m = machine()
    section = f"""{MARK}

`python benchmarks/mllib.py --rows {args.rows}` ({args.rows:,} rows; {
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    }; one run each after a warm-up; Spark `local[2]`,
6 GB driver; {m["cpu"]}, {m["cores"]} cores, load {m["load"]} at the end). Every call reads the
Parquet file. "error" is the largest absolute difference from clfeval's exact value (MLlib's
evaluators bin the ROC curve into 1,000 bins). MLlib has no grouping: its grouped time is a
loop over the first groups, scaled to all of them.

| workload | engine | seconds | × clfeval | AUROC | error |
|---|---|---|---|---|---|
{chr(10).join(lines)}
"""
    text = args.out.read_text() if args.out.exists() else ""
    text = text.split(MARK)[0].rstrip("\n") + "\n" + section
    args.out.write_text(text)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
