"""The thresholds table and the best threshold: frame functions over the threshold counts.

One row per distinct score (or ``n`` cut points): the confusion counts of the rule
``score >= threshold`` and the registry's metrics of them (:mod:`clfeval._metrics`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clfeval import _costs, _options, _shift
from clfeval._counts import POLARS
from clfeval._curves import (
    COUNT_COLUMNS,
    FP,
    METRIC_COLUMNS,
    NN,
    NP,
    TP,
    FrameScore,
    S,
    W,
    counts_table,
    finish,
    over,
    rate,
    with_start,
)
from clfeval._frames import frame_input
from clfeval._metrics import THRESHOLD_METRICS, Counts, binary_formulas
from clfeval._models import Models, comparable
from clfeval._validate import Frame, Missing
from clfeval.exceptions import InputError

__all__ = ["best_threshold", "thresholds"]


def _counts(shifted: bool) -> Counts:
    """The counts the metrics read: as measured, or re-weighted to ``__clf_pi``."""
    tp, fp = pl.col(TP).cast(pl.Float64), pl.col(FP).cast(pl.Float64)
    # "+ 0.0 * tp": totals laid out like tp, so Polars divides exactly (see _curves.rate)
    n_pos, n_neg = pl.col(NP) + 0.0 * tp, pl.col(NN) + 0.0 * tp
    if shifted:
        return _shift.shifted_counts(tp, fp, n_pos, n_neg)  # type: ignore[no-any-return]
    return Counts(tp=tp, pred=tp + fp, support=n_pos, total=n_pos + n_neg)


def _metric_columns(
    beta: float, zero_division: float | None, shifted: bool = False
) -> dict[str, pl.Expr]:
    """Every metric of the thresholds table: the registry's formulas over the counts."""
    return binary_formulas(POLARS, _counts(shifted), zero_division, beta, THRESHOLD_METRICS)


def _table(
    table: pl.LazyFrame,
    metrics: Sequence[str],
    beta: float,
    zero_division: float | None,
    shifted: bool = False,
    costs: _costs.Costs | None = None,
) -> pl.LazyFrame:
    formulas = _metric_columns(beta, zero_division, shifted)
    extra = []
    if shifted:  # the measured prevalence beside the target
        n_pos = pl.col(NP).cast(pl.Float64)
        extra += [
            rate(n_pos, n_pos + pl.col(NN)).alias(_shift.MEASURED),
            pl.col(_shift.PI).alias(_shift.TARGET),
        ]
    if costs is not None:
        extra += _costs.cost_columns(_counts(shifted), costs)
    return table.with_columns(
        (pl.col(NP) - pl.col(TP)).alias("fn"),
        (pl.col(NN) - pl.col(FP)).alias("tn"),
        *[formulas[m].alias(m) for m in metrics],
        *extra,
    )


def _decision_options(
    prevalence: Any, cost_fp: Any, cost_fn: Any, benefit_tp: Any, benefit_tn: Any, by: Any
) -> tuple[Any, _costs.Costs | None]:
    """The checked target prevalence and costs; no group column may be named like the
    columns they add."""
    target = _options.prevalence(prevalence)
    costs = _options.costs(cost_fp, cost_fn, benefit_tp, benefit_tn)
    _options.group_columns(by, outputs=_shift.outputs(target, costs))
    return target, costs


def _cut_points(long: pl.LazyFrame, keys: list[str], n: int, weighted: bool) -> pl.LazyFrame:
    """The scores at n evenly spaced quantiles (0, 1/(n-1), ..., 1; lower), per group."""
    if weighted:
        long = long.filter(pl.col(W) != 0)
    q = pl.lit(pl.Series([i / (n - 1) for i in range(n)]))
    at = ((pl.len() - 1).cast(pl.Float64) * q).floor().cast(pl.Int64)
    cut = pl.col(S).sort().gather(at).alias("threshold")
    cuts = long.group_by(keys).agg(cut) if keys else long.select(cut.implode())
    return cuts.explode("threshold").unique()


