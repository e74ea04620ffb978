"""``clfeval.sql`` functions named and called like the Polars frame functions.

Each wraps one table macro (or, for per-class scores, its multiclass twin) through
:func:`clfeval.sql._run.table_macro`: options in Python spelling, a Polars frame out.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import duckdb
import polars as pl

from clfeval import _metrics, _options
from clfeval.exceptions import InputError
from clfeval.sql._macros import TABLE_MACROS
from clfeval.sql._run import table_macro
from clfeval.sql._source import By, Data

# --- wrappers named and called like the Polars frame functions ---------------------------


def _wrapper(macro: str, summary: str) -> Callable[..., pl.DataFrame]:
    def run(
        data: Data,
        *columns: str,
        by: By = None,
        weight: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
        missing: str = "raise",
        nonfinite: str = "raise",
        **options: Any,
    ) -> pl.DataFrame:
        return table_macro(
            macro,
            data,
            *columns,
            con=con,
            missing=missing,
            nonfinite=nonfinite,
            group_cols=by,
            weight_col=weight,
            **options,
        )

    spec = TABLE_MACROS[macro]
    run.__name__ = run.__qualname__ = summary.split(":", 1)[0]
    run.__doc__ = (
        f"{summary}\n\n"
        f"Runs ``{macro}``: ``{run.__name__}(data, {', '.join(spec.roles)}, *, by=None, "
        f"weight=None, con=None, missing='raise', nonfinite='raise', **options)`` with "
        f"``options`` among {[o for o in spec.options if o not in ('group_cols', 'weight_col')]} "
        f"(the macro's defaults apply). The data is checked as on the Polars front door. "
        f"Returns the group columns, then {list(spec.outputs)}."
    )
    return run


confusion_matrix = _wrapper(
    "clf_confusion", "confusion_matrix: every pair of classes per group, zeros included."
)
counts = _wrapper("clf_counts", "counts: one-vs-rest tp, fp, fn, tn and support per class.")
report = _wrapper("clf_report", "report: the table of clfeval.report (per class, then summaries).")
_roc_binary = _wrapper("clf_roc_curve", "roc_curve: scikit-learn's ROC points in its order.")
_pr_binary = _wrapper("clf_pr_curve", "pr_curve: scikit-learn's precision-recall points.")
det_curve = _wrapper("clf_det_curve", "det_curve: scikit-learn's DET points in its order.")
thresholds = _wrapper("clf_thresholds", "thresholds: counts and metrics at every distinct score.")
_auroc_binary = _wrapper(
    "clf_auroc", "auroc: the area under the ROC curve per group (null: one class)."
)
average_precision = _wrapper(
    "clf_average_precision", "average_precision: scikit-learn's step sum per group."
)
calibration = _wrapper("clf_calibration", "calibration: scikit-learn's calibration_curve points.")
gain_curve = _wrapper("clf_gain", "gain_curve: share of positives found against share targeted.")
lift_curve = _wrapper("clf_lift", "lift_curve: gain over the share targeted, per distinct score.")
_ece_binary = _wrapper("clf_ece", "ece: expected calibration error of a binary probability.")
decision_curve = _wrapper(
    "clf_decision_curve", "decision_curve: net benefit per threshold probability (Vickers & Elkin)."
)


def cv_summary(
    data: Data,
    y: str,
    yhat: str,
    *,
    fold: str = "fold",
    metrics: Sequence[str] | None = None,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    **options: Any,
) -> pl.DataFrame:
    """cv_summary: the label metrics of clf_metrics pooled over folds, and their mean and sd.

    Runs ``clf_cv_summary`` as ``clfeval.cv_summary``: ``metrics=`` picks and orders the
    rows (default: accuracy, balanced_accuracy, precision, recall, f1, mcc), ``options``
    among average, pos_label, labels, zero_division, beta, kappa_weights, adjusted, ddof.
    Returns the group columns, then ``metric, pooled, mean, sd, n_folds``. With
    ``missing="drop"`` rows without a fold are left out of a Polars frame.
    """
    from clfeval import _metrics

    label_names = _metrics.names(family="label", in_metrics=True)
    names = (
        list(_metrics.default_set("label"))
        if metrics is None
        else _options.metric_names(metrics, label_names)
    )
    fold = _options.column_name("fold", fold)
    frame = isinstance(data, pl.DataFrame | pl.LazyFrame)
    if missing == "drop" and frame and fold in data.lazy().collect_schema():  # type: ignore[union-attr]
        data = data.filter(pl.col(fold).is_not_null())  # type: ignore[union-attr]
    out = table_macro(
        "clf_cv_summary",
        data,
        y,
        yhat,
        fold=fold,
        group_cols=by,
        weight_col=weight,
        con=con,
        missing=missing,
        nonfinite=nonfinite,
        **options,
    )
    order = pl.col("metric").replace_strict(names, list(range(len(names))), default=None)
    keys = [c for c in out.columns if c not in ("metric", "pooled", "mean", "sd", "n_folds")]
    picked = out.filter(pl.col("metric").is_in(names)).with_columns(order.alias("__clf_o"))
    return picked.sort([*keys, "__clf_o"], nulls_last=True, maintain_order=True).drop("__clf_o")


_LABEL_METRICS = _metrics.metrics_order("label")
_SCORE_METRICS = _metrics.default_set("score", "proba")


def metrics(
    data: Data,
    y: str,
    yhat: str,
    *,
    metrics: Sequence[str] | None = None,
    average: str = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = 0.0,
    beta: float = 1.0,
    kappa_weights: str | None = None,
    adjusted: bool = False,
    prevalence: float | None = None,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    ci: float | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
) -> pl.DataFrame:
    """metrics: one row per group, one column per label metric, as ``clfeval.metrics``.

    Runs ``clf_metrics``, which computes every label metric of the registry; ``metrics=``
    picks and orders the columns as ``clfeval.metrics`` does (default: accuracy,
    balanced_accuracy, precision, recall, f1, mcc). Options as there: ``average`` ('binary',
    'micro', 'macro', 'weighted'), ``pos_label``, ``labels``, ``zero_division``, ``beta``
    (fbeta), ``kappa_weights`` (cohen_kappa: None, 'linear', 'quadratic') and ``adjusted``
    (balanced accuracy with chance at 0); ``prevalence`` (a number in (0, 1), with average
    'binary': the metrics at that share of pos_label, after ``prevalence`` and
    ``target_prevalence``). The data is checked as on the Polars front door.
    Returns the group columns (then ``n_excluded`` with a drop option), then the metrics.

    With ``ci=0.95``, ``clf_metrics_ci``: each metric then ``<metric>_lo``, ``<metric>_hi``
    (percentile intervals of ``n_boot`` Poisson bootstrap replicates, the draws of
    ``clfeval.metrics(..., ci=)`` for the same ``seed``) and the ``<metric>_n_undefined``
    counts last; it covers the default six metrics.
    """
    labels = _options.labels(labels)
    _options.average(average, ("binary", "micro", "macro", "weighted"))
    zero_division = _options.zero_division(zero_division)
    beta = _options.beta(beta)
    _options.kappa_weights(kappa_weights)
    _options.flag("adjusted", adjusted)
    if metrics is None:
        names = list(_metrics.default_set("label"))
    else:
        # the choices clfeval.metrics lists, so a bad name gets its message word for word
        names = _options.metric_names(metrics, (*_LABEL_METRICS, *_SCORE_METRICS))
        for name in names:
            if name in _SCORE_METRICS:
                raise InputError(
                    f"metric {name!r} needs score=",
                    role="score",
                    rule="missing_argument",
                    hint="clfeval.sql.metrics computes the label metrics (clf_metrics); for "
                    "scores use clfeval.sql.auroc, average_precision or the clf_log_loss and "
                    "clf_brier aggregates",
                )
    shift = {} if prevalence is None else {"prevalence": prevalence}
    if not shift and average == "binary" and not any(_metrics.METRICS[n].averaged for n in names):
        # as clfeval.metrics: average and pos_label only matter to the averaged ratios, so
        # kappa or mcc alone are not refused on more than two classes
        average = "macro"
    if ci is not None:
        return _metrics_ci(data, y, yhat, names, ci, n_boot, seed, by, weight, con, missing,
                           nonfinite, average=average, pos_label=pos_label, labels=labels,
                           zero_division=zero_division, beta=beta, kappa_weights=kappa_weights,
                           adjusted=adjusted)  # fmt: skip
    out = table_macro(
        "clf_metrics", data, y, yhat, con=con, missing=missing, nonfinite=nonfinite,
        group_cols=by, weight_col=weight, average=average, pos_label=pos_label,
        zero_division=zero_division, beta=beta, kappa_weights=kappa_weights, adjusted=adjusted,
        **({"labels": labels} if labels is not None else {}), **shift,
    )  # fmt: skip
    return out.select(pl.exclude(_LABEL_METRICS), *names)


def _metrics_ci(
    data: Data, y: str, yhat: str, names: list[str], ci: float, n_boot: int, seed: int,
    by: By, weight: str | None, con: Any, missing: str, nonfinite: str, **options: Any,
) -> pl.DataFrame:  # fmt: skip
    """``clf_metrics_ci``: the default six metrics with their intervals, as ``ce.metrics``."""
    level = _options.level("ci", ci)
    covered = _metrics.default_set("label")
    outside = [n for n in names if n not in covered]
    changed = [k for k in ("beta", "kappa_weights", "adjusted")
               if options[k] != _options.DEFAULTS.get(k, 1.0 if k == "beta" else None)]  # fmt: skip
    if outside or changed:
        raise InputError(
            f"ci= covers {list(covered)!r} in clfeval.sql.metrics, not {(outside or changed)!r}",
            role="ci",
            rule="option",
            hint="clfeval.metrics(..., ci=) draws intervals for every label metric",
        )
    labels = options.pop("labels")
    for k in ("beta", "kappa_weights", "adjusted"):
        options.pop(k)
    out = table_macro(
        "clf_metrics_ci", data, y, yhat, con=con, missing=missing, nonfinite=nonfinite,
        group_cols=by, weight_col=weight, level=level, n_boot=n_boot, seed=seed, **options,
        **({"labels": labels} if labels is not None else {}),
    )  # fmt: skip
    keep = [c for n in names for c in (n, f"{n}_lo", f"{n}_hi")]
    dropped = [c for n in covered for c in (n, f"{n}_lo", f"{n}_hi", f"{n}_n_undefined")]
    return out.select(pl.exclude(dropped), *keep, *[f"{n}_n_undefined" for n in names])


def _is_per_class(score: Any, labels: Any) -> bool:
    """Per-class scores (a mapping or a list of columns), as clfeval's score= reads them; a
    single column with labels= is a List/Array column (Polars functions only). Anything else
    goes the binary way, whose check names it (a score must be a column name)."""
    if isinstance(score, Mapping | list | tuple):
        return True
    return isinstance(score, str) and labels is not None


def _run_per_class(
    macro: str, data: Data, y: str, score: Any, labels: Any, run: dict[str, Any], **options: Any
) -> pl.DataFrame:
    return table_macro(
        macro,
        data,
        y,
        score,
        labels=labels,
        group_cols=run["by"],
        weight_col=run["weight"],
        con=run["con"],
        missing=run["missing"],
        nonfinite=run["nonfinite"],
        **options,
    )


def auroc(
    data: Data,
    y: str,
    score: Any,
    *,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    labels: Sequence[Any] | None = None,
    multi_class: str = "ovr",
    average: str = "macro",
    **options: Any,
) -> pl.DataFrame:
    """auroc: the area under the ROC curve per group (null: one class).

    Called like ``clfeval.auroc``: a binary ``score`` column runs ``clf_auroc`` (``options``
    among ``pos_label``, ``max_fpr``); per-class scores, ``{label: column}`` or a list of
    columns with ``labels=``, run ``clf_auroc_multiclass`` with ``multi_class`` ('ovr',
    'ovo') and ``average`` ('macro', 'weighted', 'micro' for ovr). The data is checked as on
    the Polars front door. Returns the group columns, then ``auroc``.
    """
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    if "max_fpr" in options:
        options["max_fpr"] = _options.max_fpr(options["max_fpr"])
    _options.choice(
        "multi_class", multi_class, ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )  # fmt: skip
    if not _is_per_class(score, labels):
        return _auroc_binary(
            data, y, score, by=by, weight=weight, con=con, missing=missing, nonfinite=nonfinite,
            **options,
        )  # fmt: skip
    if options.get("max_fpr") not in (None, 1):
        raise InputError(
            "max_fpr (partial AUROC) is binary only",
            role="max_fpr",
            rule="option",
            hint="leave max_fpr=None for multiclass scores",
        )
    options.pop("max_fpr", None)
    return _run_per_class(
        "clf_auroc_multiclass", data, y, score, labels, run,
        multi_class=multi_class, average=average, **options,
    )  # fmt: skip


def _curve(binary: Callable[..., pl.DataFrame], macro: str) -> Callable[..., pl.DataFrame]:
    def run_curve(
        data: Data,
        y: str,
        score: Any,
        *,
        by: By = None,
        weight: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
        missing: str = "raise",
        nonfinite: str = "raise",
        labels: Sequence[Any] | None = None,
        **options: Any,
    ) -> pl.DataFrame:
        if not _is_per_class(score, labels):
            return binary(
                data, y, score, by=by, weight=weight, con=con, missing=missing,
                nonfinite=nonfinite, **options,
            )  # fmt: skip
        options.pop("pos_label", None)  # one-vs-rest: each class is positive in turn
        run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
        return _run_per_class(macro, data, y, score, labels, run, **options)

    run_curve.__name__ = run_curve.__qualname__ = binary.__name__
    run_curve.__doc__ = (
        f"{binary.__doc__}\n\nPer-class scores ({{label: column}}, or a list of columns with "
        f"labels=) run ``{macro}``: one-vs-rest curves with a ``label`` column after the "
        "group columns, as the Polars function."
    )
    return run_curve


roc_curve = _curve(_roc_binary, "clf_roc_curve_multiclass")
pr_curve = _curve(_pr_binary, "clf_pr_curve_multiclass")


def top_k_accuracy(
    data: Data,
    y: str,
    scores: Any,
    *,
    k: int = 2,
    labels: Sequence[Any] | None = None,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """top_k_accuracy: the share of rows whose class is among the k highest scores.

    Runs ``clf_top_k_accuracy`` on per-class scores (``{label: column}``, or a list of
    columns with ``labels=``), as ``clfeval.top_k_accuracy`` (later-listed classes win ties).
    A single binary score column is not offered in SQL. Returns the group columns, then
    ``top_k_accuracy``.
    """
    k = _options.k(k)
    if not _is_per_class(scores, labels):
        raise InputError(
            "clf_top_k_accuracy takes per-class score columns",
            role="score",
            rule="score_labels",
            hint="pass {label: column, ...}; for one binary score column use "
            "clfeval.top_k_accuracy (Polars)",
        )
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    return _run_per_class("clf_top_k_accuracy", data, y, scores, labels, run, k=k)


def ece(
    data: Data,
    y: str,
    proba: Any,
    *,
    n_bins: int = 10,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    kind: str = "expected",
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """ece: expected (kind='max': maximum) calibration error per group.

    As ``clfeval.ece``: one probability column of ``pos_label`` runs ``clf_ece``; per-class
    probabilities (``{label: column}``, or a list of columns with ``labels=``) run
    ``clf_ece_multiclass``, the top-label error. Returns the group columns, then ``ece``
    (``mce`` with ``kind='max'``).
    """
    n_bins = _options.n_bins(n_bins)
    _options.choice(
        "kind", kind, ("expected", "max"),
        "'expected' weighs each bin by its size, 'max' takes the worst bin",
    )  # fmt: skip
    if not _is_per_class(proba, labels):
        return _ece_binary(
            data, y, proba, by=by, weight=weight, con=con, missing=missing, nonfinite=nonfinite,
            pos_label=pos_label, n_bins=n_bins, kind=kind,
        )  # fmt: skip
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    return _run_per_class(
        "clf_ece_multiclass", data, y, proba, labels, run, n_bins=n_bins, kind=kind
    )
