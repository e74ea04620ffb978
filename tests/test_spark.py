"""clfeval.sqlgen on a local Apache Spark session: every capability equals scikit-learn per group."""

from __future__ import annotations

import os

import numpy as np
import pyarrow.parquet as pq
import pytest

from clfeval.sqlgen import query

try:
    from test_sqlgen import Case, check_case, close, reference
except ImportError:  # pragma: no cover - when tests is imported as a package
    from tests.test_sqlgen import Case, check_case, close, reference

pyspark = pytest.importorskip("pyspark")
pytestmark = pytest.mark.spark

SEEDS = (0, 1)


@pytest.fixture(scope="session")
def spark():
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("clfeval-sqlgen")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.showConsoleProgress", "false")
        # Tiny inputs: whole-stage code generation and adaptive planning cost more than they save.
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def random_case(seed: int, *, strings: bool, weighted: bool, k: int) -> Case:
    """Ties on a k/8 score grid, two group columns with nulls, integer weights 0-5."""
    rng = np.random.default_rng(seed)
    n = 300
    g1 = rng.choice(np.array(["a", "b", None], dtype=object), n).tolist()
    g2 = rng.choice(np.array([0, 1, None], dtype=object), n).tolist()
    y = rng.integers(0, k, n)
    yhat = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    s = np.clip(np.round((y == 1) * 2 + rng.integers(0, 7, n)), 0, 8)
    w = rng.integers(0, 6, n)
    rows = list(zip(g1, g2, y.tolist(), yhat.tolist(), s.tolist(), w.tolist()))
    classes = ["ant", "bee", "cat"][:k] if strings else list(range(k))
    return Case(rows, classes=classes, pos_label=classes[1], weighted=weighted)


@pytest.fixture(scope="module", params=SEEDS)
def spark_case(request, spark, tmp_path_factory):
    seed = request.param
    case = random_case(seed, strings=seed % 2 == 1, weighted=seed % 2 == 0, k=3)
    binary = random_case(seed + 100, strings=seed % 2 == 0, weighted=seed % 2 == 1, k=2)
    out = {}
    for name, c in (("preds", case), ("preds_binary", binary)):
        path = tmp_path_factory.mktemp(f"spark{seed}") / f"{name}.parquet"
        pq.write_table(c.arrow(), path)
        spark.read.parquet(str(path)).createOrReplaceTempView(f"{name}_{seed}")
        out[name] = (c, f"{name}_{seed}")
    return out


def run_spark(spark, case: Case, table: str, metric: str, **kw) -> list[tuple]:
    sql = query(metric, **case.args(metric, table=table, **kw), dialect="spark")
    return [tuple(r) for r in spark.sql(sql).collect()]


RUNS = [
    ("preds", "counts", {}),
    ("preds", "confusion", {}),
    ("preds", "report", {}),
    ("preds", "metrics", {"average": "macro"}),
    ("preds", "metrics", {"average": "weighted", "zero_division": None}),
    ("preds_binary", "metrics", {"average": "binary"}),
    ("preds", "thresholds", {}),
    ("preds", "roc_curve", {}),
    ("preds", "roc_curve", {"drop_intermediate": False}),
    ("preds", "pr_curve", {}),
    ("preds", "pr_curve", {"drop_intermediate": True}),
    ("preds_binary", "det_curve", {}),
    ("preds", "det_curve", {"drop_intermediate": True}),
    ("preds", "auroc", {}),
    ("preds", "average_precision", {}),
    ("preds", "log_loss", {}),
    ("preds", "brier", {}),
    ("preds", "calibration", {"n_bins": 10}),
    ("preds_binary", "calibration", {"n_bins": 7}),
]


@pytest.mark.parametrize(("data", "metric", "kw"), RUNS, ids=[f"{m}-{d}-{k}" for d, m, k in RUNS])
def test_spark_matches_sklearn(spark, spark_case, data: str, metric: str, kw: dict) -> None:
    case, table = spark_case[data]
    rows = run_spark(spark, case, table, metric, **kw)
    assert rows
    check_case(case, metric, rows, **kw)


def test_spark_metrics_with_scores(spark, spark_case) -> None:
    case, table = spark_case["preds_binary"]
    rows = run_spark(spark, case, table, "metrics", average="binary", score="s", proba="s")
    check_case(case, "metrics", [r[:8] for r in rows], average="binary")
    for k, metric in enumerate(("auroc", "average_precision", "log_loss", "brier"), start=8):
        ref = reference(case, metric)
        for r in rows:
            expected = ref[tuple(r[:2])][0][0] if tuple(r[:2]) in ref else None
            assert close(r[k], expected), (metric, r)


def test_spark_hostile_identifiers_and_infinity(spark) -> None:
    names = {"y": "my label", "s": 'x"; DROP TABLE t; --', "g": "select", "w": "w`eight'"}
    df = spark.createDataFrame(
        [(1, 0.9, "a", 1.0), (0, 0.4, "a", 2.0), (1, 0.4, "b", 1.0), (0, 0.1, "b", 0.0)],
        schema=[names["y"], names["s"], names["g"], names["w"]],
    )
    df.createOrReplaceTempView("hostile")
    sql = query(
        "roc_curve",
        table="hostile",
        y=names["y"],
        score=names["s"],
        group_cols=[names["g"]],
        weight=names["w"],
        dialect="spark",
    )
    result = spark.sql(sql)
    assert result.columns == ["select", "threshold", "fpr", "tpr"]
    rows = [tuple(r) for r in result.collect()]
    assert rows[0] == ("a", float("inf"), 0.0, 0.0)
    assert [r[0] for r in rows] == ["a"] * 3 + ["b"] * 2
    assert spark.catalog.tableExists("hostile")
