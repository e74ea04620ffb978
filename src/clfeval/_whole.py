"""AUROC and average precision of one whole eager column, as a one-row frame.

The frame functions' plan for an eager, unweighted, ungrouped binary score with mostly
distinct values: each class is value-sorted once (one query), then counted by binary searches
on the two sorted Series. The formulas are those of :func:`clfeval._score.sorted_auroc` and
:func:`clfeval._score.sorted_ap`, which run them inside ``list.eval``; there each search copies
both classes (80 MB at 10M rows), here it allocates only its result.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clfeval._score import score_valid

F64 = pl.Float64
WHOLE = ("auroc", "average_precision")


def whole_scores(
    frame: pl.LazyFrame, y: str, score: str, pos_label: Any, names: list[str]
) -> pl.LazyFrame:
    """One row, one Float64 column per name in ``names`` (among :data:`WHOLE`).

    Rows with a null or a NaN score are left out, as the expressions do.
    """
    yv, s = pl.col(y), pl.col(score).cast(F64)
    valid = score_valid(yv, [s], None)
    pos = (yv == pos_label).fill_null(False)
    classes = frame.select(
        s.filter(valid & ~pos).sort().implode().alias("neg"),
        s.filter(valid & pos).sort().implode().alias("pos"),
    ).collect()
    negatives, positives = classes["neg"][0], classes["pos"][0]
    metric = {"auroc": _auroc, "average_precision": _average_precision}
    values = {n: metric[n](negatives, positives) for n in names}
    return pl.LazyFrame({n: [v] for n, v in values.items()}, schema=dict.fromkeys(names, F64))


def _auroc(negatives: pl.Series, positives: pl.Series) -> float | None:
    """Σ over positives of (#negatives below + #negatives at or below) / 2, over P·N (ties
    count ½: Mann–Whitney); None unless both classes are present."""
    n_pos, n_neg = len(positives), len(negatives)
    if not n_pos or not n_neg:
        return None
    below = negatives.search_sorted(positives, side="left").cast(pl.Int64).sum()
    at_or_below = negatives.search_sorted(positives, side="right").cast(pl.Int64).sum()
    return float(below + at_or_below) / 2.0 / float(n_pos) / float(n_neg)


def _average_precision(negatives: pl.Series, positives: pl.Series) -> float | None:
    """(1/P) Σ over positives of tp/(tp + fp) at their score; None without positives.

    At a positive's score t, tp = P − (positives below t: the first index of t among the
    sorted positives) and fp = N − (negatives below t: a binary search).
    """
    n_pos, n_neg = float(len(positives)), float(len(negatives))
    if not n_pos:
        return None
    below = negatives.search_sorted(positives, side="left")
    frame = pl.DataFrame({"p": positives, "b": below})
    p = pl.col("p")
    i = pl.int_range(pl.len(), dtype=pl.Int64)
    first = pl.when((p != p.shift(1)).fill_null(True)).then(i).otherwise(0)
    tp = n_pos - first.cum_max().cast(F64)
    fp = n_neg - pl.col("b").cast(F64)
    return frame.select((tp / (tp + fp)).sum() / n_pos).item()
