"""Baselines: what constant predictors (most frequent, prior, uniform) score on the data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _label, _options, _shift
from clfeval._counts import (
    COUNTS_COLUMNS,
    N,
)
from clfeval._frames import as_polars, frame_input
from clfeval._metric_table import (
    AVERAGED,
    LABEL_DEFAULT,
    LABEL_METRICS,
    group_eval,
    join_by,
    label_parts,
)
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    check_labels_present,
    check_options,
    check_pos_label,
    check_prevalence,
    prepare,
)

# --- Baselines ------------------------------------------------------------------------------

STRATEGIES = ("most_frequent", "prior", "uniform")


@frame_input("baseline")
def baseline(
    data: Frame,
    y: str,
    *,
    metrics: Sequence[str] | None = None,
    pos_label: Any = 1,
    average: _label.Average = "binary",
    labels: Sequence[Any] | None = None,
    zero_division: _label.ZeroDivision = 0.0,
    prevalence: Any = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
) -> Frame:
    """What constant predictors score: ``strategy`` then one column per metric.

    ``most_frequent`` always predicts the majority class (ties: the first in class order) with
    probability 1; ``prior`` predicts the same class but scores with the class shares as
    probabilities; ``uniform`` scores the expected confusion matrix of guessing each class with
    probability 1/k (each actual class split evenly), with probabilities 1/k. Defaults: the
    label metrics of :func:`metrics` plus log_loss and brier (binary only). ``prevalence``:
    at that target, on the rows re-weighted as :func:`metrics` does (its majority and shares).

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 0, 1]})
    >>> baseline(df, "y", metrics=["accuracy"])["accuracy"].to_list()
    [0.75, 0.75, 0.5]
    """
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(average=average, labels=labels, zero_division=zero_division)
    target = _options.prevalence(prevalence)
    binary = average == "binary"
    known = (*LABEL_METRICS, "log_loss", "brier")
    names = (
        _options.metric_names(metrics, known)
        if metrics is not None
        else [*LABEL_DEFAULT, *(("log_loss", "brier") if binary else ())]
    )
    # as in metrics: binary label metrics of eager data check pos_label against the classes
    binary_labels = binary and any(n in AVERAGED for n in names)
    uses_pos = any(n in ("log_loss", "brier") for n in names) or (
        binary_labels and not isinstance(data, pl.DataFrame)
    )
    prep = prepare(
        data,
        y=y,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        pos_label=pos_label if uses_pos else NOT_GIVEN,
        outputs=["strategy", *names, *COUNTS_COLUMNS],
    )
    b = prep.by
    classes = prep.classes
    if classes is not None:
        check_labels_present(classes, labels, y)
    if classes is not None and binary and any(n in AVERAGED for n in names):
        dtype = prep.frame.collect_schema()[y]
        check_pos_label(classes, pos_label, average=average, labels=labels, y=y, dtype=dtype)
    n = pl.len().cast(pl.Float64) if weight is None else pl.col(weight).cast(pl.Float64).sum()
    actual = prep.frame.group_by([*b, y]).agg(n.alias(N))
    if target is not None:  # the actual classes' totals re-weighted to the target
        check_prevalence(prep, y, target)
        actual, context = _shift.shift_pairs(actual, prep, y, target, pos_label)
    # the majority class of each group: largest count, ties to the first in class order
    top = actual.sort([*b, N, y], descending=[*([False] * len(b)), True, False], nulls_last=True)
    mode = (
        top.group_by(b, maintain_order=True).agg(pl.col(y).first().alias("__mode"))
        if b
        else top.select(pl.col(y).first().alias("__mode"))
    )
    with_mode = (
        actual.join(mode, on=b, how="left", nulls_equal=True)
        if b
        else actual.join(mode, how="cross")
    )
    yhat = "__clf_yhat"
    constant = with_mode.select(*b, y, pl.col("__mode").alias(yhat), N)
    # guessing: each actual class's total spread evenly over the group's k classes
    guesses = actual.select(*b, pl.col(y).alias(yhat))
    per_group_k = (
        actual.group_by(b).agg(pl.len().alias("__k")) if b else actual.select(pl.len().alias("__k"))
    )
    uniform = (
        actual.join(guesses, on=b, how="inner", nulls_equal=True)
        if b
        else actual.join(guesses, how="cross")
    )
    uniform = (
        uniform.join(per_group_k, on=b, how="left", nulls_equal=True)
        if b
        else uniform.join(per_group_k, how="cross")
    )
    uniform = uniform.with_columns((pl.col(N) / pl.col("__k")).alias(N)).drop("__k")
    opts = {
        "average": average,
        "pos_label": pos_label,
        "labels": labels,
        "zero_division": zero_division,
        "weight": N,
        "beta": 1.0,
    }
    label_names = [x for x in names if x in LABEL_METRICS]
    frames = []
    for strategy, pairs in (
        ("most_frequent", constant),
        ("prior", constant),
        ("uniform", uniform),
    ):
        parts = label_parts(pairs, b, y, yhat, label_names, opts) if label_names else []
        prob = _proba_baseline(
            with_mode, strategy, b, y, pos_label, [x for x in names if x in ("log_loss", "brier")]
        )
        if prob is not None:
            parts.append(prob)
        part = parts[0]
        for other in parts[1:]:
            part = join_by(part, other, b)
        frames.append(part.with_columns(pl.lit(strategy).alias("strategy")))
    out = pl.concat(frames, how="vertical_relaxed").select(*b, "strategy", *names)
    if b:
        out = (
            out.with_columns(pl.col("strategy").replace_strict(STRATEGIES, range(3)).alias("__s"))
            .sort([*b, "__s"], nulls_last=True)
            .drop("__s")
        )
    if target is not None:
        out = _shift.finish(out, context, b, keep=["strategy"], show=False)
    return prep.finish(out)


def _proba_baseline(
    with_mode: pl.LazyFrame, strategy: str, b: list[str], y: str, pos_label: Any, names: list[str]
) -> pl.LazyFrame | None:
    """Log loss and Brier of a constant probability q for the positive class (binary).

    q is 1 or 0 (``most_frequent``), the positive share (``prior``) or 1/2 (``uniform``); log
    loss clips q to [eps, 1 - eps] like scikit-learn.
    """
    if not names:
        return None
    eps = 2.220446049250313e-16
    w = pl.col(N)
    is_pos = (pl.col(y) == pos_label).cast(pl.Float64)
    if strategy == "most_frequent":
        q = (pl.col("__mode") == pos_label).cast(pl.Float64)
    elif strategy == "prior":
        q = (w * is_pos).sum() / w.sum()
        q = q.over(b) if b else q
    else:
        q = pl.lit(0.5)
    frame = with_mode.with_columns(q.alias("__q"), is_pos.alias("__pos"))
    clipped = pl.col("__q").clip(eps, 1 - eps)
    p_true = pl.when(pl.col("__pos") == 1).then(clipped).otherwise(1 - clipped)
    exprs = []
    if "log_loss" in names:
        exprs.append(((-p_true.log() * w).sum() / w.sum()).alias("log_loss"))
    if "brier" in names:
        exprs.append((((pl.col("__pos") - pl.col("__q")) ** 2 * w).sum() / w.sum()).alias("brier"))
    return group_eval(frame, b, exprs)
