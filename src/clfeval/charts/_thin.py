"""Curve thinning: at most a budget of points per curve, the drawn line kept; step curves made
explicit; the probit scale of DET curves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import polars as pl

from clfeval.charts._data import MAX_POINTS

_INF = float("inf")
_FLAT = 1e-9  # |sin| of the turn below which three points count as collinear
_P5 = 2.866515718791939e-07  # the normal probability below -5
_GRID = 4096  # cells per axis for the first, coarse pass over very long curves
# Twice the area of the triangle a point makes with its neighbours, in units of the axis
# ranges, under which the point goes: on a 1,000-pixel plot, a point 0.2 pixel off the line
# between neighbours 5 pixels apart. Smooth curves keep their shape and lose most of their rows.
TOLERANCE = 1e-6
_ROUNDS = 16


def staircase(frame: pl.DataFrame, move: Sequence[str], hold: Sequence[str] = ()) -> pl.DataFrame:
    """Insert the corner a step line draws between consecutive rows of a series.

    The corner after row ``i`` is row ``i`` with the ``move`` columns taken from row
    ``i + 1``, flagged ``corner`` (and with no ``threshold`` unless it moves), so a step
    curve becomes a polyline that can be drawn straight and thinned by its real shape.
    A corner is only inserted where it is one: where a ``move`` column and a ``hold``
    column (the other drawn coordinates) both change. A corner on a point would repeat it,
    and a repeated point can never be thinned away, which left the budget to the points
    that give the curve its shape.
    """

    def changes(columns: Sequence[str]) -> pl.Expr:
        moved = [(pl.col(c).shift(-1).over("_sid") != pl.col(c)).fill_null(False) for c in columns]
        return pl.any_horizontal(moved) if moved else pl.lit(True)

    nxt = [pl.col(c).shift(-1).over("_sid").alias(c) for c in move]
    corners = frame.with_columns(_step=changes(move) & changes(hold))
    corners = corners.with_columns(*nxt, order=pl.col("order") + 0.5, corner=pl.lit(True))
    last = pl.col("order") < pl.col("order").max().over("_sid")
    corners = corners.filter(last & pl.col("_step")).drop("_step")
    if "threshold" not in move and "threshold" in frame.columns:
        corners = corners.with_columns(
            pl.lit(None, dtype=frame.schema["threshold"]).alias("threshold")
        )
    points = frame.with_columns(pl.col("order").cast(pl.Float64), corner=pl.lit(False))
    return pl.concat([points, corners]).sort("_sid", "order", maintain_order=True)


def _importance(planes: Sequence[tuple[str, str]], spans: Mapping[str, float]) -> pl.Expr:
    """Twice the triangle area a point makes with its neighbours, the largest over planes.

    A point with no area that lies strictly between its neighbours can go without
    changing the line, and so can a repeat of the point before it; a point the next one
    repeats stays (so a run of repeats keeps its first point). Ends of a series and
    points next to a null stay (infinite); a point with a null coordinate, which is not
    drawn in that plane, weighs nothing there.
    """
    edge = _ends()
    areas = []
    for x, y in planes:
        xn, yn = pl.col(x) / spans[x], pl.col(y) / spans[y]
        dx1, dy1, dx2, dy2 = (
            xn - xn.shift(1),
            yn - yn.shift(1),
            xn.shift(-1) - xn,
            yn.shift(-1) - yn,
        )
        area = (dx1 * dy2 - dy1 * dx2).abs()
        # collinear up to rounding: |sin(angle)| below 1e-9, whatever the segments' length
        norm = ((dx1 * dx1 + dy1 * dy1) * (dx2 * dx2 + dy2 * dy2)).sqrt()
        area = pl.when(area <= _FLAT * norm).then(0.0).otherwise(area)
        repeat = (dx1 == 0) & (dy1 == 0)
        repeated = (dx2 == 0) & (dy2 == 0)
        back = (dx1 * dx2 + dy1 * dy2 < 0) & (area == 0)
        own_null = pl.col(x).is_null() | pl.col(y).is_null()
        area = pl.when(own_null | repeat).then(0.0).when(repeated | back).then(_INF).otherwise(area)
        areas.append(area.fill_null(_INF).fill_nan(_INF))
    return pl.when(edge).then(_INF).otherwise(pl.max_horizontal(areas))


def thin(
    frame: pl.DataFrame, planes: Sequence[tuple[str, str]], max_points: int = MAX_POINTS
) -> pl.DataFrame:
    """Keep at most ``max_points`` rows per ``series``, dropping those that change the drawn
    lines least; ``planes`` are the (x, y) column pairs drawn from these rows.

    A series over ``20 * max_points`` rows first keeps only the first and last point of
    each run inside one cell of a 4096 x 4096 grid over the axis ranges (the line moves by
    under 1/2896 of a range, a tenth of a pixel). Then every point collinear with its
    neighbours in all planes goes: nothing drawn changes; then, in rounds, every point whose
    triangle with its neighbours is under ``TOLERANCE`` in all planes (never two neighbours
    in one round): no change a reader could see. Then, while a series is over
    budget, each round drops the local minima of the triangle area (Visvalingam-Whyatt,
    in parallel: never two neighbours at once). If only undroppable points remain, every
    k-th point is kept. Rows stay in order; the ends of each series always stay.
    """
    lows, spans = _ranges(frame, {c for plane in planes for c in plane})
    frame = coarse(frame, list(spans), max_points, lows, spans)
    frame = frame.filter(_importance(planes, spans) > 0)
    imp = pl.col("_imp")
    local_min = (imp <= imp.shift(1).fill_null(_INF)) & (imp < imp.shift(-1).fill_null(_INF))
    local_min = local_min & imp.is_finite()
    for _ in range(_ROUNDS):  # wiggles under a pixel go, whatever the budget
        marked = frame.with_columns(_imp=_importance(planes, spans)).with_columns(
            _min=local_min & (imp < TOLERANCE)
        )
        if not marked["_min"].any():
            break
        frame = marked.filter(~pl.col("_min")).drop("_imp", "_min")
    # Int64: the UInt32 length minus the budget wrapped round for a short series, which then
    # lost every local minimum in each round (a small group drawn as straight lines)
    excess = pl.len().over("_sid").cast(pl.Int64) - max_points
    while frame.height > max_points and _longest(frame) > max_points:
        marked = frame.with_columns(_imp=_importance(planes, spans)).with_columns(_min=local_min)
        if not marked["_min"].any():
            position, size = pl.int_range(pl.len()).over("_sid"), pl.len().over("_sid")
            stride = (size / max_points).ceil()
            keep = (position % stride == 0) | (position == size - 1)
            return frame.filter(keep)
        rank = pl.when(pl.col("_min")).then(imp).rank("ordinal").over("_sid")
        frame = marked.filter(~(pl.col("_min") & (rank <= excess))).drop("_imp", "_min")
    return frame


def _longest(frame: pl.DataFrame) -> int:
    """Rows in the longest series."""
    return int(frame.group_by("_sid").len().get_column("len").max() or 0)  # type: ignore[arg-type]


def _ranges(
    frame: pl.DataFrame, columns: Iterable[str]
) -> tuple[dict[str, float], dict[str, float]]:
    """The finite minimum and the range (1 when empty or constant) of each column."""
    lows, spans = {}, {}
    for c in columns:
        ok = pl.col(c).filter(pl.col(c).is_finite())
        lo, hi = frame.select(ok.min().alias("lo"), ok.max().alias("hi")).row(0)
        lows[c] = lo if lo is not None else 0.0
        spans[c] = hi - lo if lo is not None and hi is not None and hi > lo else 1.0
    return lows, spans


def coarse(
    frame: pl.DataFrame,
    columns: Sequence[str],
    max_points: int = MAX_POINTS,
    lows: Mapping[str, float] | None = None,
    spans: Mapping[str, float] | None = None,
) -> pl.DataFrame:
    """For a series over ``20 * max_points`` rows, keep only the first and last point of
    each run of rows inside one cell of a 4096-per-axis grid over ``columns``: the path
    between them stays in the cell, so nothing drawn moves by more than a cell."""
    if frame.height <= 20 * max_points or _longest(frame) <= 20 * max_points:
        return frame
    if lows is None or spans is None:
        lows, spans = _ranges(frame, columns)
    cells = [((pl.col(c) - lows[c]) / spans[c] * _GRID).floor() for c in columns]
    moved = [((cell != cell.shift(1)) | (cell != cell.shift(-1))).fill_null(True) for cell in cells]
    return frame.filter(pl.any_horizontal(moved) | _ends())


def _ends() -> pl.Expr:
    """True on the first and the last row of each series (rows of a series are together)."""
    sid = pl.col("_sid")
    first = (sid != sid.shift(1)).fill_null(True)
    last = (sid != sid.shift(-1)).fill_null(True)
    return first | last


def probit(p: pl.Expr) -> pl.Expr:
    """Normal quantile of ``p`` (Acklam's rational approximation, relative error < 1.2e-9),
    clamped to ±5 so that rates of 0 and 1 stay finite (Polars has no ``ndtri``)."""
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
         -30.66479806614716, 2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572, 1.0)  # fmt: skip
    c = (-7.784894002430293e-03, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
         4.374664141464968, 2.938163982698783)  # fmt: skip
    d = (7.784695709041462e-03, 0.3224671290700398, 2.445134137142996, 3.754408661907416, 1.0)

    def poly(coef: Sequence[float], x: pl.Expr) -> pl.Expr:
        out = pl.lit(coef[0])
        for k in coef[1:]:
            out = out * x + k
        return out

    p = p.clip(_P5, 1 - _P5)
    q = p - 0.5
    tail = pl.when(p < 0.5).then(p).otherwise(1 - p).log().mul(-2).sqrt()
    tail_x = poly(c, tail) / poly(d, tail)
    central = poly(a, q * q) * q / poly(b, q * q)
    low, high = p <= 0.02425, p >= 1 - 0.02425
    return pl.when(low).then(tail_x).when(high).then(-tail_x).otherwise(central).clip(-5.0, 5.0)
