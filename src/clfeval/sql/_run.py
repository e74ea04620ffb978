"""Running the macros from Python: the front door's checks, then the macro, then Polars.

Every call checks its options with :mod:`clfeval._options` and its data with
:mod:`clfeval._validate` (a Polars frame) or :mod:`clfeval.sql._checks` (a table inside
DuckDB, counted by SQL), so bad input gets the same :class:`InputError` as on the Polars
front door. Every user string is a bound parameter; only macro and parameter names, checked
against the registry below, reach the SQL text.
"""

from __future__ import annotations

import difflib
import re
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import duckdb
import polars as pl

from clfeval import _options, _validate
from clfeval.exceptions import InputError
from clfeval.sql._files import connect, load
from clfeval.sql._macros import AGGREGATE_MACROS, TABLE_MACROS, Macro
from clfeval.sql._source import By, Call, Data, Source, bind_labels, check_classes, source

_LABEL_OUTPUTS = ("actual", "predicted", "label")
MACRO_AVERAGES = ("binary", "micro", "macro", "weighted")
_AVERAGED = (
    "clf_metrics",
    "clf_metrics_ci",
    "clf_bootstrap",
    "clf_cv_summary",
)  # pos_label: binary


def check_values(
    params: dict[str, Any], averages: Sequence[Any] = MACRO_AVERAGES
) -> dict[str, Any]:
    """Every option through the one check of :mod:`clfeval._options` (canonical values)."""
    out = dict(params)
    checks: dict[str, Callable[[Any], Any]] = {
        "labels": _options.labels,
        "zero_division": _options.zero_division,
        "average": lambda v: _options.average(v, averages),
        "pos_label": lambda v: _options.class_value("pos_label", v),
        "drop_intermediate": lambda v: _options.flag("drop_intermediate", v),
        "adjusted": lambda v: _options.flag("adjusted", v),
        "beta": _options.beta,
        "max_fpr": _options.max_fpr,
        "k": _options.k,
        "kind": lambda v: _options.choice(
            "kind",
            v,
            ("expected", "max"),
            "'expected' weighs each bin by its size, 'max' takes the worst bin",
        ),
        "multi_class": lambda v: _options.choice(
            "multi_class",
            v,
            ("ovr", "ovo"),
            "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
        ),
        "n_bins": _options.n_bins,
        "n_boot": _options.n_boot,
        "seed": _options.seed,
        "level": lambda v: _options.level("level", v),
        "thresholds": _options.threshold_grid,
        "ddof": _options.ddof,
        "fold": lambda v: _options.column_name("fold", v),
        "weights": lambda v: _options.choice(
            "weights",
            v,
            (None, "linear", "quadratic"),
            "weights sets how far apart two classes are in the class order",
        ),
        "kappa_weights": _options.kappa_weights,
        "strategy": lambda v: _options.choice(
            "strategy",
            v,
            ("uniform", "quantile"),
            "'uniform' splits [0, 1] evenly, 'quantile' puts as many rows in each bin",
        ),
    }
    for name, check in checks.items():
        if name in out:
            out[name] = check(out[name])
    if "prevalence" in out:  # a number here: the macros take no column and no mapping
        out["prevalence"] = _options.prevalence(out["prevalence"], column=False, mapping=False)
    costs = ("cost_fp", "cost_fn", "benefit_tp", "benefit_tn")
    if any(out.get(c) is not None for c in costs):
        given = _options.costs(*(out.get(c, 0.0 if c.startswith("b") else None) for c in costs))
        out.update({c: v for c, v in zip(costs, given or ()) if c in out})
    return {k: v for k, v in out.items() if k not in (*costs, "prevalence") or v is not None}


# --- sessions ------------------------------------------------------------------------------

_default: duckdb.DuckDBPyConnection | None = None
_default_lock = threading.Lock()


