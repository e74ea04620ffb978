"""AUROC and average precision of one whole eager column, as a one-row frame.

The frame functions' plan for an eager, unweighted, ungrouped binary score with mostly
distinct values: each class is value-sorted once (one query), then counted by binary searches
on the two sorted Series. The formulas are :func:`clfeval._score.auroc_of_sorted` and
:func:`clfeval._score.ap_of_sorted`, run on the two Series in a plain ``select``: inside
``list.eval`` (the expressions' form) each search copies both classes (80 MB at 10M rows).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clfeval._score import ap_of_sorted, auroc_of_sorted, score_valid

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
    counts = (pl.lit(float(len(positives))), pl.lit(float(len(negatives))))
    formula = {"auroc": auroc_of_sorted, "average_precision": ap_of_sorted}
    # the plan is chosen for mostly distinct scores: one binary search per row, no encoding
    sides = (pl.lit(negatives), pl.lit(positives), *counts)
    values = [formula[n](*sides, runs=False).alias(n) for n in names]
    return pl.select(values).lazy()
