"""AUROC and average precision of one whole eager column (binary or one-vs-rest), one row.

The frame functions' plan for eager, unweighted, ungrouped scores with mostly distinct values.
Each class's scores are value-sorted once, against the rest (one Polars query per class, the
row filter computed once for all); the counts then come from one NumPy binary search per
positive, a second one only where a positive ties with a negative. The expressions
(:func:`clfeval._score.auroc_of_sorted`) run two searches per distinct positive score inside
``list.eval``, which copies both classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from clfeval._score import Average, class_scores, combine, is_class, score_valid

F64 = pl.Float64


def whole_names(
    names: list[str], per_class: bool, average: Any, multi_class: str, max_fpr: float | None
) -> list[str]:
    """The metrics among ``names`` this plan computes: AUROC (not partial) and average
    precision, binary or one-vs-rest macro or weighted; the expressions do the rest (one
    value per class, micro, one-vs-one, partial AUROC)."""
    if per_class and average not in ("macro", "weighted"):
        return []
    auroc = max_fpr in (None, 1) and (not per_class or multi_class == "ovr")
    return [n for n in names if n == "average_precision" or (n == "auroc" and auroc)]


def whole_scores(
    frame: pl.LazyFrame,
    y: str,
    score: Any,
    pos_label: Any,
    names: list[str],
    labels: Sequence[Any] | None = None,
    average: Average = "macro",
) -> pl.LazyFrame:
    """One row, one Float64 column per name in ``names`` (from :func:`whole_names`).

    ``score`` is one column (binary, ``pos_label`` the positive class) or one column per
    class, as the expressions take it: one-vs-rest, each class against the rest, then the
    ``average`` (macro or weighted) of :func:`clfeval._score.combine`. Rows with a null or a
    NaN score (any class's) are left out, as the expressions do.
    """
    yv = pl.col(y)
    if isinstance(score, str):
        classes, scores = [pos_label], [pl.col(score).cast(F64)]
        valid = score_valid(yv, scores, None)
    else:
        classes, scores = class_scores(score, labels)  # type: ignore[misc]
        valid = score_valid(yv, scores, None) & is_class(yv, classes)
    keep = frame.select(valid).collect(engine="in-memory").to_series()  # computed once
    values: dict[str, list[float | None]] = {name: [] for name in names}
    support = []
    for c, s in zip(classes, scores):  # one class at a time: its two sorted sides in memory
        pos, ok = (yv == c).fill_null(False), pl.lit(keep)
        sides = frame.select(
            s.filter(ok & ~pos).sort().implode().alias("negatives"),
            s.filter(ok & pos).sort().implode().alias("positives"),
        ).collect(engine="in-memory")  # DataFrame.select's engine: "auto" sorts 20-30% slower
        negatives, positives = (sides[side][0].to_numpy() for side in sides.columns)
        below, at_or_below = negatives_below(negatives, positives)
        for name in names:
            values[name].append(FORMULA[name](negatives, positives, below, at_or_below))
        support.append(float(len(positives)))
    if isinstance(score, str):
        return pl.DataFrame(values, schema=dict.fromkeys(names, F64)).lazy()
    weights = [pl.lit(p, F64) for p in support]
    averaged = [
        combine([pl.lit(v, F64) for v in values[n]], weights, average).alias(n) for n in names
    ]
    return pl.select(averaged).lazy()


def negatives_below(negatives: np.ndarray, positives: np.ndarray) -> tuple[np.ndarray, int]:
    """Per positive, the negatives scored below it; and the total over positives of the
    negatives scored at or below it (both classes sorted ascending).

    One binary search per positive gives the count at or below (NumPy's search of sorted
    needles starts from the previous answer). Only a positive with a tied negative (the
    negative just before it is equal, -0.0 equal to 0.0) needs a second search, for the
    count below; for the others the two agree. Updated in place: few 8-byte columns.
    """
    below = np.searchsorted(negatives, positives, side="right")  # at or below, for now
    at_or_below = int(below.sum())
    if len(negatives) and len(positives):
        previous = below - 1
        np.maximum(previous, 0, out=previous)
        tied = negatives[previous] == positives
        del previous
        tied &= below > 0
        below[tied] = np.searchsorted(negatives, positives[tied], side="left")
    return below, at_or_below


def _auroc(
    negatives: np.ndarray, positives: np.ndarray, below: np.ndarray, at_or_below: int
) -> float | None:
    """Σ over positives of (#negatives below + #negatives at or below) / 2, over P·N (ties
    count ½); None unless both classes are present."""
    n, p = len(negatives), len(positives)
    if n == 0 or p == 0:
        return None
    pairs = int(below.sum()) + at_or_below  # exact: integer counts
    return float(pairs) / 2.0 / p / n


def _average_precision(
    negatives: np.ndarray, positives: np.ndarray, below: np.ndarray, at_or_below: int
) -> float | None:
    """(1/P) Σ over positives of tp/(tp + fp) at their score t, tp = P − (positives below t),
    fp = N − (negatives below t); None without positives."""
    n, p = len(negatives), len(positives)
    if p == 0:
        return None
    starts = np.ones(p, dtype=bool)
    starts[1:] = positives[1:] != positives[:-1]  # the first of each run of equal scores
    tp = np.arange(p)
    tp[~starts] = 0
    np.maximum.accumulate(tp, out=tp)  # the positives below each score
    np.subtract(p, tp, out=tp)
    predicted = np.subtract(n, below)  # fp, then tp + fp: in place, few 8-byte columns
    predicted += tp
    return float(np.sum(np.divide(tp, predicted))) / p


FORMULA = {"auroc": _auroc, "average_precision": _average_precision}
