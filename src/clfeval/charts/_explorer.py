"""The threshold explorer: one interactive Vega-Lite view of every operating point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval import _options
from clfeval.charts._base import (
    _TOTAL,
    COUNTS,
    GREY,
    SIZE,
    TITLES,
    _color,
    _diagonal,
    _q,
    fitted,
)
from clfeval.charts._data import (
    MAX_POINTS,
    MAX_ROWS,
    budget,
    check_max_points,
    check_threshold,
    inline,
    labels,
    limit,
    noted,
    prepare,
)
from clfeval.charts._grid import MAX_GRID, Grid, grid_counts, threshold_grid
from clfeval.charts._thin import coarse, staircase, thin
from clfeval.charts._thresholds import _finite_thresholds

if TYPE_CHECKING:
    import altair as alt

# (label, Vega expression over the picked counts tp, fp, fn, tn; null when undefined)
_RATIO = "({n}) > 0 ? ({d}) / ({n}) : null"
EXPECTED_COST = "Expected cost per row"
PANEL = (
    ("Predicted positive", "datum.tp + datum.fp"),
    ("Precision", _RATIO.format(d="datum.tp", n="datum.tp + datum.fp")),
    ("Recall (TPR)", _RATIO.format(d="datum.tp", n="datum.tp + datum.fn")),
    ("Specificity", _RATIO.format(d="datum.tn", n="datum.tn + datum.fp")),
    ("False positive rate", _RATIO.format(d="datum.fp", n="datum.tn + datum.fp")),
    ("F1 score", _RATIO.format(d="2 * datum.tp", n="2 * datum.tp + datum.fp + datum.fn")),
    ("Accuracy", _RATIO.format(d="datum.tp + datum.tn", n="datum.tp + datum.fp + datum.fn + datum.tn")),
    (
        "Matthews correlation",
        "(datum.tp + datum.fp) * (datum.tp + datum.fn) * (datum.tn + datum.fp) * (datum.tn + datum.fn) > 0"
        " ? (datum.tp * datum.tn - datum.fp * datum.fn) / sqrt((datum.tp + datum.fp) * "
        "(datum.tp + datum.fn) * (datum.tn + datum.fp) * (datum.tn + datum.fn)) : 0",
    ),
)  # fmt: skip


def explorer(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "Threshold explorer",
    rule: str | None = None,
    costs: Sequence[float] | None = None,
    prevalence: float | None = None,
) -> alt.VConcatChart:
    """One interactive view of a ``thresholds`` frame: a slider sets the threshold; the
    ROC and precision-recall operating points move, the confusion matrices and the metrics
    follow, for every series at once. Pure Vega-Lite: works in a static HTML page.

    The slider steps through one grid of round thresholds shared by every series
    (:func:`threshold_grid`: at most 1,001 values, covering every score), and at each the
    panels show the exact counts of the rule ``score >= threshold``, read from the frame's
    cumulative counts (exact when it has every distinct score, as ``clfeval.thresholds``
    without ``n=`` and ``clfeval.threshold_counts`` give). The panel prints the threshold
    with the slider's digits. It starts at ``threshold``, else 0.5 when in the scores'
    range, else their median. ``rule`` replaces the subtitle that says so. ``costs``
    (``cost_fp, cost_fn, benefit_tp, benefit_tn``, per row) add the expected cost per row
    at the slider, (cost_fp·fp + cost_fn·fn − benefit_tp·tp − benefit_tn·tn) / n; with a
    target ``prevalence`` π, at it: tp and fn weigh π·n/P, fp and tn (1 − π)·n/N (undefined
    without positives or negatives), as :func:`clfeval.thresholds` re-weights them.
    """
    import altair as alt

    raw, keys = prepare(table, ("threshold", *COUNTS), "thresholds")
    raw, note = limit(raw, keys, size=_TOTAL)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
    raw = _finite_thresholds(raw, "thresholds")
    raw = raw.select("series", "_sid", "threshold", *COUNTS).sort(
        "_sid", "threshold", descending=[False, True], maintain_order=True
    )
    names = labels(raw)
    lo, hi = float(raw["threshold"].min()), float(raw["threshold"].max())  # type: ignore[arg-type]
    start = threshold
    if start is None:
        start = 0.5 if lo <= 0.5 <= hi else float(raw["threshold"].median())  # type: ignore[arg-type]
    # half the chart's rows for the exact counts on the grid, half for the curves
    share = MAX_ROWS // 2 // len(names)
    grid = threshold_grid(lo, hi, start, max_values=max(101, min(MAX_GRID, share)))
    counts = grid_counts(raw, grid)
    curves = _curves(raw, budget(2 * len(names), max_points))
    color = _color(names, keys)

    param = alt.param(
        name="threshold",
        value=grid.value(grid.index(start)),
        bind=alt.binding_range(
            min=grid.first, max=grid.last, step=grid.step, name="Threshold (score ≥) "
        ),
    )
    picked = _picked(grid)
    data = inline(counts)
    chance = curves.group_by("series", maintain_order=True).agg(
        precision=(pl.col("fn") / (pl.col("fn") + pl.col("tn"))).first()
    )
    curves = curves.drop("fn", "tn")  # both panels draw from one dataset
    roc = _panel(curves, data, picked, color, "fpr", "tpr", _diagonal("fpr", "tpr"), "ROC")
    base_rate = alt.Chart(inline(chance)).mark_rule(strokeDash=[4, 4], color=GREY)
    pr = _panel(
        curves, data, picked, color, "recall", "precision",
        base_rate.encode(alt.Y(**_q("precision"))), "Precision-recall",
    )  # fmt: skip
    matrices = _matrices(data, picked, names, counts)
    costs = _options.costs(*costs) if costs else None
    target = _options.prevalence(prevalence, column=False, mapping=False)
    numbers = _numbers(data, picked, names, grid, costs, target)
    top = alt.hconcat(roc, pr, spacing=24)
    bottom = alt.hconcat(matrices, numbers, spacing=40)
    said = rule or (
        f"Predicted positive when score ≥ threshold; the slider steps by {grid.step:g} over "
        f"every score, starting at {_shown(grid, start)}."
    )
    chart = alt.vconcat(top, bottom, spacing=18).properties(
        title=alt.Title(title, subtitle=[said], subtitleFontSize=11, subtitleColor="#666666"),
        params=[param.param],  # on the top level: add_params() walks into the facet and fails
        description=f"{title}: a slider moves the operating point; counts and metrics follow.",
    )
    views = [(("vconcat", 0, "hconcat", 0), 1.0), (("vconcat", 0, "hconcat", 1), 1.0)]
    wrap = [("vconcat", 0), ("vconcat", 1)]  # narrow: one panel under the other
    return noted(fitted(chart, views, cells=2, largest=420, least=280, wrap=wrap), [note])


def _shown(grid: Grid, t: float) -> str:
    return f"{grid.value(grid.index(t)):.{grid.digits}f}".rstrip("0").rstrip(".") or "0"


def _curves(raw: pl.DataFrame, size: int) -> pl.DataFrame:
    """ROC and PR points per series, from "nothing predicted positive" down, thinned."""
    zero = [pl.lit(0, dtype=raw.schema[c]).alias(c) for c in ("tp", "fp")]
    start = raw.group_by("series", "_sid", maintain_order=True).agg(
        *zero, fn=(pl.col("tp") + pl.col("fn")).first(), tn=(pl.col("fp") + pl.col("tn")).first()
    )
    rows = pl.concat([start, raw.select(*start.columns, "threshold")], how="diagonal_relaxed")
    rows = rows.sort("_sid", maintain_order=True).with_columns(order=pl.int_range(pl.len()))
    tp, fp, fn, tn = (pl.col(c).cast(pl.Float64) for c in COUNTS)
    rows = rows.with_columns(
        fpr=pl.when(fp + tn > 0).then(fp / (fp + tn)).otherwise(0.0),
        tpr=pl.when(tp + fn > 0).then(tp / (tp + fn)).otherwise(0.0),
        precision=pl.when(tp + fp > 0).then(tp / (tp + fp)).otherwise(1.0),
    ).with_columns(recall=pl.col("tpr"))
    rows = staircase(coarse(rows, ["fpr", "tpr", "precision"], size), ["precision"], ["recall"])
    rows = thin(rows, [("fpr", "tpr"), ("recall", "precision")], size)
    # the lines need only their coordinates: the panels read the counts from the grid
    return rows.select("series", "_sid", "order", "fpr", "tpr", "recall", "precision", "fn", "tn")


def _picked(grid: Grid) -> Any:
    """Per series, the stored grid row at or before the slider's index: its counts are the
    counts there (a run of equal counts is stored once, at its first value)."""

    def pick(chart: alt.Chart) -> alt.Chart:
        at = f"round((threshold - {grid.first!r}) / {grid.step!r})"
        chosen = chart.transform_filter(f"datum.k <= {at}")
        chosen = chosen.transform_joinaggregate(at="max(k)", groupby=["series"])
        return (
            chosen.transform_filter("datum.k == datum.at")
            .transform_calculate(
                fpr=_RATIO.format(d="datum.fp", n="datum.fp + datum.tn"),
                tpr=_RATIO.format(d="datum.tp", n="datum.tp + datum.fn"),
                recall="datum.tpr",
                ppv=_RATIO.format(d="datum.tp", n="datum.tp + datum.fp"),
            )
            .transform_calculate(precision="isValid(datum.ppv) ? datum.ppv : 1")
        )

    return pick


def _panel(
    curves: pl.DataFrame,
    data: Any,
    picked: Any,
    color: Any,
    x: str,
    y: str,
    reference: Any,
    title: str,
) -> alt.LayerChart:
    """A curve per series, and on it the operating point of the slider's threshold."""
    import altair as alt

    axes = (alt.X(**_q(x)), alt.Y(**_q(y)))
    line = (
        alt.Chart(inline(curves))
        .mark_line(strokeWidth=2)
        .encode(*axes, alt.Order("order:Q"), color=color)
    )
    tips = [
        alt.Tooltip("series:N", title="Series"),
        *[alt.Tooltip(f"{c}:Q", title=c.upper(), format=",~g") for c in COUNTS],
        alt.Tooltip(f"{x}:Q", title=TITLES.get(x, x), format=".3f"),
        alt.Tooltip(f"{y}:Q", title=TITLES.get(y, y), format=".3f"),
    ]
    dot = (
        picked(alt.Chart(data))
        .mark_point(size=140, filled=True, opacity=1, stroke="#222222", strokeWidth=1.2)
        .encode(*axes, color=color, tooltip=tips)
    )
    return alt.layer(reference, line, dot).properties(
        width=SIZE - 40, height=SIZE - 40, title=title
    )


