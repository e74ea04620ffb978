"""DuckDB side of clfeval: the ``clf_*`` SQL macros and helpers that return Polars frames.

The macros live in ``sql/NN_<family>.sql`` (shipped in the wheel as ``clfeval/sql_files``) and
are the source of truth: ``cat sql/*.sql | duckdb my.db`` installs them without Python.

Installing
    ``load(con)`` installs every macro into a DuckDB connection (``CREATE OR REPLACE``, so
    loading twice is harmless); ``text()`` is the whole script, ``files()`` the files in load
    order, ``connect()`` a new connection with the macros loaded.

Running a macro from Python (every user string is a bound parameter, never SQL text)
    ``table_macro(name, data, *columns, con=None, **params)`` runs a table macro, e.g.
    ``table_macro("clf_roc_curve", df, "y", "score", group_cols=["model"])``; ``params`` are the
    macro's named SQL parameters (``group_cols``, ``weight_col``, ``pos_label``, ``labels``...).

    ``aggregate(name, data, *columns, by=None, weight=None, con=None, **params)`` runs an
    aggregate macro under ``GROUP BY by``, e.g. ``aggregate("clf_precision", df, "y", "yhat")``;
    the result has the ``by`` columns and one column named after the metric (``precision``).

    Wrappers named and called like the Polars frame functions, ``f(data, y, yhat_or_score, *,
    by=None, weight=None, con=None, **options)`` with the options in Python spelling
    (``pos_label=``, ``labels=``, ``average=``, ``drop_intermediate=``, ``n_bins=``...):
    :func:`confusion_matrix`, :func:`counts`, :func:`report`, :func:`metrics`,
    :func:`roc_curve`, :func:`pr_curve`, :func:`det_curve`, :func:`thresholds`, :func:`auroc`,
    :func:`average_precision`, :func:`calibration`, :func:`gain_curve`. Each returns a
    ``pl.DataFrame`` whose columns and dtypes match the Polars function's (Int64 counts, Float64
    with a weight; Float64 rates), group columns first in ``by`` order, rows sorted by the group
    columns (nulls last), then in class or threshold order.

    >>> df = pl.DataFrame({"m": ["a", "a", "b"], "y": [0, 1, 1], "s": [0.2, 0.7, 0.4]})
    >>> roc_curve(df, "y", "s", by="m").columns
    ['m', 'threshold', 'fpr', 'tpr']

``data`` is a Polars DataFrame or LazyFrame (its used columns are registered in ``con`` under
an internal name for the call) or a table reference that ``con`` can read with ``query_table``
(then ``con`` is required): a table or view name, qualified or not (``"main.preds"``), or a
file path. DuckDB parses that string as a qualified name, so a name with dots or double quotes
must be quoted: pass ``quote(name)``. Without ``con`` a private in-memory connection is
used. Enum labels are evaluated in category order and come back as the Enum. Errors, from
Python checks or from the macros' own checks, are :class:`clfeval.InputError`.
"""

from __future__ import annotations

import difflib
import re
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl

from clfeval.exceptions import InputError
from clfeval.sqlgen import query

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "AGGREGATE_MACROS",
    "TABLE_MACROS",
    "aggregate",
    "auroc",
    "average_precision",
    "calibration",
    "confusion_matrix",
    "connect",
    "counts",
    "det_curve",
    "files",
    "gain_curve",
    "load",
    "metrics",
    "pr_curve",
    "query",
    "quote",
    "report",
    "roc_curve",
    "sql_dir",
    "table_macro",
    "text",
    "thresholds",
]

Data = pl.DataFrame | pl.LazyFrame | str
By = str | Sequence[str] | None


@dataclass(frozen=True)
class Macro:
    """What the Python side needs to know about one public macro."""

    roles: tuple[str, ...]  # column arguments after the table, in order
    options: tuple[str, ...]  # named parameters
    outputs: tuple[str, ...]  # output columns after the group columns
    positional: tuple[str, ...] = ()  # parameters passed by position after the columns


