"""Schema-level checks: columns, dtypes, the kind of the labels, classes given as arguments.

Nothing here reads data: every check runs on a Polars schema (of a frame, a LazyFrame or a
DuckDB table), before any row is read. Labels are never cast between kinds (text never equals
a number) and never truncated: two numeric label columns are compared in their common type
(``Int8`` and ``UInt64`` in ``Int128``, an integer and a float column as floats), so a float
label stays a float class.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from clfeval import _options
from clfeval.exceptions import InputError

NOT_GIVEN: Any = object()


def score_columns(
    score: str | Sequence[str] | Mapping[Any, str] | None,
    labels: Sequence[Any] | None,
    role: str = "score",
) -> dict[Any, str] | str | None:
    """Normalise a score argument: one column, or ``{label: column}`` for multiclass."""
    if score is None or isinstance(score, str):
        return score
    if isinstance(score, Mapping):
        for key, column in score.items():
            _options.class_value(role, key)
            _options.column_name(f"{role}[{key!r}]", column)
        return dict(score)
    if not isinstance(score, Sequence):
        _options.column_name(role, score)  # raises: the one message for a non-name
    columns = [_options.column_name(role, c) for c in score]
    if labels is None or len(labels) != len(columns):
        raise InputError(
            f"a list of {len(columns)} {role} columns needs labels= of the same length",
            role=role,
            rule="score_labels",
            hint="pass labels=[...] in the order of the columns, or a mapping {label: column}",
        )
    return dict(zip(labels, columns))


def order_scores(scores: Mapping[Any, Any], labels: Sequence[Any] | None) -> dict[Any, Any]:
    """A ``{label: column}`` mapping restricted to ``labels`` and in their order (every
    listed class needs a column)."""
    if labels is None:
        return dict(scores)
    missing = [label for label in labels if label not in scores]
    if missing:
        raise InputError(
            f"labels {missing!r} have no score column in the mapping",
            role="labels",
            rule="score_labels",
            hint=f"the mapping has the classes {list(scores)!r}",
        )
    return {label: scores[label] for label in labels}


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
    """Raise for the first role whose column is missing or uses the reserved prefix
    ``__clf_`` (clfeval's working columns). ``roles`` maps role -> column."""
    for role, name in roles.items():
        _options.column_name(role, name)
        if name.startswith("__clf_"):
            raise InputError(
                f"column {name!r} ({role}) uses the reserved prefix '__clf_'",
                column=name,
                role=role,
                rule="reserved_name",
                hint="rename the column (clfeval names its working columns __clf_...)",
            )
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
    bad = (
        (dtype != pl.Null and _is_text(dtype) != text)
        or (dtype == pl.Boolean and (isinstance(value, float) or value not in (0, 1)))
        # an integer column has no class 0.5 (True and False are its 1 and 0, as in Python)
        or (kind(dtype) == "int" and isinstance(value, float) and not value.is_integer())
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
