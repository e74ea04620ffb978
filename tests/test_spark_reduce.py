"""A Spark DataFrame in, for the calls with no generated SQL: Spark reduces the rows to the
weight of each distinct (groups, labels, scores), Polars finishes, and the data checks run in
Spark on the rows. The numbers, the report text, the HTML page and every error message equal
the Polars front door's on the same rows."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from test_postgres import frame, same

import clfeval as ce

pytestmark = pytest.mark.spark


def rows(seed: int, n: int, k: int, text: bool) -> pl.DataFrame:
    """test_postgres.frame with a second model (score t, labels yhat2) and three folds."""
    rng = np.random.default_rng(seed + 1)
    df = frame(seed, n, k, text)
    classes = df["y"].unique().sort().to_list()
    return df.with_columns(
        t=pl.Series(np.round(rng.random(n), 1)),
        yhat2=pl.Series(
            rng.choice(np.array(classes, dtype=object), n).tolist(), dtype=df["y"].dtype
        ),
        fold=pl.Series(rng.integers(0, 3, n)),
    )


Call = Callable[..., Any]


def calls(pos: Any) -> dict[str, Call]:
    """Every function or option without generated SQL, each with its options spelled out."""
    return {
        "expected_cost": lambda d, **kw: ce.expected_cost(d, "y", "yhat", cost_fp=1.0, cost_fn=4.0, pos_label=pos, **kw),
        "expected_cost prevalence": lambda d, **kw: ce.expected_cost(d, "y", "yhat", cost_fp=1.0, cost_fn=2.0, pos_label=pos, prevalence=0.3, **kw),
        "decision_curve": lambda d, **kw: ce.decision_curve(d, "y", "s", pos_label=pos, **kw),
        "decision_curve models": lambda d, **kw: ce.decision_curve(d, "y", models=["s", "t"], pos_label=pos, **kw),
        "prevalence_curve": lambda d, **kw: ce.prevalence_curve(d, "y", "yhat", pos_label=pos, **kw),
        "cv_summary": lambda d, **kw: ce.cv_summary(d, "y", "yhat", score="s", pos_label=pos, **kw),
        "compare": lambda d, **kw: ce.compare(d, "y", ["yhat", "yhat2"], pos_label=pos, n_boot=200, **kw),
        "auroc_ci": lambda d, **kw: ce.auroc_ci(d, "y", "s", pos_label=pos, **kw),
        "compare_auroc": lambda d, **kw: ce.compare_auroc(d, "y", ["s", "t"], pos_label=pos, **kw),
        "metrics ci": lambda d, **kw: ce.metrics(d, "y", "yhat", score="s", pos_label=pos, ci=0.9, n_boot=200, **kw),
        "metrics prevalence": lambda d, **kw: ce.metrics(d, "y", "yhat", pos_label=pos, prevalence=0.2, **kw),
        "best_threshold": lambda d, **kw: ce.best_threshold(d, "y", "s", pos_label=pos, **kw),
        "best_threshold cost": lambda d, **kw: ce.best_threshold(d, "y", "s", metric="cost", cost_fp=1.0, cost_fn=5.0, pos_label=pos, **kw),
        "thresholds cost": lambda d, **kw: ce.thresholds(d, "y", "s", cost_fp=1.0, cost_fn=3.0, prevalence=0.25, pos_label=pos, **kw),
        "threshold_counts": lambda d, **kw: ce.threshold_counts(d, "y", "s", pos_label=pos, **kw),
        "gain_curve": lambda d, **kw: ce.gain_curve(d, "y", "s", pos_label=pos, **kw),
        "lift_curve": lambda d, **kw: ce.lift_curve(d, "y", "s", pos_label=pos, **kw),
        "roc_curve models": lambda d, **kw: ce.roc_curve(d, "y", models={"a": "s", "b": "t"}, pos_label=pos, **kw),
        "confusion normalize": lambda d, **kw: ce.confusion_matrix(d, "y", "yhat", normalize="pred", **kw),
        "baseline": lambda d, **kw: ce.baseline(d, "y", pos_label=pos, **kw),
    }  # fmt: skip


KEYED = {"cv_summary": {"fold": "fold"}}  # options a call needs besides the shared ones


@pytest.mark.parametrize(
    ("seed", "weighted", "grouped", "drop"),
    [(1, True, True, False), (2, False, False, True), (3, False, True, False)],
)
def test_reduced_calls_equal_polars(
    spark, seed: int, weighted: bool, grouped: bool, drop: bool
) -> None:
    """Grouped or not, weighted or not, with rows dropped for a null score or label: each
    call on the Spark DataFrame equals the call on the Polars frame (counts Int64 without
    weights, as Polars gives them; the same bootstrap draws)."""
    df = rows(seed, 90, 2, text=seed % 2 == 1)
    if drop:  # nulls the drop options leave out, counted as rows in n_excluded
        i = pl.int_range(pl.len())
        df = df.with_columns(
            s=pl.when(i % 11 == 3).then(None).otherwise(pl.col("s")),
            yhat=pl.when(i % 13 == 5).then(None).otherwise(pl.col("yhat")),
        )
    sdf = spark.createDataFrame(df.to_arrow())
    pos = df["y"].drop_nulls().unique().sort()[1]
    kw: dict[str, Any] = {}
    if weighted:
        kw["weight"] = "w"
    if grouped:
        kw["by"] = "g2"
    if drop:
        kw["missing"] = "drop"
    for name, fn in calls(pos).items():
        if name == "compare" and drop:
            continue  # refused on Spark: test_spark_rows_are_never_collected
        options = kw | KEYED.get(name.split()[0], {})
        want = fn(df, **options)
        got = fn(sdf, **options)
        assert isinstance(got, pl.DataFrame), name
        assert got.schema == want.schema, (name, got.schema, want.schema)
        same(got, want, ["g2"] if grouped and "g2" in want.columns else [], name)


def test_reduced_report_text_equals_polars(spark) -> None:
    """Reports with options the generated SQL lacks print scikit-learn's layout as Polars."""
    df = rows(4, 80, 3, text=False)
    sdf = spark.createDataFrame(df.to_arrow())
    for kw in (
        {"ci": 0.9, "n_boot": 100},
        {"fold": "fold"},
        {"fold": "fold", "weight": "w", "by": "g2"},
        {"target_names": ["zero", "one", "two"]},
    ):
        assert str(ce.report(sdf, "y", "yhat", **kw)) == str(ce.report(df, "y", "yhat", **kw)), kw
    binary = rows(5, 80, 2, text=True)
    sbinary = spark.createDataFrame(binary.to_arrow())
    kw = {"score": "s", "pos_label": "bee", "prevalence": 0.3}
    assert str(ce.report(sbinary, "y", "yhat", **kw)) == str(ce.report(binary, "y", "yhat", **kw))