@contextmanager
def session(con: duckdb.DuckDBPyConnection | None) -> Iterator[duckdb.DuckDBPyConnection]:
    """``con`` as given (macros are loaded on first use), or a cursor on a private database."""
    global _default
    if con is not None:
        if not isinstance(con, duckdb.DuckDBPyConnection):
            raise InputError(
                f"con must be a DuckDB connection, got {type(con).__name__}",
                role="con",
                rule="data_type",
                hint="pass duckdb.connect(...), or leave con=None for a private database",
            )
        try:
            con.sql("SELECT 1").fetchall()
        except duckdb.ConnectionException as err:
            raise InputError(
                "con is a closed DuckDB connection",
                role="con",
                rule="data_type",
                hint="open it again with duckdb.connect(...), or leave con=None",
            ) from err
        yield con
        return
    with _default_lock:
        if _default is None:
            _default = connect()
        cursor = _default.cursor()
    try:
        yield cursor
    finally:
        cursor.close()


# --- running ------------------------------------------------------------------------------

_CHECK = re.compile(
    r"column '(?P<column>.*)' \(role (?P<role>\w+)\) has (?P<n>\d+) (?P<what>[^;]*?)"
    r"(?:; (?P<hint>.*))?$",
    re.S,
)
_RULES = {
    "non-integral value(s)": "frequency_weight",
    "NaN value(s)": "nan",
    "infinite value(s)": "inf",
    "negative value(s)": "negative_weight",
    "classes but average": "multiclass_binary",
}


def _first_line(err: BaseException) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__


def _input_error(err: duckdb.Error, macro: str) -> InputError:
    """A DuckDB error as InputError; the macros' own checks keep their column and role."""
    message = _first_line(err)
    if "clfeval: " not in message:
        return InputError(
            f"duckdb could not evaluate {macro}: {message}",
            rule="duckdb",
            hint="check that pos_label and labels have the type of the label columns",
        )
    body = message.split("clfeval: ", 1)[1]
    found = _CHECK.match(body)
    if found is None:  # a check's own hint follows "; hint: "
        body, _, hint = body.partition("; hint: ")
        return InputError(
            body, rule="sql_check", hint=hint or "see the macro's COMMENT for its options"
        )
    what = found["what"]
    rule = next((r for key, r in _RULES.items() if what.startswith(key)), "probability_range")
    return InputError(
        f"column {found['column']!r} ({found['role']}) has {found['n']} {what}",
        column=found["column"],
        role=found["role"],
        rule=rule,
        hint=found["hint"] or "see the macro's COMMENT",
    )


# ``con.execute`` binds a query once; ``con.sql`` binds it to describe the relation, then again
# to run it, which cost 10-40 ms per macro call (clf_auroc binds three plans). DuckDB warns
# that Arrow output from ``execute`` copies the rows once more: the results here are curves
# and tables of metrics, and that copy costs less than the second bind of the macro. The
# warning is hidden for that one call (on Python < 3.14 ``catch_warnings`` is process-wide,
# so a concurrent call may see the filter too; it names this one message only).
_COPY_WARNING = "Arrow output on a DB-API result"


def fetch(
    con: duckdb.DuckDBPyConnection, query: str, binds: dict[str, Any], macro: str
) -> pl.DataFrame:
    for attempt in (1, 2):
        try:
            result = con.execute(query, binds)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", _COPY_WARNING, UserWarning)
                table = result.to_arrow_reader().read_all()
            return pl.from_arrow(table, rechunk=False)  # type: ignore[return-value]
        except duckdb.CatalogException as err:
            # a connection without the macros: install them once and try again
            if attempt == 2 or "clf_" not in str(err):
                raise _input_error(err, macro) from err
            load(con)
        except duckdb.Error as err:
            raise _input_error(err, macro) from err
    raise AssertionError("unreachable")  # pragma: no cover


