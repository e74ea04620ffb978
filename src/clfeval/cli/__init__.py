"""The ``clfeval`` command line: ``report``, ``sql`` and ``demo``.

``main(argv)`` returns the exit code: 0 on success, 2 on bad input (and on an unexpected
failure, reported as an internal error), 130 on Ctrl-C and 141 when the reader of standard
output went away (``clfeval sql | head``: the rest of the output is dropped quietly, like any
Unix tool killed by SIGPIPE). Every error is one line on stderr,
``clfeval: error: <message> (hint: <fix>)``, never a traceback (set ``CLFEVAL_DEBUG=1`` to
see the traceback of an internal error). When stderr is a terminal, the stages of the work
are printed there with the elapsed time.

One module per job, each importing only the ones listed after it:

- ``_cmd_report``, ``_cmd_sql``, ``_cmd_demo``: the commands, each ``run(args) -> int``
- ``_spark_input``: ``--engine spark`` (PATH or a catalog table read by Spark)
- ``_read``: the input files (Parquet, CSV, NDJSON), ``--schema``, parse errors
- ``_database``: ``--db`` with ``--table`` or ``--query``
- ``_outputs``: ``--format json`` and ``--format csv``
- ``_paths``: where output may be written (never onto input)
- ``_parser``: argparse and the option values it leaves as text
- ``_console``: standard output, notes and progress, the one error line
- ``_errors``: the usage error and the ``InputError`` of a bad value
"""

from __future__ import annotations

import os
import re
import sys

import polars as pl

from clfeval.cli import _cmd_demo, _cmd_report, _cmd_sql
from clfeval.cli._console import PROG, Stdout, fail, silence_stdout
from clfeval.cli._errors import UsageError, first_line
from clfeval.cli._parser import AVERAGES, build_parser
from clfeval.cli._spark_input import is_spark_error

__all__ = ["main"]

_COMMANDS = {"report": _cmd_report, "sql": _cmd_sql, "demo": _cmd_demo}  # each has run(args)

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


def _run(argv: list[str] | None) -> int:
    import duckdb

    from clfeval.exceptions import InputError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        return fail(str(err), f"see '{err.prog or PROG} --help'")
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        return int(_COMMANDS[args.command].run(args))
    except UsageError as err:
        return fail(str(err), f"see '{PROG} {args.command} --help'")
    except InputError as err:
        return fail(_cli_hint(err.message) or "", _cli_hint(err.hint))
    except BrokenPipeError:
        raise
    except FileNotFoundError as err:
        return fail(f"file not found: {err.filename or err}", "check the path")
    except OSError as err:
        return fail(f"cannot read or write a file: {err}", "check the path and permissions")
    except pl.exceptions.PolarsError as err:
        return fail(
            f"cannot evaluate the data: {first_line(err)}",
            "check the columns' types and values",
        )
    except duckdb.Error as err:
        return fail(
            f"DuckDB: {first_line(err)}",
            "check the query, the database file and the table name",
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as err:
        if is_spark_error(err):
            return fail(f"Spark: {first_line(err)}", "check the input, the columns and their types")
        if os.environ.get("CLFEVAL_DEBUG"):
            raise
        return fail(
            f"internal error: {type(err).__name__}: {first_line(err)}",
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
    Stdout.closed = False
    try:
        code = _run(argv)
        if sys.stdout is not None and not Stdout.closed:
            sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    if Stdout.closed:
        return 141
    return code
