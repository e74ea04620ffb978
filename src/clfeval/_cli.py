"""The ``clfeval`` command line: ``report``, ``sql`` and ``demo``.

``main(argv)`` returns the exit code: 0 on success, 2 on bad input. Every error a user can
cause (a missing file or column, a value that does not parse, a bad option, an unknown table)
is one line on stderr, ``clfeval: error: <message> (hint: <fix>)``, never a traceback. When
stderr is a terminal, the stages of the work are printed there with the elapsed time.

Input is read lazily: ``pl.scan_parquet`` / ``scan_csv`` / ``scan_ndjson`` with only the
columns the report needs, or a DuckDB database opened read-only, where the table name is a
bound parameter of ``query_table(?)`` and file access is switched off first (``query_table``
would otherwise read a file whose path is given as the table name).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import re
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


def _error(
    message: str, *, role: str | None = None, column: str | None = None, hint: str | None = None
) -> Exception:
    from clfeval.exceptions import InputError

    return InputError(message, role=role, column=column, rule="cli", hint=hint)


# --- reading ----------------------------------------------------------------------------------


def _split(values: Sequence[str] | None) -> list[str]:
    """``--by a,b --by c`` -> ``["a", "b", "c"]``."""
    out: list[str] = []
    for value in values or ():
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


def _roles(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(role, column) for every column the report reads, in a stable order."""
    roles = [("y", args.y), ("yhat", args.yhat)]
    roles += [("score", c) for c in _score_cols(args)]
    if args.weight:
        roles.append(("weight", args.weight))
    roles += [("by", c) for c in _split(args.by)]
    return roles


def _score_cols(args: argparse.Namespace) -> list[str]:
    if args.score is not None:
        return [args.score]
    return _split(args.proba)


def _float_roles(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [(r, c) for r, c in _roles(args) if r in ("score", "weight")]


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


def _scan_file(
    path: str,
    fmt: str,
    float_cols: list[str],
    text_cols: Sequence[str] = (),
    *,
    infer_all: bool = False,
) -> pl.LazyFrame:
    """A lazy scan; CSV reads the score and weight columns as Float64 (no lenient casts).

    The other CSV columns' types are inferred from the first 100 rows, or from every row with
    ``infer_all``. ``text_cols`` are read as String (only to show the values that failed).
    """
    if not any(ch in path for ch in "*?[") and not Path(path).exists():
        raise _error(
            f"file {path!r} not found",
            role="path",
            hint=f"check the path (the current directory is {Path.cwd()})",
        )
    if Path(path).is_dir() and fmt != "parquet":
        raise _error(f"{path!r} is a directory", role="path", hint="pass a file")
    if fmt == "parquet":
        return pl.scan_parquet(path)
    if fmt == "ndjson":
        return pl.scan_ndjson(path)
    sep = "\t" if path.lower().endswith((".tsv", ".tsv.gz")) else ","
    n_infer = None if infer_all else 100
    header = pl.scan_csv(path, separator=sep, infer_schema_length=n_infer).collect_schema()
    overrides: dict[str, pl.DataType] = {c: pl.Float64 for c in float_cols if c in header}
    overrides.update({c: pl.String for c in text_cols if c in header})
    return pl.scan_csv(path, separator=sep, schema_overrides=overrides, infer_schema_length=n_infer)


def _duckdb_tables(con: Any) -> list[str]:
    rows = con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT internal "
        "UNION ALL SELECT schema_name, view_name FROM duckdb_views() WHERE NOT internal "
        "ORDER BY ALL"
    ).fetchall()
    return [t if s == "main" else f"{s}.{t}" for s, t in rows]


def _open_duckdb(args: argparse.Namespace, stack: list[Any]) -> tuple[pl.LazyFrame, str]:
    import duckdb

    if args.db is not None and not Path(args.db).exists():
        raise _error(
            f"database file {args.db!r} not found",
            role="db",
            hint=f"check the path (the current directory is {Path.cwd()})",
        )
    try:
        con = duckdb.connect(args.db, read_only=True) if args.db else duckdb.connect()
    except duckdb.Error as err:
        raise _error(
            f"cannot open {args.db!r} as a DuckDB database: {str(err).strip().splitlines()[0]}",
            role="db",
            hint="pass a DuckDB database file; read Parquet, CSV or NDJSON files as PATH",
        ) from None
    stack.append(con)
    if args.query is not None:
        rel = con.sql(args.query)  # the user's own SQL, run as given
        if rel is None:
            raise _error(
                "--query returned no result set",
                role="query",
                hint="pass a SELECT (or FROM ...) query",
            )
        return rel.pl(lazy=True), "query"
    # the table name is data: bound to query_table(?), and file access is off, so a path
    # given as a "table" cannot be read
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    try:
        rel = con.sql("FROM query_table(?)", params=[args.table])
    except duckdb.Error:
        import difflib

        tables = _duckdb_tables(con)
        close = difflib.get_close_matches(args.table, tables, n=1, cutoff=0.5)
        hint = f"the database has {tables}" + (f"; did you mean {close[0]!r}?" if close else "")
        raise _error(
            f"table {args.table!r} not found in {args.db!r}", role="table", hint=hint
        ) from None
    return rel.pl(lazy=True), f"{args.db}:{args.table}"


