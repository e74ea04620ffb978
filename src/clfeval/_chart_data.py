"""The data side of the charts: Polars shapes chart data before it reaches Altair.

One ``series`` key per group, curves thinned to a point budget, step curves made explicit,
scores binned. Every size a user controls is bounded: at most ``MAX_SERIES`` series (groups,
one-vs-rest classes) are drawn, the largest first; a confusion matrix or a score histogram
draws at most ``MAX_CLASSES`` classes, the most frequent, and pools the rest into one "other"
class; curves share ``MAX_ROWS`` points; histograms have at most ``MAX_BINS`` bins. Whatever
is left out is said in the chart's subtitle and in its ``usermeta``
(``{"clfeval": {"notes": [...]}}``), which the HTML page prints.
"""

from __future__ import annotations

import difflib
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval import _options
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

MAX_POINTS = 1_000  # points per curve
MAX_ROWS = 12_000  # rows per chart dataset: many series share this budget
MIN_POINTS = 50
# Series (curves, facets, dots) drawn per chart: the palette has 20 distinct colours, a
# legend of 20 entries still fits beside a 320-pixel chart, and 20 series of a 600-point
# budget fill MAX_ROWS.
MAX_SERIES = 20
# Classes drawn in a confusion matrix or a score histogram, plus one "other": 21 x 21
# cells of 30 pixels fit the 640-pixel matrix with the counts still written in the cells
# (charts.confusion_matrix drops the text below 20 pixels, i.e. over 32 classes).
MAX_CLASSES = 20
MAX_BINS = _options.MAX_BINS  # score histogram bins
SIZE_COLUMN = "_size"  # optional column of a chart frame: how big each series is (rows or weight)
_INF = float("inf")
_FLAT = 1e-9  # |sin| of the turn below which three points count as collinear
_P5 = 2.866515718791939e-07  # the normal probability below -5
_GRID = 4096  # cells per axis for the first, coarse pass over very long curves
_INTERNAL = ("series", "_sid", "order", "corner", "part")  # column names the charts add


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
    if frame.height == 0:
        raise InputError(
            f"the {chart} frame has no rows: there is nothing to draw",
            role="frame",
            rule="empty",
            hint="the data (a LazyFrame is only checked when collected) had no rows left to "
            "evaluate; check its filters and the rows missing=/nonfinite='drop' left out",
        )
    first = min(frame.columns.index(c) for c in columns)
    keys = [c for c in frame.columns[:first] if c != SIZE_COLUMN]
    return with_series(frame, keys), keys


def _what(keys: Sequence[str]) -> str:
    """What the series of a chart are, in words: groups, classes, or curves of both."""
    if list(keys) == ["label"]:
        return "classes"
    if "label" in keys:
        return f"curves ({' · '.join(keys)})"
    return f"groups of {' · '.join(keys)}"


def limit(
    raw: pl.DataFrame,
    keys: Sequence[str],
    *,
    size: pl.Expr | None = None,
    max_series: int = MAX_SERIES,
) -> tuple[pl.DataFrame, str | None]:
    """At most ``max_series`` series of a prepared frame, and the note saying so (or None).

    The largest series stay: by the ``_size`` column when the frame has one (``df.clf.plot``
    adds the rows, or total weight, of each group and class), else by ``size`` evaluated per
    series (e.g. a frame's own counts), else the first ones in the frame's order. Ties keep
    the frame's order, and so does the drawing. ``_size`` is dropped.
    """
    if SIZE_COLUMN in raw.columns:
        size = pl.col(SIZE_COLUMN).max()
    out = raw.drop(SIZE_COLUMN, strict=False)
    names = labels(raw)
    if len(names) <= max_series:
        return out, None
    n, shown, what = len(names), max_series, _what(keys)
    if size is None:
        kept = names[:max_series]
        note = (
            f"Showing the first {shown} of {n:,} {what} (the frame has no counts to rank "
            f"them by); the other {n - shown:,} are left out."
        )
    else:
        sizes = by_series(raw, size.cast(pl.Float64).alias("_n")).with_row_index("_i")
        top = sizes.sort(["_n", "_i"], descending=[True, False], nulls_last=True)
        kept = top.head(max_series).get_column("series").to_list()
        most = "most frequent" if what == "classes" else "largest"
        note = f"Showing the {shown} {most} of {n:,} {what}; the other {n - shown:,} are left out."
    return out.filter(pl.col("series").is_in(kept)), note


