"""What every chart shares: the palette, titles, colours, legends, tooltips and curve layers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval._metrics import METRICS
from clfeval.charts._data import (
    by_series,
    inline,
    labels,
)

if TYPE_CHECKING:
    import altair as alt


PALETTE = (  # vega "tableau10", then the other half of "tableau20"
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2",
    "#ff9da6", "#9d755d", "#bab0ac", "#9ecae9", "#ffbf79", "#88d27a", "#f2cf5b",
    "#83bcb6", "#ff9d98", "#d6a5c9", "#d8b5a5", "#79706e", "#439894",
)  # fmt: skip
# classes, when a chart's series are the classes (one-vs-rest curves, per-class charts) or it
# colours the classes of a score histogram: Vega's "dark2" reordered, its orange last, so that
# the first classes never take the colours of the first groups (PALETTE)
CLASS_PALETTE = (
    "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666", "#d95f02",
    "#0b5d4b", "#4a458a", "#a01b5e", "#3f6b12",
)  # fmt: skip
SIZE = 320
GREY = "#9e9e9e"
TITLES = {
    "threshold": "Threshold (score ≥)",
    "tpr": "True positive rate",
    **{m.name: m.title for m in METRICS.values()},
    "fraction_targeted": "Fraction targeted (highest scores first)",
    "gain": "Share of positives found",
    "lift": "Lift over random",
    "mean_predicted": "Mean predicted probability",
    "fraction_positive": "Fraction of positives",
}
COUNTS = ("tp", "fp", "fn", "tn")
_TOTAL = (pl.col("tp") + pl.col("fp") + pl.col("fn") + pl.col("tn")).first()  # rows of a series
TRADE_OFFS = {"f1", "fbeta", "mcc", "accuracy", "balanced_accuracy", "youden_j", "jaccard"}
Metric = float | pl.DataFrame | Mapping[str, float] | None


# --- shared pieces ----------------------------------------------------------------------


def fitted(
    chart: Any,
    views: Sequence[tuple[Sequence[str | int], float | None]],
    *,
    cells: int = 1,
    largest: int | None = None,
    least: int = 260,
    wrap: Sequence[Sequence[str | int]] = (),
) -> Any:
    """``chart`` that says how a page may size it to its container, in its ``usermeta``:
    ``views`` are the paths (keys and indices into the spec) of the views whose ``width`` the
    page sets, each with the ``height / width`` ratio it keeps (None: the height stays);
    ``cells`` of them sit side by side, fewer when each would get under ``least`` pixels (a
    facet's ``columns`` then shrink, and the ``hconcat`` at each path of ``wrap`` is stacked);
    ``largest`` caps a view's width in pixels."""
    meta = chart.usermeta if isinstance(chart.usermeta, dict) else {}
    mine = dict(meta.get("clfeval", {}))
    mine["fit"] = {
        "cells": cells,
        "views": [{"path": list(path), "aspect": aspect} for path, aspect in views],
        "largest": largest,
        "least": least,
        "wrap": [list(path) for path in wrap],
    }
    return chart.properties(usermeta={**meta, "clfeval": mine})


def panel_columns(n: int) -> int:
    """Columns of small multiples: all in a row up to three, then rows of two or three that
    leave the fewest empty places (an empty place still shows an axis)."""
    if n <= 3:
        return n
    return min((2, 3), key=lambda c: (-n % c, -c))


def series_scale(names: Sequence[str], keys: Sequence[str] = ()) -> Any:
    """The colour scale of the series: the i-th series gets the i-th palette colour, of the
    groups' palette, or of the classes' when the series are the classes."""
    import altair as alt

    palette = CLASS_PALETTE if list(keys) == ["label"] else PALETTE
    return alt.Scale(
        domain=list(names), range=[palette[i % len(palette)] for i in range(len(names))]
    )


def key_title(keys: Sequence[str]) -> str:
    """What the series are, for a legend: the group columns, "class" for the label column."""
    return " · ".join("class" if k == "label" else k for k in keys)


def _color(names: Sequence[str], keys: Sequence[str], *, orient: str = "bottom") -> Any:
    """Colour by ``series``: the i-th series gets the i-th palette colour in every chart;
    a single unnamed series gets the first colour and no legend."""
    import altair as alt

    if list(names) == ["all"]:
        return alt.value(PALETTE[0])
    scale = series_scale(names, keys)
    legend = alt.Legend(orient=orient, labelLimit=360, columns=1 if len(names) <= 4 else 2)
    title = key_title(keys) if keys else None
    return alt.Color("series:N", scale=scale, title=title, legend=legend)  # domain sets order


def _legend(names: Sequence[str], values: Mapping[str, float | None], name: str) -> dict[str, str]:
    """Legend text per series, e.g. ``model a (AUROC 0.912)``, or ``AUROC 0.912`` alone."""

    def text(series: str) -> str:
        value = values.get(series)
        shown = "undefined" if value is None or not math.isfinite(value) else f"{value:.3f}"
        return f"{name} {shown}" if list(names) == ["all"] else f"{series} ({name} {shown})"

    return {s: text(s) for s in names}


def _renamed(frame: pl.DataFrame, legend: Mapping[str, str]) -> pl.DataFrame:
    """``frame`` with each series renamed to its legend text."""
    return frame.with_columns(pl.col("series").replace_strict(dict(legend), return_dtype=pl.String))


def _q(field: str, title: str | None = None, *, rate: bool = True, **kw: Any) -> dict[str, Any]:
    """Channel arguments: a typed quantitative field, a title in words, domain [0, 1] for rates."""
    import altair as alt

    scale = alt.Scale(domain=[0, 1], nice=False) if rate else alt.Scale(zero=False)
    return {
        "field": field,
        "type": "quantitative",
        "title": title or TITLES.get(field, field),
        "scale": scale,
        **kw,
    }


def _tips(frame: pl.DataFrame, keys: Sequence[str], fields: Sequence[str]) -> list[Any]:
    """Tooltips: the series (when there are group keys), the fields present, counts last."""
    import altair as alt

    tips = [alt.Tooltip("series:N", title=key_title(keys))] if keys else []
    for f in [*fields, *COUNTS]:
        if f not in frame.columns or any(t.field == f for t in tips):
            continue
        fmt = ".4~g" if f.startswith("threshold") else ",~g" if f in COUNTS else ".4f"
        tips.append(
            alt.Tooltip(f"{f}:Q", title=f.upper() if f in COUNTS else TITLES.get(f, f), format=fmt)
        )
    return tips


def titled(title: str, lines: Sequence[str | None] = ()) -> Any:
    """A chart title with ``lines`` of explanation under it (labels kept out of the plot, so
    they never cover a mark)."""
    import altair as alt

    said = [line for line in lines if line]
    if not said:
        return title
    return alt.Title(title, subtitle=said, subtitleFontSize=11, subtitleColor="#666666")


def _curve(
    frame: pl.DataFrame,
    keys: Sequence[str],
    x: str,
    y: str,
    *,
    y_channel: Any = None,
) -> alt.LayerChart:
    """One line per series through (x, y) in ``order``, with invisible hover points that
    carry the tooltips (corner points of step curves get none)."""
    import altair as alt

    base = alt.Chart(inline(frame)).encode(
        alt.X(**_q(x)),
        y_channel if y_channel is not None else alt.Y(**_q(y)),
        color=_color(labels(frame), keys),
    )
    line = base.mark_line(strokeWidth=2).encode(alt.Order("order:Q"))
    hover = base.mark_point(size=40, opacity=0).encode(
        tooltip=_tips(frame, keys, ["threshold", x, y])
    )
    if "corner" in frame.columns:
        hover = hover.transform_filter("!datum.corner")
    return alt.layer(line, hover)


def _operating_point(
    raw: pl.DataFrame,
    keys: Sequence[str],
    threshold: float,
    x: str,
    y: str,
    legend: Mapping[str, str],
) -> tuple[alt.Chart, str]:
    """The point of the rule ``score >= threshold`` per series (the row with the smallest
    threshold at or above it; a null or +inf threshold: nothing predicted positive), and the
    words for the title: where it is, for one series."""
    import altair as alt

    t = pl.col("threshold").fill_null(math.inf).fill_nan(math.inf)
    point = by_series(
        raw.filter(t >= threshold),
        *[pl.col(c).get(t.arg_min()) for c in raw.columns if c not in ("series", "_sid")],
    )
    point = _renamed(point, legend)
    dot = (
        alt.Chart(inline(point))
        .mark_point(size=130, filled=True, opacity=1, stroke="#222222", strokeWidth=1.2)
        .encode(
            alt.X(**_q(x)),
            alt.Y(**_q(y)),
            tooltip=_tips(point, keys, ["threshold", x, y]),
            color=_color(list(legend.values()), keys),
        )
    )
    rule = f"score ≥ {threshold:.4g}"
    if keys or point.height != 1:
        return dot, f"● the operating point {rule} on each curve"
    at = point.row(0, named=True)
    where = ", ".join(
        f"{TITLES.get(c, c).split(' (')[0]} {at[c]:.3f}"
        for c in (y, x)
        if isinstance(at.get(c), float) and math.isfinite(at[c])
    )
    return dot, f"● the operating point {rule}: {where}"


def _diagonal(
    x: str, y: str, *, x_title: str | None = None, y_title: str | None = None
) -> alt.Chart:
    """The dashed grey line from (0, 0) to (1, 1): chance, or perfect calibration."""
    import altair as alt

    rows = [{x: 0, y: 0}, {x: 1, y: 1}]
    line = alt.Chart(alt.InlineData(values=rows)).mark_line(
        strokeDash=[4, 4], color=GREY, strokeWidth=1, clip=True
    )
    return line.encode(alt.X(**_q(x, x_title)), alt.Y(**_q(y, y_title)))


# --- curves -----------------------------------------------------------------------------