_LABEL = ("group_cols", "weight_col", "labels")
_CURVE = ("group_cols", "weight_col", "pos_label")
TABLE_MACROS: dict[str, Macro] = {
    "clf_confusion": Macro(("y", "yhat"), _LABEL, ("actual", "predicted", "count")),
    "clf_counts": Macro(("y", "yhat"), _LABEL, ("label", "tp", "fp", "fn", "tn", "support")),
    "clf_report": Macro(
        ("y", "yhat"), (*_LABEL, "zero_division"), ("label", "precision", "recall", "f1", "support")
    ),
    "clf_metrics": Macro(
        ("y", "yhat"),
        (*_LABEL, "average", "pos_label", "zero_division"),
        ("accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"),
    ),
    "clf_roc_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "fpr", "tpr")
    ),
    "clf_pr_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "precision", "recall")
    ),
    "clf_det_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "fpr", "fnr")
    ),
    "clf_thresholds": Macro(
        ("y", "score"),
        (*_CURVE, "beta", "zero_division"),
        (
            "threshold",
            "tp",
            "fp",
            "fn",
            "tn",
            "precision",
            "recall",
            "specificity",
            "fpr",
            "npv",
            "f1",
            "fbeta",
            "accuracy",
            "balanced_accuracy",
            "mcc",
            "youden_j",
        ),
    ),
    "clf_auroc": Macro(("y", "score"), _CURVE, ("auroc",)),
    "clf_average_precision": Macro(("y", "score"), _CURVE, ("average_precision",)),
    "clf_gain": Macro(("y", "score"), _CURVE, ("fraction_targeted", "gain")),
    "clf_calibration": Macro(
        ("y", "proba"),
        (*_CURVE, "n_bins", "strategy"),
        ("bin", "mean_predicted", "fraction_positive", "count"),
    ),
}

_RATIO = ("pos_label", "zero_division", "weight")
AGGREGATE_MACROS: dict[str, Macro] = {
    "clf_accuracy": Macro(("y", "yhat"), ("weight",), ("accuracy",)),
    **{
        f"clf_{name}": Macro(("y", "yhat"), _RATIO, (name,))
        for name in (
            "precision",
            "recall",
            "f1",
            "specificity",
            "npv",
            "fpr",
            "fnr",
            "jaccard",
        )
    },
    "clf_fbeta": Macro(("y", "yhat"), _RATIO, ("fbeta",), positional=("beta",)),
    "clf_mcc": Macro(("y", "yhat"), ("pos_label", "weight"), ("mcc",)),
    "clf_cohen_kappa": Macro(("y", "yhat"), ("pos_label", "weight"), ("cohen_kappa",)),
    "clf_balanced_accuracy": Macro(
        ("y", "yhat"), ("pos_label", "adjusted", "weight"), ("balanced_accuracy",)
    ),
    "clf_prevalence": Macro(("y",), ("pos_label", "weight"), ("prevalence",)),
    "clf_log_loss": Macro(("y", "proba"), ("pos_label", "weight"), ("log_loss",)),
    "clf_brier": Macro(("y", "proba"), ("pos_label", "weight"), ("brier",)),
}

_LABEL_ROLES = ("y", "yhat")
_LABEL_OUTPUTS = ("actual", "predicted", "label")


# --- the SQL files ------------------------------------------------------------------------


def sql_dir() -> Traversable:
    """The directory holding the ``NN_<family>.sql`` files.

    The installed wheel ships them as ``clfeval/sql_files``; a source checkout or an editable
    install reads ``<repo>/sql``.
    """
    packaged = resources.files("clfeval") / "sql_files"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "sql"


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


_default: duckdb.DuckDBPyConnection | None = None
_default_lock = threading.Lock()


@contextmanager
def _session(con: duckdb.DuckDBPyConnection | None) -> Iterator[duckdb.DuckDBPyConnection]:
    """``con`` as given (macros are loaded on first use), or a cursor on a private database."""
    global _default
    if con is not None:
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


