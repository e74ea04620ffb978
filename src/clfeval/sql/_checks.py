"""The data checks of :mod:`clfeval._validate`, counted by DuckDB inside the database.

A table or view that DuckDB reads is never pulled into Python to be checked: the same
:class:`clfeval._validate.Plan` (built from the table's schema) is counted by one SQL
aggregate, and :func:`clfeval._validate.raise_for` turns the counts into the same
:class:`InputError` the Polars front door raises. Column names and the table name are bound
parameters (``COLUMNS([$c0])``, ``query_table($tbl)``); only fixed text reaches the SQL.
"""

from __future__ import annotations

import math
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl

from clfeval._validate import MAX_EXAMPLES, NOT_GIVEN, Check, Plan, raise_for
from clfeval.exceptions import InputError


def _sql(con: duckdb.DuckDBPyConnection, query: str, binds: dict[str, Any]) -> Any:
    """``con.execute`` (one bind; ``con.sql`` binds twice) with the binds the query names
    (DuckDB refuses unused parameters)."""
    used = {k: v for k, v in binds.items() if re.search(rf"\${k}\b", query)}
    return con.execute(query, used)


_POLARS_TYPES: dict[str, pl.DataType] = {
    "boolean": pl.Boolean(),
    "tinyint": pl.Int8(),
    "smallint": pl.Int16(),
    "integer": pl.Int32(),
    "bigint": pl.Int64(),
    "hugeint": pl.Int128(),
    "utinyint": pl.UInt8(),
    "usmallint": pl.UInt16(),
    "uinteger": pl.UInt32(),
    "ubigint": pl.UInt64(),
    "float": pl.Float32(),
    "double": pl.Float64(),
    "varchar": pl.String(),
    "null": pl.Null(),
    "date": pl.Date(),
    "timestamp": pl.Datetime(),
    "time": pl.Time(),
    "interval": pl.Duration(),
    "blob": pl.Binary(),
}


def _polars_type(t: Any) -> pl.DataType:
    """The Polars dtype standing for a DuckDB column type in the schema checks (which read
    kinds only: numbers, text, Enum, or something else, which they refuse by name)."""
    if t.id == "decimal":
        spec = dict(t.children)
        return pl.Decimal(spec["precision"], spec["scale"])
    if t.id == "enum":
        return pl.Enum(dict(t.children)["values"])
    if t.id == "list":
        return pl.List(pl.Float64)  # a list column: refused by name where a number is needed
    return _POLARS_TYPES.get(t.id, pl.Object())


def table_schema(con: duckdb.DuckDBPyConnection, table: str) -> pl.Schema:
    """The schema of a table, view or file DuckDB reads with ``query_table``, as Polars
    dtypes (no row is read; a type Polars cannot hold stands as the nearest Polars dtype,
    or ``Object``, which every check refuses)."""
    try:
        empty = con.sql("SELECT * FROM query_table($tbl) LIMIT 0", params={"tbl": table})
        columns, types = empty.columns, empty.types
    except duckdb.Error as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise InputError(
            f"table {table!r} cannot be read: {first}",
            role="data",
            rule="missing_table",
            hint="pass a table or view of this connection, or a file path",
        ) from err
    try:  # Arrow's own mapping, as a Polars frame of the same data would have
        return empty.pl().schema
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # a type Polars cannot hold (INTERVAL, UNION...): a panic
        return pl.Schema({n: _polars_type(t) for n, t in zip(columns, types)})


def classes_of(con: duckdb.DuckDBPyConnection, table: str, column: str) -> list[Any]:
    """The first ten sorted values of a column (for messages naming the classes)."""
    q = (
        "SELECT DISTINCT __clf_v FROM (SELECT COLUMNS([$c]) AS __clf_v FROM query_table($tbl)) "
        "WHERE __clf_v IS NOT NULL ORDER BY 1 LIMIT 10"
    )
    return [r[0] for r in con.sql(q, params={"tbl": table, "c": column}).fetchall()]


@dataclass(frozen=True)
class _Rows:
    """The checked columns under fixed aliases: ``WITH __clf_r AS (...)`` and its binds."""

    cte: str
    binds: dict[str, Any]
    alias: dict[str, str]  # user column -> fixed alias


def _rows(table: str, columns: Sequence[str], keep_all: bool = False) -> _Rows:
    alias = {c: f"__clf_c{i}" for i, c in enumerate(dict.fromkeys(columns))}
    picked = [f"COLUMNS([$c{i}]) AS {a}" for i, a in enumerate(alias.values())]
    rest = "*, " if keep_all else ""
    cte = f"WITH __clf_r AS (SELECT {rest}{', '.join(picked)} FROM query_table($tbl))"
    binds: dict[str, Any] = {"tbl": table} | {f"c{i}": c for i, c in enumerate(alias)}
    return _Rows(cte, binds, alias)


