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
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl

from clfeval import _options, _validate
from clfeval._frames import as_polars
from clfeval.exceptions import InputError
from clfeval.sql import _checks
from clfeval.sql._files import connect, load
from clfeval.sql._macros import AGGREGATE_MACROS, TABLE_MACROS, Macro

Data = pl.DataFrame | pl.LazyFrame | str
_LABEL_ROLES = ("y", "yhat")
_LABEL_OUTPUTS = ("actual", "predicted", "label")
_MACRO_AVERAGES = ("binary", "micro", "macro", "weighted")
By = str | Sequence[str] | None


def _check_values(
    params: dict[str, Any], averages: Sequence[Any] = _MACRO_AVERAGES
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
        "weights": lambda v: _options.choice(
            "weights",
            v,
            (None, "linear", "quadratic"),
            "weights sets how far apart two classes are in the class order",
        ),
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
    return out


# --- sessions ------------------------------------------------------------------------------

_default: duckdb.DuckDBPyConnection | None = None
_default_lock = threading.Lock()


@contextmanager
def _session(con: duckdb.DuckDBPyConnection | None) -> Iterator[duckdb.DuckDBPyConnection]:
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


# --- data in --------------------------------------------------------------------------------


def _check_names(roles: list[tuple[str, str]]) -> None:
    """What DuckDB adds to the front door's rules: names that differ only in case collide."""
    for role, name in roles:
        _options.column_name(role, name)
    folded: dict[str, str] = {}
    for name in dict.fromkeys(name for _, name in roles):
        other = folded.setdefault(name.casefold(), name)
        if other != name:
            raise InputError(
                f"columns {other!r} and {name!r} differ only in case",
                column=name,
                rule="case_collision",
                hint="DuckDB matches column names case-insensitively; rename one of them",
            )


@dataclass
class _Source:
    table: str  # bound as a parameter, never pasted into SQL
    enum: pl.Enum | None  # the Enum of the label columns, evaluated as category codes
    classes: list[Any] | None  # the classes present, when the checks needed them
    n_excluded: pl.DataFrame | None  # rows left out by missing/nonfinite="drop", per group
    dtype: pl.DataType | None = None  # the dtype y and yhat are compared in


def _enum_of(schema: pl.Schema, label_cols: list[str]) -> pl.Enum | None:
    enums = {schema[c] for c in label_cols if isinstance(schema[c], pl.Enum)}
    return enums.pop() if len(enums) == 1 else None


@dataclass(frozen=True)
class _Call:
    """One macro call as the checks see it."""

    spec: Macro
    columns: tuple[str, ...]
    by: list[str]
    weight: str | None
    params: dict[str, Any]
    missing: str
    nonfinite: str
    scores: dict[Any, str] | None = None  # per-class score columns {label: column}

    @property
    def score(self) -> str | dict[Any, str] | None:
        if self.scores is not None:
            return self.scores
        return self.columns[-1] if self.scored else None

    @property
    def roles(self) -> dict[str, str]:
        named = dict(zip(self.spec.roles, self.columns))
        proba = "proba" in named or (self.scores is not None and self.spec.probability)
        return _validate.role_map(named["y"], named.get("yhat"), self.score, self.weight, proba=proba)

    @property
    def pos_label(self) -> Any:
        """The positive class, checked on the schema: scores and prevalence, which compare y
        with it; label macros check it against the classes found, as the Polars front door
        (scikit-learn's order: the multiclass error first), else NOT_GIVEN."""
        if "pos_label" not in self.spec.options or self.spec.roles == ("y", "yhat"):
            return _validate.NOT_GIVEN
        return self.params.get("pos_label", _options.DEFAULTS["pos_label"])

    @property
    def scored(self) -> bool:
        return self.spec.roles[-1] in ("score", "proba", "scores")

    @property
    def binary(self) -> bool:
        """sklearn's binary rules apply: a binary aggregate, or clf_metrics' 'binary'."""
        if self.spec.multiclass:
            return False
        averaged = "average" in self.spec.options
        return self.spec.binary or (averaged and self.params.get("average", "binary") == "binary")

    @property
    def needs_classes(self) -> bool:
        label = self.spec.roles == ("y", "yhat")
        return label and (self.binary or self.params.get("labels") is not None)


@contextmanager
def _source(con: duckdb.DuckDBPyConnection, data: Data, call: _Call) -> Iterator[_Source]:
    """Check the call's data as the front door does, then expose it to ``con`` by a name."""
    roles = call.roles
    _check_names([*roles.items(), *(("by", b) for b in call.by)])
    pos_label, labels = call.pos_label, call.params.get("labels")
    if isinstance(data, str):
        schema = _checks.table_schema(con, data)
        dropping = call.missing == "drop" or call.nonfinite == "drop"
        outputs = [*call.spec.outputs, *(["n_excluded"] if dropping else [])]
        by = _options.group_columns(call.by, roles=roles, outputs=outputs)
        cast = _validate.check_schema(
            schema,
            roles,
            by,
            labels=labels,
            pos_label=pos_label,
            present=lambda: _checks.classes_of(con, data, roles["y"]),
        )
        plan = _validate.plan(
            schema,
            roles,
            cast=cast,
            missing=call.missing,
            nonfinite=call.nonfinite,
            probability=call.spec.probability,
            grouped=bool(by),
            pos_label=pos_label if call.scored else _validate.NOT_GIVEN,
        )
        if call.spec.covers_y and call.scores is not None:
            known = _checks.classes_of(con, data, roles["y"])
            unknown = [c for c in known if c not in call.scores]
            if unknown:
                raise InputError(
                    f"column {roles['y']!r} (y) holds {unknown[:10]!r}, which have no score column",
                    column=roles["y"],
                    role="y",
                    rule="unknown_label",
                    hint=f"the score columns cover {list(call.scores)!r}; add the missing classes",
                )
        classes = _checks.scan(con, data, schema, plan, classes=call.needs_classes)
        if call.missing == "drop" or call.nonfinite == "drop":
            view, excluded = _checks.kept_view(con, data, schema, plan, by)
            try:
                yield _Source(view, None, classes, excluded, cast or schema[roles["y"]])
            finally:
                con.execute(f"DROP VIEW IF EXISTS {view}")  # a fixed, generated name
            return
        yield _Source(data, None, classes, None, cast or schema[roles["y"]])
        return
    data = as_polars(data)  # a frame or an Arrow stream; a table is named by a string
    if call.spec.multiclass and call.scores is None:  # an aggregate's LIST column
        with _multiclass_source(con, data, call) as src:
            yield src
        return
    prep = _validate.prepare(
        data,
        y=roles["y"],
        yhat=roles.get("yhat"),
        score=call.score,
        weight=call.weight,
        by=call.by,
        labels=labels,
        missing=call.missing,  # type: ignore[arg-type]
        nonfinite=call.nonfinite,  # type: ignore[arg-type]
        probability=call.spec.probability,
        classes=call.needs_classes,
        pos_label=pos_label,
        pos_in_y=call.scored,
        scan_lazy=True,
        outputs=call.spec.outputs,
        score_role="proba" if call.spec.probability else "score",
    )
    if call.spec.covers_y and call.scores is not None:  # as the Polars per-class curves
        _validate.check_score_classes(prep, call.scores, roles["y"])
    used = list(dict.fromkeys([*roles.values(), *prep.by]))
    schema = prep.frame.collect_schema()
    label_cols = [c for r, c in roles.items() if r in _LABEL_ROLES]
    enum = _enum_of(schema, label_cols)
    exprs = []
    for name in used:
        expr = pl.col(name)
        if name in label_cols and enum is not None:
            expr = expr.cast(enum).to_physical()
        elif isinstance(schema[name], pl.Categorical | pl.Enum):
            expr = expr.cast(pl.String)
        elif schema[name] in (pl.Int128, pl.UInt128):  # no 128-bit integers through Arrow:
            expr = expr.cast(pl.Decimal(38, 0))  # DuckDB reads them as DECIMAL(38, 0), exactly
        exprs.append(expr)
    frame = prep.frame.select(exprs)  # a LazyFrame stays lazy: DuckDB collects it when it scans
    name = f"__clf_input_{secrets.token_hex(6)}"
    con.register(name, frame)
    try:
        yield _Source(name, enum, prep.classes, prep.n_excluded, schema[roles["y"]])
    finally:
        con.unregister(name)


@contextmanager
def _multiclass_source(
    con: duckdb.DuckDBPyConnection, data: pl.DataFrame | pl.LazyFrame, call: _Call
) -> Iterator[_Source]:
    """A LIST score column checked as the front door checks per-class columns: one column
    per class of ``labels`` (a short list gives nulls), through ``_validate.prepare`` with
    the mapping ``{label: column}``, then packed back into one list column for the macro."""
    roles = call.roles
    score, labels = roles[call.spec.roles[-1]], _options.labels(call.params.get("labels"))
    if labels is None or len(labels) < 2:
        raise InputError(
            f"{call.spec.roles[-1]} column {score!r} holds per-class scores; labels={labels!r} "
            "must list at least two classes",
            role="labels",
            rule="score_labels",
            hint="pass labels=[...] in the order of the list's elements",
        )
    lf = data.lazy()
    if not isinstance(lf.collect_schema()[score], pl.List | pl.Array):
        raise InputError(
            f"column {score!r} ({call.spec.roles[-1]}) is not a List/Array of per-class scores",
            column=score,
            role=call.spec.roles[-1],
            rule="dtype",
            hint="pass one List/Array column, element i the score of labels[i]",
        )
    taken = set(lf.collect_schema().names())
    parts = [f"{score}[{i}]" for i in range(len(labels))]  # messages name column 'p[0]'
    while taken & set(parts):
        parts = [f"{p}'" for p in parts]
    lf = lf.with_columns(
        pl.col(score).cast(pl.List(pl.Float64), strict=False).list.get(i, null_on_oob=True).alias(c)
        for i, c in enumerate(parts)
    )
    prep = _validate.prepare(
        lf,
        y=roles["y"],
        score=dict(zip(labels, parts)),
        weight=call.weight,
        by=call.by,
        labels=labels,
        missing=call.missing,  # type: ignore[arg-type]
        nonfinite=call.nonfinite,  # type: ignore[arg-type]
        probability=call.spec.probability,
        classes=False,
        scan_lazy=True,
        outputs=call.spec.outputs,
        score_role="proba" if call.spec.roles[-1] == "proba" else "score",
    )
    schema = prep.frame.collect_schema()
    y = roles["y"]
    enum = _enum_of(schema, [y])
    exprs = [pl.col(y).cast(enum).to_physical() if enum is not None else pl.col(y)]
    if isinstance(schema[y], pl.Categorical | pl.Enum) and enum is None:
        exprs = [pl.col(y).cast(pl.String)]
    exprs += [pl.col(b) for b in prep.by if b not in (y, score)]
    if call.weight is not None and call.weight not in (y, score, *prep.by):
        exprs.append(pl.col(call.weight))
    exprs.append(pl.concat_list(parts).alias(score))
    frame = prep.frame.select(exprs)
    name = f"__clf_input_{secrets.token_hex(6)}"
    con.register(name, frame)
    try:
        yield _Source(name, enum, prep.classes, prep.n_excluded, schema[y])
    finally:
        con.unregister(name)


def _check_classes(call: _Call, src: _Source) -> None:
    """scikit-learn's rules on the class set, as on the Polars front door."""
    if src.classes is None:
        return
    y, labels = call.roles["y"], call.params.get("labels")
    _validate.check_labels_present(src.classes, labels, y)
    if call.binary:
        pos_label = call.params.get("pos_label", _options.DEFAULTS["pos_label"])
        _validate.check_pos_label(
            src.classes, pos_label, average="binary", labels=labels, y=y, dtype=src.dtype
        )


def _bind_labels(params: dict[str, Any], enum: pl.Enum | None) -> dict[str, Any]:
    """Translate ``pos_label`` and ``labels`` to category codes for Enum labels (both were
    checked to be categories)."""
    if enum is None:
        return params
    codes = {c: i for i, c in enumerate(enum.categories.to_list())}
    out = dict(params)
    if out.get("pos_label") is not None:
        out["pos_label"] = codes[out["pos_label"]]
    if out.get("labels") is not None:
        out["labels"] = [codes[v] for v in out["labels"]]
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


def _finish(
    out: pl.DataFrame, src: _Source, by: list[str], *, excluded: bool, label_dtype: bool = False
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


def _spec(registry: dict[str, Macro], name: str, kind: str) -> Macro:
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


def _check_call(spec: Macro, name: str, columns: Sequence[Any], params: dict[str, Any]) -> None:
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


def _per_class(score: Any, labels: Any, name: str) -> dict[Any, str]:
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
    spec = _spec(TABLE_MACROS, name, "table")
    scores = None
    if spec.multiclass and len(columns) == 2:
        scores = _per_class(columns[1], params.get("labels"), name)
        columns = (columns[0], list(scores.values()))
        params["labels"] = list(scores)
    _check_call(spec, name, columns, params)
    by = _options.group_columns(params.pop("group_cols", None))
    weight = params.pop("weight_col", None)
    if weight is not None:
        _options.column_name("weight", weight)
    averages: Sequence[Any] = _MACRO_AVERAGES
    if name == "clf_auroc_multiclass":  # clfeval.auroc's order: multi_class, then average
        if "multi_class" in params:
            params["multi_class"] = _check_values({"multi_class": params["multi_class"]})[
                "multi_class"
            ]
        ovo = params.get("multi_class", "ovr") == "ovo"
        averages = ("macro", "weighted") if ovo else ("macro", "weighted", "micro")
    params = _check_values(params, averages)
    if name == "clf_metrics" and params.get("average", "binary") != "binary":
        # pos_label matters only for 'binary'; dropping it keeps string labels away from the
        # integer default
        params.pop("pos_label", None)
    call = _Call(
        spec,
        columns,
        by,
        weight,
        params,
        _options.mode("missing", missing),
        _options.mode("nonfinite", nonfinite),
        scores,
    )
    with _session(con) as c, _source(c, data, call) as src:
        _check_classes(call, src)
        options = {**_bind_labels(params, src.enum), "group_cols": by, "weight_col": weight}
        binds = {"tbl": src.table, **{f"c{i}": col for i, col in enumerate(columns)}}
        binds.update({f"p_{p}": v for p, v in options.items()})
        args = ["$tbl", *(f"$c{i}" for i in range(len(columns)))]
        args += [f"{p} := $p_{p}" for p in options]
        # only fixed identifiers (the macro and parameter names checked above) reach the text
        out = _fetch(c, f"SELECT * FROM {name}({', '.join(args)})", binds, name)
        return _finish(out, src, by, excluded=name == "clf_metrics", label_dtype=spec.multiclass)


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
    spec = _spec(AGGREGATE_MACROS, name, "aggregate")
    _check_call(spec, name, columns, params)
    by_cols = _options.group_columns(by)
    if weight is not None:
        _options.column_name("weight", weight)
    params = _check_values(params)
    metric = spec.outputs[0]
    call = _Call(
        spec,
        columns,
        by_cols,
        weight,
        params,
        _options.mode("missing", missing),
        _options.mode("nonfinite", nonfinite),
    )
    with _session(con) as c, _source(c, data, call) as src:
        _check_classes(call, src)
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
        out = _fetch(c, query, binds, name)
        return _finish(out, src, by_cols, excluded=False)


# --- wrappers named and called like the Polars frame functions ---------------------------


def _wrapper(macro: str, summary: str) -> Callable[..., pl.DataFrame]:
    def run(
        data: Data,
        *columns: str,
        by: By = None,
        weight: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
        missing: str = "raise",
        nonfinite: str = "raise",
        **options: Any,
    ) -> pl.DataFrame:
        return table_macro(
            macro,
            data,
            *columns,
            con=con,
            missing=missing,
            nonfinite=nonfinite,
            group_cols=by,
            weight_col=weight,
            **options,
        )

    spec = TABLE_MACROS[macro]
    run.__name__ = run.__qualname__ = summary.split(":", 1)[0]
    run.__doc__ = (
        f"{summary}\n\n"
        f"Runs ``{macro}``: ``{run.__name__}(data, {', '.join(spec.roles)}, *, by=None, "
        f"weight=None, con=None, missing='raise', nonfinite='raise', **options)`` with "
        f"``options`` among {[o for o in spec.options if o not in ('group_cols', 'weight_col')]} "
        f"(the macro's defaults apply). The data is checked as on the Polars front door. "
        f"Returns the group columns, then {list(spec.outputs)}."
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
_roc_binary = _wrapper("clf_roc_curve", "roc_curve: scikit-learn's ROC points in its order.")
_pr_binary = _wrapper("clf_pr_curve", "pr_curve: scikit-learn's precision-recall points.")
det_curve = _wrapper("clf_det_curve", "det_curve: scikit-learn's DET points in its order.")
thresholds = _wrapper("clf_thresholds", "thresholds: counts and metrics at every distinct score.")
_auroc_binary = _wrapper(
    "clf_auroc", "auroc: the area under the ROC curve per group (null: one class)."
)
average_precision = _wrapper(
    "clf_average_precision", "average_precision: scikit-learn's step sum per group."
)
calibration = _wrapper("clf_calibration", "calibration: scikit-learn's calibration_curve points.")
gain_curve = _wrapper("clf_gain", "gain_curve: share of positives found against share targeted.")
lift_curve = _wrapper("clf_lift", "lift_curve: gain over the share targeted, per distinct score.")
_ece_binary = _wrapper("clf_ece", "ece: expected calibration error of a binary probability.")


def _is_per_class(score: Any, labels: Any) -> bool:
    """Per-class scores (a mapping or a list of columns), as clfeval's score= reads them; a
    single column with labels= is a List/Array column (Polars functions only)."""
    return not isinstance(score, str) or labels is not None


def _run_per_class(
    macro: str, data: Data, y: str, score: Any, labels: Any, run: dict[str, Any], **options: Any
) -> pl.DataFrame:
    return table_macro(
        macro,
        data,
        y,
        score,
        labels=labels,
        group_cols=run["by"],
        weight_col=run["weight"],
        con=run["con"],
        missing=run["missing"],
        nonfinite=run["nonfinite"],
        **options,
    )


def auroc(
    data: Data,
    y: str,
    score: Any,
    *,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
    labels: Sequence[Any] | None = None,
    multi_class: str = "ovr",
    average: str = "macro",
    **options: Any,
) -> pl.DataFrame:
    """auroc: the area under the ROC curve per group (null: one class).

    Called like ``clfeval.auroc``: a binary ``score`` column runs ``clf_auroc`` (``options``
    among ``pos_label``, ``max_fpr``); per-class scores, ``{label: column}`` or a list of
    columns with ``labels=``, run ``clf_auroc_multiclass`` with ``multi_class`` ('ovr',
    'ovo') and ``average`` ('macro', 'weighted', 'micro' for ovr). The data is checked as on
    the Polars front door. Returns the group columns, then ``auroc``.
    """
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    if "max_fpr" in options:
        options["max_fpr"] = _options.max_fpr(options["max_fpr"])
    _options.choice(
        "multi_class", multi_class, ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )  # fmt: skip
    if not _is_per_class(score, labels):
        return _auroc_binary(
            data, y, score, by=by, weight=weight, con=con, missing=missing, nonfinite=nonfinite,
            **options,
        )  # fmt: skip
    if options.get("max_fpr") not in (None, 1):
        raise InputError(
            "max_fpr (partial AUROC) is binary only",
            role="max_fpr",
            rule="option",
            hint="leave max_fpr=None for multiclass scores",
        )
    options.pop("max_fpr", None)
    return _run_per_class(
        "clf_auroc_multiclass", data, y, score, labels, run,
        multi_class=multi_class, average=average, **options,
    )  # fmt: skip


def _curve(binary: Callable[..., pl.DataFrame], macro: str) -> Callable[..., pl.DataFrame]:
    def run_curve(
        data: Data,
        y: str,
        score: Any,
        *,
        by: By = None,
        weight: str | None = None,
        con: duckdb.DuckDBPyConnection | None = None,
        missing: str = "raise",
        nonfinite: str = "raise",
        labels: Sequence[Any] | None = None,
        **options: Any,
    ) -> pl.DataFrame:
        if not _is_per_class(score, labels):
            return binary(
                data, y, score, by=by, weight=weight, con=con, missing=missing,
                nonfinite=nonfinite, **options,
            )  # fmt: skip
        options.pop("pos_label", None)  # one-vs-rest: each class is positive in turn
        run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
        return _run_per_class(macro, data, y, score, labels, run, **options)

    run_curve.__name__ = run_curve.__qualname__ = binary.__name__
    run_curve.__doc__ = (
        f"{binary.__doc__}\n\nPer-class scores ({{label: column}}, or a list of columns with "
        f"labels=) run ``{macro}``: one-vs-rest curves with a ``label`` column after the "
        "group columns, as the Polars function."
    )
    return run_curve


roc_curve = _curve(_roc_binary, "clf_roc_curve_multiclass")
pr_curve = _curve(_pr_binary, "clf_pr_curve_multiclass")


def top_k_accuracy(
    data: Data,
    y: str,
    scores: Any,
    *,
    k: int = 2,
    labels: Sequence[Any] | None = None,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """top_k_accuracy: the share of rows whose class is among the k highest scores.

    Runs ``clf_top_k_accuracy`` on per-class scores (``{label: column}``, or a list of
    columns with ``labels=``), as ``clfeval.top_k_accuracy`` (later-listed classes win ties).
    A single binary score column is not offered in SQL. Returns the group columns, then
    ``top_k_accuracy``.
    """
    k = _options.k(k)
    if not _is_per_class(scores, labels):
        raise InputError(
            "clf_top_k_accuracy takes per-class score columns",
            role="score",
            rule="score_labels",
            hint="pass {label: column, ...}; for one binary score column use "
            "clfeval.top_k_accuracy (Polars)",
        )
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    return _run_per_class("clf_top_k_accuracy", data, y, scores, labels, run, k=k)


def ece(
    data: Data,
    y: str,
    proba: Any,
    *,
    n_bins: int = 10,
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    kind: str = "expected",
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """ece: expected (kind='max': maximum) calibration error per group.

    As ``clfeval.ece``: one probability column of ``pos_label`` runs ``clf_ece``; per-class
    probabilities (``{label: column}``, or a list of columns with ``labels=``) run
    ``clf_ece_multiclass``, the top-label error. Returns the group columns, then ``ece``
    (``mce`` with ``kind='max'``).
    """
    n_bins = _options.n_bins(n_bins)
    _options.choice(
        "kind", kind, ("expected", "max"),
        "'expected' weighs each bin by its size, 'max' takes the worst bin",
    )  # fmt: skip
    if not _is_per_class(proba, labels):
        return _ece_binary(
            data, y, proba, by=by, weight=weight, con=con, missing=missing, nonfinite=nonfinite,
            pos_label=pos_label, n_bins=n_bins, kind=kind,
        )  # fmt: skip
    run = {"by": by, "weight": weight, "con": con, "missing": missing, "nonfinite": nonfinite}
    return _run_per_class(
        "clf_ece_multiclass", data, y, proba, labels, run, n_bins=n_bins, kind=kind
    )
