"""clfeval: classifier evaluation as lazy Polars expressions and DuckDB SQL macros.

Every metric is a Polars expression (``ce.f1("y", "yhat")``) and a DuckDB macro
(``clf_f1(y, yhat)``) with scikit-learn's numbers; frame functions return tidy frames, and
``import clfeval`` registers the ``.clf`` namespace on DataFrame and LazyFrame.
"""

from clfeval import datasets, sql
from clfeval._baseline import baseline
from clfeval._compare import compare
from clfeval._counts import confusion_matrix, counts
from clfeval._curves import det_curve, pr_curve, roc_curve, threshold_counts
from clfeval._decide import cv_summary, decision_curve, expected_cost, prevalence_curve
from clfeval._delong import auroc_ci, compare_auroc
from clfeval._gain import gain_curve, lift_curve
from clfeval._label import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    f1,
    fbeta,
    fnr,
    fpr,
    jaccard,
    mcc,
    npv,
    precision,
    prevalence,
    recall,
    specificity,
)
from clfeval._metric_table import metrics
from clfeval._namespace import register as _register
from clfeval._prob import brier, calibration, ece, log_loss
from clfeval._replicates import bootstrap
from clfeval._report import Report, report
from clfeval._score import auroc, average_precision, ks, top_k_accuracy
from clfeval._thresholds import best_threshold, thresholds
from clfeval.exceptions import InputError
from clfeval.pages.report import ReportPage, report_html

_register()

__all__ = [
    "InputError",
    "Report",
    "ReportPage",
    "accuracy",
    "auroc",
    "auroc_ci",
    "average_precision",
    "balanced_accuracy",
    "baseline",
    "best_threshold",
    "bootstrap",
    "brier",
    "calibration",
    "cohen_kappa",
    "compare",
    "compare_auroc",
    "confusion_matrix",
    "counts",
    "cv_summary",
    "datasets",
    "decision_curve",
    "det_curve",
    "ece",
    "expected_cost",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "gain_curve",
    "jaccard",
    "ks",
    "lift_curve",
    "log_loss",
    "mcc",
    "metrics",
    "npv",
    "pr_curve",
    "precision",
    "prevalence",
    "prevalence_curve",
    "recall",
    "report",
    "report_html",
    "roc_curve",
    "specificity",
    "sql",
    "threshold_counts",
    "thresholds",
    "top_k_accuracy",
]
__version__ = "0.1.0"
