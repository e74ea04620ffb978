"""The count layer: the only code that reads rows for label metrics.

Two forms of the same counts:

* expressions (:class:`OvR`) that aggregate, inside any ``select``/``agg``/``over`` context, to
  one value per class: true positives, predictions and support, aligned with the class order;
* frame functions (:func:`confusion_matrix`, :func:`counts`) that group by ``(by, y, yhat)`` once
  and derive everything else from that small frame.

Class order is the sorted union of the values of ``y`` and ``yhat`` (an Enum sorts in its
category order), or ``labels`` as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import polars as pl

from clfeval import _options
from clfeval._frames import frame_input
from clfeval._models import Models, comparable
from clfeval._validate import Frame, Prepared, check_labels_present, prepare
from clfeval.exceptions import InputError

IntoExpr = str | pl.Expr
N = "__clf_n"  # the weight column of the aggregated (by, y, yhat) frame
YHAT_COPY = "__clf_yhat_copy"  # yhat when it is the same column as y
COUNTS_COLUMNS = ("label", "tp", "fp", "fn", "tn", "support")


def col(c: IntoExpr, role: str = "column") -> pl.Expr:
    """A column argument of an expression: a name or a Polars expression."""
    if isinstance(c, pl.Expr):
        return c
    if isinstance(c, str) and c:
        return pl.col(c)
    raise InputError(
        f"{role} must be a column name or a Polars expression, got {c!r}",
        role=role,
        rule="column_type",
        hint="pass the column's name, e.g. 'y', or pl.col('y')"
        + (
            "; per-class scores go to the multiclass metrics (auroc, log_loss...)"
            if isinstance(c, dict | list | tuple)
            else ""
        ),
    )


def divide(num: pl.Expr, den: pl.Expr, zero_division: float | None) -> pl.Expr:
    """``num / den``, or ``zero_division`` (null when None) where ``den`` is 0: the one guard."""
    fallback = pl.lit(None, pl.Float64) if zero_division is None else pl.lit(float(zero_division))
    return pl.when(den == 0).then(fallback).otherwise(num / den)


class PolarsAlgebra:
    """The registry's formulas (``clfeval._metrics``) rendered as Polars expressions."""

    div = staticmethod(divide)

    @staticmethod
    def share(part: pl.Expr, total: pl.Expr) -> pl.Expr:
        return share(part, total)

    @staticmethod
    def mean_defined(a: pl.Expr, b: pl.Expr) -> pl.Expr:
        return pl.mean_horizontal(a, b)

    @staticmethod
    def zero_when(den: pl.Expr, value: pl.Expr) -> pl.Expr:
        # <= 0: a product of shares that rounding (re-weighted counts) took just below 0
        return pl.when(den <= 0).then(0.0).otherwise(value)

    @staticmethod
    def sqrt(x: pl.Expr) -> pl.Expr:
        return x.sqrt()


POLARS = PolarsAlgebra()


def share(part: pl.Expr, total: pl.Expr) -> pl.Expr:
    """``part / total`` divided exactly, also when ``total`` is one aggregated value.

    Polars 2.1 divides a column by a broadcast scalar through its reciprocal (98 / 98 gives
    0.9999999999999999); "+ 0.0 * part" lays the total out like the column, which divides
    exactly, as NumPy and scikit-learn do.
    """
    return part / (total + 0.0 * part)


def labels_series(labels: Sequence[Any], dtype: pl.DataType) -> pl.Series:
    """The classes of ``labels=`` as a Series of the labels' dtype (True and False are 1 and 0
    of a numeric column, as in Python and scikit-learn)."""
    numeric = dtype.is_numeric()
    values = [int(v) if numeric and isinstance(v, bool) else v for v in labels]
    return pl.Series(values).cast(dtype)


def weight_expr(weight: IntoExpr | None) -> pl.Expr | None:
    return None if weight is None else col(weight, "weight").cast(pl.Float64)


