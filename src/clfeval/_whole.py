"""AUROC and average precision of one whole eager column, as a one-row frame.

The frame functions' plan for an eager, unweighted, ungrouped binary score with mostly
distinct values. Each class is value-sorted once (one Polars query, both sorts in parallel);
the counts then come from one merge of the two sorted classes: NumPy's stable sort finds the
two runs and merges them in linear time, about a third of the cost of the binary searches
that the expressions (:func:`clfeval._score.auroc_of_sorted`) run inside ``list.eval``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
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
    negatives = s.filter(valid & ~pos)
    classes = frame.select(
        negatives.sort().append(s.filter(valid & pos).sort()).implode().alias("s"),
        negatives.len().alias("n"),
    ).collect()
    n = classes["n"][0]
    both = classes["s"][0].to_numpy()  # one contiguous buffer: negatives, then positives
    del classes
    below, at_or_below = negatives_below(both, n)
    formula = {"auroc": _auroc, "average_precision": _average_precision}
    values = {name: [formula[name](both[:n], both[n:], below, at_or_below)] for name in names}
    return pl.DataFrame(values, schema=dict.fromkeys(names, F64)).lazy()


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
