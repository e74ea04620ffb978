"""Every check of the data a call reads: the schema first, then one counting pass.

The front door (frame functions, ``.clf``, ``Report``, ``clfeval.sql``, CLI) calls
:func:`prepare` (or, for a table inside DuckDB, :func:`plan` and :func:`raise_for` with the
counts computed by SQL). The schema is checked first (:mod:`clfeval._schema`). Eager input is
then scanned once, and the first problem raises :class:`InputError` naming the column, its
role, the count and the first rows. ``missing="drop"`` and ``nonfinite="drop"`` take their
rows out *before* every other check: a dropped row is never reported. LazyFrame input is
checked at the schema level only and follows the expression rule (rows with a null or a NaN
score are left out; a group holding a meaningless value gets null numbers), since nothing is
read until it is collected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import polars as pl

from clfeval import _options
from clfeval._data_checks import (
    check_folds,
    check_labels_present,
    check_pos_label,
    check_prevalence,
    check_proba_sums,
    check_score_classes,
)
from clfeval._frames import as_polars
from clfeval._options import AVERAGES
from clfeval._prepared import ROWS_ELSEWHERE, Frame, Missing, Prepared
from clfeval._schema import (
    NOT_GIVEN,
    check_class_value,
    check_columns,
    check_schema,
    is_score,
    order_scores,
    role_map,
    score_columns,
)
from clfeval.exceptions import InputError

__all__ = [  # the schema checks are re-exported: every front door imports checks from here
    "AVERAGES",
    "NOT_GIVEN",
    "Check",
    "Frame",
    "Missing",
    "Plan",
    "Prepared",
    "check_class_value",
    "check_columns",
    "check_folds",
    "check_labels_present",
    "check_options",
    "check_pos_label",
    "check_prevalence",
    "check_proba_sums",
    "check_schema",
    "check_score_classes",
    "expand_list_scores",
    "is_score",
    "kept_classes",
    "plan",
    "prepare",
    "raise_for",
    "role_map",
    "score_columns",
]

MAX_EXAMPLES = 5


def as_by(by: str | Sequence[str] | None) -> list[str]:
    return _options.group_columns(by)


# --- the schema ---------------------------------------------------------------------------


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
    keep: pl.Expr | None = _keep(p, null, bad)
    if p.missing == "raise" and p.nonfinite == "raise":
        # nothing is dropped: a null or a non-finite score raises before any later check
        # counts, so the later checks read every row (no filtered copy of a column)
        keep = None

    def scope(check: Check) -> pl.Expr | None:
        if check.after_drop:
            return keep
        return None if check.test == "null" or keep is None else ~null

    def kept(e: pl.Expr) -> pl.Expr:
        return e if keep is None else e.filter(keep)

    def within(test: pl.Expr, rows: pl.Expr | None) -> pl.Expr:
        return test if rows is None else test & rows

    masks = [within(_test(c, schema[c.column]), scope(c)) for c in p.checks]
    exprs = [m.fill_null(False).sum().cast(pl.Int64).alias(f"n{i}") for i, m in enumerate(masks)]
    for i, check in enumerate(p.checks):
        if check.test == "outside01":
            values = kept(pl.col(check.column))  # min and max leave NaN out
            exprs += [values.min().alias(f"lo{i}"), values.max().alias(f"hi{i}")]
    common = []  # what both passes read
    if classes:
        for j, c in enumerate(p.label_cols):
            common.append(kept(pl.col(c)).unique().implode().alias(f"c{j}"))
    n_kept = pl.len() if keep is None else keep.sum()
    common += [pl.len().alias("n_rows"), n_kept.alias("n_kept")]
    if p.weight is not None:  # ungrouped all-0 weights raise; a group of them is null
        common.append(kept(pl.col(p.weight).cast(pl.Float64)).sum().alias("w_kept"))
    y = p.label_cols[0]
    if p.pos_label is not NOT_GIVEN:
        kept_y = kept(pl.col(y))
        exprs.append((kept_y == p.pos_label).any().alias("has_pos"))
        common.append((kept_y.min() != kept_y.max()).alias("y_varies"))
    counts = _clean_pass(lf, schema, p, masks, common) if keep is None else None
    if counts is None:
        counts = lf.select(*exprs, *common).collect().row(0, named=True)

    def rows_of(i: int) -> list[int]:
        return lf.select(_rows(masks[i])).collect().item().to_list()

    def present() -> list[Any]:
        return lf.select(kept(pl.col(y)).unique().sort()).collect().to_series().to_list()

    raise_for(p, counts, rows_of, present)
    if not classes:
        return None, counts["n_rows"]
    parts = [pl.Series(counts[f"c{j}"], dtype=schema[c]) for j, c in enumerate(p.label_cols)]
    values = pl.concat([part.cast(cast) if cast is not None else part for part in parts])
    return values.unique().sort().to_list(), counts["n_rows"]


# the tests a column passes when its bounds do (min and max leave NaN and nulls out)
_BOUNDED: dict[str, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    "inf": lambda lo, hi: (lo == float("-inf")) | (hi == float("inf")),
    "negative": lambda lo, hi: lo < 0,
    "outside01": lambda lo, hi: (lo < 0) | (hi > 1),
}


def _clean_pass(
    lf: pl.LazyFrame, schema: pl.Schema, p: Plan, masks: list[pl.Expr], common: list[pl.Expr]
) -> dict[str, Any] | None:
    """The counts of a frame that passes every check, from a cheaper pass (nothing dropped).

    A range test (infinite, negative, outside [0, 1]) reads the column's min and max instead
    of a mask per row, and pos_label is found as an end of y. None at the first doubt (a
    count, a bound outside, pos_label not an end of y): the exact pass then counts.
    """
    bounds = {c.column: (pl.col(c.column).min(), pl.col(c.column).max()) for c in p.checks}
    exprs = list(common)
    for i, (check, mask) in enumerate(zip(p.checks, masks, strict=True)):
        if check.test in _BOUNDED:
            lo, hi = bounds[check.column]
            doubt = _BOUNDED[check.test](lo, hi).fill_null(False).cast(pl.Int64)
            exprs.append(doubt.alias(f"n{i}"))
            if check.test == "outside01":
                exprs += [lo.alias(f"lo{i}"), hi.alias(f"hi{i}")]
        else:
            exprs.append(mask.fill_null(False).sum().cast(pl.Int64).alias(f"n{i}"))
    if p.pos_label is not NOT_GIVEN:
        y = pl.col(p.label_cols[0])
        dtype = schema[p.label_cols[0]]
        if dtype.is_numeric() or dtype == pl.String:
            found = (y.min() == p.pos_label) | (y.max() == p.pos_label)
        else:
            found = (y == p.pos_label).any()
        exprs.append(found.fill_null(False).alias("has_pos"))
    row = lf.select(exprs).collect().row(0, named=True)
    if any(row[f"n{i}"] for i in range(len(p.checks))) or row.get("has_pos") is False:
        return None
    return row


def kept_classes(lf: pl.LazyFrame, p: Plan, cast: pl.DataType | None) -> list[Any]:
    """The sorted classes of the label columns on the rows the drops keep."""
    schema = lf.collect_schema()
    null, bad = _masks(p, schema)
    keep = _keep(p, null, bad)
    parts = lf.select(pl.col(c).filter(keep).unique().implode() for c in p.label_cols).collect()
    values = [parts[c].explode().cast(cast) if cast is not None else parts[c].explode()
              for c in p.label_cols]  # fmt: skip
    return pl.concat(values).drop_nulls().unique().sort().to_list()


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
    more_scores: Sequence[str] = (),
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
    ``more_scores`` are further score columns of the same rows (paired comparisons), checked
    as ``score`` is, under the roles ``score_b``, ``score_c``...
    """
    data = as_polars(data)
    _options.mode("missing", missing)
    _options.mode("nonfinite", nonfinite)
    labels = _options.labels(labels)
    eager = isinstance(data, pl.DataFrame) or scan_lazy
    lf = data.lazy()
    schema = lf.collect_schema()
    roles = role_map(y, yhat, score, weight, proba=score_role == "proba")
    roles |= {f"score_{chr(98 + i)}": c for i, c in enumerate(more_scores)}
    dropping = missing == "drop" or nonfinite == "drop"
    outputs = [*outputs, "n_excluded"] if dropping else outputs  # the count of the drops
    by_cols = _options.group_columns(by, roles=roles, outputs=outputs)

    def present() -> list[Any]:
        elsewhere = ROWS_ELSEWHERE.get()
        if elsewhere is not None:  # the rows are in another engine
            return elsewhere.present(y)
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
        elsewhere = ROWS_ELSEWHERE.get()
        if elsewhere is not None:  # lf reduces rows another engine holds: it counts them
            class_list, n_rows, n_excluded = elsewhere.scan(p, lf, cast, classes, by_cols)
        else:
            class_list, n_rows = _scan(lf, schema, p, cast, classes)
        drop = pl.lit(False)
        if missing == "drop":
            drop = drop | null
        if nonfinite == "drop":
            drop = drop | bad
        if missing == "drop" or nonfinite == "drop":
            if elsewhere is None:
                n_excluded = _count_excluded(lf, by_cols, drop)
            lf = lf.filter(~drop)
    else:  # the expression rule: rows with a null or a NaN score are left out
        nan = pl.any_horizontal([pl.col(c).is_nan() for c in p.score_cols] or [pl.lit(False)])
        lf = lf.filter(~(null | nan.fill_null(False)))
        bad = _meaningless(p, schema)
    if cast is not None:
        lf = lf.with_columns(pl.col(p.label_cols).cast(cast))
    return Prepared(
        lf, by_cols, eager, class_list, n_excluded, roles, n_rows, None if eager else bad
    )