# --- data in ------------------------------------------------------------------------------


def _as_list(by: By) -> list[str]:
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def _missing(name: str, role: str, names: list[str], where: str) -> InputError:
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    folded = [n for n in names if n.lower() == name.lower()]
    guess = folded[0] if folded else (close[0] if close else None)
    hint = f"the {where} has {names}" + (f"; did you mean {guess!r}?" if guess else "")
    return InputError(
        f"column {name!r} ({role}) not found",
        column=name,
        role=role,
        rule="missing_column",
        hint=hint,
    )


@dataclass
class _Source:
    table: str  # bound as a parameter, never pasted into SQL
    enum: pl.Enum | None  # the Enum of the label columns, evaluated as category codes


def _check_names(roles: list[tuple[str, str]], names: list[str], where: str, spec: Macro) -> None:
    for role, name in roles:
        if not isinstance(name, str):
            raise InputError(
                f"{role} must be a column name, got {name!r}",
                role=role,
                rule="column_type",
                hint="pass the column's name as a string",
            )
        if name.startswith("__clf_"):
            raise InputError(
                f"column {name!r} ({role}) uses the reserved prefix '__clf_'",
                column=name,
                role=role,
                rule="reserved_name",
                hint="rename the column",
            )
        if name not in names:
            raise _missing(name, role, names, where)
    used = list(dict.fromkeys(name for _, name in roles))
    folded: dict[str, str] = {}
    for name in used:
        other = folded.setdefault(name.casefold(), name)
        if other != name:
            raise InputError(
                f"columns {other!r} and {name!r} differ only in case",
                column=name,
                rule="case_collision",
                hint="DuckDB matches column names case-insensitively; rename one of them",
            )
    clash = [name for role, name in roles if role == "by" and name in spec.outputs]
    if clash:
        raise InputError(
            f"group column {clash[0]!r} has the name of an output column",
            column=clash[0],
            role="by",
            rule="name_clash",
            hint=f"the output has the columns {list(spec.outputs)}; rename the group column",
        )


def _enum_of(schema: pl.Schema, label_cols: list[str]) -> pl.Enum | None:
    enums = {schema[c] for c in label_cols if isinstance(schema[c], pl.Enum)}
    if len(enums) > 1:
        raise InputError(
            f"columns {label_cols[0]!r} and {label_cols[-1]!r} are Enums with different categories",
            column=label_cols[-1],
            role="yhat",
            rule="enum_mismatch",
            hint="cast both columns to one Enum that lists every class",
        )
    return enums.pop() if enums else None


@contextmanager
def _source(
    con: duckdb.DuckDBPyConnection, data: Data, roles: list[tuple[str, str]], spec: Macro
) -> Iterator[_Source]:
    """Check the columns, then expose ``data`` to ``con`` under a name for one call."""
    if isinstance(data, str):
        try:
            rel = con.sql("SELECT * FROM query_table($t) LIMIT 0", params={"t": data})
        except duckdb.Error as err:
            raise InputError(
                f"table {data!r} cannot be read: {_first_line(err)}",
                role="data",
                rule="missing_table",
                hint="pass a table or view of this connection, or a file path",
            ) from err
        _check_names(roles, list(rel.columns), "table", spec)
        yield _Source(data, None)
        return
    if not isinstance(data, pl.DataFrame | pl.LazyFrame):
        raise InputError(
            f"data must be a Polars DataFrame or LazyFrame or a table name, got "
            f"{type(data).__name__}",
            role="data",
            rule="data_type",
            hint="convert with pl.from_pandas(...) or pl.from_arrow(...)",
        )
    schema = data.collect_schema()
    _check_names(roles, list(schema.names()), "frame", spec)
    used = list(dict.fromkeys(name for _, name in roles))
    label_cols = list(dict.fromkeys(n for r, n in roles if r in _LABEL_ROLES))
    enum = _enum_of(schema, label_cols)
    exprs = []
    for name in used:
        expr = pl.col(name)
        if name in label_cols and enum is not None:
            expr = expr.cast(enum).to_physical()
        elif isinstance(schema[name], pl.Categorical | pl.Enum):
            expr = expr.cast(pl.String)
        exprs.append(expr)
    frame = data.select(exprs)  # a LazyFrame stays lazy: DuckDB collects it when it scans
    name = f"__clf_input_{secrets.token_hex(6)}"
    con.register(name, frame)
    try:
        yield _Source(name, enum)
    finally:
        con.unregister(name)


