"""The reliability diagram."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import polars as pl

from clfeval.charts._data import (
    MAX_ROWS,
    MAX_SERIES,
    given,
    inline,
    labels,
    limit,
    noted,
    per_series,
    prepare,
)

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    SIZE,
    Metric,
    _color,
    _diagonal,
    _legend,
    _q,
    _renamed,
    _tips,
    fitted,
    titled,
)


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
    lines = ["Dashed: perfect calibration; below, the rows in each bin"]
    if not keys:
        value = values.get("all")
        if value is not None and math.isfinite(value):
            lines.insert(0, f"Expected calibration error (ECE) {value:.3f}")
    else:
        raw = _renamed(raw, _legend(labels(raw), values, "ECE"))
    color = _color(labels(raw), keys)
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
        alt.Y("count:Q", title="Rows", axis=alt.Axis(format="~s", tickCount=3)), color=color
    )
    chart = alt.vconcat(top, bars.properties(width=SIZE, height=80), spacing=6)
    chart = chart.properties(title=titled(title, lines), description=title)
    views = [(("vconcat", 0), 1.0), (("vconcat", 1), None)]
    return noted(fitted(chart, views, largest=520), [note])