def _matrices(data: Any, picked: Any, names: Sequence[str], counts: pl.DataFrame) -> Any:
    """The confusion matrix at the slider's threshold, one per series."""
    import altair as alt

    cells = (
        picked(alt.Chart(data))
        .transform_fold(list(COUNTS), as_=["cell", "n"])
        .transform_calculate(
            actual="datum.cell == 'tp' || datum.cell == 'fn' ? 'Positive' : 'Negative'",
            predicted="datum.cell == 'tp' || datum.cell == 'fp' ? 'Positive' : 'Negative'",
            text="upper(datum.cell) + ' ' + format(datum.n, ',')",
            share="datum.n / (datum.tp + datum.fp + datum.fn + datum.tn)",
        )
    )
    side = {"sort": ["Positive", "Negative"], "axis": alt.Axis(labelAngle=0, labelPadding=4)}
    cells = cells.encode(
        alt.X("predicted:N", title="Predicted", **side), alt.Y("actual:N", title="Actual", **side)
    )
    tips = [
        alt.Tooltip("series:N", title="Series"),
        alt.Tooltip("cell:N", title="Cell"),
        alt.Tooltip("n:Q", title="Rows", format=",~g"),
        alt.Tooltip("share:Q", title="Share of all rows", format=".1%"),
    ]
    rect = cells.mark_rect(stroke="#ffffff", strokeWidth=2).encode(
        alt.Color("share:Q", scale=alt.Scale(scheme="blues", domain=[0, 1]), legend=None),
        tooltip=tips,
    )
    ink = alt.condition("datum.share > 0.5", alt.value("white"), alt.value("#222222"))
    matrix: Any = alt.layer(
        rect, cells.mark_text(fontSize=12).encode(text="text:N", color=ink)
    ).properties(width=130, height=110)
    if list(names) != ["all"]:
        header = alt.Header(labelAngle=0, labelFontWeight="bold", labelLimit=130, title=None)
        matrix = matrix.facet(
            facet=alt.Facet("series:N", sort=list(names), header=header), columns=3, spacing=16
        )
    return matrix.properties(title="Confusion matrix at the threshold")


