"""Metrics compared across groups or models."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from clfeval.charts._data import (
    SIZE_COLUMN,
    as_text,
    defined,
    inline,
    labels,
    limit,
    metric_list,
    noted,
    prepare,
)
from clfeval.charts._intervals import forest, interval_names
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    SIZE,
    TITLES,
    _color,
    fitted,
    titled,
)


def compare(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    title: str = "Metrics by group",
) -> alt.LayerChart:
    """Dot plot of metrics (rows) across groups or models (colours), a grey bar spanning
    each metric's range; a ``metrics(..., ci=)`` frame draws each interval as a bar
    instead (:func:`forest`).

    ``table`` is a ``metrics`` frame (group columns, then a column per metric) or a long
    frame with ``metric`` and ``value`` columns. ``by`` names the group columns (default:
    the columns that are not floating point, except ``n_excluded``); ``metrics`` picks
    and orders the metrics (default: every float column).
    """
    import altair as alt

    frame = table.collect() if isinstance(table, pl.LazyFrame) else table
    if isinstance(frame, pl.DataFrame) and interval_names(frame.columns):
        chosen = None if metrics is None else metric_list(metrics)  # metrics(..., ci=)
        return forest(frame, by=by, metrics=chosen, title=title)
    if isinstance(frame, pl.DataFrame) and not {"metric", "value"} <= set(frame.columns):
        schema = frame.schema
        keys = (
            [by]
            if isinstance(by, str)
            else list(by)
            if by is not None
            else [
                c
                for c, t in schema.items()
                if not t.is_float() and c not in ("n_excluded", SIZE_COLUMN)
            ]
        )
        on = (
            metric_list(metrics)
            if metrics is not None
            else [
                c for c, t in schema.items() if t.is_float() and c not in keys and c != SIZE_COLUMN
            ]
        )
        absent = [c for c in [*keys, *on] if c not in schema]
        if absent or not on:
            raise InputError(
                f"the metrics chart needs the columns {absent!r}"
                if absent
                else "the metrics frame has no metric (floating-point) column",
                column=absent[0] if absent else None,
                role="frame",
                rule="missing_column",
                hint=f"the frame has {frame.columns!r}; pass the frame clfeval.metrics(...) "
                "returns, with by= naming its group columns",
            )
        index = [*keys, SIZE_COLUMN] if SIZE_COLUMN in schema else keys
        frame = frame.unpivot(on=on, index=index, variable_name="metric", value_name="value")
    raw, keys = prepare(frame, ("metric", "value"), "metrics")
    raw, note = limit(raw, keys)
    if metrics is not None:
        raw = raw.filter(pl.col("metric").is_in(list(metrics)))
    raw = raw.with_columns(
        pl.col("value").cast(pl.Float64), as_text(pl.col("metric").replace(TITLES))
    )
    raw = raw.with_columns(
        pl.when(pl.col("value").is_finite()).then(pl.col("value")).alias("value")
    )
    raw = defined(raw, "metrics")
    order = labels(raw, "metric")
    # the dots' own range, in steps of 0.05: the gaps between groups are what the chart is for
    low, high = raw["value"].min(), raw["value"].max()
    lo = math.floor(float(low) * 20) / 20 if low is not None else 0.0  # type: ignore[arg-type]
    hi = math.ceil(float(high) * 20) / 20 if high is not None else 1.0  # type: ignore[arg-type]
    lo, hi = (lo, hi) if hi > lo else (lo - 0.05, hi + 0.05)
    spans = raw.group_by("metric", maintain_order=True).agg(
        lo=pl.col("value").min(), hi=pl.col("value").max()
    )
    scale = alt.Scale(domain=[lo, hi], nice=False)
    y = alt.Y("metric:N", sort=order, title=None, axis=alt.Axis(labelLimit=200))
    bar = (
        alt.Chart(inline(spans))
        .mark_rule(color="#d5d5d5", strokeWidth=7, strokeCap="round")
        .encode(alt.X("lo:Q", scale=scale, title="Value"), alt.X2("hi:Q"), y)
    )
    tips = [
        alt.Tooltip("metric:N", title="Metric"),
        alt.Tooltip("value:Q", title="Value", format=".4f"),
    ]
    if keys:
        tips.insert(0, alt.Tooltip("series:N", title=" · ".join(keys)))
    dots = alt.Chart(inline(raw)).mark_point(size=90, filled=True, opacity=0.9)
    dots = dots.encode(
        alt.X("value:Q", scale=scale, title="Value"),
        y,
        color=_color(labels(raw), keys),
        tooltip=tips,
    )
    chart = alt.layer(bar, dots).properties(
        title=titled(title, ["Grey bar: the range of each metric across the groups"]),
        description=title,
        width=SIZE + 80,
        height=alt.Step(26),
    )
    return noted(fitted(chart, [((), None)], largest=900), [note])