def other_name(n: int, taken: Iterable[str]) -> str:
    """The name of the pooled class, ``other (980 classes)``, unlike any class shown."""
    taken = set(taken)
    name = f"other ({n:,} classes)"
    while name in taken:
        name += "*"
    return name


def top_classes(support: pl.DataFrame, max_classes: int = MAX_CLASSES) -> list[Any] | None:
    """The ``max_classes`` classes with the largest ``support`` (a frame of ``label`` and
    ``support``, one row per class in label order), in label order; None when at most one
    more class than that exists, since an "other" of one class saves nothing."""
    if support.height <= max_classes + 1:
        return None
    ranked = support.with_row_index("_i").sort(
        ["support", "_i"], descending=[True, False], nulls_last=True
    )
    keep = set(ranked.head(max_classes).get_column("_i").to_list())
    return [v for i, v in enumerate(support.get_column("label").to_list()) if i in keep]


def noted(chart: Any, notes: Iterable[str | None]) -> Any:
    """``chart`` with ``notes`` (what it leaves out) as subtitle lines and in its
    ``usermeta``, where the HTML page finds them; unchanged without notes."""
    import altair as alt

    notes = [n for n in notes if n]
    if not notes:
        return chart
    title = chart.title
    if isinstance(title, alt.Title):
        text = title.text
        old = title.subtitle if isinstance(title.subtitle, (list, str)) else []
        subtitle = [*([old] if isinstance(old, str) else old), *notes]
    else:
        text, subtitle = ("" if title is alt.Undefined else title), notes
    meta = chart.usermeta if isinstance(chart.usermeta, dict) else {}
    mine = dict(meta.get("clfeval", {}))
    mine["notes"] = [*mine.get("notes", []), *notes]
    return chart.properties(
        title=alt.Title(text=text, subtitle=subtitle, subtitleFontSize=11, subtitleColor="#555555"),
        usermeta={**meta, "clfeval": mine},
    )


def check_max_points(value: Any) -> int:
    """``max_points``: an integer from 2 (a line needs both ends) to 1,000,000."""
    return _options.positive_int(
        "max_points",
        value,
        low=2,
        high=1_000_000,
        hint="max_points is the most points drawn per curve (the chart keeps at most "
        f"{MAX_ROWS:,} in all)",
    )


def check_threshold(value: Any) -> float | None:
    """``threshold``: None or a finite number (the rule ``score >= threshold``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise InputError(
            f"threshold={value!r} is not a finite number",
            role="threshold",
            rule="option",
            hint="threshold marks the rule score >= threshold; pass a number or None",
        )
    return float(value)


def with_series(frame: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """Replace the key columns by ``series`` (their values as one string, ``"all"`` without
    keys), keep each series' rows together in first-seen order and number rows in ``order``."""
    rest = [c for c in frame.columns if c not in keys and c not in _INTERNAL]
    if not keys:
        framed = frame.select(pl.lit("all").alias("series"), *rest, _sid=pl.lit(0, dtype=pl.UInt32))
        return framed.with_columns(order=pl.int_range(pl.len()))
    parts = [as_text(pl.col(k)) for k in keys]
    framed = frame.select(pl.concat_str(parts, separator=" · ").alias("series"), *rest)
    ids = framed.select(pl.col("series").unique(maintain_order=True)).with_row_index("_sid")
    framed = framed.join(ids, on="series", maintain_order="left")
    return framed.sort("_sid", maintain_order=True).with_columns(order=pl.int_range(pl.len()))


def as_text(expr: pl.Expr) -> pl.Expr:
    """Values as display strings: null as ``"null"``; U+2028/U+2029 as spaces, because
    Vega-Lite copies sort lists into Vega expressions, where they are illegal."""
    return expr.cast(pl.String).fill_null("null").str.replace_all("[\u2028\u2029]", " ")


def labels(frame: pl.DataFrame, column: str = "series") -> list[str]:
    """The distinct values of ``column`` in first-seen order (for ``series``: one per run)."""
    if column == "series" and "_sid" in frame.columns:
        first = pl.col("_sid") != pl.col("_sid").shift(1).fill_null(-1)
        return frame.filter(first).get_column("series").to_list()
    return frame.get_column(column).unique(maintain_order=True).to_list()


