"""A Spark DataFrame in: evaluated inside Spark by the generated Spark SQL, Polars out.

:func:`clfeval._frames.frame_input` sends a ``pyspark.sql.DataFrame`` here. The frame is
registered as a temporary view with a unique name (dropped afterwards) and the call runs as
:func:`clfeval.sql.run` on its session: the front door's checks counted by one Spark
aggregate, then the capability's generated SQL. Only the result (counts, curve points, one
row per group) comes back, through Arrow; no row of the frame is collected. pyspark is never
imported here: the frame is recognised by its type's module.

A call that has no generated SQL (a function without a twin, or an option the generated SQL
does not spell, such as ``models=`` or ``normalize=``) is an :class:`InputError` naming it,
never a silent ``toPandas()``.
"""

from __future__ import annotations

import importlib
import inspect
import secrets
from typing import Any

import polars as pl

from clfeval.exceptions import InputError

# frame function -> (capability of clfeval.sql.query, the keyword of its second column)
CAPABILITIES: dict[str, tuple[str, str]] = {
    "counts": ("counts", "yhat"),
    "confusion_matrix": ("confusion", "yhat"),
    "report": ("report", "yhat"),
    "metrics": ("metrics", "yhat"),
    "roc_curve": ("roc_curve", "score"),
    "pr_curve": ("pr_curve", "score"),
    "det_curve": ("det_curve", "score"),
    "thresholds": ("thresholds", "score"),
    "calibration": ("calibration", "proba"),
}
# options spelled the same by the frame functions and clfeval.sql.run, and those renamed
_SAME = {"pos_label", "weight", "missing", "nonfinite", "average", "zero_division", "beta",
         "metrics", "kappa_weights", "adjusted", "max_fpr", "multi_class", "labels",
         "drop_intermediate", "n_bins", "score"}  # fmt: skip
_RENAMED = {"by": "group_cols"}
# options that only shape the Python result, applied after the SQL ran
_LOCAL = {"report": {"digits"}, "metrics": set()}


def is_spark(data: Any) -> bool:
    """True for a PySpark DataFrame (classic or Spark Connect), without importing pyspark."""
    module = type(data).__module__
    return module.startswith("pyspark.sql") and hasattr(data, "createOrReplaceTempView")


def _refuse(name: str, why: str) -> InputError:
    return InputError(
        f"{name}() cannot run inside Spark: {why}",
        role="data",
        rule="engine",
        hint="clfeval never collects a Spark DataFrame's rows; drop the option, or select "
        "the columns and pass a Polars frame (e.g. pl.from_arrow(df.toArrow())) yourself",
    )


def call(name: str, signature: inspect.Signature, frame: Any, args: tuple, kwargs: dict) -> Any:
    """Run the frame function ``name`` on a Spark DataFrame through its generated SQL."""
    run = importlib.import_module("clfeval.sql").run  # built on _frames: looked up late

    if name not in CAPABILITIES:
        raise _refuse(name, "it has no generated SQL twin")
    try:
        bound = signature.bind(frame, *args, **kwargs)
    except TypeError as err:
        raise TypeError(f"{name}(): {err}") from None
    params = list(signature.parameters.values())
    given = {
        k: v
        for k, v in bound.arguments.items()
        if k != params[0].name and not _default(v, signature.parameters[k].default)
    }
    cap, second = CAPABILITIES[name]
    if name == "report" and "score" in given:
        raise _refuse(
            name,
            "score= (the score lines and baselines) has no generated SQL; "
            "ce.metrics(df, y, score=...) gives the score metrics inside Spark",
        )
    y = given.pop(params[1].name)
    options: dict[str, Any] = {"y": y}
    if params[2].name in given:
        options[second] = given.pop(params[2].name)
    local = {k: given.pop(k) for k in list(given) if k in _LOCAL.get(name, ())}
    if "average" in given:  # the frame function's own check and message first
        from clfeval import _options

        if _options.average(given["average"]) is None:
            raise _refuse(name, "average=None (one row per class) has no generated SQL")
    for key, value in given.items():
        if key in _RENAMED:
            options[_RENAMED[key]] = value
        elif key in _SAME:
            options[key] = value
        else:
            raise _refuse(name, f"the option {key}= has no generated SQL")
    session = frame.sparkSession
    view = f"__clf_spark_{secrets.token_hex(6)}"
    frame.createOrReplaceTempView(view)
    try:
        out = run(session, cap, table=view, **options)
    finally:
        session.catalog.dropTempView(view)
    if name == "report":
        return _report(out, options, local)
    return out


def _default(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _report(table: pl.DataFrame, options: dict[str, Any], local: dict[str, Any]) -> Any:
    """A :class:`clfeval.Report` around the generated report table."""
    from clfeval import _options

    report_class = importlib.import_module("clfeval._report").Report  # above _frames

    by = options.get("group_cols") or []
    by = [by] if isinstance(by, str) else list(by)
    weighted = options.get("weight") is not None
    if not weighted:
        table = table.with_columns(pl.col("support").cast(pl.Int64))
    digits = _options.digits(local.get("digits", 2))
    # scikit-learn prints supports as floats in a group where no row is predicted right
    accuracy = table.filter(pl.col("label") == "accuracy")
    no_hit = {tuple(r[:-1]): r[-1] == 0 for r in accuracy.select(*by, "f1").rows()}
    return report_class(table=table, by=by, digits=digits, weighted=weighted, float_support=no_hit)
