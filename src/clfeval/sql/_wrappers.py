"""``clfeval.sql`` functions named and called like the Polars frame functions.

Each wraps one table macro (or, for per-class scores, its multiclass twin) through
:func:`clfeval.sql._run.table_macro`: options in Python spelling, a Polars frame out.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import duckdb
import polars as pl

from clfeval import _options
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
_metrics = _wrapper(
    "clf_metrics", "metrics: accuracy, balanced accuracy, precision, recall, f1 and mcc."
)


def metrics(
    data: Data,
    y: str,
    yhat: str,
    *,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    ci: float | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
    **options: Any,
) -> pl.DataFrame:
    """metrics: accuracy, balanced accuracy, precision, recall, f1 and mcc.

    Runs ``clf_metrics`` (``options`` among labels, average, pos_label, zero_division); with
    ``ci=0.95``, ``clf_metrics_ci``: each metric then ``<metric>_lo``, ``<metric>_hi``
    (percentile intervals of ``n_boot`` Poisson bootstrap replicates, the draws of
    ``clfeval.metrics(..., ci=)`` for the same ``seed``) and the ``<metric>_n_undefined``
    counts last. The data is checked as on the Polars front door.
    """
    if ci is None:
        return _metrics(
            data, y, yhat, by=by, weight=weight, con=con, missing=missing, nonfinite=nonfinite,
            **options,
        )  # fmt: skip
    level = _options.level("ci", ci)
    return table_macro(
        "clf_metrics_ci", data, y, yhat, con=con, missing=missing, nonfinite=nonfinite,
        group_cols=by, weight_col=weight, level=level, n_boot=n_boot, seed=seed, **options,
    )  # fmt: skip


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
