"""``--engine spark``: the input of ``clfeval report`` and ``clfeval sql --metric`` read by
Spark (a Parquet or CSV path, local or on a lake, or a catalog table) and left there.

The numbers are computed inside Spark by the library's front door (``clfeval.report``,
``clfeval.metrics`` and ``clfeval.sql.run`` on a Spark DataFrame or session); no row of the
input is collected. What the command line needs besides comes back as small aggregates: the
column types (an empty result's Arrow schema, as :func:`clfeval.sql.run` reads them) and the
distinct (y, yhat) pairs. CSV is read as the Polars engine reads it: every column text, the
score and weight columns as doubles. pyspark is imported only here, and only when asked for.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from clfeval.cli._errors import first_line, input_error
from clfeval.cli._read import check_local_path, file_format

SPARK_FORMATS = ("parquet", "csv")


def _quote(name: str) -> str:
    from clfeval._spark import _quote as quote

    return str(quote(name))


def is_spark_error(err: BaseException) -> bool:
    """An error raised by pyspark or its JVM bridge (recognised without importing pyspark)."""
    return any(t.__module__.startswith(("pyspark", "py4j")) for t in type(err).__mro__)


def session() -> tuple[Any, bool]:
    """The active SparkSession, or a new one (master ``$SPARK_MASTER``, else ``local[*]``);
    True when this call created it (the caller stops it)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise input_error(
            "--engine spark needs pyspark, which is not installed",
            role="engine",
            hint="pip install pyspark, or pip install 'clfeval[spark]' (Spark also needs Java "
            "17 or later)",
        ) from None
    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    try:
        builder = SparkSession.builder.master(os.environ.get("SPARK_MASTER") or "local[*]")
        created = builder.appName("clfeval").config("spark.ui.showConsoleProgress", "false")
        spark = created.getOrCreate()
    except Exception as err:
        raise input_error(
            f"cannot start Spark: {first_line(err)}",
            role="engine",
            hint="Spark needs Java 17 or later (JAVA_HOME); set SPARK_MASTER to use a cluster",
        ) from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True


def _is_local(path: str) -> bool:
    return "://" not in path or path.lower().startswith("file://")


def read_path(spark: Any, path: str, fmt_option: str | None, floats: Sequence[str]) -> Any:
    """A Spark DataFrame of a Parquet or CSV path (CSV: text, ``floats`` read as doubles)."""
    fmt = file_format(path, fmt_option)
    if fmt not in SPARK_FORMATS:
        raise input_error(
            f"--engine spark reads Parquet and CSV, not {fmt} ({path!r})",
            role="path",
            hint="convert the file to Parquet, or leave --engine out",
        )
    if _is_local(path):
        check_local_path(path.removeprefix("file://") if "://" in path else path, fmt)
    try:
        if fmt == "parquet":
            return spark.read.parquet(path)
        sep = "\t" if path.lower().endswith((".tsv", ".tsv.gz")) else ","
        sdf = spark.read.csv(path, header=True, inferSchema=False, sep=sep, escape='"')
        # Spark names a column of an empty header _c0..., Polars column_1...: say nothing,
        # the column checks name the columns found
        return cast_floats(sdf, floats, always=True)
    except Exception as err:
        if not is_spark_error(err):
            raise
        raise input_error(
            f"Spark cannot read {path!r}: {first_line(err)}",
            role="path",
            hint="check the path and that the file is in the format its name says",
        ) from None


def read_table(spark: Any, name: str) -> Any:
    """A catalog table or view (``db.table`` for another database)."""
    if not name.strip():
        raise input_error("--table is empty", role="table", hint="pass a table name")
    try:
        return spark.table(".".join(_quote(p) for p in name.split(".")))
    except Exception as err:
        if not is_spark_error(err):
            raise
        raise input_error(
            f"Spark cannot read table {name!r}: {first_line(err)}",
            role="table",
            hint="pass a table or view of the session's catalog (database.table)",
        ) from None