def finish(
    out: pl.DataFrame, src: Source, by: list[str], *, excluded: bool, label_dtype: bool = False
) -> pl.DataFrame:
    """Group columns first in ``by`` order; Enum codes back to their categories; with
    ``excluded``, the ``n_excluded`` column of a drop option after the group columns."""
    if by:  # the macros sort by the group columns in table order; the result is in by order
        out = out.select(*by, pl.exclude(by)).sort(by, nulls_last=True, maintain_order=True)
    if src.enum is not None:
        categories = src.enum.categories.to_list()
        codes = list(range(len(categories)))
        fixes = []
        for name in _LABEL_OUTPUTS:
            if name not in out.columns or name in by:
                continue
            if out.schema[name] == pl.String:  # clf_report: codes as text, summary rows as is
                fixes.append(pl.col(name).replace([str(c) for c in codes], categories))
            else:
                fixes.append(pl.col(name).replace_strict(codes, categories, return_dtype=src.enum))
        out = out.with_columns(fixes) if fixes else out
    if label_dtype and src.enum is None and src.dtype is not None and "label" in out.columns:
        out = out.with_columns(pl.col("label").cast(src.dtype))  # labels := binds as BIGINT
    if src.dtype in (pl.Int128, pl.UInt128):  # labels went through DuckDB as DECIMAL(38, 0)
        wide = [
            c for c in _LABEL_OUTPUTS if c in out.columns and isinstance(out.schema[c], pl.Decimal)
        ]
        out = out.with_columns(pl.col(wide).cast(src.dtype))
    if excluded and src.n_excluded is not None:
        n = src.n_excluded.with_columns(pl.col("n_excluded").cast(pl.Int64))
        if by:
            out = out.join(n, on=by, how="left", nulls_equal=True, maintain_order="left")
        else:
            out = out.with_columns(pl.lit(n.item(), pl.Int64).alias("n_excluded"))
        out = out.select(*by, "n_excluded", pl.exclude([*by, "n_excluded"]))
    return out


def spec_of(registry: dict[str, Macro], name: str, kind: str) -> Macro:
    if name not in registry:
        close = difflib.get_close_matches(str(name), list(registry), n=1)
        raise InputError(
            f"{name!r} is not a clfeval {kind} macro",
            role="macro",
            rule="option",
            hint=(f"did you mean {close[0]!r}? " if close else "")
            + f"choose one of {sorted(registry)}",
        )
    return registry[name]


def check_call(spec: Macro, name: str, columns: Sequence[Any], params: dict[str, Any]) -> None:
    if len(columns) != len(spec.roles):
        raise InputError(
            f"{name} takes {len(spec.roles)} columns {list(spec.roles)}, got {list(columns)}",
            rule="option",
            hint=f"call it with the data, then {', '.join(spec.roles)}",
        )
    for role, column in zip(spec.roles, columns):
        if role == "scores":
            if isinstance(column, str) or not isinstance(column, Sequence):
                raise InputError(
                    f"{name} takes a list of per-class score columns, got {column!r}",
                    role="score",
                    rule="score_labels",
                    hint="pass [column, ...] with labels=[class, ...] in the same order",
                )
            for c in column:
                _options.column_name("score", c)
            continue
        if role in ("score", "proba") and isinstance(column, Mapping | list | tuple):
            raise InputError(
                f"{name} takes one {role} column (binary); got per-class columns {column!r}",
                role=role,
                rule="score_labels",
                hint="the DuckDB macros score two classes; for multiclass scores use the "
                "Polars functions (ce.auroc, ce.metrics, ce.roc_curve with score={label: col})",
            )
        _options.column_name(role, column)
    unknown = sorted(set(params) - set(spec.options) - set(spec.positional))
    if unknown:
        raise InputError(
            f"{name} has no parameter {unknown[0]!r}",
            role=unknown[0],
            rule="option",
            hint=f"its parameters are {[*spec.positional, *spec.options]}",
        )
    missing = [p for p in spec.positional if p not in params]
    if missing:
        raise InputError(
            f"{name} needs {missing[0]}=",
            role=missing[0],
            rule="option",
            hint=f"pass {missing[0]}=... as a keyword",
        )