def _codes(value: Any, enum: pl.Enum, role: str) -> int:
    categories = enum.categories.to_list()
    if value not in categories:
        raise InputError(
            f"{role}={value!r} is not a category of the Enum labels",
            role=role,
            rule="unknown_category",
            hint=f"the categories are {categories[:10]}",
        )
    return categories.index(value)


def _bind_labels(params: dict[str, Any], enum: pl.Enum | None) -> dict[str, Any]:
    """Translate ``pos_label`` and ``labels`` to category codes for Enum labels."""
    if enum is None:
        return params
    out = dict(params)
    if out.get("pos_label") is not None:
        categories = enum.categories.to_list()
        # an absent positive class matches no row, as in the Polars engine
        pos = out["pos_label"]
        out["pos_label"] = categories.index(pos) if pos in categories else -1
    if out.get("labels") is not None:
        out["labels"] = [_codes(v, enum, "labels") for v in out["labels"]]
    return out


# --- running ------------------------------------------------------------------------------

_CHECK = re.compile(
    r"column '(?P<column>.*)' \(role (?P<role>\w+)\) has (?P<n>\d+) (?P<what>[^;]*?)"
    r"(?:; (?P<hint>.*))?$",
    re.S,
)
_RULES = {
    "NaN value(s)": "nan",
    "infinite value(s)": "inf",
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
    if found is None:
        return InputError(body, rule="sql_check", hint="see the macro's COMMENT for its options")
    what = found["what"]
    rule = next((r for key, r in _RULES.items() if what.startswith(key)), "probability_range")
    return InputError(
        f"column {found['column']!r} ({found['role']}) has {found['n']} {what}",
        column=found["column"],
        role=found["role"],
        rule=rule,
        hint=found["hint"] or "see the macro's COMMENT",
    )


def _fetch(
    con: duckdb.DuckDBPyConnection, query: str, binds: dict[str, Any], macro: str
) -> pl.DataFrame:
    for attempt in (1, 2):
        try:
            return con.sql(query, params=binds).pl()
        except duckdb.CatalogException as err:
            # a connection without the macros: install them once and try again
            if attempt == 2 or "clf_" not in str(err):
                raise _input_error(err, macro) from err
            load(con)
        except duckdb.Error as err:
            raise _input_error(err, macro) from err
    raise AssertionError("unreachable")  # pragma: no cover


def _finish(out: pl.DataFrame, by: list[str], enum: pl.Enum | None) -> pl.DataFrame:
    """Group columns first in ``by`` order; Enum codes back to their categories."""
    if by:  # the macros sort by the group columns in table order; the result is in by order
        out = out.select(*by, pl.exclude(by)).sort(by, nulls_last=True, maintain_order=True)
    if enum is None:
        return out
    categories = enum.categories.to_list()
    codes = list(range(len(categories)))
    fixes = []
    for name in _LABEL_OUTPUTS:
        if name not in out.columns or name in by:
            continue
        if out.schema[name] == pl.String:  # clf_report: codes as text, summary rows as is
            fixes.append(pl.col(name).replace([str(c) for c in codes], categories))
        else:
            fixes.append(pl.col(name).replace_strict(codes, categories, return_dtype=enum))
    return out.with_columns(fixes) if fixes else out


def _spec(registry: dict[str, Macro], name: str, kind: str) -> Macro:
    if name not in registry:
        raise InputError(
            f"{name!r} is not a clfeval {kind} macro",
            role="macro",
            rule="option",
            hint=f"choose one of {sorted(registry)}",
        )
    return registry[name]


def _check_params(spec: Macro, name: str, params: dict[str, Any]) -> None:
    unknown = sorted(set(params) - set(spec.options) - set(spec.positional))
    if unknown:
        raise InputError(
            f"{name} has no parameter {unknown[0]!r}",
            role=unknown[0],
            rule="option",
            hint=f"its parameters are {[*spec.positional, *spec.options]}",
        )


def table_macro(
    name: str,
    data: Data,
    *columns: str,
    con: duckdb.DuckDBPyConnection | None = None,
    **params: Any,
) -> pl.DataFrame:
    """Run the table macro ``name`` on ``data`` and return its result as a Polars frame.

    ``columns`` are the column arguments (``y, yhat`` or ``y, score``); ``params`` the macro's
    named parameters in SQL spelling (``group_cols=[...]``, ``weight_col=...``, ``labels=``,
    ``pos_label=``...). Every value is bound as a parameter. Group columns come first, in
    ``group_cols`` order.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1], "s": [0.2, 0.7, 0.4]})
    >>> table_macro("clf_auroc", df, "y", "s")["auroc"].item()
    1.0
    """
    spec = _spec(TABLE_MACROS, name, "table")
    if len(columns) != len(spec.roles):
        raise InputError(
            f"{name} takes {len(spec.roles)} columns {list(spec.roles)}, got {list(columns)}",
            rule="option",
            hint=f"call table_macro({name!r}, data, {', '.join(spec.roles)})",
        )
    _check_params(spec, name, params)
    by = _as_list(params.pop("group_cols", None))
    weight = params.pop("weight_col", None)
    if params.get("labels") is not None:
        params["labels"] = list(params["labels"])
    if name == "clf_metrics" and params.get("average", "binary") != "binary":
        # pos_label matters only for 'binary'; dropping it keeps string labels away from the
        # integer default
        params.pop("pos_label", None)
    roles = [*zip(spec.roles, columns), *(("by", b) for b in by)]
    if weight is not None:
        roles.append(("weight", weight))
    with _session(con) as c, _source(c, data, roles, spec) as src:
        options = {**_bind_labels(params, src.enum), "group_cols": by, "weight_col": weight}
        binds = {"tbl": src.table, **{f"c{i}": col for i, col in enumerate(columns)}}
        binds.update({f"p_{p}": v for p, v in options.items()})
        args = ["$tbl", *(f"$c{i}" for i in range(len(columns)))]
        args += [f"{p} := $p_{p}" for p in options]
        # only fixed identifiers (the macro and parameter names checked above) reach the text
        out = _fetch(c, f"SELECT * FROM {name}({', '.join(args)})", binds, name)
    return _finish(out, by, src.enum)


def aggregate(
    name: str,
    data: Data,
    *columns: str,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    **params: Any,
) -> pl.DataFrame:
    """Run the aggregate macro ``name`` under ``GROUP BY by``: by columns, then the metric.

    The metric column is named after the macro without ``clf_`` (``clf_precision`` ->
    ``precision``). ``params`` are the macro's named parameters (``pos_label``,
    ``zero_division``...); ``beta`` for ``clf_fbeta``. Rows are sorted by the group columns.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1, 0, 1, 0]})
    >>> aggregate("clf_precision", df, "y", "yhat")["precision"].item()
    0.5
    """
    spec = _spec(AGGREGATE_MACROS, name, "aggregate")
    if len(columns) != len(spec.roles):
        raise InputError(
            f"{name} takes {len(spec.roles)} columns {list(spec.roles)}, got {list(columns)}",
            rule="option",
            hint=f"call aggregate({name!r}, data, {', '.join(spec.roles)})",
        )
    _check_params(spec, name, params)
    by_cols = _as_list(by)
    roles = [*zip(spec.roles, columns), *(("by", b) for b in by_cols)]
    if weight is not None:
        roles.append(("weight", weight))
    missing = [p for p in spec.positional if p not in params]
    if missing:
        raise InputError(
            f"{name} needs {missing[0]}=",
            role=missing[0],
            rule="option",
            hint=f"pass {missing[0]}=... as a keyword",
        )
    metric = spec.outputs[0]
    with _session(con) as c, _source(c, data, roles, spec) as src:
        binds: dict[str, Any] = {f"c{i}": col for i, col in enumerate(columns)}
        binds.update(tbl=src.table)
        picked = [f"COLUMNS([$c{i}]) AS __clf_a{i}" for i in range(len(columns))]
        if weight is not None:
            binds["w"] = weight
            picked.append("COLUMNS([$w]) AS __clf_w")
        if by_cols:
            binds["by"] = by_cols
            picked.insert(0, "COLUMNS($by)")
        values = _bind_labels(params, src.enum)
        call = [f"__clf_a{i}" for i in range(len(columns))]
        call += [f"$p_{p}" for p in spec.positional]
        call += [f"{p} := $p_{p}" for p in values if p not in spec.positional]
        if weight is not None:
            call.append("weight := __clf_w")
        binds.update({f"p_{p}": v for p, v in values.items()})
        # only fixed identifiers (the macro and parameter names checked above) reach the text
        query = (
            f"WITH __clf_rows AS (SELECT {', '.join(picked)} FROM query_table($tbl)) "
            f"SELECT {'COLUMNS($by), ' if by_cols else ''}{name}({', '.join(call)}) AS {metric} "
            f"FROM __clf_rows{' GROUP BY ALL ORDER BY ALL' if by_cols else ''}"
        )
        out = _fetch(c, query, binds, name)
    return _finish(out, by_cols, None)


# --- wrappers named and called like the Polars frame functions ---------------------------


def _wrapper(macro: str, summary: str) -> Callable[..., pl.DataFrame]:
    def run(
        data: Data,
        *columns: str,
        by: By = None,
        weight: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
        **options: Any,
    ) -> pl.DataFrame:
        return table_macro(
            macro, data, *columns, con=con, group_cols=by, weight_col=weight, **options
        )

    spec = TABLE_MACROS[macro]
    run.__name__ = run.__qualname__ = summary.split(":", 1)[0]
    run.__doc__ = (
        f"{summary}\n\n"
        f"Runs ``{macro}``: ``{run.__name__}(data, {', '.join(spec.roles)}, *, by=None, "
        f"weight=None, con=None, **options)`` with ``options`` among "
        f"{[o for o in spec.options if o not in ('group_cols', 'weight_col')]} (the macro's "
        f"defaults apply). Returns the group columns, then {list(spec.outputs)}."
    )
    return run


confusion_matrix = _wrapper(
    "clf_confusion", "confusion_matrix: every pair of classes per group, zeros included."
)
counts = _wrapper("clf_counts", "counts: one-vs-rest tp, fp, fn, tn and support per class.")
report = _wrapper("clf_report", "report: the table of clfeval.report (per class, then summaries).")
metrics = _wrapper(
    "clf_metrics", "metrics: accuracy, balanced accuracy, precision, recall, f1 and mcc."
)
roc_curve = _wrapper("clf_roc_curve", "roc_curve: scikit-learn's ROC points in its order.")
pr_curve = _wrapper("clf_pr_curve", "pr_curve: scikit-learn's precision-recall points.")
det_curve = _wrapper("clf_det_curve", "det_curve: scikit-learn's DET points in its order.")
thresholds = _wrapper("clf_thresholds", "thresholds: counts and metrics at every distinct score.")
auroc = _wrapper("clf_auroc", "auroc: the area under the ROC curve per group (null: one class).")
average_precision = _wrapper(
    "clf_average_precision", "average_precision: scikit-learn's step sum per group."
)
calibration = _wrapper("clf_calibration", "calibration: scikit-learn's calibration_curve points.")
gain_curve = _wrapper("clf_gain", "gain_curve: share of positives found against share targeted.")
