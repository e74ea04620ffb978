"""The ``clfeval`` command line: ``report``, ``sql`` and ``demo``.

``main(argv)`` returns the exit code: 0 on success, 2 on bad input (and on an unexpected
failure, reported as an internal error), 130 on Ctrl-C and 141 when the reader of standard
output went away (``clfeval sql | head``: the rest of the output is dropped quietly, like any
Unix tool killed by SIGPIPE). Every error is one line on stderr,
``clfeval: error: <message> (hint: <fix>)``, never a traceback (set ``CLFEVAL_DEBUG=1`` to
see the traceback of an internal error). When stderr is a terminal, the stages of the work
are printed there with the elapsed time.

Input is read lazily, only the columns the report needs: ``pl.scan_parquet`` /
``scan_csv`` / ``scan_ndjson``, or a DuckDB database opened read-only. CSV types are never
guessed: label and group columns are text, score and weight columns Float64, unless
``--schema`` says otherwise (``01`` and ``1`` are two classes). NDJSON keeps its JSON types
(a column that mixes JSON strings and numbers is refused, since Polars would turn the numbers
into text). ``--table`` must name a table or view listed in the database's catalog; only
then is it read, through ``query_table(?)`` with the name quoted, so a file path given as a
"table" is never read.

Output never lands on input: ``--html`` must end in ``.html``/``.htm``, must not be an input
file, and may replace only a page clfeval wrote (it carries
``<meta name="generator" content="clfeval">``); the page is written to a temporary file and
renamed, so a failure leaves the old file whole. ``sql --install`` writes only into a DuckDB
database file (``DUCK`` at byte 8) or a new path.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import difflib
import glob
import json
import math
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import polars as pl

__all__ = ["main"]

PROG = "clfeval"
FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".tsv": "csv",
    ".ndjson": "ndjson",
    ".jsonl": "ndjson",
}
SCHEMA_TYPES: dict[str, pl.DataType] = {
    "int": pl.Int64(),
    "float": pl.Float64(),
    "str": pl.String(),
    "bool": pl.Boolean(),
}
HTML_SUFFIXES = (".html", ".htm")
HTML_MARKER = b'<meta name="generator" content="clfeval">'
DUCKDB_MAGIC = (8, b"DUCK")  # a DuckDB database file: 8 checksum bytes, then "DUCK"
AVERAGES = ("binary", "micro", "macro", "weighted")
# the default metrics of clfeval.metrics that no average= changes, and its score metrics
UNAVERAGED = ("accuracy", "balanced_accuracy", "mcc")
AVERAGED = ("precision", "recall", "f1")
SCORE_METRICS = ("auroc", "average_precision", "log_loss", "brier")
CSV_COLUMNS = ("section", "row", "metric", "value")  # after the group columns


class _UsageError(Exception):
    """A command-line usage problem (from argparse, or a bad combination of options)."""

    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message, self.prog)


class _Progress:
    """``[1.2s] stage`` lines on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = bool(getattr(sys.stderr, "isatty", lambda: False)())
        self.start = time.perf_counter()

    def __call__(self, stage: str) -> None:
        if self.enabled:
            print(f"[{time.perf_counter() - self.start:.1f}s] {stage}", file=sys.stderr, flush=True)


class _Stdout:
    """Set when the reader of standard output went away (the rest is dropped quietly)."""

    closed = False


def _error(
    message: str, *, role: str | None = None, column: str | None = None, hint: str | None = None
) -> Exception:
    from clfeval.exceptions import InputError

    return InputError(message, role=role, column=column, rule="cli", hint=hint)


def _first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


# --- options ----------------------------------------------------------------------------------


def _split(values: Sequence[str] | None, flag: str) -> list[str]:
    """``--by a,b --by c`` -> ``["a", "b", "c"]``; an option given that names nothing is an
    error (``--by ''`` must not quietly mean "no groups")."""
    if values is None:
        return []
    out: list[str] = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip()]
    if not out:
        raise _error(
            f"{flag} {','.join(values)!r} names nothing",
            role=flag.lstrip("-"),
            hint=f"pass a comma-separated list after {flag}, or leave {flag} out",
        )
    return out


def _int_option(text: str, check: Callable[[Any], int]) -> int:
    """An integer option checked by the shared check of ``clfeval._options`` (one message on
    every surface); text that is not an integer reaches the check as text."""
    value: Any = text
    with contextlib.suppress(ValueError):
        value = int(text)
    return check(value)


def _digits(args: argparse.Namespace) -> int:
    from clfeval import _options

    if args.digits is None:
        return int(_options.DEFAULTS["digits"])
    return _int_option(args.digits, _options.digits)


def _average(text: str | None) -> str | None:
    from clfeval import _options

    if text is None:
        return None
    return str(_options.average(text, allowed=AVERAGES))


def _schema(args: argparse.Namespace) -> dict[str, pl.DataType]:
    """``--schema y=int,score=float`` -> ``{"y": Int64, "score": Float64}``."""
    out: dict[str, pl.DataType] = {}
    for item in _split(args.schema, "--schema"):
        column, eq, kind = item.rpartition("=")
        column, kind = column.strip(), kind.strip().lower()
        if not eq or not column:
            raise _error(
                f"--schema {item!r} is not COL=TYPE",
                role="schema",
                hint="e.g. --schema y=int,yhat=int (types: int, float, str, bool)",
            )
        if kind not in SCHEMA_TYPES:
            close = difflib.get_close_matches(kind, SCHEMA_TYPES, n=1)
            raise _error(
                f"--schema {item!r}: unknown type {kind!r}",
                role="schema",
                column=column,
                hint="the types are int, float, str and bool"
                + (f"; did you mean {close[0]!r}?" if close else ""),
            )
        if column in out and out[column] != SCHEMA_TYPES[kind]:
            raise _error(
                f"--schema gives column {column!r} two types",
                role="schema",
                column=column,
                hint="give each column one type",
            )
        out[column] = SCHEMA_TYPES[kind]
    return out


# --- paths: output never lands on input --------------------------------------------------------


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return a.resolve() == b.resolve()


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True


def _input_paths(args: argparse.Namespace) -> list[Path]:
    """Every existing file or directory the command reads (glob patterns expanded)."""
    paths: list[str] = []
    if getattr(args, "path", None):
        paths += glob.glob(args.path) if any(ch in args.path for ch in "*?[") else [args.path]
    if getattr(args, "db", None):
        paths.append(args.db)
    return [Path(p) for p in paths if os.path.lexists(p)]