def _meaningless(p: Plan, schema: pl.Schema) -> pl.Expr | None:
    """The rows whose value makes their group's numbers meaningless (lazy input): the data
    checks an eager call raises for, other than nulls and NaN scores (left out)."""
    tests = [c for c in p.checks if c.test in ("negative", "outside01") or c.role == "weight"]
    tests = [c for c in tests if c.test != "null"]
    if not tests:
        return None
    return pl.any_horizontal([_test(c, schema[c.column]).fill_null(False) for c in tests])


def _count_excluded(lf: pl.LazyFrame, by: list[str], drop: pl.Expr) -> pl.DataFrame:
    n = drop.cast(pl.Int64).sum().alias("n_excluded")
    if not by:
        return lf.select(n).collect()
    return lf.group_by(by).agg(n).sort(by, nulls_last=True).collect()


def expand_list_scores(
    data: Frame, score: Any, labels: Sequence[Any] | None, role: str = "score"
) -> tuple[Frame, str | dict[Any, str]]:
    """Normalise ``score``; a List/Array column becomes one column ``name[label]`` per class."""
    data = as_polars(data)
    if isinstance(score, str):
        schema = data.lazy().collect_schema()
        dtype = schema.get(score)
        if not isinstance(dtype, pl.List | pl.Array):
            return data, score
        if not dtype.inner.is_numeric():
            raise InputError(
                f"column {score!r} ({role}) holds lists of {dtype.inner}, not of numbers",
                column=score,
                role=role,
                rule="dtype",
                hint="per-class scores must be numbers",
            )
        if labels is None:
            raise InputError(
                f"column {score!r} holds a list of scores per row; labels= must name them",
                column=score,
                role=role,
                rule="score_labels",
                hint="pass labels=[...] in the order of the list elements",
            )
        names = {label: f"{score}[{label}]" for label in labels}
        parts = [
            pl.col(score).cast(pl.List(pl.Float64)).list.get(i, null_on_oob=True).alias(n)
            for i, n in enumerate(names.values())
        ]
        return data.with_columns(parts), names
    if score is None or isinstance(score, str):
        return data, score
    out = score_columns(score, labels, role)
    assert isinstance(out, dict)
    return data, order_scores(out, labels)