def polars_schema(sdf: Any) -> pl.Schema:
    """The frame's column types in Polars, from an empty result's Arrow schema."""
    empty = pl.from_arrow(sdf.limit(0).toArrow())
    assert isinstance(empty, pl.DataFrame)
    return empty.schema


def cast_floats(sdf: Any, columns: Sequence[str], *, always: bool = False) -> Any:
    """``columns`` (scores, weights) as doubles: CSV text (``always``), or DECIMAL columns,
    which the Polars engine also computes in Float64."""
    if not columns:
        return sdf
    types = dict(sdf.dtypes)
    wanted = {c for c in columns if c in types and (always or types[c].startswith("decimal"))}
    if not wanted:
        return sdf
    return sdf.selectExpr(
        *[
            f"CAST({_quote(c)} AS DOUBLE) AS {_quote(c)}" if c in wanted else _quote(c)
            for c, _ in sdf.dtypes
        ]
    )


@dataclass
class SparkInput:
    """The Spark DataFrame of the needed columns, and its column types in Polars."""

    frame: Any
    schema: pl.Schema
    created: bool
    session: Any

    def pairs(self, y: str, yhat: str, where: str | None = None) -> pl.DataFrame:
        """The distinct (y, yhat) pairs (of the rows ``where`` keeps): one small aggregate."""
        sdf = self.frame if where is None else self.frame.where(where)
        small = sdf.selectExpr(f"{_quote(y)} AS y", f"{_quote(yhat)} AS yhat").distinct()
        out = pl.from_arrow(small.toArrow())
        assert isinstance(out, pl.DataFrame)
        return out

    def close(self) -> None:
        if self.created:
            self.session.stop()


def kept_rows(
    schema: pl.Schema, labels: Sequence[str], scores: Sequence[str], weight: str | None,
    missing: str, nonfinite: str,
) -> str | None:  # fmt: skip
    """Spark SQL of the rows ``--missing``/``--nonfinite drop`` keep (the library's rule: a
    null in a column read, a NaN label, a NaN or infinite score), or None for every row."""
    keep = []
    if missing == "drop":
        read = [*labels, *scores, *([weight] if weight else [])]
        keep += [f"{_quote(c)} IS NOT NULL" for c in dict.fromkeys(read)]
        keep += [f"NOT isnan({_quote(c)})" for c in labels if schema[c].is_float()]
    if nonfinite == "drop":
        for c in scores:
            s = f"CAST({_quote(c)} AS DOUBLE)"
            keep.append(f"({s} IS NULL OR (NOT isnan({s}) AND {s} - {s} = 0))")
    return " AND ".join(keep) if keep else None


def open_input(args: Any, roles: list[tuple[str, str]]) -> tuple[SparkInput, str]:
    """``clfeval report --engine spark``: PATH or ``--table``, with the needed columns only."""
    from clfeval._validate import check_columns

    if args.path is not None and not args.path.strip():
        raise input_error("PATH is empty", role="path", hint="pass a .parquet or .csv path")
    spark, created = session()
    try:
        floats = [c for r, c in roles if r in ("score", "weight")]
        if args.path is not None:
            sdf, name = read_path(spark, args.path, args.input_format, floats), args.path
        else:
            sdf, name = read_table(spark, args.table), args.table
        schema = polars_schema(sdf)
        for role, column in roles:
            check_columns(schema, {role: column})
        needed = list(dict.fromkeys(c for _, c in roles))
        sdf = cast_floats(sdf.select(*[_quote(c) for c in needed]), floats)
        return SparkInput(sdf, polars_schema(sdf), created, spark), name
    except BaseException:
        if created:
            spark.stop()
        raise


def file_view(spark: Any, table: str, floats: Sequence[str]) -> str | None:
    """``clfeval sql --engine spark --table``: a .parquet/.csv path registered as a temporary
    view (its name returned), or None for a catalog table."""
    if not table.lower().endswith((".parquet", ".pq", ".csv", ".tsv")):
        return None
    import secrets

    view = f"__clf_cli_{secrets.token_hex(6)}"
    read_path(spark, table, None, floats).createOrReplaceTempView(view)
    return view
