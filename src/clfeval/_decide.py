"""From scores to decisions: net benefit, expected cost and cross-validated summaries.

* :func:`decision_curve`: net benefit per threshold probability (Vickers & Elkin 2006), of
  the model, of treating everyone and of treating no one;
* :func:`expected_cost`: the cost per row of predicted labels, binary (``cost_fp``,
  ``cost_fn``) or from a full cost matrix;
* :func:`cv_summary`: each metric pooled over the folds and averaged over them.

The prevalence shift (``prevalence=``) lives in :mod:`clfeval._shift`, the costs of the
thresholds table in :mod:`clfeval._costs`; each function here is a formula over the counts
of the count layer, lazy end to end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from clfeval import _costs, _curves, _options, _shift
from clfeval._counts import N, labels_series, pairs_of
from clfeval._curves import (
    FP,
    NN,
    NP,
    TP,
    choose_plan,
    counts_frame,
    rate,
    setup,
)
from clfeval._frames import as_polars, frame_input
from clfeval._metric_table import metrics as _metrics
from clfeval._models import Models, comparable
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    Missing,
    check_class_value,
    check_folds,
    check_prevalence,
    prepare,
)
from clfeval.exceptions import InputError

__all__ = ["cv_summary", "decision_curve", "expected_cost", "prevalence_curve"]

DECISION_COLUMNS = ("threshold", "net_benefit", "net_benefit_all", "net_benefit_none")
CV_COLUMNS = ("metric", "pooled", "mean", "sd", "n_folds")
_I = "__clf_i"  # the order of the metrics of cv_summary


def _binary_only(score: Any, name: str) -> None:
    if not isinstance(score, str):
        raise InputError(
            f"{name} takes one probability column (binary), got {score!r}",
            role="score",
            rule="score_labels",
            hint="pass the column of the probability of pos_label",
        )


@frame_input("decision_curve")
@comparable("score")
def decision_curve(
    data: Frame,
    y: str,
    score: str | None = None,
    *,
    thresholds: Sequence[float] | None = None,
    pos_label: Any = 1,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Net benefit per threshold probability t: ``threshold, net_benefit, net_benefit_all,
    net_benefit_none``.

    net_benefit = TP/n − FP/n · t/(1 − t), treating the rows with ``score >= t``: the true
    positives gained, less the false positives weighted by the odds at which a decision-maker
    is indifferent (Vickers & Elkin 2006). Treat all: P/n − N/n · t/(1 − t); treat none: 0.
    ``thresholds`` (default 0.01, 0.02, ..., 0.99) are probabilities in (0, 1), returned
    increasing; ``score`` must hold probabilities in [0, 1]. Null in a group of zero weight.

    See Also
    --------
    clf_decision_curve : the SQL twin.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "p": [0.9, 0.4, 0.6, 0.1]})
    >>> decision_curve(df, "y", "p", thresholds=[0.5])["net_benefit"].item()
    0.0
    """
    grid = _options.threshold_grid(thresholds)
    _binary_only(score, "decision_curve")
    prep, long, keys = setup(
        as_polars(data),
        y,
        score,  # type: ignore[arg-type]
        pos_label=pos_label,
        labels=None,
        by=by,
        weight=weight,
        missing=missing,
        nonfinite=nonfinite,
        probability=True,
    )
    # the threshold counts (one row per distinct score, by the plan the data suits); at
    # grid threshold t, the counts of the smallest distinct score >= t (an as-of join)
    plan = _curves.PLAN if _curves.PLAN != "auto" else choose_plan(prep, long)
    counts = counts_frame(long, keys, weight is not None, plan, drop_zero=False)
    totals = (
        counts.group_by(keys).agg(pl.col(NP, NN).first())
        if keys
        else counts.select(pl.col(NP, NN).first())
    )
    grid_rows = totals.join(pl.LazyFrame({"threshold": grid}), how="cross")
    right = counts.select(*keys, pl.col("threshold").alias("__clf_t"), TP, FP)
    table = (
        grid_rows.sort("threshold")
        .join_asof(
            right.sort("__clf_t"),
            left_on="threshold",
            right_on="__clf_t",
            by=keys or None,
            strategy="forward",
            check_sortedness=False,  # both sides sorted on the threshold just above
        )
        .with_columns(
            pl.col(TP).cast(pl.Float64).fill_null(0.0).alias("__clf_pw"),
            pl.col(FP).cast(pl.Float64).fill_null(0.0).alias("__clf_nw"),
            pl.col(NP).cast(pl.Float64).alias("__clf_tp_all"),
            pl.col(NN).cast(pl.Float64).alias("__clf_fp_all"),
        )
        .sort([*keys, "threshold"], nulls_last=True)
    )
    t, n = pl.col("threshold"), pl.col("__clf_tp_all") + pl.col("__clf_fp_all")
    odds = t / (1.0 - t)
    out = table.with_columns(
        (rate(pl.col("__clf_pw"), n) - rate(pl.col("__clf_nw"), n) * odds).alias("net_benefit"),
        (rate(pl.col("__clf_tp_all"), n) - rate(pl.col("__clf_fp_all"), n) * odds).alias(
            "net_benefit_all"
        ),
        pl.lit(0.0).alias("net_benefit_none"),
    )
    return prep.finish(out.select(*keys, *DECISION_COLUMNS))


