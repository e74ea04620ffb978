"""The data side of plotting, and ``df.clf.plot``.

Chart data is shaped here with Polars before it reaches Altair: one ``series`` key
per group, curves thinned to a point budget, step curves made explicit, scores
binned. ``PlotNamespace`` computes a clfeval frame and hands it to ``charts``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

MAX_POINTS = 1_000  # points per curve
MAX_ROWS = 12_000  # rows per chart dataset: many series share this budget
MIN_POINTS = 50
_INF = float("inf")
_FLAT = 1e-12  # triangle area (in axis units) below which three points are collinear


def prepare(frame: Any, columns: Sequence[str], chart: str) -> tuple[pl.DataFrame, list[str]]:
    """Collect ``frame``, check it has ``columns``, add ``series``/``order``; return it and its keys.

    The keys are the columns before the first of ``columns``: the ``by`` columns and the
    one-vs-rest ``label``, which clfeval frames put first.
    """
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    if not isinstance(frame, pl.DataFrame):
        msg = f"the {chart} chart needs a polars DataFrame, got {type(frame).__name__}"
        hint = f"pass the frame clfeval.{chart}(...) returns"
        raise InputError(msg, role="frame", rule="frame_type", hint=hint)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        msg = f"the {chart} chart needs the columns {missing!r}"
        hint = f"the frame has {frame.columns!r}; pass the frame clfeval.{chart}(...) returns"
        raise InputError(msg, column=missing[0], role="frame", rule="missing_column", hint=hint)
    keys = frame.columns[: min(frame.columns.index(c) for c in columns)]
    return with_series(frame, keys), keys


def with_series(frame: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Replace the key columns by ``series`` (their values as one string, ``"all"`` without
    keys), keep each series' rows together in first-seen order and number rows in ``order``."""
    parts = [pl.col(k).cast(pl.String).fill_null("null") for k in keys]
    series = pl.concat_str(parts, separator=" · ") if keys else pl.lit("all")
    framed = frame.select(series.alias("series"), pl.exclude(keys))
    ids = framed.select(pl.col("series").unique(maintain_order=True)).with_row_index("_sid")
    framed = framed.join(ids, on="series", maintain_order="left")
    return framed.sort("_sid", maintain_order=True).with_columns(order=pl.int_range(pl.len()))


def labels(frame: pl.DataFrame, column: str = "series") -> list[str]:
    """The distinct values of ``column`` in first-seen order."""
    return frame.get_column(column).unique(maintain_order=True).to_list()


