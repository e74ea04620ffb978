"""clfeval.sqlgen on a local Apache Spark session: every capability equals scikit-learn per group."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest
from test_sqlgen import Case, check_case, close, reference  # tests/ is on sys.path (conftest)

from clfeval.sqlgen import query

pytestmark = pytest.mark.spark


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


DATASETS = {  # name: (seed, string labels, weighted, classes)
    "multi0": (0, False, True, 3),
    "multi1": (1, True, False, 3),
    "bin0": (2, True, True, 2),
    "bin1": (3, False, False, 2),
}


@pytest.fixture(scope="module")
def views(spark, tmp_path_factory) -> dict[str, tuple[Case, str]]:
    """Each case written to Parquet and registered as a temporary view of the same name."""
    out = {}
    folder = tmp_path_factory.mktemp("spark")
    for name, (seed, strings, weighted, k) in DATASETS.items():
        case = random_case(seed, strings=strings, weighted=weighted, k=k)
        pq.write_table(case.arrow(), folder / f"{name}.parquet")
        spark.read.parquet(str(folder / f"{name}.parquet")).createOrReplaceTempView(name)
        out[name] = (case, name)
    return out


def run_spark(spark, case: Case, table: str, metric: str, **kw) -> list[tuple]:
    sql = query(metric, **case.args(metric, table=table, **kw), dialect="spark")
    return [tuple(r) for r in spark.sql(sql).collect()]


# Every capability once, options and the four cases spread over the runs.
RUNS = [
    ("multi0", "counts", {}),
    ("multi1", "confusion", {}),
    ("multi0", "report", {}),
    ("multi1", "report", {"zero_division": None}),
    ("multi1", "metrics", {"average": "macro"}),
    ("multi0", "metrics", {"average": "weighted", "zero_division": None}),
    ("bin1", "metrics", {"average": "binary"}),
    ("multi0", "thresholds", {}),
    ("multi1", "roc_curve", {}),
    ("multi0", "roc_curve", {"drop_intermediate": False}),
    ("multi0", "pr_curve", {}),
    ("multi1", "pr_curve", {"drop_intermediate": True}),
    ("bin0", "det_curve", {}),
    ("multi1", "det_curve", {"drop_intermediate": True}),
    ("multi0", "auroc", {}),
    ("multi1", "average_precision", {}),
    ("multi1", "log_loss", {}),
    ("multi0", "brier", {}),
    ("multi0", "calibration", {"n_bins": 10}),
    ("bin1", "calibration", {"n_bins": 7}),
]


@pytest.mark.parametrize(("data", "metric", "kw"), RUNS, ids=[f"{m}-{d}-{k}" for d, m, k in RUNS])
def test_spark_matches_sklearn(spark, views, data: str, metric: str, kw: dict) -> None:
    case, table = views[data]
    rows = run_spark(spark, case, table, metric, **kw)
    assert rows
    check_case(case, metric, rows, **kw)


def test_spark_metrics_with_scores(spark, views) -> None:
    case, table = views["bin0"]
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


def assert_equal_frames(got, expected, names: list[str]) -> None:
    """Per group, each metric to 1e-9 (nulls where Polars has nulls)."""
    import polars as pl

    assert got.height == expected.height
    assert got.select("g1", "g2").rows() == expected.select("g1", "g2").rows()
    for name in names:
        a = got[name].cast(pl.Float64).fill_null(float("nan")).to_numpy()
        b = expected[name].cast(pl.Float64).fill_null(float("nan")).to_numpy()
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=name)


@pytest.mark.parametrize(
    ("data", "average", "kappa_weights", "extra"),
    [
        ("bin1", "binary", None, {}),
        ("multi0", "macro", "quadratic", {}),
        ("multi1", "weighted", "linear", {}),
        ("multi0", "micro", "linear", {"labels": [2, 0], "adjusted": True}),
        ("multi1", "macro", None, {"labels": ["cat", "ant"], "beta": 2.0}),
    ],
)
def test_spark_twins_equal_polars(
    spark, views, data: str, average: str, kappa_weights, extra: dict
) -> None:
    """Every label metric the registry marks as generated, on Spark, equals ce.metrics."""
    import polars as pl

    import clfeval as ce
    from clfeval import _metrics

    case, table = views[data]
    names = [n for n in _metrics.names(generated=True) if _metrics.METRICS[n].family == "label"]
    sql = query(
        "metrics", table=table, y="y", yhat="yhat", group_cols=["g1", "g2"],
        weight="w" if case.weighted else None, pos_label=case.pos_label, average=average,
        metrics=names, kappa_weights=kappa_weights, dialect="spark", **extra,
    )  # fmt: skip
    got = pl.DataFrame(
        [tuple(r) for r in spark.sql(sql).collect()], schema=["g1", "g2", *names], orient="row"
    )
    frame = pl.from_arrow(case.arrow())
    expected = ce.metrics(
        frame, "y", "yhat", by=["g1", "g2"], weight="w" if case.weighted else None,
        pos_label=case.pos_label, average=average, metrics=names, kappa_weights=kappa_weights,
        **extra,
    )  # fmt: skip
    assert_equal_frames(got, expected, names)


@pytest.fixture(scope="module")
def proba_view(spark, tmp_path_factory):
    """Three text classes with per-class probabilities on a grid (ties; rows sum to 1), a
    binary label and score for the partial AUROC, two group columns with nulls, integer
    weights 0-5."""
    import polars as pl

    rng = np.random.default_rng(17)
    n, k = 400, 3
    y = rng.integers(0, k, n)
    counts = rng.integers(0, 5, (n, k)) + np.eye(k, dtype=int)[y] * rng.integers(0, 4, n)[:, None]
    counts[counts.sum(axis=1) == 0, 0] = 1
    p = counts / counts.sum(axis=1, keepdims=True)
    frame = pl.DataFrame(
        {
            "g1": pl.Series(rng.choice(["a", "b", None], n).tolist(), dtype=pl.String),
            "g2": pl.Series(rng.choice([0, 1, None], n).tolist(), dtype=pl.Int64),
            "y": [["ant", "bee", "cat"][i] for i in y],
            **{f"p_{c}": p[:, i] for i, c in enumerate(["ant", "bee", "cat"])},
            "yb": (y == 1).astype(np.int64),
            "s": np.round(p[:, 1] + rng.random(n) * 0.2, 1),
            "w": rng.integers(0, 6, n).astype(float),
        }
    )
    path = tmp_path_factory.mktemp("spark_proba") / "proba.parquet"
    frame.write_parquet(path)
    spark.read.parquet(str(path)).createOrReplaceTempView("proba3")
    return frame, "proba3"


CLASSES = ["ant", "bee", "cat"]
MAPPING = {c: f"p_{c}" for c in CLASSES}
SCORE_RUNS = {  # id: (query and ce.metrics options, weighted)
    "ovr-macro": ({"score": MAPPING, "multi_class": "ovr", "average": "macro"}, False),
    "ovr-weighted": ({"score": MAPPING, "multi_class": "ovr", "average": "weighted"}, True),
    "ovr-micro": ({"score": MAPPING, "multi_class": "ovr", "average": "micro"}, True),
    "ovo-macro": ({"score": MAPPING, "multi_class": "ovo", "average": "macro"}, True),
    "ovo-weighted": ({"score": MAPPING, "multi_class": "ovo", "average": "weighted"}, False),
    "list-labels": (
        {"score": ["p_cat", "p_ant", "p_bee"], "labels": ["cat", "ant", "bee"]},
        True,
    ),
}


@pytest.mark.parametrize("run", list(SCORE_RUNS))
def test_spark_per_class_scores_equal_polars(spark, proba_view, run: str) -> None:
    """Per-class AUROC (one-vs-rest, one-vs-one), average precision, log loss and Brier
    score, generated for Spark, equal ce.metrics per group to 1e-9."""
    import polars as pl

    import clfeval as ce
    from clfeval import _metrics

    frame, table = proba_view
    options, weighted = SCORE_RUNS[run]
    names = list(_metrics.names(generated_per_class=True))
    weight = "w" if weighted else None
    sql = query(
        "metrics", table=table, y="y", group_cols=["g1", "g2"], weight=weight, metrics=names,
        dialect="spark", **options,
    )  # fmt: skip
    rows = [tuple(r) for r in spark.sql(sql).collect()]
    got = pl.DataFrame(rows, schema=["g1", "g2", *names], orient="row")
    expected = ce.metrics(frame, "y", by=["g1", "g2"], weight=weight, metrics=names, **options)
    assert_equal_frames(got, expected, names)


@pytest.mark.parametrize(("max_fpr", "weighted"), [(0.1, False), (0.35, True), (1.0, True)])
def test_spark_partial_auroc_equals_polars(spark, proba_view, max_fpr, weighted) -> None:
    import polars as pl

    import clfeval as ce

    frame, table = proba_view
    weight = "w" if weighted else None
    sql = query("auroc", table=table, y="yb", score="s", group_cols=["g1", "g2"],
                weight=weight, max_fpr=max_fpr, dialect="spark")  # fmt: skip
    got = pl.DataFrame(
        [tuple(r) for r in spark.sql(sql).collect()], schema=["g1", "g2", "auroc"], orient="row"
    )
    expected = ce.metrics(frame, "yb", score="s", by=["g1", "g2"], weight=weight,
                          metrics=["auroc"], max_fpr=max_fpr)  # fmt: skip
    assert_equal_frames(got, expected, ["auroc"])


def test_run_on_spark_equals_the_polars_front_door(spark) -> None:
    """clfeval.sql.run on a SparkSession: the front door's checks counted by Spark, then the
    generated Spark SQL; one capability of each family equals the Polars function (all of them
    run on PostgreSQL and DuckDB in test_postgres.py: Spark costs about a second a query)."""
    import secrets

    import polars as pl
    from test_postgres import frame, polars_twin, run_args, same

    import clfeval as ce
    from clfeval import sql

    def make(df: pl.DataFrame) -> str:
        name = f"t_{secrets.token_hex(4)}"
        spark.createDataFrame(df.to_arrow()).createOrReplaceTempView(name)
        return name

    df = frame(seed=7, n=60, k=2, text=True)  # two text classes, tied scores, weights
    pos, name, by = df["y"][1], make(df), ["g1", "g2"]
    for cap in ("confusion", "metrics", "roc_curve", "calibration"):
        got = sql.run(spark, cap, table=name, **run_args(cap, by, "w", pos))
        same(got, polars_twin(cap, df, by, "w", pos), by, cap)
    got = sql.run(spark, "auroc", table=name, y="y", score="s", pos_label=pos, missing="drop")
    want = ce.metrics(df, "y", score="s", metrics=["auroc"], pos_label=pos, missing="drop")
    same(got, want, [], "auroc")
    bad = make(pl.DataFrame({"y": [0, 1], "s": [0.5, 1.5]}))
    with pytest.raises(ce.InputError, match=r"column 's' \(score\) has 1 value"):
        sql.run(spark, "brier", table=bad, y="y", score="s")


def test_spark_dataframe_in_equals_polars(spark) -> None:
    """A pyspark DataFrame goes to the frame functions as it is: evaluated by the generated
    Spark SQL (nothing collected), the same frames as Polars and the same report text."""
    import polars as pl
    from test_postgres import frame, same

    import clfeval as ce

    df = frame(seed=11, n=80, k=3, text=False).with_columns(
        s=pl.when(pl.col("y") == 1).then(pl.col("s")).otherwise(pl.col("s") * 0.8)
    )
    sdf = spark.createDataFrame(df.to_arrow())
    by = ["g1", "g2"]
    calls = {
        "counts": lambda d: ce.counts(d, "y", "yhat", by=by, weight="w"),
        "confusion_matrix": lambda d: ce.confusion_matrix(d, "y", "yhat", by=by),
        "metrics": lambda d: ce.metrics(d, "y", "yhat", average="macro", by=by, weight="w"),
        "roc_curve": lambda d: ce.roc_curve(d, "y", "s", by=by),
        "thresholds": lambda d: ce.thresholds(d, "y", "s", pos_label=2, weight="w"),
        "calibration": lambda d: ce.calibration(d, "y", "s", n_bins=5, by="g2"),
    }
    for name, fn in calls.items():
        got = fn(sdf)
        assert isinstance(got, pl.DataFrame), name
        same(got, fn(df), by if name not in ("thresholds", "calibration") else [], name)
    assert str(ce.report(sdf, "y", "yhat", by="g2")) == str(ce.report(df, "y", "yhat", by="g2"))
    assert str(ce.report(sdf, "y", "yhat", digits=4)) == str(ce.report(df, "y", "yhat", digits=4))
    binary = frame(seed=12, n=80, k=2, text=True).with_columns(
        pl.when(pl.int_range(pl.len()) == 5).then(None).otherwise(pl.col("s")).alias("s")
    )
    sbinary = spark.createDataFrame(binary.to_arrow())
    for kw in ({"score": "s", "by": "g2", "missing": "drop", "pos_label": "ant"}, {"score": "s", "weight": "w",
               "missing": "drop", "pos_label": "bee"}):  # fmt: skip
        want = ce.report(binary, "y", "yhat", **kw)
        got = ce.report(sbinary, "y", "yhat", **kw)
        assert str(got) == str(want), kw  # the score lines and the baselines too
        if isinstance(want.n_excluded, pl.DataFrame):
            same(got.n_excluded, want.n_excluded, ["g2"], "n_excluded")
        else:
            assert got.n_excluded == want.n_excluded
    bad = spark.createDataFrame(
        pl.DataFrame(
            {"y": [0, 1, 1], "yt": ["0", "1", "1"], "s": [0.2, 1.4, 0.7], "w": [1.0, -1.0, 1.0]}
        ).to_arrow()
    )
    polars_bad = pl.from_arrow(bad.toArrow())
    for fn in (
        lambda d: ce.roc_curve(d, "y", "sc"),  # missing column
        lambda d: ce.counts(d, "y", "yt"),  # text against numbers
        lambda d: ce.roc_curve(d, "y", "s", weight="w"),  # negative weight
        lambda d: ce.calibration(d, "y", "s"),  # probability outside [0, 1]
        lambda d: ce.metrics(d, "y", "y", average="avg"),  # a bad option
    ):
        with pytest.raises(ce.InputError) as polars_err:
            fn(polars_bad)
        with pytest.raises(ce.InputError) as spark_err:
            fn(bad)
        assert str(spark_err.value).split(" (rows")[0] == str(polars_err.value).split(" (rows")[0]
    # no generated SQL: evaluated on the table Spark reduces the rows to (test_spark_reduce.py)
    same(
        ce.baseline(sdf, "y", average="macro"),
        ce.baseline(df, "y", average="macro"),
        [],
        "baseline",
    )
    normalized = ce.confusion_matrix(sdf, "y", "yhat", normalize="true")
    same(normalized, ce.confusion_matrix(df, "y", "yhat", normalize="true"), [], "normalize")
