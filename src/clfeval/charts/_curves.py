"""Curve charts: ROC, precision–recall, DET, cumulative gain and lift."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import polars as pl

from clfeval.charts._data import (
    MAX_POINTS,
    budget,
    check_max_points,
    check_threshold,
    given,
    inline,
    labels,
    limit,
    noted,
    per_series,
    prepare,
    with_series,
)
from clfeval.charts._intervals import roc_band
from clfeval.charts._thin import (
    coarse,
    probit,
    staircase,
    thin,
)

if TYPE_CHECKING:
    import altair as alt

from clfeval.charts._base import (
    GREY,
    SIZE,
    Metric,
    _color,
    _curve,
    _diagonal,
    _legend,
    _operating_point,
    _q,
    _renamed,
    _tips,
    fitted,
    titled,
)

SQUARE = [((), 1.0)]  # a curve chart keeps its plot square when a page sizes it
LARGEST = 520


def _finish(layers: list[Any], title: str, lines: list[str | None], note: str | None) -> Any:
    import altair as alt

    chart = alt.layer(*layers).properties(
        title=titled(title, lines), width=SIZE, height=SIZE, description=title
    )
    return noted(fitted(chart, SQUARE, largest=LARGEST), [note])


def roc(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    auroc: Metric = None,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    band: pl.DataFrame | None = None,
    title: str = "ROC curve",
) -> alt.LayerChart:
    """ROC curve: true positive rate (y) against false positive rate (x), over chance.

    ``curve`` is a ``roc_curve`` frame (``threshold, fpr, tpr`` after any ``by`` or
    ``label`` columns); points are joined by straight lines, as tied scores imply. The
    legend gives each AUROC: ``auroc`` when passed (a number, a frame of keys + ``auroc``
    or a mapping series -> value), else the trapezoid area of the full curve, which is
    scikit-learn's ``roc_auc_score``. ``threshold`` marks the operating point of the rule
    ``score >= threshold`` (exact when the curve has every threshold); the title says where.
    ``band`` (the group columns, then ``fpr, tpr_lo, tpr_hi``; ``df.clf.plot.roc(...,
    ci=0.95)`` computes it) shades a pointwise bootstrap band around each curve.

    Examples
    --------
    >>> c = pl.DataFrame({"threshold": [float("inf"), 0.8, 0.3], "fpr": [0.0, 0.0, 1.0], "tpr": [0.0, 1.0, 1.0]})
    >>> roc(c).to_dict()["layer"][1]["layer"][0]["encoding"]["x"]["title"]
    'False positive rate'
    """
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
    if band is not None:
        shaded = with_series(band, keys).filter(pl.col("series").is_in(list(legend)))
        layers.insert(1, roc_band(_renamed(shaded, legend), keys, list(legend.values())))
    lines: list[str | None] = ["Dashed: a random ranking (AUROC 0.5)"]
    if threshold is not None:
        dot, said = _operating_point(raw, keys, threshold, "fpr", "tpr", legend)
        layers.append(dot)
        lines.insert(0, said)
    return _finish(layers, title, lines, note)


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
    dashed baseline is the curve's prevalence: its precision at the lowest threshold, the
    average precision of a random ranking. ``threshold`` marks the operating point.
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
    steps = staircase(coarse(raw, ["recall", "precision"], size), ["recall"], ["precision"])
    line = _renamed(thin(steps, [("recall", "precision")], size), legend)
    base = pl.DataFrame({"series": names, "precision": list(chance.values())})
    tip = alt.Tooltip("precision:Q", title="Prevalence (precision of chance)", format=".4f")
    color = _color(names, keys)
    rule = (
        alt.Chart(inline(base))
        .mark_rule(strokeDash=[4, 4], strokeWidth=1)
        .encode(
            alt.Y(**_q("precision")),
            tooltip=[tip],
            color=color if names != ["all"] else alt.value(GREY),
        )
    )
    layers: list[Any] = [rule, _curve(line, keys, "recall", "precision")]
    lines: list[str | None] = ["Dashed: the prevalence, what a random ranking scores"]
    if threshold is not None:
        dot, said = _operating_point(raw, keys, threshold, "recall", "precision", legend)
        layers.append(dot)
        lines.insert(0, said)
    return _finish(layers, title, lines, note)


def det(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float | None = None,
    max_points: int = MAX_POINTS,
    title: str = "DET curve",
) -> alt.LayerChart:
    """Detection error tradeoff: false negative rate (y) against false positive rate (x),
    both on the normal-deviate (probit) scale, where a binormal model is a straight line.

    ``curve`` is a ``det_curve`` frame (``threshold, fpr, fnr``). Ticks read as rates
    (0.1% to 99.9%); rates of 0 or 1 lie outside the frame. Dashed: chance, ``fpr + fnr = 1``.
    ``threshold`` marks the operating point of the rule ``score >= threshold``.
    """
    import altair as alt

    raw, keys = prepare(curve, ("threshold", "fpr", "fnr"), "det_curve")
    raw, note = limit(raw, keys)
    max_points, threshold = check_max_points(max_points), check_threshold(threshold)
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
    base = alt.Chart(inline(line)).encode(x, y, color=_color(names, keys))
    curve_ = base.mark_line(clip=True, strokeWidth=2).encode(alt.Order("order:Q"))
    hover = base.mark_point(size=40, opacity=0, clip=True).encode(
        tooltip=_tips(line, keys, ["threshold", "fpr", "fnr"])
    )
    chance = alt.Chart(
        alt.InlineData(values=[{"fpr_z": -5, "fnr_z": 5}, {"fpr_z": 5, "fnr_z": -5}])
    )
    chance = chance.mark_line(strokeDash=[4, 4], color=GREY, strokeWidth=1, clip=True).encode(x, y)
    layers: list[Any] = [chance, curve_, hover]
    lines: list[str | None] = ["Dashed: chance; both axes on the normal-deviate scale"]
    if threshold is not None:
        legend = {n: n for n in names}
        dot, said = _operating_point(raw, keys, threshold, "fpr_z", "fnr_z", legend)
        layers.append(dot.encode(x, y))
        lines.insert(0, said.split(":")[0])
    return _finish(layers, title, lines, note)


def gain(
    curve: pl.DataFrame | pl.LazyFrame,
    *,
    max_points: int = MAX_POINTS,
    title: str = "Cumulative gain",
) -> alt.LayerChart:
    """Cumulative gain: share of all positives found (y) among the top-scored fraction
    of rows (x). ``curve`` is a ``gain_curve`` frame (``fraction_targeted, gain``);
    dashed: random targeting."""
    raw, keys = prepare(curve, ("fraction_targeted", "gain"), "gain_curve")
    raw, note = limit(raw, keys)
    max_points = check_max_points(max_points)
    line = thin(raw, [("fraction_targeted", "gain")], budget(len(labels(raw)), max_points))
    layers = [
        _diagonal("fraction_targeted", "gain"),
        _curve(line, keys, "fraction_targeted", "gain"),
    ]
    return _finish(layers, title, ["Dashed: random targeting"], note)


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
    chart = _curve(line, keys, "fraction_targeted", "lift", y_channel=y)
    one = (
        alt.Chart(alt.InlineData(values=[{"lift": 1.0}]))
        .mark_rule(strokeDash=[4, 4], color=GREY)
        .encode(y)
    )
    return _finish([one, chart], title, ["Dashed: random targeting (lift 1)"], note)
