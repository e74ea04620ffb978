"""Any input frame, and where it is evaluated: the one place that decides what data can be.

- A Polars DataFrame or LazyFrame is evaluated by Polars, as given.
- Anything else that speaks the Arrow PyCapsule stream interface (``__arrow_c_stream__``: a
  pandas DataFrame (pandas >= 2.2; its index is not a column), a PyArrow Table or
  RecordBatchReader, Arrow-backed frames of other libraries) is read once into a Polars
  DataFrame, with no copy where Arrow allows, and evaluated by Polars.
- A DuckDB relation stays in DuckDB when the function has an SQL twin that takes every
  argument given (:data:`TWINS`): the relation is registered in its own connection under an
  internal name and the twin of :mod:`clfeval.sql` runs there, so no row reaches Python; the
  macros are installed as TEMP macros of that connection (a database file is never written,
  and a read-only one works). Any other call (``report``, ``baseline``, ``best_threshold``,
  ``threshold_counts``, ``report_html``, the charts, an option without an SQL spelling such
  as ``models=`` or ``normalize=``) reads the relation's rows through the Arrow stream.
- A PySpark DataFrame stays in Spark (:mod:`clfeval._spark`): a call with generated SQL runs
  there, any other on the table Spark reduces it to (:mod:`clfeval._spark_reduce`); its rows
  are never collected.
- Anything else is an :class:`InputError` naming the argument.

:func:`frame_input` applies this to a frame function. The results are the same whichever way
a call goes (the twin table, ``tests/test_twins.py``, holds every twin to the Polars numbers).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import secrets
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import duckdb
import polars as pl

from clfeval._spark import call as spark_call
from clfeval._spark import is_spark
from clfeval.exceptions import InputError

Frame = pl.DataFrame | pl.LazyFrame
F = TypeVar("F", bound=Callable[..., Any])

# frame function -> (its table macro, the macro for per-class scores or None)
TWINS: dict[str, tuple[str, str | None]] = {
    "confusion_matrix": ("clf_confusion", None),
    "counts": ("clf_counts", None),
    "metrics": ("clf_metrics", None),
    "roc_curve": ("clf_roc_curve", "clf_roc_curve_multiclass"),
    "pr_curve": ("clf_pr_curve", "clf_pr_curve_multiclass"),
    "det_curve": ("clf_det_curve", None),
    "thresholds": ("clf_thresholds", None),
    "calibration": ("clf_calibration", None),
    "gain_curve": ("clf_gain", None),
    "lift_curve": ("clf_lift", None),
}
_RUN_OPTIONS = {"by", "weight", "missing", "nonfinite"}  # every clfeval.sql wrapper takes them
_MARKER = "clf_report"  # a table macro whose TEMP presence says the macros are installed


def is_relation(data: Any) -> bool:
    """True for a DuckDB relation (``con.sql(...)``, ``con.table(...)``, ``duckdb.sql(...)``)."""
    return isinstance(data, duckdb.DuckDBPyRelation)


def as_polars(data: Any, role: str = "data") -> Frame:
    """``data`` as a Polars DataFrame or LazyFrame (see the module docstring)."""
    if isinstance(data, pl.DataFrame | pl.LazyFrame):
        return data
    if is_spark(data):  # its rows stay in Spark (a frame function takes it: frame_input)
        raise InputError(
            f"{role} is a Spark DataFrame, which clfeval evaluates inside Spark only",
            role=role,
            rule="engine",
            hint="pass it to a frame function (clfeval.metrics, report, report_html, the "
            "curves, the decision and uncertainty functions); clfeval never collects its rows",
        )
    if hasattr(data, "__arrow_c_stream__") and not isinstance(data, type):
        try:
            return pl.DataFrame(data)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as err:  # a stream Polars cannot hold (a panic is a BaseException)
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise InputError(
                f"{role} could not be read through the Arrow stream interface: {first}",
                role=role,
                rule="data_type",
                hint="cast the columns clfeval reads to numbers, strings or booleans first",
            ) from err
    raise InputError(
        f"{role} must be a data frame, got {type(data).__name__}",
        role=role,
        rule="data_type",
        hint="pass a Polars DataFrame or LazyFrame, or anything with the Arrow stream "
        "interface (a PyArrow table, a pandas DataFrame, a DuckDB relation)",
    )


def frame_input(name: str) -> Callable[[F], F]:
    """Make ``fn(data, ...)`` take any input: a DuckDB relation runs the SQL twin of ``name``
    when it has one that takes the call's arguments, anything else is read by
    :func:`as_polars` once, before ``fn`` runs (a RecordBatchReader can be read only once)."""

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)
        first = next(iter(signature.parameters))

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            if not args and first not in kwargs:
                return fn(*args, **kwargs)  # the function's own message names the argument
            data = args[0] if args else kwargs.pop(first)
            args = args[1:]
            if is_relation(data):
                twin = _twin_call(name, signature, data, args, kwargs)
                if twin is not None:
                    return twin()
            if is_spark(data):  # evaluated inside Spark, or refused: never collected
                return spark_call(name, fn, signature, data, args, kwargs)
            return fn(as_polars(data), *args, **kwargs)

        return run  # type: ignore[return-value]

    return decorate


def _same(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _twin_call(
    name: str, signature: inspect.Signature, relation: Any, args: tuple, kwargs: dict
) -> Callable[[], Any] | None:
    """The call of ``name``'s SQL twin on ``relation``, or None when the twin cannot take the
    call: no twin, a column that is not a name, or an argument with no SQL spelling."""
    if name not in TWINS or getattr(relation, "_con", None) is None:
        return None
    try:
        bound = signature.bind(relation, *args, **kwargs)
    except TypeError:
        return None  # the Polars function gives the message
    params = list(signature.parameters.values())
    columns = [p.name for p in params[1:3]]  # y, then yhat / score / proba
    given = {
        k: v
        for k, v in bound.arguments.items()
        if k != params[0].name and not _same(v, signature.parameters[k].default)
    }
    values = [given.pop(c, None) for c in columns]
    macro, per_class = TWINS[name]
    if not all(isinstance(v, str) for v in values[:1]) or values[1] is None:
        return None
    if isinstance(values[1], Mapping | list | tuple) and per_class is not None:
        macro = per_class
    elif not isinstance(values[1], str) or ("labels" in given and per_class is not None):
        return None  # a List/Array score column with labels=: the Polars functions only
    from_sql = importlib.import_module("clfeval.sql")  # built on this module: looked up late
    options = set(from_sql.TABLE_MACROS[macro].options) - {"group_cols", "weight_col"}
    if set(given) - _RUN_OPTIONS - options:
        return None
    twin = getattr(from_sql, name)

    def call() -> Any:
        con = relation._con
        _install_temp_macros(con, from_sql)
        view = f"__clf_relation_{secrets.token_hex(6)}"
        con.register(view, relation)
        try:
            return twin(view, *values, con=con, **given)
        finally:
            con.unregister(view)

    return call


def _install_temp_macros(con: duckdb.DuckDBPyConnection, from_sql: Any) -> None:
    """The clfeval macros as TEMP macros of ``con``, unless there already: they shadow any
    others of that name, leave the database untouched and vanish with the connection."""
    found = con.sql(
        "SELECT count(*) FROM duckdb_functions() WHERE database_name = 'temp' "
        "AND function_name = ?",
        params=[_MARKER],
    ).fetchall()
    if found[0][0]:
        return
    script = from_sql.text()
    temp = script.replace("CREATE OR REPLACE MACRO ", "CREATE OR REPLACE TEMP MACRO ")
    con.execute(temp)