def _parse_error(
    err: Exception, lf_of: Callable[..., pl.LazyFrame], roles: list[tuple[str, str]]
) -> Exception:
    """Polars' CSV parse error -> one line naming the column, its role and the bad values."""
    text = str(err)
    m = re.search(r"could not parse `(.*?)` as dtype `(.*?)` at column '(.*?)'", text)
    if m is None:
        return _error(
            f"cannot read the data: {text.strip().splitlines()[0]}",
            role="path",
            hint="check that the file is complete and in the format its name says",
        )
    value, dtype, column = m.groups()
    role = next((r for r, c in roles if c == column), "column")
    examples = f"{value!r}"
    try:  # find the rows, reading the column as text (only to show them, never to use them)
        raw = lf_of(column).select(pl.col(column).cast(pl.String)).with_row_index("row")
        target = pl.Float64 if dtype.startswith("f") else pl.Int64
        bad = raw.filter(
            pl.col(column).is_not_null() & pl.col(column).cast(target, strict=False).is_null()
        ).collect()
        if bad.height:
            kind = "numbers" if target == pl.Float64 else "integers"
            shown = ", ".join(f"{v!r} (row {i})" for i, v in bad.head(3).iter_rows())
            examples = f"{bad.height} value(s) that are not {kind}: {shown}"
    except Exception:  # the diagnosis is best effort: the parse error is reported anyway
        pass
    hint = (
        "scores, probabilities and weights are read as Float64; write missing values as "
        "empty fields (then --missing drop leaves them out) or fix the values"
    )
    if role in ("y", "yhat", "by"):
        hint = (
            "the column's type was guessed from its first rows; fix the value, or make "
            "every value of the column text"
        )
    return _error(
        f"column {column!r} ({role}) holds {examples}", role=role, column=column, hint=hint
    )


def _read(
    args: argparse.Namespace, progress: _Progress, stack: list[Any]
) -> tuple[pl.DataFrame, str]:
    """The needed columns as a DataFrame (read lazily: only those columns are scanned)."""
    from clfeval._validate import check_columns

    roles = _roles(args)
    fmt = None
    if args.path is not None:
        fmt = _file_format(args.path, args.input_format)
        float_cols = [c for _, c in _float_roles(args)]

        def lf_of(as_text: str | None = None, infer_all: bool = False) -> pl.LazyFrame:
            return _scan_file(
                args.path, fmt, float_cols, [as_text] if as_text else [], infer_all=infer_all
            )

        name = args.path
    else:
        lf0, name = _open_duckdb(args, stack)

        def lf_of(as_text: str | None = None, infer_all: bool = False) -> pl.LazyFrame:
            return lf0

    try:
        lf = lf_of()
        schema = lf.collect_schema()
    except (pl.exceptions.ComputeError, pl.exceptions.SchemaError) as err:
        raise _error(
            f"cannot read {name!r}: {str(err).strip().splitlines()[0]}",
            role="path",
            hint="check that the file is complete and in the format its name says",
        ) from None
    for role, column in roles:
        check_columns(schema, {role: column})
    needed = list(dict.fromkeys(c for _, c in roles))
    try:
        try:
            df = lf.select(needed).collect()
        except pl.exceptions.ComputeError:
            if fmt != "csv":
                raise
            # a label or group column whose first 100 rows looked numeric: infer from all rows
            df = lf_of(infer_all=True).select(needed).collect()
    except pl.exceptions.ComputeError as err:
        raise _parse_error(err, lf_of, roles) from None
    decimals = [c for _, c in _float_roles(args) if isinstance(df.schema[c], pl.Decimal)]
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


def _cli_hint(hint: str | None) -> str | None:
    """Say the command-line flag where the library's hint names the Python argument."""
    if hint is None:
        return None
    for py, flag in (
        ("missing='drop'", "--missing drop"),
        ("nonfinite='drop'", "--nonfinite drop"),
        ("pos_label= ", "--pos-label "),
        ("pos_label=", "--pos-label "),
    ):
        hint = hint.replace(py, flag)
    return hint


