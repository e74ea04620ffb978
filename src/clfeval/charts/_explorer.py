"""The threshold explorer: one interactive Vega-Lite view of every operating point."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._data import (
    MAX_POINTS,
    budget,
    check_max_points,
    check_threshold,
    inline,
    labels,
    limit,
    noted,
    prepare,
)
from clfeval.charts._thin import (
    coarse,
    staircase,
    thin,
)

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    _TOTAL,
    COUNTS,
    GREY,
    SIZE,
    TITLES,
    _color,
    _diagonal,
    _q,
    _tips,
)
from clfeval.charts._thresholds import _finite_thresholds

EXPLORER_METRICS = ("precision", "recall", "specificity", "f1", "accuracy", "mcc")


def explorer(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "Threshold explorer",
) -> alt.VConcatChart:
    """One interactive view of a ``thresholds`` frame: a slider sets the threshold; the
    ROC and precision-recall operating points move, the confusion matrix and the metrics
    follow. Pure Vega-Lite, no server and no callback: works in a static HTML page.

    A slider value ``t`` selects, per series, the row with the smallest threshold ``>= t``
    (rule ``score >= threshold``); the panels show that row's threshold and counts. The
    table is thinned to ``max_points`` rows per series, keeping both curves' shape. The
    slider starts at ``threshold``, else 0.5 when in range, else the median threshold.
    """
    import altair as alt

    raw, keys = prepare(table, ("threshold", *COUNTS, "fpr", *EXPLORER_METRICS), "thresholds")
    raw, note = limit(raw, keys, size=_TOTAL)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
    raw = _finite_thresholds(raw, "thresholds").sort(
        "_sid", "threshold", descending=[False, True], maintain_order=True
    )
    names = labels(raw)
    # the "+inf" row, nothing predicted positive, starts both curves at recall 0
    zero = [pl.lit(0, dtype=raw.schema[c]).alias(c) for c in ("tp", "fp")]
    start = raw.group_by("series", "_sid", maintain_order=True).agg(
        *zero, fn=(pl.col("tp") + pl.col("fn")).first(), tn=(pl.col("fp") + pl.col("tn")).first()
    )
    start = start.with_columns(fpr=pl.lit(0.0), recall=pl.lit(0.0), precision=pl.lit(1.0))
    rows = pl.concat(
        [start, raw.select(*start.columns, "threshold", *EXPLORER_METRICS[2:])],
        how="diagonal_relaxed",
    )
    rows = rows.sort("_sid", maintain_order=True).with_columns(order=pl.int_range(pl.len()))
    size = budget(len(names), max_points)
    rows = staircase(coarse(rows, ["fpr", "recall", "precision"], size), ["precision"])
    rows = thin(rows, [("fpr", "recall"), ("recall", "precision")], size)
    lo, hi = float(raw["threshold"].min()), float(raw["threshold"].max())  # type: ignore[arg-type]
    start_at = (
        threshold
        if threshold is not None
        else 0.5
        if lo <= 0.5 <= hi
        else float(raw["threshold"].median())
    )  # type: ignore[arg-type]
    slider = alt.binding_range(
        min=lo, max=hi, step=(hi - lo) / 1000 if hi > lo else 1, name="Threshold (score ≥) "
    )
    param = alt.param(name="threshold", value=start_at, bind=slider)
    data, color = inline(rows), _color(names, keys, orient="bottom-right")

    def pick(chart: alt.Chart) -> alt.Chart:
        """Per series, the row with the smallest threshold >= the slider's value."""
        chosen = chart.transform_filter("isValid(datum.threshold) && datum.threshold >= threshold")
        chosen = chosen.transform_joinaggregate(at="min(threshold)", groupby=["series"])
        return chosen.transform_filter("datum.threshold == datum.at")

    def panel(x: str, y: str, reference: alt.Chart, y_title: str | None = None) -> alt.LayerChart:
        base = alt.Chart(data).encode(alt.X(**_q(x)), alt.Y(**_q(y, y_title)), color=color)
        line = base.mark_line(strokeWidth=2).encode(alt.Order("order:Q"))
        dot = pick(base).mark_point(size=150, filled=True, opacity=1, stroke="black", strokeWidth=1)
        return alt.layer(
            reference,
            line,
            dot.encode(tooltip=_tips(rows, keys, ["threshold", "fpr", "recall", "precision"])),
        ).properties(width=SIZE - 60, height=SIZE - 60)

    roc_panel = panel(
        "fpr",
        "recall",
        _diagonal("fpr", "recall", y_title="True positive rate (recall)"),
        "True positive rate (recall)",
    )
    chance = start.select("series", precision=pl.col("fn") / (pl.col("fn") + pl.col("tn")))
    rule = (
        alt.Chart(inline(chance))
        .mark_rule(strokeDash=[4, 4], color=GREY)
        .encode(alt.Y(**_q("precision")))
    )
    pr_panel = panel("recall", "precision", rule)

    cells = (
        pick(alt.Chart(data))
        .transform_fold(list(COUNTS), as_=["cell", "n"])
        .transform_calculate(
            actual="datum.cell == 'tp' || datum.cell == 'fn' ? 'Positive' : 'Negative'",
            predicted="datum.cell == 'tp' || datum.cell == 'fp' ? 'Positive' : 'Negative'",
            text="[upper(datum.cell), format(datum.n, ',')]",
        )
    )
    most = start.select(pl.max_horizontal("fn", "tn").max()).item()
    top = max(1, int(most)) if most is not None and math.isfinite(most) else 1  # inf: huge weights
    side = {"sort": ["Negative", "Positive"], "axis": alt.Axis(labelAngle=0)}
    cells = cells.encode(
        alt.X("predicted:N", title="Predicted", **side), alt.Y("actual:N", title="Actual", **side)
    )
    cell_tips = [
        alt.Tooltip("cell:N", title="Cell"),
        alt.Tooltip("n:Q", title="Rows", format=",~g"),
        alt.Tooltip("threshold:Q", title=TITLES["threshold"], format=".4~g"),
    ]
    rect = cells.mark_rect(stroke="white", strokeWidth=2).encode(
        alt.Color("n:Q", scale=alt.Scale(scheme="blues", domain=[0, top]), legend=None),
        tooltip=cell_tips,
    )
    ink = alt.condition(f"datum.n > {top * 0.55}", alt.value("white"), alt.value("#222222"))
    matrix: Any = alt.layer(
        rect, cells.mark_text(fontSize=13).encode(text="text:N", color=ink)
    ).properties(width=110, height=110)
    if names != ["all"]:
        matrix = matrix.facet(
            row=alt.Row(
                "series:N",
                sort=names,
                title=None,
                header=alt.Header(labelAngle=0, labelAlign="left"),
            )
        )
    matrix = matrix.properties(title="Confusion matrix")

    shown = {"threshold": TITLES["threshold"], **{m: TITLES[m] for m in EXPLORER_METRICS}}
    name_expr = " : ".join(f"datum.key == '{k}' ? '{v}'" for k, v in shown.items()) + " : datum.key"
    value_expr = "datum.key == 'threshold' ? format(datum.v, '.4~g') : isValid(datum.v) && isFinite(datum.v) ? format(datum.v, '.3f') : 'undefined'"
    numbers = (
        pick(alt.Chart(data))
        .transform_fold(list(shown), as_=["key", "v"])
        .transform_calculate(name=name_expr, shown=value_expr)
    )
    numbers = numbers.mark_text(fontSize=13).encode(
        alt.Y(
            "name:N",
            sort=list(shown.values()),
            title=None,
            axis=alt.Axis(domain=False, ticks=False, labelFontSize=12, labelPadding=8),
        ),
        text="shown:N",
    )
    if names == ["all"]:
        numbers = numbers.encode(x=alt.value(35)).properties(width=70)
    else:
        numbers = numbers.encode(
            alt.X(
                "series:N",
                sort=names,
                title=None,
                axis=alt.Axis(orient="top", labelAngle=0, domain=False, ticks=False),
            )
        )
        numbers = numbers.properties(width=alt.Step(110))
    numbers = numbers.properties(
        title="Metrics", height=alt.Step(22), view=alt.ViewBackground(stroke=None)
    )
    grid = alt.vconcat(
        alt.hconcat(
            roc_panel.properties(title="ROC"), pr_panel.properties(title="Precision-recall")
        ),
        alt.hconcat(matrix, numbers, spacing=60),
    )
    # the parameter goes on the top level: add_params() walks into the facet and fails
    return noted(grid.properties(title=title, params=[param.param]), [note])