@frame_input("thresholds")
@comparable("score")
def thresholds(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    pos_label: Any = 1,
    metrics: Sequence[str] | None = None,
    n: int | None = None,
    beta: float = 1.0,
    zero_division: float | None = 0.0,
    labels: Sequence[Any] | None = None,
    prevalence: Any = None,
    cost_fp: float | None = None,
    cost_fn: float | None = None,
    benefit_tp: float = 0.0,
    benefit_tn: float = 0.0,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Metrics at every threshold: ``threshold, tp, fp, fn, tn`` then one column per metric.

    Rule: ``score >= threshold`` is predicted positive; one row per distinct score, highest
    first, or with ``n`` only the scores at n evenly spaced quantiles (min to max). Metrics
    (default all): precision, recall, specificity, fpr, npv, f1, fbeta (``beta``), accuracy,
    balanced_accuracy, mcc, youden_j (recall + specificity − 1), each the label metric of the
    thresholded predictions; a zero denominator gives ``zero_division`` (0.0 as scikit-learn).

    ``prevalence`` (a number in (0, 1), a column holding it per group, or ``{class: share}``
    for per-class scores): the metrics at that target prevalence, from the counts
    re-weighted to it (``tp, fp, fn, tn`` stay as measured), with ``prevalence`` (measured)
    and ``target_prevalence`` after the counts. ``cost_fp``, ``cost_fn`` (and optional
    ``benefit_tp``, ``benefit_tn``, all >= 0 per row) add ``expected_cost``, the cost per row
    c_fp·fp + c_fn·fn − b_tp·tp − b_tn·tn over n, and ``total_cost``, the same sum (at the
    target prevalence when one is given).

    ``models=`` (instead of ``score``) compares the score columns of a wide frame, as
    a list or ``{name: column}``: one result per model, with a ``model`` column first.

    See Also
    --------
    clf_thresholds : the SQL twin.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> thresholds(df, "y", "s", metrics=["precision"])["precision"].to_list()
    [1.0, 0.5, 0.6666666666666666, 0.5]
    """
    chosen = (
        list(METRIC_COLUMNS) if metrics is None else _options.metric_names(metrics, METRIC_COLUMNS)
    )
    beta = _options.beta(beta)
    zero_division = _options.zero_division(zero_division)
    target, costs = _decision_options(prevalence, cost_fp, cost_fn, benefit_tp, benefit_tn, by)
    if n is not None:
        n = _options.positive_int(
            "n",
            n,
            low=2,
            high=_options.MAX_CUTS,
            hint="n is the number of cut points, from the lowest to the highest score",
        )
    prep, table, keys, long = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    if n is not None:
        cuts = _cut_points(long, keys, n, weight is not None)
        table = table.join(
            cuts, on=[*keys, "threshold"], how="semi", nulls_equal=True, maintain_order="left"
        )
    table = _shift.with_target(table, prep, y, keys, target, pos_label)
    out = _table(table, chosen, beta, zero_division, target is not None, costs)
    shown = [_shift.MEASURED, _shift.TARGET] if target is not None else []
    cost = [_costs.EXPECTED, _costs.TOTAL] if costs is not None else []
    return finish(prep, out, keys, "threshold", *COUNT_COLUMNS, *shown, *chosen, *cost)


def _metric_name(metric: str, beta: float) -> tuple[str, float]:
    """(thresholds column, beta) for a metric name: a column, ``fbeta``, ``f<beta>`` or
    ``cost`` (the ``expected_cost`` column)."""
    if metric in METRIC_COLUMNS or metric in COUNT_COLUMNS:
        return metric, beta
    if metric == "cost":
        return _costs.EXPECTED, beta
    if metric.startswith("f"):
        try:
            value = float(metric[1:])
        except ValueError:
            value = -1.0
        if value >= 0:  # NaN fails too
            return "fbeta", value
    raise InputError(
        f"metric={metric!r} is not a column of the thresholds table",
        role="metric",
        rule="option",
        hint=f"choose from {METRIC_COLUMNS + COUNT_COLUMNS}, 'f<beta>' like 'f2', or 'cost'",
    )


@frame_input("best_threshold")
@comparable("score")
def best_threshold(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    metric: str = "f1",
    beta: float = 1.0,
    min_precision: float | None = None,
    min_recall: float | None = None,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    prevalence: Any = None,
    cost_fp: float | None = None,
    cost_fn: float | None = None,
    benefit_tp: float = 0.0,
    benefit_tn: float = 0.0,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """The threshold that maximises ``metric``: ``threshold, <metric>, tp, fp, fn, tn``.

    ``metric`` is a column of :func:`thresholds`, ``"fbeta"`` (with ``beta``) or ``"f<beta>"``
    such as ``"f2"`` or ``"f0.5"``. Ties go to the highest threshold (fewest rows flagged).
    ``min_precision=p`` picks the lowest threshold whose precision is >= p (the most recall
    under that constraint); ``min_recall=r`` the highest threshold whose recall is >= r; with
    both, the threshold maximising ``metric`` among those meeting both. One row per group;
    nulls when no threshold qualifies. ``prevalence``: the metrics (and constraints) at that
    target prevalence, as in :func:`thresholds`.

    ``metric="cost"`` (with ``cost_fp``, ``cost_fn``, optional ``benefit_tp``,
    ``benefit_tn``) minimises the expected cost per row instead, flagging no row at all
    (threshold +inf) included, and adds ``calibrated_threshold``: the cost-optimal threshold
    if the scores are calibrated probabilities, (c_fp + b_tn) / (c_fp + b_tn + c_fn + b_tp),
    moved by Bayes' rule to the target prevalence when one is given.

    ``models=`` (instead of ``score``) compares the score columns of a wide frame, as
    a list or ``{name: column}``: one result per model, with a ``model`` column first.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> best_threshold(df, "y", "s")["threshold"].item()
    0.35
    """
    if not isinstance(metric, str):
        raise InputError(
            f"metric={metric!r} is not a metric name",
            role="metric",
            rule="option",
            hint="pass one name, e.g. metric='f1'",
        )
    column, beta = _metric_name(metric, _options.beta(beta))
    target, costs = _decision_options(prevalence, cost_fp, cost_fn, benefit_tp, benefit_tn, by)
    if column == _costs.EXPECTED and costs is None:
        raise InputError(
            "metric='cost' needs cost_fp= and cost_fn=",
            role="cost_fp",
            rule="option",
            hint="pass the cost of a false positive and of a false negative, e.g. "
            "cost_fp=1, cost_fn=10",
        )
    min_precision = _options.fraction(
        "min_precision", min_precision, open_low=False, hint="a precision to reach, in [0, 1]"
    )
    min_recall = _options.fraction(
        "min_recall", min_recall, open_low=False, hint="a recall to reach, in [0, 1]"
    )
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    minimise = column == _costs.EXPECTED
    if minimise:  # flagging no row is a decision too
        table = with_start(table, keys, threshold=float("inf"), tp=0, fp=0)
    table = _shift.with_target(table, prep, y, keys, target, pos_label)
    needed = {column, "precision", "recall"} - set(COUNT_COLUMNS)
    metric_names = [m for m in METRIC_COLUMNS if m in needed]
    out = _table(table, metric_names, beta, 0.0, target is not None, costs if minimise else None)
    cand, m = out, pl.col(column)
    if min_precision is not None:
        cand = cand.filter(pl.col("precision") >= min_precision)
    if min_recall is not None:
        cand = cand.filter(pl.col("recall") >= min_recall)
    if min_precision is not None and min_recall is None:
        pick = cand.filter(over(pl.int_range(pl.len()) == pl.len() - 1, keys))
    elif min_recall is not None and min_precision is None:
        pick = cand.filter(over(pl.int_range(pl.len()) == 0, keys))
    else:
        best = cand.filter(m == over(m.min() if minimise else m.max(), keys))
        pick = best.filter(over(pl.int_range(pl.len()) == 0, keys))
    shown = [column] if column not in COUNT_COLUMNS else []
    bayes = []
    if minimise:
        assert costs is not None
        measured = rate(pl.col(NP).cast(pl.Float64), pl.col(NP) + pl.col(NN))
        pi = pl.col(_shift.PI) if target is not None else None
        bayes = [_costs.bayes_threshold(costs, measured, pi).alias("calibrated_threshold")]
    pick = pick.select(*keys, "threshold", *shown, *COUNT_COLUMNS, *bayes)
    groups = out.select(keys).unique() if keys else pl.LazyFrame({"__clf_one": [1]})
    on = keys or ["__clf_one"]
    if not keys:
        pick = pick.with_columns(pl.lit(1).alias("__clf_one"))
    result = groups.join(pick, on=on, how="left", nulls_equal=True).sort(on, nulls_last=True)
    if column != metric and not minimise:
        result = result.rename({column: metric})
    label = column if minimise else metric
    extra = ["calibrated_threshold"] if minimise else []
    return finish(
        prep, result, keys, "threshold", *([label] if shown else []), *COUNT_COLUMNS, *extra
    )
