"""Per-class metrics: one row per class, readable for many classes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._base import (
    CLASS_PALETTE,
    GREY,
    SIZE,
    TITLES,
    fitted,
    key_title,
    series_scale,
    titled,
)
from clfeval.charts._data import (
    as_text,
    inline,
    labels,
    limit,
    metric_list,
    noted,
    prepare,
)

if TYPE_CHECKING:
    import altair as alt

SUMMARY_ROWS = ("accuracy", "micro avg", "macro avg", "weighted avg")
SHAPES = ("circle", "triangle-right", "diamond", "square", "cross", "triangle-up")
INK = "#4c5a6a"  # one colour for many classes
MAX_ROWS_SHOWN = 40  # classes drawn; the rest are left out, the largest kept


def per_class(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    metrics: Sequence[str] = ("f1", "precision", "recall"),
    title: str = "Per-class metrics",
) -> alt.LayerChart:
    """One row per class, a mark per metric (its shape), the span of the metrics as a grey
    bar: the classes a model gets wrong stand out, however many there are.

    ``table`` is a report table (``clfeval.report(...).table``: ``label``, the metrics and
    ``support``; its accuracy and average rows are left out) or any frame with a ``label``
    column and the ``metrics``; columns before ``label`` are groups, drawn in their colours
    one above the other within each class. Without groups each class has its colour of the
    one-vs-rest charts. At most 40 classes, the largest by ``support`` when given.
    """
    import altair as alt

    metrics = metric_list(metrics)
    raw, keys = prepare(table, ("label", *metrics), "report")
    raw = raw.with_columns(as_text(pl.col("label"))).filter(
        ~pl.col("label").is_in(list(SUMMARY_ROWS))
    )
    raw, note = limit(raw, keys)
    classes = labels(raw, "label")
    class_note = None
    if len(classes) > MAX_ROWS_SHOWN:
        if "support" in raw.columns:
            sizes = (
                raw.group_by("label")
                .agg(pl.col("support").sum())
                .sort("support", "label", descending=[True, False])
            )
            kept = set(sizes["label"].head(MAX_ROWS_SHOWN).to_list())
            how = "largest"
        else:
            kept, how = set(classes[:MAX_ROWS_SHOWN]), "first"
        class_note = (
            f"Showing the {how} {MAX_ROWS_SHOWN} of {len(classes):,} classes; the other "
            f"{len(classes) - MAX_ROWS_SHOWN:,} are left out."
        )
        classes = [c for c in classes if c in kept]
        raw = raw.filter(pl.col("label").is_in(classes))
    shown = {m: TITLES.get(m, m) for m in metrics}
    long = raw.unpivot(
        on=metrics,
        index=["series", "label", *(["support"] if "support" in raw.columns else [])],
        variable_name="metric",
        value_name="value",
    ).with_columns(pl.col("metric").replace_strict(shown, return_dtype=pl.String))
    spans = long.group_by("series", "label", maintain_order=True).agg(
        lo=pl.col("value").min(), hi=pl.col("value").max()
    )
    names = labels(raw)
    y = alt.Y("label:N", sort=classes, title=None, axis=alt.Axis(labelLimit=220))
    low, high = long["value"].min(), long["value"].max()
    lo = math.floor(float(low) * 20) / 20 if low is not None else 0.0  # type: ignore[arg-type]
    hi = math.ceil(float(high) * 20) / 20 if high is not None else 1.0  # type: ignore[arg-type]
    domain = [lo, hi] if hi > lo else [lo - 0.05, hi + 0.05]
    x = alt.X("value:Q", title="Value", scale=alt.Scale(domain=domain, nice=False))
    offset: dict[str, Any] = {}
    if keys:
        color = alt.Color("series:N", scale=series_scale(names), title=key_title(keys))
        offset = {"yOffset": alt.YOffset("series:N", sort=names)}
    elif len(classes) <= len(CLASS_PALETTE):
        scale = alt.Scale(domain=classes, range=list(CLASS_PALETTE[: len(classes)]))
        color = alt.Color("label:N", scale=scale, legend=None)
    else:  # colours would repeat: the rows say which class it is
        color = alt.value(INK)
    bar = (
        alt.Chart(inline(spans))
        .mark_rule(color=GREY, opacity=0.55, strokeWidth=5, strokeCap="round")
        .encode(
            alt.X("lo:Q", scale=alt.Scale(domain=[0, 1], nice=False)), alt.X2("hi:Q"), y, **offset
        )
    )
    tips = [
        *([alt.Tooltip("series:N", title=key_title(keys))] if keys else []),
        alt.Tooltip("label:N", title="Class"),
        alt.Tooltip("metric:N", title="Metric"),
        alt.Tooltip("value:Q", title="Value", format=".4f"),
        *(
            [alt.Tooltip("support:Q", title="Support", format=",~g")]
            if "support" in raw.columns
            else []
        ),
    ]
    shape = alt.Shape(
        "metric:N",
        scale=alt.Scale(domain=list(shown.values()), range=list(SHAPES[: len(shown)])),
        sort=list(shown.values()),
        legend=alt.Legend(title=None, orient="top"),
    )
    dots = (
        alt.Chart(inline(long))
        .mark_point(size=70, filled=True, opacity=0.9)
        .encode(x, y, shape, color=color, tooltip=tips, **offset)
    )
    step = 20 if not keys else max(8, 22 // max(1, len(names))) * len(names) + 6
    chart = alt.layer(bar, dots).properties(
        title=titled(title, ["Grey bar: from the lowest to the highest metric of the class"]),
        description=title,
        width=SIZE + 80,
        height=alt.Step(step),
    )
    return noted(fitted(chart, [((), None)], largest=900), [class_note, note])
