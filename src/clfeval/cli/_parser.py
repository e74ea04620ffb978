"""The command line's grammar: the argparse parser of ``report``, ``sql`` and ``demo``, and
the option values it leaves as text (comma-separated lists, ``--digits``, ``--average``).

The parser only parses: ``clfeval.cli.main`` picks the command from ``args.command``.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from clfeval.cli._console import PROG
from clfeval.cli._errors import UsageError, input_error

AVERAGES = ("binary", "micro", "macro", "weighted")


class _SpelledAppend(argparse._AppendAction):
    """``append``, remembering the spelling used (``--score`` or ``--proba``) for messages."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        before = getattr(namespace, f"{self.dest}_flag", None)
        if before not in (None, option):
            raise UsageError(f"{before} and {option} are one option: give the columns once")
        super().__call__(parser, namespace, values, option)
        setattr(namespace, f"{self.dest}_flag", option)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.prog)


def split_option(values: Sequence[str] | None, flag: str) -> list[str]:
    """``--by a,b --by c`` -> ``["a", "b", "c"]``; an option given that names nothing is an
    error (``--by ''`` must not quietly mean "no groups")."""
    if values is None:
        return []
    out: list[str] = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip()]
    if not out:
        raise input_error(
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


def digits_option(args: argparse.Namespace) -> int:
    from clfeval import _options

    if args.digits is None:
        return int(_options.DEFAULTS["digits"])
    return _int_option(args.digits, _options.digits)


def average_option(text: str | None) -> str | None:
    from clfeval import _options

    if text is None:
        return None
    return str(_options.average(text, allowed=AVERAGES))


_FORMAT_HELP = (
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


def build_parser() -> _Parser:
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
        epilog=_FORMAT_HELP,
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
        "files when queried, and relative paths in it resolve against the current directory. "
        "With --engine spark: a table of the Spark catalog (database.table)",
    )
    rep.add_argument(
        "--engine",
        choices=("polars", "spark"),
        default="polars",
        help="where the numbers are computed: polars (default) reads the columns into this "
        "process; spark reads PATH (.parquet or .csv, local or a lake path such as s3a://...) "
        "or --table from the Spark catalog and computes inside Spark, collecting no rows "
        "(needs pyspark; the session is the active one, else a new one with master "
        "$SPARK_MASTER or local[*]). Same output and page; no --db, --query or --schema",
    )
    rep.add_argument("--query", help="a SQL query whose result is evaluated (run as given)")
    rep.add_argument("--y", required=True, help="the column of true labels")
    rep.add_argument("--yhat", required=True, help="the column of predicted labels")
    rep.add_argument(
        "--score",
        "--proba",
        dest="score",
        action=_SpelledAppend,
        metavar="COL[,COL...]",
        help="score or probability column(s): one for the positive class, or one per class "
        "as p_a,p_b,p_c with --labels a,b,c, or as a=p_a,b=p_b,c=p_c (--proba is the same "
        "option)",
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
    sq.add_argument(
        "--table",
        help="table name (dots separate schema and table); with --engine spark also a "
        ".parquet or .csv path",
    )
    sq.add_argument(
        "--engine",
        choices=("spark",),
        help="with --metric: run the query on Spark (the active session, else a new one with "
        "master $SPARK_MASTER or local[*]) and print its result as CSV instead of the SQL",
    )
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
    return parser
