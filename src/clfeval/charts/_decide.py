"""Decision charts: precision and NPV against prevalence, the decision curve, the cost curve.

Each takes the tidy frame of a clfeval function (``prevalence_curve``, ``decision_curve``,
``thresholds`` with costs) and returns an Altair chart; groups sit side by side (facets),
since each has its own reference lines (treat all, the measured prevalence). What a chart
marks is said in its subtitle.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._base import (
    GREY,
    PALETTE,
    SIZE,
    Metric,
    fitted,
    key_title,
    panel_columns,
    titled,
)
from clfeval.charts._data import (
    MAX_POINTS,
    budget,
    check_max_points,
    defined,
    given,
    labels,
    limit,
    noted,
    prepare,
    stacked,
)
from clfeval.charts._thin import staircase, thin

if TYPE_CHECKING:
    import altair as alt


def _faceted(chart: Any, keys: list[str], names: list[str], title: str, lines: list[str]) -> Any:
    """One chart, or one panel per series (each with its own reference lines), sized by the
    page that shows it."""
    import altair as alt

    heading = titled(title, lines)
    if not keys:
        chart = chart.properties(title=heading, description=title)
        return fitted(chart, [((), None)], largest=900)
    columns = panel_columns(len(names))
    facet = alt.Facet("series:N", sort=names, title=key_title(keys))
    faceted = chart.facet(facet=facet, columns=columns).properties(title=heading, description=title)
    return fitted(faceted, [(("spec",), None)], cells=columns, largest=640)


def _rules(names: list[str], values: dict[str, float | None] | None, column: str) -> pl.DataFrame:
    """One row per series with a finite value: the x of a reference rule."""
    if not values:
        return pl.DataFrame(
            {"series": [], column: []}, schema={"series": pl.String, column: pl.Float64}
        )
    one = values.get("all") if list(values) == ["all"] else None
    rows = [(s, values.get(s, one)) for s in names]
    rows = [(s, float(v)) for s, v in rows if v is not None and math.isfinite(v)]
    return pl.DataFrame(rows, schema={"series": pl.String, column: pl.Float64}, orient="row")


def prevalence(
    frame: pl.DataFrame | pl.LazyFrame,
    *,
    measured: Metric = None,
    metrics: tuple[str, ...] = ("precision", "npv"),
    title: str = "Precision and NPV against prevalence",
) -> alt.LayerChart | alt.FacetChart:
    """Precision and NPV (y) of one operating point against the prevalence (x, log-odds
    spaced, log scale): a ``prevalence_curve`` frame. ``measured`` (a number, a frame of
    keys + ``prevalence``, or a mapping series -> value) adds a dashed rule at the prevalence
    of the data the point was measured on (the seeds' lesson 003, section 10).

    Examples
    --------
    >>> import clfeval as ce
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> spec = prevalence(ce.prevalence_curve(df, "y", "yhat"), measured=0.5).to_dict()
    >>> spec["layer"][0]["mark"]["type"]
    'line'
    """
    import altair as alt

    raw, keys = prepare(frame, ("prevalence", *metrics), "prevalence_curve")
    raw = defined(raw, "prevalence_curve", *metrics)
    raw, note = limit(raw, keys)
    names = labels(raw)
    long = raw.unpivot(on=list(metrics), index=["series", "prevalence"], variable_name="metric")
    shown = {"precision": "Precision", "npv": "NPV", "accuracy": "Accuracy", "f1": "F1"}
    long = long.with_columns(pl.col("metric").replace(shown))
    domain = [shown.get(m, m) for m in metrics]
    rule = _rules(names, given(measured, "prevalence"), "prevalence")
    x = alt.X(
        "prevalence:Q",
        title="Prevalence (share of positives, log scale)",
        scale=alt.Scale(type="log", domain=[0.001, 1], nice=False),
    )
    y = alt.Y("value:Q", title="Value at that prevalence", scale=alt.Scale(domain=[0, 1]))
    color = alt.Color(
        "metric:N", scale=alt.Scale(domain=domain, range=list(PALETTE[: len(domain)])), title=None
    )
    tips = [
        alt.Tooltip("metric:N", title="Metric"),
        alt.Tooltip("prevalence:Q", title="Prevalence", format=".4~g"),
        alt.Tooltip("value:Q", title="Value", format=".4f"),
    ]
    lines = alt.Chart().transform_filter("datum.part == 'line'")
    layers: list[Any] = [
        lines.mark_line(strokeWidth=2).encode(x, y, color),
        lines.mark_point(opacity=0, size=30).encode(x, y, color, tooltip=tips),
    ]
    if rule.height:
        layers.append(
            alt.Chart()
            .transform_filter("datum.part == 'rule'")
            .mark_rule(strokeDash=[4, 4], color=GREY)
            .encode(x, tooltip=[alt.Tooltip("prevalence:Q", title="Measured", format=".4~g")])
        )
    data = stacked({"line": long, "rule": rule})
    chart = alt.layer(*layers, data=data).properties(width=SIZE + 80, height=SIZE - 60)
    lines = ["dashed: the prevalence the operating point was measured at"] if rule.height else []
    return noted(_faceted(chart, keys, names, title, lines), [note])


def decision_curve(
    frame: pl.DataFrame | pl.LazyFrame, *, title: str = "Decision curve"
) -> alt.LayerChart | alt.FacetChart:
    """Net benefit (y) against the threshold probability (x) of a ``decision_curve`` frame:
    the model, treat all (dashed) and treat none (0). The y axis runs from a little below 0
    to the best net benefit, as decision curves are read (treat all falls far below).

    Examples
    --------
    >>> import clfeval as ce
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "p": [0.9, 0.4, 0.6, 0.1]})
    >>> spec = decision_curve(ce.decision_curve(df, "y", "p")).to_dict()
    >>> spec["layer"][0]["mark"]["type"]
    'line'
    """
    import altair as alt

    columns = ("threshold", "net_benefit", "net_benefit_all", "net_benefit_none")
    raw, keys = prepare(frame, columns, "decision_curve")
    raw = defined(raw, "decision_curve", "net_benefit")
    raw, note = limit(raw, keys)
    names = labels(raw)
    curves = {
        "net_benefit": "Model",
        "net_benefit_all": "Treat all",
        "net_benefit_none": "Treat none",
    }
    long = raw.unpivot(on=list(curves), index=["series", "threshold"], variable_name="strategy")
    long = long.with_columns(pl.col("strategy").replace(curves), pl.col("value").cast(pl.Float64))
    top = max(
        [v for v in (raw["net_benefit"].max(), raw["net_benefit_all"].max()) if v is not None]
        + [0.0]
    )  # type: ignore[operator]
    top = float(top) if top > 0 else 0.1
    y = alt.Y(
        "value:Q",
        title="Net benefit (true positives per row, net of weighted false positives)",
        scale=alt.Scale(domain=[-0.25 * top, 1.05 * top], nice=False),
    )
    x = alt.X("threshold:Q", title="Threshold probability", scale=alt.Scale(domain=[0, 1]))
    order = list(curves.values())
    color = alt.Color(
        "strategy:N", scale=alt.Scale(domain=order, range=[PALETTE[0], GREY, "#555555"]), title=None
    )
    dash = alt.StrokeDash(
        "strategy:N", scale=alt.Scale(domain=order, range=[[1, 0], [6, 3], [2, 2]]), title=None
    )
    tips = [
        alt.Tooltip("strategy:N", title="Strategy"),
        alt.Tooltip("threshold:Q", title="Threshold", format=".4~g"),
        alt.Tooltip("value:Q", title="Net benefit", format=".4f"),
    ]
    base = alt.Chart().transform_filter("datum.part == 'line'")
    layers = [
        base.mark_line(strokeWidth=2, clip=True).encode(x, y, color, dash),
        base.mark_point(opacity=0, size=30, clip=True).encode(x, y, color, tooltip=tips),
    ]
    chart = alt.layer(*layers, data=stacked({"line": long})).properties(
        width=SIZE + 80, height=SIZE - 60
    )
    lines = ["a model is worth using where its curve is above both treat all and treat none"]
    return noted(_faceted(chart, keys, names, title, lines), [note])


def cost(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    calibrated: Metric = None,
    max_points: int = MAX_POINTS,
    title: str = "Expected cost by threshold",
) -> alt.LayerChart | alt.FacetChart:
    """Expected cost per row (y) against the threshold (x) of a ``thresholds`` frame with
    costs: a step line (the cost holds from one distinct score down to the next), its
    minimum marked at the highest threshold among ties, and, when ``calibrated`` is given
    (the ``calibrated_threshold`` of :func:`clfeval.best_threshold`), a dashed rule at the
    threshold that is optimal for calibrated probabilities.

    Examples
    --------
    >>> import clfeval as ce
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "p": [0.9, 0.4, 0.6, 0.1]})
    >>> t = ce.thresholds(df, "y", "p", cost_fp=1, cost_fn=3)
    >>> cost(t, calibrated=0.25).to_dict()["layer"][0]["mark"]["type"]
    'line'
    """
    import altair as alt

    raw, keys = prepare(table, ("threshold", "expected_cost"), "thresholds")
    raw, note = limit(raw, keys)
    max_points = check_max_points(max_points)
    names = labels(raw)
    raw = raw.filter(pl.col("threshold").is_finite())
    steps = staircase(
        raw.select("series", "_sid", "order", "threshold", "expected_cost"), ["threshold"]
    )
    line = thin(steps, [("threshold", "expected_cost")], budget(len(names), max_points))
    best = (
        raw.drop_nulls("expected_cost")
        .group_by("series", maintain_order=True)
        .agg(pl.all().get(pl.col("expected_cost").arg_min()))
        .select("series", "threshold", "expected_cost")
    )
    rule = _rules(names, given(calibrated, "calibrated_threshold"), "threshold")
    x = alt.X(
        "threshold:Q",
        title="Threshold (predict positive when score ≥ threshold)",
        scale=alt.Scale(zero=False),
    )
    y = alt.Y("expected_cost:Q", title="Expected cost per row", scale=alt.Scale(zero=True))
    tips = [
        alt.Tooltip("threshold:Q", title="Threshold", format=".4~g"),
        alt.Tooltip("expected_cost:Q", title="Expected cost", format=".4f"),
    ]
    layers: list[Any] = [
        alt.Chart()
        .transform_filter("datum.part == 'line'")
        .mark_line(strokeWidth=2, color=PALETTE[0])
        .encode(x, y, alt.Order("order:Q")),
        alt.Chart()
        .transform_filter("datum.part == 'best'")
        .mark_point(size=80, filled=True, opacity=1, color=PALETTE[1])
        .encode(x, y, tooltip=tips),
    ]
    if rule.height:
        layers.append(
            alt.Chart()
            .transform_filter("datum.part == 'rule'")
            .mark_rule(strokeDash=[4, 4], color=GREY)
            .encode(
                x, tooltip=[alt.Tooltip("threshold:Q", title="Calibrated optimum", format=".4~g")]
            )
        )
    data = stacked({"line": line, "best": best, "rule": rule})
    chart = alt.layer(*layers, data=data).properties(width=SIZE + 80, height=SIZE - 60)
    lines = ["● the minimum expected cost (the highest threshold among ties)"]
    if best.height == 1 and list(names) == ["all"]:
        row = best.row(0, named=True)
        lines = [
            f"● the minimum expected cost, {row['expected_cost']:.4g} at {row['threshold']:.4g}"
        ]
    if rule.height:
        lines.append(
            "dashed: the cost-optimal threshold if the scores are calibrated probabilities"
        )
    return noted(_faceted(chart, keys, names, title, lines), [note])