def budget(n_series: int, max_points: int) -> int:
    """Points per curve: ``max_points``, less when many series share ``MAX_ROWS``."""
    return max(MIN_POINTS, min(max_points, MAX_ROWS // max(n_series, 1)))


def per_series(frame: pl.DataFrame, expr: pl.Expr) -> dict[str, float | None]:
    """``expr`` aggregated within each series (in row order), keyed by series."""
    out = frame.group_by("series", maintain_order=True).agg(expr.alias("v"))
    return dict(zip(out["series"].to_list(), out["v"].to_list(), strict=True))


def given(
    values: float | pl.DataFrame | Mapping[str, float] | None, name: str
) -> dict[str, float | None] | None:
    """A user-given metric per series: a number, a frame of keys + ``name``, or a mapping."""
    if values is None or isinstance(values, (int, float)):
        return None if values is None else {"all": float(values)}
    if isinstance(values, pl.DataFrame):
        framed = with_series(values, [c for c in values.columns if c != name])
        return dict(zip(framed["series"].to_list(), framed[name].to_list(), strict=True))
    return {str(k): v for k, v in values.items()}


def finite(frame: pl.DataFrame) -> pl.DataFrame:
    """Null every NaN and ±inf in float columns: JSON has neither."""
    floats = [c for c, t in frame.schema.items() if t.is_float()]
    return frame.with_columns(pl.when(pl.col(c).is_finite()).then(pl.col(c)).alias(c) for c in floats)


def inline(frame: pl.DataFrame, *, digits: int = 6) -> alt.InlineData:
    """Rows as inline Vega-Lite data: finite floats rounded to ``digits`` (threshold columns
    keep full precision), other types as strings, nulls left out of each row.

    Inline data bypasses Altair's 5,000-row transformer and is deduplicated into the
    spec's top-level ``datasets``; the budget is kept by ``thin``/``MAX_ROWS`` instead.
    """
    import altair as alt

    frame = finite(frame.drop("_sid", strict=False))
    schema = frame.schema
    rounded = [c for c, t in schema.items() if t.is_float() and not c.startswith("threshold")]
    other = [c for c, t in schema.items() if not (t.is_numeric() or t in (pl.String, pl.Boolean))]
    frame = frame.with_columns(pl.col(rounded).round(digits), pl.col(other).cast(pl.String))
    rows = [{k: v for k, v in row.items() if v is not None} for row in frame.iter_rows(named=True)]
    return alt.InlineData(values=rows)


def stacked(parts: Mapping[str, pl.DataFrame]) -> alt.InlineData:
    """One dataset for layers that facet together: the frames stacked, tagged by ``part``."""
    tagged = [f.with_columns(part=pl.lit(name)) for name, f in parts.items()]
    return inline(pl.concat(tagged, how="diagonal_relaxed"))


def staircase(frame: pl.DataFrame, move: Sequence[str]) -> pl.DataFrame:
    """Insert the corner a step line draws between consecutive rows of a series.

    The corner after row ``i`` is row ``i`` with the ``move`` columns taken from row
    ``i + 1``, flagged ``corner`` (and with no ``threshold`` unless it moves), so a step
    curve becomes a polyline that can be drawn straight and thinned by its real shape.
    """
    nxt = [pl.col(c).shift(-1).over("series").alias(c) for c in move]
    corners = frame.with_columns(*nxt, order=pl.col("order") + 0.5, corner=pl.lit(True))
    corners = corners.filter(pl.col("order") < pl.col("order").max().over("series"))
    if "threshold" not in move and "threshold" in frame.columns:
        corners = corners.with_columns(pl.lit(None, dtype=frame.schema["threshold"]).alias("threshold"))
    points = frame.with_columns(pl.col("order").cast(pl.Float64), corner=pl.lit(False))
    return pl.concat([points, corners]).sort("_sid", "order", maintain_order=True)


def _importance(planes: Sequence[tuple[str, str]], spans: Mapping[str, float]) -> pl.Expr:
    """Twice the triangle area a point makes with its neighbours, the largest over planes.

    A point with no area lies on the line through its neighbours; unless the line turns
    back there, dropping it changes nothing drawn. Ends of a series and points next to a
    null stay (infinite); a point with a null coordinate weighs nothing in that plane.
    """
    series = pl.col("series")
    edge = (series != series.shift(1)).fill_null(True) | (series != series.shift(-1)).fill_null(True)
    areas = []
    for x, y in planes:
        xn, yn = pl.col(x) / spans[x], pl.col(y) / spans[y]
        dx1, dy1, dx2, dy2 = xn - xn.shift(1), yn - yn.shift(1), xn.shift(-1) - xn, yn.shift(-1) - yn
        area = (dx1 * dy2 - dy1 * dx2).abs()
        back = (dx1 * dx2 + dy1 * dy2 < 0) & (area <= _FLAT)
        own_null = pl.col(x).is_null() | pl.col(y).is_null()
        area = pl.when(own_null).then(0.0).when(back).then(_INF).otherwise(area)
        areas.append(area.fill_null(_INF).fill_nan(_INF))
    return pl.when(edge).then(_INF).otherwise(pl.max_horizontal(areas))


def thin(
    frame: pl.DataFrame, planes: Sequence[tuple[str, str]], max_points: int = MAX_POINTS
) -> pl.DataFrame:
    """Keep at most ``max_points`` rows per ``series``, dropping those that change the drawn
    lines least; ``planes`` are the (x, y) column pairs drawn from these rows.

    First every point collinear with its neighbours in all planes goes (nothing drawn
    changes). Then, while a series is over budget, each round drops the local minima of
    the triangle area (Visvalingam-Whyatt, in parallel: never two neighbours at once),
    axes scaled by their range. If only undroppable points remain, every k-th interior
    point is kept. Rows stay in order; the ends of each series always stay.
    """
    spans = {}
    for c in {c for plane in planes for c in plane}:
        ok = pl.col(c).filter(pl.col(c).is_finite())
        lo, hi = frame.select(ok.min().alias("lo"), ok.max().alias("hi")).row(0)
        spans[c] = hi - lo if lo is not None and hi is not None and hi > lo else 1.0
    frame = frame.filter(_importance(planes, spans) > _FLAT)
    excess = pl.len().over("series") - max_points
    while frame.group_by("series").len()["len"].max() > max_points:  # type: ignore[operator]
        imp = pl.col("_imp")
        local_min = (imp <= imp.shift(1).fill_null(_INF)) & (imp < imp.shift(-1).fill_null(_INF))
        local_min = local_min & imp.is_finite()
        marked = frame.with_columns(_imp=_importance(planes, spans)).with_columns(_min=local_min)
        if not marked["_min"].any():
            position, size = pl.int_range(pl.len()).over("series"), pl.len().over("series")
            stride = (size / max_points).ceil()
            keep = (position % stride == 0) | (position == size - 1)
            return frame.filter(keep)
        rank = pl.when(pl.col("_min")).then(imp).rank("ordinal").over("series")
        frame = marked.filter(~(pl.col("_min") & (rank <= excess))).drop("_imp", "_min")
    return frame


def probit(p: pl.Expr) -> pl.Expr:
    """Normal quantile of ``p`` (Acklam's rational approximation, relative error < 1.2e-9),
    clamped to ±5 so that rates of 0 and 1 stay finite."""
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
         -30.66479806614716, 2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572, 1.0)  # fmt: skip
    c = (-7.784894002430293e-03, -0.3223964580411365, -2.400758277161838, -2.549671010591350,
         4.374664141464968, 2.938163982698783)  # fmt: skip
    d = (7.784695709041462e-03, 0.3224671290700398, 2.445134137142996, 3.754408661907416, 1.0)

    def poly(coef: Sequence[float], x: pl.Expr) -> pl.Expr:
        out = pl.lit(coef[0])
        for k in coef[1:]:
            out = out * x + k
        return out

    p = p.clip(2.9e-7, 1 - 2.9e-7)
    q = p - 0.5
    tail = pl.when(p < 0.5).then(p).otherwise(1 - p).log().mul(-2).sqrt()
    tail_x = poly(c, tail) / poly(d, tail)
    central = poly(a, q * q) * q / poly(b, q * q)
    low, high = p <= 0.02425, p >= 1 - 0.02425
    return pl.when(low).then(tail_x).when(high).then(-tail_x).otherwise(central).clip(-5.0, 5.0)


def score_histogram(
    data: pl.DataFrame | pl.LazyFrame,
    y: str | pl.Expr,
    score: str | pl.Expr,
    *,
    by: str | Sequence[str] | None = None,
    n_bins: int = 40,
    weight: str | pl.Expr | None = None,
) -> pl.DataFrame | pl.LazyFrame:
    """Score distribution per actual class: rows in ``n_bins`` equal-width bins over
    ``[min(score), max(score)]``, the same bins for every group and class.

    Returns ``*by, actual, bin, bin_start, bin_end, count, fraction``, ``fraction`` being
    ``count`` over the rows of that class in that group; empty bins are absent. Rows with
    a null in ``y``, ``score`` or ``weight``, or a NaN score, are left out (aggregate
    semantics); ``count`` sums ``weight`` when given. Lazy in, lazy out.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> score_histogram(df, "y", "s", n_bins=2).select("actual", "bin", "count").rows()
    [(0, 0, 2), (1, 0, 1), (1, 1, 1)]
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, int) or n_bins < 1:
        msg = f"n_bins must be a positive integer, got {n_bins!r}"
        raise InputError(msg, role="n_bins", rule="positive_int", hint="use e.g. n_bins=40")
    groups = [by] if isinstance(by, str) else list(by or [])

    def col(c: str | pl.Expr) -> pl.Expr:
        return pl.col(c) if isinstance(c, str) else c

    w = pl.lit(1, dtype=pl.Int64) if weight is None else col(weight)
    lf = data.lazy().select(
        *[pl.col(g) for g in groups],
        col(y).alias("actual"),
        col(score).cast(pl.Float64).alias("_s"),
        w.alias("_w"),
    )
    lf = lf.drop_nulls(["actual", "_s", "_w"]).filter(~pl.col("_s").is_nan())
    lo, hi = pl.col("_s").min(), pl.col("_s").max()
    width = pl.when(hi > lo).then((hi - lo) / n_bins).otherwise(1.0)
    binned = ((pl.col("_s") - lo) / width).floor().clip(0, n_bins - 1).cast(pl.Int64)
    out = (
        lf.with_columns(bin=binned, _lo=lo, _width=width)
        .group_by(*groups, "actual", "bin")
        .agg(pl.col("_lo", "_width").first(), pl.col("_w").sum().alias("count"))
        .with_columns(
            bin_start=pl.col("_lo") + pl.col("bin") * pl.col("_width"),
            bin_end=pl.col("_lo") + (pl.col("bin") + 1) * pl.col("_width"),
            fraction=pl.col("count") / pl.col("count").sum().over(*groups, "actual"),
        )
        .sort(*groups, "actual", "bin")
        .select(*groups, "actual", "bin", "bin_start", "bin_end", "count", "fraction")
    )
    return out.collect() if isinstance(data, pl.DataFrame) else out
