"""clfeval: classifier evaluation as lazy Polars expressions and DuckDB SQL macros.

Every metric is a Polars expression (``ce.f1("y", "yhat")``) and a DuckDB macro
(``clf_f1(y, yhat)``) with scikit-learn's numbers; frame functions return tidy frames, and
``import clfeval`` registers the ``.clf`` namespace on DataFrame and LazyFrame.
"""

from clfeval._counts import confusion_matrix, counts
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
from clfeval._namespace import register as _register
from clfeval._report import Report, baseline, metrics, report
from clfeval.exceptions import InputError

_register()

__all__ = [
    "InputError",
    "Report",
    "accuracy",
    "balanced_accuracy",
    "baseline",
    "cohen_kappa",
    "confusion_matrix",
    "counts",
    "f1",
    "fbeta",
    "fnr",
    "fpr",
    "jaccard",
    "mcc",
    "metrics",
    "npv",
    "precision",
    "prevalence",
    "recall",
    "report",
    "specificity",
]
__version__ = "0.1.0"
