"""Charts of thresholds, calibration, score distributions and metrics compared across groups."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval._chart_data import (
    MAX_CLASSES,
    MAX_POINTS,
    MAX_ROWS,
    MAX_SERIES,
    SIZE_COLUMN,
    as_text,
    budget,
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
    stacked,
    staircase,
    thin,
    top_classes,
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
    Metric,
    _color,
    _diagonal,
    _legend,
    _q,
    _renamed,
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
    each metric's range; a ``metrics(..., ci=)`` frame draws each interval as a bar
    instead (:func:`forest`).

    ``table`` is a ``metrics`` frame (group columns, then a column per metric) or a long
    frame with ``metric`` and ``value`` columns. ``by`` names the group columns (default:
    the columns that are not floating point, except ``n_excluded``); ``metrics`` picks
    and orders the metrics (default: every float column).
    """
    import altair as alt

    frame = table.collect() if isinstance(table, pl.LazyFrame) else table
    if isinstance(frame, pl.DataFrame):
        from clfeval.charts._intervals import forest, interval_names

        if interval_names(frame.columns):  # metrics(..., ci=): a forest plot with intervals
            chosen = None if metrics is None else _metric_list(metrics)
            return forest(frame.drop(SIZE_COLUMN, strict=False), by=by, metrics=chosen, title=title)
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
