"""The ``.clf`` delegates of the decision functions (:mod:`clfeval._decide`).

A mixin of :class:`clfeval._namespace.ClfNamespace`, so that each family keeps its file small;
``df.clf.name(...)`` is ``clfeval.name(df, ...)``, signatures spelled out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _decide
from clfeval._models import Models

By = str | Sequence[str] | None
Missing = Literal["raise", "drop"]


class DecideMethods:
    """``decision_curve``, ``expected_cost``, ``cv_summary`` and ``prevalence_curve``."""

    _df: pl.DataFrame | pl.LazyFrame

    def decision_curve(
        self,
        y: str,
        score: str | None = None,
        *,
        thresholds: Sequence[float] | None = None,
        pos_label: Any = 1,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.decision_curve`."""
        return _decide.decision_curve(
            self._df,
            y,
            score,
            thresholds=thresholds,
            pos_label=pos_label,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def expected_cost(
        self,
        y: str,
        yhat: str,
        *,
        cost_fp: float | None = None,
        cost_fn: float | None = None,
        benefit_tp: float = 0.0,
        benefit_tn: float = 0.0,
        costs: Mapping[Any, Mapping[Any, float]] | None = None,
        pos_label: Any = 1,
        prevalence: Any = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.expected_cost`."""
        return _decide.expected_cost(
            self._df,
            y,
            yhat,
            cost_fp=cost_fp,
            cost_fn=cost_fn,
            benefit_tp=benefit_tp,
            benefit_tn=benefit_tn,
            costs=costs,
            pos_label=pos_label,
            prevalence=prevalence,
            by=by,
            weight=weight,
            missing=missing,
        )

    def cv_summary(
        self,
        y: str,
        yhat: str | None = None,
        *,
        score: Any = None,
        fold: str = "fold",
        metrics: Sequence[str] | None = None,
        average: Any = "binary",
        pos_label: Any = 1,
        labels: Sequence[Any] | None = None,
        zero_division: float | None = 0.0,
        beta: float = 1.0,
        ddof: int = 1,
        prevalence: Any = None,
        models: Models = None,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
        nonfinite: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.cv_summary`."""
        return _decide.cv_summary(
            self._df,
            y,
            yhat,
            score=score,
            fold=fold,
            metrics=metrics,
            average=average,
            pos_label=pos_label,
            labels=labels,
            zero_division=zero_division,
            beta=beta,
            ddof=ddof,
            prevalence=prevalence,
            models=models,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )

    def prevalence_curve(
        self,
        y: str,
        yhat: str,
        *,
        prevalences: Sequence[float] | None = None,
        pos_label: Any = 1,
        zero_division: float | None = 0.0,
        by: By = None,
        weight: str | None = None,
        missing: Missing = "raise",
    ) -> Any:
        """See :func:`clfeval.prevalence_curve`."""
        return _decide.prevalence_curve(
            self._df,
            y,
            yhat,
            prevalences=prevalences,
            pos_label=pos_label,
            zero_division=zero_division,
            by=by,
            weight=weight,
            missing=missing,
        )
