"""A Spark DataFrame in: evaluated inside Spark by the generated Spark SQL, Polars out.

:func:`clfeval._frames.frame_input` sends a ``pyspark.sql.DataFrame`` here. The frame is
registered as a temporary view with a unique name (dropped afterwards) and the call runs as
:func:`clfeval.sql.run` on its session: the front door's checks counted by one Spark
aggregate, then the capability's generated SQL. Only the result (counts, curve points, one
row per group) comes back, through Arrow; no row of the frame is collected. pyspark is never
imported here: the frame is recognised by its type's module.

A call that has no generated SQL (a function without a twin, such as the decision and
uncertainty functions, or an option the generated SQL does not spell, such as ``ci=``,
``models=`` or ``normalize=``) runs on the table Spark reduces it to
(:mod:`clfeval._spark_reduce`); what even that cannot do (per-class probabilities outside
the SQL twins) is an :class:`InputError` naming it, never a silent ``toPandas()``.
"""

from __future__ import annotations

import importlib
import inspect
import secrets
from collections.abc import Callable
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


def refusal(name: str, why: str) -> InputError:
    """The error for a call that cannot run inside Spark (its rows are never collected)."""
    return InputError(
        f"{name}() cannot run inside Spark: {why}",
        role="data",
        rule="engine",
        hint="clfeval never collects a Spark DataFrame's rows; drop the option, or select "
        "the columns and pass a Polars frame (e.g. pl.from_arrow(df.toArrow())) yourself",
    )


def is_spark(data: Any) -> bool:
    """True for a PySpark DataFrame (classic or Spark Connect), without importing pyspark."""
    module = type(data).__module__
    return module.startswith("pyspark.sql") and hasattr(data, "createOrReplaceTempView")


def call(
    name: str,
    fn: Callable[..., Any],
    signature: inspect.Signature,
    frame: Any,
    args: tuple,
    kwargs: dict,
) -> Any:
    """Run the frame function ``name`` (``fn`` in Polars) on a Spark DataFrame: by its
    generated SQL when it has one that spells every option given, else on the reduced table."""
    try:
        bound = signature.bind(frame, *args, **kwargs)
    except TypeError as err:
        raise TypeError(f"{name}(): {err}") from None
    why = _no_sql(name, signature, bound.arguments)
    if why is None:
        return _by_sql(name, signature, frame, bound.arguments)
    reduce = importlib.import_module("clfeval._spark_reduce")  # above _validate: looked up late
    if name in reduce.REDUCIBLE:
        return reduce.call(name, fn, bound)
    raise refusal(name, why)


def _given(signature: inspect.Signature, arguments: dict[str, Any]) -> dict[str, Any]:
    params = list(signature.parameters.values())
    return {
        k: v
        for k, v in arguments.items()
        if k != params[0].name and not _default(v, signature.parameters[k].default)
    }


def _no_sql(name: str, signature: inspect.Signature, arguments: dict[str, Any]) -> str | None:
    """Why the call has no generated SQL, or None when it has."""
    if name not in CAPABILITIES:
        return "it has no generated SQL twin"
    given = _given(signature, arguments)
    if name == "report" and not isinstance(given.get("score", ""), str):
        return ("per-class scores in the report have no generated SQL; "
                "ce.metrics(df, y, score={...}) gives them inside Spark")  # fmt: skip
    params = list(signature.parameters)
    for key in given:
        if key in params[1:3] or key in _SAME or key in _RENAMED or key in _LOCAL.get(name, ()):
            continue
        return f"the option {key}= has no generated SQL"
    if "average" in given:  # the frame function's own check and message first
        from clfeval import _options

        if _options.average(given["average"]) is None:
            return "average=None (one row per class) has no generated SQL"
    return None


def _by_sql(name: str, signature: inspect.Signature, frame: Any, arguments: dict[str, Any]) -> Any:
    """The call as :func:`clfeval.sql.run` on the frame's session, over a temporary view."""
    run = importlib.import_module("clfeval.sql").run  # built on _frames: looked up late

    params = list(signature.parameters.values())
    given = _given(signature, arguments)
    cap, second = CAPABILITIES[name]
    y = given.pop(params[1].name)
    options: dict[str, Any] = {"y": y}
    if params[2].name in given:
        options[second] = given.pop(params[2].name)
    local = {k: given.pop(k) for k in list(given) if k in _LOCAL.get(name, ())}
    for key, value in given.items():
        options[_RENAMED.get(key, key)] = value
    session = frame.sparkSession
    view = f"__clf_spark_{secrets.token_hex(6)}"
    frame.createOrReplaceTempView(view)
    try:
        if name == "report":
            return _report(run, frame, view, options, local)
        return run(session, cap, table=view, **options)
    finally:
        session.catalog.dropTempView(view)