def _numbers(
    data: Any,
    picked: Any,
    names: Sequence[str],
    grid: Grid,
    costs: tuple[float, float, float, float] | None,
    target: float | None = None,
) -> alt.Chart:
    """Threshold, predicted positives and the metrics at the slider, one column per series
    (and the expected cost per row, given the costs: checked numbers, written as such)."""
    import altair as alt

    rows = [("Threshold (score ≥)", "threshold"), *PANEL]
    if costs is not None:
        fp, fn, tp, tn = (repr(float(c)) for c in costs)
        total = "(datum.tp + datum.fp + datum.fn + datum.tn)"
        w_pos = w_neg = "1"
        if target is not None:  # re-weighted to the target: the total stays n
            w_pos = f"({target!r} * {total} / (datum.tp + datum.fn))"
            w_neg = f"({1.0 - target!r} * {total} / (datum.fp + datum.tn))"
        cost = (
            f"({w_neg} * ({fp} * datum.fp - {tn} * datum.tn) "
            f"+ {w_pos} * ({fn} * datum.fn - {tp} * datum.tp))"
        )
        rows.append((EXPECTED_COST, f"{total} > 0 ? {cost} / {total} : NaN"))
    shown = [name for name, _ in rows]
    calcs: dict[str, str] = {}
    for i, (name, expr) in enumerate(rows):
        if expr == "threshold":
            text = f"format(threshold, '.{grid.digits}~f')"
        elif name == "Predicted positive":
            text = (
                f"format({expr}, ',~g') + ' (' + format(({expr}) / "
                "(datum.tp + datum.fp + datum.fn + datum.tn), '.1%') + ')'"
            )
        elif name == EXPECTED_COST:
            text = f"isFinite({expr}) ? format({expr}, ',.4~f') : 'undefined'"
        else:
            text = f"isValid({expr}) ? format({expr}, '.3f') : 'undefined'"
        calcs[f"m{i}"] = text
    chart = (
        picked(alt.Chart(data))
        .transform_calculate(**calcs)
        .transform_fold([f"m{i}" for i in range(len(rows))], as_=["key", "shown"])
        .transform_calculate(
            metric=" : ".join(f"datum.key == 'm{i}' ? '{n}'" for i, n in enumerate(shown)) + " : ''"
        )
        .mark_text(fontSize=12, align="center")
        .encode(
            alt.Y(
                "metric:N",
                sort=shown,
                title=None,
                axis=alt.Axis(domain=False, ticks=False, labelFontSize=12, labelPadding=10),
            ),
            text="shown:N",
        )
    )
    if list(names) == ["all"]:
        chart = chart.encode(x=alt.value(60)).properties(width=110)
    else:
        axis = alt.Axis(orient="top", labelAngle=0, domain=False, ticks=False, labelLimit=110)
        chart = chart.encode(alt.X("series:N", sort=list(names), title=None, axis=axis))
        chart = chart.properties(width=alt.Step(120))
    return chart.properties(
        title="Metrics at the threshold",
        height=alt.Step(22),
        view=alt.ViewBackground(stroke=None),
    )
