"""The uncertainty methods of ``df.clf.plot``: a bootstrap band for ROC curves, and paired
differences with their intervals (a mixin of :class:`clfeval.charts._plot.PlotNamespace`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from clfeval import _bootstrap
from clfeval._compare import compare as compare_labels
from clfeval._delong import compare_auroc
from clfeval._validate import prepare
from clfeval.charts._intervals import differences as differences_chart
from clfeval.exceptions import InputError


class IntervalPlots:
    """``_band`` for ``plot.roc(ci=)`` and ``plot.differences``."""

    _df: pl.DataFrame | pl.LazyFrame
    _sized: Callable[..., Any]  # PlotNamespace's: the groups' sizes, for the largest to stay

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
        if score is not None:
            table = compare_auroc(
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
            table = compare_labels(
                self._df, y, yhat, metrics=metrics, level=level, n_boot=n_boot, seed=seed,
                pos_label=pos_label, by=by, weight=weight,
            )  # fmt: skip
        table = table.collect() if isinstance(table, pl.LazyFrame) else table
        lazy_whole = isinstance(self._df, pl.LazyFrame) and by is None  # no rows: one row
        if lazy_whole and self._df.select(pl.len()).collect().item() == 0:
            raise InputError(
                "no rows to evaluate: the differences chart has nothing to draw",
                role="frame",
                rule="empty",
                hint="the LazyFrame had no rows; check its filters",
            )
        return differences_chart(self._sized(table, y, by, weight))
