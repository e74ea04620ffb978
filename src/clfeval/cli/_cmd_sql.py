"""``clfeval sql``: print the DuckDB macros, install them into a DuckDB database file
(checked afterwards: DuckDB must list every macro), or generate one portable query with
``--metric`` (needs sqlglot, the ``warehouse`` extra).
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from clfeval.cli._console import emit
from clfeval.cli._errors import UsageError, first_line, input_error
from clfeval.cli._parser import average_option, split_option
from clfeval.cli._paths import check_install_target


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

    new = check_install_target(target)
    # a new file in the oldest storage format the macros support, so that the DuckDB
    # command-line client (1.5 on PyPI) opens it too; an existing file keeps its own
    config = {"storage_compatibility_version": sql.OLDEST_DUCKDB} if new else {}
    try:
        con = duckdb.connect(target, config=config)
    except duckdb.Error as err:
        raise input_error(
            f"cannot open {target!r} as a DuckDB database: {first_line(err)}",
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
        raise input_error(
            f"installing the macros into {target!r} failed: {first_line(err)}",
            role="install",
            hint="check that the file is writable and made by this DuckDB version",
        ) from None
    finally:
        con.close()
    missing = sorted(expected - found)
    if missing or "clf_roc_curve" not in found:
        raise input_error(
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


def run(args: argparse.Namespace) -> int:
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
            "engine",
        )
    }
    given = [f"--{k.replace('_', '-')}" for k, v in gen.items() if v is not None]
    if args.metric is None:
        if given:
            raise UsageError(f"{', '.join(given)} only make sense with --metric")
        if args.install is not None:
            return _install(args.install)
        from clfeval import sql

        emit(sql.text())
        return 0
    if args.install is not None:
        raise UsageError("--install and --metric are separate uses of 'clfeval sql'")
    if args.table is None or args.y is None:
        raise UsageError("--metric needs --table and --y")
    average = average_option(args.average)
    if average is not None and args.metric != "metrics":
        raise UsageError("--average goes with --metric metrics")
    try:
        import sqlglot  # noqa: F401
    except ImportError:
        raise input_error(
            "clfeval sql --metric needs sqlglot, which is not installed",
            role="metric",
            hint="pip install 'clfeval[warehouse]'",
        ) from None
    from clfeval import _options, sqlgen

    kw: dict[str, Any] = {k: v for k, v in gen.items() if v is not None}
    kw["group_cols"] = (
        split_option([args.group_cols], "--group-cols") if args.group_cols is not None else ()
    )
    if args.pos_label is not None:
        kw["pos_label"] = _sql_literal(args.pos_label)
    if args.metric == "metrics":
        kw["average"] = average or _options.DEFAULTS["average"]
    if kw.pop("engine", None) == "spark":
        return _run_on_spark(args.metric, kw)
    try:
        text = sqlgen.query(args.metric, **kw)
    except ImportError:
        raise input_error(
            "clfeval sql --metric needs sqlglot, which cannot be imported",
            role="metric",
            hint="pip install 'clfeval[warehouse]'",
        ) from None
    emit(text)
    return 0


def _run_on_spark(metric: str, kw: dict[str, Any]) -> int:
    """``--engine spark``: :func:`clfeval.sql.run` on the Spark session, the result as CSV.
    A .parquet/.csv ``--table`` is read into a temporary view first (dropped afterwards)."""
    from clfeval import sql
    from clfeval.cli._spark_input import file_view, session

    dialect = kw.pop("dialect", None)
    if dialect is not None and dialect.strip().lower() != "spark":
        raise UsageError(f"--dialect {dialect} does not go with --engine spark (Spark's own)")
    spark, created = session()
    try:
        floats = [kw[k] for k in ("score", "proba", "weight") if kw.get(k) is not None]
        view = file_view(spark, kw["table"], floats)
        try:
            out = sql.run(spark, metric, **{**kw, "table": view or kw["table"]})
        finally:
            if view is not None:
                spark.catalog.dropTempView(view)
        emit(out.write_csv())
    finally:
        if created:
            spark.stop()
    return 0
