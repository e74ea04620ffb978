"""Metrics against the threshold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._data import (
    MAX_POINTS,
    budget,
    check_max_points,
    check_threshold,
    labels,
    limit,
    metric_list,
    noted,
    prepare,
    stacked,
)
from clfeval.charts._thin import (
    coarse,
    staircase,
    thin,
)
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    _TOTAL,
    COUNTS,
    PALETTE,
    SIZE,
    TITLES,
    TRADE_OFFS,
    _tips,
)


def thresholds(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    metrics: Sequence[str] = ("precision", "recall", "f1"),
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "Metrics by threshold",
) -> alt.LayerChart | alt.FacetChart:
    """Metrics of a ``thresholds`` frame (y) against the threshold (x), best values marked.

    With the rule ``score >= threshold`` a metric holds from one distinct score down to
    the next, so each is drawn as steps. The maximum of each trade-off metric (F1, MCC,
    accuracy, ...) is marked, at the highest threshold among ties; ``threshold`` adds a
    dashed rule. Groups sit side by side.
    """
    import altair as alt

    metrics = metric_list(metrics)
    raw, keys = prepare(table, ("threshold", *metrics), "thresholds")
    counts = [c for c in COUNTS if c in raw.columns]
    raw, note = limit(raw, keys, size=_TOTAL if len(counts) == 4 else None)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
    needed = ["series", "_sid", "order", "threshold", *counts, *dict.fromkeys(metrics)]
    raw = _finite_thresholds(raw.select(needed), "thresholds")
    names = labels(raw)
    steps = staircase(
        coarse(raw, ["threshold", *metrics], budget(len(names), max_points)), ["threshold"]
    )
    line = thin(steps, [("threshold", m) for m in metrics], budget(len(names), max_points))
    shown = {m: TITLES.get(m, m) for m in metrics}
    best = raw.with_columns(pl.col(metrics).cast(pl.Float64)).unpivot(
        on=[m for m in metrics if m in TRADE_OFFS],
        index=["series", "threshold", *counts],
        variable_name="metric",
        value_name="value",
    )
    best = (
        best.with_columns(pl.col("value").cast(pl.Float64))
        .drop_nulls("value")
        .group_by("series", "metric", maintain_order=True)
        .agg(pl.all().get(pl.col("value").arg_max()))
    )
    best = best.with_columns(pl.col("metric").replace_strict(shown, return_dtype=pl.String))
    best = best.with_columns(
        text=pl.format(
            "max {} at {}", pl.col("value").round(3), pl.col("threshold").round_sig_figs(4)
        )
    )
    low = min([0.0, *[v for m in metrics if (v := raw[m].min()) is not None]])  # type: ignore[list-item]
    x = alt.X(
        "threshold:Q",
        title="Threshold (predict positive when score ≥ threshold)",
        scale=alt.Scale(zero=False),
    )
    y = alt.Y("value:Q", title="Metric value", scale=alt.Scale(domain=[low, 1], nice=False))
    color = alt.Color(
        "metric:N",
        scale=alt.Scale(domain=list(shown.values()), range=list(PALETTE[: len(shown)])),
        sort=list(shown.values()),
        title="Metric",
    )
    tips = [
        alt.Tooltip("metric:N", title="Metric"),
        alt.Tooltip("value:Q", title="Value", format=".4f"),
        *_tips(raw, keys, ["threshold"]),
    ]
    parts = {"line": line.rename({m: shown[m] for m in metrics}), "best": best}
    if threshold is not None:
        parts["rule"] = pl.DataFrame(
            {"series": names, "threshold": [float(threshold)] * len(names)}
        )
    fold = [f.replace(".", "\\.").replace("[", "\\[").replace("]", "\\]") for f in shown.values()]
    curves = (
        alt.Chart()
        .transform_filter("datum.part == 'line'")
        .transform_fold(fold, as_=["metric", "value"])
    )
    marks = alt.Chart().transform_filter("datum.part == 'best'").encode(x, y, color, tooltip=tips)
    layers: list[Any] = [
        curves.mark_line(strokeWidth=2).encode(x, y, color, alt.Order("order:Q")),
        curves.transform_filter("!datum.corner")
        .mark_point(opacity=0, size=40)
        .encode(x, y, color, tooltip=tips),
        marks.mark_point(size=80, filled=True, opacity=1),
        marks.mark_text(align="left", dx=7, dy=-9, fontSize=10).encode(text="text:N"),
    ]
    if threshold is not None:
        layers.append(
            alt.Chart()
            .transform_filter("datum.part == 'rule'")
            .mark_rule(strokeDash=[4, 4], color="#555555")
            .encode(x)
        )
    chart = alt.layer(*layers, data=stacked(parts)).properties(width=SIZE + 80, height=SIZE - 60)
    if not keys:
        return noted(chart.properties(title=title), [note])
    return noted(
        chart.facet(
            facet=alt.Facet("series:N", sort=names, title=" · ".join(keys)), columns=2, title=title
        ),
        [note],
    )


def _finite_thresholds(raw: pl.DataFrame, chart: str) -> pl.DataFrame:
    """The rows with a finite threshold; an error when there are none."""
    raw = raw.filter(pl.col("threshold").is_finite())
    if raw.height == 0:
        raise InputError(
            f"the {chart} frame has no row with a finite threshold: there is nothing to draw",
            column="threshold",
            role="frame",
            rule="empty",
            hint=f"pass the frame clfeval.{chart}(...) returns",
        )
    return raw