@frame_input("expected_cost")
def expected_cost(
    data: Frame,
    y: str,
    yhat: str,
    *,
    cost_fp: float | None = None,
    cost_fn: float | None = None,
    benefit_tp: float = 0.0,
    benefit_tn: float = 0.0,
    costs: Mapping[Any, Mapping[Any, float]] | None = None,
    pos_label: Any = 1,
    prevalence: Any = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
) -> Frame:
    """The cost of predicted labels: ``expected_cost`` (per row) and ``total_cost``.

    Binary: total = c_fp·fp + c_fn·fn − b_tp·tp − b_tn·tn for class ``pos_label`` against
    the rest; multiclass: ``costs={actual: {predicted: cost}}`` (a pair left out costs 0),
    total = Σ count(actual, predicted) · cost. expected_cost = total / n, null when n is 0.
    ``prevalence``: at that target (the rows re-weighted, as :func:`clfeval.metrics`).

    See Also
    --------
    clfeval.thresholds : ``expected_cost`` at every threshold of a score.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> expected_cost(df, "y", "yhat", cost_fp=1, cost_fn=5)["expected_cost"].item()
    1.5
    """
    binary = _options.costs(cost_fp, cost_fn, benefit_tp, benefit_tn)
    if (binary is None) == (costs is None):
        raise InputError(
            "expected_cost needs either cost_fp= and cost_fn= (binary) or costs= (a matrix)",
            role="costs",
            rule="option",
            hint="binary: cost_fp=1, cost_fn=10; multiclass: costs={actual: {predicted: cost}}",
        )
    matrix = _options.cost_matrix(costs) if costs is not None else None
    target = _options.prevalence(prevalence)
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        weight=weight,
        by=by,
        missing=missing,
        classes=False,
        pos_label=pos_label if matrix is None else NOT_GIVEN,
        outputs=[_costs.EXPECTED, _costs.TOTAL, _shift.MEASURED, _shift.TARGET],
    )
    dtype = prep.frame.collect_schema()[y]
    if matrix is not None:
        for actual, row in matrix.items():
            for label in (actual, *row):
                check_class_value(dtype, label, y, "costs")
    prep, pairs, yhat = pairs_of(prep, y, yhat, weight, None)
    if target is not None:
        check_prevalence(prep, y, target)
        pairs, context = _shift.shift_pairs(pairs, prep, y, target, pos_label)
    n = pl.col(N).cast(pl.Float64)
    if matrix is None:
        assert binary is not None
        c_fp, c_fn, b_tp, b_tn = binary
        is_pos, says_pos = pl.col(y) == pos_label, pl.col(yhat) == pos_label
        cost = (
            pl.when(is_pos & says_pos)
            .then(-b_tp)
            .when(is_pos)
            .then(c_fn)
            .when(says_pos)
            .then(c_fp)
            .otherwise(-b_tn)
        )
        priced = pairs.with_columns(cost.cast(pl.Float64).alias("__clf_c"))
    else:
        cells = [(a, p, c) for a, row in matrix.items() for p, c in row.items()]
        table = pl.LazyFrame(
            {
                y: labels_series([a for a, _, _ in cells], dtype),
                yhat: labels_series([p for _, p, _ in cells], dtype),
                "__clf_c": [c for _, _, c in cells],
            }
        )
        priced = pairs.join(table, on=[y, yhat], how="left").with_columns(
            pl.col("__clf_c").fill_null(0.0)
        )
    total = (n * pl.col("__clf_c")).sum()
    agg = [
        pl.when(n.sum() > 0).then(total / n.sum()).alias(_costs.EXPECTED),
        total.alias(_costs.TOTAL),
    ]
    out = (
        priced.group_by(prep.by).agg(agg).sort(prep.by, nulls_last=True)
        if prep.by
        else priced.select(agg)
    )
    if target is not None:
        out = _shift.finish(out, context, prep.by, show=False)
    return prep.finish(out.select(*prep.by, _costs.EXPECTED, _costs.TOTAL))


