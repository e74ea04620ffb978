"""The classification report: ``report`` and the ``Report`` it returns (scikit-learn's text)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

import polars as pl

from clfeval import _bootstrap, _label, _options, _shift
from clfeval._baseline import baseline
from clfeval._counts import (
    COUNTS_COLUMNS,
    counts_from_pairs,
    label_text,
    ovr_from_counts,
    pairs_of,
)
from clfeval._frames import as_polars, frame_input
from clfeval._metric_table import SCORE_DEFAULT, group_eval, metrics
from clfeval._report_view import REPORT_COLUMNS, Report
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    Prepared,
    check_options,
    check_prevalence,
    check_proba_sums,
    check_score_classes,
    expand_list_scores,
    prepare,
)
from clfeval.exceptions import InputError

__all__ = ["Report", "report"]  # Report lives in _report_view; re-exported as the return type


@frame_input("report")
def report(
    data: Frame,
    y: str,
    yhat: str,
    *,
    score: Any = None,
    labels: Sequence[Any] | None = None,
    target_names: Sequence[str] | None = None,
    digits: int = 2,
    zero_division: _label.ZeroDivision = 0.0,
    pos_label: Any = 1,
    ci: float | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
    prevalence: Any = None,
    fold: str | None = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Report:
    """A :class:`Report` whose text is scikit-learn's ``classification_report`` (always eager).

    Per class: precision, recall, F1 and support; then ``accuracy`` (``micro avg`` when
    ``labels`` leaves out a class present in the data), ``macro avg`` and ``weighted avg``.
    With ``score``, the report adds AUROC, average precision, log loss and Brier for the
    ``pos_label`` class and the baselines of constant predictors. ``ci=0.95`` adds a
    percentile interval of ``n_boot`` Poisson bootstrap replicates of the counts after each
    score (``precision_lo``, ``precision_hi``... in ``table``; ``0.84 [0.81, 0.87]`` in the
    text), reproducible for a ``seed``.

    ``prevalence`` (as :func:`clfeval.metrics`): every number on the rows re-weighted to
    that target (scikit-learn's report with those ``sample_weight``), supports then being
    weights, with the measured and target prevalence printed after it. ``fold`` (a fold
    column) adds the cross-validated block of :func:`clfeval.cv_summary`: each metric pooled
    over all rows, and its mean and sd over folds.

    See Also
    --------
    clf_report : the SQL twin.
    sklearn.metrics.classification_report : the same text.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> print(report(df, "y", "yhat"))  # doctest: +NORMALIZE_WHITESPACE
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       0.50      1.00      0.67         1
               1       1.00      0.67      0.80         3
    <BLANKLINE>
        accuracy                           0.75         4
       macro avg       0.75      0.83      0.73         4
    weighted avg       0.88      0.75      0.77         4
    <BLANKLINE>
    """
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(labels=labels, zero_division=zero_division)
    digits = _options.digits(digits)
    level, n_boot, seed = _bootstrap.check(ci, n_boot, seed)
    target = _options.prevalence(prevalence)
    if target is not None and level is not None:
        raise InputError(
            "prevalence= and bootstrap intervals (ci=) do not combine yet",
            role="prevalence",
            rule="option",
            hint="compute the report at the target prevalence without ci=, or the intervals "
            "at the measured prevalence without prevalence=",
        )
    if target_names is not None and (
        isinstance(target_names, str)
        or not isinstance(target_names, Sequence)
        or not all(isinstance(n, str) for n in target_names)
    ):
        raise InputError(
            f"target_names={target_names!r} is not a list of strings",
            role="target_names",
            rule="target_names",
            hint="give one name per class, in the class order",
        )
    data, scores = expand_list_scores(data, score, labels)
    binary_score = isinstance(scores, str)
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        score=scores,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        nonfinite=nonfinite,
        probability=scores is not None,
        classes=False,
        pos_label=pos_label if binary_score else NOT_GIVEN,
        pos_in_y=binary_score,
        scan_lazy=True,
        outputs=[
            *REPORT_COLUMNS,
            *COUNTS_COLUMNS,
            *SCORE_DEFAULT,
            "strategy",
            "n_excluded",
            *_shift.outputs(target),
        ],
    )
    if isinstance(scores, dict):
        check_score_classes(prep, scores, y)
        check_proba_sums(prep, scores)
    counted, pairs, yhat_col = pairs_of(prep, y, yhat, weight, labels)
    prep = replace(prep, classes=counted.classes)
    context = None
    if target is not None:  # the label table on the counts re-weighted to the target
        check_prevalence(prep, y, target)
        pairs, context = _shift.shift_pairs(pairs, prep, y, target, pos_label)
    assert prep.classes is not None
    if target_names is not None:
        n = len(labels) if labels is not None else len(prep.classes)
        if len(target_names) != n:
            raise InputError(
                f"target_names has {len(target_names)} names for {n} classes",
                role="target_names",
                rule="target_names",
                hint="give one name per class, in the class order (or pass labels=)",
            )
    table = _report_table(pairs, prep, y, yhat_col, labels, target_names, zero_division)
    if context is not None:  # supports are n·share: 12 digits drop the noise of the sums
        table = _shift.finish(table.lazy(), context, prep.by, keep=["label"], show=False)
        table = table.collect().with_columns(pl.col("support").round_sig_figs(12))
    if level is not None:
        table = _bootstrap.report_intervals(
            table,
            counted,
            pairs,
            y,
            yhat_col,
            labels,
            target_names,
            zero_division,
            level,
            n_boot,
            seed,
            _report_table,
        )
    extras = baselines = folds = None
    if scores is not None:
        # checked already; eager input is collected so that ranking metrics can sort
        rows = prep.frame.collect() if isinstance(data, pl.DataFrame) else prep.frame
        extras = metrics(
            rows,
            y,
            yhat,
            score=scores,
            metrics=list(SCORE_DEFAULT),
            pos_label=pos_label,
            labels=labels,
            prevalence=target,
            by=by,
            weight=weight,
            ci=ci,
            n_boot=n_boot,
            seed=seed,
        )
        if target is not None and not isinstance(target, dict):
            extras = extras.drop(_shift.MEASURED, _shift.TARGET)
        extras = extras.collect() if isinstance(extras, pl.LazyFrame) else extras
        baselines = baseline(
            rows,
            y,
            pos_label=pos_label,
            by=by,
            weight=weight,
            prevalence=target,
            metrics=["accuracy", "balanced_accuracy", "f1", "log_loss", "brier"]
            if not isinstance(scores, dict)
            else ["accuracy", "balanced_accuracy"],
        )
        baselines = baselines.collect() if isinstance(baselines, pl.LazyFrame) else baselines
    n_excluded: int | pl.DataFrame | None = None
    if prep.n_excluded is not None:
        n_excluded = prep.n_excluded.item() if not prep.by else prep.n_excluded
    if fold is not None:
        folds = _cv_block(
            data,
            y,
            yhat,
            scores,
            fold,
            prep.classes,
            pos_label=pos_label,
            labels=labels,
            zero_division=zero_division,
            prevalence=target,
            by=by,
            weight=weight,
            missing=missing,
            nonfinite=nonfinite,
        )
    hits = group_eval(pairs, prep.by, [(pl.col(y) == pl.col(yhat_col)).any().alias("__hit")])
    no_hit = {tuple(r[:-1]): not r[-1] for r in hits.collect().rows()}
    return Report(
        table,
        prep.by,
        digits,
        weight is not None or target is not None,
        extras,
        baselines,
        n_excluded,
        float_support=no_hit,
        ci=level,
        n_boot=n_boot if level is not None else None,
        seed=seed if level is not None else None,
        context=_prevalences(context, prep.by),
        folds=folds,
    )


def _prevalences(context: pl.LazyFrame | None, by: list[str]) -> pl.DataFrame | None:
    """The measured and target prevalence per group (binary targets), for the text."""
    if context is None or _shift.MEASURED not in context.collect_schema():
        return None
    shown = context.select(*by, _shift.MEASURED, _shift.TARGET)
    return shown.sort(by, nulls_last=True).collect() if by else shown.collect()


def _cv_block(
    data: Frame,
    y: str,
    yhat: str,
    scores: Any,
    fold: str,
    classes: Sequence[Any],
    **options: Any,
) -> pl.DataFrame:
    """The report's cross-validation block: :func:`clfeval.cv_summary` of the label metrics
    (binary when the classes allow, else macro averages) and, for a binary score, AUROC."""
    from clfeval._decide import cv_summary

    ranked = isinstance(scores, str)
    binary = len(classes) <= 2 and options["pos_label"] in classes and not options["labels"]
    names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"]
    out = cv_summary(
        data,
        y,
        yhat,
        score=scores if binary and ranked else None,
        fold=fold,
        metrics=[*names, *(["auroc"] if binary and ranked else [])],
        average="binary" if binary else "macro",
        **options,
    )
    assert isinstance(out, pl.DataFrame)
    return out


def _report_table(
    pairs: pl.LazyFrame,
    prep: Prepared,
    y: str,
    yhat: str,
    labels: Sequence[Any] | None,
    target_names: Sequence[str] | None,
    zero_division: _label.ZeroDivision,
) -> pl.DataFrame:
    """Per-class rows, then the micro (``accuracy``), macro and weighted rows, per group.

    Per-class ratios are Polars columns; the three average rows are computed from them with
    NumPy's float summation order (:func:`_np_sum`), so the printed digits are scikit-learn's
    even where a sum lands on a rounding boundary. That work is proportional to the report's
    rows, not to the data.
    """
    by, z = prep.by, zero_division
    c = ovr_from_counts()
    names = label_text(pl.col("label"), pairs.collect_schema()[y])
    if target_names is not None:
        position = pl.int_range(pl.len())
        names = pl.lit(pl.Series(list(target_names))).gather(position.over(by) if by else position)
    counts = counts_from_pairs(pairs, by, y, yhat, labels)
    per_class = counts.select(
        *by,
        names.alias("label"),
        _label.RATIOS["precision"](c, z).alias("precision"),
        _label.RATIOS["recall"](c, z).alias("recall"),
        _label.fbeta_ratio(1.0)(c, z).alias("f1"),
        "support",
        "tp",
        (pl.col("tp") + pl.col("fp")).alias("__pred"),
    ).collect()
    # scikit-learn calls the micro row "accuracy" unless labels= leaves out a class present
    if labels is None:
        per_class = per_class.with_columns(pl.lit(True).alias("__complete"))
    else:
        listed = pl.col(y).is_in(list(labels)) & pl.col(yhat).is_in(list(labels))
        done = group_eval(pairs, by, [listed.all().alias("__complete")]).collect()
        per_class = (
            per_class.join(done, on=by, how="left", nulls_equal=True, maintain_order="left")
            if by
            else per_class.with_columns(pl.lit(done.item()).alias("__complete"))
        )
    group = pl.struct(by).rle_id() if by else pl.lit(0, pl.UInt32)
    rows = per_class.with_row_index("__row").with_columns(group.alias("__gid"))
    averages = _averages(rows, zero_division)
    columns = ["label", "precision", "recall", "f1", "support"]
    dtypes = {"support": per_class["support"].dtype, "label": pl.String}
    keys = rows.group_by("__gid", maintain_order=True).agg(
        pl.col(by).first(), pl.col("__row").max()
    )
    parts = [rows.select(*by, "__row", *columns)]
    for k, row in enumerate(("__micro", "__macro", "__weighted")):
        parts.append(
            keys.join(averages, on="__gid", maintain_order="left").select(
                *by,
                (pl.col("__row") + (k + 1) / 4).alias("__row"),
                *[pl.col(f"{row}_{c}").cast(dtypes.get(c, pl.Float64)).alias(c) for c in columns],
            )
        )
    both = pl.concat(parts, how="vertical_relaxed")
    return both.sort("__row").drop("__row")


def _np_sums(values: pl.DataFrame) -> pl.DataFrame:
    """``(__gid, sum)``: Σ ``v`` per group, added in NumPy's pairwise order.

    Polars' ``sum()`` adds in another order, which can flip the last digit of a printed
    average (0.1875 at two digits). Groups of equal size are stacked into one 2-D array and
    summed along rows, one NumPy call per distinct size (at most the number of classes).
    Rows of a group must be contiguous; a group without values gets no row.
    """
    sized = values.with_columns(pl.len().over("__gid").alias("__n"))
    out = [
        pl.DataFrame(
            {"__gid": pl.Series([], dtype=pl.UInt32), "sum": pl.Series([], dtype=pl.Float64)}
        )
    ]
    for (n,), block in sized.partition_by("__n", as_dict=True, maintain_order=True).items():
        table = block["v"].to_numpy().reshape(-1, n)
        out.append(
            pl.DataFrame({"__gid": block["__gid"].gather_every(n), "sum": table.sum(axis=1)})
        )
    return pl.concat(out)


def _averages(rows: pl.DataFrame, z: _label.ZeroDivision) -> pl.DataFrame:
    """scikit-learn's micro, macro and weighted rows from the per-class rows, per ``__gid``.

    Columns ``__micro_*``, ``__macro_*``, ``__weighted_*`` (label, precision, recall, f1,
    support). Means leave out null per-class values; a weighted mean with zero total weight is
    the plain mean. Every sum is NumPy's (:func:`_np_sums`), as scikit-learn's.
    """
    f64 = pl.Float64
    support = pl.col("support").cast(f64)
    everyone = pl.lit(True)
    terms = {c: (everyone, pl.col(c).cast(f64)) for c in ("tp", "__pred", "support")}
    for m in ("precision", "recall", "f1"):
        present = pl.col(m).is_not_null()
        terms |= {m: (present, pl.col(m)), f"{m}_w": (present, support)}
        terms[f"{m}_vw"] = (present, pl.col(m) * support)
    out = rows.group_by("__gid", maintain_order=True).agg(
        pl.col("__complete").first().alias("__accuracy"),
        pl.col("support").sum().alias("__total"),
        *[pl.col(m).is_not_null().sum().alias(f"{m}_n") for m in ("precision", "recall", "f1")],
    )
    for name, (keep, value) in terms.items():
        sums = _np_sums(rows.filter(keep).select("__gid", value.alias("v")))
        out = out.join(sums.rename({"sum": name}), on="__gid", how="left", maintain_order="left")

    def ratio(num: pl.Expr, den: pl.Expr) -> pl.Expr:
        return (
            pl.when(den == 0)
            .then(pl.lit(None if z is None else float(z), f64))
            .otherwise(num / den)
        )

    t, p, n, accuracy = pl.col("tp"), pl.col("__pred"), pl.col("support"), pl.col("__accuracy")
    columns = [
        pl.when(accuracy)
        .then(pl.lit("accuracy"))
        .otherwise(pl.lit("micro avg"))
        .alias("__micro_label"),
        pl.when(accuracy).then(None).otherwise(ratio(t, p)).alias("__micro_precision"),
        pl.when(accuracy).then(None).otherwise(ratio(t, n)).alias("__micro_recall"),
        ratio(2 * t, n + p).alias("__micro_f1"),
        pl.lit("macro avg").alias("__macro_label"),
        pl.lit("weighted avg").alias("__weighted_label"),
        *[
            pl.col("__total").alias(f"{row}_support")
            for row in ("__micro", "__macro", "__weighted")
        ],
    ]
    for m in ("precision", "recall", "f1"):
        count, weights = pl.col(f"{m}_n"), pl.col(f"{m}_w")
        mean = pl.when(count > 0).then(pl.col(m) / count)
        weighted = (
            pl.when((count == 0) | (weights == 0)).then(mean).otherwise(pl.col(f"{m}_vw") / weights)
        )
        columns += [mean.alias(f"__macro_{m}"), weighted.alias(f"__weighted_{m}")]
    return out.select("__gid", *columns)