def _is_clfeval_page(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return False
    return HTML_MARKER in head


def _check_page_path(
    out: str, inputs: Sequence[Path], flag: str = "--html", *, probe: bool = True
) -> Path:
    """Where an HTML page may be written: a .html/.htm name that is no input and is either
    new or a page clfeval wrote before."""
    if not out.strip():
        raise _error(
            f"{flag} is empty", role="html", hint=f"name the page, e.g. {flag} report.html"
        )
    path = Path(out)
    if path.suffix.lower() not in HTML_SUFFIXES:
        raise _error(
            f"{flag} {out!r} does not end in .html or .htm",
            role="html",
            hint="clfeval writes its page only to a .html or .htm name, so that it can never "
            f"overwrite a data file; e.g. {flag} {path.stem or 'report'}.html",
        )
    for src in inputs:
        if os.path.lexists(path) and _same_file(path, src):
            raise _error(
                f"{flag} {out!r} is the input {str(src)!r}: writing the page there would "
                "destroy the data",
                role="html",
                hint="choose another name for the page",
            )
        if src.is_dir() and _inside(path, src):
            raise _error(
                f"{flag} {out!r} is inside the input directory {str(src)!r}",
                role="html",
                hint="write the page outside the dataset, or the next read would meet it",
            )
    if os.path.lexists(path):
        if path.is_dir():
            raise _error(
                f"{flag} {out!r} is a directory", role="html", hint="name a file in it instead"
            )
        if not path.is_file():
            raise _error(
                f"{flag} {out!r} exists and is not a regular file",
                role="html",
                hint="choose another name for the page",
            )
        if not _is_clfeval_page(path):
            raise _error(
                f"{flag} {out!r} already exists and is not a page clfeval wrote, so it is "
                "left alone",
                role="html",
                hint='clfeval replaces only its own pages (they carry <meta name="generator" '
                'content="clfeval">); remove the file yourself or choose another name',
            )
    parent = path.parent
    if not parent.is_dir():
        raise _error(
            f"the directory {str(parent)!r} of {flag} {out!r} does not exist",
            role="html",
            hint="create it first, or write the page into an existing directory",
        )
    if probe:  # fail now, not after the work: create (and remove) the temporary file
        tmp = _temporary(path)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except OSError as err:
            raise _error(
                f"cannot write {flag} {out!r}: {err.strerror or err}",
                role="html",
                hint="check that the directory is writable and the name not too long",
            ) from None
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _write_page(path: Path, page: str, flag: str = "--html") -> Path:
    """Write ``page`` to a temporary file beside ``path``, then rename it over ``path``: a
    failure (disk full, interrupted) leaves whatever was at ``path`` whole."""
    tmp = _temporary(path)
    created = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        created = True
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, path)
    except OSError as err:
        if created:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise _error(
            f"cannot write {flag} {str(path)!r}: {err.strerror or err}",
            role="html",
            hint="check that the directory is writable and the disk has room",
        ) from None
    return path


def _check_stdout(inputs: Sequence[Path]) -> None:
    """``clfeval report p.csv ... >> p.csv`` would write the report into the data."""
    try:
        out = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for src in inputs:
        with contextlib.suppress(OSError):
            if os.path.samestat(out, os.stat(src)):
                raise _error(
                    f"standard output is the input file {str(src)!r}",
                    role="path",
                    hint="redirect the output to another file (a '>' redirection has already "
                    "emptied the input)",
                )


def _is_duckdb_file(path: Path) -> bool:
    offset, magic = DUCKDB_MAGIC
    try:
        with open(path, "rb") as f:
            head = f.read(offset + len(magic))
    except OSError:
        return False
    return head[offset:] == magic


# --- reading ----------------------------------------------------------------------------------