def per_class_columns(score: Any, labels: Any, name: str) -> dict[Any, str]:
    """``{label: column}`` from per-class scores: a mapping (restricted to and ordered by
    ``labels`` when given), or a list of columns with ``labels`` of the same length, as
    clfeval's ``score=`` / ``labels=``."""
    labels = _options.labels(labels)
    if isinstance(score, Mapping):
        for key in score:
            _options.class_value("score", key)
        mapping = _validate.order_scores(score, labels) if labels is not None else dict(score)
    elif isinstance(score, str):
        raise InputError(
            f"{name} takes per-class score columns, got the one column {score!r}",
            role="score",
            rule="score_labels",
            hint="pass {label: column, ...}, or [column, ...] with labels=; a List/Array "
            "score column works with the Polars functions only",
        )
    elif isinstance(score, Sequence):
        columns = list(score)
        if labels is None or len(labels) != len(columns):
            raise InputError(
                f"a list of {len(columns)} score columns needs labels= of the same length",
                role="score",
                rule="score_labels",
                hint="pass labels=[...] in the order of the columns, or a mapping {label: column}",
            )
        mapping = dict(zip(labels, columns))
    else:
        raise InputError(
            f"{name} takes per-class score columns, got {score!r}",
            role="score",
            rule="score_labels",
            hint="pass {label: column, ...}, or [column, ...] with labels=",
        )
    if len(mapping) < 2:
        raise InputError(
            f"multiclass scores need at least two classes, got {list(mapping)!r}",
            role="score",
            rule="score_labels",
            hint="pass one column for a binary score, or one column per class",
        )
    for column in mapping.values():
        _options.column_name("score", column)
    return mapping


def table_macro(
    name: str,
    data: Data,
    *columns: str,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    check_probability: bool = False,
    **params: Any,
) -> pl.DataFrame:
    """Run the table macro ``name`` on ``data`` and return its result as a Polars frame.

    ``columns`` are the column arguments (``y, yhat`` or ``y, score``); ``params`` the macro's
    named parameters in SQL spelling (``group_cols=[...]``, ``weight_col=...``, ``labels=``,
    ``pos_label=``...). The data is checked as on the Polars front door first (``missing``
    and ``nonfinite`` as there). Every value is bound as a parameter. Group columns come
    first, in ``group_cols`` order.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1], "s": [0.2, 0.7, 0.4]})
    >>> table_macro("clf_auroc", df, "y", "s")["auroc"].item()
    1.0
    """
    spec = spec_of(TABLE_MACROS, name, "table")
    if check_probability:  # the score is read as a probability too (log loss, Brier)
        spec = replace(spec, probability=True)
    scores = None
    if spec.multiclass and len(columns) == 2:
        scores = per_class_columns(columns[1], params.get("labels"), name)
        columns = (columns[0], list(scores.values()))
        params["labels"] = list(scores)
    check_call(spec, name, columns, params)
    by = _options.group_columns(params.pop("group_cols", None))
    weight = params.pop("weight_col", None)
    if weight is not None:
        _options.column_name("weight", weight)
    averages: Sequence[Any] = MACRO_AVERAGES
    if name == "clf_auroc_multiclass":  # clfeval.auroc's order: multi_class, then average
        if "multi_class" in params:
            params["multi_class"] = check_values({"multi_class": params["multi_class"]})[
                "multi_class"
            ]
        ovo = params.get("multi_class", "ovr") == "ovo"
        averages = ("macro", "weighted") if ovo else ("macro", "weighted", "micro")
    params = check_values(params, averages)
    if (
        name == "clf_metrics"
        and "prevalence" in params
        and params.get("average", "binary") != "binary"
    ):
        raise InputError(
            "prevalence needs average='binary' in clf_metrics",
            role="prevalence",
            rule="option",
            hint="for averages at a target class distribution use "
            "clfeval.metrics(..., prevalence={class: share})",
        )
    if name in _AVERAGED and params.get("average", "binary") != "binary":
        # pos_label matters only for 'binary'; dropping it keeps string labels away from the
        # integer default
        params.pop("pos_label", None)
    run = name
    if name == "clf_auroc" and params.get("max_fpr") in (None, 1):
        # the full area: without the partial area's branch the macro binds 15 ms faster
        params.pop("max_fpr", None)
        run = "_clf_auroc_area"
    call = Call(
        spec,
        columns,
        by,
        weight,
        params,
        _options.mode("missing", missing),
        _options.mode("nonfinite", nonfinite),
        scores,
    )
    with session(con) as c, source(c, data, call) as src:
        check_classes(call, src)
        options = {**bind_labels(params, src.enum), "group_cols": by, "weight_col": weight}
        binds = {"tbl": src.table, **{f"c{i}": col for i, col in enumerate(columns)}}
        binds.update({f"p_{p}": v for p, v in options.items()})
        args = ["$tbl", *(f"$c{i}" for i in range(len(columns)))]
        args += [f"{p} := $p_{p}" for p in options]
        # only fixed identifiers (the macro and parameter names checked above) reach the text
        out = fetch(c, f"SELECT * FROM {run}({', '.join(args)})", binds, name)
        excluded = name in ("clf_metrics", "clf_metrics_ci")
        return finish(out, src, by, excluded=excluded, label_dtype=spec.multiclass)


