"""``clfeval report``: a classification report of predictions in a file or a database, as
text (scikit-learn's layout), JSON or a tidy CSV, and optionally an HTML page.

Labels given on the command line (``--labels``, ``--pos-label``) are parsed as values of
``y``'s type, never guessed. Everything is computed before anything is printed, so an error
leaves standard output empty.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import polars as pl

from clfeval.cli._console import PROG, Progress, emit, print_note
from clfeval.cli._errors import UsageError, input_error
from clfeval.cli._outputs import (
    CSV_COLUMNS,
    SCORE_METRICS,
    UNAVERAGED,
    group_parts,
    render_csv,
    render_json,
)
from clfeval.cli._parser import average_option, digits_option, split_option
from clfeval.cli._paths import check_page_path, check_stdout, input_paths, write_page
from clfeval.cli._read import column_roles, read_input, schema_option, score_option
from clfeval.cli._spark_input import SparkInput, kept_rows, open_input


def _parse_label(text: str, dtype: pl.DataType, flag: str, y: str) -> Any:
    """A label given on the command line, as a value of ``y``'s type (never guessed)."""
    if dtype == pl.Boolean:
        low = text.strip().lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise input_error(
            f"{flag} {text!r} is not a boolean, but column {y!r} (y) is {dtype}",
            role=flag.lstrip("-"),
            column=y,
            hint="pass true or false",
        )
    if dtype.is_integer() or dtype.is_float():
        try:
            return int(text.strip())
        except ValueError:
            raise input_error(
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


def _check_pos_label(pos_label: Any, classes: list[Any], y: str) -> None:
    if pos_label not in classes:
        raise input_error(
            f"--pos-label {pos_label!r} is not a class of {y!r}; the classes are {classes[:10]!r}",
            role="pos_label",
            column=y,
            hint="pass one of the classes as --pos-label",
        )


def _report_kwargs(
    args: argparse.Namespace, schema: pl.Schema, classes: Callable[[], list[Any]]
) -> dict[str, Any]:
    """The keywords of ``clfeval.report``; ``classes()`` gives the classes of y and yhat."""
    y = args.y
    dtype = schema[y]
    given = split_option(args.labels, "--labels") if args.labels is not None else []
    scores, named = score_option(args)
    if named is not None and given:
        raise UsageError("--score label=column pairs name the classes; leave --labels out")
    labels = [_parse_label(v, dtype, "--labels", y) for v in named or given] or None
    if len(scores) > 1 and (labels is None or len(labels) != len(scores)):
        raise input_error(
            f"{getattr(args, 'score_flag', None) or '--score'} has {len(scores)} columns, so "
            f"--labels must name their "
            f"{len(scores)} classes in the same order",
            role="labels",
            hint="e.g. --score p_low,p_mid,p_high --labels low,mid,high, or "
            "--score low=p_low,mid=p_mid,high=p_high",
        )
    kw: dict[str, Any] = {
        "score": None if not scores else scores[0] if len(scores) == 1 else scores,
        "labels": labels,
        "by": split_option(args.by, "--by") or None,
        "weight": args.weight,
    }
    if args.pos_label is not None:
        kw["pos_label"] = _parse_label(args.pos_label, dtype, "--pos-label", y)
        _check_pos_label(kw["pos_label"], classes(), y)
    else:  # the library's default 1, in y's type: 1, "1" for text labels, True for booleans
        from clfeval import _options

        default = str(_options.DEFAULTS["pos_label"])
        kw["pos_label"] = _parse_label(default, dtype, "--pos-label", y)
    return kw


def _kept_classes(
    df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any], spark: SparkInput | None
) -> list[Any]:
    """The sorted classes of y and yhat on the rows the report evaluates (the library's
    checks and drops, so ``--missing``/``--nonfinite drop`` leave the same rows out). With
    Spark, ``df`` is ignored: the distinct (y, yhat) pairs of the kept rows come back from
    Spark and the same rule runs on them (the drops already applied there)."""
    from clfeval._validate import prepare, score_columns

    scores = score_columns(kw["score"], kw["labels"])
    weight = kw["weight"]
    missing, nonfinite = args.missing, args.nonfinite
    if spark is not None:
        names = list(scores.values()) if isinstance(scores, dict) else [scores] if scores else []
        where = kept_rows(spark.schema, [args.y, args.yhat], names, weight, missing, nonfinite)
        df, y, yhat = spark.pairs(args.y, args.yhat, where), "y", "yhat"
        scores, weight, missing, nonfinite = None, None, "drop", "raise"
    else:
        y, yhat = args.y, args.yhat
    prep = prepare(
        df,
        y=y,
        yhat=yhat,
        score=scores,
        weight=weight,
        labels=kw["labels"],
        missing=missing,
        nonfinite=nonfinite,
    )
    return prep.classes or []