def _roles(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(role, column) for every column the report reads, in a stable order."""
    roles = [("y", args.y), ("yhat", args.yhat)]
    roles += [("score", c) for c in _score_cols(args)]
    if args.weight is not None:
        roles.append(("weight", args.weight))
    roles += [("by", c) for c in _split(args.by, "--by")]
    return roles


def _score_cols(args: argparse.Namespace) -> list[str]:
    if args.score is not None:
        return [args.score]
    return _split(args.proba, "--proba")


def _file_format(path: str, override: str | None) -> str:
    if override:
        return override
    suffixes = [s.lower() for s in Path(path).suffixes if s.lower() not in (".gz", ".zst")]
    fmt = FORMATS.get(suffixes[-1]) if suffixes else None
    if fmt is None:
        raise _error(
            f"cannot tell the format of {path!r} from its name",
            role="path",
            hint="name it .parquet, .csv or .ndjson, or pass --input-format",
        )
    return fmt


def _unknown_schema_columns(
    schema: dict[str, pl.DataType], names: Sequence[str], path: str
) -> None:
    for column in schema:
        if column not in names:
            close = difflib.get_close_matches(column, names, n=1, cutoff=0.5)
            raise _error(
                f"--schema names column {column!r}, which {path!r} does not have",
                role="schema",
                column=column,
                hint=(f"did you mean {close[0]!r}? " if close else "")
                + f"the columns are {list(names)[:20]}",
            )


def _scan_file(
    path: str, fmt: str, roles: list[tuple[str, str]], schema: dict[str, pl.DataType]
) -> pl.LazyFrame:
    """A lazy scan whose types are never guessed from the first rows.

    CSV: every column is text, except the score and weight columns (Float64) and what
    ``--schema`` says. NDJSON: the JSON types (inferred from every row), scores and weights
    Float64. Parquet: its own types.
    """
    if any(ch in path for ch in "*?["):
        if not glob.glob(path, recursive=True):
            raise _error(
                f"no file matches {path!r}",
                role="path",
                hint=f"check the pattern (the current directory is {Path.cwd()})",
            )
    elif not os.path.exists(path):
        raise _error(
            f"file {path!r} not found",
            role="path",
            hint=f"check the path (the current directory is {Path.cwd()})",
        )
    if Path(path).is_dir() and fmt != "parquet":
        raise _error(f"{path!r} is a directory", role="path", hint="pass a file")
    if Path(path).is_dir() and not any(p.is_file() for p in Path(path).rglob("*")):
        raise _error(f"{path!r} is a directory with no files", role="path", hint="pass a file")
    if Path(path).is_file() and Path(path).stat().st_size == 0:
        raise _error(f"{path!r} is empty", role="path", hint="pass a file with a header and rows")
    floats: dict[str, pl.DataType] = {c: pl.Float64() for r, c in roles if r in ("score", "weight")}
    if fmt == "parquet":
        if schema:
            raise _error(
                "--schema applies to CSV and NDJSON input; Parquet columns keep their own types",
                role="schema",
                hint='cast in SQL instead: --query "SELECT CAST(y AS BIGINT) AS y, ... FROM '
                "read_parquet('...')\"",
            )
        return pl.scan_parquet(path)
    if fmt == "ndjson":
        if schema:
            names = pl.scan_ndjson(path, infer_schema_length=None).collect_schema().names()
            _unknown_schema_columns(schema, names, path)
        return pl.scan_ndjson(path, infer_schema_length=None, schema_overrides={**floats, **schema})
    try:
        names = _csv_names(path)
    except pl.exceptions.NoDataError:
        raise _error(
            f"{path!r} is empty", role="path", hint="pass a CSV file with a header row"
        ) from None
    _unknown_schema_columns(schema, names, path)
    overrides = {c: t for c, t in {**floats, **schema}.items() if c in names}
    return _scan_csv(path, overrides)


def _separator(path: str) -> str:
    return "\t" if path.lower().endswith((".tsv", ".tsv.gz")) else ","


def _csv_names(path: str) -> list[str]:
    """The header's column names. Polars 2.1 keeps a doubled quote of a quoted header
    (``"ya""hat"`` is read as ``ya""hat``), so a plain file's header is read with the csv
    module when the two differ."""
    sep = _separator(path)
    names = pl.scan_csv(path, separator=sep, infer_schema=False).collect_schema().names()
    if any(ch in path for ch in "*?[") or path.lower().endswith((".gz", ".zst")):
        return names
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            header = next(csv.reader(f, delimiter=sep), None)
    except (OSError, UnicodeDecodeError, csv.Error):
        return names
    if header is None or len(header) != len(names) or len(set(header)) != len(header):
        return names
    if all(h == n or h == n.replace('""', '"') for h, n in zip(header, names)):
        return header
    return names


def _scan_csv(path: str, overrides: dict[str, pl.DataType]) -> pl.LazyFrame:
    """Every column as text, except ``overrides``: no type is guessed."""
    names = _csv_names(path)
    polars_names = pl.scan_csv(path, separator=_separator(path), infer_schema=False)
    renamed = names != polars_names.collect_schema().names()
    return pl.scan_csv(
        path,
        separator=_separator(path),
        infer_schema=False,
        schema_overrides=overrides,
        new_columns=names if renamed else None,
    )


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
    """``s."a.b"`` -> ``["s", "a.b"]`` (dots outside double quotes separate the parts)."""
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


def _open_duckdb(args: argparse.Namespace, stack: list[Any]) -> tuple[pl.LazyFrame, str]:
    import duckdb

    if args.db is not None:
        db = Path(args.db)
        if not args.db.strip():
            raise _error("--db is empty", role="db", hint="pass a DuckDB database file")
        if not db.exists():
            raise _error(
                f"database file {args.db!r} not found",
                role="db",
                hint=f"check the path (the current directory is {Path.cwd()})",
            )
        if db.is_dir() or not _is_duckdb_file(db):
            raise _error(
                f"{args.db!r} is not a DuckDB database file",
                role="db",
                hint="pass a DuckDB database file; read Parquet, CSV or NDJSON files as PATH",
            )
    try:
        con = duckdb.connect(args.db, read_only=True) if args.db else duckdb.connect()
    except duckdb.Error as err:
        raise _error(
            f"cannot open {args.db!r} as a DuckDB database: {_first_line(err)}",
            role="db",
            hint="pass a DuckDB database file that no other process holds open for writing",
        ) from None
    stack.append(con)
    if args.query is not None:
        try:
            rel = con.sql(args.query)  # the user's own SQL, run as given
        except duckdb.Error as err:
            raise _error(
                f"--query failed: {_first_line(err)}",
                role="query",
                hint="check the SQL" + (" (the database is opened read-only)" if args.db else ""),
            ) from None
        if rel is None:
            raise _error(
                "--query returned no result set",
                role="query",
                hint="pass a SELECT (or FROM ...) query",
            )
        return rel.pl(lazy=True), "query"
    catalog = _catalog(con)
    entry = _find_table(args.table, catalog)
    if entry is None:
        shown = [_shown(e) for e in catalog]
        close = difflib.get_close_matches(args.table, shown, n=1, cutoff=0.5)
        hint = (
            f"the database has {shown[:20]}" if shown else "the database has no table or view"
        ) + (f"; did you mean {close[0]!r}?" if close else "")
        raise _error(
            f"table {args.table!r} not found in {args.db!r}", role="table", hint=hint
        ) from None
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
        raise _error(
            f"cannot read {kind} {_shown(entry)!r} of {args.db!r}: {_first_line(err)}",
            role="table",
            hint=hint,
        ) from None
    return rel.pl(lazy=True), f"{args.db}:{_shown(entry)}"


_JSON_KINDS = {
    "VARCHAR": "string",
    "BIGINT": "number",
    "UBIGINT": "number",
    "DOUBLE": "number",
    "BOOLEAN": "boolean",
    "ARRAY": "array",
    "OBJECT": "object",
}


def _json_kinds(path: str, column: str) -> dict[str, tuple[int, str]]:
    """JSON kind -> (count, an example) of ``column`` in an NDJSON file (nulls left out)."""
    import duckdb

    pointer = "/" + column.replace("~", "~0").replace("/", "~1")
    with duckdb.connect() as con:
        rows = con.execute(
            "SELECT json_type(json, $p) AS t, count(*), min(json_extract(json, $p)::VARCHAR) "
            "FROM read_ndjson_objects($f) WHERE t IS NOT NULL AND t <> 'NULL' GROUP BY t",
            {"p": pointer, "f": path},
        ).fetchall()
    out: dict[str, tuple[int, str]] = {}
    for kind, n, example in rows:
        name = _JSON_KINDS.get(kind, str(kind).lower())
        count, first = out.get(name, (0, example))
        out[name] = (count + n, first)
    return out


def _mixed_json(path: str, roles: Sequence[tuple[str, str]]) -> Exception | None:
    """The error for the first column whose JSON values are of different kinds, if any."""
    for role, column in roles:
        try:
            kinds = _json_kinds(path, column)
        except Exception:  # the diagnosis is best effort
            continue
        want = "number" if role in ("score", "weight") else None
        if len(kinds) > 1 or (want is not None and kinds and set(kinds) != {want}):
            shown = ", ".join(f"{n} {kind}(s) such as {ex}" for kind, (n, ex) in kinds.items())
            hint = "write every value of a label or group column with one JSON type (all "
            hint += "strings, or all numbers): clfeval does not convert between them"
            if want is not None:
                hint = "scores and weights must be JSON numbers (null for missing)"
            return _error(
                f"column {column!r} ({role}) of {path!r} holds {shown}",
                role=role,
                column=column,
                hint=hint,
            )
    return None


def _parse_error(
    err: Exception,
    path: str,
    fmt: str,
    roles: list[tuple[str, str]],
    schema: dict[str, pl.DataType],
) -> Exception:
    """A parse error of the reader -> one line naming the column, its role and the bad values."""
    text = str(err)
    m = re.search(r"could not parse `(.*?)` as dtype `(.*?)` at column '(.*?)'", text)
    if fmt == "ndjson":
        mixed = _mixed_json(path, roles)
        if mixed is not None:
            return mixed
    if m is None:
        return _error(
            f"cannot read {path!r}: {_first_line(err)}",
            role="path",
            hint="check that the file is complete and in the format its name says",
        )
    value, dtype, column = m.groups()
    if dtype == "f64":  # a column with two roles is read as Float64 for its score role
        roles = sorted(roles, key=lambda rc: rc[0] not in ("score", "weight"))
    role = next((r for r, c in roles if c == column), "column")
    target: pl.DataType = {"f64": pl.Float64(), "i64": pl.Int64(), "bool": pl.Boolean()}.get(
        dtype, pl.Float64()
    )
    kind = {pl.Float64: "numbers", pl.Int64: "integers", pl.Boolean: "true or false"}[type(target)]
    examples = f"{value!r}, which is not {'a number' if kind == 'numbers' else kind}"
    try:  # find the rows, reading the column as text (only to show them, never to use them)
        raw = _scan_csv(path, {}).select(column)
        raw = raw.with_row_index("row")
        col = pl.col(column)
        if target == pl.Boolean:
            bad_value = ~col.str.to_lowercase().is_in(["true", "false"])
        else:
            bad_value = col.cast(target, strict=False).is_null()
        bad = raw.filter(col.is_not_null() & bad_value).collect()
        if bad.height:
            shown = ", ".join(f"{v!r} (row {i})" for i, v in bad.head(3).iter_rows())
            examples = f"{bad.height} value(s) that are not {kind}: {shown}"
    except Exception:  # the diagnosis is best effort: the parse error is reported anyway
        pass
    hint = (
        "scores, probabilities and weights are read as Float64; write missing values as "
        "empty fields (then --missing drop leaves them out) or fix the values"
    )
    if column in schema:
        hint = (
            f"--schema reads {column!r} as {schema[column]}; fix the value, or leave the column "
            "out of --schema (labels and groups are read as text)"
        )
    return _error(
        f"column {column!r} ({role}) holds {examples}", role=role, column=column, hint=hint
    )


def _read(
    args: argparse.Namespace,
    progress: _Progress,
    stack: list[Any],
    schema: dict[str, pl.DataType],
) -> tuple[pl.DataFrame, str]:
    """The needed columns as a DataFrame (read lazily: only those columns are scanned)."""
    import duckdb

    from clfeval._validate import check_columns

    roles = _roles(args)
    fmt = None
    name = args.db if args.db is not None else "query"
    if args.path is not None:
        if not args.path.strip():
            raise _error("PATH is empty", role="path", hint="pass a .parquet, .csv or .ndjson file")
        fmt = _file_format(args.path, args.input_format)
        name = args.path
    elif schema:
        raise _error(
            "--schema applies to CSV and NDJSON input; DuckDB columns keep their own types",
            role="schema",
            hint='cast in SQL instead: --query "SELECT CAST(y AS BIGINT) AS y, ... FROM t"',
        )
    try:
        if args.path is not None:
            assert fmt is not None
            lf = _scan_file(args.path, fmt, roles, schema)
        else:
            lf, name = _open_duckdb(args, stack)
        file_schema = lf.collect_schema()
    except (pl.exceptions.PolarsError, duckdb.Error) as err:
        if isinstance(err, pl.exceptions.NoDataError):
            raise _error(f"{name!r} is empty", role="path", hint="pass a file with rows") from None
        if fmt == "ndjson":
            raise _parse_error(err, name, fmt, roles, schema) from None
        raise _error(
            f"cannot read {name!r}: {_first_line(err)}",
            role="path",
            hint="check that the file is complete and in the format its name says",
        ) from None
    for role, column in roles:
        check_columns(file_schema, {role: column})
    needed = list(dict.fromkeys(c for _, c in roles))
    try:
        df = lf.select(needed).collect()
    except (pl.exceptions.PolarsError, duckdb.Error) as err:
        if fmt is None:
            raise _error(
                f"cannot read {name!r}: {_first_line(err)}",
                role="table" if args.table is not None else "query",
                hint="check the table or query",
            ) from None
        raise _parse_error(err, name, fmt, roles, schema) from None
    if fmt == "ndjson":
        text_roles = [(r, c) for r, c in roles if df.schema[c] == pl.String and c not in schema]
        mixed = _mixed_json(name, text_roles) if text_roles else None
        if mixed is not None:
            raise mixed
    decimals = [
        c for r, c in roles if r in ("score", "weight") and isinstance(df.schema[c], pl.Decimal)
    ]
    if decimals:  # DuckDB DECIMAL columns: scores and weights are computed in Float64
        df = df.with_columns(pl.col(decimals).cast(pl.Float64))
    progress(f"read {name} ({df.height:,} rows)")
    return df, name


# --- labels -----------------------------------------------------------------------------------


def _parse_label(text: str, dtype: pl.DataType, flag: str, y: str) -> Any:
    """A label given on the command line, as a value of ``y``'s type (never guessed)."""
    if dtype == pl.Boolean:
        low = text.strip().lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise _error(
            f"{flag} {text!r} is not a boolean, but column {y!r} (y) is {dtype}",
            role=flag.lstrip("-"),
            column=y,
            hint="pass true or false",
        )
    if dtype.is_integer() or dtype.is_float():
        try:
            return int(text.strip())
        except ValueError:
            raise _error(
                f"{flag} {text!r} is not an integer, but column {y!r} (y) is {dtype}",
                role=flag.lstrip("-"),
                column=y,
                hint="pass one of the column's values, e.g. 1",
            ) from None
    return text


def _classes(df: pl.DataFrame, y: str, yhat: str) -> list[Any]:
    """The sorted classes present in ``y`` and ``yhat`` (an Enum sorts in its own order)."""
    both = df.select(pl.col(y).alias("c")), df.select(pl.col(yhat).alias("c"))
    try:
        values = pl.concat(both, how="vertical_relaxed")["c"]
    except pl.exceptions.PolarsError:  # e.g. String and Enum: compare as text
        values = pl.concat([f.cast(pl.String) for f in both])["c"]
    if values.dtype.is_float():
        values = values.filter(values.is_not_nan())
    return values.drop_nulls().unique().sort().to_list()


def _check_pos_label(pos_label: Any, df: pl.DataFrame, y: str, yhat: str) -> None:
    classes = _classes(df, y, yhat)
    if pos_label not in classes:
        raise _error(
            f"--pos-label {pos_label!r} is not a class of {y!r}; the classes are {classes[:10]!r}",
            role="pos_label",
            column=y,
            hint="pass one of the classes as --pos-label",
        )


# --- report -----------------------------------------------------------------------------------

_CHOICE_FLAGS = ("missing", "nonfinite")
_VALUE_FLAGS = ("pos_label", "digits", "average", "labels", *_CHOICE_FLAGS)


def _cli_hint(text: str | None) -> str | None:
    """Say the command-line flag where the library's message or hint names the Python
    argument: ``average='macro', 'micro', 'weighted' or None`` -> ``--average macro, micro
    or weighted``, ``missing='drop'`` -> ``--missing drop``, ``pos_label=2`` ->
    ``--pos-label 2``."""
    if text is None:
        return None

    def averages(m: re.Match[str]) -> str:
        names = re.findall(r"'([^']*)'", m.group(0))
        ours = [n for n in names if n in AVERAGES]
        if not ours or len(ours) != len(names):
            return f"--average {m.group(0).split('=', 1)[1]}"
        listed = ours[0] if len(ours) == 1 else ", ".join(ours[:-1]) + " or " + ours[-1]
        return f"--average {listed}"

    text = re.sub(
        r"(?<![\w-])average='[^']*'(?:(?:, | or )'[^']*')*(?:,? or None)?", averages, text
    )
    for name in _CHOICE_FLAGS:
        text = re.sub(rf"(?<![\w-]){name}='(\w+)'", rf"--{name} \1", text)
    for name in _VALUE_FLAGS:
        flag = "--" + name.replace("_", "-")
        text = re.sub(rf"(?<![\w-]){name}=(?=\S)", flag + " ", text)
        text = re.sub(rf"(?<![\w-]){name}=", flag, text)
    return text


def _report_kwargs(args: argparse.Namespace, df: pl.DataFrame) -> dict[str, Any]:
    y, yhat = args.y, args.yhat
    dtype = df.schema[y]
    given = _split(args.labels, "--labels") if args.labels is not None else []
    labels = [_parse_label(v, dtype, "--labels", y) for v in given] or None
    scores = _score_cols(args)
    if len(scores) > 1 and (labels is None or len(labels) != len(scores)):
        raise _error(
            f"--proba has {len(scores)} columns, so --labels must name their "
            f"{len(scores)} classes in the same order",
            role="labels",
            hint="e.g. --proba p_low,p_mid,p_high --labels low,mid,high",
        )
    kw: dict[str, Any] = {
        "score": None if not scores else scores[0] if len(scores) == 1 else scores,
        "labels": labels,
        "by": _split(args.by, "--by") or None,
        "weight": args.weight,
    }
    if args.pos_label is not None:
        kw["pos_label"] = _parse_label(args.pos_label, dtype, "--pos-label", y)
        _check_pos_label(kw["pos_label"], df, y, yhat)
    else:  # the library's default 1, in y's type: 1, "1" for text labels, True for booleans
        from clfeval import _options

        default = str(_options.DEFAULTS["pos_label"])
        kw["pos_label"] = _parse_label(default, dtype, "--pos-label", y)
    return kw


def _kept(df: pl.DataFrame, args: argparse.Namespace) -> pl.DataFrame:
    """The rows the report evaluates with ``--missing drop`` / ``--nonfinite drop``."""
    cols = [c for r, c in _roles(args) if r != "by"]
    drop = pl.lit(False)
    if args.missing == "drop":
        drop = drop | pl.any_horizontal([pl.col(c).is_null() for c in cols])
        for c in (args.y, args.yhat):
            if df.schema[c].is_float():
                drop = drop | pl.col(c).is_nan().fill_null(False)
    if args.nonfinite == "drop":
        for c in _score_cols(args):
            if df.schema[c].is_float():
                drop = drop | ~pl.col(c).is_finite().fill_null(True)
    return df.filter(~drop)


def _html_writer() -> Callable[..., Any]:
    import clfeval

    report_html = getattr(clfeval, "report_html", None)
    if report_html is None:
        raise _error(
            "this clfeval cannot write HTML reports (no clfeval.report_html)",
            role="html",
            hint="upgrade clfeval, or leave out --html",
        )
    return report_html  # type: ignore[no-any-return]


def _html_page(df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any], title: str) -> str:
    return str(
        _html_writer()(
            _kept(df, args),
            args.y,
            args.yhat,
            score=kw["score"],
            by=kw["by"],
            weight=kw["weight"],
            labels=kw["labels"],
            pos_label=kw["pos_label"],
            digits=_digits(args),
            title=title,
        )
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def _metrics(
    df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any], average: str | None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """``clfeval.metrics`` with ``--average`` (default ``binary``, the library's default).

    Without ``--average``, when the binary metrics cannot be computed (more than two classes,
    or the default positive class is not one of two), precision, recall and F1 are left out
    and the head says so in ``note``, rather than another average being picked silently.
    """
    import clfeval as ce
    from clfeval import _options

    pos = kw["pos_label"]
    names: list[str] | None = None
    note = None
    chosen = average or str(_options.DEFAULTS["average"])
    if average is None:
        classes = _classes(_kept(df, args), args.y, args.yhat)
        if len(classes) > 2:
            note = (
                f"y and yhat have {len(classes)} classes, so precision, recall and f1 are left "
                "out: their default average is binary; pass --average macro, micro or weighted"
            )
        elif len(classes) == 2 and pos not in classes:
            note = (
                f"the positive class {pos!r} (the default --pos-label) is not one of the "
                f"classes {classes!r}, so precision, recall and f1 are left out; pass "
                "--pos-label with the positive class, or --average macro, micro or weighted"
            )
        if note is not None:
            names = [*UNAVERAGED, *(SCORE_METRICS if kw["score"] is not None else ())]
            chosen = None
    frame = ce.metrics(
        df,
        args.y,
        args.yhat,
        score=kw["score"],
        metrics=names,
        average=chosen or "binary",
        pos_label=pos,
        labels=kw["labels"],
        by=kw["by"],
        weight=kw["weight"],
        missing=args.missing,
        nonfinite=args.nonfinite,
    )
    assert isinstance(frame, pl.DataFrame)
    head: dict[str, Any] = {"average": chosen}
    if chosen == "binary" or isinstance(kw["score"], str):
        head["pos_label"] = pos
    if note is not None:
        head["note"] = note
    return frame.drop("n_excluded", strict=False), head


def _groups(
    rep: Any, frame: pl.DataFrame, by: list[str]
) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """(group key, {"report", "metrics", "baselines", "n_excluded"}) per group, in the
    report's order (one group with the key () when ungrouped)."""

    def key_of(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(row[c] for c in by)

    metrics = {
        key_of(r): {k: v for k, v in r.items() if k not in by} for r in frame.iter_rows(named=True)
    }
    baselines: dict[tuple[Any, ...], dict[str, Any]] = {}
    if rep.baselines is not None:
        for r in rep.baselines.iter_rows(named=True):
            baselines.setdefault(key_of(r), {})[r["strategy"]] = {
                k: v for k, v in r.items() if k not in (*by, "strategy")
            }
    excluded: dict[tuple[Any, ...], Any] = {}
    if isinstance(rep.n_excluded, pl.DataFrame):
        excluded = {key_of(r): r["n_excluded"] for r in rep.n_excluded.iter_rows(named=True)}
    elif rep.n_excluded is not None:
        excluded = {(): rep.n_excluded}
    reports = rep.to_dict()
    if not by:
        reports = {(): reports}
    out = []
    for key, d in reports.items():
        kt = key if isinstance(key, tuple) and by else (key,) if by else ()
        part: dict[str, Any] = {"report": d, "metrics": metrics.get(kt, {})}
        if kt in baselines:
            part["baselines"] = baselines[kt]
        if kt in excluded:
            part["n_excluded"] = excluded[kt]
        out.append((kt, part))
    return out


def _json(
    groups: list[tuple[tuple[Any, ...], dict[str, Any]]], head: dict[str, Any], by: list[str]
) -> str:
    if not by:
        return json.dumps(_jsonable({**head, **groups[0][1]}), indent=2, allow_nan=False)
    parts = [{"group": dict(zip(by, key)), **part} for key, part in groups]
    return json.dumps(_jsonable({**head, "by": by, "groups": parts}), indent=2, allow_nan=False)


def _csv(
    groups: list[tuple[tuple[Any, ...], dict[str, Any]]],
    head: dict[str, Any],
    by: list[str],
    by_schema: dict[str, pl.DataType],
) -> str:
    """Everything the JSON carries as one tidy CSV: one row per number.

    Columns: the group columns, ``section`` (report, metrics, baselines), ``row``, ``metric``,
    ``value``. ``report``: row is the report's row (a class, accuracy, macro avg, weighted
    avg), metric its column (precision, recall, f1-score, support; accuracy's one number has
    metric accuracy). ``metrics``: precision, recall and f1 have as row the class they are
    about with ``--average binary`` (the positive class), else ``macro avg`` / ``micro avg`` /
    ``weighted avg``; the other metrics (and n_excluded) have an empty row. ``baselines``:
    row is the strategy.
    """
    average = head.get("average")
    averaged_row = None
    if average == "binary":
        averaged_row = str(_jsonable(head.get("pos_label")))
    elif average is not None:
        averaged_row = f"{average} avg"
    rows: list[tuple[Any, ...]] = []

    def add(key: tuple[Any, ...], section: str, row: str | None, metric: str, value: Any) -> None:
        number = None if value is None else float(value)
        if number is not None and not math.isfinite(number):
            number = None
        rows.append((*key, section, row, metric, number))

    for key, part in groups:
        for row, value in part["report"].items():
            if isinstance(value, dict):
                for metric, v in value.items():
                    add(key, "report", str(row), metric, v)
            else:
                add(key, "report", str(row), str(row), value)
        for metric, v in part["metrics"].items():
            add(key, "metrics", averaged_row if metric in AVERAGED else None, metric, v)
        if "n_excluded" in part:
            add(key, "metrics", None, "n_excluded", part["n_excluded"])
        for strategy, values in part.get("baselines", {}).items():
            for metric, v in values.items():
                add(key, "baselines", str(strategy), metric, v)
    kinds = (pl.String(), pl.String(), pl.String(), pl.Float64())
    schema = {**{c: by_schema[c] for c in by}, **dict(zip(CSV_COLUMNS, kinds))}
    return pl.DataFrame(rows, schema=schema, orient="row").write_csv()


def _emit(text: str) -> None:
    """Write to standard output; a reader that went away ends the output quietly."""
    if _Stdout.closed:
        return
    out = sys.stdout
    if out is None:
        raise _error(
            "standard output is closed", role="stdout", hint="run clfeval with a standard output"
        )
    try:
        out.write(text if text.endswith("\n") else text + "\n")
        out.flush()
    except BrokenPipeError:
        _silence_stdout()
    except UnicodeEncodeError as err:
        raise _error(
            f"standard output ({out.encoding}) cannot encode {err.object[err.start : err.end]!r}",
            role="stdout",
            hint="use a UTF-8 locale, or set PYTHONIOENCODING=utf-8",
        ) from None


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that no later flush (the interpreter's at
    exit included) meets the closed pipe again."""
    _Stdout.closed = True
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def _note(text: str) -> None:
    print(f"{PROG}: note: {_line(text)}", file=sys.stderr)


def _cmd_report(args: argparse.Namespace) -> int:
    import clfeval as ce

    sources = [args.path is not None, args.table is not None, args.query is not None]
    if sum(sources) != 1:
        if args.db is not None and not any(sources):
            raise _UsageError("--db needs --table NAME or --query SQL")
        raise _UsageError("give exactly one input: PATH, --db FILE --table NAME, or --query SQL")
    if args.table is not None and args.db is None:
        raise _UsageError("--table needs --db FILE")
    if args.db is not None and args.path is not None:
        raise _UsageError("--db goes with --table or --query, not with PATH")
    if args.score is not None and args.proba is not None:
        raise _UsageError("give --score or --proba, not both")
    average = _average(args.average)
    if average is not None and args.format == "text":
        raise _UsageError(
            "--average sets how --format json or csv averages precision, recall and f1; the "
            "text report shows every average"
        )
    digits = _digits(args)
    schema = _schema(args)
    if args.format == "csv" and args.by is not None:
        clash = [c for c in _split(args.by, "--by") if c in CSV_COLUMNS]
        if clash:
            raise _error(
                f"group column {clash[0]!r} has the name of a column of --format csv "
                f"({', '.join(CSV_COLUMNS)})",
                role="by",
                column=clash[0],
                hint="rename it in --query (SELECT ... AS another_name), or use --format json",
            )
    inputs = _input_paths(args)
    if args.html is not None:
        _html_writer()
        _check_page_path(args.html, inputs)  # fail before reading anything
    _check_stdout(inputs)
    progress = _Progress()
    stack: list[Any] = []
    try:
        df, name = _read(args, progress, stack, schema)
        kw = _report_kwargs(args, df)
        rep = ce.report(
            df,
            args.y,
            args.yhat,
            digits=digits,
            missing=args.missing,
            nonfinite=args.nonfinite,
            **kw,
        )
        progress("report")
        # everything is computed before anything is printed: an error leaves stdout empty
        head: dict[str, Any] = {}
        if args.format == "text":
            text = str(rep)
        else:
            frame, head = _metrics(df, args, kw, average)
            by = kw["by"] or []
            groups = _groups(rep, frame, by)
            if args.format == "json":
                text = _json(groups, head, by)
            else:
                text = _csv(groups, head, by, dict(df.schema))
        page = None
        if args.html is not None:
            page = _html_page(df, args, kw, f"Classification report: {name}")
            progress("html")
        _emit(text)
        if "note" in head:
            _note(head["note"])
        n_excluded = rep.n_excluded
        if isinstance(n_excluded, pl.DataFrame):
            n_excluded = int(n_excluded["n_excluded"].sum())
        if n_excluded:
            _note(f"{n_excluded} row(s) with missing or non-finite values were left out")
        if page is not None:
            # checked again: the file may have appeared meanwhile
            path = _write_page(_check_page_path(args.html, inputs, probe=False), page)
            print(f"{PROG}: wrote {path}", file=sys.stderr)
    finally:
        for con in stack:
            con.close()
    return 0


# --- sql --------------------------------------------------------------------------------------


def _sql_literal(text: str) -> Any:
    """``--pos-label`` for generated SQL: an integer, true/false, else text ('1' is text)."""
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1]
    if re.fullmatch(r"[+-]?\d+", text.strip()):
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _macro_names(text: str) -> set[str]:
    return {m.lower() for m in re.findall(r"CREATE\s+OR\s+REPLACE\s+MACRO\s+(clf_\w+)", text, re.I)}


def _install(target: str) -> int:
    """Load the macros into a DuckDB file (an existing DuckDB file, or a new path), then
    check that DuckDB lists them."""
    import duckdb

    from clfeval import sql

    if not target.strip() or target.strip().lower().startswith(":memory:"):
        raise _error(
            f"--install {target!r} is no database file: the macros would be lost when "
            "clfeval exits",
            role="install",
            hint="pass a DuckDB database file, or a new path to create one",
        )
    path = Path(target)
    new = not os.path.lexists(path)
    if not new:
        if path.is_dir():
            raise _error(f"--install {target!r} is a directory", role="install", hint="pass a file")
        if not _is_duckdb_file(path):
            raise _error(
                f"--install {target!r} exists and is not a DuckDB database file, so it is "
                "left alone",
                role="install",
                hint="pass a DuckDB database file, or a new path to create one (clfeval never "
                "writes into other files)",
            )
    elif not path.parent.is_dir():
        raise _error(
            f"the directory {str(path.parent)!r} of --install {target!r} does not exist",
            role="install",
            hint="create it first",
        )
    try:
        con = duckdb.connect(target)
    except duckdb.Error as err:
        raise _error(
            f"cannot open {target!r} as a DuckDB database: {_first_line(err)}",
            role="install",
            hint="close other programs that hold it open, and check the permissions",
        ) from None
    expected = _macro_names(sql.text())
    try:
        sql.load(con)
        found = {
            r[0].lower()
            for r in con.execute(
                "SELECT DISTINCT function_name FROM duckdb_functions() "
                "WHERE database_name = current_database() AND starts_with(function_name, 'clf_')"
            ).fetchall()
        }
    except duckdb.Error as err:
        raise _error(
            f"installing the macros into {target!r} failed: {_first_line(err)}",
            role="install",
            hint="check that the file is writable and made by this DuckDB version",
        ) from None
    finally:
        con.close()
    missing = sorted(expected - found)
    if missing or "clf_roc_curve" not in found:
        raise _error(
            f"after installing, {target!r} lacks {len(missing)} macro(s) such as "
            f"{(missing or ['clf_roc_curve'])[0]!r}",
            role="install",
            hint="this is a bug in clfeval or DuckDB; please report it",
        )
    print(
        f"installed {len(expected)} clfeval macros into {target}"
        + (" (a new database)" if new else "")
    )
    return 0


def _cmd_sql(args: argparse.Namespace) -> int:
    gen = {
        k: getattr(args, k)
        for k in (
            "table",
            "y",
            "yhat",
            "score",
            "proba",
            "weight",
            "group_cols",
            "dialect",
            "pos_label",
            "average",
        )
    }
    given = [f"--{k.replace('_', '-')}" for k, v in gen.items() if v is not None]
    if args.metric is None:
        if given:
            raise _UsageError(f"{', '.join(given)} only make sense with --metric")
        if args.install is not None:
            return _install(args.install)
        from clfeval import sql

        _emit(sql.text())
        return 0
    if args.install is not None:
        raise _UsageError("--install and --metric are separate uses of 'clfeval sql'")
    if args.table is None or args.y is None:
        raise _UsageError("--metric needs --table and --y")
    average = _average(args.average)
    if average is not None and args.metric != "metrics":
        raise _UsageError("--average goes with --metric metrics")
    try:
        import sqlglot  # noqa: F401
    except ImportError:
        raise _error(
            "clfeval sql --metric needs sqlglot, which is not installed",
            role="metric",
            hint="pip install 'clfeval[warehouse]'",
        ) from None
    from clfeval import _options, sqlgen

    kw: dict[str, Any] = {k: v for k, v in gen.items() if v is not None}
    kw["group_cols"] = (
        _split([args.group_cols], "--group-cols") if args.group_cols is not None else ()
    )
    if args.pos_label is not None:
        kw["pos_label"] = _sql_literal(args.pos_label)
    if args.metric == "metrics":
        kw["average"] = average or _options.DEFAULTS["average"]
    try:
        text = sqlgen.query(args.metric, **kw)
    except ImportError:
        raise _error(
            "clfeval sql --metric needs sqlglot, which cannot be imported",
            role="metric",
            hint="pip install 'clfeval[warehouse]'",
        ) from None
    _emit(text)
    return 0


# --- demo -------------------------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    import clfeval as ce
    from clfeval import datasets

    report_html = _html_writer()
    digits = _digits(args)
    out = args.html if args.html is not None else "clfeval-demo.html"
    path = _check_page_path(out, [])
    progress = _Progress()
    df = datasets.predictions()
    progress(f"generated clfeval.datasets.predictions() ({df.height:,} rows)")
    rep = ce.report(df, "y", "yhat", score="score", by="model", digits=digits)
    progress("report")
    _emit(str(rep))
    page = report_html(
        df,
        "y",
        "yhat",
        score="score",
        by="model",
        digits=digits,
        title="clfeval demo: two models, 20,000 cases",
    )
    _write_page(_check_page_path(out, [], probe=False), page)
    progress(f"html {path}")
    _emit(f"\nThe HTML report (charts included, opens offline) is in {path.resolve()}")
    return 0


# --- parser -----------------------------------------------------------------------------------


CSV_HELP = (
    "--format json prints average, pos_label, note (when the averaged metrics are left out), "
    "report (scikit-learn's output_dict), metrics, baselines (with --score) and n_excluded "
    "(with --missing/--nonfinite drop); with --by, by and one entry per group in groups. "
    "--format csv prints one tidy CSV with everything --format json carries, one row per "
    "number: the --by columns, section (report, metrics, baselines), row, metric, value. In "
    "'report', row is the report's row (a class, accuracy, macro avg, weighted avg) and metric "
    "its column (precision, recall, f1-score, support). In 'metrics', precision, recall and "
    "f1 have as row the positive class (--average binary) or 'macro avg' / 'micro avg' / "
    "'weighted avg'; the other metrics (accuracy, balanced_accuracy, mcc, auroc, "
    "average_precision, log_loss, brier, n_excluded) have an empty row. In 'baselines' "
    "(with --score), row is the constant predictor's strategy. An undefined value is empty."
)


def _parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        allow_abbrev=False,
        description="Evaluate classifiers where their predictions live.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser(
        "report",
        allow_abbrev=False,
        help="print a classification report of a file or table",
        description="Print a classification report (scikit-learn's layout) of predictions in "
        "a Parquet, CSV or NDJSON file, or in a DuckDB database. CSV label and group columns "
        "are read as text (01 and 1 are two classes) and score and weight columns as floats, "
        "unless --schema says otherwise; NDJSON and Parquet keep their own types.",
        epilog=CSV_HELP,
    )
    rep.add_argument("path", nargs="?", help="a .parquet, .csv or .ndjson file")
    rep.add_argument(
        "--input-format",
        choices=("parquet", "csv", "ndjson"),
        help="the file format when the name does not say it",
    )
    rep.add_argument("--db", help="a DuckDB database file (opened read-only)")
    rep.add_argument(
        "--table",
        help="a table or view of --db (schema.name for another schema); a view reads its "
        "files when queried, and relative paths in it resolve against the current directory",
    )
    rep.add_argument("--query", help="a SQL query whose result is evaluated (run as given)")
    rep.add_argument("--y", required=True, help="the column of true labels")
    rep.add_argument("--yhat", required=True, help="the column of predicted labels")
    rep.add_argument("--score", help="the score of the positive class (one column)")
    rep.add_argument(
        "--proba",
        action="append",
        help="probability column(s): one, or one per class with --labels",
    )
    rep.add_argument(
        "--labels", action="append", help="class order and subset, e.g. 1,0 (parsed as y's type)"
    )
    rep.add_argument("--by", action="append", help="group column(s): one report per group")
    rep.add_argument("--weight", help="a column of non-negative row weights")
    rep.add_argument(
        "--pos-label",
        help="the positive class, parsed as y's type; default 1 (the text '1' when the labels "
        "are text, true when they are booleans). Needed only by a binary --score and by "
        "--average binary",
    )
    rep.add_argument(
        "--average",
        help="how --format json/csv average precision, recall and f1: binary (default, the "
        "class --pos-label), micro, macro or weighted. When binary cannot apply (more than "
        "two classes, or the default positive class is not one of two) and no --average is "
        "given, they are left out and a note says so; no other average is picked for you",
    )
    rep.add_argument(
        "--schema",
        action="append",
        metavar="COL=TYPE",
        help="CSV/NDJSON column types, e.g. y=int,yhat=int (int, float, str, bool); repeatable",
    )
    rep.add_argument(
        "--missing",
        choices=("raise", "drop"),
        default="raise",
        help="rows with a null: an error (default) or left out and counted",
    )
    rep.add_argument(
        "--nonfinite",
        choices=("raise", "drop"),
        default="raise",
        help="NaN or infinite scores: an error (default) or left out and counted",
    )
    rep.add_argument("--digits", help="decimals shown, 0 to 15 (default 2)")
    rep.add_argument(
        "--format",
        choices=("text", "json", "csv"),
        default="text",
        help="text (scikit-learn's layout, the default), json or csv (see below)",
    )
    rep.add_argument(
        "--html",
        metavar="OUT",
        help="also write a standalone HTML report to OUT (.html or .htm; never an input, and "
        "an existing file only if clfeval wrote it)",
    )
    rep.set_defaults(run=_cmd_report)

    sq = sub.add_parser(
        "sql",
        allow_abbrev=False,
        help="print or install the SQL macros, or generate a query",
        description="Without options, print every clfeval DuckDB macro (the script "
        "'cat sql/*.sql' gives). --install DB loads them into a DuckDB file. --metric M "
        "--table T --y COL ... prints one portable SQL query for another engine (needs "
        "sqlglot: pip install 'clfeval[warehouse]').",
    )
    sq.add_argument(
        "--install",
        metavar="DB",
        help="load the macros into this DuckDB database file (a new path creates one; any "
        "other existing file is refused)",
    )
    sq.add_argument(
        "--metric",
        help="capability to generate: counts, confusion, report, "
        "metrics, thresholds, roc_curve, pr_curve, det_curve, auroc, "
        "average_precision, log_loss, brier, calibration",
    )
    sq.add_argument(
        "--dialect", help="duckdb (default), spark, bigquery, snowflake, trino, postgres"
    )
    sq.add_argument("--table", help="table name (dots separate schema and table)")
    sq.add_argument("--y")
    sq.add_argument("--yhat")
    sq.add_argument("--score")
    sq.add_argument("--proba")
    sq.add_argument("--weight")
    sq.add_argument("--group-cols", help="comma-separated group columns")
    sq.add_argument(
        "--average", help="with --metric metrics: binary (default), micro, macro or weighted"
    )
    sq.add_argument(
        "--pos-label",
        help="an integer, true/false, or text; quote text that looks like a number: \"'1'\"",
    )
    sq.set_defaults(run=_cmd_sql)

    demo = sub.add_parser(
        "demo",
        allow_abbrev=False,
        help="run a report on bundled example data",
        description="Report on clfeval.datasets.predictions() (two models, 20,000 cases) by "
        "model and write an HTML report (default clfeval-demo.html).",
    )
    demo.add_argument(
        "--html",
        metavar="OUT",
        help="where to write the HTML report (.html or .htm; an existing file only if clfeval "
        "wrote it)",
    )
    demo.add_argument("--digits", help="decimals shown, 0 to 15 (default 2)")
    demo.set_defaults(run=_cmd_demo)
    return parser


def _line(text: str, limit: int = 1000) -> str:
    """One line: whitespace collapsed, control characters escaped (a column name from a
    file must not drive the terminal), at most ``limit`` characters."""
    text = " ".join(str(text).split())
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fail(message: str, hint: str | None = None) -> int:
    line = f"{PROG}: error: {_line(message)}"
    if hint:
        line += f" (hint: {_line(hint)})"
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            try:
                print(line, file=sys.stderr, flush=True)
            except UnicodeEncodeError:
                print(line.encode("ascii", "backslashreplace").decode(), file=sys.stderr)
    return 2


def _run(argv: list[str] | None) -> int:
    import duckdb

    from clfeval.exceptions import InputError

    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as err:
        return _fail(str(err), f"see '{err.prog or PROG} --help'")
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        return int(args.run(args))
    except _UsageError as err:
        return _fail(str(err), f"see '{PROG} {args.command} --help'")
    except InputError as err:
        return _fail(_cli_hint(err.message) or "", _cli_hint(err.hint))
    except BrokenPipeError:
        raise
    except FileNotFoundError as err:
        return _fail(f"file not found: {err.filename or err}", "check the path")
    except OSError as err:
        return _fail(f"cannot read or write a file: {err}", "check the path and permissions")
    except pl.exceptions.PolarsError as err:
        return _fail(
            f"cannot evaluate the data: {_first_line(err)}",
            "check the columns' types and values",
        )
    except duckdb.Error as err:
        return _fail(
            f"DuckDB: {_first_line(err)}",
            "check the query, the database file and the table name",
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as err:
        if os.environ.get("CLFEVAL_DEBUG"):
            raise
        return _fail(
            f"internal error: {type(err).__name__}: {_first_line(err)}",
            "this is a bug in clfeval; rerun with CLFEVAL_DEBUG=1 for the traceback and report it",
        )


def main(argv: list[str] | None = None) -> int:
    """Run the ``clfeval`` command line with ``argv`` (default ``sys.argv[1:]``).

    Returns 0 on success and 2 on bad input, after printing one line on stderr:
    ``clfeval: error: <message> (hint: <fix>)``; 141 when standard output was closed by its
    reader (nothing is printed then).

    Examples
    --------
    >>> main(["report", "no-such-file.parquet", "--y", "y", "--yhat", "yhat"])
    2
    """
    _Stdout.closed = False
    try:
        code = _run(argv)
        if sys.stdout is not None and not _Stdout.closed:
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    if _Stdout.closed:
        return 141
    return code
