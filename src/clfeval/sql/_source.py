"""Data in for the Python runners: checked as the front door checks it, then exposed to DuckDB.

A Polars frame (or an Arrow stream) goes through :mod:`clfeval._validate` and is registered
under an internal name; a table inside DuckDB is checked by SQL counts
(:mod:`clfeval.sql._checks`). Either way the macro reads one relation by name.
"""

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import duckdb
import polars as pl

from clfeval import _options, _validate
from clfeval._frames import as_polars
from clfeval.exceptions import InputError
from clfeval.sql import _checks
from clfeval.sql._macros import Macro

Data = pl.DataFrame | pl.LazyFrame | str
By = str | Sequence[str] | None
LABEL_ROLES = ("y", "yhat")


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
class Source:
    table: str  # bound as a parameter, never pasted into SQL
    enum: pl.Enum | None  # the Enum of the label columns, evaluated as category codes
    classes: list[Any] | None  # the classes present, when the checks needed them
    n_excluded: pl.DataFrame | None  # rows left out by missing/nonfinite="drop", per group
    dtype: pl.DataType | None = None  # the dtype y and yhat are compared in


def _enum_of(schema: pl.Schema, label_cols: list[str]) -> pl.Enum | None:
    enums = {schema[c] for c in label_cols if isinstance(schema[c], pl.Enum)}
    return enums.pop() if len(enums) == 1 else None


@dataclass(frozen=True)
class Call:
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
        return _validate.role_map(
            named["y"], named.get("yhat"), self.score, self.weight, proba=proba
        )

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


def _check_named(named: dict[str, str], by: list[str]) -> None:
    """A column named by an option (the fold) may not be a group column."""
    for role, column in named.items():
        if column in by:
            raise InputError(
                f"the {role} column {column!r} is also a group column (by=)",
                column=column,
                role=role,
                rule="by_name",
                hint="group by the other columns: the folds are summarised within each group",
            )


@contextmanager
def source(con: duckdb.DuckDBPyConnection, data: Data, call: Call) -> Iterator[Source]:
    """Check the call's data as the front door does, then expose it to ``con`` by a name."""
    roles = call.roles
    named = {o: call.params[o] for o in call.spec.column_options if o in call.params}
    _check_names([*roles.items(), *(("by", b) for b in call.by), *named.items()])
    _check_named(named, call.by)
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
        _validate.check_columns(schema, named)
        classes = _checks.scan(con, data, schema, plan, classes=call.needs_classes)
        if call.missing == "drop" or call.nonfinite == "drop":
            view, excluded = _checks.kept_view(con, data, schema, plan, by)
            try:
                yield Source(view, None, classes, excluded, cast or schema[roles["y"]])
            finally:
                con.execute(f"DROP VIEW IF EXISTS {view}")  # a fixed, generated name
            return
        yield Source(data, None, classes, None, cast or schema[roles["y"]])
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
    for column in named.values():  # the fold column of clf_cv_summary
        _validate.check_folds(prep.frame, column, prep.by, eager=True, missing=call.missing)  # type: ignore[arg-type]
    used = list(dict.fromkeys([*roles.values(), *prep.by, *named.values()]))
    schema = prep.frame.collect_schema()
    label_cols = [c for r, c in roles.items() if r in LABEL_ROLES]
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
        yield Source(name, enum, prep.classes, prep.n_excluded, schema[roles["y"]])
    finally:
        con.unregister(name)


@contextmanager
def _multiclass_source(
    con: duckdb.DuckDBPyConnection, data: pl.DataFrame | pl.LazyFrame, call: Call
) -> Iterator[Source]:
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
        yield Source(name, enum, prep.classes, prep.n_excluded, schema[y])
    finally:
        con.unregister(name)


def check_classes(call: Call, src: Source) -> None:
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


def bind_labels(params: dict[str, Any], enum: pl.Enum | None) -> dict[str, Any]:
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