def same_page(a: str, b: str) -> None:
    """Equal pages up to how a chart's JSON spells a whole count (Polars counts rows as 8, the
    reduced table's summed weight as 8.0: one number to the browser) and the data names,
    which hash that text."""

    def norm(text: str) -> str:
        text = re.sub(r"(?<=[:\[,])(-?\d+)\.0(?=[,}\]])", r"\1", text)
        return re.sub(r"data-[0-9a-f]{32}", "data-X", text)

    assert norm(a) == norm(b)


@pytest.mark.parametrize(
    "kw",
    [
        {"score": "s", "by": "g2"},
        {"score": "s", "weight": "w", "missing": "drop", "cost_fp": 1.0, "cost_fn": 3.0, "prevalence": 0.2},
        {},
    ],
)  # fmt: skip
def test_report_html_on_spark_equals_polars(spark, kw: dict[str, Any]) -> None:
    """The page of a Spark DataFrame: the report computed inside Spark, the charts drawn from
    the reduced rows; the same page as the Polars frame's."""
    df = rows(6, 120, 2, text=True).with_columns(
        s=pl.when(pl.int_range(pl.len()) == 4).then(None).otherwise(pl.col("s"))
    )
    if "missing" not in kw:
        df = df.drop_nulls("s")
    sdf = spark.createDataFrame(df.to_arrow())
    want = ce.report_html(df, "y", "yhat", pos_label="bee", **kw)
    got = ce.report_html(sdf, "y", "yhat", pos_label="bee", **kw)
    assert got.charts == want.charts
    same_page(got.to_html(), want.to_html())