def _html_page(df: pl.DataFrame, args: argparse.Namespace, kw: dict[str, Any], title: str) -> str:
    """The text of the page ``--html`` writes (written by ``write_page``: checked, atomic)."""
    import clfeval as ce

    page = ce.report_html(
        df,
        args.y,
        args.yhat,
        score=kw["score"],
        by=kw["by"],
        weight=kw["weight"],
        labels=kw["labels"],
        pos_label=kw["pos_label"],
        digits=digits_option(args),
        missing=args.missing,
        nonfinite=args.nonfinite,
        title=title,
    )
    return page.to_html()


def _metrics(
    df: Any,
    args: argparse.Namespace,
    kw: dict[str, Any],
    average: str | None,
    spark: SparkInput | None = None,
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
        classes = _kept_classes(df, args, kw, spark)
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


def _check_spark_options(args: argparse.Namespace) -> None:
    """``--engine spark`` reads PATH or a catalog ``--table``; no DuckDB."""
    for flag, value in (("--db", args.db), ("--query", args.query), ("--schema", args.schema)):
        if value is not None:
            raise UsageError(
                f"{flag} does not go with --engine spark, which reads PATH (.parquet or .csv) "
                "or a table of the Spark catalog (--table NAME)"
            )
    if (args.path is None) == (args.table is None):
        raise UsageError("with --engine spark, give exactly one input: PATH or --table NAME")


def run(args: argparse.Namespace) -> int:
    import clfeval as ce

    spark_engine = args.engine == "spark"
    sources = [args.path is not None, args.table is not None, args.query is not None]
    if spark_engine:
        _check_spark_options(args)
    elif sum(sources) != 1:
        if args.db is not None and not any(sources):
            raise UsageError("--db needs --table NAME or --query SQL")
        raise UsageError("give exactly one input: PATH, --db FILE --table NAME, or --query SQL")
    if args.table is not None and args.db is None and not spark_engine:
        raise UsageError("--table needs --db FILE (or --engine spark for a Spark table)")
    if args.db is not None and args.path is not None:
        raise UsageError("--db goes with --table or --query, not with PATH")
    average = average_option(args.average)
    if average is not None and args.format == "text":
        raise UsageError(
            "--average sets how --format json or csv averages precision, recall and f1; the "
            "text report shows every average"
        )
    digits = digits_option(args)
    schema = schema_option(args)
    if args.format == "csv" and args.by is not None:
        clash = [c for c in split_option(args.by, "--by") if c in CSV_COLUMNS]
        if clash:
            raise input_error(
                f"group column {clash[0]!r} has the name of a column of --format csv "
                f"({', '.join(CSV_COLUMNS)})",
                role="by",
                column=clash[0],
                hint="rename it in --query (SELECT ... AS another_name), or use --format json",
            )
    inputs = input_paths(args)
    if args.html is not None:
        check_page_path(args.html, inputs)  # fail before reading anything
    check_stdout(inputs)
    progress = Progress()
    stack: list[Any] = []
    spark: SparkInput | None = None
    try:
        df: Any
        if spark_engine:
            spark, name = open_input(args, column_roles(args))
            stack.append(spark)
            df, frame_schema = spark.frame, spark.schema
            opened = spark

            def classes() -> list[Any]:
                return _classes(opened.pairs(args.y, args.yhat), "y", "yhat")

            progress(f"opened {name} in Spark")
        else:
            df, name = read_input(args, progress, stack, schema)
            frame_schema = df.schema

            def classes() -> list[Any]:
                return _classes(df, args.y, args.yhat)

        kw = _report_kwargs(args, frame_schema, classes)
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
            frame, head = _metrics(df, args, kw, average, spark)
            by = kw["by"] or []
            groups = group_parts(rep, frame, by)
            if args.format == "json":
                text = render_json(groups, head, by)
            else:
                text = render_csv(groups, head, by, dict(frame_schema))
        page = None
        if args.html is not None:
            page = _html_page(df, args, kw, f"Classification report: {name}")
            progress("html")
        emit(text)
        if "note" in head:
            print_note(head["note"])
        n_excluded = rep.n_excluded
        if isinstance(n_excluded, pl.DataFrame):
            n_excluded = int(n_excluded["n_excluded"].sum())
        if n_excluded:
            print_note(f"{n_excluded} row(s) with missing or non-finite values were left out")
        if page is not None:
            # checked again: the file may have appeared meanwhile
            path = write_page(check_page_path(args.html, inputs, probe=False), page)
            print(f"{PROG}: wrote {path}", file=sys.stderr)
    finally:
        for con in stack:
            con.close()
    return 0
