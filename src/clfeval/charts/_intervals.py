"""Charts of uncertainty: forest plots of intervals and of paired differences, ROC bands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._base import GREY, SIZE, TITLES, _color
from clfeval.charts._data import SIZE_COLUMN, defined, inline, labels, limit, noted, prepare
from clfeval.exceptions import InputError

if TYPE_CHECKING:
    import altair as alt

__all__ = ["differences", "forest", "interval_names"]


def interval_names(columns: Sequence[str]) -> list[str]:
    """The metrics of a frame that carry ``<metric>_lo`` and ``<metric>_hi`` columns."""
    return [c for c in columns if f"{c}_lo" in columns and f"{c}_hi" in columns]


def _long(frame: pl.DataFrame, keys: list[str], names: list[str], suffix: str = "") -> pl.DataFrame:
    """``keys..., metric, value, lo, hi``: one row per group and metric (and the groups'
    ``_size``, when the frame has it, for the chart to keep the largest)."""
    kept = [*keys, *([SIZE_COLUMN] if SIZE_COLUMN in frame.columns else [])]
    parts = [
        frame.select(
            *kept,
            pl.lit(name).alias("metric"),
            pl.col(f"{name}{suffix}").cast(pl.Float64).alias("value"),
            pl.col(f"{name}{suffix}_lo").cast(pl.Float64).alias("lo"),
            pl.col(f"{name}{suffix}_hi").cast(pl.Float64).alias("hi"),
        )
        for name in names
    ]
    return pl.concat(parts, how="vertical")


def _forest_chart(long: pl.DataFrame, keys: list[str], title: str, zero: bool) -> alt.LayerChart:
    import altair as alt

    raw, _ = prepare(long, ("metric", "value", "lo", "hi"), "forest")
    raw = defined(raw, "forest")
    raw, note = limit(raw, keys)
    raw = raw.with_columns(pl.col("metric").replace(TITLES).alias("metric"))
    order = labels(raw, "metric")
    names = labels(raw)
    y = alt.Y("metric:N", sort=order, title=None, axis=alt.Axis(labelLimit=200))
    offset = alt.YOffset("series:N", sort=names) if len(names) > 1 else alt.Undefined
    color = _color(names, keys, orient="bottom")
    tips = [
        alt.Tooltip("metric:N", title="Metric"),
        alt.Tooltip("value:Q", title="Value", format=".4f"),
        alt.Tooltip("lo:Q", title="Lower", format=".4f"),
        alt.Tooltip("hi:Q", title="Upper", format=".4f"),
    ]
    if keys:
        tips.insert(0, alt.Tooltip("series:N", title=" · ".join(keys)))
    base = alt.Chart(inline(raw)).encode(y, color=color, tooltip=tips)
    if offset is not alt.Undefined:
        base = base.encode(yOffset=offset)
    x_title = "Difference (b − a)" if zero else "Value"
    x = alt.X("value:Q", title=x_title, scale=alt.Scale(zero=zero))
    bars = base.mark_rule(strokeWidth=2.5).encode(alt.X("lo:Q", title=x_title), alt.X2("hi:Q"))
    dots = base.mark_point(size=36, filled=True, opacity=1.0).encode(x)
    layers: list[Any] = [bars, dots]
    if zero:
        rule = alt.Chart(inline(pl.DataFrame({"zero": [0.0]}))).mark_rule(
            color=GREY, strokeDash=[4, 4]
        )
        layers.insert(0, rule.encode(alt.X("zero:Q")))
    step = alt.Step(12 * max(1, len(names)) + 14)
    chart = alt.layer(*layers).properties(title=title, width=SIZE + 80, height=step)
    return noted(chart, [note])


def forest(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    title: str = "Metrics with intervals",
) -> alt.LayerChart:
    """Forest plot: each metric (rows) per group or model (colours, offset), a dot at the
    value and a bar across its interval.

    ``table`` is a ``clfeval.metrics(..., ci=)`` frame (``<metric>``, ``<metric>_lo``,
    ``<metric>_hi`` after the group columns); ``by`` names the group columns (default: the
    columns that are not floating point), ``metrics`` picks and orders the metrics.

    Examples
    --------
    >>> t = pl.DataFrame({"model": ["a", "b"], "f1": [0.8, 0.7], "f1_lo": [0.7, 0.6],
    ...                   "f1_hi": [0.9, 0.8]})
    >>> forest(t).to_dict()["layer"][0]["mark"]["type"]
    'rule'
    """
    frame = table.collect() if isinstance(table, pl.LazyFrame) else table
    names = interval_names(frame.columns) if metrics is None else list(metrics)
    missing = [c for n in names for c in (n, f"{n}_lo", f"{n}_hi") if c not in frame.columns]
    if missing or not names:
        raise InputError(
            f"the forest chart needs the columns {missing!r}" if missing else
            "the frame has no interval (<metric>_lo, <metric>_hi) columns",
            column=missing[0] if missing else None,
            role="frame",
            rule="missing_column",
            hint="pass the frame clfeval.metrics(..., ci=0.95) returns",
        )  # fmt: skip
    keys = _keys(frame, by)
    return _forest_chart(_long(frame, keys, names), keys, title, zero=False)


def differences(
    table: pl.DataFrame | pl.LazyFrame,
    *,
    by: str | Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    title: str = "Is model b better? Differences b − a",
) -> alt.LayerChart:
    """Forest plot of paired differences: each metric (rows) per group and pair of models
    (colours), a dot at b − a, a bar across its interval, a dashed line at 0 (no difference).

    ``table`` is a ``clfeval.compare`` frame (``<metric>_diff``, ``_diff_lo``, ``_diff_hi``)
    or a ``clfeval.compare_auroc`` frame (``diff``, ``diff_lo``, ``diff_hi``: AUROC). An
    interval that does not cross 0 is a difference the data supports at its level.

    Examples
    --------
    >>> t = pl.DataFrame({"model_a": ["a"], "model_b": ["b"], "diff": [0.02],
    ...                   "diff_lo": [-0.01], "diff_hi": [0.05]})
    >>> differences(t).to_dict()["layer"][0]["mark"]["strokeDash"]
    [4, 4]
    """
    frame = table.collect() if isinstance(table, pl.LazyFrame) else table
    if {"diff", "diff_lo", "diff_hi"} <= set(frame.columns):
        frame = frame.rename(
            {"diff": "auroc_diff", "diff_lo": "auroc_diff_lo", "diff_hi": "auroc_diff_hi"}
        )
    found = [c.removesuffix("_diff") for c in frame.columns if c.endswith("_diff")]
    names = found if metrics is None else list(metrics)
    missing = [
        f"{n}_diff{s}"
        for n in names
        for s in ("", "_lo", "_hi")
        if f"{n}_diff{s}" not in frame.columns
    ]
    if missing or not names:
        raise InputError(
            f"the differences chart needs the columns {missing!r}" if missing else
            "the frame has no difference (<metric>_diff) columns",
            column=missing[0] if missing else None,
            role="frame",
            rule="missing_column",
            hint="pass the frame clfeval.compare(...) or clfeval.compare_auroc(...) returns",
        )  # fmt: skip
    frame = frame.with_columns(
        (pl.col("model_b") + " − " + pl.col("model_a")).alias("comparison")
    ).drop("model_a", "model_b")
    groups = [k for k in _keys(frame, by) if k != "comparison"]
    keys = [*groups, "comparison"]
    return _forest_chart(_long(frame, keys, names, "_diff"), keys, title, zero=True)


def _keys(frame: pl.DataFrame, by: str | Sequence[str] | None) -> list[str]:
    if by is not None:
        return [by] if isinstance(by, str) else list(by)
    skip = {"n_excluded", "mcnemar_method"}
    return [
        c
        for c, t in frame.schema.items()
        if not t.is_numeric() and c not in skip and not c.endswith("_n_undefined")
    ]


def roc_band(band: pl.DataFrame, keys: list[str], names: list[str]) -> alt.Chart:
    """The pointwise band of ROC curves: TPR between ``tpr_lo`` and ``tpr_hi`` at each FPR,
    one area per ``series`` (named as the curves' legend ``names``)."""
    import altair as alt

    return (
        alt.Chart(inline(band))
        .mark_area(opacity=0.3)
        .encode(
            alt.X("fpr:Q", scale=alt.Scale(domain=[0, 1], nice=False)),
            alt.Y("tpr_lo:Q", scale=alt.Scale(domain=[0, 1], nice=False)),
            alt.Y2("tpr_hi:Q"),
            alt.Order("order:Q"),
            color=_color(names, keys, orient="bottom-right"),
            detail="series:N",
        )
    )
