"""Checks on what ``prepare`` leaves: the class sets (``pos_label``, ``labels``, score
columns per class), the rows of multiclass probabilities, a target prevalence and the folds of
a cross-validation. Each reads the prepared frame once (eager input) or the schema (lazy), and
raises the front door's :class:`~clfeval.exceptions.InputError`; ``clfeval._validate``
re-exports them for every front door.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from clfeval._prepared import ROWS_ELSEWHERE, Missing, Prepared
from clfeval._schema import check_class_value, check_columns
from clfeval.exceptions import InputError

__all__ = [
    "check_folds",
    "check_labels_present",
    "check_pos_label",
    "check_prevalence",
    "check_proba_sums",
    "check_score_classes",
    "proba_sum_error",
]


# --- checks on class sets and probability rows -----------------------------------------------


def check_proba_sums(
    prep: Prepared, columns: Mapping[Any, str], *, atol: float | None = None
) -> None:
    """Raise when a row of multiclass probabilities does not sum to 1 (eager input only).

    The tolerance is ``1e-6 * k`` for k columns unless ``atol`` is given; the error names the
    worst row and its sum. LazyFrames are not read here.
    """
    if not prep.eager or not columns:
        return
    tol = 1e-6 * len(columns) if atol is None else atol
    total = pl.sum_horizontal([pl.col(c).cast(pl.Float64) for c in columns.values()])
    gap = (total - 1.0).abs()
    row = prep.frame.select(
        (gap > tol).sum().alias("n"),
        gap.arg_max().alias("i"),
        total.gather(gap.arg_max()).first().alias("s"),
    ).collect()
    n_bad, worst, value = row.row(0)
    if n_bad:
        raise proba_sum_error(list(columns.values()), n_bad, worst, value, tol)


def proba_sum_error(names: list[str], n_bad: int, worst: Any, value: Any, tol: float) -> InputError:
    """The error for rows of probabilities that do not sum to 1, whatever engine counted them."""
    return InputError(
        f"{n_bad} row(s) of probabilities {names!r} do not sum to 1; the worst is row "
        f"{worst} with sum {value!r}",
        column=names[0],
        role="proba",
        rule="probability_sum",
        hint=f"each row must sum to 1 within {tol:g}; clfeval never renormalises silently",
    )


def check_score_classes(prep: Prepared, scores: Mapping[Any, str], y: str) -> None:
    """Every class of ``y`` needs a score column (eager input): rows of a class without one
    would be left out silently, so they are an error (scikit-learn's 'y_true contains labels
    not in parameter labels')."""
    if not prep.eager:
        return
    present = prep.frame.select(pl.col(y).unique()).collect().to_series()
    unknown = [c for c in present.sort().to_list() if c not in scores]
    if unknown:
        raise InputError(
            f"column {y!r} (y) holds {unknown[:10]!r}, which have no score column",
            column=y,
            role="y",
            rule="unknown_label",
            hint=f"the score columns cover {list(scores)!r}; add the missing classes",
        )


def check_pos_label(
    classes: Sequence[Any],
    pos_label: Any,
    *,
    average: Any,
    labels: Sequence[Any] | None,
    y: str,
    dtype: pl.DataType | None = None,
) -> None:
    """sklearn's binary rules, in its order: ``binary`` needs at most two classes, then
    pos_label must be of the kind of y (``dtype``, the labels' dtype) and one of its classes."""
    if average != "binary":
        return
    if len(classes) > 2:
        raise InputError(
            f"column {y!r} (y) has {len(classes)} classes {list(classes)[:10]!r} but "
            "average='binary'",
            column=y,
            role="y",
            rule="multiclass_binary",
            hint="choose average='macro', 'micro', 'weighted' or None",
        )
    if dtype is not None:
        check_class_value(dtype, pos_label, y, "pos_label", lambda: list(classes))
    if pos_label not in classes and len(classes) >= 2:
        raise InputError(
            f"pos_label={pos_label!r} is not a class of {y!r}; the classes are {list(classes)!r}",
            column=y,
            role="pos_label",
            rule="pos_label",
            hint="pass pos_label= with the class that counts as positive",
        )


def check_labels_present(classes: Sequence[Any], labels: Sequence[Any] | None, y: str) -> None:
    """sklearn raises when none of ``labels`` occurs in the data."""
    if labels is not None and not any(label in classes for label in labels):
        raise InputError(
            f"none of labels={list(labels)!r} occurs in the data; the classes are "
            f"{list(classes)[:10]!r}",
            column=y,
            role="labels",
            rule="labels_absent",
            hint="list classes that occur in y or yhat",
        )


# --- decisions: the target prevalence and the folds ------------------------------------------


def check_prevalence(prep: Prepared, y: str, target: Any, *, complete: bool = True) -> None:
    """A ``prevalence=`` that reads the data: a column holding π (numeric, and on eager input
    no null, every value in (0, 1), constant within each group), or a class distribution
    (its classes of the kind of ``y``; with ``complete``, on eager input, every class of
    ``y`` has a share)."""
    schema = prep.frame.collect_schema()
    if isinstance(target, str):
        check_columns(schema, {"prevalence": target})
        if not schema[target].is_numeric():
            raise InputError(
                f"column {target!r} (prevalence) has dtype {schema[target]}, not a number",
                column=target,
                role="prevalence",
                rule="dtype",
                hint="the column holds the target prevalence of each group, a number in (0, 1)",
            )
        if not prep.eager:
            return  # the expression rule: a group whose values do not qualify is null
        c = pl.col(target).cast(pl.Float64)
        stats = [
            c.null_count().alias("nulls"),
            (~c.is_finite() | (c <= 0) | (c >= 1)).sum().alias("outside"),
            c.min().alias("lo"),
            c.max().alias("hi"),
            c.drop_nulls().n_unique().alias("distinct"),
        ]
        per = prep.frame.group_by(prep.by).agg(stats) if prep.by else prep.frame.select(stats)
        per = per.collect()
        fault = None
        if per["nulls"].sum():
            fault = f"has {per['nulls'].sum()} null value(s)", "fill it: every row needs its π"
        elif per["outside"].sum():
            fault = (
                f"has {per['outside'].sum()} value(s) outside (0, 1) (min {per['lo'].min()!r}, "
                f"max {per['hi'].max()!r})",
                "a prevalence is a share strictly between 0 and 1",
            )
        elif per.filter(pl.col("distinct") > 1).height:
            row = per.filter(pl.col("distinct") > 1).row(0, named=True)
            where = ", ".join(f"{k}={row[k]!r}" for k in prep.by) or "the data"
            fault = (
                f"varies within a group ({where}: from {row['lo']!r} to {row['hi']!r})",
                "give one target prevalence per group (by=), the same on each of its rows",
            )
        if fault is not None:
            raise InputError(
                f"column {target!r} (prevalence) {fault[0]}",
                column=target,
                role="prevalence",
                rule="prevalence",
                hint=fault[1],
            )
    elif isinstance(target, Mapping):
        dtype = schema[y]
        for key in target:
            check_class_value(dtype, key, y, "prevalence")
        if not prep.eager or not complete:
            return
        present = prep.frame.select(pl.col(y).unique().sort()).collect().to_series().to_list()
        unknown = [c for c in present if c not in target]
        if unknown:
            raise InputError(
                f"column {y!r} (y) holds {unknown[:10]!r}, which prevalence= gives no share",
                column=y,
                role="prevalence",
                rule="prevalence",
                hint=f"give every class a share (0 leaves its rows out); it has {list(target)!r}",
            )


def check_folds(
    frame: pl.LazyFrame, fold: str, by: Sequence[str], *, eager: bool, missing: Missing
) -> None:
    """The fold column: present and, on eager input, at least two folds in each group and
    no null fold (unless ``missing="drop"``, which leaves those rows out)."""
    schema = frame.collect_schema()
    check_columns(schema, {"fold": fold})
    if not eager:
        return
    f = pl.col(fold)
    stats = [f.null_count().alias("nulls"), f.drop_nulls().n_unique().alias("folds")]
    by = list(by)
    elsewhere = ROWS_ELSEWHERE.get()
    if elsewhere is not None:  # the rows are in another engine: it counts them
        per = elsewhere.folds(fold, by)
    else:
        per = (frame.group_by(by).agg(stats) if by else frame.select(stats)).collect()
    if per["nulls"].sum() and missing != "drop":
        raise InputError(
            f"column {fold!r} (fold) has {per['nulls'].sum()} null value(s)",
            column=fold,
            role="fold",
            rule="null",
            hint="every row needs its fold; pass missing='drop' to leave those rows out",
        )
    few = per.filter(pl.col("folds") < 2)
    if few.height:
        row = few.row(0, named=True)
        where = ", ".join(f"{k}={row[k]!r}" for k in by)
        raise InputError(
            f"column {fold!r} (fold) has {row['folds']} fold(s)"
            + (f" in the group {where}" if where else "")
            + ", fewer than 2",
            column=fold,
            role="fold",
            rule="folds",
            hint="a mean and standard deviation over folds need at least two folds",
        )
