"""Label metrics as aggregating Polars expressions, each a formula over the count layer.

Every function returns a ``pl.Expr`` that aggregates to one value, so it works in ``select``,
``group_by().agg()`` and ``over()``, on DataFrames and LazyFrames, in the streaming engine.
Expressions follow aggregate semantics: a row with a null in a column the metric reads is left
out. They do not validate data: the frame functions (``ce.metrics``, ``.clf``) do.

``average`` is ``"binary"`` (the class ``pos_label``), ``"micro"`` (pool the counts of all
classes), ``"macro"`` (mean over classes), ``"weighted"`` (mean weighted by support) or ``None``
(a list, one value per class in class order). ``zero_division`` (0.0, 1.0 or None for null) is
what a ratio with a zero denominator becomes; nulls are left out of macro averages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _options, _shift
from clfeval._counts import (
    POLARS,
    IntoExpr,
    OvR,
    binary_counts,
    class_index,
    col,
    divide,
    guard,
    ovr_counts,
    share,
    valid_rows,
    weight_expr,
)
from clfeval._metrics import METRICS, names
from clfeval._validate import check_options

Average = Literal["binary", "micro", "macro", "weighted"] | None
ZeroDivision = float | None

__all__ = [
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "jaccard",
    "mcc",
    "npv",
    "precision",
    "prevalence",
    "recall",
    "specificity",
]


# A ratio is a formula over (tp, fp, fn, tn, support, pred) for one class or pooled counts:
# the registry's formula of a per-class metric, rendered in Polars.
Ratio = Callable[[OvR, ZeroDivision], pl.Expr]


def _ratio(name: str, beta: float = 1.0) -> Ratio:
    formula = METRICS[name].binary
    assert formula is not None, name
    return lambda c, z: formula(POLARS, c, z, beta)  # type: ignore[arg-type]


RATIOS: dict[str, Ratio] = {
    name: _ratio(name) for name in names(averaged=True) if not METRICS[name].params
}


def fbeta_ratio(beta: float) -> Ratio:
    """F-beta = (1 + b²)·tp / ((1 + b²)·tp + b²·fn + fp) = (1 + b²)·tp / (b²·support + pred).

    β = inf is recall (scikit-learn's limit); β = 0 is precision.
    """
    return _ratio("fbeta", beta)


def averaged(
    ratio: Ratio,
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    average: Average,
    pos_label: Any,
    labels: Sequence[Any] | None,
    zero_division: ZeroDivision,
    weight: IntoExpr | None,
    prevalence: Any = None,
) -> pl.Expr:
    """Apply a per-class ratio under an averaging rule (scikit-learn's semantics); with
    ``prevalence``, on the rows re-weighted to that target (:mod:`clfeval._shift`)."""
    check_options(average=average, labels=labels, zero_division=zero_division)
    target = _shift.option(prevalence)
    if average == "binary" and target is not None and not isinstance(target, dict):
        # four sums, then the counts re-weighted (the same numbers as re-weighted rows)
        _options.class_value("pos_label", pos_label)
        counts, ok = _shift.shift_binary(binary_counts(y, yhat, pos_label, weight), target)
        return guard(pl.when(ok).then(ratio(counts, zero_division)), weight)  # type: ignore[arg-type]
    weight = _shifted(y, yhat, target, pos_label, weight)
    if average == "binary":
        _options.class_value("pos_label", pos_label)
        return guard(ratio(binary_counts(y, yhat, pos_label, weight), zero_division), weight)
    value = average_ratio(
        ratio, ovr_counts(y, yhat, labels=labels, weight=weight), average, zero_division
    )
    return guard(value, weight)


def _shifted(
    y: IntoExpr, yhat: IntoExpr, prevalence: Any, pos_label: Any, weight: IntoExpr | None
) -> IntoExpr | None:
    """The weight of each row, re-weighted to ``prevalence`` when it is given."""
    target = _shift.option(prevalence) if not isinstance(prevalence, dict) else prevalence
    if target is None:
        return weight
    if not isinstance(target, dict):
        _options.class_value("pos_label", pos_label)
    return _shift.reweighted(y, target, pos_label=pos_label, weight=weight, also=[yhat])


def average_ratio(ratio: Ratio, c: OvR, average: Average, zero_division: ZeroDivision) -> pl.Expr:
    """Average a per-class ratio over the classes of ``c`` (vectors or count columns).

    micro pools the counts; macro is the mean leaving out nulls; weighted weights by support,
    leaving out nulls, and falls back to the plain mean when that support is 0; None is a list.
    """
    if average == "micro":
        return ratio(_pooled(c), zero_division)
    per_class = ratio(c, zero_division)
    if average is None:
        return per_class.implode()
    if average == "macro":
        return per_class.mean()
    kept = c.support.filter(per_class.is_not_null()).sum()
    return pl.when(kept == 0).then(per_class.mean()).otherwise((per_class * c.support).sum() / kept)


def _pooled(c: OvR) -> OvR:
    """Micro-averaged counts: tp, fp, fn and tn each summed over the classes."""
    tp, pred, support = c.tp.sum(), c.pred.sum(), c.support.sum()
    # total chosen so that OvR.tn (= total - pred - support + tp) is the summed tn
    return OvR(tp, pred, support, c.tn.sum() + pred + support - tp, None)


def balanced_from(c: OvR, adjusted: bool) -> pl.Expr:
    """Mean recall over classes with support (null recall of absent classes is left out)."""
    recall_per_class = divide(c.tp, c.support, None)
    score = recall_per_class.mean()
    if adjusted:
        chance = 1.0 / recall_per_class.count().cast(pl.Float64)
        score = divide(score - chance, 1.0 - chance, None)
    return score


def mcc_from(c: OvR) -> pl.Expr:
    """Gorodkin's R_K from per-class actual (t), predicted (p) and correct counts.

    Computed on shares (t and the correct count over the rows, p over its own total, the
    same number), so huge weights cannot overflow the products and a one-class marginal is
    exactly 1; 0.0 when a marginal is constant, as scikit-learn.
    """
    s, sp = c.support.sum(), c.pred.sum()
    t, p, correct = share(c.support, s), share(c.pred, sp), c.tp.sum() / sp
    cov_tp = correct - (t * p).sum()
    cov_pp = 1.0 - (p * p).sum()
    cov_tt = 1.0 - (t * t).sum()
    den = cov_pp * cov_tt
    return pl.when((den == 0) | (sp == 0)).then(0.0).otherwise(cov_tp / den.sqrt())


def kappa_from(observed: pl.Expr, expected: pl.Expr) -> pl.Expr:
    """1 - observed / expected disagreement (both as shares of the rows); null when the
    expected one is (close to) 0."""
    undefined = (expected.abs() <= 1e-12) | expected.is_nan()  # NaN: no weight at all
    kappa = pl.when(undefined).then(None).otherwise(1 - observed / expected)
    return kappa.cast(pl.Float64)


def _doc_ratio(name: str, formula: str, undefined: str) -> str:
    return f"""{name.capitalize()}: {formula}.

    {undefined} the ratio is ``zero_division`` (default 0.0, as scikit-learn; None gives null).
    Rows with a null in ``y``, ``yhat`` or ``weight`` are left out.

    Parameters
    ----------
    y, yhat
        Actual and predicted class: column names or expressions.
    average
        ``"binary"`` (class ``pos_label``), ``"micro"``, ``"macro"``, ``"weighted"`` or None
        (a list with one value per class).
    pos_label
        The positive class when ``average="binary"``.
    labels
        Classes to include and their order (default: the sorted classes present).
    zero_division
        The value of a ratio whose denominator is zero: 0.0, 1.0 or None (null).
    weight
        Optional column of non-negative row weights.
    prevalence
        A target prevalence of ``pos_label`` in (0, 1) (a number, or a column or expression
        constant in the group), or ``{{class: share}}``: the value on the rows re-weighted to
        it (see README, "From scores to decisions"); null when a class it needs is absent.

    See Also
    --------
    clf_{name} : the SQL twin.
    """


def _ratio_metric(name: str, formula: str, undefined: str) -> Callable[..., pl.Expr]:
    def metric(
        y: IntoExpr,
        yhat: IntoExpr,
        *,
        average: Average = "binary",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        zero_division: ZeroDivision = 0.0,
        weight: IntoExpr | None = None,
        prevalence: Any = None,
    ) -> pl.Expr:
        return averaged(
            RATIOS[name],
            y,
            yhat,
            average=average,
            pos_label=pos_label,
            labels=labels,
            zero_division=zero_division,
            weight=weight,
            prevalence=prevalence,
        ).alias(name)

    metric.__name__ = metric.__qualname__ = name
    metric.__doc__ = _doc_ratio(name, formula, undefined)
    return metric


precision = _ratio_metric("precision", "tp / (tp + fp)", "With no predicted positive")
recall = _ratio_metric("recall", "tp / (tp + fn)", "With no actual positive")
specificity = _ratio_metric("specificity", "tn / (tn + fp)", "With no actual negative")
npv = _ratio_metric(
    "npv", "negative predictive value, tn / (tn + fn)", "With no predicted negative"
)
fpr = _ratio_metric("fpr", "false positive rate, fp / (fp + tn)", "With no actual negative")
fnr = _ratio_metric("fnr", "false negative rate, fn / (fn + tp)", "With no actual positive")
jaccard = _ratio_metric(
    "jaccard", "tp / (tp + fp + fn)", "With no actual and no predicted positive"
)


def fbeta(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    beta: float,
    average: Average = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: ZeroDivision = 0.0,
    weight: IntoExpr | None = None,
    prevalence: Any = None,
) -> pl.Expr:
    """F-beta: (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp); β > 1 favours recall.

    With no actual and no predicted positive the score is ``zero_division``. Arguments as
    :func:`precision` (``prevalence``: F-beta at that target prevalence).

    See Also
    --------
    clf_fbeta : the SQL twin.
    sklearn.metrics.fbeta_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> df.select(fbeta("y", "yhat", beta=2.0)).item()
    0.5
    """
    return averaged(
        fbeta_ratio(_options.beta(beta)),
        y,
        yhat,
        average=average,
        pos_label=pos_label,
        labels=labels,
        zero_division=zero_division,
        weight=weight,
        prevalence=prevalence,
    ).alias("fbeta")


def f1(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    average: Average = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: ZeroDivision = 0.0,
    weight: IntoExpr | None = None,
    prevalence: Any = None,
) -> pl.Expr:
    """F1: 2·tp / (2·tp + fp + fn), the harmonic mean of precision and recall.

    With no actual and no predicted positive the score is ``zero_division``. Arguments as
    :func:`precision` (``prevalence``: F1 at that target prevalence).

    See Also
    --------
    clf_f1 : the SQL twin.
    sklearn.metrics.f1_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": ["a", "b", "b", "c"], "yhat": ["a", "b", "c", "c"]})
    >>> round(df.select(f1("y", "yhat", average="macro")).item(), 4)
    0.7778
    """
    return averaged(
        fbeta_ratio(1.0),
        y,
        yhat,
        average=average,
        pos_label=pos_label,
        labels=labels,
        zero_division=zero_division,
        weight=weight,
        prevalence=prevalence,
    ).alias("f1")


def accuracy(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    weight: IntoExpr | None = None,
    prevalence: Any = None,
    pos_label: Any = 1,
) -> pl.Expr:
    """Accuracy: the (weighted) share of rows where ``yhat == y``.

    Null when no row is left (every row has a null in ``y``, ``yhat`` or ``weight``).
    ``prevalence`` (with ``pos_label``, which nothing else reads): the accuracy at that
    target prevalence, π·recall + (1 − π)·specificity, as :func:`precision`'s.

    See Also
    --------
    clf_accuracy : the SQL twin.
    sklearn.metrics.accuracy_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> df.select(accuracy("y", "yhat")).item()
    0.75
    """
    target = _shift.option(prevalence)
    if target is not None and not isinstance(target, dict):
        return _shifted_accuracy(y, yhat, target, pos_label, weight).alias("accuracy")
    weight = _shifted(y, yhat, target, pos_label, weight)
    y, yhat, w = col(y, "y"), col(yhat, "yhat"), weight_expr(weight)
    valid = valid_rows(y, yhat, w)
    w = valid.cast(pl.Float64) if w is None else pl.when(valid).then(w).otherwise(0.0)
    hit = (y == yhat).fill_null(False)
    return guard(divide((w * hit).sum(), w.sum(), None), weight).alias("accuracy")


def _shifted_accuracy(
    y: IntoExpr, yhat: IntoExpr, target: Any, pos_label: Any, weight: IntoExpr | None
) -> pl.Expr:
    """π·(correct share among pos_label) + (1 − π)·(correct share among the rest): accuracy
    of the rows re-weighted to π, from four sums."""
    _options.class_value("pos_label", pos_label)
    yv, pv, w = col(y, "y"), col(yhat, "yhat"), weight_expr(weight)
    valid = valid_rows(yv, pv, w)
    w = valid.cast(pl.Float64) if w is None else pl.when(valid).then(w).otherwise(0.0)
    hit, is_pos = (yv == pv).fill_null(False), (yv == pos_label).fill_null(False)
    pos, neg = (w * is_pos).sum(), (w * ~is_pos).sum()
    pi, ok = _shift.target_value(target)
    value = pi * (w * (hit & is_pos)).sum() / pos + (1.0 - pi) * (w * (hit & ~is_pos)).sum() / neg
    return guard(pl.when(ok & (pos > 0) & (neg > 0)).then(value), weight)


def balanced_accuracy(
    y: IntoExpr, yhat: IntoExpr, *, adjusted: bool = False, weight: IntoExpr | None = None
) -> pl.Expr:
    """Balanced accuracy: the mean recall over the classes present in ``y``.

    With ``adjusted=True``, rescaled so chance is 0: (score − 1/k) / (1 − 1/k) for k classes.
    Classes that appear only in ``yhat`` are left out (scikit-learn). Null with no rows.

    See Also
    --------
    clf_balanced_accuracy : the SQL twin.
    sklearn.metrics.balanced_accuracy_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 0, 1], "yhat": [0, 0, 1, 1]})
    >>> round(df.select(balanced_accuracy("y", "yhat")).item(), 4)
    0.8333
    """
    _options.flag("adjusted", adjusted)
    score = balanced_from(ovr_counts(y, yhat, weight=weight), adjusted)
    return guard(score, weight).alias("balanced_accuracy")


def mcc(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    weight: IntoExpr | None = None,
    prevalence: Any = None,
    pos_label: Any = 1,
) -> pl.Expr:
    """Matthews correlation coefficient, binary and multiclass (Gorodkin's R_K).

    (c·s − Σ t_k·p_k) / √((s² − Σ p_k²)(s² − Σ t_k²)), with c correct rows, s rows, t_k and p_k
    the actual and predicted counts of class k. 0.0 when a factor of the denominator is 0
    (one class only), as scikit-learn (which has no ``labels`` for it either). ``prevalence``
    (with ``pos_label``, read by nothing else): MCC at that target, as :func:`precision`'s.

    See Also
    --------
    clf_mcc : the SQL twin.
    sklearn.metrics.matthews_corrcoef : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 0, 0]})
    >>> round(df.select(mcc("y", "yhat")).item(), 4)
    0.5774
    """
    weight = _shifted(y, yhat, prevalence, pos_label, weight)
    return guard(mcc_from(ovr_counts(y, yhat, weight=weight)), weight).alias("mcc")


def cohen_kappa(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    weights: Literal["linear", "quadratic"] | None = None,
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Cohen's kappa: 1 − Σ w_ij·O_ij / Σ w_ij·E_ij (agreement beyond chance).

    O is the confusion matrix, E = outer(actual totals, predicted totals) / s, and w_ij is
    1 − δ_ij (default), |i − j| (``"linear"``) or (i − j)² (``"quadratic"``) for classes at
    positions i, j of the class order. Null when Σ w·E is 0 (e.g. one class only).

    See Also
    --------
    clf_cohen_kappa : the SQL twin.
    sklearn.metrics.cohen_kappa_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 0, 0]})
    >>> df.select(cohen_kappa("y", "yhat")).item()
    0.5
    """
    _options.choice(
        "weights",
        weights,
        (None, "linear", "quadratic"),
        "weights sets how far apart two classes are in the class order",
    )
    labels = _options.labels(labels)
    c = ovr_counts(y, yhat, labels=labels, weight=weight, restrict=True)
    # disagreements as shares of the total s (kappa does not depend on the scale, and huge
    # weights cannot overflow the products)
    s = c.support.sum()
    t, p = share(c.support, s), share(c.pred, s)
    if weights is None:
        observed = 1.0 - c.tp.sum() / s
        expected = 1.0 - (t * p).sum()
    else:
        yv, pv, w = col(y, "y"), col(yhat, "yhat"), weight_expr(weight)
        valid = valid_rows(yv, pv, w)
        if labels is not None:
            valid = valid & yv.is_in(pl.lit(list(labels))) & pv.is_in(pl.lit(list(labels)))
        wv = pl.lit(1.0) if w is None else w
        gap = (class_index(yv, c.classes, labels) - class_index(pv, c.classes, labels)).cast(
            pl.Float64
        )
        if weights == "linear":
            observed = (wv * gap.abs()).filter(valid).sum() / s
            ct, cp = t.cum_sum(), p.cum_sum()
            expected = (ct * (1.0 - cp) + cp * (1.0 - ct)).sum()
        else:
            observed = (wv * gap * gap).filter(valid).sum() / s
            k = pl.int_range(t.len(), dtype=pl.Int64).cast(pl.Float64)
            expected = (t * k * k).sum() + (p * k * k).sum() - 2 * (t * k).sum() * (p * k).sum()
    return guard(kappa_from(observed, expected), weight).alias("cohen_kappa")


def prevalence(y: IntoExpr, *, pos_label: Any = 1, weight: IntoExpr | None = None) -> pl.Expr:
    """Prevalence: the (weighted) share of rows whose actual class is ``pos_label``.

    Null when no row is left.

    See Also
    --------
    clf_prevalence : the SQL twin.

    Examples
    --------
    >>> pl.DataFrame({"y": [1, 0, 0, 0]}).select(prevalence("y")).item()
    0.25
    """
    _options.class_value("pos_label", pos_label)
    yv, w = col(y, "y"), weight_expr(weight)
    valid = valid_rows(yv, w)
    w = valid.cast(pl.Float64) if w is None else pl.when(valid).then(w).otherwise(0.0)
    share = divide((w * (yv == pos_label).fill_null(False)).sum(), w.sum(), None)
    return guard(share, weight).alias("prevalence")
