"""One shared grid of thresholds and the exact counts at each: the explorer's data.

The grid is uniform, in round decimal steps (1, 2 or 5 times a power of ten), covers every
series' whole score range, holds the start threshold exactly, and has at most a budget of
values whatever the input size. The counts at a grid value ``t`` are those of the rule
``score >= t``: the counts of the smallest distinct score at or above ``t`` (a forward as-of
join on the cumulative counts of :func:`clfeval.thresholds`), nothing predicted positive
above the highest score. No series is thinned on its own, so every series has a row at
every grid value (runs of equal counts are stored once and looked up backwards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

MAX_GRID = 1_001  # thresholds per series at most


@dataclass(frozen=True)
class Grid:
    """``first + k * step`` for ``k`` in ``0 .. n - 1``, shown with ``digits`` decimals."""

    first: float
    step: float
    n: int
    digits: int

    @property
    def last(self) -> float:
        return self.value(self.n - 1)

    def value(self, k: int) -> float:
        """The ``k``-th threshold: the float nearest its decimal value (as a browser reads it)."""
        return round(self.first + k * self.step, self.digits)

    def values(self) -> list[float]:
        return [self.value(k) for k in range(self.n)]

    def index(self, t: float) -> int:
        return round((t - self.first) / self.step)


def _decimals(x: float) -> int:
    """Decimal places of ``x``'s shortest representation (at most 12)."""
    text = f"{x:.12f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def threshold_grid(lo: float, hi: float, start: float, *, max_values: int = MAX_GRID) -> Grid:
    """The grid over ``[min(lo, start), max(hi, start)]`` through ``start``, in the finest round
    step that keeps it to ``max_values`` values.

    Examples
    --------
    >>> g = threshold_grid(0.013, 0.97, 0.5)
    >>> g.first, g.step, g.n, g.value(g.index(0.5))
    (0.013, 0.001, 958, 0.5)
    """
    lo, hi = min(lo, start), max(hi, start)
    max_values = max(3, max_values)
    span = hi - lo
    if not span > 0:
        return Grid(start, 1.0, 1, _decimals(start))
    power = math.floor(math.log10(span / (max_values - 1)))
    for exponent in range(power, power + 3):
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0**exponent
            digits = max(0, -exponent, _decimals(start))
            below = math.floor((start - lo) / step + 1e-9)
            above = math.floor((hi - start) / step + 1e-9)
            first = round(start - below * step, digits)
            if first > lo:
                below, first = below + 1, round(start - (below + 1) * step, digits)
            last = round(start + above * step, digits)
            if last < hi:
                above += 1
            n = below + above + 1
            if n <= max_values:
                return Grid(first, round(step, max(0, -exponent)), n, digits)
    raise AssertionError("unreachable: 5 * 10^(power + 2) spans the range in < 3 steps")


def grid_counts(raw: pl.DataFrame, grid: Grid) -> pl.DataFrame:
    """``series, k, tp, fp, fn, tn`` at every grid value of every series of ``raw`` (a frame
    with ``series``, finite ``threshold`` and the four counts, one row per distinct score),
    keeping only the rows where a count changes from the grid value before (and ``k = 0``).
    """
    totals = raw.group_by("series", maintain_order=True).agg(
        (pl.col("tp") + pl.col("fn")).first().alias("_p"),
        (pl.col("fp") + pl.col("tn")).first().alias("_n"),
    )
    values = pl.DataFrame(
        {"k": pl.int_range(grid.n, eager=True, dtype=pl.Int64), "threshold": grid.values()}
    )
    left = totals.join(values, how="cross").sort("threshold")
    right = raw.select("series", "threshold", "tp", "fp").sort("threshold")
    joined = left.join_asof(
        right, on="threshold", by="series", strategy="forward", check_sortedness=False
    )  # both sorted by threshold, so within each series too
    dtype = raw.schema["tp"]
    counted = joined.select(
        "series",
        "k",
        pl.col("tp").fill_null(pl.lit(0, dtype)),
        pl.col("fp").fill_null(pl.lit(0, dtype)),
        "_p",
        "_n",
    ).with_columns(fn=pl.col("_p") - pl.col("tp"), tn=pl.col("_n") - pl.col("fp"))
    order = totals.select("series").with_row_index("_s")
    counted = counted.join(order, on="series").sort("_s", "k")
    same = (pl.col("tp") == pl.col("tp").shift(1).over("_s")) & (
        pl.col("fp") == pl.col("fp").shift(1).over("_s")
    )
    changed = (pl.col("k") == 0) | ~same.fill_null(False)
    return counted.filter(changed).select("series", "k", "tp", "fp", "fn", "tn")