def _report_kwargs(args: argparse.Namespace, df: pl.DataFrame) -> dict[str, Any]:
    y, yhat = args.y, args.yhat
    dtype = df.schema[y]
    labels = [_parse_label(v, dtype, "--labels", y) for v in _split(args.labels)] or None
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
        "by": _split(args.by) or None,
        "weight": args.weight,
    }
    if args.pos_label is not None:
        kw["pos_label"] = _parse_label(args.pos_label, dtype, "--pos-label", y)
        _check_pos_label(kw["pos_label"], df, y, yhat)
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


def _write_html(
    df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any], out: str, title: str
) -> Path:
    report_html = _html_writer()
    params = inspect.signature(report_html).parameters
    extra = {
        k: v
        for k, v in (("pos_label", kw.get("pos_label")), ("digits", args.digits))
        if k in params and v is not None
    }
    report_html(
        _kept(df, args),
        args.y,
        args.yhat,
        score=kw["score"],
        by=kw["by"],
        weight=kw["weight"],
        labels=kw["labels"],
        path=out,
        title=title,
        **extra,
    )
    return Path(out)


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


def _json(rep: Any, df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any]) -> str:
    import clfeval as ce

    by = kw["by"] or []
    labels = kw["labels"]
    classes = labels if labels is not None else _classes(df, args.y, args.yhat)
    pos = kw.get("pos_label", True if df.schema[args.y] == pl.Boolean else 1)
    binary = len(classes) <= 2 and pos in classes
    average = "binary" if binary else "macro"
    frame = ce.metrics(
        df,
        args.y,
        args.yhat,
        score=kw["score"],
        average=average,
        pos_label=pos,
        labels=labels,
        by=kw["by"],
        weight=kw["weight"],
        missing=args.missing,
        nonfinite=args.nonfinite,
    )
    assert isinstance(frame, pl.DataFrame)
    head: dict[str, Any] = {"average": average}
    if binary:
        head["pos_label"] = pos
    if not by:
        row = frame.row(0, named=True) if frame.height else {}
        out = {**head, "report": rep.to_dict(), "metrics": row}
        if rep.n_excluded is not None:
            out["n_excluded"] = rep.n_excluded
        return json.dumps(_jsonable(out), indent=2, allow_nan=False)
    by_metrics = {
        tuple(r[c] for c in by): {k: v for k, v in r.items() if k not in by}
        for r in frame.iter_rows(named=True)
    }
    excluded = {}
    if isinstance(rep.n_excluded, pl.DataFrame):
        excluded = {
            tuple(r[c] for c in by): r["n_excluded"] for r in rep.n_excluded.iter_rows(named=True)
        }
    groups = []
    for key, d in rep.to_dict().items():
        kt = key if isinstance(key, tuple) else (key,)
        group = {"group": dict(zip(by, kt)), "report": d, "metrics": by_metrics.get(kt, {})}
        if kt in excluded:
            group["n_excluded"] = excluded[kt]
        groups.append(group)
    return json.dumps(_jsonable({**head, "by": by, "groups": groups}), indent=2, allow_nan=False)


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _cmd_report(args: argparse.Namespace) -> int:
    import clfeval as ce

    sources = [args.path is not None, args.table is not None, args.query is not None]
    if sum(sources) != 1:
        raise _UsageError("give exactly one input: PATH, --db FILE --table NAME, or --query SQL")
    if args.table is not None and args.db is None:
        raise _UsageError("--table needs --db FILE")
    if args.db is not None and args.path is not None:
        raise _UsageError("--db goes with --table or --query, not with PATH")
    if args.score is not None and args.proba:
        raise _UsageError("give --score or --proba, not both")
    if args.html:
        _html_writer()  # fail before reading anything
    progress = _Progress()
    stack: list[Any] = []
    try:
        df, name = _read(args, progress, stack)
        kw = _report_kwargs(args, df)
        rep = ce.report(
            df,
            args.y,
            args.yhat,
            digits=args.digits,
            missing=args.missing,
            nonfinite=args.nonfinite,
            **kw,
        )
        progress("report")
        if args.format == "text":
            _emit(str(rep))
        elif args.format == "csv":
            _emit(rep.table.write_csv())
        else:
            _emit(_json(rep, df, args, kw))
        n_excluded = rep.n_excluded
        if isinstance(n_excluded, pl.DataFrame):
            n_excluded = int(n_excluded["n_excluded"].sum())
        if n_excluded:
            print(
                f"{PROG}: note: {n_excluded} row(s) with missing or non-finite values were "
                "left out",
                file=sys.stderr,
            )
        if args.html:
            path = _write_html(df, args, kw, args.html, title=f"Classification report: {name}")
            progress(f"html {path}")
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


