"""Poisson bootstrap replicates as a frame function (the draws and the replicate metrics are
:mod:`clfeval._bootstrap`'s; ``ci=`` of :func:`clfeval.metrics` turns them into intervals)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl  # noqa: F401  (the doctest's pl)

from clfeval._frames import as_polars
from clfeval._metric_table import evaluate
from clfeval._validate import Frame

__all__ = ["bootstrap"]


def bootstrap(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    score: str | None = None,
    metrics: Sequence[str] | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
    average: Literal["binary", "micro", "macro", "weighted"] | None = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = 0.0,
    beta: float = 1.0,
    max_fpr: float | None = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Frame:
    """Poisson bootstrap replicates of metrics: ``by..., replicate``, one column per metric.

    Replicate r of a metric is the metric of the count table whose cells are Poisson draws
    around the data's counts (see the module notes); the same ``seed`` gives the same
    replicates, in Polars and in DuckDB. A null replicate (AUROC of a one-class draw) stays
    null. Metrics and options as :func:`clfeval.metrics` (binary scores only).

    See Also
    --------
    clf_bootstrap, clf_bootstrap_scores : the SQL twins.
    clfeval.metrics : ``ci=`` turns these replicates into percentile intervals.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 1], "yhat": [1, 0, 0, 1, 1, 1]})
    >>> reps = bootstrap(df, "y", "yhat", metrics=["recall"], n_boot=200, seed=1)
    >>> reps.columns, reps.height
    (['replicate', 'recall'], 200)
    """
    return evaluate(
        as_polars(data), y, yhat, score=score, metrics=metrics, average=average,
        pos_label=pos_label, labels=labels, zero_division=zero_division, beta=beta,
        multi_class="ovr", kappa_weights=None, max_fpr=max_fpr, ci=None, n_boot=n_boot,
        seed=seed, by=by, weight=weight, missing=missing, nonfinite=nonfinite, replicates=True,
    )  # fmt: skip
