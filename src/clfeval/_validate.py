"""Every check that raises: schema first, then one pass over the data.

The front door (frame functions, ``.clf``, ``Report``, CLI) calls :func:`prepare`. It checks the
schema before reading anything, then, for eager input, scans the data once for nulls, NaN and
infinite values, negative weights, out-of-range probabilities and the class set. LazyFrame input
is checked at the schema level only and follows the expression rule (rows with a null or a NaN
score are left out), since nothing is read until it is collected.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

from clfeval.exceptions import InputError

Frame = pl.DataFrame | pl.LazyFrame
Missing = Literal["raise", "drop"]
AVERAGES = ("binary", "micro", "macro", "weighted", None)
MAX_EXAMPLES = 5
NOT_GIVEN: Any = object()


@dataclass(frozen=True)
class Prepared:
    """A validated lazy frame and what the caller needs to finish the job."""

    frame: pl.LazyFrame
    by: list[str]
    eager: bool
    classes: list[Any] | None = None  # sorted present classes (eager input only)
    n_excluded: pl.DataFrame | None = None  # by columns + n_excluded, with missing="drop"
    roles: dict[str, str] = field(default_factory=dict)
    n_rows: int | None = None  # rows of the input (eager input only)

    def finish(self, out: pl.LazyFrame) -> Frame:
        """Collect ``out`` when the input was eager; lazy in, lazy out."""
        return out.collect() if self.eager else out


def as_by(by: str | Sequence[str] | None) -> list[str]:
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def score_columns(
    score: str | Sequence[str] | Mapping[Any, str] | None, labels: Sequence[Any] | None
) -> dict[Any, str] | str | None:
    """Normalise a score argument: one column, or ``{label: column}`` for multiclass."""
    if score is None or isinstance(score, str):
        return score
    if isinstance(score, Mapping):
        return dict(score)
    columns = list(score)
    if labels is None or len(labels) != len(columns):
        raise InputError(
            f"a list of {len(columns)} score columns needs labels= of the same length",
            role="score",
            rule="score_labels",
            hint="pass labels=[...] in the order of the columns, or a mapping {label: column}",
        )
    return dict(zip(labels, columns))


def _kind(dtype: pl.DataType) -> str:
    if dtype == pl.Boolean:
        return "bool"
    if dtype.is_integer():
        return "int"
    if dtype.is_float():
        return "float"
    if isinstance(dtype, pl.Enum):
        return "enum"
    if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Categorical):
        return "str"
    return "other"


def _missing_column(name: str, role: str, schema: pl.Schema) -> InputError:
    names = list(schema.names())
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
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
        if not isinstance(name, str):
            raise InputError(
                f"{role} must be a column name, got {name!r}",
                role=role,
                rule="column_type",
                hint="pass the column's name as a string",
            )
        if name not in schema:
            raise _missing_column(name, role, schema)


def _label_cast(schema: pl.Schema, y: str, yhat: str | None) -> pl.DataType | None:
    """The common dtype of ``y`` and ``yhat``, or None when no cast is needed."""
    ty = schema[y]
    ky = _kind(ty)
    if ky in ("other",):
        raise InputError(
            f"column {y!r} (y) has dtype {ty}, which is not a label type",
            column=y,
            role="y",
            rule="dtype",
            hint="labels must be integers, booleans, strings, Categorical or Enum",
        )
    if yhat is None:
        return pl.Int64 if ky == "float" else None
    tp = schema[yhat]
    kp = _kind(tp)
    numeric = {"bool", "int", "float"}
    text = {"str", "enum"}
    if kp == "other" or not ({ky, kp} <= numeric or {ky, kp} <= text):
        raise InputError(
            f"columns {y!r} (y, {ty}) and {yhat!r} (yhat, {tp}) hold different kinds of labels",
            column=yhat,
            role="yhat",
            rule="dtype_mismatch",
            hint="cast one column so both hold numbers or both hold strings; clfeval never casts "
            "between them silently ('01' is not 1)",
        )
    if ty == tp and ky != "float":
        return None
    if {ky, kp} <= numeric:
        return pl.Boolean if ky == kp == "bool" else pl.Int64
    if ky == "enum" and kp == "enum":
        raise InputError(
            f"columns {y!r} and {yhat!r} are Enums with different categories",
            column=yhat,
            role="yhat",
            rule="enum_mismatch",
            hint="cast both columns to one Enum that lists every class",
        )
    if ky == "enum":
        return ty
    if kp == "enum":
        return tp
    return pl.String


def _is_text(dtype: pl.DataType) -> bool:
    return dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum | pl.Categorical)


def check_class_value(dtype: pl.DataType, value: Any, y: str, role: str) -> None:
    """A class value must be comparable with ``y`` (checked on the schema, before any data)."""
    text = isinstance(value, str)
    if _is_text(dtype) != text or (dtype == pl.Boolean and value not in (0, 1)):
        raise InputError(
            f"{role}={value!r} cannot be a class of column {y!r} ({dtype})",
            column=y,
            role=role,
            rule="pos_label",
            hint="pass a value of the same kind as the labels in y",
        )


def check_options(
    *,
    average: Any = "binary",
    labels: Sequence[Any] | None = None,
    zero_division: Any = 0.0,
    missing: Any = "raise",
    nonfinite: Any = "raise",
) -> None:
    """Validate plain arguments (no data needed)."""
    if average not in AVERAGES:
        raise InputError(
            f"average={average!r} is not one of {list(AVERAGES)}",
            role="average",
            rule="option",
            hint="use 'binary' for two classes, 'macro', 'micro' or 'weighted' for several, "
            "or None for one value per class",
        )
    if zero_division is not None and zero_division not in (0, 1):
        raise InputError(
            f"zero_division={zero_division!r} is not 0.0, 1.0 or None",
            role="zero_division",
            rule="option",
            hint="None makes an undefined ratio null, and nulls are left out of macro averages",
        )
    if missing not in ("raise", "drop"):
        raise InputError(
            f"missing={missing!r} is not 'raise' or 'drop'",
            role="missing",
            rule="option",
            hint="'drop' leaves out rows with a null in a column the metric reads",
        )
    if nonfinite not in ("raise", "drop"):
        raise InputError(
            f"nonfinite={nonfinite!r} is not 'raise' or 'drop'",
            role="nonfinite",
            rule="option",
            hint="'drop' leaves out rows whose score is NaN or infinite",
        )
    if labels is not None:
        labels = list(labels)
        if not labels:
            raise InputError(
                "labels=[] lists no class",
                role="labels",
                rule="labels_empty",
                hint="pass at least one class, or labels=None for every class in the data",
            )
        seen: list[Any] = []
        for label in labels:
            if label in seen:
                raise InputError(
                    f"labels lists {label!r} twice",
                    role="labels",
                    rule="labels_duplicate",
                    hint="list each class once, in the order you want them",
                )
            seen.append(label)


def _rows(mask: pl.Expr) -> pl.Expr:
    return pl.arg_where(mask).head(MAX_EXAMPLES).implode()


def _value_checks(
    role: str, name: str, dtype: pl.DataType, *, finite: bool, probability: bool, weight: bool
) -> list[tuple[str, pl.Expr, pl.Expr, str]]:
    """(rule, count expr, rows expr, problem text) for the numeric checks of one column."""
    col = pl.col(name)
    checks: list[tuple[str, pl.Expr, pl.Expr, str]] = []
    if dtype.is_float() and (finite or weight):
        checks.append(("nan", col.is_nan().sum(), _rows(col.is_nan()), "NaN value(s)"))
        checks.append(
            ("inf", col.is_infinite().sum(), _rows(col.is_infinite()), "infinite value(s)")
        )
    if weight:
        neg = col < 0
        checks.append(("negative_weight", neg.sum(), _rows(neg), "negative value(s)"))
    if probability:
        bad = (col < 0) | (col > 1)
        checks.append(("probability_range", bad.sum(), _rows(bad), "value(s) outside [0, 1]"))
    return checks


_FIX = {
    "null": "pass missing='drop' to leave those rows out (the count is reported), or fill them",
    "nan": "scores must be finite; pass nonfinite='drop' to leave those rows out",
    "inf": "scores must be finite; pass nonfinite='drop' to leave those rows out",
    "negative_weight": "weights must be finite and >= 0",
    "probability_range": "probability metrics need values in [0, 1]; ranking metrics (auroc, "
    "curves) accept any finite score",
    "continuous_labels": "labels must be whole numbers; did you pass a score as yhat?",
    "unknown_category": "cast both columns to one Enum that lists every class",
}


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
    scan_lazy: bool = False,
) -> Prepared:
    """Check ``data`` for one evaluation and return it as a clean lazy frame.

    Raises :class:`InputError` for a missing column, incompatible label dtypes, and, on eager
    input, nulls (unless ``missing="drop"``), NaN or infinite scores (unless
    ``nonfinite="drop"``), non-integral float labels, NaN/infinite/negative weights and, when
    ``probability`` is set, scores outside [0, 1]. ``classes=False`` skips collecting the class
    set (label frame functions read it from their small confusion frame instead); a given
    ``pos_label`` must occur in ``y`` (checked without collecting the classes).
    ``scan_lazy=True`` checks a LazyFrame like eager data, by one aggregating query that
    streams (for results that are always eager, such as the report); the frame stays lazy.
    """
    if not isinstance(data, pl.DataFrame | pl.LazyFrame):
        raise InputError(
            f"data must be a Polars DataFrame or LazyFrame, got {type(data).__name__}",
            role="data",
            rule="data_type",
            hint="convert with pl.from_pandas(...) or pl.from_arrow(...)",
        )
    check_options(labels=labels, missing=missing, nonfinite=nonfinite)
    eager = isinstance(data, pl.DataFrame) or scan_lazy
    lf = data.lazy()
    schema = lf.collect_schema()
    by_cols = as_by(by)
    scores = (
        {}
        if score is None
        else (
            {"score": score}
            if isinstance(score, str)
            else {f"score[{k}]": v for k, v in score.items()}
        )
    )
    roles: dict[str, str] = {"y": y}
    if yhat is not None:
        roles["yhat"] = yhat
    roles.update(scores)
    if weight is not None:
        roles["weight"] = weight
    check_columns(schema, roles)
    for name in by_cols:
        check_columns(schema, {"by": name})
    for role, name in {**scores, **({"weight": weight} if weight else {})}.items():
        if not (schema[name].is_numeric()):
            raise InputError(
                f"column {name!r} ({role}) has dtype {schema[name]}, not a number",
                column=name,
                role=role,
                rule="dtype",
                hint="scores, probabilities and weights must be numeric columns",
            )
    if pos_label is not NOT_GIVEN:  # before any comparison with y runs
        check_class_value(schema[y], pos_label, y, "pos_label")
    cast = _label_cast(schema, y, yhat)
    label_cols = [y] + ([yhat] if yhat is not None else [])

    # null and (lazy) NaN rows are never evaluated: one mask for "left out"
    read = label_cols + list(scores.values()) + ([weight] if weight else [])
    null_mask = pl.any_horizontal([pl.col(c).is_null() for c in read])
    for c in label_cols:
        if schema[c].is_float():
            null_mask = null_mask | pl.col(c).is_nan().fill_null(False)
    bad_mask = pl.lit(False)
    for c in scores.values():
        if schema[c].is_float():
            bad_mask = bad_mask | ~pl.col(c).is_finite().fill_null(True)

    class_list: list[Any] | None = None
    n_excluded: pl.DataFrame | None = None
    n_rows: int | None = None
    if eager:
        class_list, n_rows = _scan(
            lf,
            schema,
            roles,
            label_cols,
            cast,
            null_mask,
            bad_mask,
            missing=missing,
            nonfinite=nonfinite,
            probability=probability,
            classes=classes,
            grouped=bool(by_cols),
            pos_label=pos_label,
        )
        drop = pl.lit(False)
        if missing == "drop":
            drop = drop | null_mask
        if nonfinite == "drop":
            drop = drop | bad_mask.fill_null(False)
        if missing == "drop" or nonfinite == "drop":
            n_excluded = _count_excluded(lf, by_cols, drop)
            lf = lf.filter(~drop)
    else:
        lf = lf.filter(
            ~(
                null_mask
                | pl.any_horizontal(
                    [pl.col(c).is_nan() for c in scores.values() if schema[c].is_float()]
                    or [pl.lit(False)]
                ).fill_null(False)
            )
        )
    if cast is not None:
        lf = lf.with_columns(pl.col(label_cols).cast(cast))
    return Prepared(lf, by_cols, eager, class_list, n_excluded, roles, n_rows)


def _count_excluded(lf: pl.LazyFrame, by: list[str], drop: pl.Expr) -> pl.DataFrame:
    n = drop.cast(pl.Int64).sum().alias("n_excluded")
    if not by:
        return lf.select(n).collect()
    return lf.group_by(by).agg(n).sort(by, nulls_last=True).collect()


def _scan(
    lf: pl.LazyFrame,
    schema: pl.Schema,
    roles: Mapping[str, str],
    label_cols: list[str],
    cast: pl.DataType | None,
    null_mask: pl.Expr,
    bad_mask: pl.Expr,
    *,
    missing: Missing,
    nonfinite: Missing,
    probability: bool,
    classes: bool,
    grouped: bool,
    pos_label: Any = NOT_GIVEN,
) -> tuple[list[Any] | None, int]:
    """One pass over eager data: raise for the first problem found; ``(classes, rows)``.

    The pass only counts; the example rows of a failed check are found by a second query.
    """
    checks: list[tuple[str, str, str, pl.Expr, pl.Expr, str]] = []
    for role, name in roles.items():
        col = pl.col(name)
        is_null = col.is_null()
        if role in ("y", "yhat") and schema[name].is_float():
            is_null = is_null | col.is_nan().fill_null(False)
        checks.append((role, name, "null", is_null.sum(), _rows(is_null), "null value(s)"))
        dtype = schema[name]
        for rule, count, rows, text in _value_checks(
            role,
            name,
            dtype,
            finite=role.startswith("score"),
            probability=probability and role.startswith("score"),
            weight=role == "weight",
        ):
            checks.append((role, name, rule, count, rows, text))
        if role in ("y", "yhat") and dtype.is_float():
            frac = (col != col.round(0)) & col.is_finite()
            checks.append(
                (role, name, "continuous_labels", frac.sum(), _rows(frac), "non-integral value(s)")
            )
    if isinstance(cast, pl.Enum) and len(label_cols) == 2:
        other = label_cols[1] if isinstance(schema[label_cols[0]], pl.Enum) else label_cols[0]
        unknown = pl.col(other).is_not_null() & ~pl.col(other).cast(pl.String).is_in(
            cast.categories.to_list()
        )
        checks.append(
            (
                "yhat" if other == label_cols[-1] else "y",
                other,
                "unknown_category",
                unknown.sum(),
                _rows(unknown),
                "value(s) that are not Enum categories",
            )
        )
    exprs = [count.cast(pl.Int64).alias(f"n{i}") for i, (*_, count, _, _) in enumerate(checks)]
    keep = ~null_mask
    if nonfinite == "drop":
        keep = keep & ~bad_mask.fill_null(False)
    if classes:
        for j, c in enumerate(label_cols):
            exprs.append(pl.col(c).filter(keep).unique().implode().alias(f"c{j}"))
    exprs.append(pl.len().alias("n_rows"))
    exprs.append(keep.sum().alias("n_kept"))
    weight = roles.get("weight")
    if weight is not None and not grouped:  # a group whose weights are all 0 is null instead
        exprs.append(pl.col(weight).filter(keep).sum().alias("w_kept"))
    y = label_cols[0]
    if pos_label is not NOT_GIVEN:
        exprs.append((pl.col(y) == pos_label).filter(keep).any().alias("has_pos"))
    row = lf.select(exprs).collect().row(0, named=True)

    for i, (role, name, rule, _, _, text) in enumerate(checks):
        n_bad = row[f"n{i}"]
        if not n_bad:
            continue
        if rule == "null" and missing == "drop":
            continue
        if rule in ("nan", "inf") and role != "weight" and nonfinite == "drop":
            continue
        found = lf.select(checks[i][4]).collect().item()
        rows = ", ".join(str(r) for r in found)
        more = ", ..." if n_bad > MAX_EXAMPLES else ""
        raise InputError(
            f"column {name!r} ({role}) has {n_bad} {text} (rows {rows}{more})",
            column=name,
            role=role,
            rule=rule,
            hint=_FIX["negative_weight"] if role == "weight" and rule != "null" else _FIX[rule],
        )
    if row.get("w_kept") == 0 and row["n_kept"]:
        raise InputError(
            f"every weight in column {weight!r} (weight) is 0: no rows to evaluate",
            column=weight,
            role="weight",
            rule="empty",
            hint="weights must not all be 0 (a group whose weights are all 0 gets null metrics)",
        )
    if row["n_rows"] == 0 or row["n_kept"] == 0:
        gone = row["n_rows"] - row["n_kept"]
        raise InputError(
            "no rows to evaluate" + (f" (0 rows remain after leaving out {gone})" if gone else ""),
            rule="empty",
            hint="metrics need at least one row with every column it reads present",
        )
    if row.get("has_pos") is False:
        present = lf.select(pl.col(y).filter(keep).unique().sort()).collect().to_series()
        raise InputError(
            f"pos_label={pos_label!r} is not a class of {y!r}; the classes are "
            f"{present.head(10).to_list()!r}",
            column=y,
            role="pos_label",
            rule="pos_label",
            hint="pass pos_label= with the class that counts as positive",
        )
    if not classes:
        return None, row["n_rows"]
    parts = [pl.Series(row[f"c{j}"], dtype=schema[c]) for j, c in enumerate(label_cols)]
    values = pl.concat([p.cast(cast) if cast is not None else p for p in parts])
    return values.unique().sort().to_list(), row["n_rows"]


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