def _cmd_sql(args: argparse.Namespace) -> int:
    from clfeval import sql

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
        if args.install:
            import duckdb

            con = duckdb.connect(args.install)
            try:
                sql.load(con)
            finally:
                con.close()
            print(f"installed the clfeval macros into {args.install}")
            return 0
        _emit(sql.text())
        return 0
    if args.install:
        raise _UsageError("--install and --metric are separate uses of 'clfeval sql'")
    if args.table is None or args.y is None:
        raise _UsageError("--metric needs --table and --y")
    from clfeval import sqlgen

    kw: dict[str, Any] = {k: v for k, v in gen.items() if v is not None}
    kw["group_cols"] = _split([args.group_cols]) if args.group_cols else ()
    if args.pos_label is not None:
        kw["pos_label"] = _sql_literal(args.pos_label)
    _emit(sqlgen.query(args.metric, **kw))
    return 0


# --- demo -------------------------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    import clfeval as ce
    from clfeval import datasets

    report_html = _html_writer()
    progress = _Progress()
    df = datasets.predictions()
    progress(f"generated clfeval.datasets.predictions() ({df.height:,} rows)")
    rep = ce.report(df, "y", "yhat", score="score", by="model", digits=args.digits)
    progress("report")
    _emit(str(rep))
    out = args.html or "clfeval-demo.html"
    report_html(
        df,
        "y",
        "yhat",
        score="score",
        by="model",
        path=out,
        title="clfeval demo: two models, 20,000 cases",
    )
    progress(f"html {out}")
    print(f"\nThe HTML report (charts included, opens offline) is in {Path(out).resolve()}")
    return 0


# --- parser -----------------------------------------------------------------------------------


def _digits(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 15:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 15, got {text!r}")
    return value


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
        "a Parquet, CSV or NDJSON file, or in a DuckDB database.",
    )
    rep.add_argument("path", nargs="?", help="a .parquet, .csv or .ndjson file")
    rep.add_argument(
        "--input-format",
        choices=("parquet", "csv", "ndjson"),
        help="the file format when the name does not say it",
    )
    rep.add_argument("--db", help="a DuckDB database file (opened read-only)")
    rep.add_argument("--table", help="the table or view in --db to read")
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
    rep.add_argument("--pos-label", help="the positive class (parsed as y's type)")
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
    rep.add_argument("--digits", type=_digits, default=2, help="decimals shown (default 2)")
    rep.add_argument("--format", choices=("text", "json", "csv"), default="text")
    rep.add_argument("--html", metavar="OUT", help="also write a standalone HTML report")
    rep.set_defaults(run=_cmd_report)

    sq = sub.add_parser(
        "sql",
        allow_abbrev=False,
        help="print or install the SQL macros, or generate a query",
        description="Without options, print every clfeval DuckDB macro (the script "
        "'cat sql/*.sql' gives). --install DB loads them into a DuckDB file. --metric M "
        "--table T --y COL ... prints one portable SQL query for another engine.",
    )
    sq.add_argument("--install", metavar="DB", help="load the macros into this DuckDB file")
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
    sq.add_argument("--average", help="binary, micro, macro (default) or weighted")
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
    demo.add_argument("--html", metavar="OUT", help="where to write the HTML report")
    demo.add_argument("--digits", type=_digits, default=2)
    demo.set_defaults(run=_cmd_demo)
    return parser


def _line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(message: str, hint: str | None = None) -> int:
    line = f"{PROG}: error: {_line(message)}"
    if hint:
        line += f" (hint: {_line(hint)})"
    print(line, file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the ``clfeval`` command line with ``argv`` (default ``sys.argv[1:]``).

    Returns 0 on success and 2 on bad input, after printing one line on stderr:
    ``clfeval: error: <message> (hint: <fix>)``.

    Examples
    --------
    >>> main(["report", "no-such-file.parquet", "--y", "y", "--yhat", "yhat"])
    2
    """
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
        return _fail(err.message, _cli_hint(err.hint))
    except FileNotFoundError as err:
        return _fail(f"file not found: {err.filename or err}", "check the path")
    except OSError as err:
        return _fail(f"cannot read or write a file: {err}", "check the path and permissions")
    except pl.exceptions.PolarsError as err:
        return _fail(
            f"cannot evaluate the data: {str(err).strip().splitlines()[0]}",
            "check the columns' types and values",
        )
    except duckdb.Error as err:
        return _fail(
            f"DuckDB: {str(err).strip().splitlines()[0]}",
            "check the query, the database file and the table name",
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
