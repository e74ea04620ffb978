"""``df.clf.plot``: each method computes a clfeval frame and hands it to ``clfeval.charts``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clfeval import (
    _counts,
    _curves,
    _gain,
    _metric_table,
    _options,
    _prob,
    _score,
    _thresholds,
)
from clfeval._models import MODEL
from clfeval._validate import prepare
from clfeval.charts._base import fitted
from clfeval.charts._calibration import calibration as calibration_chart
from clfeval.charts._compare import compare as compare_chart
from clfeval.charts._confusion import confusion_matrix as confusion_matrix_chart
from clfeval.charts._curves import det as det_chart
from clfeval.charts._curves import gain as gain_chart
from clfeval.charts._curves import lift as lift_chart
from clfeval.charts._curves import pr as pr_chart
from clfeval.charts._curves import roc as roc_chart
from clfeval.charts._data import (
    MAX_BINS,
    MAX_POINTS,
    MAX_SERIES,
    SIZE_COLUMN,
    check_threshold,
    fold_note,
    noted,
    other_name,
    top_classes,
)
from clfeval.charts._decide import cost as cost_chart
from clfeval.charts._explorer import explorer as explorer_chart
from clfeval.charts._plot_decide import DecidePlots
from clfeval.charts._plot_intervals import IntervalPlots
from clfeval.charts._scores import score_histogram
from clfeval.charts._scores import scores as scores_chart
from clfeval.charts._thresholds import thresholds as thresholds_chart


def _stacked(*charts: Any) -> Any:
    """Charts one under the other: their notes and the views a page sizes move up to the
    concatenation (Altair refuses ``usermeta`` on a chart inside a ``vconcat``)."""
    import altair as alt

    notes: list[str] = []
    views: list[tuple[Sequence[str | int], float | None]] = []
    parts = []
    for i, chart in enumerate(charts):
        meta = chart.usermeta.get("clfeval", {}) if isinstance(chart.usermeta, dict) else {}
        notes += meta.get("notes", [])
        for view in meta.get("fit", {}).get("views", []):
            views.append((("vconcat", i, *view["path"]), view["aspect"]))
        part = chart.copy()
        part.usermeta = alt.Undefined
        parts.append(part)
    both = fitted(alt.vconcat(*parts, spacing=18), views, largest=1100)
    return noted(both, list(dict.fromkeys(notes)))


class PlotNamespace(IntervalPlots, DecidePlots):
    """Altair charts of a frame: ``df.clf.plot.roc("y", "p")``.

    Each method computes the clfeval frame (``clfeval.roc_curve``, ...) with the same
    arguments and draws it with the ``clfeval.charts`` function of the same topic,
    which a caller can also use directly on a frame computed elsewhere (e.g. DuckDB).
    """

    def __init__(self, frame: pl.DataFrame | pl.LazyFrame) -> None:
        self._df = frame

    def _sized(self, frame: Any, y: str, by: Any, weight: str | None) -> Any:
        """``frame`` with a ``_size`` column, the rows (or total weight) of each group and,
        in a one-vs-rest frame, of each class of ``y``, when it has more series than a chart
        draws: the chart keeps the largest. Otherwise (or for an empty or odd frame) as is."""
        if isinstance(frame, pl.LazyFrame):
            frame = frame.collect()
        groups = [by] if isinstance(by, str) else list(by or [])
        label = "label" in frame.columns and "label" not in groups
        keys = [*groups, *(["label"] if label else [])]
        if not keys or not set(keys) <= set(frame.columns) or frame.height <= MAX_SERIES:
            return frame
        if frame.select(keys).n_unique() <= MAX_SERIES:
            return frame
        n = pl.len().cast(pl.Float64) if weight is None else pl.col(weight).cast(pl.Float64).sum()
        sizes = (
            self._df.lazy().group_by([*groups, *([y] if label else [])]).agg(n.alias(SIZE_COLUMN))
        )
        if label:
            sizes = sizes.rename({y: "label"})
        sizes = (
            sizes.with_columns(pl.col(k).cast(frame.schema[k], strict=False) for k in keys)
            .group_by(keys)
            .agg(pl.col(SIZE_COLUMN).sum())
            .collect()
        )
        return frame.join(sizes, on=keys, how="left", nulls_equal=True, maintain_order="left")

    def _usable(self, score: Any, nonfinite: str) -> pl.DataFrame | pl.LazyFrame:
        """The frame the legend metric sees: the rows the curve used."""
        if nonfinite == "drop" and isinstance(score, str):
            return self._df.filter(pl.col(score).is_finite())
        return self._df

    def confusion_matrix(
        self,
        y: str,
        yhat: str,
        *,
        labels: Sequence[Any] | None = None,
        normalize: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
    ) -> Any:
        """Heatmap of :func:`clfeval.confusion_matrix`; see :func:`clfeval.charts.confusion_matrix`."""

        # the one-vs-rest counts check the data and give each class's support, linear in
        # classes; the full matrix has every pair of classes, so over MAX_CLASSES + 1 classes
        # it is computed on the data with the rarer classes relabelled as one "other"
        table = _counts.counts(
            self._df, y, yhat, labels=labels, by=by, weight=weight, missing=missing
        )
        table = table.collect() if isinstance(table, pl.LazyFrame) else table
        support = table.group_by("label", maintain_order=True).agg(pl.col("support").sum())
        if labels is None:
            support = support.sort("label", nulls_last=True)
        top = top_classes(support)
        data, note = self._df, None
        if top is not None:
            data, labels, note = fold_data(
                data, y, yhat, table.schema["label"], top, support.height
            )
        frame = _counts.confusion_matrix(
            data,
            y,
            yhat,
            labels=labels,
            normalize=normalize,
            by=by,
            weight=weight,
            missing=missing,
        )
        chart = confusion_matrix_chart(self._sized(frame, y, by, weight))
        return noted(chart, [note])

    def roc(
        self,
        y: str,
        score: Any = None,
        *,
        pos_label: Any = 1,
        threshold: float | None = None,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        models: Any = None,
        ci: float | None = None,
        n_boot: int = 1_000,
        seed: int = 0,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """ROC curve of :func:`clfeval.roc_curve`, AUROC from :func:`clfeval.auroc` in the legend
        (binary) or the curve's area (one-vs-rest); see :func:`clfeval.charts.roc`. ``ci=0.95``
        shades the pointwise percentile band of ``n_boot`` Poisson bootstrap replicates (TPR
        at 51 false positive rates; binary score, ``by`` groups)."""

        curve = _curves.roc_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            drop_intermediate=threshold is None,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        area = None
        if isinstance(score, str) and labels is None:  # binary: the metric of the rows
            expr = _score.auroc(y, score, pos_label=pos_label, weight=weight)
            area = per_group(self._usable(score, nonfinite), expr, by, "auroc")
        curve = self._sized(curve, y, by, weight)
        band = None
        if ci is not None:
            band = self._band(
                y, score, ci, n_boot, seed, pos_label, models, by, weight, missing, nonfinite
            )
        return roc_chart(curve, auroc=area, threshold=threshold, max_points=max_points, band=band)

    def pr(
        self,
        y: str,
        score: Any = None,
        *,
        pos_label: Any = 1,
        threshold: float | None = None,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Precision-recall curve of :func:`clfeval.pr_curve`, average precision from
        :func:`clfeval.average_precision` in the legend; see :func:`clfeval.charts.pr`."""

        curve = _curves.pr_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        ap = None
        if isinstance(score, str) and labels is None:  # binary: the metric of the rows
            expr = _score.average_precision(y, score, pos_label=pos_label, weight=weight)
            ap = per_group(self._usable(score, nonfinite), expr, by, "average_precision")
        curve = self._sized(curve, y, by, weight)
        return pr_chart(curve, average_precision=ap, threshold=threshold, max_points=max_points)

    def det(
        self,
        y: str,
        score: Any = None,
        *,
        pos_label: Any = 1,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """DET curve of :func:`clfeval.det_curve`; see :func:`clfeval.charts.det`."""

        curve = _curves.det_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        return det_chart(self._sized(curve, y, by, weight), max_points=max_points)

    def thresholds(
        self,
        y: str,
        score: str | None = None,
        *,
        metrics: Sequence[str] = ("precision", "recall", "f1"),
        pos_label: Any = 1,
        threshold: float | None = None,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        prevalence: Any = None,
        cost_fp: float | None = None,
        cost_fn: float | None = None,
        benefit_tp: float = 0.0,
        benefit_tn: float = 0.0,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Metrics against the threshold, from :func:`clfeval.thresholds`; see
        :func:`clfeval.charts.thresholds`. With ``cost_fp`` and ``cost_fn``, the expected cost
        curve below it, its minimum and the calibrated optimum marked
        (:func:`clfeval.charts.cost`); ``prevalence``: both at that target."""

        decision = {
            "prevalence": prevalence,
            "cost_fp": cost_fp,
            "cost_fn": cost_fn,
            "benefit_tp": benefit_tp,
            "benefit_tn": benefit_tn,
        }
        common = {
            "pos_label": pos_label,
            "labels": labels,
            "models": models,
            "by": by,
            "weight": weight,
            "missing": missing,
            "nonfinite": nonfinite,
        }
        table = _thresholds.thresholds(self._df, y, score, **decision, **common)
        table = self._sized(table, y, by, weight)
        chart = thresholds_chart(table, metrics=metrics, threshold=threshold, max_points=max_points)
        if cost_fp is None and cost_fn is None:
            return chart
        best = _thresholds.best_threshold(self._df, y, score, metric="cost", **decision, **common)
        best = best.collect() if isinstance(best, pl.LazyFrame) else best
        calibrated = best.select(pl.exclude("threshold", "expected_cost", "tp", "fp", "fn", "tn"))
        return _stacked(chart, cost_chart(table, calibrated=calibrated, max_points=max_points))

    def calibration(
        self,
        y: str,
        proba: str | None = None,
        *,
        pos_label: Any = 1,
        n_bins: int = 10,
        strategy: Any = "uniform",
        labels: Sequence[Any] | None = None,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Reliability diagram of :func:`clfeval.calibration`, ECE from :func:`clfeval.ece`
        for uniform bins; see :func:`clfeval.charts.calibration`."""

        n_bins = _options.n_bins(n_bins)  # 1 to 1,000: the chart's rows are bounded
        frame = _prob.calibration(
            self._df,
            y,
            proba,
            pos_label=pos_label,
            n_bins=n_bins,
            strategy=strategy,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        ece = None
        if (
            strategy == "uniform" and models is None and isinstance(proba, str) and labels is None
        ):  # per model: the bins' own ECE
            expr = _prob.ece(y, proba, pos_label=pos_label, n_bins=n_bins, weight=weight)
            ece = per_group(self._usable(proba, nonfinite), expr, by, "ece")
        return calibration_chart(self._sized(frame, y, by, weight), ece=ece)

    def scores(
        self,
        y: str,
        score: str,
        *,
        threshold: float | None = 0.5,
        pos_label: Any = 1,
        n_bins: int = 40,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Score histogram per actual class with the rule ``score >= threshold`` (the class
        ``pos_label`` drawn filled), binned by :func:`clfeval.charts.score_histogram`
        (``n_bins`` from 1 to 1,000).

        The data gets the checks of every other chart: nulls raise unless
        ``missing="drop"``, NaN and infinite scores unless ``nonfinite="drop"``."""

        _options.column_name("score", score)
        threshold = check_threshold(threshold)
        n_bins = _options.positive_int(
            "n_bins", n_bins, high=MAX_BINS, hint="n_bins is the number of score bins, e.g. 40"
        )
        prep = prepare(
            self._df,
            y=y,
            score=score,
            weight=weight,
            by=by,
            missing=missing,
            nonfinite=nonfinite,
            classes=False,
        )
        hist = score_histogram(prep.frame, y, score, by=by, n_bins=n_bins, weight=weight)
        return scores_chart(hist, threshold=threshold, pos_label=pos_label)

    def gain(
        self,
        y: str,
        score: str | None = None,
        *,
        pos_label: Any = 1,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Cumulative gain of :func:`clfeval.gain_curve`; see :func:`clfeval.charts.gain`."""

        curve = _gain.gain_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        return gain_chart(self._sized(curve, y, by, weight), max_points=max_points)

    def lift(
        self,
        y: str,
        score: str | None = None,
        *,
        pos_label: Any = 1,
        max_points: int = MAX_POINTS,
        labels: Sequence[Any] | None = None,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Lift of :func:`clfeval.lift_curve`; see :func:`clfeval.charts.lift`."""

        curve = _gain.lift_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        return lift_chart(self._sized(curve, y, by, weight), max_points=max_points)

    def compare(
        self,
        y: str,
        yhat: str | None = None,
        *,
        score: Any = None,
        models: Any = None,
        by: Any = None,
        metrics: Sequence[str] | None = None,
        average: Any = "binary",
        pos_label: Any = 1,
        ci: float | None = None,
        n_boot: int = 1_000,
        seed: int = 0,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Metrics of :func:`clfeval.metrics` per group (``by``: models, segments) as a dot
        plot; with ``ci=0.95`` a forest plot of the bootstrap intervals; see
        :func:`clfeval.charts.compare`."""
        table = _metric_table.metrics(
            self._df,
            y,
            yhat,
            score=score,
            metrics=metrics,
            average=average,
            pos_label=pos_label,
            ci=ci,
            n_boot=n_boot,
            seed=seed,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        keys = by
        if models is not None:
            keys = [MODEL, *([by] if isinstance(by, str) else list(by or []))]
        return compare_chart(self._sized(table, y, by, weight), by=keys, metrics=metrics)

    def explorer(
        self,
        y: str,
        score: str,
        *,
        pos_label: Any = 1,
        threshold: float | None = None,
        max_points: int = MAX_POINTS,
        cost_fp: float | None = None,
        cost_fn: float | None = None,
        benefit_tp: float = 0.0,
        benefit_tn: float = 0.0,
        prevalence: float | None = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Interactive threshold explorer over :func:`clfeval.thresholds`; see
        :func:`clfeval.charts.explorer`. With ``cost_fp`` and ``cost_fn`` its panel shows
        the expected cost per row at the slider (at the target ``prevalence``, if given)."""
        costs = _options.costs(cost_fp, cost_fn, benefit_tp, benefit_tn)
        table = _thresholds.thresholds(
            self._df,
            y,
            score,
            pos_label=pos_label,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
        table = self._sized(table, y, by, weight)
        return explorer_chart(
            table, threshold=threshold, max_points=max_points, costs=costs, prevalence=prevalence
        )


def per_group(
    frame: pl.DataFrame | pl.LazyFrame, expr: pl.Expr, by: str | Sequence[str] | None, name: str
) -> pl.DataFrame:
    """``expr`` evaluated once per group (keys first, then ``name``), or once."""
    keys = [by] if isinstance(by, str) else list(by or [])
    lf = frame.lazy()
    out = (
        lf.group_by(keys, maintain_order=True).agg(expr.alias(name))
        if keys
        else lf.select(expr.alias(name))
    )
    return out.collect()


def fold_data(
    data: pl.DataFrame | pl.LazyFrame,
    y: str,
    yhat: str,
    dtype: pl.DataType,
    top: Sequence[Any],
    n: int,
) -> tuple[pl.DataFrame | pl.LazyFrame, list[str], str]:
    """``data`` with ``y`` and ``yhat`` as text, every class but ``top`` renamed to one
    "other" (nulls stay null), the labels to pass on, and the note saying so."""
    shown = pl.Series(list(top), dtype=dtype).cast(pl.String).to_list()
    other = other_name(n - len(shown), shown)

    def fold(c: str) -> pl.Expr:
        raw = pl.col(c)
        bad = raw.is_null()
        if data.collect_schema()[c].is_float():  # a NaN label is missing, as a null
            bad = bad | raw.is_nan()
        text = raw.cast(dtype, strict=False).cast(pl.String)  # classes are checked already
        return (
            pl.when(bad)
            .then(pl.lit(None, pl.String))
            .when(text.is_in(shown))
            .then(text)
            .otherwise(pl.lit(other))
            .alias(c)
        )

    folded = data.with_columns([fold(c) for c in dict.fromkeys([y, yhat])])
    note = fold_note(len(shown), n, other, "the row and column")
    return folded, [*shown, other], note
