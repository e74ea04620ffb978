"""Spark aggregates, Polars finishes: a frame function with no generated SQL on a Spark DataFrame.

Weights are frequencies everywhere in clfeval (a row of weight k counts as k rows, the same
numbers, curves and bootstrap draws), so a call depends on the rows only through the total
weight of each distinct combination of the columns it reads. A call that has no generated
SQL (the decision and uncertainty functions, ``report_html``, options such as ``ci=``,
``models=``, ``normalize=``, ``prevalence=``) runs in three steps:

1. the Polars function on an empty frame of the Spark schema, stopped when it reaches its
   data pass: the option and schema checks, with the Polars messages;
2. one Spark aggregate groups the rows by the columns read and sums the weight (or counts
   the rows): the *reduced table*, the only thing that comes back, through Arrow;
3. the Polars function on the reduced table, weighted by the sums, while its data pass runs
   inside Spark on the rows themselves (:data:`clfeval._prepared.ROWS_ELSEWHERE`): the same
   counts, example rows and messages as the Polars front door, and rows left out by
   ``missing="drop"`` counted as rows.

The reduced table has one row per distinct (groups, labels, score): a handful for labels, as
many as the curve has points for a score. Per-class probabilities are refused (about one row
per row; ``metrics``, the curves and ``report`` compute them inside Spark by their SQL), and so
is calibration's ``strategy="quantile"``, whose bin edges are quantiles of the rows, and
``compare(missing="drop")``, which drops rows with a null in any compared column before its
checks (drop them in Spark first).
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import polars as pl

from clfeval._prepared import ROWS_ELSEWHERE
from clfeval._spark import refusal

# the frame functions that run on the reduced table when their call has no generated SQL
REDUCIBLE = frozenset({
    "counts", "confusion_matrix", "report", "metrics", "roc_curve", "pr_curve", "det_curve",
    "thresholds", "calibration", "best_threshold", "baseline", "threshold_counts", "gain_curve",
    "lift_curve", "expected_cost", "decision_curve", "cv_summary", "prevalence_curve", "compare",
    "auroc_ci", "compare_auroc",
})  # fmt: skip
# the parameters of the frame functions that name columns of the data
COLUMN_PARAMETERS = ("by", "y", "yhat", "score", "proba", "fold", "models", "prevalence", "weight")
# result columns that count rows: Int64 without weights, as the Polars functions give them
COUNT_COLUMNS = ("tp", "fp", "fn", "tn", "support", "count", "n_a_only", "n_b_only")


class _ReachedDataError(Exception):
    """The probe reached the data pass: every option and schema check has passed."""


class _Probe:
    """Stops the call on the empty frame at its data pass; its messages name the classes
    that Spark holds."""

    def __init__(self, engine: Any, ref: Any) -> None:
        self.engine, self.ref = engine, ref

    def present(self, y: str) -> list[Any]:
        from clfeval.sqlgen import _checks

        return self.engine.column(_checks.classes_query(self.ref, y, self.engine.dialect))

    def scan(self, *_: Any) -> Any:
        raise _ReachedDataError

    def fractional(self, _: str) -> int:
        raise _ReachedDataError

    def folds(self, _: str, by: list[str]) -> pl.DataFrame:  # checked by Spark next
        return pl.DataFrame({**{b: [] for b in by}, "nulls": [], "folds": []})


class SparkRows:
    """The data pass of :func:`clfeval._validate.prepare` run by Spark on the rows of ``ref``,
    for a call evaluated on their reduced table (``synthetic``: the row-count column the
    reduction added when the call has no weight, which Spark does not hold)."""

    def __init__(self, engine: Any, ref: Any, schema: pl.Schema, synthetic: str | None) -> None:
        self.engine, self.ref, self.schema, self.synthetic = engine, ref, schema, synthetic
        self.plan: Any = None

    def _on_rows(self, p: Any) -> Any:
        if self.synthetic is None:
            return p
        roles = {r: c for r, c in p.roles.items() if c != self.synthetic}
        checks = [c for c in p.checks if c.column != self.synthetic]
        return replace(p, roles=roles, weight=None, checks=checks)

    def scan(
        self, p: Any, lf: pl.LazyFrame, cast: Any, classes: bool, by: list[str]
    ) -> tuple[list[Any] | None, int, pl.DataFrame | None]:
        """Raise as the Polars data pass would; (classes, rows, rows left out per group)."""
        from clfeval import _validate
        from clfeval.sqlgen import _checks

        e, ref, schema = self.engine, self.ref, self.schema
        q = self.plan = self._on_rows(p)
        pos = None if q.pos_label is _validate.NOT_GIVEN else _checks.literal(q.pos_label)
        counts = e.row(_checks.count_query(q, schema, ref, e.dialect, pos))
        counts = {k: bool(v) if k in ("has_pos", "y_varies") else v for k, v in counts.items()}
        _validate.raise_for(
            q,
            counts,
            lambda i: e.column(_checks.rows_query(q, schema, ref, e.dialect, i)),
            lambda: e.column(_checks.present_query(q, schema, ref, e.dialect)),
        )
        found = _validate.kept_classes(lf, p, cast) if classes else None
        excluded = None
        if q.missing == "drop" or q.nonfinite == "drop":
            local = lf.collect_schema()
            excluded = e.frame(_checks.excluded_query(q, schema, ref, e.dialect, by)).select(
                *[pl.col(b).cast(local[b]) for b in by], pl.col("n_excluded").cast(pl.Int64)
            )
            excluded = excluded.sort(by, nulls_last=True) if by else excluded
        return found, int(counts["n_rows"]), excluded

    def present(self, y: str) -> list[Any]:
        """The first ten sorted classes of ``y`` (for messages)."""
        return _Probe(self.engine, self.ref).present(y)

    def folds(self, fold: str, by: list[str]) -> pl.DataFrame:
        """Per group of ``by``: the rows with a null ``fold`` and the distinct folds."""
        keys = ", ".join(_quote(b) for b in by)
        f = _quote(fold)
        sql = (
            f"SELECT {keys}{', ' if keys else ''}"
            f"SUM(CASE WHEN {f} IS NULL THEN 1 ELSE 0 END) AS nulls, "
            f"COUNT(DISTINCT {f}) AS folds FROM {self.ref.sql(dialect='spark', identify=True)}"
            + (f" GROUP BY {keys}" if keys else "")
        )
        return self.engine.frame(sql)

    def fractional(self, weight: str) -> int:
        """The kept rows whose weight is not a whole number (frequency-weight methods)."""
        from clfeval.sqlgen import _checks

        if weight == self.synthetic or self.plan is None:
            return 0  # row counts are whole
        e = self.engine
        return int(
            e.row(_checks.fraction_query(self.plan, self.schema, self.ref, e.dialect, weight))["n"]
        )


def per_class(name: str, arguments: Mapping[str, Any], schema: pl.Schema) -> str | None:
    """Why the call reads per-class probabilities (refused here), or None."""
    for role in ("score", "proba"):
        value = arguments.get(role)
        listed = isinstance(value, Sequence) and not isinstance(value, str)
        if isinstance(value, Mapping) or (listed and name != "compare_auroc"):
            return f"{role}= names one column per class"
        if isinstance(value, str) and isinstance(schema.get(value), pl.List | pl.Array):
            return f"column {value!r} ({role}) holds one probability per class"
    return None


def _columns(arguments: Mapping[str, Any], schema: pl.Schema) -> list[str]:
    """The columns of ``schema`` the call names, in parameter order, each once."""
    found: list[str] = []
    for parameter in COLUMN_PARAMETERS:
        value = arguments.get(parameter)
        if isinstance(value, str):
            names: Sequence[Any] = [value]
        elif isinstance(value, Mapping):
            names = list(value.values())
        elif isinstance(value, Sequence):
            names = list(value)
        else:
            names = []
        found += [c for c in names if isinstance(c, str) and c in schema and c not in found]
    return found


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def reduce(
    frame: Any, view: str, keys: list[str], weight: str | None, out: str, rows: str | None = None
) -> pl.DataFrame:
    """The reduced table: one row per distinct ``keys`` of the view's rows, with ``out`` the
    summed ``weight`` (Float64) or, without one, the number of rows (Int64), and ``rows`` the
    number of rows as well when named; sorted."""
    cols = ", ".join(_quote(c) for c in keys)
    totals = [f"SUM(CAST({_quote(weight)} AS DOUBLE))" if weight is not None else "COUNT(*)"]
    names = [out]
    if rows is not None and rows != out:
        totals.append("COUNT(*)")
        names.append(rows)
    select = ", ".join(
        [*(_quote(c) for c in keys), *(f"{t} AS {_quote(n)}" for t, n in zip(totals, names))]
    )
    sql = f"SELECT {select} FROM {_quote(view)}" + (f" GROUP BY {cols}" if cols else "")
    reduced = pl.from_arrow(frame.sparkSession.sql(sql).toArrow())
    assert isinstance(reduced, pl.DataFrame)
    return reduced.sort(keys, nulls_last=True) if keys else reduced


def reduced_rows(
    frame: Any, schema: pl.Schema, columns: Sequence[str], weight: str | None
) -> tuple[pl.DataFrame, str, str]:
    """(the reduced table of ``columns``, its weight column, its row-count column): the rows
    of a call already checked inside Spark, for a result drawn from them (the page's charts);
    ``schema``: the frame's (:func:`schema_of`)."""
    rows = fresh_name(schema, "clfeval_rows")
    out = weight if weight is not None else rows
    keys = [c for c in dict.fromkeys(columns) if c != weight]
    view = f"__clf_spark_{secrets.token_hex(6)}"
    frame.createOrReplaceTempView(view)
    try:
        return reduce(frame, view, keys, weight, out, rows), out, rows
    finally:
        frame.sparkSession.catalog.dropTempView(view)


def schema_of(frame: Any) -> pl.Schema:
    """The Spark DataFrame's schema as Polars dtypes, through Arrow as the results come back
    (no row is read; pyspark is never imported here)."""
    empty = pl.from_arrow(frame.limit(0).toArrow())
    assert isinstance(empty, pl.DataFrame)
    return empty.schema


def fresh_name(schema: pl.Schema, stem: str) -> str:
    return next(
        f"{stem}{i or ''}" for i in range(len(schema) + 1) if f"{stem}{i or ''}" not in schema
    )


def probe(fn: Callable[..., Any], bound: inspect.BoundArguments, rows: Any) -> None:
    """The call ``bound`` (an empty frame first) up to its data pass: its option and schema
    checks (``rows``: where the classes its messages name are found)."""
    token = ROWS_ELSEWHERE.set(rows)
    try:
        fn(*bound.args, **bound.kwargs)
    except _ReachedDataError:
        pass
    finally:
        ROWS_ELSEWHERE.reset(token)


def call(name: str, fn: Callable[..., Any], bound: inspect.BoundArguments) -> Any:
    """Run the Polars frame function ``fn`` (the call ``bound``, a Spark DataFrame first) on
    the reduced table of its rows."""
    from clfeval.sql._connections import spark_engine
    from clfeval.sqlgen import table_ref

    first = next(iter(bound.signature.parameters))
    frame = bound.arguments[first]
    full = inspect.BoundArguments(bound.signature, dict(bound.arguments))
    full.apply_defaults()  # the columns named by default too (cv_summary's fold="fold")
    arguments = {k: v for k, v in full.arguments.items() if k != first}
    schema = schema_of(frame)
    why = per_class(name, arguments, schema)
    if why is not None:
        raise refusal(name, f"{why}; the reduced table would hold about one row per row "
                      "(ce.metrics, the curves and ce.report compute per-class scores in Spark)")  # fmt: skip
    if name == "calibration" and arguments.get("strategy", "uniform") != "uniform":
        raise refusal(name, "strategy='quantile' bins by quantiles of the rows")
    if name == "compare" and arguments.get("missing") == "drop":  # it drops before its checks
        raise refusal(name, "missing='drop' counts the rows a null in any compared column "
                      "leaves out; drop them in Spark first (df.dropna(subset=[...]))")  # fmt: skip
    weight = arguments.get("weight")
    synthetic = None if weight is not None else fresh_name(schema, "clfeval_rows")
    out = weight if weight is not None else synthetic
    keys = [c for c in _columns(arguments, schema) if c != weight]
    view = f"__clf_spark_{secrets.token_hex(6)}"
    session = frame.sparkSession
    engine, ref = spark_engine(session), table_ref(view)
    frame.createOrReplaceTempView(view)
    try:
        bound.arguments[first] = pl.DataFrame(schema=schema)
        probe(fn, bound, _Probe(engine, ref))
        reduced = reduce(frame, view, keys, weight, out)
        bound.arguments[first] = reduced
        bound.arguments["weight"] = out
        token = ROWS_ELSEWHERE.set(SparkRows(engine, ref, schema, synthetic))
        try:
            result = fn(*bound.args, **bound.kwargs)
        finally:
            ROWS_ELSEWHERE.reset(token)
    finally:
        session.catalog.dropTempView(view)
    if weight is None:
        return _counted(result, shifted=arguments.get("prevalence") is not None)
    return result


def _counted(result: Any, shifted: bool) -> Any:
    """A result of unweighted rows in the dtypes of the Polars function: counts Int64 (a
    report at a target prevalence counts re-weighted rows: its supports stay Float64)."""
    if isinstance(result, pl.DataFrame):
        return result.with_columns(
            pl.col(c).cast(pl.Int64)
            for c in COUNT_COLUMNS
            if c in result.columns and result.schema[c].is_float()
        )
    from clfeval._report_view import Report

    if isinstance(result, Report) and not shifted:
        return replace(result, table=_counted(result.table, shifted), weighted=False)
    return result
