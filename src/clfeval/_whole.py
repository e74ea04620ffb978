"""AUROC and average precision of one whole eager column (binary or one-vs-rest), one row.

The frame functions' plan for eager, unweighted, ungrouped scores with mostly distinct values.
Each class's scores are value-sorted once, against the rest (one Polars query, the row filter
computed once); the counts then come from one merge of the two sorted sides: NumPy's stable
sort finds the two runs and merges them in linear time, about a third of the cost of the
binary searches that the expressions (:func:`clfeval._score.auroc_of_sorted`) run inside
``list.eval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from clfeval._score import Average, class_scores, combine, is_class, score_valid

F64 = pl.Float64
WHOLE = ("auroc", "average_precision")


def whole_scores(
    frame: pl.LazyFrame,
    y: str,
    score: Any,
    pos_label: Any,
    names: list[str],
    labels: Sequence[Any] | None = None,
    average: Average = "macro",
) -> pl.LazyFrame:
    """One row, one Float64 column per name in ``names`` (among :data:`WHOLE`).

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
    # fixed names, so the row filter is computed once (no user column can be overwritten)
    named = [s.alias(f"s{k}") for k, s in enumerate(scores)]
    rows = frame.select(yv.alias("y"), valid.alias("valid"), *named)
    query, y_row, valid_row = [], pl.col("y"), pl.col("valid")
    for k, c in enumerate(classes):
        pos, s = (y_row == c).fill_null(False), pl.col(f"s{k}")
        negatives = s.filter(valid_row & ~pos)
        both = negatives.sort().append(s.filter(valid_row & pos).sort())
        query += [both.implode().alias(f"s{k}"), negatives.len().alias(f"n{k}")]
    # DataFrame.select's engine: the sorts take 20-30% longer under "auto"
    sorted_ = rows.select(query).collect(engine="in-memory")
    values: dict[str, list[float | None]] = {name: [] for name in names}
    support = []
    for k in range(len(classes)):
        n = sorted_[f"n{k}"][0]
        both = sorted_[f"s{k}"][0].to_numpy()  # one contiguous buffer: negatives, positives
        below, at_or_below = negatives_below(both, n)
        for name in names:
            values[name].append(FORMULA[name](both[:n], both[n:], below, at_or_below))
        support.append(float(len(both) - n))
    if isinstance(score, str):
        return pl.DataFrame(values, schema=dict.fromkeys(names, F64)).lazy()
    weights = [pl.lit(p, F64) for p in support]
    averaged = [
        combine([pl.lit(v, F64) for v in values[n]], weights, average).alias(n) for n in names
    ]
    return pl.select(averaged).lazy()


def negatives_below(both: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per positive: the negatives scored below it, and at or below it. ``both`` holds the
    ``n`` negatives' scores sorted ascending, then the positives' sorted ascending.

    A stable merge with the negatives first puts each positive right after the negatives
    scored at or below it, so that count is its merged position minus its rank among the
    positives. A positive with a tied negative (the negative just before it is equal, -0.0
    equal to 0.0) gets its count below from a binary search; for the others the two agree.
    """
    negatives, positives = both[:n], both[n:]
    p = len(positives)
    if n == 0 or p == 0:
        return np.zeros(p, np.int64), np.zeros(p, np.int64)
    order = np.argsort(both, kind="stable")  # two sorted runs: one linear merge
    at_or_below = np.flatnonzero(order >= n)
    del order
    at_or_below -= np.arange(p)
    tied = (at_or_below > 0) & (negatives[np.maximum(at_or_below - 1, 0)] == positives)
    below = at_or_below.copy()
    below[tied] = np.searchsorted(negatives, positives[tied], side="left")
    return below, at_or_below


def _auroc(
    negatives: np.ndarray, positives: np.ndarray, below: np.ndarray, at_or_below: np.ndarray
) -> float | None:
    """Σ over positives of (#negatives below + #negatives at or below) / 2, over P·N (ties
    count ½); None unless both classes are present."""
    n, p = len(negatives), len(positives)
    if n == 0 or p == 0:
        return None
    pairs = int(below.sum()) + int(at_or_below.sum())  # exact: integer counts
    return float(pairs) / 2.0 / p / n


def _average_precision(
    negatives: np.ndarray, positives: np.ndarray, below: np.ndarray, at_or_below: np.ndarray
) -> float | None:
    """(1/P) Σ over positives of tp/(tp + fp) at their score t, tp = P − (positives below t),
    fp = N − (negatives below t); None without positives."""
    n, p = len(negatives), len(positives)
    if p == 0:
        return None
    i = np.arange(p)
    starts = np.ones(p, dtype=bool)
    starts[1:] = positives[1:] != positives[:-1]  # the first of each run of equal scores
    tp = p - np.maximum.accumulate(np.where(starts, i, 0))
    fp = n - below
    return float(np.sum(tp / (tp + fp))) / p


FORMULA = {"auroc": _auroc, "average_precision": _average_precision}