def _test(check: Check, a: str, dtype: pl.DataType) -> str:
    """The SQL twin of ``clfeval._validate._test`` on the aliased column ``a``."""
    if check.test == "null":
        if check.role in ("y", "yhat") and dtype.is_float():
            return f"({a} IS NULL OR isnan({a}))"
        return f"({a} IS NULL)"
    if check.test == "nan":
        return f"isnan({a})"
    if check.test == "inf":
        return f"isinf({a})"
    if check.test == "negative":
        return f"({a} < 0)"
    if check.test == "outside01":
        nan = f" AND NOT isnan({a})" if dtype.is_float() else ""
        return f"(({a} < 0 OR {a} > 1){nan})"
    if check.test == "fraction":
        return f"({a} <> round({a}) AND isfinite({a}))"
    assert check.test == "not_category"
    return f"({a} IS NOT NULL AND NOT list_contains($categories, CAST({a} AS VARCHAR)))"


def _missing(p: Plan, schema: pl.Schema) -> tuple[list[str], list[str]]:
    """What ``_validate._masks`` counts as a missing value: a null in any column read (the
    first list), a NaN in a float label column (the second)."""
    return list(p.roles.values()), [c for c in p.label_cols if schema[c].is_float()]


def _null_parts(p: Plan, schema: pl.Schema, alias: dict[str, str]) -> list[str]:
    """The missing-value tests, one SQL condition per column."""
    nulls, nans = _missing(p, schema)
    return [f"{alias[c]} IS NULL" for c in nulls] + [f"isnan({alias[c]})" for c in nans]


def _null_free(con: duckdb.DuckDBPyConnection, rows: _Rows, p: Plan, schema: pl.Schema) -> bool:
    """Whether no row misses a value: ``count(*) - count(c)`` per column, which DuckDB reads
    from its statistics on a table, and the NaN labels (a millisecond where the masks cost
    tens of milliseconds over 10M rows)."""
    a, (nulls, nans) = rows.alias, _missing(p, schema)
    items = [f"count(*) - count({a[c]})" for c in nulls]
    items += [f"coalesce(count_if(isnan({a[c]})), 0)" for c in nans]
    query = f"{rows.cte} SELECT {' + '.join(items)} FROM __clf_r"
    return _sql(con, query, rows.binds).fetchall()[0][0] == 0


def _masks(
    p: Plan, schema: pl.Schema, alias: dict[str, str], null_free: bool = False
) -> tuple[str, str, str]:
    """(null, nonfinite, keep) as SQL conditions, twins of ``_validate._masks``/``_keep``;
    with ``null_free`` (known to hold no missing value) the null mask is ``false``."""
    null = ["false"] if null_free else _null_parts(p, schema, alias)
    bad = [f"coalesce(NOT isfinite({alias[c]}), false)" for c in p.score_cols]
    null_sql = "(" + " OR ".join(null) + ")"
    bad_sql = "(" + (" OR ".join(bad) or "false") + ")"
    keep = f"NOT {null_sql}" + (f" AND NOT {bad_sql}" if p.nonfinite == "drop" else "")
    return null_sql, bad_sql, f"({keep})"


# The checks a column's smallest and largest value can clear: DuckDB sorts NaN above +inf, so
# a NaN shows as the largest value.
_BOUNDED = ("nan", "inf", "negative", "outside01")


def _cleared(test: str, lo: Any, hi: Any) -> bool:
    """Whether no row fails ``test`` when the column's non-null values span [lo, hi]."""
    if lo is None:  # no value
        return True
    if test == "nan":
        return not math.isnan(hi)
    if test == "inf":
        return math.isfinite(lo) and math.isfinite(hi)
    if test == "negative":
        return lo >= 0
    return lo >= 0 and hi <= 1  # outside01 (False on a NaN)


def _bounds(
    con: duckdb.DuckDBPyConnection,
    rows: _Rows,
    binds: dict[str, Any],
    p: Plan,
    schema: pl.Schema,
    common: list[str],
) -> dict[str, Any] | None:
    """The counts of :func:`scan` from one cheaper pass, or None when it cannot tell: with
    every column present and no row dropped, the smallest and largest value of each checked
    column clear its checks (a ``min``/``max`` costs a third of a ``count_if`` of the test)."""
    cols = list(dict.fromkeys(c.column for c in p.checks if c.test != "null"))
    if not all(c.test in ("null", *_BOUNDED) for c in p.checks) or not all(
        schema[c].is_numeric() and not schema[c].is_decimal() for c in cols
    ):
        return None
    a = rows.alias
    items = [f"min({a[c]}) AS lo_{j}, max({a[c]}) AS hi_{j}" for j, c in enumerate(cols)]
    result = _sql(con, f"{rows.cte} SELECT {', '.join(items + common)} FROM __clf_r", binds)
    found = dict(zip([d[0] for d in result.description], result.fetchall()[0]))
    counts = {k: v for k, v in found.items() if not k.startswith(("lo_", "hi_"))}
    for i, check in enumerate(p.checks):
        if check.test != "null":
            j = cols.index(check.column)
            lo, hi = found[f"lo_{j}"], found[f"hi_{j}"]
            if not _cleared(check.test, lo, hi):
                return None
            if check.test == "outside01":
                counts[f"lo{i}"], counts[f"hi{i}"] = lo, hi
        counts[f"n{i}"] = 0
    return counts


