"""``df.clf.plot`` charts of decisions: a mixin of :class:`clfeval.charts._plot.PlotNamespace`.

Each method computes the clfeval frame and draws it with :mod:`clfeval.charts._decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from clfeval import _decide, _label, _options
from clfeval.charts._data import check_threshold
from clfeval.charts._decide import decision_curve as decision_chart
from clfeval.charts._decide import prevalence as prevalence_chart
from clfeval.exceptions import InputError


class DecidePlots:
    """``prevalence`` and ``decision_curve`` charts of the frame."""

    _df: pl.DataFrame | pl.LazyFrame
    _sized: Callable[..., Any]  # PlotNamespace's: the groups' sizes, for the largest to stay

    def prevalence(
        self,
        y: str,
        yhat: str | None = None,
        *,
        score: str | None = None,
        threshold: float = 0.5,
        prevalences: Sequence[float] | None = None,
        metrics: Sequence[str] = ("precision", "npv"),
        pos_label: Any = 1,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
    ) -> Any:
        """Precision and NPV of one operating point against the prevalence, from
        :func:`clfeval.prevalence_curve`: the predicted class ``yhat``, or ``score >=
        threshold``; a rule marks the data's own prevalence. See
        :func:`clfeval.charts.prevalence`."""
        data = self._df
        if (yhat is None) == (score is None):
            raise InputError(
                "plot.prevalence needs yhat= or score= (with threshold=), one of them",
                role="yhat",
                rule="missing_argument",
                hint="pass the predicted class column, or a score and the threshold to cut at",
            )
        if score is not None:
            cut = check_threshold(threshold)
            _options.column_name("score", score)
            other = 0 if pos_label != 0 else 1  # any class but pos_label: a binary metric
            schema = data.lazy().collect_schema()
            if y in schema and schema[y] == pl.String:
                other = "__clf_other"
            said = pl.when(pl.col(score) >= cut).then(pl.lit(pos_label)).otherwise(pl.lit(other))
            name = f"{score} >= {cut:g}"  # the predicted class, named as a user would
            while name in schema:
                name += "'"
            data = data.with_columns(said.cast(schema.get(y, pl.Int64)).alias(name))
            yhat = name
        assert yhat is not None
        curve = _decide.prevalence_curve(
            data,
            y,
            yhat,
            prevalences=prevalences,
            pos_label=pos_label,
            by=by,
            weight=weight,
            missing=missing,
        )
        share = _label.prevalence(y, pos_label=pos_label, weight=weight)  # checked by the curve
        keys = [by] if isinstance(by, str) else list(by or [])
        rows = data.lazy().filter(pl.col(yhat).is_not_null())
        measured = rows.group_by(keys).agg(share) if keys else rows.select(share)
        curve = self._sized(curve, y, by, weight)
        return prevalence_chart(curve, measured=measured.collect(), metrics=tuple(metrics))

    def decision_curve(
        self,
        y: str,
        score: str | None = None,
        *,
        thresholds: Sequence[float] | None = None,
        pos_label: Any = 1,
        models: Any = None,
        by: Any = None,
        weight: str | None = None,
        missing: Any = "raise",
        nonfinite: Any = "raise",
    ) -> Any:
        """Net benefit of the model, treat all and treat none against the threshold
        probability, from :func:`clfeval.decision_curve`; see
        :func:`clfeval.charts.decision_curve`."""
        curve = _decide.decision_curve(
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
        return decision_chart(self._sized(curve, y, by, weight))