def budget(n_series: int, max_points: int) -> int:
    """Points per curve: ``max_points``, less when many series share ``MAX_ROWS``."""
    return max(MIN_POINTS, min(max_points, MAX_ROWS // max(n_series, 1)))


def by_series(frame: pl.DataFrame, *aggs: pl.Expr) -> pl.DataFrame:
    """``series`` and ``aggs`` evaluated within each series (rows in order), one row each."""
    if frame.height and frame["_sid"][0] == frame["_sid"][-1]:  # one series: no group-by
        return frame.select(pl.col("series").first(), *aggs)
    out = frame.group_by("_sid", maintain_order=True).agg(pl.col("series").first(), *aggs)
    return out.drop("_sid")


def per_series(frame: pl.DataFrame, expr: pl.Expr) -> dict[str, float | None]:
    """``expr`` aggregated within each series (in row order), keyed by series."""
    out = by_series(frame, expr.alias("_v"))
    return dict(zip(out["series"].to_list(), out["_v"].to_list(), strict=True))


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
    return frame.with_columns(
        pl.when(pl.col(c).is_finite()).then(pl.col(c)).alias(c) for c in floats
    )


def inline(frame: pl.DataFrame, *, digits: int = 6) -> alt.InlineData:
    """Rows as inline Vega-Lite data: finite floats rounded to ``digits`` (threshold columns
    keep full precision), other types as strings, nulls left out of each row.

    Inline data bypasses Altair's 5,000-row transformer and is deduplicated into the
    spec's top-level ``datasets``; the budget is kept by ``thin``/``MAX_ROWS`` instead.
    """
    frame = finite(frame.drop("_sid", strict=False))
    schema = frame.schema
    rounded = [c for c, t in schema.items() if t.is_float() and not c.startswith("threshold")]
    other = [c for c, t in schema.items() if not (t.is_numeric() or t in (pl.String, pl.Boolean))]
    frame = frame.with_columns(pl.col(rounded).round(digits), pl.col(other).cast(pl.String))
    rows = [{k: v for k, v in row.items() if v is not None} for row in frame.iter_rows(named=True)]
    from altair.utils.schemapi import debug_mode

    with debug_mode(False):  # rows of numbers and strings: validating each one is slow
        return _shared_data()(values=rows)


@functools.cache
def _shared_data() -> type[alt.InlineData]:
    import altair as alt

    class SharedData(alt.InlineData):  # type: ignore[misc]
        """Inline rows that Altair passes by reference instead of deep-copying them on
        every ``encode``/``layer``/``properties`` call (the rows are never mutated)."""

        def __deepcopy__(self, memo: Any = None) -> SharedData:
            return self

    return SharedData


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
    nxt = [pl.col(c).shift(-1).over("_sid").alias(c) for c in move]
    corners = frame.with_columns(*nxt, order=pl.col("order") + 0.5, corner=pl.lit(True))
    corners = corners.filter(pl.col("order") < pl.col("order").max().over("_sid"))
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
    neighbours in all planes goes: nothing drawn changes. Then, while a series is over
    budget, each round drops the local minima of the triangle area (Visvalingam-Whyatt,
    in parallel: never two neighbours at once). If only undroppable points remain, every
    k-th point is kept. Rows stay in order; the ends of each series always stay.
    """
    lows, spans = _ranges(frame, {c for plane in planes for c in plane})
    frame = coarse(frame, list(spans), max_points, lows, spans)
    frame = frame.filter(_importance(planes, spans) > 0)
    excess = pl.len().over("_sid") - max_points
    while frame.height > max_points and _longest(frame) > max_points:
        imp = pl.col("_imp")
        local_min = (imp <= imp.shift(1).fill_null(_INF)) & (imp < imp.shift(-1).fill_null(_INF))
        local_min = local_min & imp.is_finite()
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
    n_bins = _options.positive_int(
        "n_bins", n_bins, high=MAX_BINS, hint="n_bins is the number of score bins, e.g. 40"
    )
    groups = [by] if isinstance(by, str) else list(by or [])
    _check_columns(
        data.collect_schema(),
        {"y": y, "score": score, **({"weight": weight} if weight is not None else {})},
        groups,
    )

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
    # each step reads materialised columns: the same float expression must give the same
    # value everywhere (Polars may evaluate an expression that holds an aggregate
    # differently in different places, e.g. x / (max / n) as x * (n / max))
    lf = lf.with_columns(_lo=lo, _width=pl.when(hi > lo).then((hi - lo) / n_bins).otherwise(1.0))
    lf = lf.with_columns(
        _edge=((pl.col("_s") - pl.col("_lo")) / pl.col("_width")).floor().clip(0, n_bins - 1)
    )
    start, end = (
        pl.col("_lo") + pl.col("_edge") * pl.col("_width"),
        pl.col("_lo") + (pl.col("_edge") + 1) * pl.col("_width"),
    )
    lf = lf.with_columns(_start=start, _end=end)
    # a score on an edge goes to the bin above it, the last bin includes the maximum (NumPy)
    step = (
        pl.when(pl.col("_s") < pl.col("_start"))
        .then(-1)
        .when((pl.col("_s") >= pl.col("_end")) & (pl.col("_edge") < n_bins - 1))
        .then(1)
        .otherwise(0)
    )
    out = (
        lf.with_columns(bin=(pl.col("_edge") + step).cast(pl.Int64))
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


def _check_columns(schema: pl.Schema, roles: Mapping[str, Any], by: Sequence[str]) -> None:
    """Raise for a named column that ``schema`` lacks, or a score or weight that is not a
    number (expressions are left to Polars)."""
    named = [(role, c) for role, c in roles.items() if isinstance(c, str)]
    named += [("by", c) for c in by]
    for role, name in named:
        if name not in schema:
            names = list(schema.names())
            close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
            hint = f"the frame has {names}" + (f"; did you mean {close[0]!r}?" if close else "")
            raise InputError(
                f"column {name!r} ({role}) not found",
                column=name,
                role=role,
                rule="missing_column",
                hint=hint,
            )
        if role in ("score", "weight") and not schema[name].is_numeric():
            raise InputError(
                f"column {name!r} ({role}) has dtype {schema[name]}, not a number",
                column=name,
                role=role,
                rule="dtype",
                hint="scores and weights must be numeric columns",
            )


def _per_group(
    frame: pl.DataFrame | pl.LazyFrame, expr: pl.Expr, by: str | Sequence[str] | None, name: str
) -> pl.DataFrame:
    """``expr`` evaluated once per group (keys first, then ``name``), or once."""
    keys = [by] if isinstance(by, str) else list(by or [])
    lf = frame.lazy()
    out = (
        lf.group_by(keys, maintain_order=True).agg(expr.alias(name))
        if keys
        else lf.select(expr.alias(name))
    )
    return out.collect()


def fold_note(shown: int, n: int, other: str, where: str) -> str:
    """The words for classes pooled into "other"."""
    return (
        f"Showing the {shown} most frequent of {n:,} classes; the other {n - shown:,} are "
        f"pooled in {where} “{other}”."
    )


def _fold_data(
    data: pl.DataFrame | pl.LazyFrame,
    y: str,
    yhat: str,
    dtype: pl.DataType,
    top: Sequence[Any],
    n: int,
) -> tuple[pl.DataFrame | pl.LazyFrame, list[str], str]:
    """``data`` with ``y`` and ``yhat`` as text, every class but ``top`` renamed to one
    "other" (nulls stay null), the labels to pass on, and the note saying so."""
    shown = pl.Series(list(top), dtype=dtype).cast(pl.String).to_list()
    other = other_name(n - len(shown), shown)

    def fold(c: str) -> pl.Expr:
        raw = pl.col(c)
        bad = raw.is_null()
        if data.collect_schema()[c].is_float():  # a NaN label is missing, as a null
            bad = bad | raw.is_nan()
        text = raw.cast(dtype, strict=False).cast(pl.String)  # classes are checked already
        return (
            pl.when(bad)
            .then(pl.lit(None, pl.String))
            .when(text.is_in(shown))
            .then(text)
            .otherwise(pl.lit(other))
            .alias(c)
        )

    folded = data.with_columns([fold(c) for c in dict.fromkeys([y, yhat])])
    note = fold_note(len(shown), n, other, "the row and column")
    return folded, [*shown, other], note
