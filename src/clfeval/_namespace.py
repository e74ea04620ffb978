"""The ``.clf`` namespace on DataFrame and LazyFrame: one-line delegates to the functions.

``df.clf.name(...)`` is ``clfeval.name(df, ...)``. Signatures are spelled out (no forwarding
magic) so that editors and help() show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from clfeval import _counts, _report

if TYPE_CHECKING:
    from clfeval._plot import PlotNamespace

By = str | Sequence[str] | None
Missing = Literal["raise", "drop"]
Score = str | Sequence[str] | Mapping[Any, str]


class ClfNamespace:
    """Classifier evaluation for the frame: ``df.clf.report("y", "yhat")``."""

    def __init__(self, frame: pl.DataFrame | pl.LazyFrame) -> None:
        self._df = frame

    @property
    def plot(self) -> PlotNamespace:
        """Altair charts of this frame: ``df.clf.plot.roc("y", "p")``."""
        from clfeval._plot import PlotNamespace

        return PlotNamespace(self._df)

    def confusion_matrix(
        self,
        y: str,
        yhat: str,
        *,
        labels: Sequence[Any] | None = None,
        normalize: Literal["true", "pred", "all"] | None = None,
        wide: bool = False,
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
            by=by,
            weight=weight,
            missing=missing,
        )

    def counts(
        self,
        y: str,
        yhat: str,
        *,
        labels: Sequence[Any] | None = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.counts`."""
        return _counts.counts(
            self._df, y, yhat, labels=labels, by=by, weight=weight, missing=missing
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
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.metrics`."""
        return _report.metrics(
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
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def baseline(
        self,
        y: str,
        *,
        metrics: Sequence[str] | None = None,
        pos_label: Any = 1,
        average: Any = "binary",
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.baseline`."""
        return _report.baseline(
            self._df,
            y,
            metrics=metrics,
            pos_label=pos_label,
            average=average,
            labels=labels,
            zero_division=zero_division,
            by=by,
            weight=weight,
            missing=missing,
        )


def register() -> None:
    pl.api.register_dataframe_namespace("clf")(ClfNamespace)
    pl.api.register_lazyframe_namespace("clf")(ClfNamespace)


__all__ = ["ClfNamespace", "register"]