def aggregate(
    name: str,
    data: Data,
    *columns: str,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    **params: Any,
) -> pl.DataFrame:
    """Run the aggregate macro ``name`` under ``GROUP BY by``: by columns, then the metric.

    The metric column is named after the macro without ``clf_`` (``clf_precision`` ->
    ``precision``). ``params`` are the macro's named parameters (``pos_label``,
    ``zero_division``...); ``beta`` for ``clf_fbeta``. The data is checked as on the Polars
    front door first. Rows are sorted by the group columns.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> aggregate("clf_precision", df, "y", "yhat")["precision"].item()
    0.5
    """
    spec = spec_of(AGGREGATE_MACROS, name, "aggregate")
    check_call(spec, name, columns, params)
    by_cols = _options.group_columns(by)
    if weight is not None:
        _options.column_name("weight", weight)
    params = check_values(params)
    metric = spec.outputs[0]
    call = Call(
        spec,
        columns,
        by_cols,
        weight,
        params,
        _options.mode("missing", missing),
        _options.mode("nonfinite", nonfinite),
    )
    with session(con) as c, source(c, data, call) as src:
        check_classes(call, src)
        binds: dict[str, Any] = {f"c{i}": col for i, col in enumerate(columns)}
        binds.update(tbl=src.table)
        picked = [f"COLUMNS([$c{i}]) AS __clf_a{i}" for i in range(len(columns))]
        if weight is not None:
            binds["w"] = weight
            picked.append("COLUMNS([$w]) AS __clf_w")
        if by_cols:
            binds["by"] = by_cols
            picked.insert(0, "COLUMNS($by)")
        values = bind_labels(params, src.enum)
        call_args = [f"__clf_a{i}" for i in range(len(columns))]
        call_args += [f"$p_{p}" for p in spec.positional]
        call_args += [f"{p} := $p_{p}" for p in values if p not in spec.positional]
        if weight is not None:
            call_args.append("weight := __clf_w")
        binds.update({f"p_{p}": v for p, v in values.items()})
        # only fixed identifiers (the macro and parameter names checked above) reach the text
        query = (
            f"WITH __clf_rows AS (SELECT {', '.join(picked)} FROM query_table($tbl)) "
            f"SELECT {'COLUMNS($by), ' if by_cols else ''}"
            f"{name}({', '.join(call_args)}) AS {metric} "
            f"FROM __clf_rows{' GROUP BY ALL ORDER BY ALL' if by_cols else ''}"
        )
        out = fetch(c, query, binds, name)
        return finish(out, src, by_cols, excluded=False)
