"""Altair charts drawn from the tidy frames clfeval returns.

Each function takes the frame a clfeval function returned (``roc_curve``,
``pr_curve``, ``confusion_matrix``, ...) and returns the Altair object for the caller
to restyle, show or save (no ``.show()``, no global ``configure``). Group columns
(``by=``) and the one-vs-rest ``label`` column come first in those frames; each
combination of their values is one series, and the i-th series has the i-th palette
colour in every chart.

Chart data stays small whatever the input size: curves are thinned to ``max_points``
per curve (collinear points first, then those whose removal changes the drawn line
least), histograms are binned by Polars, and the data is embedded inline, so
Altair's 5,000-row guard never has to step in. ``inf`` and NaN reach the JSON as null.

Many groups or classes do not multiply the data either: a chart draws at most
``MAX_SERIES`` (20) series, the largest (by a ``_size`` column when the frame has one,
else by its own counts, else the first ones), and a confusion matrix or score histogram
at most ``MAX_CLASSES`` (20) classes, the most frequent, the others pooled into one
"other" class. The chart's subtitle says what was left out, and so does its
``usermeta["clfeval"]["notes"]``, which ``clfeval``'s HTML page prints beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval._metrics import METRICS
from clfeval._plot import (
    MAX_CLASSES,
    MAX_POINTS,
    MAX_ROWS,
    MAX_SERIES,
    SIZE_COLUMN,
    as_text,
    budget,
    by_series,
    check_max_points,
    check_threshold,
    coarse,
    fold_note,
    given,
    inline,
    labels,
    limit,
    noted,
    other_name,
    per_series,
    prepare,
    probit,
    score_histogram,
    stacked,
    staircase,
    thin,
    top_classes,
)
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

__all__ = [
    "MAX_CLASSES",
    "MAX_POINTS",
    "MAX_SERIES",
    "calibration",
    "compare",
    "confusion_matrix",
    "det",
    "explorer",
    "gain",
    "lift",
    "pr",
    "roc",
    "score_histogram",
    "scores",
    "thresholds",
]

PALETTE = (  # vega "tableau10", then the other half of "tableau20"
    "#4c78a8", "#f58518", "#e45756", "#72b7b2", "#54a24b", "#eeca3b", "#b279a2",
    "#ff9da6", "#9d755d", "#bab0ac", "#9ecae9", "#ffbf79", "#88d27a", "#f2cf5b",
    "#83bcb6", "#ff9d98", "#d6a5c9", "#d8b5a5", "#79706e", "#439894",
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


def _color(names: Sequence[str], keys: Sequence[str], *, orient: str = "right") -> Any:
    """Colour by ``series``: the i-th series gets the i-th palette colour in every chart;
    a single unnamed series gets the first colour and no legend."""
    import altair as alt

    if list(names) == ["all"]:
        return alt.value(PALETTE[0])
    scale = alt.Scale(
        domain=list(names), range=[PALETTE[i % len(PALETTE)] for i in range(len(names))]
    )
    legend = alt.Legend(orient=orient if len(names) <= 8 else "right", labelLimit=320)
    title = " · ".join(keys) if keys else None
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

    tips = [alt.Tooltip("series:N", title=" · ".join(keys))] if keys else []
    for f in [*fields, *COUNTS]:
        if f not in frame.columns or any(t.field == f for t in tips):
            continue
        fmt = ".4~g" if f.startswith("threshold") else ",~g" if f in COUNTS else ".4f"
        tips.append(
            alt.Tooltip(f"{f}:Q", title=f.upper() if f in COUNTS else TITLES.get(f, f), format=fmt)
        )
    return tips


def _curve(
    frame: pl.DataFrame,
    keys: Sequence[str],
    x: str,
    y: str,
    *,
    orient: str = "bottom-right",
    y_channel: Any = None,
) -> alt.LayerChart:
    """One line per series through (x, y) in ``order``, with invisible hover points that
    carry the tooltips (corner points of step curves get none)."""
    import altair as alt

    base = alt.Chart(inline(frame)).encode(
        alt.X(**_q(x)),
        y_channel if y_channel is not None else alt.Y(**_q(y)),
        color=_color(labels(frame), keys, orient=orient),
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
    orient: str = "bottom-right",
) -> alt.LayerChart:
    """The point of the rule ``score >= threshold``: per series, the row with the smallest
    threshold at or above it (a null or +inf threshold: nothing predicted positive)."""
    import altair as alt

    t = pl.col("threshold").fill_null(math.inf).fill_nan(math.inf)
    point = by_series(
        raw.filter(t >= threshold),
        *[pl.col(c).get(t.arg_min()) for c in raw.columns if c not in ("series", "_sid")],
    )
    point = _renamed(point, legend).with_columns(text=pl.lit(f"score ≥ {threshold:.4g}"))
    base = alt.Chart(inline(point)).encode(
        alt.X(**_q(x)), alt.Y(**_q(y)), tooltip=_tips(point, keys, ["threshold", x, y])
    )
    names = list(legend.values())
    dot = base.mark_point(size=120, filled=True, opacity=1, stroke="white", strokeWidth=1.5).encode(
        color=_color(names, keys, orient=orient)
    )
    if keys:
        return alt.layer(dot)
    return alt.layer(
        dot, base.mark_text(align="left", dx=8, dy=8, fontSize=11).encode(text="text:N")
    )


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


def roc(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    auroc: Metric = None,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "ROC curve",
) -> alt.LayerChart:
    """ROC curve: true positive rate (y) against false positive rate (x), over chance.

    ``curve`` is a ``roc_curve`` frame (``threshold, fpr, tpr`` after any ``by`` or
    ``label`` columns); points are joined by straight lines, as tied scores imply. The
    legend gives each AUROC: ``auroc`` when passed (a number, a frame of keys + ``auroc``
    or a mapping series -> value), else the trapezoid area of the full curve, which is
    scikit-learn's ``roc_auc_score``. ``threshold`` marks the operating point of the rule
    ``score >= threshold`` (exact when the curve has every threshold).

    Examples
    --------
    >>> c = pl.DataFrame({"threshold": [float("inf"), 0.8, 0.3], "fpr": [0.0, 0.0, 1.0], "tpr": [0.0, 1.0, 1.0]})
    >>> roc(c).to_dict()["layer"][1]["layer"][0]["encoding"]["x"]["title"]
    'False positive rate'
    """
    import altair as alt

    raw, keys = prepare(curve, ("threshold", "fpr", "tpr"), "roc_curve")
    raw, note = limit(raw, keys)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
    area = (
        (pl.col("fpr") - pl.col("fpr").shift(1)) * (pl.col("tpr") + pl.col("tpr").shift(1))
    ).sum() / 2
    names = labels(raw)
    legend = _legend(names, given(auroc, "auroc") or per_series(raw, area), "AUROC")
    line = _renamed(thin(raw, [("fpr", "tpr")], budget(len(names), max_points)), legend)
    layers: list[Any] = [_diagonal("fpr", "tpr"), _curve(line, keys, "fpr", "tpr")]
    if threshold is not None:
        layers.append(_operating_point(raw, keys, threshold, "fpr", "tpr", legend))
    return noted(alt.layer(*layers).properties(title=title, width=SIZE, height=SIZE), [note])


def pr(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    average_precision: Metric = None,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "Precision-recall curve",
) -> alt.LayerChart:
    """Precision (y) against recall (x), drawn as scikit-learn's steps, over the prevalence.

    ``curve`` is a ``pr_curve`` frame (``threshold, precision, recall``, scikit-learn's
    order). The legend gives average precision, ``sum((r[i] - r[i+1]) * p[i])`` over the
    full curve (scikit-learn's formula), unless ``average_precision`` is passed. Each
    dashed baseline is the curve's prevalence: its precision at the lowest threshold.
    """
    import altair as alt

    raw, keys = prepare(curve, ("threshold", "precision", "recall"), "pr_curve")
    raw, note = limit(raw, keys)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
    ap = ((pl.col("recall") - pl.col("recall").shift(-1)) * pl.col("precision")).sum()
    lowest = pl.col("precision").get(pl.col("threshold").fill_null(math.inf).arg_min())
    chance = per_series(raw, lowest)
    legend = _legend(
        labels(raw), given(average_precision, "average_precision") or per_series(raw, ap), "AP"
    )
    names, size = list(legend.values()), budget(len(legend), max_points)
    steps = staircase(coarse(raw, ["recall", "precision"], size), ["recall"])
    line = _renamed(thin(steps, [("recall", "precision")], size), legend)
    base = pl.DataFrame({"series": names, "precision": list(chance.values())})
    tip = alt.Tooltip("precision:Q", title="Prevalence (precision of chance)", format=".4f")
    color = _color(names, keys, orient="bottom-left")
    rule = (
        alt.Chart(inline(base))
        .mark_rule(strokeDash=[4, 4], strokeWidth=1)
        .encode(
            alt.Y(**_q("precision")),
            tooltip=[tip],
            color=color if names != ["all"] else alt.value(GREY),
        )
    )
    layers: list[Any] = [rule, _curve(line, keys, "recall", "precision", orient="bottom-left")]
    if threshold is not None:
        layers.append(
            _operating_point(raw, keys, threshold, "recall", "precision", legend, "bottom-left")
        )
    return noted(alt.layer(*layers).properties(title=title, width=SIZE, height=SIZE), [note])


def det(
    curve: pl.DataFrame | pl.LazyFrame, *, max_points: int = MAX_POINTS, title: str = "DET curve"
) -> alt.LayerChart:
    """Detection error tradeoff: false negative rate (y) against false positive rate (x),
    both on the normal-deviate (probit) scale, where a binormal model is a straight line.

    ``curve`` is a ``det_curve`` frame (``threshold, fpr, fnr``). Ticks read as rates
    (0.1% to 99.9%); rates of 0 or 1 lie outside the frame. Dashed: chance, ``fpr + fnr = 1``.
    """
    import altair as alt

    raw, keys = prepare(curve, ("threshold", "fpr", "fnr"), "det_curve")
    raw, note = limit(raw, keys)
    max_points = check_max_points(max_points)
    raw = raw.with_columns(fpr_z=probit(pl.col("fpr")), fnr_z=probit(pl.col("fnr")))
    names = labels(raw)
    line = thin(raw, [("fpr_z", "fnr_z")], budget(len(names), max_points))
    ticks = pl.select(
        probit(pl.Series([0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999])).round(4)
    ).to_series()
    axis = alt.Axis(
        values=ticks.to_list(), labelExpr="format(cumulativeNormal(datum.value), '.1~%')"
    )
    scale = alt.Scale(domain=[-3.1, 3.1], nice=False)
    x = alt.X("fpr_z:Q", title="False positive rate", scale=scale, axis=axis)
    y = alt.Y("fnr_z:Q", title="False negative rate", scale=scale, axis=axis)
    base = alt.Chart(inline(line)).encode(x, y, color=_color(names, keys, orient="top-right"))
    curve_ = base.mark_line(clip=True, strokeWidth=2).encode(alt.Order("order:Q"))
    hover = base.mark_point(size=40, opacity=0, clip=True).encode(
        tooltip=_tips(line, keys, ["threshold", "fpr", "fnr"])
    )
    chance = alt.Chart(
        alt.InlineData(values=[{"fpr_z": -5, "fnr_z": 5}, {"fpr_z": 5, "fnr_z": -5}])
    )
    chance = chance.mark_line(strokeDash=[4, 4], color=GREY, strokeWidth=1, clip=True).encode(x, y)
    chart = alt.layer(chance, curve_, hover).properties(title=title, width=SIZE, height=SIZE)
    return noted(chart, [note])


def gain(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    max_points: int = MAX_POINTS,
    title: str = "Cumulative gain",
) -> alt.LayerChart:
    """Cumulative gain: share of all positives found (y) among the top-scored fraction
    of rows (x). ``curve`` is a ``gain_curve`` frame (``fraction_targeted, gain``);
    dashed: random targeting."""
    import altair as alt

    raw, keys = prepare(curve, ("fraction_targeted", "gain"), "gain_curve")
    raw, note = limit(raw, keys)
    max_points = check_max_points(max_points)
    line = thin(raw, [("fraction_targeted", "gain")], budget(len(labels(raw)), max_points))
    layers = [
        _diagonal("fraction_targeted", "gain"),
        _curve(line, keys, "fraction_targeted", "gain"),
    ]
    return noted(alt.layer(*layers).properties(title=title, width=SIZE, height=SIZE), [note])


def lift(
    curve: pl.DataFrame | pl.LazyFrame, *, max_points: int = MAX_POINTS, title: str = "Lift"
) -> alt.LayerChart:
    """Lift: precision among the top-scored fraction over the prevalence (y) against that
    fraction (x). ``curve`` is a ``lift_curve`` frame (``fraction_targeted, lift``);
    dashed: random targeting (lift 1)."""
    import altair as alt

    raw, keys = prepare(curve, ("fraction_targeted", "lift"), "lift_curve")
    raw, note = limit(raw, keys)
    max_points = check_max_points(max_points)
    line = thin(raw, [("fraction_targeted", "lift")], budget(len(labels(raw)), max_points))
    top = max(1.0, float(line["lift"].filter(line["lift"].is_finite()).max() or 1.0))  # type: ignore[arg-type]
    y = alt.Y(**_q("lift", rate=False)).scale(domain=[0, top])
    chart = _curve(line, keys, "fraction_targeted", "lift", orient="top-right", y_channel=y)
    one = (
        alt.Chart(alt.InlineData(values=[{"lift": 1.0}]))
        .mark_rule(strokeDash=[4, 4], color=GREY)
        .encode(y)
    )
    return noted(alt.layer(one, chart).properties(title=title, width=SIZE, height=SIZE), [note])


# --- tables, thresholds, probabilities ------------------------------------------------------


def confusion_matrix(
    matrix: pl.DataFrame | pl.LazyFrame,
    *,
    pooled: str | None = None,
    title: str = "Confusion matrix",
) -> alt.LayerChart | alt.FacetChart:
    """Heatmap of a ``confusion_matrix`` frame: actual class on rows, predicted on columns,
    both in the frame's label order.

    Cells show the ``count`` or, for a normalized frame, the ``value`` as a percentage;
    a count's tooltip adds its share of the actual class (its row). Cell text is left
    out when the cells get too small for it (over ~32 classes). Groups sit side by side.

    Over ``MAX_CLASSES + 1`` classes, the ``MAX_CLASSES`` most frequent actual classes are
    drawn and the others pooled into one row and column "other (n classes)"; a normalized
    frame has no counts to rank or pool by, so it keeps its first ``MAX_CLASSES`` classes
    and leaves the other cells out. At most ``MAX_SERIES`` groups, the largest, are drawn.
    ``pooled`` names a class that stands for several (such an "other"): its cells do not
    set the colour scale, so they cannot wash out the others.
    """
    import altair as alt

    raw, keys = prepare(matrix, ("actual", "predicted"), "confusion_matrix")
    value = next((c for c in ("count", "value") if c in raw.columns), None)
    if value is None:
        msg = "the confusion_matrix chart needs a 'count' or a 'value' column"
        raise InputError(
            msg,
            column="count",
            role="frame",
            rule="missing_column",
            hint=f"the frame has {raw.columns!r}",
        )
    raw, group_note = limit(raw, keys, size=pl.col(value).sum() if value == "count" else None)
    raw = raw.with_columns(as_text(pl.col("actual")), as_text(pl.col("predicted")))
    order = pl.concat([raw["actual"], raw["predicted"]]).unique(maintain_order=True).to_list()
    raw, order, class_note, other = _fold_classes(raw, order, value)
    pooled = other if other is not None else pooled
    # the colours span the classes shown by name: a pooled "other" cell, often the largest,
    # would wash them out, so it is clamped to the darkest colour instead
    named = raw
    if pooled is not None:
        named = raw.filter((pl.col("actual") != pooled) & (pl.col("predicted") != pooled))
    top = float(named[value].max() or raw[value].max() or 1)  # type: ignore[arg-type]
    share = pl.col(value) / pl.col(value).sum().over("series", "actual")
    raw = raw.with_columns(share=share, dark=pl.col(value) > 0.55 * top)
    step = max(12, min(60, 640 // len(order)))
    fmt = ",~g" if value == "count" else ".1%"
    angle = -45 if len(order) > 8 or max(map(len, order)) > 6 else 0
    tips = [
        alt.Tooltip("actual:N", title="Actual"),
        alt.Tooltip("predicted:N", title="Predicted"),
        alt.Tooltip(f"{value}:Q", title=value.capitalize(), format=fmt),
    ]
    if value == "count":
        tips.append(alt.Tooltip("share:Q", title="Share of the actual class", format=".1%"))
    base = alt.Chart().encode(
        alt.X(
            "predicted:O",
            sort=order,
            title="Predicted class",
            axis=alt.Axis(labelAngle=angle, labelLimit=120),
        ),
        alt.Y("actual:O", sort=order, title="Actual class", axis=alt.Axis(labelLimit=120)),
        tooltip=[alt.Tooltip("series:N", title=" · ".join(keys)), *tips] if keys else tips,
    )
    scale = alt.Scale(scheme="blues", domain=[0, top if value == "count" else 1], clamp=True)
    layers: list[Any] = [
        base.mark_rect(stroke="white", strokeWidth=1).encode(
            alt.Color(f"{value}:Q", scale=scale, title=value.capitalize())
        )
    ]
    if step >= 20:
        ink = alt.condition("datum.dark", alt.value("white"), alt.value("#222222"))
        text = base.mark_text(fontSize=13 if step >= 44 else 11 if step >= 30 else 8)
        layers.append(text.encode(alt.Text(f"{value}:Q", format=fmt), color=ink))
    chart = alt.layer(*layers, data=inline(raw)).properties(
        width=alt.Step(step), height=alt.Step(step)
    )
    notes = [class_note, group_note]
    if not keys:
        return noted(chart.properties(title=title), notes)
    return noted(
        chart.facet(
            facet=alt.Facet("series:N", sort=labels(raw), title=" · ".join(keys)),
            columns=3,
            title=title,
        ),
        notes,
    )


def _fold_classes(
    raw: pl.DataFrame, order: list[str], value: str
) -> tuple[pl.DataFrame, list[str], str | None, str | None]:
    """At most ``MAX_CLASSES`` classes (plus "other") of a confusion frame, the class order,
    the note saying what was pooled or left out, and the name of "other" (None if none);
    the frame unchanged when it is small."""
    support = pl.DataFrame({"label": order}).join(
        raw.group_by("actual").agg(support=pl.col(value).sum()).rename({"actual": "label"}),
        on="label",
        how="left",
        maintain_order="left",
    )
    n = len(order)
    if value != "count":  # shares: no counts to rank or pool the classes by
        if n <= MAX_CLASSES + 1:
            return raw, order, None, None
        kept = order[:MAX_CLASSES]
        kept_set = pl.col("actual").is_in(kept) & pl.col("predicted").is_in(kept)
        note = (
            f"Showing the first {MAX_CLASSES} of {n:,} classes (a normalized matrix has no "
            f"counts to rank them by); the cells of the other {n - MAX_CLASSES:,} are left out."
        )
        return raw.filter(kept_set), kept, note, None
    top = top_classes(support.with_columns(pl.col("support").fill_null(0)))
    if top is None:
        return raw, order, None, None
    other = other_name(n - len(top), top)
    pos = {c: i for i, c in enumerate([*top, other])}

    def fold(c: str) -> pl.Expr:
        return pl.when(pl.col(c).is_in(top)).then(pl.col(c)).otherwise(pl.lit(other)).alias(c)

    folded = (
        raw.with_columns(fold("actual"), fold("predicted"))
        .group_by("_sid", "actual", "predicted", maintain_order=True)
        .agg(pl.col("series").first(), pl.col(value).sum())
    )
    rank = [pl.col(c).replace_strict(pos, return_dtype=pl.Int64) for c in ("actual", "predicted")]
    folded = folded.sort([pl.col("_sid"), *rank]).with_columns(order=pl.int_range(pl.len()))
    return folded, [*top, other], fold_note(len(top), n, other, "the row and column"), other


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

    metrics = _metric_list(metrics)
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


def _metric_list(metrics: Any) -> list[str]:
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


def calibration(
    frame: pl.DataFrame | pl.LazyFrame, *, ece: Metric = None, title: str = "Reliability diagram"
) -> alt.VConcatChart:
    """Reliability diagram: fraction of positives (y) against mean predicted probability
    (x) per bin, over the diagonal of perfect calibration, with the rows per bin below.

    ``frame`` is a ``calibration`` frame (``bin, mean_predicted, fraction_positive,
    count``). The ECE, ``sum(count * |fraction_positive - mean_predicted|) / sum(count)``
    over these bins unless ``ece`` is passed, goes in the title (one series) or the legend.
    """
    import altair as alt

    raw, keys = prepare(
        frame, ("bin", "mean_predicted", "fraction_positive", "count"), "calibration"
    )
    per_series_rows = int(raw.group_by("_sid").len().get_column("len").max())  # type: ignore[arg-type]
    raw, note = limit(
        raw,
        keys,
        size=pl.col("count").sum(),
        max_series=max(1, min(MAX_SERIES, MAX_ROWS // per_series_rows)),
    )
    gap = (
        pl.col("count") * (pl.col("fraction_positive") - pl.col("mean_predicted")).abs()
    ).sum() / pl.col("count").sum()
    values = given(ece, "ece") or per_series(raw, gap)
    if not keys:
        value = values.get("all")
        title = (
            f"{title} (ECE {value:.3f})" if value is not None and math.isfinite(value) else title
        )
    else:
        raw = _renamed(raw, _legend(labels(raw), values, "ECE"))
    color = _color(labels(raw), keys, orient="top-left")
    tips = [
        *_tips(raw, keys, ["bin", "mean_predicted", "fraction_positive"]),
        alt.Tooltip("count:Q", title="Rows in bin", format=",~g"),
    ]
    base = alt.Chart(inline(raw)).encode(alt.X(**_q("mean_predicted")), tooltip=tips)
    line = base.mark_line(point=True, strokeWidth=2).encode(
        alt.Y(**_q("fraction_positive")), alt.Order("mean_predicted:Q"), color=color
    )
    top = alt.layer(_diagonal("mean_predicted", "fraction_positive"), line).properties(
        width=SIZE, height=SIZE
    )
    bars = base.mark_bar(size=6, opacity=0.75).encode(
        alt.Y("count:Q", title="Rows", axis=alt.Axis(format="~s")), color=color
    )
    chart = alt.vconcat(top, bars.properties(width=SIZE, height=80), spacing=6)
    return noted(chart.properties(title=title), [note])


def scores(
    hist: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float | None = None,
    title: str = "Score distribution by actual class",
) -> alt.LayerChart | alt.FacetChart:
    """Histogram of scores per actual class (share of the class in each bin, overlaid),
    from a ``score_histogram`` frame, with the rule ``score >= threshold``: everything
    right of the dashed line is predicted positive. Groups are stacked in rows.

    Over ``MAX_CLASSES + 1`` classes, the ``MAX_CLASSES`` most frequent are drawn and the
    others pooled into one "other" histogram (without a ``count`` column: the first ones,
    the others left out). Groups are limited to ``MAX_SERIES``, the largest, and fewer
    when their bins would exceed ``MAX_ROWS`` rows.
    """
    import altair as alt

    raw, keys = prepare(hist, ("actual", "bin_start", "bin_end", "fraction"), "score_histogram")
    threshold = check_threshold(threshold)
    raw = raw.with_columns(as_text(pl.col("actual")))
    raw, class_note = _fold_histogram(raw)
    has_count = "count" in raw.columns
    per_series_rows = int(raw.group_by("_sid").len().get_column("len").max())  # type: ignore[arg-type]
    raw, group_note = limit(
        raw,
        keys,
        size=pl.col("count").sum() if has_count else None,
        max_series=max(1, min(MAX_SERIES, MAX_ROWS // per_series_rows)),
    )
    classes = labels(raw, "actual")
    lo, hi = float(raw["bin_start"].min()), float(raw["bin_end"].max())  # type: ignore[arg-type]
    if threshold is not None:
        lo, hi = min(lo, threshold), max(hi, threshold)
    x = alt.X(
        "bin_start:Q", title="Score", scale=alt.Scale(domain=[lo, hi], nice=False, zero=False)
    )
    colors = alt.Scale(
        domain=classes, range=[PALETTE[i % len(PALETTE)] for i in range(len(classes))]
    )
    tips = [
        alt.Tooltip("actual:N", title="Actual class"),
        alt.Tooltip("bin_start:Q", title="Scores from", format=".4~g"),
        alt.Tooltip("bin_end:Q", title="Scores to", format=".4~g"),
        alt.Tooltip("count:Q", title="Rows", format=",~g"),
        alt.Tooltip("fraction:Q", title="Share of the class", format=".2%"),
    ]
    bars = (
        alt.Chart()
        .transform_filter("datum.part == 'bars'")
        .mark_bar(opacity=0.55, orient="vertical", binSpacing=0)
    )
    bars = bars.encode(
        x,
        alt.X2("bin_end:Q"),
        alt.Y("fraction:Q", title="Share of the class", stack=None, axis=alt.Axis(format="%")),
        alt.Color("actual:N", scale=colors, sort=classes, title="Actual class"),
        tooltip=tips,
    )
    parts, layers = {"bars": raw}, [bars]
    if threshold is not None:
        names, t = labels(raw), float(threshold)
        parts["rule"] = pl.DataFrame(
            {
                "series": names,
                "bin_start": [t] * len(names),
                "bin_end": [hi] * len(names),
                "text": [f"score ≥ {t:.4g}: predicted positive"] * len(names),
            }
        )
        rule = alt.Chart().transform_filter("datum.part == 'rule'")
        layers = [
            rule.mark_rect(color="#eeeeee").encode(x, alt.X2("bin_end:Q")),
            bars,
            rule.mark_rule(strokeDash=[5, 3], color="#333333", strokeWidth=1.5).encode(x),
            rule.mark_text(
                align="left", baseline="top", dx=4, y=4, fontSize=10, color="#333333"
            ).encode(x, text="text:N"),
        ]
    chart = alt.layer(*layers, data=stacked(parts)).properties(width=SIZE + 120, height=SIZE - 120)
    notes = [class_note, group_note]
    if not keys:
        return noted(chart.properties(title=title), notes)
    return noted(
        chart.facet(row=alt.Row("series:N", sort=labels(raw), title=" · ".join(keys)), title=title),
        notes,
    )


def _fold_histogram(raw: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """At most ``MAX_CLASSES`` actual classes of a histogram frame (the others pooled into
    one, or left out without counts) and the note saying so."""
    order = labels(raw, "actual")
    n = len(order)
    if n <= MAX_CLASSES + 1:
        return raw, None
    if "count" not in raw.columns:
        kept = order[:MAX_CLASSES]
        note = (
            f"Showing the first {MAX_CLASSES} of {n:,} classes (the frame has no counts to "
            f"rank them by); the other {n - MAX_CLASSES:,} are left out."
        )
        return raw.filter(pl.col("actual").is_in(kept)), note
    support = raw.group_by("actual", maintain_order=True).agg(support=pl.col("count").sum())
    top = top_classes(support.rename({"actual": "label"}))
    assert top is not None
    other = other_name(n - len(top), top)
    pos = {c: i for i, c in enumerate([*top, other])}
    actual = pl.when(pl.col("actual").is_in(top)).then(pl.col("actual")).otherwise(pl.lit(other))
    folded = (
        raw.with_columns(actual.alias("actual"))
        .group_by("_sid", "actual", "bin_start", "bin_end", maintain_order=True)
        .agg(
            pl.col("series").first(),
            *[pl.col(c).first() for c in ("bin",) if c in raw.columns],
            pl.col("count").sum(),
        )
        .with_columns(fraction=pl.col("count") / pl.col("count").sum().over("_sid", "actual"))
    )
    rank = pl.col("actual").replace_strict(pos, return_dtype=pl.Int64)
    folded = folded.sort(pl.col("_sid"), rank, pl.col("bin_start"))
    note = fold_note(len(top), n, other, "one histogram,")
    return folded.with_columns(order=pl.int_range(pl.len())), note


# --- comparison and the explorer ----------------------------------------------------------


def compare(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    title: str = "Metrics by group",
) -> alt.LayerChart:
    """Dot plot of metrics (rows) across groups or models (colours), a grey bar spanning
    each metric's range.

    ``table`` is a ``metrics`` frame (group columns, then a column per metric) or a long
    frame with ``metric`` and ``value`` columns. ``by`` names the group columns (default:
    the columns that are not floating point, except ``n_excluded``); ``metrics`` picks
    and orders the metrics (default: every float column).
    """
    import altair as alt

    frame = table.collect() if isinstance(table, pl.LazyFrame) else table
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
            _metric_list(metrics)
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
    order = labels(raw, "metric")
    lo, hi = min(0.0, raw["value"].min() or 0.0), max(1.0, raw["value"].max() or 1.0)  # type: ignore[operator]
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
        color=_color(labels(raw), keys, orient="bottom"),
        tooltip=tips,
    )
    chart = alt.layer(bar, dots).properties(title=title, width=SIZE + 80, height=alt.Step(26))
    return noted(chart, [note])


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
