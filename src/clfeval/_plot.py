"""``df.clf.plot``: each method computes a clfeval frame and hands it to ``clfeval.charts``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clfeval import _options
from clfeval._chart_data import (
    MAX_BINS,
    MAX_POINTS,
    MAX_SERIES,
    SIZE_COLUMN,
    _fold_data,
    _per_group,
    check_threshold,
    noted,
    score_histogram,
    top_classes,
)
from clfeval._models import MODEL
from clfeval.exceptions import InputError


class PlotNamespace:
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
        import clfeval
        from clfeval import charts

        # the one-vs-rest counts check the data and give each class's support, linear in
        # classes; the full matrix has every pair of classes, so over MAX_CLASSES + 1 classes
        # it is computed on the data with the rarer classes relabelled as one "other"
        table = clfeval.counts(
            self._df, y, yhat, labels=labels, by=by, weight=weight, missing=missing
        )
        table = table.collect() if isinstance(table, pl.LazyFrame) else table
        support = table.group_by("label", maintain_order=True).agg(pl.col("support").sum())
        if labels is None:
            support = support.sort("label", nulls_last=True)
        top = top_classes(support)
        data, note, pooled = self._df, None, None
        if top is not None:
            data, labels, note = _fold_data(
                data, y, yhat, table.schema["label"], top, support.height
            )
            pooled = labels[-1]
        frame = clfeval.confusion_matrix(
            data,
            y,
            yhat,
            labels=labels,
            normalize=normalize,
            by=by,
            weight=weight,
            missing=missing,
        )
        chart = charts.confusion_matrix(self._sized(frame, y, by, weight), pooled=pooled)
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
        import clfeval
        from clfeval import charts

        curve = clfeval.roc_curve(
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
            expr = clfeval.auroc(y, score, pos_label=pos_label, weight=weight)
            area = _per_group(self._usable(score, nonfinite), expr, by, "auroc")
        curve = self._sized(curve, y, by, weight)
        band = None
        if ci is not None:
            band = self._band(
                y, score, ci, n_boot, seed, pos_label, models, by, weight, missing, nonfinite
            )
        return charts.roc(curve, auroc=area, threshold=threshold, max_points=max_points, band=band)

    def _band(
        self,
        y: str,
        score: Any,
        ci: Any,
        n_boot: int,
        seed: int,
        pos_label: Any,
        models: Any,
        by: Any,
        weight: Any,
        missing: Any,
        nonfinite: Any,
    ) -> Any:
        """The bootstrap band of a binary ROC curve (``clfeval._bootstrap.roc_band``)."""
        from clfeval import _bootstrap
        from clfeval._validate import prepare

        level, n_boot, seed = _bootstrap.check(ci, n_boot, seed)
        if level is None:
            return None
        if models is not None or not isinstance(score, str):
            raise InputError(
                "ci= draws the band of one binary score column",
                role="score",
                rule="score_labels",
                hint="pass score='column' (and by= for several models in a long frame)",
            )
        prep = prepare(
            self._df, y=y, score=score, weight=weight, by=by, missing=missing,
            nonfinite=nonfinite, classes=False, pos_label=pos_label, pos_in_y=True,
            scan_lazy=True,
        )  # fmt: skip
        return _bootstrap.roc_band(prep, y, score, pos_label, weight, level, n_boot, seed)

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
        import clfeval
        from clfeval import charts

        curve = clfeval.pr_curve(
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
            expr = clfeval.average_precision(y, score, pos_label=pos_label, weight=weight)
            ap = _per_group(self._usable(score, nonfinite), expr, by, "average_precision")
        curve = self._sized(curve, y, by, weight)
        return charts.pr(curve, average_precision=ap, threshold=threshold, max_points=max_points)

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
        import clfeval
        from clfeval import charts

        curve = clfeval.det_curve(
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
        return charts.det(self._sized(curve, y, by, weight), max_points=max_points)

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
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Metrics against the threshold, from :func:`clfeval.thresholds`; see
        :func:`clfeval.charts.thresholds`."""
        import clfeval
        from clfeval import charts

        table = clfeval.thresholds(
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
        table = self._sized(table, y, by, weight)
        return charts.thresholds(table, metrics=metrics, threshold=threshold, max_points=max_points)

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
        import clfeval
        from clfeval import charts

        n_bins = _options.n_bins(n_bins)  # 1 to 1,000: the chart's rows are bounded
        frame = clfeval.calibration(
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
            expr = clfeval.ece(y, proba, pos_label=pos_label, n_bins=n_bins, weight=weight)
            ece = _per_group(self._usable(proba, nonfinite), expr, by, "ece")
        return charts.calibration(self._sized(frame, y, by, weight), ece=ece)

    def scores(
        self,
        y: str,
        score: str,
        *,
        threshold: float | None = 0.5,
        n_bins: int = 40,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Score histogram per actual class with the rule ``score >= threshold``, binned by
        :func:`clfeval.charts.score_histogram` (``n_bins`` from 1 to 1,000).

        The data gets the checks of every other chart: nulls raise unless
        ``missing="drop"``, NaN and infinite scores unless ``nonfinite="drop"``."""
        from clfeval import charts
        from clfeval._validate import prepare as checked

        _options.column_name("score", score)
        threshold = check_threshold(threshold)
        n_bins = _options.positive_int(
            "n_bins", n_bins, high=MAX_BINS, hint="n_bins is the number of score bins, e.g. 40"
        )
        prep = checked(
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
        return charts.scores(hist, threshold=threshold)

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
        import clfeval
        from clfeval import charts

        curve = clfeval.gain_curve(
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
        return charts.gain(self._sized(curve, y, by, weight), max_points=max_points)

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
        import clfeval
        from clfeval import charts

        curve = clfeval.lift_curve(
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
        return charts.lift(self._sized(curve, y, by, weight), max_points=max_points)

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
        import clfeval
        from clfeval import charts

        table = clfeval.metrics(
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
        return charts.compare(self._sized(table, y, by, weight), by=keys, metrics=metrics)

    def differences(
        self,
        y: str,
        yhat: Sequence[str] | None = None,
        *,
        score: Sequence[str] | None = None,
        metrics: Sequence[str] | None = None,
        level: float = 0.95,
        n_boot: int = 1_000,
        seed: int = 0,
        pos_label: Any = 1,
        by: Any = None,
        weight: str | None = None,
    ) -> Any:
        """Paired differences b − a with their intervals, per group: :func:`clfeval.compare`
        of the ``yhat`` columns, or :func:`clfeval.compare_auroc` (DeLong) of the ``score``
        columns; see :func:`clfeval.charts.differences`."""
        import clfeval
        from clfeval import charts

        if score is not None:
            table = clfeval.compare_auroc(
                self._df, y, score, level=level, pos_label=pos_label, by=by, weight=weight
            )
        else:
            if yhat is None:
                raise InputError(
                    "differences needs yhat=[...] or score=[...]",
                    role="yhat",
                    rule="missing_argument",
                    hint="pass two or more predicted-label or score columns of the same rows",
                )
            table = clfeval.compare(
                self._df, y, yhat, metrics=metrics, level=level, n_boot=n_boot, seed=seed,
                pos_label=pos_label, by=by, weight=weight,
            )  # fmt: skip
        table = table.collect() if isinstance(table, pl.LazyFrame) else table
        return charts.differences(table)

    def explorer(
        self,
        y: str,
        score: str,
        *,
        pos_label: Any = 1,
        threshold: float | None = None,
        max_points: int = MAX_POINTS,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Interactive threshold explorer over :func:`clfeval.thresholds`; see
        :func:`clfeval.charts.explorer`."""
        import clfeval
        from clfeval import charts

        table = clfeval.thresholds(
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
        return charts.explorer(table, threshold=threshold, max_points=max_points)
