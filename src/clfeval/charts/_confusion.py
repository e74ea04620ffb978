"""The confusion matrix heatmap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._base import titled
from clfeval.charts._data import (
    MAX_CLASSES,
    as_text,
    fold_note,
    inline,
    labels,
    limit,
    noted,
    other_name,
    prepare,
    top_classes,
)
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt


def confusion_matrix(
    matrix: pl.DataFrame | pl.LazyFrame,
    *,
    title: str = "Confusion matrix",
) -> alt.LayerChart | alt.FacetChart:
    """Heatmap of a ``confusion_matrix`` frame: actual class on rows, predicted on columns,
    both in the frame's label order.

    Cells show the ``count`` or, for a normalized frame, the ``value`` as a percentage. The
    colour is the cell's share of its actual class (its row; the ``value`` itself when
    normalized), so a rare class's mistakes read as clearly as a common one's; the tooltip
    gives both. Cell text is left out when the cells get too small for it (over ~32
    classes). Groups sit side by side.

    Over ``MAX_CLASSES + 1`` classes, the ``MAX_CLASSES`` most frequent actual classes are
    drawn and the others pooled into one row and column "other (n classes)"; a normalized
    frame has no counts to rank or pool by, so it keeps its first ``MAX_CLASSES`` classes
    and leaves the other cells out. At most ``MAX_SERIES`` groups, the largest, are drawn.
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
    raw, order, class_note, _ = _fold_classes(raw, order, value)
    share = pl.col(value) / pl.col(value).sum().over("series", "actual")
    raw = raw.with_columns(share=share if value == "count" else pl.col(value).cast(pl.Float64))
    raw = raw.with_columns(dark=pl.col("share") > 0.55)
    step = max(12, min(80, 640 // len(order)))
    fmt = ",~g" if value == "count" else ".1%"
    cell_fmt = ("~s" if step < 44 else fmt) if value == "count" else ".0%" if step < 44 else fmt
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
    scale = alt.Scale(scheme="blues", domain=[0, 1], clamp=True)
    legend = alt.Legend(
        title="Share of the actual class", format="%", orient="right", gradientLength=120
    )
    layers: list[Any] = [
        base.mark_rect(stroke="#ffffff", strokeWidth=1).encode(
            alt.Color("share:Q", scale=scale, legend=legend)
        )
    ]
    if step >= 20:
        ink = alt.condition("datum.dark", alt.value("white"), alt.value("#222222"))
        text = base.mark_text(
            fontSize=14 if step >= 60 else 13 if step >= 44 else 11 if step >= 30 else 8
        )
        layers.append(text.encode(alt.Text(f"{value}:Q", format=cell_fmt), color=ink))
    chart = alt.layer(*layers, data=inline(raw)).properties(
        width=alt.Step(step), height=alt.Step(step)
    )
    notes = [class_note, group_note]
    lines = ["Rows: actual class; columns: predicted; colour: share of the row"]
    if not keys:
        return noted(chart.properties(title=titled(title, lines), description=title), notes)
    header = alt.Header(labelFontWeight="bold", labelLimit=300)
    return noted(
        chart.facet(
            facet=alt.Facet("series:N", sort=labels(raw), title=None, header=header),
            columns=3,
        ).properties(title=titled(title, lines), description=title),
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
