"""The data side of the charts: Polars shapes chart data before it reaches Altair.

One ``series`` key per group, scores binned, notes for what is left out. Every size a user
controls is bounded: at most ``MAX_SERIES`` series (groups, one-vs-rest classes) are drawn,
the largest first; a confusion matrix or a score histogram draws at most ``MAX_CLASSES``
classes, the most frequent, and pools the rest into one "other" class; curves share
``MAX_ROWS`` points (:mod:`clfeval.charts._thin`); histograms have at most ``MAX_BINS`` bins.
Whatever is left out is said in the chart's subtitle and in its ``usermeta``
(``{"clfeval": {"notes": [...]}}``), which the HTML page prints.
"""

from __future__ import annotations

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


def defined(raw: pl.DataFrame, chart: str, *columns: str) -> pl.DataFrame:
    """``raw`` as is, unless none of its ``columns`` (default ``value``) holds a defined
    value: then, like a frame without rows, there is nothing to draw (a LazyFrame with no
    rows still gives null rows)."""
    if raw.select(pl.any_horizontal(pl.col(*(columns or ("value",))).is_not_null().any())).item():
        return raw
    raise InputError(
        f"the {chart} frame has no defined value (no rows to evaluate): there is nothing to draw",
        role="frame",
        rule="empty",
        hint="the data (a LazyFrame is only checked when collected) had no rows left to "
        "evaluate; check its filters and the rows missing=/nonfinite='drop' left out",
    )


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


def fold_note(shown: int, n: int, other: str, where: str) -> str:
    """The words for classes pooled into "other"."""
    return (
        f"Showing the {shown} most frequent of {n:,} classes; the other {n - shown:,} are "
        f"pooled in {where} “{other}”."
    )


def metric_list(metrics: Any) -> list[str]:
    """``metrics`` as a non-empty list of distinct names (the frame must have them)."""
    if isinstance(metrics, str) or not isinstance(metrics, Sequence) or not metrics:
        raise InputError(
            f"metrics={metrics!r} is not a non-empty list of metric names",
            role="metrics",
            rule="option",
            hint="pass a list such as metrics=['precision', 'recall', 'f1']",
        )
    if not all(isinstance(m, str) for m in metrics):
        raise InputError(
            f"metrics={metrics!r} has a name that is not a string",
            role="metrics",
            rule="option",
            hint="metrics are column names of the thresholds frame, e.g. 'f1'",
        )
    return list(dict.fromkeys(metrics))
