"""Every check of the data a call reads: the schema first, then one counting pass.

The front door (frame functions, ``.clf``, ``Report``, ``clfeval.sql``, CLI) calls
:func:`prepare` (or, for a table inside DuckDB, :func:`plan` and :func:`raise_for` with the
counts computed by SQL). The schema is checked before anything is read: columns, dtypes, the
kind of the labels, the classes given as arguments. Eager input is then scanned once, and the
first problem raises :class:`InputError` naming the column, its role, the count and the first
rows. ``missing="drop"`` and ``nonfinite="drop"`` take their rows out *before* every other
check: a dropped row is never reported. LazyFrame input is checked at the schema level only and
follows the expression rule (rows with a null or a NaN score are left out), since nothing is
read until it is collected.

Labels are never cast between kinds (text never equals a number) and never truncated: two
numeric label columns are compared in their common type (``Int8`` and ``UInt64`` in
``Int128``, an integer and a float column as floats), so a float label stays a float class.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

from clfeval import _options
from clfeval._options import AVERAGES
from clfeval.exceptions import InputError

__all__ = [
    "AVERAGES",
    "NOT_GIVEN",
    "Check",
    "Frame",
    "Missing",
    "Plan",
    "Prepared",
    "plan",
    "prepare",
    "raise_for",
]

Frame = pl.DataFrame | pl.LazyFrame
Missing = Literal["raise", "drop"]
MAX_EXAMPLES = 5
NOT_GIVEN: Any = object()


@dataclass(frozen=True)
class Prepared:
    """A validated lazy frame and what the caller needs to finish the job."""

    frame: pl.LazyFrame
    by: list[str]
    eager: bool
    classes: list[Any] | None = None  # sorted present classes (eager input only)
    n_excluded: pl.DataFrame | None = None  # by columns + n_excluded, with a drop option
    roles: dict[str, str] = field(default_factory=dict)
    n_rows: int | None = None  # rows of the input (eager input only)

    def finish(self, out: pl.LazyFrame) -> Frame:
        """Collect ``out`` when the input was eager; lazy in, lazy out."""
        return out.collect() if self.eager else out


def as_by(by: str | Sequence[str] | None) -> list[str]:
    return _options.group_columns(by)


def score_columns(
    score: str | Sequence[str] | Mapping[Any, str] | None, labels: Sequence[Any] | None
) -> dict[Any, str] | str | None:
    """Normalise a score argument: one column, or ``{label: column}`` for multiclass."""
    if score is None or isinstance(score, str):
        return score
    if isinstance(score, Mapping):
        for key, column in score.items():
            _options.class_value("score", key)
            _options.column_name(f"score[{key!r}]", column)
        return dict(score)
    if not isinstance(score, Sequence):
        raise InputError(
            f"score={score!r} is not a column name, a list of columns or a mapping",
            role="score",
            rule="column_type",
            hint="pass score='p' for a binary score, or one column per class",
        )
    columns = [_options.column_name("score", c) for c in score]
    if labels is None or len(labels) != len(columns):
        raise InputError(
            f"a list of {len(columns)} score columns needs labels= of the same length",
            role="score",
            rule="score_labels",
            hint="pass labels=[...] in the order of the columns, or a mapping {label: column}",
        )
    return dict(zip(labels, columns))


# --- the schema ---------------------------------------------------------------------------


def kind(dtype: pl.DataType) -> str:
    """The kind of a label dtype: bool, int, float, decimal, str, enum, null or other."""
    if dtype == pl.Boolean:
        return "bool"
    if dtype.is_integer():
        return "int"
    if dtype.is_float():
        return "float"
    if isinstance(dtype, pl.Decimal):
        return "decimal"
    if isinstance(dtype, pl.Enum):
        return "enum"
    if dtype == pl.String or isinstance(dtype, pl.Categorical):
        return "str"
    if dtype == pl.Null:
        return "null"
    return "other"


_NUMERIC = {"bool", "int", "float", "decimal", "null"}
_TEXT = {"str", "enum", "null"}


def _missing_column(name: str, role: str, schema: pl.Schema) -> InputError:
    names = list(schema.names())
    folded = [n for n in names if n.casefold() == name.casefold()]
    close = folded or difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"the frame has {names}"
    if close:
        hint += f"; did you mean {close[0]!r}?"
    return InputError(
        f"column {name!r} ({role}) not found",
        column=name,
        role=role,
        rule="missing_column",
        hint=hint,
    )


def check_columns(schema: pl.Schema, roles: Mapping[str, str]) -> None:
    """Raise for the first role whose column is missing. ``roles`` maps role -> column."""
    for role, name in roles.items():
        _options.column_name(role, name)
        if name not in schema:
            raise _missing_column(name, role, schema)


def _supertype(a: pl.DataType, b: pl.DataType) -> pl.DataType | None:
    try:
        empty = [pl.DataFrame(schema={"c": a}), pl.DataFrame(schema={"c": b})]
        return pl.concat(empty, how="vertical_relaxed").schema["c"]
    except pl.exceptions.PolarsError:
        return None


def label_dtype(schema: pl.Schema, y: str, yhat: str | None) -> pl.DataType | None:
    """The dtype ``y`` and ``yhat`` are compared in, or None when no cast is needed.

    Numbers compare with numbers and text with text, never across; a lossless common type
    is used for two numeric columns (float labels stay floats).
    """
    for name, role in ((y, "y"), (yhat, "yhat")):
        if name is not None and kind(schema[name]) == "other":
            raise InputError(
                f"column {name!r} ({role}) has dtype {schema[name]}, which is not a label type",
                column=name,
                role=role,
                rule="dtype",
                hint="labels must be integers, floats, booleans, strings, Categorical or Enum",
            )
    if yhat is None:
        return None
    ty, tp = schema[y], schema[yhat]
    ky, kp = kind(ty), kind(tp)
    if not ({ky, kp} <= _NUMERIC or {ky, kp} <= _TEXT):
        raise InputError(
            f"columns {y!r} (y, {ty}) and {yhat!r} (yhat, {tp}) hold different kinds of labels",
            column=yhat,
            role="yhat",
            rule="dtype_mismatch",
            hint="cast one column so both hold numbers or both hold strings; clfeval never casts "
            "between them silently ('01' is not 1)",
        )
    if ty == tp:
        return None
    if ky == "enum" and kp == "enum":
        raise InputError(
            f"columns {y!r} and {yhat!r} are Enums with different categories",
            column=yhat,
            role="yhat",
            rule="enum_mismatch",
            hint="cast both columns to one Enum that lists every class",
        )
    if ky == "enum" or kp == "enum":
        return ty if ky == "enum" else tp
    common = _supertype(ty, tp)
    if common is None:
        raise InputError(
            f"columns {y!r} (y, {ty}) and {yhat!r} (yhat, {tp}) have no common type",
            column=yhat,
            role="yhat",
            rule="dtype_mismatch",
            hint="cast both columns to one type",
        )
    return common


def _is_text(dtype: pl.DataType) -> bool:
    return kind(dtype) in ("str", "enum")


def check_class_value(
    dtype: pl.DataType,
    value: Any,
    y: str,
    role: str,
    present: Callable[[], list[Any]] | None = None,
) -> None:
    """A class given as an argument must be comparable with ``y`` (checked on the schema).

    ``present`` gives the classes of ``y`` to show in the message (eager input)."""
    _options.class_value(role, value)
    text = isinstance(value, str)
    bad = (dtype != pl.Null and _is_text(dtype) != text) or (
        dtype == pl.Boolean and (isinstance(value, float) or value not in (0, 1))
    )
    if not bad and isinstance(dtype, pl.Enum) and value not in dtype.categories.to_list():
        raise InputError(
            f"{role}={value!r} is not a category of the Enum column {y!r}",
            column=y,
            role=role,
            rule="pos_label" if role == "pos_label" else "labels",
            hint=f"the categories are {dtype.categories.head(10).to_list()!r}",
        )
    if bad:
        shown = f"; the classes are {present()[:10]!r}" if present is not None else ""
        raise InputError(
            f"{role}={value!r} cannot be a class of column {y!r} ({dtype}){shown}",
            column=y,
            role=role,
            rule="pos_label" if role == "pos_label" else "labels",
            hint="pass a value of the same kind as the labels in y (text never equals a number)",
        )


def check_options(
    *,
    average: Any = "binary",
    labels: Sequence[Any] | None = None,
    zero_division: Any = 0.0,
    missing: Any = "raise",
    nonfinite: Any = "raise",
) -> None:
    """Validate plain arguments (no data needed): see :mod:`clfeval._options`."""
    _options.average(average)
    _options.zero_division(zero_division)
    _options.mode("missing", missing)
    _options.mode("nonfinite", nonfinite)
    _options.labels(labels)


# --- the data pass: what to count, engine-neutral -------------------------------------------

# test -> problem text; a check counts the rows where its test holds
TESTS = {
    "null": "null value(s)",
    "nan": "NaN value(s)",
    "inf": "infinite value(s)",
    "negative": "negative value(s)",
    "outside01": "value(s) outside [0, 1]",
    "fraction": "non-integral value(s)",
    "not_category": "value(s) that are not Enum categories",
}
_FIX = {
    "null": "pass missing='drop' to leave those rows out (the count is reported), or fill them",
    "nan": "scores must be finite; pass nonfinite='drop' to leave those rows out",
    "inf": "scores must be finite; pass nonfinite='drop' to leave those rows out",
    "weight": "weights must be finite and >= 0",
    "label_inf": "labels must be finite numbers (a NaN label counts as null)",
    "outside01": "probability metrics need values in [0, 1]; ranking metrics (auroc, curves) "
    "accept any finite score",
    "fraction": "labels must be whole numbers; did you pass a score as yhat?",
    "not_category": "cast both columns to one Enum that lists every class",
}
_RULES = {
    "negative": "negative_weight",
    "outside01": "probability_range",
    "fraction": "continuous_labels",
    "not_category": "unknown_category",
}


@dataclass(frozen=True)
class Check:
    """Count the rows of ``column`` where ``test`` holds; raise ``rule`` when any does."""

    role: str
    column: str
    test: str
    after_drop: bool  # counted on the rows left after the drops (else on the non-null rows)
    categories: tuple[str, ...] = ()  # not_category: the Enum's categories

    @property
    def rule(self) -> str:
        if self.role in ("y", "yhat") and self.test == "inf":
            return "inf"
        return _RULES.get(self.test, self.test)

    @property
    def hint(self) -> str:
        if self.role == "weight" and self.test != "null":
            return _FIX["weight"]
        if self.role in ("y", "yhat") and self.test == "inf":
            return _FIX["label_inf"]
        return _FIX[self.test]


@dataclass(frozen=True)
class Plan:
    """What the data pass counts, and the options that decide what raises."""

    roles: dict[str, str]  # role -> column, every column the call reads
    label_cols: list[str]
    score_cols: list[str]  # float score/probability columns (the nonfinite rule)
    weight: str | None
    checks: list[Check]
    missing: Missing
    nonfinite: Missing
    grouped: bool
    pos_label: Any = NOT_GIVEN


def plan(
    schema: pl.Schema,
    roles: dict[str, str],
    *,
    cast: pl.DataType | None,
    missing: Missing,
    nonfinite: Missing,
    probability: bool,
    grouped: bool,
    pos_label: Any = NOT_GIVEN,
) -> Plan:
    """The checks of one call, from the schema alone (roles: y, yhat, score..., weight)."""
    labels = [c for r, c in roles.items() if r in ("y", "yhat")]
    scores = [c for r, c in roles.items() if is_score(r) and schema[c].is_float()]
    weight = roles.get("weight")
    checks: list[Check] = []
    if missing == "raise":
        checks += [Check(r, c, "null", False) for r, c in roles.items()]
    if nonfinite == "raise":
        for r, c in roles.items():
            if c in scores:
                checks += [Check(r, c, "nan", False), Check(r, c, "inf", False)]
    if weight is not None:
        if schema[weight].is_float():
            checks += [Check("weight", weight, "nan", True), Check("weight", weight, "inf", True)]
        checks.append(Check("weight", weight, "negative", True))
    for r, c in roles.items():
        if r in ("y", "yhat") and schema[c].is_float():
            checks += [Check(r, c, "inf", True), Check(r, c, "fraction", True)]
        elif r in ("y", "yhat") and isinstance(schema[c], pl.Decimal):
            checks.append(Check(r, c, "fraction", True))
    if probability:
        checks += [Check(r, c, "outside01", True) for r, c in roles.items() if is_score(r)]
    if isinstance(cast, pl.Enum) and len(labels) == 2:
        other = labels[1] if isinstance(schema[labels[0]], pl.Enum) else labels[0]
        role = "yhat" if other == labels[-1] else "y"
        checks.append(Check(role, other, "not_category", True, tuple(cast.categories.to_list())))
    return Plan(roles, labels, scores, weight, checks, missing, nonfinite, grouped, pos_label)


def raise_for(
    p: Plan,
    counts: Mapping[str, Any],
    rows_of: Callable[[int], list[int]],
    present: Callable[[], list[Any]],
) -> None:
    """Raise for the first problem the counting pass found; one message whatever the engine.

    ``counts`` holds, from one query: ``n<i>``, the rows where check i holds (``lo<i>`` and
    ``hi<i>``, the smallest and largest kept value, for a probability range); ``n_rows`` and
    ``n_kept``; ``w_kept``, the kept weight (all 0 is an error when ungrouped, an overflow
    always); ``has_pos`` and ``y_varies`` when pos_label is given (scikit-learn's rule: a
    positive class absent from a y of two or more classes is an error, a y of one class
    gives null metrics). ``rows_of(i)`` gives the first rows where check i holds and
    ``present()`` the classes of y on the kept rows.
    """
    for i, check in enumerate(p.checks):
        n_bad = counts[f"n{i}"]
        if not n_bad:
            continue
        rows = ", ".join(str(r) for r in rows_of(i))
        more = ", ..." if n_bad > MAX_EXAMPLES else ""
        span = ""
        if check.test == "outside01":
            span = f"min {counts[f'lo{i}']!r}, max {counts[f'hi{i}']!r}; "
        raise InputError(
            f"column {check.column!r} ({check.role}) has {n_bad} {TESTS[check.test]} "
            f"({span}rows {rows}{more})",
            column=check.column,
            role=check.role,
            rule=check.rule,
            hint=check.hint,
        )
    total = counts.get("w_kept")
    if total is not None and total == float("inf"):
        raise InputError(
            f"the weights in column {p.weight!r} (weight) add up to more than a float64 holds",
            column=p.weight,
            role="weight",
            rule="weight_overflow",
            hint="rescale the weights (metrics do not depend on their scale; counts do)",
        )
    if total == 0 and counts["n_kept"] and not p.grouped:
        raise InputError(
            f"every weight in column {p.weight!r} (weight) is 0: no rows to evaluate",
            column=p.weight,
            role="weight",
            rule="empty",
            hint="weights must not all be 0 (a group whose weights are all 0 gets null metrics)",
        )
    if counts["n_rows"] == 0 or counts["n_kept"] == 0:
        gone = counts["n_rows"] - counts["n_kept"]
        raise InputError(
            "no rows to evaluate" + (f" (0 rows remain after leaving out {gone})" if gone else ""),
            rule="empty",
            hint="metrics need at least one row with every column they read present",
        )
    if counts.get("has_pos") is False and counts.get("y_varies"):  # one class: null metrics
        y = p.label_cols[0]
        raise InputError(
            f"pos_label={p.pos_label!r} is not a class of {y!r}; the classes are "
            f"{present()[:10]!r}",
            column=y,
            role="pos_label",
            rule="pos_label",
            hint="pass pos_label= with the class that counts as positive",
        )


# --- the data pass in Polars ----------------------------------------------------------------


def _test(check: Check, dtype: pl.DataType) -> pl.Expr:
    c = pl.col(check.column)
    if check.test == "null":
        if check.role in ("y", "yhat") and dtype.is_float():
            return c.is_null() | c.is_nan().fill_null(False)
        return c.is_null()
    if check.test == "nan":
        return c.is_nan()
    if check.test == "inf":
        return c.is_infinite()
    if check.test == "negative":
        return c < 0
    if check.test == "outside01":
        out = (c < 0) | (c > 1)
        return out & ~c.is_nan() if dtype.is_float() else out
    if check.test == "fraction":
        return (c != c.round(0)) & c.is_finite() if dtype.is_float() else c != c.round(0)
    assert check.test == "not_category"
    return c.is_not_null() & ~c.cast(pl.String).is_in(list(check.categories))


def _masks(p: Plan, schema: pl.Schema) -> tuple[pl.Expr, pl.Expr]:
    """(null, nonfinite): rows with a null in a column read; rows with a NaN/inf score."""
    null = pl.any_horizontal([pl.col(c).is_null() for c in p.roles.values()])
    for c in p.label_cols:
        if schema[c].is_float():
            null = null | pl.col(c).is_nan().fill_null(False)
    bad = pl.any_horizontal(
        [~pl.col(c).is_finite().fill_null(True) for c in p.score_cols] or [pl.lit(False)]
    )
    return null, bad


def _keep(p: Plan, null: pl.Expr, bad: pl.Expr) -> pl.Expr:
    """The rows every check after the drops sees."""
    keep = ~null
    if p.nonfinite == "drop":
        keep = keep & ~bad
    return keep


def _rows(mask: pl.Expr) -> pl.Expr:
    return pl.arg_where(mask.fill_null(False)).head(MAX_EXAMPLES).implode()


def _scan(
    lf: pl.LazyFrame, schema: pl.Schema, p: Plan, cast: pl.DataType | None, classes: bool
) -> tuple[list[Any] | None, int]:
    """One pass over eager data: raise for the first problem found; ``(classes, rows)``.

    The pass only counts; the example rows of a failed check come from a second query.
    """
    null, bad = _masks(p, schema)
    keep = _keep(p, null, bad)

    def scope(check: Check) -> pl.Expr:
        if check.after_drop:
            return keep
        return pl.lit(True) if check.test == "null" else ~null

    masks = [_test(c, schema[c.column]) & scope(c) for c in p.checks]
    exprs = [m.fill_null(False).sum().cast(pl.Int64).alias(f"n{i}") for i, m in enumerate(masks)]
    for i, check in enumerate(p.checks):
        if check.test == "outside01":
            kept = pl.col(check.column).filter(keep)  # min and max leave NaN out
            exprs += [kept.min().alias(f"lo{i}"), kept.max().alias(f"hi{i}")]
    if classes:
        for j, c in enumerate(p.label_cols):
            exprs.append(pl.col(c).filter(keep).unique().implode().alias(f"c{j}"))
    exprs += [pl.len().alias("n_rows"), keep.sum().alias("n_kept")]
    if p.weight is not None:  # ungrouped all-0 weights raise; a group of them is null
        exprs.append(pl.col(p.weight).cast(pl.Float64).filter(keep).sum().alias("w_kept"))
    y = p.label_cols[0]
    if p.pos_label is not NOT_GIVEN:
        kept_y = pl.col(y).filter(keep)
        exprs.append((kept_y == p.pos_label).any().alias("has_pos"))
        exprs.append((kept_y.min() != kept_y.max()).alias("y_varies"))
    counts = lf.select(exprs).collect().row(0, named=True)

    def rows_of(i: int) -> list[int]:
        return lf.select(_rows(masks[i])).collect().item().to_list()

    def present() -> list[Any]:
        return lf.select(pl.col(y).filter(keep).unique().sort()).collect().to_series().to_list()

    raise_for(p, counts, rows_of, present)
    if not classes:
        return None, counts["n_rows"]
    parts = [pl.Series(counts[f"c{j}"], dtype=schema[c]) for j, c in enumerate(p.label_cols)]
    values = pl.concat([part.cast(cast) if cast is not None else part for part in parts])
    return values.unique().sort().to_list(), counts["n_rows"]


def is_score(role: str) -> bool:
    """The role of a score or probability column (``score``, ``proba[a]``...)."""
    return role.startswith(("score", "proba"))


def role_map(
    y: str,
    yhat: str | None,
    score: str | Mapping[Any, str] | None,
    weight: str | None,
    *,
    proba: bool = False,
) -> dict[str, str]:
    """role -> column for one call; the score role is ``score`` or, when it holds
    probabilities, ``proba`` (``score[<label>]``/``proba[<label>]`` per class)."""
    roles: dict[str, str] = {"y": y}
    if yhat is not None:
        roles["yhat"] = yhat
    name = "proba" if proba else "score"
    if isinstance(score, str):
        roles[name] = score
    elif score is not None:
        roles |= {f"{name}[{k}]": v for k, v in score.items()}
    if weight is not None:
        roles["weight"] = weight
    return roles


def check_schema(
    schema: pl.Schema,
    roles: dict[str, str],
    by: list[str],
    *,
    labels: Sequence[Any] | None,
    pos_label: Any,
    present: Callable[[], list[Any]] | None = None,
) -> pl.DataType | None:
    """Columns present, numeric scores and weights, label kinds, classes given as arguments;
    returns the dtype labels are compared in (see :func:`label_dtype`)."""
    check_columns(schema, roles)
    for name in by:
        check_columns(schema, {"by": name})
    for role, name in roles.items():
        if (is_score(role) or role == "weight") and not schema[name].is_numeric():
            raise InputError(
                f"column {name!r} ({role}) has dtype {schema[name]}, not a number",
                column=name,
                role=role,
                rule="dtype",
                hint="scores, probabilities and weights must be numeric columns"
                + (
                    "; a List/Array column of per-class scores needs labels="
                    if role == "score" and isinstance(schema[name], pl.List | pl.Array)
                    else ""
                ),
            )
    y, yhat = roles["y"], roles.get("yhat")
    cast = label_dtype(schema, y, yhat)
    dtype = cast if cast is not None else schema[y]
    if pos_label is not NOT_GIVEN:  # before any comparison with y runs
        check_class_value(dtype, pos_label, y, "pos_label", present)
    for label in labels or ():
        check_class_value(dtype, label, y, "labels", present)
    return cast


def prepare(
    data: Frame,
    *,
    y: str,
    yhat: str | None = None,
    score: str | Mapping[Any, str] | None = None,
    weight: str | None = None,
    by: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    missing: Missing = "raise",
    nonfinite: Missing = "raise",
    probability: bool = False,
    classes: bool = True,
    pos_label: Any = NOT_GIVEN,
    pos_in_y: bool = False,
    scan_lazy: bool = False,
    outputs: Sequence[str] = (),
    score_role: Literal["score", "proba"] = "score",
) -> Prepared:
    """Check ``data`` for one evaluation and return it as a clean lazy frame.

    Raises :class:`InputError` for a bad option, a missing column, a group column that
    collides with a column read or an output column (``outputs``), incompatible label dtypes,
    a class argument of another kind than ``y``, and, on eager input, nulls (unless
    ``missing="drop"``), NaN or infinite scores (unless ``nonfinite="drop"``), non-integral or
    infinite float labels, NaN/infinite/negative weights and, when ``probability`` is set,
    scores outside [0, 1] — each counted on the rows left after the drops. ``classes=False``
    skips collecting the class set. A given ``pos_label`` must be of the kind of ``y``, and
    with ``pos_in_y`` must occur in it (binary scores).
    ``scan_lazy=True`` checks a LazyFrame like eager data, by one aggregating query that
    streams (for results that are always eager, such as the report); the frame stays lazy.
    ``score_role`` names the score columns in messages, after the caller's argument.
    """
    if not isinstance(data, pl.DataFrame | pl.LazyFrame):
        raise InputError(
            f"data must be a Polars DataFrame or LazyFrame, got {type(data).__name__}",
            role="data",
            rule="data_type",
            hint="convert with pl.from_pandas(...) or pl.from_arrow(...)",
        )
    _options.mode("missing", missing)
    _options.mode("nonfinite", nonfinite)
    labels = _options.labels(labels)
    eager = isinstance(data, pl.DataFrame) or scan_lazy
    lf = data.lazy()
    schema = lf.collect_schema()
    roles = role_map(y, yhat, score, weight, proba=score_role == "proba")
    by_cols = _options.group_columns(by, roles=roles, outputs=outputs)

    def present() -> list[Any]:
        first = pl.col(y).drop_nulls().unique().sort().head(10)
        return lf.select(first).collect().to_series().to_list()

    shown = present if eager else None
    cast = check_schema(schema, roles, by_cols, labels=labels, pos_label=pos_label, present=shown)
    if isinstance(score, Mapping):
        dtype = cast if cast is not None else schema[y]
        for key in score:
            check_class_value(dtype, key, y, "score", shown)
    p = plan(
        schema,
        roles,
        cast=cast,
        missing=missing,
        nonfinite=nonfinite,
        probability=probability,
        grouped=bool(by_cols),
        pos_label=pos_label if pos_in_y else NOT_GIVEN,
    )
    null, bad = _masks(p, schema)
    class_list: list[Any] | None = None
    n_excluded: pl.DataFrame | None = None
    n_rows: int | None = None
    if eager:
        class_list, n_rows = _scan(lf, schema, p, cast, classes)
        drop = pl.lit(False)
        if missing == "drop":
            drop = drop | null
        if nonfinite == "drop":
            drop = drop | bad
        if missing == "drop" or nonfinite == "drop":
            n_excluded = _count_excluded(lf, by_cols, drop)
            lf = lf.filter(~drop)
    else:  # the expression rule: rows with a null or a NaN score are left out
        nan = pl.any_horizontal([pl.col(c).is_nan() for c in p.score_cols] or [pl.lit(False)])
        lf = lf.filter(~(null | nan.fill_null(False)))
    if cast is not None:
        lf = lf.with_columns(pl.col(p.label_cols).cast(cast))
    return Prepared(lf, by_cols, eager, class_list, n_excluded, roles, n_rows)


def _count_excluded(lf: pl.LazyFrame, by: list[str], drop: pl.Expr) -> pl.DataFrame:
    n = drop.cast(pl.Int64).sum().alias("n_excluded")
    if not by:
        return lf.select(n).collect()
    return lf.group_by(by).agg(n).sort(by, nulls_last=True).collect()


# --- checks on class sets and probability rows -----------------------------------------------


def check_proba_sums(
    prep: Prepared, columns: Mapping[Any, str], *, atol: float | None = None
) -> None:
    """Raise when a row of multiclass probabilities does not sum to 1 (eager input only).

    The tolerance is ``1e-6 * k`` for k columns unless ``atol`` is given; the error names the
    worst row and its sum. LazyFrames are not read here.
    """
    if not prep.eager or not columns:
        return
    tol = 1e-6 * len(columns) if atol is None else atol
    total = pl.sum_horizontal([pl.col(c).cast(pl.Float64) for c in columns.values()])
    gap = (total - 1.0).abs()
    row = prep.frame.select(
        (gap > tol).sum().alias("n"),
        gap.arg_max().alias("i"),
        total.gather(gap.arg_max()).first().alias("s"),
    ).collect()
    n_bad, worst, value = row.row(0)
    if n_bad:
        names = list(columns.values())
        raise InputError(
            f"{n_bad} row(s) of probabilities {names!r} do not sum to 1; the worst is row "
            f"{worst} with sum {value!r}",
            column=names[0],
            role="proba",
            rule="probability_sum",
            hint=f"each row must sum to 1 within {tol:g}; clfeval never renormalises silently",
        )


def check_pos_label(
    classes: Sequence[Any], pos_label: Any, *, average: Any, labels: Sequence[Any] | None, y: str
) -> None:
    """sklearn's binary rules: pos_label must be a class; ``binary`` needs at most two classes."""
    if average != "binary":
        return
    if len(classes) > 2:
        raise InputError(
            f"column {y!r} (y) has {len(classes)} classes {list(classes)[:10]!r} but "
            "average='binary'",
            column=y,
            role="y",
            rule="multiclass_binary",
            hint="choose average='macro', 'micro', 'weighted' or None",
        )
    if pos_label not in classes and len(classes) >= 2:
        raise InputError(
            f"pos_label={pos_label!r} is not a class of {y!r}; the classes are {list(classes)!r}",
            column=y,
            role="pos_label",
            rule="pos_label",
            hint="pass pos_label= with the class that counts as positive",
        )


def check_labels_present(classes: Sequence[Any], labels: Sequence[Any] | None, y: str) -> None:
    """sklearn raises when none of ``labels`` occurs in the data."""
    if labels is not None and not any(label in classes for label in labels):
        raise InputError(
            f"none of labels={list(labels)!r} occurs in the data; the classes are "
            f"{list(classes)[:10]!r}",
            column=y,
            role="labels",
            rule="labels_absent",
            hint="list classes that occur in y or yhat",
        )
