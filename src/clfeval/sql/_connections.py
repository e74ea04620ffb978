"""Generated SQL run where the data lives: a DuckDB, PostgreSQL or Spark connection in, Polars out.

:func:`run` is the front door for a table in another engine. It checks the call as the
Polars front door does (options, then the table's schema, then one counting query run by the
engine: :mod:`clfeval.sqlgen._checks`), runs :func:`clfeval.sqlgen.query` for the engine's
dialect and brings back only the small result. No row of the table leaves the engine.

Engines are recognised by the connection's type, without importing their packages:
a DuckDB connection, a PostgreSQL DB-API connection (psycopg 3 or psycopg2) and a
``pyspark.sql.SparkSession``. Other DB-API connections need ``dialect=`` and a driver whose
``cursor.description`` this module can read; they are refused with a clear error for now.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import polars as pl

from clfeval import _options, _validate
from clfeval._data_checks import proba_sum_error
from clfeval.exceptions import InputError

# PostgreSQL type OIDs (stable across versions, the same for every driver) -> Polars dtypes.
_PG_TYPES: dict[int, pl.DataType] = {
    16: pl.Boolean(),
    20: pl.Int64(),
    21: pl.Int16(),
    23: pl.Int32(),
    25: pl.String(),
    700: pl.Float32(),
    701: pl.Float64(),
    1042: pl.String(),  # char(n)
    1043: pl.String(),  # varchar
}
_PG_NUMERIC = 1700
_RUNNABLE = ("duckdb", "postgres", "spark")
_ONE_ROW = ("metrics", "auroc", "average_precision", "log_loss", "brier")  # per group


@dataclass
class _Engine:
    """What the runner needs from an engine: run a query into Polars, and run a statement."""

    dialect: str
    frame: Callable[[str], pl.DataFrame]
    execute: Callable[[str], None]
    name: str

    def schema(self, table_sql: str) -> pl.Schema:
        try:
            return self.frame(f"SELECT * FROM {table_sql} WHERE 1 = 0").schema
        except InputError:
            raise
        except Exception as err:  # the engine's own error: no such table, no permission
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise InputError(
                f"table {table_sql} cannot be read: {first}",
                role="table",
                rule="missing_table",
                hint=f"pass a table or view that this {self.name} connection can read",
            ) from err

    def row(self, sql: str) -> dict[str, Any]:
        out = self.frame(sql)
        return dict(zip(out.columns, out.row(0)))

    def column(self, sql: str) -> list[Any]:
        return self.frame(sql).to_series(0).to_list()


def _pg_dtype(column: Any) -> pl.DataType:
    """A Polars dtype for a PostgreSQL result column (numbers, text, bool; else Object, which
    every check refuses by name)."""
    if column.type_code == _PG_NUMERIC:
        precision, scale = getattr(column, "precision", None), getattr(column, "scale", None)
        return pl.Decimal(precision or 38, scale or 0) if precision is not None else pl.Decimal()
    return _PG_TYPES.get(column.type_code, pl.Object())


def _pg_engine(connection: Any) -> _Engine:
    def frame(sql: str) -> pl.DataFrame:
        with connection.cursor() as cur:
            cur.execute(sql)
            names = [d.name if hasattr(d, "name") else d[0] for d in cur.description]
            types = [_pg_dtype(d) for d in cur.description]
            rows = cur.fetchall()
        data = {n: [r[i] for r in rows] for i, n in enumerate(names)}
        out = {}
        for (name, values), dtype in zip(data.items(), types):
            if isinstance(dtype, pl.Object):
                out[name] = pl.Series(name, values, dtype=pl.Object)
            elif isinstance(dtype, pl.Decimal) and dtype.precision is None:
                scale = max((-v.as_tuple().exponent for v in values if isinstance(v, Decimal)),
                            default=0)  # fmt: skip
                out[name] = pl.Series(name, values, dtype=pl.Decimal(38, max(scale, 0)))
            else:
                out[name] = pl.Series(name, values, dtype=dtype)
        return pl.DataFrame(out)

    def execute(sql: str) -> None:
        with connection.cursor() as cur:
            cur.execute(sql)

    return _Engine("postgres", frame, execute, "PostgreSQL")


def _duckdb_engine(connection: Any) -> _Engine:
    return _Engine(
        "duckdb",
        lambda sql: connection.sql(sql).pl(),
        lambda sql: connection.execute(sql),
        "DuckDB",
    )


def spark_engine(session: Any) -> _Engine:
    def frame(sql: str) -> pl.DataFrame:
        return pl.from_arrow(session.sql(sql).toArrow())  # type: ignore[return-value]

    return _Engine("spark", frame, lambda sql: session.sql(sql).collect() and None, "Spark")


def engine_for(connection: Any, dialect: str | None = None) -> _Engine:
    """The engine behind ``connection``, recognised by its type (``dialect=`` to say it)."""
    module = type(connection).__module__
    found = None
    if module.startswith("duckdb") or module.startswith("_duckdb"):
        found = _duckdb_engine(connection)
    elif module.startswith(("psycopg", "psycopg2")):
        found = _pg_engine(connection)
    elif module.startswith("pyspark.sql") and hasattr(connection, "sql"):
        found = spark_engine(connection)
    if found is None or (dialect is not None and dialect != found.dialect):
        shown = f"{module}.{type(connection).__name__}"
        raise InputError(
            f"cannot run generated SQL on a {shown} connection"
            + (f" as dialect {dialect!r}" if dialect is not None else ""),
            role="connection",
            rule="engine",
            hint=f"run() executes on {list(_RUNNABLE)} (a DuckDB connection, a psycopg or "
            "psycopg2 connection to PostgreSQL, a SparkSession); for other engines run the "
            "text of clfeval.sql.query(..., dialect=...) yourself",
        )
    return found


# --- the runner ----------------------------------------------------------------------------


def run(
    connection: Any,
    metric: str,
    *,
    table: str | Sequence[str],
    y: str,
    yhat: str | None = None,
    score: Any = None,
    proba: Any = None,
    group_cols: str | Sequence[str] = (),
    pos_label: Any = 1,
    weight: str | None = None,
    dialect: str | None = None,
    missing: _validate.Missing = "raise",
    nonfinite: _validate.Missing = "raise",
    **options: Any,
) -> pl.DataFrame:
    """Run one capability of :func:`clfeval.sql.query` inside the engine of ``connection``.

    The front door for a table in DuckDB, PostgreSQL or Spark: the same checks and messages
    as the Polars functions (a missing column, text against number labels, nulls, NaN or
    negative weights, probabilities outside [0, 1], ``pos_label`` absent, options), counted by
    one query inside the engine; then the generated SQL for the connection's dialect. Only
    the result (counts, curve points, one row per group) comes back, as Polars. Rows with a
    null (and NaN scores) raise unless ``missing="drop"`` (``nonfinite="drop"``), which
    leave them out through a temporary view; the one-row-per-group results (``metrics``,
    ``auroc``...) then have an ``n_excluded`` column after the group columns, as
    :func:`clfeval.metrics`.

    Parameters
    ----------
    connection
        A DuckDB connection, a psycopg (3) or psycopg2 connection to PostgreSQL, or a
        ``SparkSession``.
    metric, table, y, yhat, score, proba, group_cols, pos_label, weight, options
        As :func:`clfeval.sql.query` (``options``: ``average``, ``zero_division``, ``beta``,
        ``metrics``, ``n_bins``, ``drop_intermediate``, ``kappa_weights``).
    dialect
        The engine's dialect, when it should be checked (found from the connection).

    See Also
    --------
    clfeval.sql.query : the SQL text alone, for any of its dialects.

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS FROM (VALUES (1, 0.9), (0, 0.4), (1, 0.4)) v(y, s)")
    >>> run(con, "auroc", table="t", y="y", score="s")
    shape: (1, 1)
    ┌───────┐
    │ auroc │
    │ ---   │
    │ f64   │
    ╞═══════╡
    │ 0.75  │
    └───────┘
    """
    from clfeval import sqlgen
    from clfeval.sqlgen import _checks

    engine = engine_for(connection, dialect)
    _options.choice("missing", missing, ("raise", "drop"), "'drop' leaves rows with a null out")
    _options.choice("nonfinite", nonfinite, ("raise", "drop"), "'drop' leaves NaN/±inf scores out")
    common = dict(y=y, yhat=yhat, score=score, proba=proba, group_cols=group_cols,
                  pos_label=pos_label, weight=weight, dialect=engine.dialect, **options)  # fmt: skip
    text = sqlgen.query(metric, table=table, **common)  # every option checked first
    cap = sqlgen.capability(metric)
    ref = sqlgen.table_ref(table)
    table_sql = ref.sql(dialect=engine.dialect, identify=True)
    roles, probability, per_class = sqlgen.roles_read(cap, y, yhat, score, proba, weight, options)
    by = [group_cols] if isinstance(group_cols, str) else list(group_cols)
    schema = engine.schema(table_sql)

    def present_y() -> list[Any]:
        return engine.column(_checks.classes_query(ref, y, engine.dialect))

    scored = per_class is None and any(_validate.is_score(r) for r in roles)
    binary_labels = "yhat" in roles and sqlgen.binary_labels(cap, options)
    check_pos = scored or binary_labels
    cast = _validate.check_schema(
        schema, roles, by, labels=None, pos_label=pos_label if check_pos else _validate.NOT_GIVEN,
        present=present_y,
    )  # fmt: skip
    plan = _validate.plan(
        schema, roles, cast=cast, missing=missing, nonfinite=nonfinite, probability=probability,
        grouped=bool(by), pos_label=pos_label if scored else _validate.NOT_GIVEN,
    )  # fmt: skip
    if probability and any(r.startswith("proba") for r in roles):  # the ranking score: any number
        plan = replace(plan, checks=[c for c in plan.checks if not (
            c.test == "outside01" and c.role.startswith("score"))])  # fmt: skip
    pos = _checks.literal(pos_label) if scored else None
    counts = engine.row(_checks.count_query(plan, schema, ref, engine.dialect, pos))
    counts = {k: (bool(v) if k in ("has_pos", "y_varies") else v) for k, v in counts.items()}
    _validate.raise_for(
        plan,
        counts,
        lambda i: engine.column(_checks.rows_query(plan, schema, ref, engine.dialect, i)),
        lambda: engine.column(_checks.present_query(plan, schema, ref, engine.dialect)),
    )
    if per_class is not None:
        _check_classes(engine, ref, plan, schema, y, per_class, probability)
    if binary_labels:
        both = sorted(set(present_y()) | set(_present(engine, ref, roles["yhat"])))
        _validate.check_pos_label(both, pos_label, average="binary", labels=None, y=y, dtype=cast)
    if missing == "raise" and nonfinite == "raise":
        return _typed(engine.frame(text), schema, by, weight is not None)
    view = f"_clf_kept_{secrets.token_hex(6)}"
    create, drop = _checks.kept_view(plan, schema, ref, engine.dialect, view)
    excluded = engine.frame(_checks.excluded_query(plan, schema, ref, engine.dialect, by))
    engine.execute(create)
    try:
        out = _typed(
            engine.frame(sqlgen.query(metric, table=view, **common)), schema, by, weight is not None
        )
    finally:
        engine.execute(drop)
    if cap not in _ONE_ROW:  # as the Polars frame functions: only per-group rows count them
        return out
    excluded = excluded.with_columns(pl.col("n_excluded").cast(pl.Int64))
    if not by:
        return out.insert_column(0, pl.repeat(excluded.item(0, 0), out.height, dtype=pl.Int64, eager=True)
                                 .alias("n_excluded"))  # fmt: skip
    joined = out.join(excluded, on=by, how="left", nulls_equal=True, maintain_order="left")
    return joined.select(*by, "n_excluded", *[c for c in out.columns if c not in by])


def _check_classes(
    engine: _Engine,
    ref: Any,
    plan: _validate.Plan,
    schema: pl.Schema,
    y: str,
    scores: dict[Any, str],
    probability: bool,
) -> None:
    """Per-class scores, as the Polars front door: every class of y has a column, and rows of
    probabilities sum to 1 (within 1e-6 per class)."""
    from clfeval.sqlgen import _checks

    present = engine.column(_checks.present_query(plan, schema, ref, engine.dialect))
    unknown = [c for c in present if c not in scores]
    if unknown:
        raise InputError(
            f"column {y!r} (y) holds {unknown[:10]!r}, which have no score column",
            column=y,
            role="y",
            rule="unknown_label",
            hint=f"the score columns cover {list(scores)!r}; add the missing classes",
        )
    if not probability:
        return
    tol = 1e-6 * len(scores)
    found = engine.row(
        _checks.sums_query(plan, schema, ref, engine.dialect, list(scores.values()), tol)
    )
    if found["n"]:
        raise proba_sum_error(list(scores.values()), found["n"], found["i"], found["s"], tol)


def _present(engine: _Engine, ref: Any, column: str) -> list[Any]:
    from clfeval.sqlgen import _checks

    return engine.column(_checks.classes_query(ref, column, engine.dialect))


_COUNTS = ("tp", "fp", "fn", "tn", "support", "count")


def _typed(out: pl.DataFrame, schema: pl.Schema, by: list[str], weighted: bool) -> pl.DataFrame:
    """The result in the front door's dtypes: group columns as in the table, counts Int64
    (Float64 weighted), labels as the engine returns them, every other number Float64."""
    exprs = []
    for name, dtype in out.schema.items():
        if name in by:
            exprs.append(pl.col(name).cast(schema[name]))
        elif name in _COUNTS:
            exprs.append(pl.col(name).cast(pl.Float64 if weighted else pl.Int64))
        elif name == "bin":
            exprs.append(pl.col(name).cast(pl.Int64))
        elif name in ("label", "actual", "predicted") or not dtype.is_numeric():
            exprs.append(pl.col(name))
        else:
            exprs.append(pl.col(name).cast(pl.Float64))
    return out.select(exprs)
