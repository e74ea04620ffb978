"""Reading the input of ``clfeval report``: a Parquet, CSV or NDJSON file, or a DuckDB
database (:mod:`clfeval.cli._database`), lazily and only the columns the report needs.

CSV types are never guessed: label and group columns are text, score and weight columns
Float64, unless ``--schema`` says otherwise (``01`` and ``1`` are two classes). NDJSON keeps
its JSON types (a column that mixes JSON strings and numbers is refused, since Polars would
turn the numbers into text); Parquet and DuckDB keep their own. A value that does not parse
is reported as one line naming the column, its role and the first bad rows.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import glob
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from clfeval.cli._console import Progress
from clfeval.cli._database import open_duckdb
from clfeval.cli._errors import first_line, input_error
from clfeval.cli._parser import split_option

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


def schema_option(args: argparse.Namespace) -> dict[str, pl.DataType]:
    """``--schema y=int,score=float`` -> ``{"y": Int64, "score": Float64}``."""
    out: dict[str, pl.DataType] = {}
    for item in split_option(args.schema, "--schema"):
        column, eq, kind = item.rpartition("=")
        column, kind = column.strip(), kind.strip().lower()
        if not eq or not column:
            raise input_error(
                f"--schema {item!r} is not COL=TYPE",
                role="schema",
                hint="e.g. --schema y=int,yhat=int (types: int, float, str, bool)",
            )
        if kind not in SCHEMA_TYPES:
            close = difflib.get_close_matches(kind, SCHEMA_TYPES, n=1)
            raise input_error(
                f"--schema {item!r}: unknown type {kind!r}",
                role="schema",
                column=column,
                hint="the types are int, float, str and bool"
                + (f"; did you mean {close[0]!r}?" if close else ""),
            )
        if column in out and out[column] != SCHEMA_TYPES[kind]:
            raise input_error(
                f"--schema gives column {column!r} two types",
                role="schema",
                column=column,
                hint="give each column one type",
            )
        out[column] = SCHEMA_TYPES[kind]
    return out


def column_roles(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(role, column) for every column the report reads, in a stable order."""
    roles = [("y", args.y), ("yhat", args.yhat)]
    roles += [("score", c) for c in score_columns(args)]
    if args.weight is not None:
        roles.append(("weight", args.weight))
    roles += [("by", c) for c in split_option(args.by, "--by")]
    return roles


def score_option(args: argparse.Namespace) -> tuple[list[str], list[str] | None]:
    """The ``--score`` columns and, for the ``label=column`` form, the labels as text."""
    flag = getattr(args, "score_flag", None) or "--score"
    items = split_option(args.score, flag)
    pairs = [item.partition("=") for item in items]
    named = [sep == "=" for _, sep, _ in pairs]
    if not any(named):
        return items, None
    if not all(named) or any(not k.strip() or not c.strip() for k, _, c in pairs):
        raise input_error(
            f"{flag} {','.join(items)!r} mixes columns and label=column pairs",
            role="score",
            hint="pass every class as label=column (a=p_a,b=p_b), or columns with --labels",
        )
    if len(pairs) < 2:
        raise input_error(
            f"{flag} {items[0]!r} names one class; label=column pairs name every class",
            role="score",
            hint="pass one pair per class (a=p_a,b=p_b,c=p_c), or the positive class's column "
            "alone",
        )
    return [c.strip() for _, _, c in pairs], [k.strip() for k, _, _ in pairs]


def score_columns(args: argparse.Namespace) -> list[str]:
    return score_option(args)[0]


def file_format(path: str, override: str | None) -> str:
    if override:
        return override
    suffixes = [s.lower() for s in Path(path).suffixes if s.lower() not in (".gz", ".zst")]
    fmt = FORMATS.get(suffixes[-1]) if suffixes else None
    if fmt is None:
        raise input_error(
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
            raise input_error(
                f"--schema names column {column!r}, which {path!r} does not have",
                role="schema",
                column=column,
                hint=(f"did you mean {close[0]!r}? " if close else "")
                + f"the columns are {list(names)[:20]}",
            )


def check_local_path(path: str, fmt: str) -> None:
    """A local input path that exists and holds data (a directory only for Parquet)."""
    if any(ch in path for ch in "*?["):
        if not glob.glob(path, recursive=True):
            raise input_error(
                f"no file matches {path!r}",
                role="path",
                hint=f"check the pattern (the current directory is {Path.cwd()})",
            )
    elif not os.path.exists(path):
        raise input_error(
            f"file {path!r} not found",
            role="path",
            hint=f"check the path (the current directory is {Path.cwd()})",
        )
    if Path(path).is_dir() and fmt != "parquet":
        raise input_error(f"{path!r} is a directory", role="path", hint="pass a file")
    if Path(path).is_dir() and not any(p.is_file() for p in Path(path).rglob("*")):
        raise input_error(f"{path!r} is a directory with no files", role="path", hint="pass a file")
    if Path(path).is_file() and Path(path).stat().st_size == 0:
        raise input_error(
            f"{path!r} is empty", role="path", hint="pass a file with a header and rows"
        )


def _scan_file(
    path: str, fmt: str, roles: list[tuple[str, str]], schema: dict[str, pl.DataType]
) -> pl.LazyFrame:
    """A lazy scan whose types are never guessed from the first rows.

    CSV: every column is text, except the score and weight columns (Float64) and what
    ``--schema`` says. NDJSON: the JSON types (inferred from every row), scores and weights
    Float64. Parquet: its own types.
    """
    check_local_path(path, fmt)
    floats: dict[str, pl.DataType] = {c: pl.Float64() for r, c in roles if r in ("score", "weight")}
    if fmt == "parquet":
        if schema:
            raise input_error(
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
        raise input_error(
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
            return input_error(
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
        return input_error(
            f"cannot read {path!r}: {first_line(err)}",
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
    return input_error(
        f"column {column!r} ({role}) holds {examples}", role=role, column=column, hint=hint
    )


def read_input(
    args: argparse.Namespace,
    progress: Progress,
    stack: list[Any],
    schema: dict[str, pl.DataType],
) -> tuple[pl.DataFrame, str]:
    """The needed columns as a DataFrame (read lazily: only those columns are scanned)."""
    import duckdb

    from clfeval._validate import check_columns

    roles = column_roles(args)
    fmt = None
    name = args.db if args.db is not None else "query"
    if args.path is not None:
        if not args.path.strip():
            raise input_error(
                "PATH is empty", role="path", hint="pass a .parquet, .csv or .ndjson file"
            )
        fmt = file_format(args.path, args.input_format)
        name = args.path
    elif schema:
        raise input_error(
            "--schema applies to CSV and NDJSON input; DuckDB columns keep their own types",
            role="schema",
            hint='cast in SQL instead: --query "SELECT CAST(y AS BIGINT) AS y, ... FROM t"',
        )
    try:
        if args.path is not None:
            assert fmt is not None
            lf = _scan_file(args.path, fmt, roles, schema)
        else:
            lf, name = open_duckdb(args, stack, roles)
        file_schema = lf.collect_schema()
    except (pl.exceptions.PolarsError, duckdb.Error) as err:
        if isinstance(err, pl.exceptions.NoDataError):
            raise input_error(
                f"{name!r} is empty", role="path", hint="pass a file with rows"
            ) from None
        if fmt == "ndjson":
            raise _parse_error(err, name, fmt, roles, schema) from None
        raise input_error(
            f"cannot read {name!r}: {first_line(err)}",
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
            raise input_error(
                f"cannot read {name!r}: {first_line(err)}",
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
