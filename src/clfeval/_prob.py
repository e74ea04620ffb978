"""Probability metrics: log loss, Brier score, calibration error (expressions), calibration curve.

The expressions aggregate to one value and follow aggregate semantics: a row with a null in a
column the metric reads, or a NaN probability, is left out; they do not check that values
are probabilities. The frame function :func:`calibration` and the front door do: values
outside [0, 1] raise, and multiclass rows must sum to 1 (:func:`check_proba_sums`), never
renormalised silently.

A binary ``proba`` is one column, the probability of ``pos_label``. Multiclass probabilities
are a mapping ``{label: column}``, a list of columns with ``labels=``, or one List/Array
column with ``labels=``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _options
from clfeval._counts import IntoExpr, col, guard, sums_by_key, weight_expr
from clfeval._curves import POS, FrameScore, K, S, W, finish, setup
from clfeval._frames import frame_input
from clfeval._models import Models, comparable
from clfeval._score import ScoreArg, class_scores, is_class, score_valid
from clfeval._validate import Frame, Missing, check_proba_sums, is_score

__all__ = ["brier", "calibration", "ece", "log_loss"]

EPS = sys.float_info.epsilon  # float64 machine epsilon: scikit-learn's clip for log loss
F64 = pl.Float64


def _mean(value: pl.Expr, valid: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    """The (weighted) mean of ``value`` over valid rows; null when none is left.

    The valid rows are filtered, not masked: an eager ``select`` holds each intermediate
    column of the tree, and a mask would add a full column of zeros per sum.
    """
    num = (value if w is None else w * value).filter(valid).sum()
    den = _total(valid, w)
    return pl.when(den > 0).then(num / den).otherwise(None)


def _total(valid: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    """The number (or the total weight) of the valid rows, as a float."""
    return valid.sum().cast(F64) if w is None else w.filter(valid).sum()


def _by_class_mean(
    pos: pl.Expr,
    p: pl.Expr,
    valid: pl.Expr,
    w: pl.Expr | None,
    on_pos: Callable[[pl.Expr], pl.Expr],
    on_neg: Callable[[pl.Expr], pl.Expr],
) -> pl.Expr:
    """The (weighted) mean over valid rows of ``on_pos(p)`` on positives, ``on_neg(p)`` on the
    others; null when none is left.

    Each class's probabilities are filtered before its formula runs, so the intermediate
    columns an eager ``select`` holds cover one class each, not every row.
    """
    sums = []
    for rows, formula in ((valid & pos, on_pos), (valid & ~pos, on_neg)):
        value = formula(p.filter(rows))
        sums.append((value if w is None else w.filter(rows) * value).sum())
    den = _total(valid, w)
    return pl.when(den > 0).then((sums[0] + sums[1]) / den).otherwise(None)


def _clip(p: pl.Expr) -> pl.Expr:
    return p.clip(EPS, 1 - EPS)


def log_loss(
    y: IntoExpr,
    proba: ScoreArg,
    *,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Log loss: the (weighted) mean of −log p(actual class), p clipped to [ε, 1 − ε].

    ε is the float64 machine epsilon, as scikit-learn, so a confident wrong answer costs
    about 36, not infinity. Binary: ``proba`` is the probability of ``pos_label`` (the other
    class gets 1 − p). Null when no row is left. Multiclass rows whose class has no column
    are left out, like rows with a null (or NaN) value.

    See Also
    --------
    clf_log_loss : the SQL twin.
    sklearn.metrics.log_loss : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1], "p": [0.9, 0.2, 0.6]})
    >>> round(df.select(log_loss("y", "p")).item(), 4)
    0.2798
    """
    yv, w = col(y, "y"), weight_expr(weight)
    per_class = class_scores(proba, labels, "proba")
    if per_class is None:
        _options.class_value("pos_label", pos_label)
        p = col(proba, "proba").cast(F64)  # type: ignore[arg-type]
        valid, pos = score_valid(yv, [p], w), (yv == pos_label).fill_null(False)
        loss = _by_class_mean(
            pos, p, valid, w, lambda q: -_clip(q).log(), lambda q: -_clip(1 - q).log()
        )
        return guard(loss, weight, [p]).alias("log_loss")
    classes, columns = per_class
    valid = score_valid(yv, columns, w) & is_class(yv, classes)
    own = pl.coalesce([pl.when(yv == c).then(_clip(p)) for c, p in zip(classes, columns)])
    return guard(_mean(-own.log(), valid, w), weight, columns).alias("log_loss")