def guard(
    value: pl.Expr, weight: IntoExpr | None = None, probabilities: Sequence[pl.Expr] = ()
) -> pl.Expr:
    """``value``, or null where the group holds a row that makes the metric meaningless.

    Expressions cannot raise on data (they run inside other people's queries): a negative,
    NaN or infinite weight, or a probability outside [0, 1], makes the result null, never a
    number. A null weight or a NaN probability only leaves its row out.
    """
    bad = []
    if weight is not None:
        w = col(weight, "weight").cast(pl.Float64)
        bad.append(~w.is_finite() | (w < 0))
    for p in probabilities:
        bad.append(((p < 0) | (p > 1)) & ~p.is_nan())
    if not bad:
        return value
    return pl.when(pl.any_horizontal(bad).any()).then(None).otherwise(value)


def sums_by_key(key: pl.Expr, value: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Distinct values of ``key`` (sorted) and the sum of ``value`` for each, as expressions.

    A sort, a cumulative sum and the last row of each run of equal keys: no Python loop and it
    works in any aggregation context. ``key`` must have no nulls. Each input is referenced once,
    because Polars re-evaluates a sub-expression each time it appears in a tree.
    """
    sorted_key = key.sort()
    last = sorted_key.is_last_distinct()
    running = value.sort_by(key).cum_sum().filter(last)
    return sorted_key.filter(last), pl.lit(0.0).append(running).diff().slice(1)


@dataclass(frozen=True)
class OvR:
    """One-vs-rest sums per class as aggregating expressions (vectors aligned with classes).

    ``tp``, ``pred`` (predicted as the class) and ``support`` (actually the class) have one
    value per class; ``total`` is the (weighted) number of rows evaluated.
    """

    tp: pl.Expr
    pred: pl.Expr
    support: pl.Expr
    total: pl.Expr
    classes: pl.Expr | None  # the class values when they are computed from the data

    @property
    def fp(self) -> pl.Expr:
        return self.pred - self.tp

    @property
    def fn(self) -> pl.Expr:
        return self.support - self.tp

    @property
    def tn(self) -> pl.Expr:
        return self.total - self.pred - self.support + self.tp


def valid_rows(*exprs: pl.Expr | None) -> pl.Expr:
    """Rows the aggregate semantics evaluate: no null in any column read."""
    return pl.all_horizontal([e.is_not_null() for e in exprs if e is not None])


def _w(valid: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    return valid.cast(pl.Float64) if w is None else pl.when(valid).then(w).otherwise(0.0)


def binary_counts(
    y: IntoExpr, yhat: IntoExpr, pos_label: Any, weight: IntoExpr | None = None
) -> OvR:
    """tp, predicted positives, actual positives and total for one positive class (scalars)."""
    y, yhat, w = col(y, "y"), col(yhat, "yhat"), weight_expr(weight)
    w = _w(valid_rows(y, yhat, w), w)
    is_pos, says_pos = (y == pos_label).fill_null(False), (yhat == pos_label).fill_null(False)
    return OvR(
        tp=(w * (is_pos & says_pos)).sum(),
        pred=(w * says_pos).sum(),
        support=(w * is_pos).sum(),
        total=w.sum(),
        classes=None,
    )


def class_order(y: pl.Expr, yhat: pl.Expr | None = None) -> pl.Expr:
    """The sorted union of the values of ``y`` and ``yhat`` (nulls left out)."""
    both = y if yhat is None else y.append(yhat)
    return both.drop_nulls().unique().sort()


def ovr_counts(
    y: IntoExpr,
    yhat: IntoExpr,
    *,
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
    restrict: bool = False,
) -> OvR:
    """Per-class one-vs-rest sums, in class order, as aggregating expressions.

    With ``labels`` the vectors follow that order; rows whose classes are not listed still count
    in ``total`` (scikit-learn's ``multilabel_confusion_matrix``), unless ``restrict`` keeps only
    rows whose ``y`` and ``yhat`` are both listed (a confusion matrix restricted to ``labels``).
    """
    y, yhat, w = col(y, "y"), col(yhat, "yhat"), weight_expr(weight)
    valid = valid_rows(y, yhat, w)
    if labels is not None and restrict:
        valid = valid & y.is_in(pl.lit(list(labels))) & yhat.is_in(pl.lit(list(labels)))
    if labels is not None:
        w = _w(valid, w)
        hit = [(y == c).fill_null(False) for c in labels]
        said = [(yhat == c).fill_null(False) for c in labels]

        def vector(parts: list[pl.Expr]) -> pl.Expr:
            return pl.concat_list([(w * p).sum() for p in parts]).explode()

        return OvR(
            tp=vector([h & s for h, s in zip(hit, said)]),
            pred=vector(said),
            support=vector(hit),
            total=w.sum(),
            classes=None,
        )
    yv, pv = y.filter(valid), yhat.filter(valid)
    classes = class_order(yv, pv)
    correct = yv == pv
    wv = None if w is None else w.filter(valid)

    def per_class(key: pl.Expr, value: pl.Expr | None) -> pl.Expr:
        # where each class starts in the sorted keys, then the end: run lengths (or weight
        # sums through a cumulative sum) in class order, classes absent from key included
        bounds = key.sort().search_sorted(classes, side="left").append(key.len())
        if value is None:
            return bounds.diff().slice(1).cast(pl.Float64)
        running = pl.lit(0.0).append(value.sort_by(key).cum_sum())
        return running.gather(bounds).diff().slice(1)

    return OvR(
        tp=per_class(yv.filter(correct), None if wv is None else wv.filter(correct)),
        pred=per_class(pv, wv),
        support=per_class(yv, wv),
        total=valid.sum().cast(pl.Float64) if wv is None else wv.sum(),
        classes=classes,
    )


def class_index(value: pl.Expr, classes: pl.Expr | None, labels: Sequence[Any] | None) -> pl.Expr:
    """The position of each row's class in the class order (for weighted kappa)."""
    if labels is not None:
        return value.replace_strict(list(labels), list(range(len(labels))), default=None)
    assert classes is not None
    return classes.search_sorted(value).cast(pl.Int64)


# --- frame functions --------------------------------------------------------------------


def pair_counts(prep: Prepared, y: str, yhat: str, weight: str | None) -> pl.LazyFrame:
    """``(by..., y, yhat, __clf_n)``: the one group-by every label frame function starts from."""
    n = pl.len().cast(pl.Int64) if weight is None else pl.col(weight).cast(pl.Float64).sum()
    return prep.frame.group_by([*prep.by, y, yhat]).agg(n.alias(N))


def _labels_frame(
    by: list[str], pairs: pl.LazyFrame, y: str, yhat: str, labels: Sequence[Any] | None
) -> pl.LazyFrame:
    """``(by..., __clf_class, __clf_pos)``: each group's classes and their order."""
    dtype = pairs.collect_schema()[y]
    if labels is not None:
        listed = pl.LazyFrame(
            {"__clf_class": labels_series(labels, dtype), "__clf_pos": range(len(labels))}
        )
        if not by:
            return listed
        return pairs.select(by).unique().join(listed, how="cross")
    seen = pl.concat([pairs.select(*by, pl.col(c).alias("__clf_class")) for c in (y, yhat)])
    seen = seen.unique()
    pos = pl.col("__clf_class").rank("dense").cast(pl.Int64) - 1
    return seen.with_columns((pos.over(by) if by else pos).alias("__clf_pos"))


def _sorted(lf: pl.LazyFrame, by: list[str], *cols: str) -> pl.LazyFrame:
    return lf.sort([*by, *cols], nulls_last=True, maintain_order=True)


def label_pairs(
    data: Frame,
    y: str,
    yhat: str,
    *,
    labels: Sequence[Any] | None,
    by: Any,
    weight: str | None,
    missing: Any,
    outputs: Sequence[str],
) -> tuple[Prepared, pl.LazyFrame, str]:
    """Validate, then group by ``(by, y, yhat)`` once: the start of every label frame function.

    Eager input collects that small frame here, checks the class set on it, and the rest of
    the plan runs on it; lazy input stays lazy. ``outputs`` are the result's columns, which a
    group column may not be named like.
    """
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        classes=False,
        outputs=outputs,
    )
    return pairs_of(prep, y, yhat, weight, labels)


def pairs_of(
    prep: Prepared, y: str, yhat: str, weight: str | None, labels: Sequence[Any] | None
) -> tuple[Prepared, pl.LazyFrame, str]:
    """The ``(by, y, yhat, n)`` frame of prepared data (collected and checked when eager),
    and the name of its ``yhat`` column (a copy when ``yhat`` is ``y`` itself)."""
    if yhat == y:
        prep = replace(prep, frame=prep.frame.with_columns(pl.col(y).alias(YHAT_COPY)))
        yhat = YHAT_COPY
    pairs = pair_counts(prep, y, yhat, weight)
    if not prep.eager:
        return prep, pairs, yhat
    small = pairs.collect()
    classes = pl.concat([small[y], small[yhat]]).unique().sort().to_list()
    check_labels_present(classes, labels, y)
    return replace(prep, classes=classes), small.lazy(), yhat


@frame_input("confusion_matrix")
@comparable("yhat")
def confusion_matrix(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    labels: Sequence[Any] | None = None,
    normalize: Literal["true", "pred", "all"] | None = None,
    wide: bool = False,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
) -> Frame:
    """Confusion matrix in long form: ``actual, predicted, count`` for every pair of classes.

    ``count`` is the number (or total weight) of rows with that actual and predicted class,
    zeros included. ``normalize`` divides by the row total (``"true"``), the column total
    (``"pred"``) or the grand total (``"all"``) into a ``value`` column; a zero total gives 0, as
    scikit-learn. ``wide=True`` pivots to ``actual`` then one column per predicted class.

    ``models=`` (instead of ``yhat``) compares the yhat columns of a wide frame, as
    a list or ``{name: column}``: one result per model, with a ``model`` column first.

    See Also
    --------
    clf_confusion : the SQL twin.
    sklearn.metrics.confusion_matrix : the same numbers as a dense array.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> confusion_matrix(df, "y", "yhat", labels=[1, 0])["count"].to_list()
    [2, 1, 0, 1]
    """
    labels = _options.labels(labels)
    _options.choice(
        "normalize",
        normalize,
        (None, "true", "pred", "all"),
        "'true' divides by the actual class's total, 'pred' by the predicted class's total, "
        "'all' by the grand total",
    )
    _options.flag("wide", wide)
    outputs = ["actual", "predicted", "count", "value"]  # count is computed either way
    if wide and labels is not None:
        outputs += [str(v) for v in labels]
    prep, pairs, yhat = label_pairs(
        data, y, yhat, labels=labels, by=by, weight=weight, missing=missing, outputs=outputs
    )
    classes = _labels_frame(prep.by, pairs, y, yhat, labels)
    b = prep.by
    grid = classes.rename({"__clf_class": "actual", "__clf_pos": "__clf_a"}).join(
        classes.rename({"__clf_class": "predicted", "__clf_pos": "__clf_p"}),
        on=b or None,
        how="inner" if b else "cross",
        nulls_equal=True,
    )
    joined = grid.join(
        pairs.rename({y: "actual", yhat: "predicted"}),
        on=[*b, "actual", "predicted"],
        how="left",
        nulls_equal=True,
    )
    zero = pl.lit(0, pl.Int64) if weight is None else pl.lit(0.0)
    out = joined.with_columns(pl.col(N).fill_null(zero).alias("count"))
    if normalize is not None:
        over = {"true": [*b, "actual"], "pred": [*b, "predicted"], "all": b}[normalize]
        total = pl.col("count").sum().over(over) if over else pl.col("count").sum()
        value = pl.when(total == 0).then(0.0).otherwise(pl.col("count") / total)
        out = out.with_columns(value.alias("value"))
    out = _sorted(out, b, "__clf_a", "__clf_p")
    measure = "count" if normalize is None else "value"
    out = out.select(*b, "actual", "predicted", measure)
    if not wide:
        return prep.finish(out)
    return prep.finish(_wide(out, b, measure, labels, prep.eager))


def label_text(value: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """Class values as text, spelled as Python (and so scikit-learn) prints them."""
    if dtype == pl.Boolean:
        return pl.when(value).then(pl.lit("True")).otherwise(pl.lit("False"))
    return value.cast(pl.String)


def _wide(
    long: pl.LazyFrame, by: list[str], measure: str, labels: Sequence[Any] | None, eager: bool
) -> pl.LazyFrame:
    """Pivot a long confusion matrix: ``actual`` then one column per predicted class.

    The columns are the classes, so a LazyFrame stays lazy only when ``labels`` names them.
    """
    dtype = long.collect_schema()["predicted"]
    if labels is None:
        if not eager:
            raise InputError(
                "wide=True on a LazyFrame needs labels=: its columns are the classes, which "
                "are not known before the data is read",
                role="labels",
                rule="wide_lazy",
                hint="pass labels=[...], or collect the long form and pivot it",
            )
        labels = (
            long.select(pl.col("predicted").unique(maintain_order=True))
            .collect()["predicted"]
            .to_list()
        )
    names = (
        pl.DataFrame({"v": labels_series(labels, dtype)})
        .select(label_text(pl.col("v"), dtype).alias("v"))["v"]
        .to_list()
    )
    taken = [n for n in names if n in (*by, "actual")]
    if taken:
        raise InputError(
            f"wide=True would name a column {taken[0]!r} twice: it is a class and a group or "
            "the 'actual' column",
            column=taken[0],
            role="by",
            rule="by_name",
            hint="rename the group column, or use the long form (wide=False)",
        )
    cells = [
        pl.col(measure).filter(pl.col("predicted") == value).sum().alias(name)
        for value, name in zip(labels, names)
    ]
    # keys then cells, in this order already: no select by name, which would read a class
    # named '*' or '^...$' as a wildcard or a pattern
    return long.group_by([*by, "actual"], maintain_order=True).agg(cells)


@frame_input("counts")
@comparable("yhat")
def counts(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    labels: Sequence[Any] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
) -> Frame:
    """One-vs-rest counts per class: ``label, tp, fp, fn, tn, support``.

    For class c: tp = actual c and predicted c, fp = predicted c but not actual c, fn = actual c
    but predicted otherwise, tn = the rest, support = tp + fn. Counts are Int64 (Float64 with
    ``weight``); a listed class absent from the data has support 0.

    ``models=`` (instead of ``yhat``) compares the yhat columns of a wide frame, as
    a list or ``{name: column}``: one result per model, with a ``model`` column first.

    See Also
    --------
    clf_counts : the SQL twin.
    sklearn.metrics.multilabel_confusion_matrix : the same counts as 2x2 arrays.

    Examples
    --------
    >>> df = pl.DataFrame({"y": ["a", "b", "b"], "yhat": ["a", "a", "b"]})
    >>> counts(df, "y", "yhat").row(0)
    ('a', 1, 1, 0, 1, 1)
    """
    labels = _options.labels(labels)
    prep, pairs, yhat = label_pairs(
        data, y, yhat, labels=labels, by=by, weight=weight, missing=missing, outputs=COUNTS_COLUMNS
    )
    return prep.finish(counts_from_pairs(pairs, prep.by, y, yhat, labels))


def counts_from_pairs(
    pairs: pl.LazyFrame, by: list[str], y: str, yhat: str, labels: Sequence[Any] | None
) -> pl.LazyFrame:
    """One-vs-rest counts per group and class from the ``(by, y, yhat, n)`` frame.

    Plain group-bys and joins on the small frame: support by ``y``, predictions by ``yhat``,
    true positives where they agree; rows of unlisted classes still count in ``tn``.
    """
    n = pl.col(N)
    key = [*by, "__clf_class"]

    def total_by(col_name: str, frame: pl.LazyFrame, alias: str) -> pl.LazyFrame:
        return (
            frame.group_by([*by, col_name])
            .agg(n.sum().alias(alias))
            .rename({col_name: "__clf_class"})
        )

    classes = _labels_frame(by, pairs, y, yhat, labels)
    total = (
        pairs.group_by(by).agg(n.sum().alias("__total"))
        if by
        else pairs.select(n.sum().alias("__total"))
    )
    out = (
        classes.join(total_by(y, pairs, "support"), on=key, how="left", nulls_equal=True)
        .join(total_by(yhat, pairs, "__pred"), on=key, how="left", nulls_equal=True)
        .join(
            total_by(y, pairs.filter(pl.col(y) == pl.col(yhat)), "tp"),
            on=key,
            how="left",
            nulls_equal=True,
        )
    )
    out = (
        out.join(total, on=by, how="left", nulls_equal=True) if by else out.join(total, how="cross")
    )
    zero = pl.lit(0, pairs.collect_schema()[N])
    out = out.with_columns(pl.col("support", "__pred", "tp", "__total").fill_null(zero))
    out = out.with_columns(
        (pl.col("__pred") - pl.col("tp")).alias("fp"),
        (pl.col("support") - pl.col("tp")).alias("fn"),
    ).with_columns((pl.col("__total") - pl.col("tp") - pl.col("fp") - pl.col("fn")).alias("tn"))
    out = _sorted(out, by, "__clf_pos")
    return out.select(*by, pl.col("__clf_class").alias("label"), "tp", "fp", "fn", "tn", "support")


def ovr_from_counts(pos_label: Any = None, *, binary: bool = False) -> OvR:
    """The :class:`OvR` view of a counts frame's columns (one class, or every class)."""
    if binary:

        def pick(name: str) -> pl.Expr:
            return pl.col(name).filter(pl.col("label") == pos_label).sum().cast(pl.Float64)

        # every row of a group holds the group's total; a group without pos_label has no row
        # of its own, and all its rows are true negatives
        total = pl.sum_horizontal("tp", "fp", "fn", "tn").first().cast(pl.Float64)
        tp, fp, fn = pick("tp"), pick("fp"), pick("fn")
        return OvR(tp, tp + fp, tp + fn, total, None)
    tp, fp, fn, tn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "fn", "tn"))
    return OvR(tp, tp + fp, tp + fn, tp + fp + fn + tn, None)


PROBE_ROWS = 100_000  # rows the plan probes read (a wrong guess only costs speed)


def spread_rows(m: int = PROBE_ROWS) -> pl.Expr:
    """Row numbers of a probe: about ``m`` rows spread over the frame by multiplicative
    hashing (a stride would alias keys that repeat with a period)."""
    take = pl.min_horizontal(pl.len(), pl.lit(m, pl.UInt64))
    return pl.int_range(take, dtype=pl.UInt64) * 2_654_435_761 % pl.len()


def group_eval(frame: pl.LazyFrame, by: list[str], exprs: list[pl.Expr]) -> pl.LazyFrame:
    if not by:
        return frame.select(exprs)
    return frame.group_by(by).agg(exprs)


def join_by(left: pl.LazyFrame, right: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    if not by:
        return pl.concat([left, right], how="horizontal")
    return left.join(right, on=by, how="left", nulls_equal=True)
