"""DuckDB side of clfeval: the ``clf_*`` SQL macros and helpers that return Polars frames.

The macros live in ``sql/NN_<family>.sql`` (shipped in the wheel as ``clfeval/sql_files``) and
are the source of truth: ``cat sql/*.sql | duckdb my.db`` installs them without Python.

Installing
    ``load(con)`` installs every macro into a DuckDB connection (``CREATE OR REPLACE``, so
    loading twice is harmless); ``text()`` is the whole script, ``files()`` the files in load
    order, ``connect()`` a new connection with the macros loaded.

Running a macro from Python (every user string is a bound parameter, never SQL text)
    ``table_macro(name, data, *columns, con=None, **params)`` runs a table macro, e.g.
    ``table_macro("clf_roc_curve", df, "y", "score", group_cols=["model"])``; ``params`` are the
    macro's named SQL parameters (``group_cols``, ``weight_col``, ``pos_label``, ``labels``...).

    ``aggregate(name, data, *columns, by=None, weight=None, con=None, **params)`` runs an
    aggregate macro under ``GROUP BY by``, e.g. ``aggregate("clf_precision", df, "y", "yhat")``;
    the result has the ``by`` columns and one column named after the metric (``precision``).

    Wrappers named and called like the Polars frame functions, ``f(data, y, yhat_or_score, *,
    by=None, weight=None, con=None, **options)`` with the options in Python spelling
    (``pos_label=``, ``labels=``, ``average=``, ``drop_intermediate=``, ``n_bins=``...):
    :func:`confusion_matrix`, :func:`counts`, :func:`report`, :func:`metrics`,
    :func:`roc_curve`, :func:`pr_curve`, :func:`det_curve`, :func:`thresholds`, :func:`auroc`,
    :func:`average_precision`, :func:`calibration`, :func:`gain_curve`, :func:`lift_curve`,
    :func:`ece`, :func:`top_k_accuracy`, :func:`decision_curve`, :func:`cv_summary`. Per-class scores (``{label: column}``, or a list of
    columns with ``labels=``) run the multiclass macros: ``auroc`` (``multi_class=``,
    ``average=``), ``roc_curve`` and ``pr_curve`` (one-vs-rest, a ``label`` column), ``ece``
    (top-label) and ``top_k_accuracy``. Uncertainty, as the Polars functions with the same
    draws: :func:`bootstrap` (replicates), ``metrics(..., ci=0.95)`` (percentile intervals),
    :func:`auroc_ci` and :func:`compare_auroc` (DeLong), :func:`compare` (McNemar and
    bootstrap differences of two predicted labels). Each returns a
    ``pl.DataFrame`` whose columns and dtypes match the Polars function's (Int64 counts, Float64
    with a weight; Float64 rates), group columns first in ``by`` order, rows sorted by the group
    columns (nulls last), then in class or threshold order.

    >>> import polars as pl
    >>> df = pl.DataFrame({"m": ["a", "a", "b"], "y": [0, 1, 1], "s": [0.2, 0.7, 0.4]})
    >>> roc_curve(df, "y", "s", by="m").columns
    ['m', 'threshold', 'fpr', 'tpr']

``data`` is a Polars DataFrame or LazyFrame (its used columns are registered in ``con`` under
an internal name for the call) or a table reference that ``con`` can read with ``query_table``
(then ``con`` is required): a table or view name, qualified or not (``"main.preds"``), or a
file path. DuckDB parses that string as a qualified name, so a name with dots or double quotes
must be quoted: pass ``quote(name)``. Without ``con`` a private in-memory connection is
used. Enum labels are evaluated in category order and come back as the Enum. Errors, from
Python checks or from the macros' own checks, are :class:`clfeval.InputError`.
"""

from __future__ import annotations

from typing import Any

from clfeval.sql._connections import run
from clfeval.sql._files import OLDEST_DUCKDB, connect, files, load, quote, sql_dir, text
from clfeval.sql._macros import AGGREGATE_MACROS, TABLE_MACROS
from clfeval.sql._run import aggregate, table_macro
from clfeval.sql._uncertainty import auroc_ci, bootstrap, compare, compare_auroc
from clfeval.sql._wrappers import (
    auroc,
    average_precision,
    calibration,
    confusion_matrix,
    counts,
    cv_summary,
    decision_curve,
    det_curve,
    ece,
    gain_curve,
    lift_curve,
    metrics,
    pr_curve,
    report,
    roc_curve,
    thresholds,
    top_k_accuracy,
)

__all__ = [
    "AGGREGATE_MACROS",
    "OLDEST_DUCKDB",
    "TABLE_MACROS",
    "aggregate",
    "auroc",
    "auroc_ci",
    "average_precision",
    "bootstrap",
    "calibration",
    "compare",
    "compare_auroc",
    "confusion_matrix",
    "connect",
    "counts",
    "cv_summary",
    "decision_curve",
    "det_curve",
    "ece",
    "files",
    "gain_curve",
    "lift_curve",
    "load",
    "metrics",
    "pr_curve",
    "query",
    "quote",
    "report",
    "roc_curve",
    "run",
    "sql_dir",
    "table_macro",
    "text",
    "thresholds",
    "top_k_accuracy",
]


def __getattr__(name: str) -> Any:
    """``query`` is imported on first use: sqlglot (the ``warehouse`` extra) loads only when
    generated SQL is asked for."""
    if name == "query":
        from clfeval.sqlgen import query

        return query
    raise AttributeError(f"module 'clfeval.sql' has no attribute {name!r}")
