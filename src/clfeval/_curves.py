"""Threshold counts and the curves built on them, as frame functions.

Only :func:`threshold_counts` reads rows: true and false positives of the rule
``score >= threshold`` at every distinct score, highest first, by one of two plans:

* ``"group"``: group by (groups, score), sort the distinct scores, cumulative sums per group
  (fast when scores repeat: rounded probabilities, votes, small models);
* ``"sort"``: sort the rows, cumulative sums, keep the last row of each run of tied scores
  (fast when nearly every score is distinct).

A probe of about 100,000 rows picks the plan (:func:`choose_plan`): rows spread over an
eager input; the first rows of a LazyFrame, read once when the function is called (a Parquet
scan reads its first row groups). Mostly distinct (groups, score) pairs sort, whose memory
stays about twice the scored columns, where a group-by over 10M distinct scores needed five
times (measured in ``benchmarks/``). Both plans give the same rows. Every curve, table and best
threshold is a formula over these counts, per group (``.over``), without a Python loop over
rows, thresholds or groups.

Conventions: ``by`` columns come first, then ``label`` for multiclass scores (one-vs-rest),
rows sorted by groups then curve order; DataFrame in, DataFrame out; LazyFrame in, LazyFrame
out. Rows with weight 0 are dropped first (they would only add thresholds; scikit-learn
drops them too). An undefined rate (no positive or no negative in a group) is null.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _options, _shift
from clfeval._counts import PROBE_ROWS, divide, spread_rows
from clfeval._frames import frame_input
from clfeval._metrics import THRESHOLD_METRICS
from clfeval._models import Models, comparable
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    Missing,
    Prepared,
    check_class_value,
    check_score_classes,
    expand_list_scores,
    prepare,
)
from clfeval.exceptions import InputError

__all__ = [
    "det_curve",
    "pr_curve",
    "roc_curve",
    "threshold_counts",
]

S, POS, W, K = "__clf_s", "__clf_pos", "__clf_w", "__clf_k"
TP, FP, NP, NN = "tp", "fp", "__clf_np", "__clf_nn"
Plan = Literal["auto", "group", "sort"]
PLAN: Plan = "auto"  # tests force one plan to check both give the same rows
FrameScore = str | Sequence[str] | Mapping[Any, str]
COUNT_COLUMNS = ["tp", "fp", "fn", "tn"]
METRIC_COLUMNS = list(THRESHOLD_METRICS)  # the thresholds table's metrics (the registry's)
# output and working columns a group column may not be named like
RESERVED = {
    "threshold", "tpr", "fnr", "fraction_targeted", "gain", "lift", "bin", "mean_predicted",
    "fraction_positive", "count", *COUNT_COLUMNS, *METRIC_COLUMNS,
}  # fmt: skip


def over(expr: pl.Expr, keys: list[str]) -> pl.Expr:
    return expr.over(keys) if keys else expr


# --- validation and the long frame -----------------------------------------------------------


def setup(
    data: Frame,
    y: str,
    score: FrameScore,
    *,
    pos_label: Any,
    labels: Sequence[Any] | None,
    by: str | Sequence[str] | None,
    weight: str | None,
    missing: Missing,
    nonfinite: Missing,
    probability: bool = False,
) -> tuple[Prepared, pl.LazyFrame, list[str]]:
    """Validate, then ``(prepared, long frame, keys)``.

    The long frame has the group keys (plus ``__clf_k, label`` for multiclass scores, one
    copy of the rows per class), ``__clf_s`` (Float64), ``__clf_pos`` (Boolean) and, with a
    weight, ``__clf_w``.
    """
    labels = _options.labels(labels)
    data, scores = expand_list_scores(data, score, labels, "proba" if probability else "score")
    multiclass = isinstance(scores, dict)
    if multiclass:
        _check_proba_labels(scores)
    prep = prepare(
        data,
        y=y,
        score=scores,
        weight=weight,
        by=by,
        labels=list(scores) if multiclass else None,
        missing=missing,
        nonfinite=nonfinite,
        probability=probability,
        classes=multiclass,
        pos_label=NOT_GIVEN if multiclass else pos_label,
        pos_in_y=not multiclass,
        outputs=[*RESERVED, *(["label"] if multiclass else [])],
        score_role="proba" if probability else "score",
    )
    dtype = prep.frame.collect_schema()[y]
    w = [pl.col(weight).cast(pl.Float64).alias(W)] if weight is not None else []
    if isinstance(scores, str):
        return prep, binary_long(prep, y, scores, pos_label, weight), list(prep.by)
    for label in scores:
        check_class_value(dtype, label, y, "labels")
    check_score_classes(prep, scores, y)
    known = pl.any_horizontal([pl.col(y) == label for label in scores])
    parts = [
        prep.frame.filter(known).select(
            *prep.by,
            pl.lit(k, pl.Int64).alias(K),
            pl.lit(label, dtype).alias("label"),
            pl.col(column).cast(pl.Float64).alias(S),
            (pl.col(y) == label).alias(POS),
            *w,
        )
        for k, (label, column) in enumerate(scores.items())
    ]
    return prep, pl.concat(parts), [*prep.by, K, "label"]


def binary_long(
    prep: Prepared, y: str, score: str, pos_label: Any, weight: str | None
) -> pl.LazyFrame:
    """The group keys, ``__clf_s`` (Float64), ``__clf_pos`` and, with a weight, ``__clf_w``."""
    w = [pl.col(weight).cast(pl.Float64).alias(W)] if weight is not None else []
    return prep.frame.select(
        *prep.by,
        pl.col(score).cast(pl.Float64).alias(S),
        (pl.col(y) == pos_label).alias(POS),
        *w,
    )


def _check_proba_labels(scores: dict[Any, str]) -> None:
    if len(scores) < 2:
        raise InputError(
            f"multiclass scores need at least two classes, got {list(scores)!r}",
            role="score",
            rule="score_labels",
            hint="pass one column for a binary score, or one column per class",
        )


def choose_plan(prep: Prepared, long: pl.LazyFrame) -> Literal["group", "sort"]:
    """Group by (keys, score) when that leaves at most about half the rows, else sort.

    The probe counts distinct (keys, score) in about 100,000 rows of an eager input: evenly
    strided for the score alone (1.5 ms at 10M rows), spread by hashing with group keys, which
    may repeat with the stride's period (:func:`spread_rows`, 12 ms); the first rows of a
    LazyFrame (a slice a Parquet scan reads from its first row groups, so the call stays cheap
    on data larger than memory). A wrong guess only costs speed or memory: both plans give the
    same rows.
    """
    if prep.eager and not prep.n_rows:
        return "group"
    keys = [c for c in long.collect_schema() if c not in (S, POS, W)]
    key = pl.struct(*keys, S) if keys else pl.col(S)
    if prep.eager and keys:
        sample = long.select(key.gather(spread_rows()).alias("k"))
    elif prep.eager:
        sample = long.select(key.gather_every(max(1, prep.n_rows // PROBE_ROWS)).alias("k"))
    else:
        sample = long.select(key.alias("k")).head(PROBE_ROWS)
    probe = sample.select(pl.col("k").n_unique().alias("u"), pl.len().alias("n"))
    distinct, n = probe.collect().row(0)
    return "sort" if n > 0 and distinct > 0.5 * n else "group"


def rate(num: pl.Expr, den: pl.Expr, zero_division: float | None = None) -> pl.Expr:
    """:func:`divide` that divides like NumPy, bit for bit.

    Polars 2.1 may divide a column by a total through its reciprocal (3 / 5 gives
    0.6000000000000001; scikit-learn's 3 / 5 is 0.6) when the total was broadcast from one
    value; "+ 0.0 * num" lays the denominator out like the numerator, which divides exactly.
    """
    return divide(num, den + 0.0 * num, zero_division)


def counts_frame(
    long: pl.LazyFrame,
    keys: list[str],
    weighted: bool,
    plan: str,
    *,
    drop_zero: bool = True,
    totals: bool = True,
) -> pl.LazyFrame:
    """``(*keys, threshold, tp, fp, __clf_np, __clf_nn)``: counts at each distinct score.

    Rows per group, thresholds decreasing; ``__clf_np``/``__clf_nn`` are the group's total
    positives and negatives (left out with ``totals=False``). Counts are Int64, or Float64
    with a weight. ``drop_zero`` leaves out rows of weight 0 (curves: they would only add
    thresholds).
    """
    if weighted:
        if drop_zero:
            long = long.filter(pl.col(W) != 0)
        pos = pl.when(pl.col(POS)).then(pl.col(W)).otherwise(0.0)
        neg = pl.when(pl.col(POS)).then(0.0).otherwise(pl.col(W))
    else:  # UInt32 running counts (half the memory on a sorted 10M rows), Int64 at the end
        pos = pl.col(POS)
        neg = ~pl.col(POS)
    order = {"descending": [False] * len(keys) + [True], "nulls_last": True}
    if plan == "group":
        if weighted:
            sums = [pos.sum().alias(TP), neg.sum().alias(FP)]
        else:  # one sum and the row count are cheaper than two sums
            sums = [pos.sum().alias(TP), (pl.len() - pos.sum()).alias(FP)]
        table = (
            long.group_by([*keys, S])
            .agg(*sums)
            .sort([*keys, S], **order)
            .with_columns(over(pl.col(TP, FP).cum_sum(), keys))
        )
    else:
        last = over((pl.col(S) != pl.col(S).shift(-1)).fill_null(True), keys)
        table = (
            long.sort([*keys, S], **order)
            .with_columns(over(pos.cum_sum(), keys).alias(TP), over(neg.cum_sum(), keys).alias(FP))
            .filter(last)
        )
    counts = [pl.col(TP, FP)] if weighted else [pl.col(TP, FP).cast(pl.Int64)]
    if not totals:
        return table.select(*keys, pl.col(S).alias("threshold"), *counts)
    return table.select(
        *keys,
        pl.col(S).alias("threshold"),
        *counts,
        over(pl.col(TP).last(), keys).alias(NP),
        over(pl.col(FP).last(), keys).alias(NN),
    )


def counts_table(
    data: Frame, y: str, score: FrameScore, pos_label: Any, labels: Sequence[Any] | None,
    by: Any, weight: str | None, missing: Missing, nonfinite: Missing,
) -> tuple[Prepared, pl.LazyFrame, list[str], pl.LazyFrame]:  # fmt: skip
    prep, long, keys = setup(
        data,
        y,
        score,
        pos_label=pos_label,
        labels=labels,
        by=by,
        weight=weight,
        missing=missing,
        nonfinite=nonfinite,
    )
    plan = PLAN if PLAN != "auto" else choose_plan(prep, long)
    return prep, counts_frame(long, keys, weight is not None, plan), keys, long


def finish(prep: Prepared, out: pl.LazyFrame, keys: list[str], *columns: str) -> Frame:
    shown = [k for k in keys if k != K]
    return prep.finish(out.select(*shown, *columns))


def with_start(table: pl.LazyFrame, keys: list[str], **start: Any) -> pl.LazyFrame:
    """Prepend one row per group (``start`` gives its values), keeping the group's order."""
    first = over(pl.int_range(pl.len()) == 0, keys)
    head = table.filter(first).with_columns(
        *[pl.lit(v).cast(table.collect_schema()[k]).alias(k) for k, v in start.items()],
        pl.lit(0).alias("__clf_o"),
    )
    body = table.with_columns(pl.lit(1).alias("__clf_o"))
    both = pl.concat([head, body])
    if not keys:  # one group: the start row is already first
        return both.drop("__clf_o")
    return both.sort([*keys, "__clf_o"], nulls_last=True, maintain_order=True).drop("__clf_o")


def _changes(column: str, keys: list[str]) -> pl.Expr:
    """True where ``column`` differs from the previous or the next row (ends always True)."""
    c = pl.col(column)
    before = over((c != c.shift(1)).fill_null(True), keys)
    after = over((c != c.shift(-1)).fill_null(True), keys)
    return before | after


def _corners(keys: list[str]) -> pl.Expr:
    """scikit-learn's ROC ``drop_intermediate``: keep a point where fp or tp bends."""

    def bends(column: str) -> pl.Expr:
        c = pl.col(column)
        return over(((c - c.shift(1)) != (c.shift(-1) - c)).fill_null(True), keys)

    return bends(FP) | bends(TP)


_COMMON_DOC = """
    Parameters
    ----------
    data
        A Polars DataFrame or LazyFrame.
    y
        The actual class column.
    score
        One score column (higher means ``pos_label``), or per-class scores for one-vs-rest
        curves: a mapping ``{label: column}``, a list of columns with ``labels=``, or one
        List/Array column with ``labels=``.
    models
        Instead of ``score``: several score columns of a wide frame, one per model, as a list
        or a mapping ``{name: column}``; the result has a ``model`` column first, as a long
        frame with ``by="model"`` gives.
    by, weight, missing, nonfinite
        Group columns, a row-weight column, and what to do with nulls and non-finite scores
        (``"raise"`` or ``"drop"``).
"""


@frame_input("threshold_counts")
@comparable("score")
def threshold_counts(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Confusion counts at every distinct score: ``threshold, tp, fp, fn, tn``.

    At threshold t, rows with ``score >= t`` are predicted positive; thresholds decrease, so
    tp and fp grow down the table. Counts are Int64 (Float64 with ``weight``).

    See Also
    --------
    sklearn.metrics.confusion_matrix_at_thresholds : the same counts.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> threshold_counts(df, "y", "s")["tp"].to_list()
    [1, 1, 2, 2]
    """
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    out = table.with_columns(
        (pl.col(NP) - pl.col(TP)).alias("fn"), (pl.col(NN) - pl.col(FP)).alias("tn")
    )
    return finish(prep, out, keys, "threshold", *COUNT_COLUMNS)


@frame_input("roc_curve")
@comparable("score")
def roc_curve(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    pos_label: Any = 1,
    drop_intermediate: bool = True,
    labels: Sequence[Any] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """ROC curve: ``threshold, fpr, tpr`` with fpr = fp / negatives, tpr = tp / positives.

    scikit-learn's points in its order: a first point (+inf, 0, 0), then one point per
    distinct score, thresholds decreasing. ``drop_intermediate`` drops points collinear with
    their neighbours (they change neither the plot nor the area). fpr (tpr) is null in a
    group without negatives (positives).
    {common}
    See Also
    --------
    clf_roc_curve : the SQL twin.
    sklearn.metrics.roc_curve : the same points.

    Examples
    --------
    >>> df = pl.DataFrame({{"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]}})
    >>> roc_curve(df, "y", "s")["tpr"].to_list()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    """
    _options.flag("drop_intermediate", drop_intermediate)
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    if drop_intermediate:
        table = table.filter(_corners(keys))
    table = with_start(table, keys, threshold=float("inf"), tp=0, fp=0)
    out = table.with_columns(
        rate(pl.col(FP), pl.col(NN)).alias("fpr"),
        rate(pl.col(TP), pl.col(NP)).alias("tpr"),
    )
    return finish(prep, out, keys, "threshold", "fpr", "tpr")


@frame_input("pr_curve")
@comparable("score")
def pr_curve(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    pos_label: Any = 1,
    drop_intermediate: bool = False,
    labels: Sequence[Any] | None = None,
    prevalence: Any = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Precision–recall curve: ``threshold, precision, recall`` (tp/(tp+fp), tp/positives).

    scikit-learn's points in its order: thresholds increasing, then the end point precision
    1, recall 0 with a null threshold. ``drop_intermediate`` keeps only the first and last
    point of each run of equal recall. In a group without positives recall is 1, as
    scikit-learn sets it (with a warning). ``prevalence`` (a number in (0, 1), a column, or
    ``{{class: share}}`` for per-class scores): precision at that target prevalence,
    π·tpr / (π·tpr + (1 − π)·fpr), null in a group without positives or negatives.
    {common}
    See Also
    --------
    clf_pr_curve : the SQL twin.
    sklearn.metrics.precision_recall_curve : the same points.

    Examples
    --------
    >>> df = pl.DataFrame({{"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]}})
    >>> pr_curve(df, "y", "s")["recall"].to_list()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    """
    _options.flag("drop_intermediate", drop_intermediate)
    target = _options.prevalence(prevalence)
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    if drop_intermediate:
        table = table.filter(_changes(TP, keys))
    table = _shift.with_target(table, prep, y, keys, target, pos_label)
    tp, ps = pl.col(TP), pl.col(TP) + pl.col(FP)
    if target is not None:  # the counts re-weighted to the target prevalence
        c = _shift.shifted_counts(*(pl.col(k).cast(pl.Float64) for k in (TP, FP, NP, NN)))
        tp, ps = c.tp, c.pred
    table = table.with_columns(
        rate(tp, ps, 0.0).alias("precision"),
        rate(pl.col(TP), pl.col(NP), 1.0).alias("recall"),
        pl.lit(0).alias("__clf_end"),
    )
    table = table.sort([*keys, "threshold"], nulls_last=True, maintain_order=True)
    end = over(pl.int_range(pl.len()) == 0, keys)
    tail = table.filter(end).with_columns(
        pl.lit(None, pl.Float64).alias("threshold"),
        pl.lit(1.0).alias("precision"),
        pl.lit(0.0).alias("recall"),
        pl.lit(1).alias("__clf_end"),
    )
    out = pl.concat([table, tail])
    if keys:
        out = out.sort([*keys, "__clf_end"], nulls_last=True, maintain_order=True)
    return finish(prep, out, keys, "threshold", "precision", "recall")


@frame_input("det_curve")
@comparable("score")
def det_curve(
    data: Frame,
    y: str,
    score: FrameScore | None = None,
    *,
    pos_label: Any = 1,
    drop_intermediate: bool = False,
    labels: Sequence[Any] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Detection error tradeoff: ``threshold, fpr, fnr`` with fnr = fn / positives.

    scikit-learn's points in its order: a +inf threshold is added first, the curve starts at
    the last point with no false positive and stops at the first with no false negative,
    then is reversed (thresholds increasing). ``drop_intermediate`` keeps the first and last
    point of each run of equal tp. Rates are null in a group without negatives / positives
    (scikit-learn raises).
    {common}
    See Also
    --------
    clf_det_curve : the SQL twin.
    sklearn.metrics.det_curve : the same points.

    Examples
    --------
    >>> df = pl.DataFrame({{"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]}})
    >>> det_curve(df, "y", "s")["fnr"].to_list()
    [0.0, 0.5, 0.5]
    """
    _options.flag("drop_intermediate", drop_intermediate)
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    table = with_start(table, keys, threshold=float("inf"), tp=0, fp=0)
    if drop_intermediate:
        table = table.filter(_changes(TP, keys))
    tp, fp = pl.col(TP), pl.col(FP)
    after_last_zero_fp = (fp > 0) | over((fp.shift(-1) > 0).fill_null(True), keys)
    until_first_full_tp = (tp < pl.col(NP)) | over((tp.shift(1) < pl.col(NP)).fill_null(True), keys)
    out = (
        table.filter(after_last_zero_fp & until_first_full_tp)
        .with_columns(
            rate(fp, pl.col(NN)).alias("fpr"),
            rate(pl.col(NP) - tp, pl.col(NP)).alias("fnr"),
        )
        .sort([*keys, "threshold"], nulls_last=True, maintain_order=True)
    )
    return finish(prep, out, keys, "threshold", "fpr", "fnr")


for _f in (roc_curve, pr_curve, det_curve):
    _f.__doc__ = (_f.__doc__ or "").format(common=_COMMON_DOC)