def test_reduced_bad_input_same_errors(spark) -> None:
    """The data checks run in Spark on the rows: the same message, count and example rows as
    Polars; the option and schema checks are Polars' own, run on the Spark schema."""
    df = rows(7, 60, 2, text=False)
    i = pl.int_range(pl.len())
    bad = df.with_columns(
        s=pl.when(i % 7 == 2).then(None).otherwise(pl.col("s")),
        w=pl.when(i % 9 == 4).then(-1.0).otherwise(pl.col("w")),
        half=pl.col("w") * 0.5,
        fold=pl.when(i == 3).then(None).otherwise(pl.col("fold")),
        one_fold=pl.lit(0),
    )
    sbad = spark.createDataFrame(bad.to_arrow())
    cases: list[Call] = [
        lambda d: ce.auroc_ci(d, "y", "s"),  # nulls
        lambda d: ce.decision_curve(d, "y", "t", weight="w"),  # negative weights
        lambda d: ce.expected_cost(d, "y", "nope", cost_fp=1.0, cost_fn=2.0),  # missing column
        lambda d: ce.compare_auroc(d, "y", ["t", "t2"], missing="drop"),  # missing second model
        lambda d: ce.auroc_ci(d, "y", "t", weight="half"),  # DeLong counts rows
        lambda d: ce.cv_summary(d, "y", "yhat"),  # a null fold
        lambda d: ce.cv_summary(d, "y", "yhat", fold="one_fold"),  # one fold
        lambda d: ce.expected_cost(d, "y", "yhat", cost_fp=-1.0, cost_fn=2.0),  # a bad option
        lambda d: ce.metrics(d, "y", "yhat", ci=1.5),  # a bad level
        lambda d: ce.compare(d, "y", ["yhat", "y"]),  # the truth column compared
        lambda d: ce.decision_curve(d, "y", "t", pos_label="one"),  # text against numbers
        lambda d: ce.report_html(d, "y", "yhat", score="s"),  # nulls, through the report
        lambda d: ce.report_html(d, "y", "yhat", title=3),  # a bad option of the page
    ]
    for case in cases:
        with pytest.raises(ce.InputError) as polars_err:
            case(bad)
        with pytest.raises(ce.InputError) as spark_err:
            case(sbad)
        assert str(spark_err.value) == str(polars_err.value)
        assert spark_err.value.rule == polars_err.value.rule


def test_spark_rows_are_never_collected(spark) -> None:
    """What would need the rows themselves is refused, naming a way that stays in Spark."""
    df = rows(8, 40, 3, text=False).with_columns(p0=pl.lit(0.2), p1=pl.lit(0.3), p2=pl.lit(0.5))
    sdf = spark.createDataFrame(df.to_arrow())
    proba = {0: "p0", 1: "p1", 2: "p2"}
    for fn, pattern in (
        (lambda: ce.report_html(sdf, "y", "yhat", score=proba), r"report_html\(\) cannot run inside Spark: score= names one column per class"),
        (lambda: ce.cv_summary(sdf, "y", score=proba, fold="fold"), r"cv_summary\(\) cannot run inside Spark"),
        (lambda: ce.calibration(sdf, "y", "s", strategy="quantile", pos_label=1), r"strategy='quantile' bins by quantiles"),
        (lambda: ce.compare(sdf, "y", ["yhat", "yhat2"], missing="drop"), r"drop them in Spark first"),
        (lambda: ce.sql.metrics(sdf, "y", "yhat"), r"data is a Spark DataFrame, which clfeval evaluates inside Spark only"),
    ):  # fmt: skip
        with pytest.raises(ce.InputError, match=pattern):
            fn()
    # the per-class scores the refusals point to run inside Spark by their SQL
    want = ce.metrics(df, "y", score=proba, metrics=["auroc", "log_loss"])
    same(ce.metrics(sdf, "y", score=proba, metrics=["auroc", "log_loss"]), want, [], "per-class")