def brier(
    y: IntoExpr,
    proba: ScoreArg,
    *,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Brier score: the (weighted) mean squared gap between probabilities and outcomes.

    Binary: mean of (1[y = pos_label] − p)². Multiclass (scikit-learn 1.9): mean over rows of
    Σ_c (1[y = c] − p_c)², halved when there are only two columns, so two columns give the
    binary score. Null when no row is left; rows whose class has no column are left out.

    See Also
    --------
    clf_brier : the SQL twin.
    sklearn.metrics.brier_score_loss : the same number.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
    >>> round(df.select(brier("y", "p")).item(), 4)
    0.0375
    """
    yv, w = col(y, "y"), weight_expr(weight)
    per_class = class_scores(proba, labels, "proba")
    if per_class is None:
        _options.class_value("pos_label", pos_label)
        p = col(proba, "proba").cast(F64)  # type: ignore[arg-type]
        valid, pos = score_valid(yv, [p], w), (yv == pos_label).fill_null(False)
        score = _by_class_mean(pos, p, valid, w, lambda q: (1 - q).pow(2), lambda q: q.pow(2))
        return guard(score, weight, [p]).alias("brier")
    classes, columns = per_class
    valid = score_valid(yv, columns, w) & is_class(yv, classes)
    squares = pl.sum_horizontal([((yv == c).cast(F64) - p) ** 2 for c, p in zip(classes, columns)])
    if len(classes) < 3:
        squares = squares * 0.5
    return guard(_mean(squares, valid, w), weight, columns).alias("brier")


def uniform_edges(n_bins: int) -> list[float]:
    """``np.linspace(0, 1, n_bins + 1)`` exactly (i·(1/n), then 1.0)."""
    step = 1.0 / n_bins
    return [i * step for i in range(n_bins)] + [1.0]


def bin_parts(p: pl.Expr, n_bins: int) -> tuple[pl.Expr, pl.Expr]:
    """k = round(p·n) and [p ≤ k·(1/n)]: the bin is k minus the second, before its clip.

    For p in the bins' range k − [p ≤ k·(1/n)] is the bin; p = 0 gives −1 and values outside
    [0, 1] fall past the ends, so ``clip(0, n − 1)`` gives the bin. Exact: p·n is within half
    a step of the edge k, so p can only be on either side of that one edge, and the edge is
    computed as :func:`uniform_edges` computes it. No search; grouping by both parts and
    folding them after the group-by spares the subtraction and the clip per row.
    """
    k = (p * n_bins).round()
    return k, p <= k * (1.0 / n_bins)


def bin_key(k: pl.Expr, at_or_below: pl.Expr, n_bins: int) -> pl.Expr:
    """The bin from :func:`bin_parts`: k − [p ≤ k·(1/n)], clipped to 0 … n − 1."""
    return (k - at_or_below.cast(F64)).clip(0.0, float(n_bins - 1)).cast(pl.Int64)


def uniform_bin(p: pl.Expr, n_bins: int) -> pl.Expr:
    """The bin of ``p`` among ``n_bins`` equal bins of [0, 1]: the inner edges of
    :func:`uniform_edges` below ``p`` (``np.searchsorted(edges[1:-1], p)``: a value on an
    inner edge goes to the lower bin), bit for bit; values outside [0, 1] go to the end bins.
    """
    return bin_key(*bin_parts(p, n_bins), n_bins)


def ece(
    y: IntoExpr,
    proba: ScoreArg,
    *,
    n_bins: int = 10,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    kind: Literal["expected", "max"] = "expected",
    weight: IntoExpr | None = None,
) -> pl.Expr:
    """Expected calibration error: Σ_b (n_b / n)·|acc_b − conf_b| over uniform bins of p.

    Binary: p is the probability of ``pos_label``, acc_b the share of ``pos_label`` in bin b
    and conf_b the mean p there; bins are [0, 1/n], (1/n, 2/n], ... as :func:`calibration`
    (the same points, summarised). Multiclass (per-class probabilities): the top-label error
    of Guo et al. (2017), as torchmetrics computes it: p is the largest probability of the
    row, and acc_b the share of rows whose actual class has it (ties go to the first class
    in ``labels`` order). ``kind="max"`` gives the maximum calibration error,
    max_b |acc_b − conf_b| over non-empty bins. Null when no row is left.

    See Also
    --------
    calibration : the bins themselves.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
    >>> round(df.select(ece("y", "p", n_bins=2)).item(), 4)
    0.175
    """
    n_bins = _options.n_bins(n_bins)
    _options.choice(
        "kind",
        kind,
        ("expected", "max"),
        "'expected' weighs each bin by its size, 'max' takes the worst bin",
    )
    yv, w = col(y, "y"), weight_expr(weight)
    per_class = class_scores(proba, labels, "proba")
    if per_class is None:
        _options.class_value("pos_label", pos_label)
        p = col(proba, "proba").cast(F64)  # type: ignore[arg-type]
        columns, hit, valid = [p], (yv == pos_label), score_valid(yv, [p], w)
    else:
        classes, columns = per_class
        p = pl.max_horizontal(columns)
        top = pl.coalesce([pl.when(q == p).then(pl.lit(c)) for c, q in zip(classes, columns)])
        hit, valid = yv == top, score_valid(yv, columns, w) & is_class(yv, classes)
    pv = p.filter(valid)
    bins = uniform_bin(pv, n_bins)
    wv = (valid.cast(F64) if w is None else w).filter(valid)
    gap = wv * (hit.cast(F64).filter(valid) - pv)
    gaps = sums_by_key(bins, gap)[1]
    total = wv.sum()
    if kind == "expected":
        value = gaps.abs().sum() / total
    else:
        sizes = sums_by_key(bins, wv)[1]
        value = pl.when(sizes > 0).then(gaps.abs() / sizes).max()
    value = guard(pl.when(total > 0).then(value).otherwise(None), weight, columns)
    return value.alias("ece" if kind == "expected" else "mce")


# --- front-door checks and the calibration curve -------------------------------------------


def _quantile_edges(n_bins: int) -> pl.Expr:
    """``np.percentile(p, linspace(0, 100, n_bins + 1))`` as a List (linear, numpy's lerp).

    The sorted scores are packed once and the edges computed in ``list.eval``, so the sort
    runs once per group.
    """
    q = pl.lit(pl.Series([(x * 100) / 100 for x in uniform_edges(n_bins)], dtype=F64))
    e = pl.element()
    n = e.len().cast(F64)
    index = (n - 1) * q
    below = index.floor()
    at_end = index >= n - 1
    lo = pl.when(at_end).then(n - 1).otherwise(below).cast(pl.Int64)
    hi = pl.when(at_end).then(n - 1).otherwise(below + 1).cast(pl.Int64)
    t = index - below
    a, b = e.gather(lo), e.gather(hi)
    edge = pl.when(t >= 0.5).then(b - (b - a) * (1 - t)).otherwise(a + (b - a) * t)
    return pl.col(S).sort().implode().list.eval(edge).alias("__clf_edges")


@frame_input("calibration")
@comparable("proba")
def calibration(
    data: Frame,
    y: str,
    proba: FrameScore | None = None,
    *,
    n_bins: int = 10,
    strategy: Literal["uniform", "quantile"] = "uniform",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
) -> Frame:
    """Calibration curve: ``bin, mean_predicted, fraction_positive, count`` per non-empty bin.

    Bins split [0, 1] evenly (``"uniform"``) or at the quantiles of p (``"quantile"``); a value
    on an inner edge goes to the lower bin, as scikit-learn's ``calibration_curve``, which
    gives the same points. mean_predicted is the mean probability in the bin, fraction_positive
    the share of ``pos_label``; with ``weight`` both are weighted and count is the total weight
    (quantile edges stay unweighted). Probabilities outside [0, 1] raise; per-class columns
    give one-vs-rest curves with a ``label`` column, and their rows must sum to 1.

    ``models=`` (instead of ``proba``) compares the proba columns of a wide frame, as
    a list or ``{name: column}``: one result per model, with a ``model`` column first.

    See Also
    --------
    clf_calibration : the SQL twin.
    sklearn.calibration.calibration_curve : the same points.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> calibration(df, "y", "p", n_bins=2)["fraction_positive"].to_list()
    [0.3333333333333333, 1.0]
    """
    n_bins = _options.n_bins(n_bins)
    _options.choice(
        "strategy",
        strategy,
        ("uniform", "quantile"),
        "'uniform' splits [0, 1] evenly, 'quantile' puts as many rows in each bin",
    )
    prep, long, keys = setup(
        data,
        y,
        proba,
        pos_label=pos_label,
        labels=labels,
        by=by,
        weight=weight,
        missing=missing,
        nonfinite=nonfinite,
        probability=True,
    )
    if K in keys:
        named = {r: c for r, c in prep.roles.items() if is_score(r)}
        check_proba_sums(prep, named)
    if weight is not None:
        long = long.filter(pl.col(W) != 0)
    uniform = strategy == "uniform" or n_bins == 1
    if uniform:  # by the bin's two parts, folded into the bin after the group-by
        k, at_or_below = bin_parts(pl.col(S), n_bins)
        long = long.with_columns(k.alias("bin"), at_or_below.alias("__clf_below"))
    else:
        table = (
            long.group_by(keys).agg(_quantile_edges(n_bins))
            if keys
            else long.select(_quantile_edges(n_bins))
        )
        # one column per inner edge (not a list per row), then count the edges below p
        inner_edges = [f"__clf_e{i}" for i in range(1, n_bins)]
        table = table.select(
            *keys,
            *[pl.col("__clf_edges").list.get(i).alias(e) for i, e in enumerate(inner_edges, 1)],
        )
        joined = (
            long.join(table, on=keys, how="left", nulls_equal=True)
            if keys
            else long.join(table, how="cross")
        )
        below = [(pl.col(S) > pl.col(e)).cast(pl.Int64) for e in inner_edges]
        long = joined.with_columns(pl.sum_horizontal(below).alias("bin"))
    if weight is not None:
        sums = [
            (pl.col(W) * pl.col(S)).sum().alias("__clf_sp"),
            (pl.col(W) * pl.col(POS).cast(F64)).sum().alias("__clf_sy"),
            pl.col(W).sum().alias("__clf_sw"),
        ]
        size = pl.col("__clf_sw").alias("count")
    else:  # the same sums without a weight of 1.0 per row
        sums = [
            pl.col(S).sum().alias("__clf_sp"),
            pl.col(POS).sum().cast(F64).alias("__clf_sy"),
            pl.len().cast(pl.Int64).alias("count"),
        ]
        size = pl.col("count").cast(F64).alias("__clf_sw")
    if uniform:
        table = long.group_by([*keys, "bin", "__clf_below"]).agg(*sums)
        folded = bin_key(pl.col("bin"), pl.col("__clf_below"), n_bins)
        table = (
            table.with_columns(folded)
            .drop("__clf_below")
            .group_by([*keys, "bin"])
            .agg(pl.all().sum())
        )
    else:
        table = long.group_by([*keys, "bin"]).agg(*sums)
    out = (
        table.with_columns(size)
        .with_columns(
            pl.col("bin").cast(pl.Int64),
            (pl.col("__clf_sp") / pl.col("__clf_sw")).alias("mean_predicted"),
            (pl.col("__clf_sy") / pl.col("__clf_sw")).alias("fraction_positive"),
        )
        .sort([*keys, "bin"], nulls_last=True)
    )
    return finish(prep, out, keys, "bin", "mean_predicted", "fraction_positive", "count")
