"""Metrics against the threshold."""

from __future__ import annotations

import json
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
    _color,
    _tips,
    fitted,
    panel_columns,
    titled,
)

DASHES = ([1, 0], [7, 3], [2, 2], [9, 3, 2, 3], [4, 2, 1, 2], [12, 3], [1, 3], [5, 5])


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
    the next, so each is drawn as steps. Each metric has its own dash pattern; the colour
    is the series' (group or model), as in every other chart, and groups sit side by side.
    The maximum of each trade-off metric (F1, MCC, accuracy, ...) is marked by a dot, at the
    highest threshold among ties, and said in the title or the panel's header, never on the
    plot; ``threshold`` adds a dashed grey rule.
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
    size = budget(len(names), max_points)
    steps = staircase(coarse(raw, ["threshold", *metrics], size), ["threshold"], metrics)
    line = thin(steps, [("threshold", m) for m in metrics], size)
    shown = {m: TITLES.get(m, m) for m in metrics}
    best = _best(raw, metrics, counts, shown)
    said = {
        s: "; ".join(
            f"max {r['metric']} {r['value']:.3f} at {r['threshold']:.4g}"
            for r in best.filter(pl.col("series") == s).iter_rows(named=True)
        )
        for s in names
    }
    panels = {s: f"{s} · {said[s]}" if said[s] else s for s in names}
    low = min([0.0, *[v for m in metrics if (v := raw[m].min()) is not None]])  # type: ignore[list-item]
    x = alt.X(
        "threshold:Q",
        title="Threshold (predict positive when score ≥ threshold)",
        scale=alt.Scale(zero=False),
    )
    y = alt.Y("value:Q", title="Metric value", scale=alt.Scale(domain=[low, 1], nice=False))
    color = _color(names, keys).legend(None) if keys else alt.value(PALETTE[0])
    dash = alt.StrokeDash(
        "metric:N",
        scale=alt.Scale(
            domain=list(shown.values()),
            range=[DASHES[i % len(DASHES)] for i in range(len(shown))],
        ),
        sort=list(shown.values()),
        legend=alt.Legend(title=None, orient="top", symbolStrokeWidth=2, symbolSize=300),
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
    marks = alt.Chart().transform_filter("datum.part == 'best'").encode(x, y, tooltip=tips)
    layers: list[Any] = [
        curves.mark_line(strokeWidth=2).encode(x, y, dash, alt.Order("order:Q"), color=color),
        curves.transform_filter("!datum.corner")
        .mark_point(opacity=0, size=40)
        .encode(x, y, tooltip=tips),
        marks.mark_point(size=90, filled=True, opacity=1, stroke="#ffffff", strokeWidth=1).encode(
            color=color
        ),
    ]
    lines: list[str | None] = []
    if threshold is not None:
        layers.append(
            alt.Chart()
            .transform_filter("datum.part == 'rule'")
            .mark_rule(strokeDash=[3, 3], color="#777777", strokeWidth=1.5)
            .encode(x)
        )
        lines.append(f"Grey dashed line: the rule score ≥ {threshold:.4g}")
    chart = alt.layer(*layers, data=stacked(parts)).properties(width=SIZE + 80, height=SIZE - 60)
    if not keys:
        lines.insert(0, f"● {said['all'][0].upper()}{said['all'][1:]}" if said["all"] else None)
        chart = chart.properties(title=titled(title, lines), description=title)
        return noted(fitted(chart, [((), None)], largest=1100), [note])
    columns = panel_columns(len(names))
    # each header says its maximum: JSON string literals are Vega expression literals
    said_expr = " : ".join(
        f"datum.value === {json.dumps(s)} ? {json.dumps(panels[s])}" for s in names
    )
    header = alt.Header(
        labelFontWeight="bold",
        labelLimit=420,
        labelAnchor="start",
        labelExpr=f"{said_expr} : datum.value",
    )
    facet = alt.Facet("series:N", sort=names, title=None, header=header)
    faceted = chart.facet(facet=facet, columns=columns).properties(
        title=titled(title, ["● the maximum of each trade-off metric", *lines]),
        description=title,
    )
    return noted(fitted(faceted, [(("spec",), None)], cells=columns, largest=640), [note])


def _best(
    raw: pl.DataFrame, metrics: Sequence[str], counts: Sequence[str], shown: dict[str, str]
) -> pl.DataFrame:
    """Per series and trade-off metric, the row of its maximum (ties: the highest threshold)."""
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
    return best.with_columns(pl.col("metric").replace_strict(shown, return_dtype=pl.String))


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