@frame_input("cv_summary")
@comparable("yhat", "score")
def cv_summary(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    score: Any = None,
    fold: str = "fold",
    metrics: Sequence[str] | None = None,
    average: Any = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = 0.0,
    beta: float = 1.0,
    ddof: int = 1,
    prevalence: Any = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Cross-validated metrics: ``metric, pooled, mean, sd, n_folds`` per group and metric.

    ``pooled`` is the metric of one confusion matrix (or ranking) over the rows of every
    fold: each row weighs the same. ``mean`` and ``sd`` (``ddof=1``: the sample standard
    deviation) are over the folds' own values: each fold weighs the same; ``n_folds``
    counts the folds with a value (an undefined fold value, null, is left out of both).
    Arguments as :func:`clfeval.metrics` (same defaults, ``average=None`` adds ``label``);
    ``fold`` names the fold column, which needs two folds or more in each group (a null
    fold raises, or with ``missing="drop"`` or on a LazyFrame leaves its row out).

    See Also
    --------
    clf_cv_summary : the SQL twin (label metrics).

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 1, 0, 0], "yhat": [1, 0, 0, 1, 1, 0],
    ...                    "fold": [1, 1, 1, 2, 2, 2]})
    >>> cv_summary(df, "y", "yhat", metrics=["accuracy"]).row(0)
    ('accuracy', 0.6666666666666666, 0.6666666666666666, 0.0, 2)
    """
    fold = _options.column_name("fold", fold)
    ddof = _options.ddof(ddof)
    data = as_polars(data)
    groups = _options.group_columns(by)
    if fold in groups:
        raise InputError(
            f"the fold column {fold!r} is also a group column (by=)",
            column=fold,
            role="fold",
            rule="by_name",
            hint="group by the other columns: the folds are summarised within each group",
        )
    eager = isinstance(data, pl.DataFrame)
    check_folds(data.lazy(), fold, groups, eager=eager, missing=missing)
    if missing == "drop" or not eager:  # lazy: a row without a fold is left out
        data = data.filter(pl.col(fold).is_not_null())
    kw: dict[str, Any] = {
        "score": score,
        "metrics": metrics,
        "average": average,
        "pos_label": pos_label,
        "labels": labels,
        "zero_division": zero_division,
        "beta": beta,
        "prevalence": prevalence,
        "weight": weight,
        "missing": missing,
        "nonfinite": nonfinite,
    }
    pooled = _metrics(data, y, yhat, by=groups or None, **kw)
    per_fold = _metrics(data, y, yhat, by=[*groups, fold], **kw)
    keys = [*groups, *(["label"] if average is None else [])]
    context = ("n_excluded", _shift.MEASURED, _shift.TARGET)
    names = [c for c in pooled.collect_schema() if c not in (*keys, *context)]

    def long(frame: Frame, index: list[str], value: str) -> pl.LazyFrame:
        frame = frame.lazy().select(*index, *[pl.col(c).cast(pl.Float64) for c in names])
        return frame.unpivot(on=names, index=index, variable_name="metric", value_name=value)

    folds = (
        long(per_fold, [*keys, fold], "__clf_v")
        .group_by([*keys, "metric"])
        .agg(
            pl.col("__clf_v").mean().alias("mean"),
            pl.col("__clf_v").std(ddof=ddof).alias("sd"),
            pl.col("__clf_v").count().cast(pl.Int64).alias("n_folds"),
        )
    )
    order = pl.col("metric").replace_strict(names, list(range(len(names))), return_dtype=pl.Int64)
    out = (
        long(pooled, keys, "pooled")
        .join(folds, on=[*keys, "metric"], how="left", nulls_equal=True)
        .with_columns(order.alias(_I))
        .sort([*keys, _I], nulls_last=True)
        .select(*keys, *CV_COLUMNS)
    )
    return out.collect() if isinstance(data, pl.DataFrame) else out


CURVE_METRICS = ("precision", "npv", "accuracy", "f1")


@frame_input("prevalence_curve")
def prevalence_curve(
    data: Frame,
    y: str,
    yhat: str,
    *,
    prevalences: Sequence[float] | None = None,
    pos_label: Any = 1,
    zero_division: float | None = 0.0,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
) -> Frame:
    """One operating point at many prevalences: ``prevalence, precision, npv, accuracy, f1``.

    With the recall r and specificity s of ``yhat`` (which do not depend on the prevalence),
    at prevalence π: precision = π·r / (π·r + (1 − π)(1 − s)), npv = (1 − π)·s / ((1 − π)·s +
    π(1 − r)), accuracy = π·r + (1 − π)·s, as ``metrics(..., prevalence=π)``. Null in a group
    without positives or negatives. ``prevalences`` default: 199 points evenly spaced in
    log-odds from 0.001 to 0.999.

    See Also
    --------
    clfeval.metrics : ``prevalence=`` for one target.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> prevalence_curve(df, "y", "yhat", prevalences=[0.1])["precision"].item()
    0.1
    """
    from clfeval._counts import POLARS
    from clfeval._metrics import Counts, binary_formulas

    grid = _options.threshold_grid(prevalences, role="prevalences")
    zero_division = _options.zero_division(zero_division)
    rates = _metrics(
        data,
        y,
        yhat,
        metrics=["recall", "specificity"],
        pos_label=pos_label,
        zero_division=None,
        by=by,
        weight=weight,
        missing=missing,
    )
    keys = [c for c in rates.collect_schema() if c not in ("recall", "specificity", "n_excluded")]
    pi, r, s = pl.col("prevalence"), pl.col("recall"), pl.col("specificity")
    tp = pi * r
    counts = Counts(tp=tp, pred=tp + (1.0 - pi) * (1.0 - s), support=pi, total=pl.lit(1.0))
    values = binary_formulas(POLARS, counts, zero_division, 1.0, CURVE_METRICS)
    out = (
        rates.lazy()
        .join(pl.LazyFrame({"prevalence": grid}), how="cross")
        .select(*keys, "prevalence", *[values[m].alias(m) for m in CURVE_METRICS])
    )
    return out.collect() if isinstance(rates, pl.DataFrame) else out
