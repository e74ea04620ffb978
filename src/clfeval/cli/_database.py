"""Reading a DuckDB database: ``--db FILE`` (opened read-only) with ``--table NAME`` or
``--query SQL``.

``--table`` must name a table or view listed in the database's catalog; only then is it
read, through ``query_table(?)`` with the name quoted, so a file path given as a "table" is
never read. A view reads its files when it is queried, so relative paths in it resolve
against the current directory.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

import polars as pl

from clfeval.cli._errors import first_line, input_error
from clfeval.cli._paths import is_duckdb_file


def _catalog(con: Any) -> list[tuple[str, str, str, str]]:
    """(database, schema, name, kind) of every table and view of the database."""
    rows = con.execute(
        "SELECT database_name, schema_name, table_name, 'table' FROM duckdb_tables() "
        "WHERE NOT internal AND NOT temporary "
        "UNION ALL SELECT database_name, schema_name, view_name, 'view' FROM duckdb_views() "
        "WHERE NOT internal AND NOT temporary ORDER BY ALL"
    ).fetchall()
    return [tuple(r) for r in rows]


def _shown(entry: tuple[str, str, str, str]) -> str:
    _, schema, name, _ = entry
    return name if schema == "main" else f"{schema}.{name}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _identifier_parts(text: str) -> list[str] | None:
    """``s."a.b"`` -> ``["s", "a.b"]`` (dots outside double quotes separate the parts);
    None when the quotes are unbalanced, a part is empty or there are more than three.

    >>> _identifier_parts('main."a.b"')
    ['main', 'a.b']
    """
    parts, buf, quoted, i = [], "", False, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            if quoted and text[i + 1 : i + 2] == '"':
                buf += '"'
                i += 1
            else:
                quoted = not quoted
        elif ch == "." and not quoted:
            parts.append(buf)
            buf = ""
        else:
            buf += ch
        i += 1
    parts.append(buf)
    return None if quoted or not all(parts) or len(parts) > 3 else parts


def _find_table(
    text: str, catalog: list[tuple[str, str, str, str]]
) -> tuple[str, str, str, str] | None:
    """The catalog entry ``--table`` names, matched as DuckDB does (case-insensitively):
    ``name`` (schema main), ``schema.name`` or ``database.schema.name``."""
    low = text.lower()
    for entry in catalog:
        if _shown(entry).lower() == low:
            return entry
    parts = _identifier_parts(text)
    if parts is None:
        return None
    want = [p.lower() for p in parts]
    for entry in catalog:
        db, schema, name, _ = entry
        full = [db.lower(), schema.lower(), name.lower()]
        if len(want) == 1 and schema != "main":
            continue
        if full[-len(want) :] == want:
            return entry
    return None


# DuckDB types that Polars cannot hold (reading one would end the process); others reach
# the library, which names any that is not a label, score or weight
_UNREADABLE = {"interval", "union", "map", "bit"}


def _frame_of(rel: Any, roles: list[tuple[str, str]]) -> pl.LazyFrame:
    """The columns the report reads, checked by name and DuckDB type before any conversion
    (a column of a type Polars cannot hold would otherwise end the process)."""
    import duckdb

    from clfeval._validate import check_columns

    columns = dict(zip(rel.columns, rel.types))
    for role, column in roles:
        check_columns(pl.Schema(dict.fromkeys(columns, pl.Null)), {role: column})
        if columns[column].id in _UNREADABLE:
            raise input_error(
                f"column {column!r} ({role}) has the DuckDB type {columns[column]}, which is "
                "not a label, score or weight",
                role=role,
                column=column,
                hint="cast it in SQL (--query) to a number or text",
            )
    needed = list(dict.fromkeys(c for _, c in roles))
    return rel.select(*(duckdb.ColumnExpression(c) for c in needed)).pl(lazy=True)


def open_duckdb(
    args: argparse.Namespace, stack: list[Any], roles: list[tuple[str, str]]
) -> tuple[pl.LazyFrame, str]:
    import duckdb

    if args.db is not None:
        db = Path(args.db)
        if not args.db.strip():
            raise input_error("--db is empty", role="db", hint="pass a DuckDB database file")
        if not db.exists():
            raise input_error(
                f"database file {args.db!r} not found",
                role="db",
                hint=f"check the path (the current directory is {Path.cwd()})",
            )
        if db.is_dir() or not is_duckdb_file(db):
            raise input_error(
                f"{args.db!r} is not a DuckDB database file",
                role="db",
                hint="pass a DuckDB database file; read Parquet, CSV or NDJSON files as PATH",
            )
    try:
        con = duckdb.connect(args.db, read_only=True) if args.db else duckdb.connect()
    except duckdb.Error as err:
        raise input_error(
            f"cannot open {args.db!r} as a DuckDB database: {first_line(err)}",
            role="db",
            hint="pass a DuckDB database file that no other process holds open for writing",
        ) from None
    stack.append(con)
    if args.query is not None:
        try:
            rel = con.sql(args.query)  # the user's own SQL, run as given
        except duckdb.Error as err:
            raise input_error(
                f"--query failed: {first_line(err)}",
                role="query",
                hint="check the SQL" + (" (the database is opened read-only)" if args.db else ""),
            ) from None
        if rel is None:
            raise input_error(
                "--query returned no result set",
                role="query",
                hint="pass a SELECT (or FROM ...) query",
            )
        return _frame_of(rel, roles), "query"
    catalog = _catalog(con)
    entry = _find_table(args.table, catalog)
    if entry is None:
        shown = [_shown(e) for e in catalog]
        close = difflib.get_close_matches(args.table, shown, n=1, cutoff=0.5)
        hint = (
            f"the database has {shown[:20]}" if shown else "the database has no table or view"
        ) + (f"; did you mean {close[0]!r}?" if close else "")
        raise input_error(f"table {args.table!r} not found in {args.db!r}", role="table", hint=hint)
    db_name, schema, name, kind = entry
    qualified = ".".join(_quote(p) for p in (db_name, schema, name))
    try:  # a name from the catalog, quoted: query_table never sees a path
        rel = con.sql("FROM query_table(?)", params=[qualified])
    except duckdb.Error as err:
        hint = "check the table"
        if kind == "view":
            hint = (
                "a view reads its files when it is queried, and relative paths in it resolve "
                f"against the current directory ({Path.cwd()}); run clfeval where the view "
                "expects, or define the view with absolute paths"
            )
        raise input_error(
            f"cannot read {kind} {_shown(entry)!r} of {args.db!r}: {first_line(err)}",
            role="table",
            hint=hint,
        ) from None
    return _frame_of(rel, roles), f"{args.db}:{_shown(entry)}"
