"""The ``.clf`` namespace on DataFrame and LazyFrame: one-line delegates to the functions.

``df.clf.name(...)`` is ``clfeval.name(df, ...)``. Signatures are spelled out (no forwarding
magic) so that editors and help() show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from clfeval import (
    _baseline,
    _compare,
    _counts,
    _curves,
    _delong,
    _gain,
    _metric_table,
    _prob,
    _replicates,
    _report,
    _thresholds,
)
from clfeval._models import Models
from clfeval._namespace_decide import DecideMethods

if TYPE_CHECKING:
    from clfeval.charts._plot import PlotNamespace

By = str | Sequence[str] | None
Missing = Literal["raise", "drop"]
Score = str | Sequence[str] | Mapping[Any, str]


class ClfNamespace(DecideMethods):
    """Classifier evaluation for the frame: ``df.clf.report("y", "yhat")``."""

    def __init__(self, frame: pl.DataFrame | pl.LazyFrame) -> None:
        self._df = frame

    @property
    def plot(self) -> PlotNamespace:
        """Altair charts of this frame: ``df.clf.plot.roc("y", "p")``."""
        from clfeval.charts._plot import PlotNamespace

        return PlotNamespace(self._df)

    def confusion_matrix(
        self,
        y: str,
        yhat: str | None = None,
        *,
        labels: Sequence[Any] | None = None,
        normalize: Literal["true", "pred", "all"] | None = None,
        wide: bool = False,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.confusion_matrix`."""
        return _counts.confusion_matrix(
            self._df,
            y,
            yhat,
            labels=labels,
            normalize=normalize,
            wide=wide,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
        )

    def counts(
        self,
        y: str,
        yhat: str | None = None,
        *,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.counts`."""
        return _counts.counts(
            self._df, y, yhat, labels=labels, models=models, by=by, weight=weight, missing=missing
        )

    def metrics(
        self,
        y: str,
        yhat: str | None = None,
        *,
        score: Score | None = None,
        metrics: Sequence[str] | None = None,
        average: Any = "binary",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        beta: float = 1.0,
        multi_class: Literal["ovr", "ovo"] = "ovr",
        kappa_weights: Literal["linear", "quadratic"] | None = None,
        adjusted: bool = False,
        max_fpr: float | None = None,
        ci: float | None = None,
        n_boot: int = 1_000,
        seed: int = 0,
        prevalence: Any = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.metrics`."""
        return _metric_table.metrics(
            self._df,
            y,
            yhat,
            score=score,
            metrics=metrics,
            average=average,
            pos_label=pos_label,
            labels=labels,
            zero_division=zero_division,
            beta=beta,
            multi_class=multi_class,
            kappa_weights=kappa_weights,
            adjusted=adjusted,
            max_fpr=max_fpr,
            ci=ci,
            n_boot=n_boot,
            seed=seed,
            prevalence=prevalence,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def report(
        self,
        y: str,
        yhat: str,
        *,
        score: Score | None = None,
        labels: Sequence[Any] | None = None,
        target_names: Sequence[str] | None = None,
        digits: int = 2,
        zero_division: float | None = 0.0,
        pos_label: Any = 1,
        ci: float | None = None,
        n_boot: int = 1_000,
        seed: int = 0,
        prevalence: Any = None,
        fold: str | None = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> _report.Report:
        """See :func:`clfeval.report`."""
        return _report.report(
            self._df,
            y,
            yhat,
            score=score,
            labels=labels,
            target_names=target_names,
            digits=digits,
            zero_division=zero_division,
            pos_label=pos_label,
            ci=ci,
            n_boot=n_boot,
            seed=seed,
            prevalence=prevalence,
            fold=fold,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def bootstrap(
        self,
        y: str,
        yhat: str | None = None,
        *,
        score: str | None = None,
        metrics: Sequence[str] | None = None,
        n_boot: int = 1_000,
        seed: int = 0,
        average: Any = "binary",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        beta: float = 1.0,
        max_fpr: float | None = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.bootstrap`."""
        return _replicates.bootstrap(
            self._df, y, yhat, score=score, metrics=metrics, n_boot=n_boot, seed=seed,
            average=average, pos_label=pos_label, labels=labels, zero_division=zero_division,
            beta=beta, max_fpr=max_fpr, by=by, weight=weight, missing=missing,
            nonfinite=nonfinite,
        )  # fmt: skip

    def auroc_ci(
        self,
        y: str,
        score: str,
        *,
        level: float = 0.95,
        pos_label: Any = 1,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.auroc_ci`."""
        return _delong.auroc_ci(
            self._df, y, score, level=level, pos_label=pos_label, by=by, weight=weight,
            missing=missing, nonfinite=nonfinite,
        )  # fmt: skip

    def compare_auroc(
        self,
        y: str,
        score: Sequence[str],
        *,
        level: float = 0.95,
        pos_label: Any = 1,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.compare_auroc`."""
        return _delong.compare_auroc(
            self._df, y, score, level=level, pos_label=pos_label, by=by, weight=weight,
            missing=missing, nonfinite=nonfinite,
        )  # fmt: skip

    def compare(
        self,
        y: str,
        yhat: Sequence[str],
        *,
        metrics: Sequence[str] | None = None,
        level: float = 0.95,
        n_boot: int = 1_000,
        seed: int = 0,
        average: Any = "binary",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        beta: float = 1.0,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.compare`."""
        return _compare.compare(
            self._df, y, yhat, metrics=metrics, level=level, n_boot=n_boot, seed=seed,
            average=average, pos_label=pos_label, labels=labels, zero_division=zero_division,
            beta=beta, by=by, weight=weight, missing=missing,
        )  # fmt: skip

    def baseline(
        self,
        y: str,
        *,
        metrics: Sequence[str] | None = None,
        pos_label: Any = 1,
        average: Any = "binary",
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        prevalence: Any = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.baseline`."""
        return _baseline.baseline(
            self._df,
            y,
            metrics=metrics,
            pos_label=pos_label,
            average=average,
            labels=labels,
            zero_division=zero_division,
            prevalence=prevalence,
            by=by,
            weight=weight,
            missing=missing,
        )

    def threshold_counts(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.threshold_counts`."""
        return _curves.threshold_counts(
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

    def roc_curve(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        drop_intermediate: bool = True,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.roc_curve`."""
        return _curves.roc_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            drop_intermediate=drop_intermediate,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def pr_curve(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        drop_intermediate: bool = False,
        labels: Sequence[Any] | None = None,
        prevalence: Any = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.pr_curve`."""
        return _curves.pr_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            drop_intermediate=drop_intermediate,
            labels=labels,
            prevalence=prevalence,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def det_curve(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        drop_intermediate: bool = False,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.det_curve`."""
        return _curves.det_curve(
            self._df,
            y,
            score,
            pos_label=pos_label,
            drop_intermediate=drop_intermediate,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def gain_curve(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.gain_curve`."""
        return _gain.gain_curve(
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

    def lift_curve(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.lift_curve`."""
        return _gain.lift_curve(
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

    def thresholds(
        self,
        y: str,
        score: Score | None = None,
        *,
        pos_label: Any = 1,
        metrics: Sequence[str] | None = None,
        n: int | None = None,
        beta: float = 1.0,
        zero_division: float | None = 0.0,
        labels: Sequence[Any] | None = None,
        prevalence: Any = None,
        cost_fp: float | None = None,
        cost_fn: float | None = None,
        benefit_tp: float = 0.0,
        benefit_tn: float = 0.0,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.thresholds`."""
        return _thresholds.thresholds(
            self._df,
            y,
            score,
            pos_label=pos_label,
            metrics=metrics,
            n=n,
            beta=beta,
            zero_division=zero_division,
            labels=labels,
            prevalence=prevalence,
            cost_fp=cost_fp,
            cost_fn=cost_fn,
            benefit_tp=benefit_tp,
            benefit_tn=benefit_tn,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def best_threshold(
        self,
        y: str,
        score: Score | None = None,
        *,
        metric: str = "f1",
        beta: float = 1.0,
        min_precision: float | None = None,
        min_recall: float | None = None,
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        prevalence: Any = None,
        cost_fp: float | None = None,
        cost_fn: float | None = None,
        benefit_tp: float = 0.0,
        benefit_tn: float = 0.0,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.best_threshold`."""
        return _thresholds.best_threshold(
            self._df,
            y,
            score,
            metric=metric,
            beta=beta,
            min_precision=min_precision,
            min_recall=min_recall,
            pos_label=pos_label,
            labels=labels,
            prevalence=prevalence,
            cost_fp=cost_fp,
            cost_fn=cost_fn,
            benefit_tp=benefit_tp,
            benefit_tn=benefit_tn,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def calibration(
        self,
        y: str,
        proba: Score | None = None,
        *,
        n_bins: int = 10,
        strategy: Literal["uniform", "quantile"] = "uniform",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.calibration`."""
        return _prob.calibration(
            self._df,
            y,
            proba,
            n_bins=n_bins,
            strategy=strategy,
            pos_label=pos_label,
            labels=labels,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )


def register() -> None:
    pl.api.register_dataframe_namespace("clf")(ClfNamespace)
    pl.api.register_lazyframe_namespace("clf")(ClfNamespace)


__all__ = ["ClfNamespace", "register"]
