"""Prevalence shift: metrics at a target class distribution, from the rows re-weighted.

Recall and specificity are shares within one actual class, so they do not depend on how
many rows each class has; precision, NPV, accuracy, F-beta, MCC (and average precision, log
loss, Brier) mix the classes and do. A metric "at prevalence π" is the ordinary metric of
the rows re-weighted so that the positive class holds the share π of the total weight:

    weight × π / π̂ for a row of class ``pos_label``, weight × (1 − π) / (1 − π̂) otherwise,

π̂ being the measured (weighted) share of ``pos_label`` in the group. A target class
distribution ``{class: share}`` weighs a row of class c by share_c / π̂_c (one factor per
row of the confusion matrix). The total weight is unchanged, so counts keep their scale.
The registry's formulas then run on the re-weighted counts: no formula of its own.

Undefined: a group without a row of a class whose target share is positive (π̂ = 0) cannot
be re-weighted; its shifted values are null. Inside the plans that factor is NaN: expressions
turn it into null through :func:`clfeval._counts.guard`, frame functions flag the group
(``__clf_undefined``) and null its values at the end (:func:`finish`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from clfeval._counts import IntoExpr, col, valid_rows, weight_expr
from clfeval._metrics import Counts
from clfeval._validate import Prepared, check_prevalence

__all__ = ["MEASURED", "TARGET", "factor", "measured", "reweighted", "target_value"]

MEASURED, TARGET = "prevalence", "target_prevalence"  # the columns shown beside the metrics
NAN = float("nan")
Target = float | str | pl.Expr | Mapping[Any, float]


def _over(expr: pl.Expr, by: Sequence[str]) -> pl.Expr:
    return expr.over(list(by)) if by else expr


def target_value(target: Target, valid: pl.Expr | None = None) -> tuple[pl.Expr, pl.Expr]:
    """(π, ok) for a binary target: the number, or a column's value in the group, which must
    be constant and in (0, 1) (``ok`` is False otherwise)."""
    if isinstance(target, float | int):
        return pl.lit(float(target)), pl.lit(True)
    column = col(target, "prevalence").cast(pl.Float64)
    if valid is not None:
        column = column.filter(valid)
    first, low, high = column.first(), column.min(), column.max()
    ok = (low == high) & (low > 0) & (high < 1) & column.is_finite().all()
    return first, ok.fill_null(False)


def factor(y: pl.Expr, w: pl.Expr, valid: pl.Expr, target: Target, pos_label: Any) -> pl.Expr:
    """The re-weighting factor of each row, from aggregates of the current context (a
    ``group_by().agg()``, ``over`` or ``select``): NaN where the group cannot be re-weighted.

    ``w`` is the row weight (1.0 when none), ``valid`` the rows the metric evaluates."""
    wv = pl.when(valid).then(w).otherwise(0.0)
    if isinstance(target, Mapping):
        total = wv.sum()
        branch: Any = pl
        ok = pl.lit(True)
        for label, share in target.items():
            is_c = (y == label).fill_null(False)
            seen = (wv * is_c).sum()
            if share > 0:
                ok = ok & (seen > 0)
            branch = branch.when(is_c).then(share / (seen / total))
        return pl.when(ok).then(branch.otherwise(NAN)).otherwise(NAN)
    pi, ok = target_value(target, valid)
    is_pos = (y == pos_label).fill_null(False)
    total, pos = wv.sum(), (wv * is_pos).sum()
    neg = total - pos
    ok = ok & (pos > 0) & (neg > 0)
    up = pl.when(is_pos).then(pi / (pos / total)).otherwise((1.0 - pi) / (neg / total))
    return pl.when(ok).then(up).otherwise(NAN)


def reweighted(
    y: IntoExpr,
    target: Target,
    *,
    pos_label: Any,
    weight: IntoExpr | None,
    also: Sequence[IntoExpr] = (),
    by: Sequence[str] = (),
) -> pl.Expr:
    """Row weights re-weighted to ``target`` (aggregating over ``by``, or the context).

    ``also`` are the other columns the metric reads: a row with a null in one of them is
    left out of the measured shares too."""
    yv, w = col(y, "y"), weight_expr(weight)
    others = [col(a) for a in also]
    if isinstance(target, str | pl.Expr):
        others.append(col(target, "prevalence"))
    valid = valid_rows(yv, *others, w)
    base = pl.lit(1.0) if w is None else w
    shifted = pl.when(valid).then(base * factor(yv, base, valid, target, pos_label))
    return _over(shifted, by)


def measured(
    y: IntoExpr, target: Target, *, pos_label: Any, weight: IntoExpr | None
) -> list[pl.Expr]:
    """The ``prevalence`` (measured share of ``pos_label``) and ``target_prevalence``
    columns of a binary target, as aggregations (null when undefined)."""
    yv, w = col(y, "y"), weight_expr(weight)
    valid = valid_rows(yv, w)
    wv = pl.when(valid).then(pl.lit(1.0) if w is None else w).otherwise(0.0)
    total = wv.sum()
    share = pl.when(total > 0).then((wv * (yv == pos_label).fill_null(False)).sum() / total)
    pi, ok = target_value(target, valid)  # type: ignore[arg-type]
    return [
        share.cast(pl.Float64).alias(MEASURED),
        pl.when(ok).then(pi).cast(pl.Float64).alias(TARGET),
    ]


def option(value: Any) -> Target | None:
    """``prevalence=`` of an expression: as :func:`clfeval._options.prevalence`, or a Polars
    expression holding π per row (constant within the group)."""
    from clfeval import _options

    if isinstance(value, pl.Expr):
        return value
    return _options.prevalence(value)


def outputs(target: Any, costs: Any = None) -> list[str]:
    """The columns a target prevalence (and costs) add, which no group column may be named."""
    shown = [MEASURED, TARGET] if target is not None else []
    return [*shown, *(["expected_cost", "total_cost"] if costs is not None else [])]


W = "__clf_pw"  # the re-weighted weight column a frame function evaluates
UNDEFINED = "__clf_undefined"  # a group that cannot be re-weighted


def shift_frame(
    prep: Prepared, y: str, target: Target, pos_label: Any, weight: str | None
) -> tuple[Prepared, str, pl.LazyFrame]:
    """Prepared rows with the weight column ``__clf_pw`` re-weighted per group, its name,
    and the per-group context: ``__clf_undefined`` (the group cannot be re-weighted: its
    factor is NaN) and, for a binary target, ``prevalence`` and ``target_prevalence``."""
    frame = prep.frame.with_columns(
        reweighted(y, target, pos_label=pos_label, weight=weight, by=prep.by).alias(W)
    )
    exprs = [pl.col(W).is_nan().any().alias(UNDEFINED)]
    if not isinstance(target, Mapping):
        exprs += measured(y, target, pos_label=pos_label, weight=weight)
    context = frame.group_by(prep.by).agg(exprs) if prep.by else frame.select(exprs)
    return replace(prep, frame=frame), W, context


def finish(
    out: pl.LazyFrame,
    context: pl.LazyFrame,
    by: Sequence[str],
    *,
    keep: Sequence[str] = (),
    show: bool = True,
) -> pl.LazyFrame:
    """``out`` of a shifted evaluation: the float values (not ``by``, ``keep``) of a group that
    cannot be re-weighted null, and with ``show`` the measured and target prevalence after
    ``by`` and ``keep`` (binary targets)."""
    by = list(by)
    names = list(context.collect_schema())
    if by:
        out = out.join(context, on=by, how="left", nulls_equal=True, maintain_order="left")
    else:
        out = out.join(context, how="cross", maintain_order="left")
    schema = out.collect_schema()
    values = [c for c, t in schema.items() if t.is_float() and c not in (*by, *keep, *names)]
    undefined = pl.col(UNDEFINED).fill_null(True)
    out = no_nan(
        out.with_columns(
            pl.when(undefined).then(None).otherwise(pl.col(c)).alias(c) for c in values
        ),
        by,
        keep=[*keep, *names],
    )
    first = [*by, *[k for k in keep if k in schema]]
    shown = [c for c in (MEASURED, TARGET) if show and c in names]
    hidden = [UNDEFINED, *[c for c in (MEASURED, TARGET) if c in names and c not in shown]]
    return out.select(*first, *shown, pl.exclude(*first, *shown, *hidden))


def no_nan(frame: pl.LazyFrame, by: Sequence[str], keep: Sequence[str] = ()) -> pl.LazyFrame:
    """The float values (not ``by``, ``keep``) of a group holding a NaN, all null: the NaN
    of a group that cannot be re-weighted reaches some of its rows only."""
    schema = frame.collect_schema()
    floats = [c for c, t in schema.items() if t.is_float() and c not in (*by, *keep)]
    if not floats:
        return frame
    flag = _over(pl.any_horizontal([pl.col(c).is_nan() for c in floats]).any(), by)
    return frame.with_columns(
        pl.when(flag).then(None).otherwise(pl.col(c)).alias(c) for c in floats
    )


# --- threshold counts at a target prevalence --------------------------------------------------

PI = "__clf_pi"  # the target prevalence of each row of a threshold-counts table


def with_target(
    table: pl.LazyFrame,
    prep: Prepared,
    y: str,
    keys: Sequence[str],
    target: Target | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """A threshold-counts table with the column ``__clf_pi``: the number, the group's value
    of a column (null when it does not qualify), or for one-vs-rest rows (``label`` in
    ``keys``) the share of each label in ``{class: share}``. No target: as is."""
    if target is None:
        return table
    if isinstance(target, str) or (isinstance(target, Mapping) and "label" in keys):
        check_prevalence(prep, y, target, complete=False)
    if "label" in keys:
        if not isinstance(target, Mapping):
            from clfeval._options import _fail

            raise _fail(
                "prevalence",
                f"prevalence={target!r} names no class; per-class scores need {{class: share}}",
                "pass the target share of every class, e.g. prevalence={'a': 0.2, 'b': 0.8}",
            )
        dtype = table.collect_schema()["label"]
        shares = pl.LazyFrame(
            {"label": pl.Series(list(target)).cast(dtype), PI: list(target.values())}
        )
        return table.join(shares, on="label", how="left", maintain_order="left")
    if isinstance(target, Mapping):
        if pos_label not in target:
            from clfeval._options import _fail

            raise _fail(
                "prevalence",
                f"prevalence={dict(target)!r} gives pos_label={pos_label!r} no share",
                "give the share of pos_label, or pass it as a number: prevalence=0.1",
            )
        target = target[pos_label]
    if isinstance(target, float | int):
        return table.with_columns(pl.lit(float(target)).alias(PI))
    pi, ok = target_value(target)
    by = list(prep.by)
    agg = [pl.when(ok).then(pi).alias(PI)]
    values = prep.frame.group_by(by).agg(agg) if by else prep.frame.select(agg)
    if by:
        return table.join(values, on=by, how="left", nulls_equal=True, maintain_order="left")
    return table.join(values, how="cross", maintain_order="left")


@dataclass(frozen=True)
class Shifted(Counts):
    """Re-weighted counts that keep fp, fn and tn as products of the measured ones, so a
    count that was 0 stays exactly 0 (a difference of re-weighted sums would not)."""

    fp_: Any = None
    fn_: Any = None
    tn_: Any = None

    @property
    def fp(self) -> Any:
        return self.fp_

    @property
    def fn(self) -> Any:
        return self.fn_

    @property
    def tn(self) -> Any:
        return self.tn_


def shifted_counts(tp: pl.Expr, fp: pl.Expr, n_pos: pl.Expr, n_neg: pl.Expr) -> Shifted:
    """The counts of the rows re-weighted to ``__clf_pi``: each positive weighs π·n/P and
    each negative (1 − π)·n/N; support π·n, total n (null without positives or negatives)."""
    pi, n = pl.col(PI), n_pos + n_neg
    both = (n_pos > 0) & (n_neg > 0)
    a = pl.when(both).then(pi * n / n_pos)
    b = pl.when(both).then((1.0 - pi) * n / n_neg)
    tp2, fp2 = tp * a, fp * b
    return Shifted(
        tp=tp2,
        pred=tp2 + fp2,
        support=pl.when(both).then(pi * n),
        total=n,
        fp_=fp2,
        fn_=(n_pos - tp) * a,
        tn_=(n_neg - fp) * b,
    )


# --- the same shift on small frames and on binary counts ---------------------------------------


def shift_pairs(
    pairs: pl.LazyFrame, prep: Prepared, y: str, target: Target, pos_label: Any
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """A grouped count frame ``(by..., y, ..., __clf_n)`` with ``__clf_n`` re-weighted per group
    (the rows of each class summed first: the same numbers as :func:`shift_frame`, without a
    window over the rows), and the per-group context as :func:`shift_frame` gives it."""
    from clfeval._counts import N

    by = list(prep.by)
    goal: Any = target
    if isinstance(target, str):  # the group's π from the rows, then on the counts
        pi, ok = target_value(target)
        agg = [pl.when(ok).then(pi).alias(PI)]
        values = prep.frame.group_by(by).agg(agg) if by else prep.frame.select(agg)
        how: dict[str, Any] = {"on": by, "how": "left", "nulls_equal": True} if by else {}
        pairs = pairs.join(values, **(how or {"how": "cross"}), maintain_order="left")
        goal = pl.col(PI)
    frame = pairs.with_columns(reweighted(y, goal, pos_label=pos_label, weight=N, by=by).alias(W))
    exprs = [pl.col(W).is_nan().any().alias(UNDEFINED)]
    if not isinstance(target, Mapping):
        exprs += measured(y, goal, pos_label=pos_label, weight=N)
    context = frame.group_by(by).agg(exprs) if by else frame.select(exprs)
    out = frame.with_columns(pl.col(W).alias(N)).drop(W, *([PI] if goal is not target else []))
    return out, context


def shift_binary(counts: Any, target: Target) -> tuple[Shifted, pl.Expr]:
    """Binary counts (``tp, pred, support, total``, as aggregations) re-weighted to a number
    or a column's π: the counts of :func:`reweighted` rows, from four sums; and whether the
    group can be re-weighted."""
    pi, ok = target_value(target)
    n, pos = counts.total, counts.support
    neg = n - pos
    a, b = pi * n / pos, (1.0 - pi) * n / neg
    tp, fp = counts.tp * a, counts.fp * b
    shifted = Shifted(
        tp=tp,
        pred=tp + fp,
        support=pi * n,
        total=n,
        fp_=fp,
        fn_=counts.fn * a,
        tn_=counts.tn * b,
    )
    return shifted, ok & (pos > 0) & (neg > 0)