def _default(value: Any, default: Any) -> bool:
    return value is default or (type(value) is type(default) and value == default)


def _report(run: Any, frame: Any, view: str, options: dict[str, Any], local: dict[str, Any]) -> Any:
    """A :class:`clfeval.Report` from the generated report table; with a binary ``score``,
    the score lines (the generated ``metrics``) and the baselines of constant predictors,
    which depend on the class weights only: :func:`clfeval.baseline` of the small
    (groups, y, weight) table that Spark aggregates."""
    from clfeval import _options

    module = importlib.import_module("clfeval._report")  # above _frames: looked up late
    score = options.pop("score", None)
    by = options.get("group_cols") or []
    by = [by] if isinstance(by, str) else list(by)
    weighted = options.get("weight") is not None
    digits = _options.digits(local.get("digits", 2))
    session = frame.sparkSession
    rows = view  # the report's rows: the drop options apply to the score column too
    if score is not None and (
        options.get("missing") == "drop" or options.get("nonfinite") == "drop"
    ):
        rows = f"{view}_kept"
        frame.where(_kept(options, score)).createOrReplaceTempView(rows)
    try:
        table = run(session, "report", table=rows, **options)
        counts = None
        if score is not None:
            counts = session.sql(_class_weights(rows, options, score, by)).toArrow()
    finally:
        if rows != view:
            session.catalog.dropTempView(rows)
    if not weighted:
        table = table.with_columns(pl.col("support").cast(pl.Int64))
    # scikit-learn prints supports as floats in a group where no row is predicted right
    accuracy = table.filter(pl.col("label") == "accuracy")
    no_hit = {tuple(r[:-1]): r[-1] == 0 for r in accuracy.select(*by, "f1").rows()}
    extras = baselines = n_excluded = None
    dropping = "missing" in options or "nonfinite" in options
    if score is not None or dropping:
        chosen = list(module.SCORE_DEFAULT) if score is not None else ["accuracy"]
        extras = run(session, "metrics", table=view, score=score, metrics=chosen, **options)
        if "n_excluded" in extras.columns:
            n_excluded = extras.select(*by, "n_excluded") if by else extras["n_excluded"][0]
            extras = extras.drop("n_excluded")
    if counts is not None:
        baselines = importlib.import_module("clfeval._baseline").baseline(
            pl.from_arrow(counts), options["y"], pos_label=options.get("pos_label", 1),
            by=by or None, weight="clfeval_class_weight",
            metrics=["accuracy", "balanced_accuracy", "f1", "log_loss", "brier"],
        )  # fmt: skip
    return module.Report(
        table=table, by=by, digits=digits, weighted=weighted,
        extras=extras if score is not None else None, baselines=baselines,
        n_excluded=n_excluded, float_support=no_hit,
    )  # fmt: skip


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _kept(options: dict[str, Any], score: str) -> str:
    """The rows whose score the drop options keep (Spark SQL; x - x = 0 for finite x only)."""
    s = f"CAST({_quote(score)} AS DOUBLE)"
    keep = ["true"]
    if options.get("missing") == "drop":
        keep += [f"{s} IS NOT NULL", f"NOT isnan({s})"]
    if options.get("nonfinite") == "drop":
        keep.append(f"({s} IS NULL OR isnan({s}) OR {s} - {s} = 0)")
    return " AND ".join(keep)


def _class_weights(view: str, options: dict[str, Any], score: str, by: list[str]) -> str:
    """Spark SQL of the (groups, y, weight) table of the rows the report reads (``view``
    holds them, the score's drops applied; the label's are applied here)."""
    y, yhat, weight = options["y"], options["yhat"], options.get("weight")
    keep = ["true"]
    if options.get("missing") == "drop":
        keep += [f"{_quote(c)} IS NOT NULL" for c in (y, yhat, *([weight] if weight else []))]
    n = f"CAST({_quote(weight)} AS DOUBLE)" if weight else "1.0"
    keys = ", ".join(_quote(c) for c in [*by, y])
    return (
        f"SELECT {keys}, SUM({n}) AS clfeval_class_weight FROM {_quote(view)} "
        f"WHERE {' AND '.join(keep)} GROUP BY {keys}"
    )
