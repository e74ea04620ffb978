"""Ranking metrics: AUROC, average precision, KS, top-k (expressions).

Every function returns a ``pl.Expr`` that aggregates to one value, so it works in ``select``,
``group_by().agg()`` and ``over()``, on DataFrames and LazyFrames, in the streaming engine.
Expressions follow aggregate semantics: a row with a null in a column the metric reads, or a
NaN score, is left out. They do not validate data: the frame functions do.

A binary ``score`` is one column (higher means ``pos_label``). Multiclass scores are a mapping
``{label: column}``, a list of columns with ``labels=``, or one List/Array column with
``labels=`` (a single column given together with ``labels`` is always read as per-class
scores). Multiclass rows whose ``y`` is not one of the listed classes are left out.

Plans: unweighted AUROC and average precision value-sort each class's scores once and count
with binary searches (Mann–Whitney, ties get half credit), or, where a frame function knows the
groups are small, rank the rows of each group once (:func:`sort_plan`); everything else
sorts the rows once, highest score first, and reads cumulative positive and negative weights at
the end of each run of tied scores (scikit-learn's thresholds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import combinations
from typing import Any, Literal

import polars as pl

from clfeval import _options
from clfeval._counts import IntoExpr, col, guard, share, spread_rows, valid_rows, weight_expr
from clfeval._schema import order_scores
from clfeval.exceptions import InputError

__all__ = [
    "auroc",
    "average_precision",
    "ks",
    "top_k_accuracy",
]

ScoreArg = IntoExpr | Sequence[IntoExpr] | Mapping[Any, IntoExpr]
Average = Literal["macro", "weighted", "micro"] | None
F64 = pl.Float64
SMALL_GROUP = 10_000  # mean rows per group below which one rank beats two value sorts
SortPlan = Literal["lists", "whole", "rank"]
_PLAN: ContextVar[SortPlan] = ContextVar("clfeval_sort_plan", default="lists")


# --- score arguments ----------------------------------------------------------------------


def list_element(column: pl.Expr, i: int) -> pl.Expr:
    """Element ``i`` of a List or Array column of numbers, as Float64 (null when short).

    The cast is not strict because Polars 2.1's strict Array -> List cast fails on the null
    rows that ``when/then`` masks produce; a list of numbers converts without loss (the
    front door checks the inner dtype).
    """
    return column.cast(pl.List(F64), strict=False).list.get(i, null_on_oob=True)


def class_scores(
    score: ScoreArg, labels: Sequence[Any] | None, role: str = "score"
) -> tuple[list[Any], list[pl.Expr]] | None:
    """``(classes, one Float64 score expression per class)``, or None for a binary score."""
    labels = _options.labels(labels)
    if isinstance(score, Mapping):
        for key in score:
            _options.class_value(role, key)
        mapping = order_scores(score, labels)
        if len(mapping) < 2:
            raise InputError(
                f"multiclass scores need at least two classes, got {list(mapping)!r}",
                role=role,
                rule="score_labels",
                hint="pass one column for a binary score, or one column per class",
            )
        return list(mapping), [col(c, role).cast(F64) for c in mapping.values()]
    if isinstance(score, str | pl.Expr):
        if labels is None:
            return None
        labels = list(labels)
        if len(labels) < 2:
            raise InputError(
                f"labels={labels!r} lists fewer than two classes",
                role="labels",
                rule="score_labels",
                hint="a List/Array score column needs every class listed",
            )
        return labels, [list_element(col(score, role), i) for i in range(len(labels))]
    if not isinstance(score, Sequence):
        col(score, role)  # raises: not a column name, an expression or a list of them
    columns = list(score)
    if labels is None or len(labels) != len(columns):
        raise InputError(
            f"a list of {len(columns)} {role} columns needs labels= of the same length",
            role=role,
            rule="score_labels",
            hint="pass labels=[...] in the order of the columns, or a mapping {label: column}",
        )
    return list(labels), [col(c, role).cast(F64) for c in columns]


def score_valid(y: pl.Expr, scores: Sequence[pl.Expr], w: pl.Expr | None) -> pl.Expr:
    """Rows an expression evaluates: nothing null, no NaN score."""
    finite = [s.is_nan().not_().fill_null(False) for s in scores]
    return valid_rows(y, w, *scores) & pl.all_horizontal(finite)


def is_class(y: pl.Expr, classes: Sequence[Any]) -> pl.Expr:
    """``y`` is one of ``classes`` (works for every label dtype, unlike ``is_in``)."""
    return pl.any_horizontal([(y == c).fill_null(False) for c in classes])


def check_average(average: Any, allowed: Sequence[Any]) -> None:
    _options.average(average, allowed)


def combine(values: list[pl.Expr], support: list[pl.Expr], average: Average) -> pl.Expr:
    """Average per-class values; null classes are left out (scikit-learn's NaN exclusion)."""
    if average is None:
        return pl.concat_list(values)
    if average == "macro":
        return pl.mean_horizontal(values)
    # weighted: pack (value, support) pairs once so each per-class value is computed once
    pairs = pl.concat_list([pl.struct(v.alias("v"), s.alias("s")) for v, s in zip(values, support)])
    e = pl.element()
    v, w = e.struct.field("v"), e.struct.field("s")
    den = w.filter(v.is_not_null()).sum()
    mean = pl.when(den > 0).then((v * w).sum() / den).otherwise(None)
    return pairs.list.eval(mean).list.first()


def stack(parts: list[pl.Expr]) -> pl.Expr:
    """Concatenate expressions end to end (micro averaging ravels (row, class) pairs)."""
    out = parts[0]
    for part in parts[1:]:
        out = out.append(part)
    return out


# --- the two plans --------------------------------------------------------------------------

Stat = Callable[[pl.Expr, pl.Expr], pl.Expr]


def small_groups(frame: pl.LazyFrame, by: list[str]) -> bool:
    """Whether ``frame``'s groups hold fewer than :data:`SMALL_GROUP` rows on average.

    The distinct keys among about 100,000 probed rows (:func:`spread_rows`) bound the number
    of groups from below, so rows / distinct keys bounds the mean group size from above.
    """
    n = pl.len()
    keys = pl.struct(by).gather(spread_rows()).n_unique()
    rows, distinct = frame.select(n.alias("n"), keys.alias("u")).collect().row(0)
    return distinct > 0 and rows < SMALL_GROUP * distinct


@contextmanager
def sort_plan(plan: SortPlan) -> Iterator[None]:
    """Within this block, unweighted AUROC and average precision expressions use ``plan``.

    An expression cannot tell a whole column from a group, so frame functions choose:
    ``"lists"`` (the default) value-sorts each class as a list, never far from the best;
    ``"whole"`` uses ``Expr.sort``, 10% faster with 20% less memory on a whole column but 2×
    slower inside ``agg`` on big groups, where it gathers; ``"rank"`` ranks each group once,
    the cheapest for small groups (:func:`small_groups`).
    """
    token = _PLAN.set(plan)
    try:
        yield
    finally:
        _PLAN.reset(token)


def rank_auroc(pos: pl.Expr, s: pl.Expr, valid: pl.Expr) -> pl.Expr:
    """(Σ average ranks of positives − P(P+1)/2) / (P·N), null unless both classes present.

    The rows are packed once and the formula runs in ``list.eval``, so each input appears
    once in the expression tree (Polars shares no repeated sub-expression here).
    """
    rows = pl.struct(s.alias("s"), pos.alias("p")).filter(valid).implode()
    e = pl.element()
    p = e.struct.field("p")
    n_pos = p.sum().cast(F64)
    n_neg = p.len().cast(F64) - n_pos
    rank_sum = e.struct.field("s").rank("average").filter(p).sum()
    value = (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    auc = pl.when((n_pos > 0) & (n_neg > 0)).then(value).otherwise(None)
    return rows.list.eval(auc).list.first()


def rank_ap(pos: pl.Expr, s: pl.Expr, valid: pl.Expr) -> pl.Expr:
    """(1/P) Σ over positives of tp/(tp + fp) at their score, null without positives.

    At a positive's score t, tp + fp is the rows scored >= t (its "max" rank from the top)
    and tp the positives scored >= t (the same rank among positives).
    """
    rows = pl.struct((-s).alias("s"), pos.alias("p")).filter(valid).implode()
    e = pl.element()
    p, top = e.struct.field("p"), e.struct.field("s")
    above = top.rank("max").filter(p)
    above_pos = top.filter(p).rank("max")
    n_pos = p.sum()
    ap = (above_pos / above).sum() / n_pos
    return rows.list.eval(pl.when(n_pos > 0).then(ap).otherwise(None)).list.first()


def by_class(pos: pl.Expr, s: pl.Expr, valid: pl.Expr) -> pl.Expr:
    """One list per group: ``[N, negatives' scores ascending..., positives' ascending...]``.

    Each class is value-sorted once (about 3× cheaper than the arg sort a rank needs), and
    both go into one list so the formulas read them as slices: an eager ``select`` or ``agg``
    shares no repeated sub-expression, so a second reference would sort again.
    """
    neg = valid & ~pos
    negatives, positives = s.filter(neg), s.filter(valid & pos)
    if _PLAN.get() == "whole":
        packed = neg.sum().cast(F64).append(negatives.sort()).append(positives.sort())
        return packed.implode()
    sort = [negatives.implode().list.sort(), positives.implode().list.sort()]
    return pl.concat_list(neg.sum().cast(F64), *sort)


def _classes() -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """Inside ``list.eval`` over :func:`by_class`: (negatives, positives, P, N)."""
    e = pl.element()
    n = e.first().cast(pl.Int64)
    n_neg = n.cast(F64)
    return e.slice(1, n), e.slice(n + 1), e.len().cast(F64) - 1.0 - n_neg, n_neg


def _positive_scores(positives: pl.Expr) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """The sorted positives, run-length encoded: (each distinct score, how many times it
    occurs, the positives below it). Tied scores then cost one binary search each, not one
    per row.
    """
    encoded = positives.rle()
    times = encoded.struct.field("len").cast(pl.Int64)
    return encoded.struct.field("value"), times, times.cum_sum() - times


def auroc_of_sorted(
    negatives: pl.Expr, positives: pl.Expr, n_pos: pl.Expr, n_neg: pl.Expr
) -> pl.Expr:
    """Σ over positives of (#negatives below + #negatives at or below) / 2, over P·N (ties
    count ½: Mann–Whitney), from each class's scores sorted ascending; null unless both
    classes are present. The counts are two binary searches per distinct positive score,
    times its multiplicity (:func:`_positive_scores`).
    """
    value, times, _ = _positive_scores(positives)
    below = negatives.search_sorted(value, side="left").cast(pl.Int64)
    at_or_below = negatives.search_sorted(value, side="right").cast(pl.Int64)
    area = (times * (below + at_or_below)).sum().cast(F64) / 2.0 / n_pos / n_neg
    return pl.when((n_pos > 0) & (n_neg > 0)).then(area).otherwise(None)


def ap_of_sorted(negatives: pl.Expr, positives: pl.Expr, n_pos: pl.Expr, n_neg: pl.Expr) -> pl.Expr:
    """(1/P) Σ over positives of tp/(tp + fp) at their score, from each class's scores sorted
    ascending; null without positives.

    At a positive score t, tp = P − (positives below t) and fp = N − (negatives below t: a
    binary search), once per distinct score times its multiplicity.
    """
    value, times, lower = _positive_scores(positives)
    tp = n_pos - lower.cast(F64)
    fp = n_neg - negatives.search_sorted(value, side="left").cast(F64)
    return pl.when(n_pos > 0).then((times * (tp / (tp + fp))).sum() / n_pos).otherwise(None)


def sorted_auroc(pos: pl.Expr, s: pl.Expr, valid: pl.Expr) -> pl.Expr:
    """:func:`auroc_of_sorted` over each group's classes, value-sorted (:func:`by_class`)."""
    return by_class(pos, s, valid).list.eval(auroc_of_sorted(*_classes())).list.first()


def sorted_ap(pos: pl.Expr, s: pl.Expr, valid: pl.Expr) -> pl.Expr:
    """:func:`ap_of_sorted` over each group's classes, value-sorted (:func:`by_class`)."""
    return by_class(pos, s, valid).list.eval(ap_of_sorted(*_classes())).list.first()


def curve_stat(pos: pl.Expr, s: pl.Expr, w: pl.Expr | None, valid: pl.Expr, stat: Stat) -> pl.Expr:
    """Sort once (highest score first) and apply ``stat(T, F)`` in ``list.eval``.

    T and F are the cumulative positive and negative weights at each distinct score: the
    true and false positives of the rule ``score >= threshold``, thresholds decreasing.
    """
    one = pl.lit(1.0) if w is None else w
    packed = pl.struct(
        s.alias("s"),
        pl.when(pos).then(one).otherwise(0.0).alias("p"),
        pl.when(pos).then(0.0).otherwise(one).alias("n"),
    )
    rows = packed.filter(valid).sort_by(s.filter(valid), descending=True).implode()
    e = pl.element()
    key = e.struct.field("s")
    last = (key != key.shift(-1)).fill_null(True)
    tps = e.struct.field("p").cum_sum().filter(last)
    fps = e.struct.field("n").cum_sum().filter(last)
    return rows.list.eval(stat(tps, fps)).list.first()


def auroc_stat(max_fpr: float | None) -> Stat:
    """Trapezoids under (fpr, tpr): Σ (fp_i − fp_{i−1})/N · (tp_i + tp_{i−1})/P / 2; with
    ``max_fpr`` the McClish-standardised partial area. Null unless both classes are present."""

    def stat(tps: pl.Expr, fps: pl.Expr) -> pl.Expr:
        n_pos, n_neg = tps.last(), fps.last()
        if max_fpr is None or max_fpr == 1:
            # each factor divided by its total before the product: huge weights cannot overflow
            widths = share(fps - fps.shift(1).fill_null(0.0), n_neg)
            heights = share(tps + tps.shift(1).fill_null(0.0), n_pos)
            area = (widths * heights).sum() / 2.0
        else:  # trapezoids up to max_fpr, the crossing segment interpolated (np.interp)
            fpr, tpr = share(fps, n_neg), share(tps, n_pos)
            x0, y0 = fpr.shift(1).fill_null(0.0), tpr.shift(1).fill_null(0.0)
            full = (fpr - x0) * (tpr + y0) / 2.0
            m = float(max_fpr)
            at_m = (tpr - y0) / (fpr - x0) * (m - x0) + y0
            part = (m - x0) * (y0 + at_m) / 2.0
            seg = pl.when(fpr <= m).then(full).when(x0 <= m).then(part).otherwise(0.0)
            lo, hi = 0.5 * m * m, m  # McClish: 0.5 for a random ranking, 1 for a perfect one
            area = 0.5 * (1 + (seg.sum() - lo) / (hi - lo))
        return pl.when((n_pos > 0) & (n_neg > 0)).then(area).otherwise(None)

    return stat


def ap_stat(tps: pl.Expr, fps: pl.Expr) -> pl.Expr:
    """Σ (tp_i − tp_{i−1})/P · tp_i / (tp_i + fp_i) (recall steps times precision), null
    without positives. Each factor is a share, so huge weights cannot overflow."""
    n_pos = tps.last()
    recall_steps = share(tps - tps.shift(1).fill_null(0.0), n_pos)
    steps = recall_steps * (tps / (tps + fps))  # 0/0 only off the steps
    ap = steps.fill_nan(0.0).sum()
    return pl.when(n_pos > 0).then(ap.clip(lower_bound=0.0)).otherwise(None)


def _ks_stat(tps: pl.Expr, fps: pl.Expr) -> pl.Expr:
    n_pos, n_neg = tps.last(), fps.last()
    gap = (share(tps, n_pos) - share(fps, n_neg)).abs().max()
    return pl.when((n_pos > 0) & (n_neg > 0)).then(gap).otherwise(None)


def binary_auroc(
    pos: pl.Expr, s: pl.Expr, w: pl.Expr | None, valid: pl.Expr, max_fpr: float | None = None
) -> pl.Expr:
    if w is None and (max_fpr is None or max_fpr == 1):
        return (rank_auroc if _PLAN.get() == "rank" else sorted_auroc)(pos, s, valid)
    return curve_stat(pos, s, w, valid, auroc_stat(max_fpr))


# --- public expressions -----------------------------------------------------------------


def _ovr(
    metric: Callable[[pl.Expr, pl.Expr, pl.Expr | None, pl.Expr], pl.Expr],
    y: pl.Expr,
    classes: list[Any],
    scores: list[pl.Expr],
    w: pl.Expr | None,
    average: Average,
) -> pl.Expr:
    """One-vs-rest: the binary metric per class, then averaged (micro ravels the pairs)."""
    valid = score_valid(y, scores, w) & is_class(y, classes)
    hits = [(y == c).fill_null(False) for c in classes]
    if average == "micro":
        ones = [valid] * len(classes)
        wt = None if w is None else stack([w] * len(classes))
        return metric(stack(hits), stack(scores), wt, stack(ones))
    one = pl.lit(1.0) if w is None else w
    support = [pl.when(valid & h).then(one).otherwise(0.0).sum() for h in hits]
    values = [metric(h, s, w, valid) for h, s in zip(hits, scores)]
    return combine(values, support, average)


def auroc(
    y: IntoExpr,
    score: ScoreArg,
    *,
    pos_label: Any = 1,
    max_fpr: float | None = None,
    multi_class: Literal["ovr", "ovo"] = "ovr",
    average: Average = "macro",
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Area under the ROC curve: P(score of a positive > score of a negative), ties count ½.

    Null when ``y`` holds one class only (never 0, never NaN). ``max_fpr`` gives the partial
    area up to that false positive rate, McClish-standardised (0.5 random, 1 perfect).
    Multiclass: one-vs-rest (``average`` macro, weighted by support, micro, or None for one
    value per class) or ``multi_class="ovo"`` (Hand & Till, macro or weighted by pair
    prevalence). Classes absent from ``y`` are null and left out of the averages. Rows with a
    null (or a NaN score) are left out.

    See Also
    --------
    clf_auroc : the SQL twin.
    sklearn.metrics.roc_auc_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(auroc("y", "s")).item()
    0.75
    """
    max_fpr = _options.max_fpr(max_fpr)
    _options.choice(
        "multi_class",
        multi_class,
        ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )
    yv, w = col(y, "y"), weight_expr(weight)
    per_class = class_scores(score, labels)
    if per_class is None:
        _options.class_value("pos_label", pos_label)
        s = col(score, "score").cast(F64)  # type: ignore[arg-type]
        valid = score_valid(yv, [s], w)
        value = binary_auroc((yv == pos_label).fill_null(False), s, w, valid, max_fpr)
        return guard(value, weight).alias("auroc")
    if max_fpr is not None and max_fpr != 1:
        raise InputError(
            "max_fpr (partial AUROC) is binary only",
            role="max_fpr",
            rule="option",
            hint="leave max_fpr=None for multiclass scores",
        )
    classes, scores = per_class
    if multi_class == "ovo":
        check_average(average, ("macro", "weighted"))
        return guard(_ovo(yv, classes, scores, w, average), weight).alias("auroc")
    check_average(average, ("macro", "weighted", "micro", None))
    return guard(_ovr(binary_auroc, yv, classes, scores, w, average), weight).alias("auroc")


def _ovo(
    y: pl.Expr, classes: list[Any], scores: list[pl.Expr], w: pl.Expr | None, average: Average
) -> pl.Expr:
    """Hand & Till: mean over class pairs of (AUC(a | a, b) + AUC(b | a, b)) / 2."""
    valid = score_valid(y, scores, w)
    one = pl.lit(1.0) if w is None else w
    pairs, prevalence = [], []
    for (i, a), (j, b) in combinations(enumerate(classes), 2):
        in_a, in_b = (y == a).fill_null(False), (y == b).fill_null(False)
        both = valid & (in_a | in_b)
        pairs.append(
            (binary_auroc(in_a, scores[i], w, both) + binary_auroc(in_b, scores[j], w, both)) / 2
        )
        prevalence.append(pl.when(both).then(one).otherwise(0.0).sum())
    return combine(pairs, prevalence, average)


def average_precision(
    y: IntoExpr,
    score: ScoreArg,
    *,
    pos_label: Any = 1,
    average: Average = "macro",
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Average precision: Σ_n (R_n − R_{n−1})·P_n over thresholds, highest first.

    Null when ``y`` has no positive (scikit-learn returns 0.0 with a warning; clfeval treats
    the metric as undefined). Multiclass: one-vs-rest with ``average`` macro, weighted, micro
    or None; classes without positives are null and left out of the averages. Rows with a
    null (or a NaN score) are left out.

    See Also
    --------
    clf_average_precision : the SQL twin.
    sklearn.metrics.average_precision_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.select(average_precision("y", "s")).item(), 4)
    0.8333
    """
    yv, w = col(y, "y"), weight_expr(weight)

    def metric(pos: pl.Expr, s: pl.Expr, wt: pl.Expr | None, valid: pl.Expr) -> pl.Expr:
        if wt is None:
            return (rank_ap if _PLAN.get() == "rank" else sorted_ap)(pos, s, valid)
        return curve_stat(pos, s, wt, valid, ap_stat)

    per_class = class_scores(score, labels)
    if per_class is None:
        _options.class_value("pos_label", pos_label)
        s = col(score, "score").cast(F64)  # type: ignore[arg-type]
        valid = score_valid(yv, [s], w)
        value = metric((yv == pos_label).fill_null(False), s, w, valid)
        return guard(value, weight).alias("average_precision")
    check_average(average, ("macro", "weighted", "micro", None))
    classes, scores = per_class
    value = _ovr(metric, yv, classes, scores, w, average)
    return guard(value, weight).alias("average_precision")


def ks(
    y: IntoExpr, score: IntoExpr, *, pos_label: Any = 1, weight: IntoExpr | None = None
) -> pl.Expr:
    """Kolmogorov–Smirnov statistic: max over thresholds of |TPR − FPR|.

    The largest gap between the score distributions of positives and negatives (scipy's
    ``ks_2samp`` statistic). Null when ``y`` holds one class only. Rows with a null (or a NaN
    score) are left out.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(ks("y", "s")).item()
    0.5
    """
    _options.class_value("pos_label", pos_label)
    yv, w, s = col(y, "y"), weight_expr(weight), col(score, "score").cast(F64)
    valid = score_valid(yv, [s], w)
    value = curve_stat((yv == pos_label).fill_null(False), s, w, valid, _ks_stat)
    return guard(value, weight).alias("ks")


def top_k_accuracy(
    y: IntoExpr,
    scores: ScoreArg,
    *,
    k: int = 2,
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Top-k accuracy: the (weighted) share of rows whose class is among the k highest scores.

    Ties are broken as scikit-learn does: among equal scores the class listed later ranks
    higher. A single binary score column (no ``labels``) follows scikit-learn too: with
    ``k=1`` the greater class is predicted when the score exceeds 0.5 (scores in [0, 1]) or 0
    (otherwise); with ``k >= 2`` every row is a hit. Null when no row is left, or for a binary
    score when ``y`` does not hold exactly two classes.

    See Also
    --------
    sklearn.metrics.top_k_accuracy_score : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 2, 2], "p0": [0.5, 0.3, 0.2, 0.7],
    ...                    "p1": [0.2, 0.4, 0.4, 0.2], "p2": [0.3, 0.3, 0.4, 0.1]})
    >>> df.select(top_k_accuracy("y", ["p0", "p1", "p2"], labels=[0, 1, 2])).item()
    0.75
    """
    k = _options.k(k)
    yv, w = col(y, "y"), weight_expr(weight)
    one = pl.lit(1.0) if w is None else w
    per_class = class_scores(scores, labels)
    if per_class is None:
        s = col(scores, "score").cast(F64)  # type: ignore[arg-type]
        valid = score_valid(yv, [s], w)
        sv = s.filter(valid)
        cut = pl.when((sv.min() >= 0) & (sv.max() <= 1)).then(0.5).otherwise(0.0)
        hit = (s > cut) == (yv == yv.filter(valid).max()) if k == 1 else pl.lit(True)
        share = pl.when(valid).then(one * hit.cast(F64)).otherwise(0.0).sum() / (
            pl.when(valid).then(one).otherwise(0.0).sum()
        )
        two = yv.filter(valid).n_unique() == 2
        return guard(pl.when(two).then(share).otherwise(None), weight).alias("top_k_accuracy")
    classes, columns = per_class
    valid = score_valid(yv, columns, w) & is_class(yv, classes)
    own = pl.coalesce([pl.when(yv == c).then(s) for c, s in zip(classes, columns)])
    own_index = pl.coalesce([pl.when(yv == c).then(pl.lit(i)) for i, c in enumerate(classes)])
    ahead = pl.sum_horizontal(
        [((s > own) | ((s == own) & (own_index < i))).cast(pl.Int64) for i, s in enumerate(columns)]
    )
    hit = (ahead < k).cast(F64)
    den = pl.when(valid).then(one).otherwise(0.0).sum()
    num = pl.when(valid).then(one * hit).otherwise(0.0).sum()
    value = pl.when(den > 0).then(num / den).otherwise(None)
    return guard(value, weight).alias("top_k_accuracy")
