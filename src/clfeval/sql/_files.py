"""The checked-in SQL files and installing them into a DuckDB connection."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


# The oldest DuckDB the macro files are tested on (the command-line client that pip installs,
# duckdb-cli 1.5.6); as a storage version it lets that client open a file DuckDB 2 writes.
OLDEST_DUCKDB = "v1.5.0"


def sql_dir() -> Traversable:
    """The directory holding the ``NN_<family>.sql`` files.

    The installed wheel ships them as ``clfeval/sql_files``; a source checkout or an editable
    install reads ``<repo>/sql``.
    """
    packaged = resources.files("clfeval") / "sql_files"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "sql"


def files() -> list[Traversable]:
    """The SQL files in load order (sorted by name, so by their ``NN_`` prefix)."""
    return sorted((f for f in sql_dir().iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)


def text() -> str:
    """The whole SQL script: every file in load order, as ``cat sql/*.sql`` would give it.

    Examples
    --------
    >>> "CREATE OR REPLACE MACRO clf_roc_curve" in text()
    True
    """
    return "\n".join(f.read_text(encoding="utf-8") for f in files())


def load(con: duckdb.DuckDBPyConnection) -> None:
    """Install every clfeval macro into ``con`` (``CREATE OR REPLACE``: loading twice is fine).

    Examples
    --------
    >>> con = duckdb.connect()
    >>> load(con)
    >>> con.sql("SELECT clf_accuracy(y, yhat) FROM (VALUES (1, 1), (0, 1)) t(y, yhat)").fetchall()
    [(0.5,)]
    """
    con.execute(text())


def connect(database: str = ":memory:", **kwargs: Any) -> duckdb.DuckDBPyConnection:
    """A new DuckDB connection (``duckdb.connect`` arguments) with the macros loaded."""
    con = duckdb.connect(database, **kwargs)
    load(con)
    return con


def quote(name: str) -> str:
    """``name`` as a quoted SQL identifier (``"`` doubled), for table names with dots or quotes.

    Examples
    --------
    >>> quote('my "odd" table')
    '"my ""odd"" table"'
    """
    return '"' + name.replace('"', '""') + '"'
