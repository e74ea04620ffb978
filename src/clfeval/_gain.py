"""Cumulative gain and lift curves: formulas over the threshold counts of :mod:`clfeval._curves`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clfeval._curves import (
    FP,
    NN,
    NP,
    TP,
    FrameScore,
    counts_table,
    finish,
    rate,
    with_start,
)
from clfeval._frames import frame_input
from clfeval._models import Models, comparable
from clfeval._validate import Frame, Missing, Prepared

__all__ = ["gain_curve", "lift_curve"]


def _gain_table(
    data: Frame, y: str, score: FrameScore, pos_label: Any, labels: Sequence[Any] | None,
    by: Any, weight: str | None, missing: Missing, nonfinite: Missing, start: bool,
) -> tuple[Prepared, pl.LazyFrame, list[str]]:  # fmt: skip
    prep, table, keys, _ = counts_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite
    )
    if start:
        table = with_start(table, keys, tp=0, fp=0)
    total = pl.col(NP) + pl.col(NN)
    return (
        prep,
        table.with_columns(
            rate(pl.col(TP) + pl.col(FP), total).alias("fraction_targeted"),
            rate(pl.col(TP), pl.col(NP)).alias("gain"),
        ),
        keys,
    )


@frame_input("gain_curve")
@comparable("score")
def gain_curve(
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
    """Cumulative gain: ``fraction_targeted, gain``, the share of positives in the top rows.

    fraction_targeted is the share of rows flagged and gain the share of positives caught when
    targeting the rows with the highest scores first: one point per distinct score (ties are
    targeted together), from (0, 0) to (1, 1). gain is null in a group without positives.

    See Also
    --------
    clf_gain : the SQL twin.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> gain_curve(df, "y", "s")["gain"].to_list()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    """
    prep, out, keys = _gain_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite, start=True
    )
    return finish(prep, out, keys, "fraction_targeted", "gain")


@frame_input("lift_curve")
@comparable("score")
def lift_curve(
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
    """Lift: ``fraction_targeted, lift`` with lift = gain / fraction_targeted.

    How many times more positives the top-scored rows hold than a random pick of the same
    size: one point per distinct score, highest first, ending at lift 1. The origin of the
    gain curve is left out (0/0). lift is null in a group without positives.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> lift_curve(df, "y", "s")["lift"].to_list()
    [2.0, 1.0, 1.3333333333333333, 1.0]
    """
    prep, out, keys = _gain_table(
        data, y, score, pos_label, labels, by, weight, missing, nonfinite, start=False
    )
    out = out.with_columns(rate(pl.col("gain"), pl.col("fraction_targeted")).alias("lift"))
    return finish(prep, out, keys, "fraction_targeted", "lift")