def scan(
    con: duckdb.DuckDBPyConnection,
    table: str,
    schema: pl.Schema,
    p: Plan,
    *,
    classes: bool = False,
) -> list[Any] | None:
    """Count every check of ``p`` in one query; raise the front door's error for the first
    problem; the sorted classes of y and yhat on the kept rows when ``classes``."""
    rows = _rows(table, list(p.roles.values()))
    a = rows.alias
    null_free = _null_free(con, rows, p, schema)  # then the masks below fold to constants
    null, _, keep = _masks(p, schema, a, null_free)
    binds = dict(rows.binds)
    tests = []
    for check in p.checks:
        scope = keep if check.after_drop else "true" if check.test == "null" else f"NOT {null}"
        tests.append(f"({_test(check, a[check.column], schema[check.column])} AND {scope})")
        if check.categories:
            binds["categories"] = list(check.categories)
    common = ["count(*) AS n_rows", f"coalesce(count_if({keep}), 0) AS n_kept"]
    if p.weight is not None:
        common.append(f"sum(CASE WHEN {keep} THEN CAST({a[p.weight]} AS DOUBLE) END) AS w_kept")
    y = a[p.label_cols[0]]
    if p.pos_label is not NOT_GIVEN:
        common.append(f"coalesce(count_if({keep} AND {y} = $pos), 0) > 0 AS has_pos")  # bool_or: 2x
        kept_y = f"CASE WHEN {keep} THEN {y} END"
        common.append(f"coalesce(min({kept_y}) <> max({kept_y}), false) AS y_varies")
        binds["pos"] = p.pos_label
    counts = None
    if null_free and p.nonfinite != "drop":  # every row kept: the bounds may clear the checks
        counts = _bounds(con, rows, binds, p, schema, common)
    if counts is None:
        # count_if of no rows is NULL in DuckDB: every count is coalesced to 0; a null check
        # counts 0 without a pass when the probe found no missing value
        items = [
            f"0 AS n{i}"
            if null_free and check.test == "null"
            else f"coalesce(count_if({t}), 0) AS n{i}"
            for i, (check, t) in enumerate(zip(p.checks, tests))
        ]
        for i, check in enumerate(p.checks):
            if check.test == "outside01":
                c = a[check.column]
                value = f"CASE WHEN {keep} AND NOT isnan({c}) THEN {c} END"
                items += [f"min({value}) AS lo{i}", f"max({value}) AS hi{i}"]
        result = _sql(con, f"{rows.cte} SELECT {', '.join(items + common)} FROM __clf_r", binds)
        counts = dict(zip([d[0] for d in result.description], result.fetchall()[0]))

    def rows_of(i: int) -> list[int]:
        numbered = "SELECT row_number() OVER () - 1 AS i, * FROM __clf_r"
        q = f"{rows.cte} SELECT i FROM ({numbered}) WHERE {tests[i]} ORDER BY i LIMIT {MAX_EXAMPLES}"
        return [r[0] for r in _sql(con, q, binds).fetchall()]

    def present() -> list[Any]:
        q = f"{rows.cte} SELECT DISTINCT {y} FROM __clf_r WHERE {keep} ORDER BY 1 LIMIT 10"
        return [r[0] for r in con.sql(q, params=rows.binds).fetchall()]

    raise_for(p, counts, rows_of, present)
    if not classes:
        return None
    both = ", ".join(a[c] for c in p.label_cols)
    q = (
        f"{rows.cte} SELECT DISTINCT v FROM (SELECT unnest([{both}]) AS v FROM __clf_r "
        f"WHERE {keep}) ORDER BY v"
    )
    return [r[0] for r in con.sql(q, params=rows.binds).fetchall()]


def kept_view(
    con: duckdb.DuckDBPyConnection, table: str, schema: pl.Schema, p: Plan, by: list[str]
) -> tuple[str, pl.DataFrame]:
    """A temporary view of the rows kept by ``missing="drop"``/``nonfinite="drop"``, and the
    rows left out per group (``by..., n_excluded``)."""
    rows = _rows(table, [*p.roles.values(), *by], keep_all=True)
    null, bad, _ = _masks(p, schema, rows.alias)
    drop = " OR ".join(
        part for part, on in ((null, p.missing == "drop"), (bad, p.nonfinite == "drop")) if on
    )
    hidden = ", ".join(rows.alias.values())
    name = f"__clf_kept_{secrets.token_hex(6)}"
    kept = con.sql(
        f"{rows.cte} SELECT * EXCLUDE ({hidden}) FROM __clf_r WHERE NOT ({drop})",
        params=rows.binds,
    )
    kept.create_view(name, replace=True)
    groups = ", ".join(rows.alias[c] for c in by)
    counted = f"CAST(count_if({drop}) AS BIGINT) AS n_excluded"
    if by:
        q = f"{rows.cte} SELECT {groups}, {counted} FROM __clf_r GROUP BY ALL ORDER BY ALL"
    else:
        q = f"{rows.cte} SELECT {counted} FROM __clf_r"
    excluded = con.sql(q, params=rows.binds).pl()
    excluded.columns = [*by, "n_excluded"]
    return name, excluded
