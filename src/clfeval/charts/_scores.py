"""Score distributions: the histogram frame and its chart."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval import _options
from clfeval.charts._data import (
    MAX_BINS,
    MAX_CLASSES,
    MAX_ROWS,
    MAX_SERIES,
    as_text,
    check_threshold,
    fold_note,
    labels,
    limit,
    noted,
    other_name,
    prepare,
    stacked,
    top_classes,
)
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    CLASS_PALETTE,
    PALETTE,
    SIZE,
    fitted,
    panel_columns,
    series_scale,
    titled,
)


def score_histogram(
    data: pl.DataFrame | pl.LazyFrame,
    y: str | pl.Expr,
    score: str | pl.Expr,
    *,
    by: str | Sequence[str] | None = None,
    n_bins: int = 40,
    weight: str | pl.Expr | None = None,
) -> pl.DataFrame | pl.LazyFrame:
    """Score distribution per actual class: rows in ``n_bins`` equal-width bins over
    ``[min(score), max(score)]``, the same bins for every group and class.

    Returns ``*by, actual, bin, bin_start, bin_end, count, fraction``, ``fraction`` being
    ``count`` over the rows of that class in that group; empty bins are absent. Rows with
    a null in ``y``, ``score`` or ``weight``, or a NaN score, are left out (aggregate
    semantics); ``count`` sums ``weight`` when given. Lazy in, lazy out.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> score_histogram(df, "y", "s", n_bins=2).select("actual", "bin", "count").rows()
    [(0, 0, 2), (1, 0, 1), (1, 1, 1)]
    """
    n_bins = _options.positive_int(
        "n_bins", n_bins, high=MAX_BINS, hint="n_bins is the number of score bins, e.g. 40"
    )
    groups = [by] if isinstance(by, str) else list(by or [])
    _check_columns(
        data.collect_schema(),
        {"y": y, "score": score, **({"weight": weight} if weight is not None else {})},
        groups,
    )

    def col(c: str | pl.Expr) -> pl.Expr:
        return pl.col(c) if isinstance(c, str) else c

    w = pl.lit(1, dtype=pl.Int64) if weight is None else col(weight)
    lf = data.lazy().select(
        *[pl.col(g) for g in groups],
        col(y).alias("actual"),
        col(score).cast(pl.Float64).alias("_s"),
        w.alias("_w"),
    )
    lf = lf.drop_nulls(["actual", "_s", "_w"]).filter(~pl.col("_s").is_nan())
    lo, hi = pl.col("_s").min(), pl.col("_s").max()
    # each step reads materialised columns: the same float expression must give the same
    # value everywhere (Polars may evaluate an expression that holds an aggregate
    # differently in different places, e.g. x / (max / n) as x * (n / max))
    lf = lf.with_columns(_lo=lo, _width=pl.when(hi > lo).then((hi - lo) / n_bins).otherwise(1.0))
    lf = lf.with_columns(
        _edge=((pl.col("_s") - pl.col("_lo")) / pl.col("_width")).floor().clip(0, n_bins - 1)
    )
    start, end = (
        pl.col("_lo") + pl.col("_edge") * pl.col("_width"),
        pl.col("_lo") + (pl.col("_edge") + 1) * pl.col("_width"),
    )
    lf = lf.with_columns(_start=start, _end=end)
    # a score on an edge goes to the bin above it, the last bin includes the maximum (NumPy)
    step = (
        pl.when(pl.col("_s") < pl.col("_start"))
        .then(-1)
        .when((pl.col("_s") >= pl.col("_end")) & (pl.col("_edge") < n_bins - 1))
        .then(1)
        .otherwise(0)
    )
    out = (
        lf.with_columns(bin=(pl.col("_edge") + step).cast(pl.Int64))
        .group_by(*groups, "actual", "bin")
        .agg(pl.col("_lo", "_width").first(), pl.col("_w").sum().alias("count"))
        .with_columns(
            bin_start=pl.col("_lo") + pl.col("bin") * pl.col("_width"),
            bin_end=pl.col("_lo") + (pl.col("bin") + 1) * pl.col("_width"),
            fraction=pl.col("count") / pl.col("count").sum().over(*groups, "actual"),
        )
        .sort(*groups, "actual", "bin")
        .select(*groups, "actual", "bin", "bin_start", "bin_end", "count", "fraction")
    )
    return out.collect() if isinstance(data, pl.DataFrame) else out


def _check_columns(schema: pl.Schema, roles: Mapping[str, Any], by: Sequence[str]) -> None:
    """Raise for a named column that ``schema`` lacks, or a score or weight that is not a
    number (expressions are left to Polars)."""
    named = [(role, c) for role, c in roles.items() if isinstance(c, str)]
    named += [("by", c) for c in by]
    for role, name in named:
        if name not in schema:
            names = list(schema.names())
            close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
            hint = f"the frame has {names}" + (f"; did you mean {close[0]!r}?" if close else "")
            raise InputError(
                f"column {name!r} ({role}) not found",
                column=name,
                role=role,
                rule="missing_column",
                hint=hint,
            )
        if role in ("score", "weight") and not schema[name].is_numeric():
            raise InputError(
                f"column {name!r} ({role}) has dtype {schema[name]}, not a number",
                column=name,
                role=role,
                rule="dtype",
                hint="scores and weights must be numeric columns",
            )


def scores(
    hist: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float | None = None,
    pos_label: Any = None,
    title: str = "Score distribution by actual class",
) -> alt.LayerChart | alt.FacetChart:
    """Histogram of scores per actual class (share of the class in each bin, overlaid),
    from a ``score_histogram`` frame, with the rule ``score >= threshold``: the shaded part,
    right of the dashed line, is predicted positive. Groups sit side by side.

    The colour is the series' (group), as in every other chart; of two classes the positive
    one (``pos_label``, else the second) is drawn filled and the other as outlines. Over two
    classes each gets a colour of its own palette. Over ``MAX_CLASSES + 1`` classes, the
    ``MAX_CLASSES`` most frequent are drawn and the others pooled into one "other" histogram
    (without a ``count`` column: the first ones, the others left out). Groups are limited to
    ``MAX_SERIES``, the largest, and fewer when their bins would exceed ``MAX_ROWS`` rows.
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
    classes, names = labels(raw, "actual"), labels(raw)
    lo, hi = float(raw["bin_start"].min()), float(raw["bin_end"].max())  # type: ignore[arg-type]
    if threshold is not None:
        lo, hi = min(lo, threshold), max(hi, threshold)
    x = alt.X(
        "bin_start:Q", title="Score", scale=alt.Scale(domain=[lo, hi], nice=False, zero=False)
    )
    tips = [
        *([alt.Tooltip("series:N", title=" · ".join(keys))] if keys else []),
        alt.Tooltip("actual:N", title="Actual class"),
        alt.Tooltip("bin_start:Q", title="Scores from", format=".4~g"),
        alt.Tooltip("bin_end:Q", title="Scores to", format=".4~g"),
        alt.Tooltip("count:Q", title="Rows", format=",~g"),
        alt.Tooltip("fraction:Q", title="Share of the class", format=".2%"),
    ]
    channels: list[Any] = [
        x,
        alt.X2("bin_end:Q"),
        alt.Y("fraction:Q", title="Share of the class", stack=None, axis=alt.Axis(format="%")),
    ]
    base = alt.Chart().transform_filter("datum.part == 'bars'")
    lines: list[str] = []
    if len(classes) <= 2:  # the series' colour; the positive class filled, the other outlined
        positive = str(pos_label) if pos_label is not None and str(pos_label) in classes else None
        positive = positive or classes[-1]
        if keys:
            scale = series_scale(names)
            paint = {
                "color": alt.Color("series:N", scale=scale, legend=None),
                "stroke": alt.Stroke("series:N", scale=scale, legend=None),
            }
        else:
            paint = {"color": alt.value(PALETTE[0]), "stroke": alt.value(PALETTE[0])}
        kind = {"binSpacing": 0, "orient": "vertical", "strokeWidth": 1}
        chosen = f"datum.actual == {json.dumps(positive)}"
        bars = [
            base.transform_filter(chosen).mark_bar(fillOpacity=0.65, **kind),
            base.transform_filter(f"!({chosen})").mark_bar(fillOpacity=0.06, **kind),
        ]
        bars = [b.encode(*channels, tooltip=tips, **paint) for b in bars]
        others = [c for c in classes if c != positive]
        lines.append(
            f"Filled: actual {positive}"
            + (f"; outlined: actual {others[0]}" if others else "")
            + " (each as a share of its class)"
        )
    else:
        scale = alt.Scale(
            domain=classes,
            range=[CLASS_PALETTE[i % len(CLASS_PALETTE)] for i in range(len(classes))],
        )
        color = alt.Color("actual:N", scale=scale, sort=classes, title="Actual class")
        bars = [
            base.mark_bar(opacity=0.55, binSpacing=0, orient="vertical").encode(
                *channels, color, tooltip=tips
            )
        ]
    parts, layers = {"bars": raw}, list(bars)
    if threshold is not None:
        t = float(threshold)
        parts["rule"] = pl.DataFrame(
            {"series": names, "bin_start": [t] * len(names), "bin_end": [hi] * len(names)}
        )
        rule = alt.Chart().transform_filter("datum.part == 'rule'")
        layers = [
            rule.mark_rect(color="#8c8c8c", opacity=0.13).encode(x, alt.X2("bin_end:Q")),
            *bars,
            rule.mark_rule(strokeDash=[5, 3], color="#555555", strokeWidth=1.5).encode(x),
        ]
        lines.append(f"Shaded: score ≥ {t:.4g}, predicted positive")
    chart = alt.layer(*layers, data=stacked(parts)).properties(width=SIZE + 120, height=SIZE - 120)
    notes = [class_note, group_note]
    if not keys:
        chart = chart.properties(title=titled(title, lines), description=title)
        return noted(fitted(chart, [((), None)], largest=1100), notes)
    columns = panel_columns(len(names))
    header = alt.Header(labelFontWeight="bold", labelAnchor="start", labelLimit=420)
    faceted = chart.facet(
        facet=alt.Facet("series:N", sort=names, title=None, header=header), columns=columns
    ).properties(title=titled(title, lines), description=title)
    return noted(fitted(faceted, [(("spec",), None)], cells=columns, largest=640), notes)


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
