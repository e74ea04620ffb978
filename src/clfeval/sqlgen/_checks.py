"""The data checks of :mod:`clfeval._validate` as portable SQL, counted inside the engine.

The twin of :mod:`clfeval.sql._checks` for engines reached through generated SQL (PostgreSQL,
Spark, DuckDB by dialect): one aggregate counts every check of a :class:`Plan` over the table,
and :func:`clfeval._validate.raise_for` turns the counts into the front door's
:class:`InputError`. Identifiers are sqlglot identifiers quoted by the dialect; values are
sqlglot literals. NaN is found as ``x = CAST('NaN' AS DOUBLE)`` (NaN equals itself in DuckDB,
Spark and PostgreSQL) and infinity as ``NOT x - x = 0`` on the rest (false for NaN and ±inf
only), so no engine function is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from clfeval._validate import MAX_EXAMPLES, Check, Plan
from clfeval.sqlgen._tree import _c, _case, _dbl, _id, _n, exp

_KEEP = "_clf_keep"  # the alias of the kept-row flag in the row queries


def _nan(c: exp.Expr) -> exp.Expr:
    return exp.EQ(this=_dbl(c), expression=_dbl(exp.Literal.string("NaN")))


def _nonfinite(c: exp.Expr) -> exp.Expr:
    """NaN or ±inf: ``x - x = 0`` holds for every finite x and for no other value."""
    return exp.Paren(this=exp.EQ(this=_dbl(c) - _dbl(c.copy()), expression=_n(0))).not_()


def _or(*conds: exp.Expr) -> exp.Expr:
    return exp.Paren(this=exp.or_(*conds)) if conds else exp.false()


def _and(*conds: exp.Expr) -> exp.Expr:
    return exp.Paren(this=exp.and_(*conds))


def _test(check: Check, dtype: pl.DataType) -> exp.Expr:
    """The SQL twin of ``clfeval._validate._test`` on ``check.column``."""
    c = _c(check.column)
    if check.test == "null":
        if check.role in ("y", "yhat") and dtype.is_float():
            return _or(c.is_(exp.null()), _nan(c))
        return c.is_(exp.null())
    if check.test == "nan":
        return _nan(c)
    if check.test == "inf":
        return _and(_nonfinite(c), _nan(c).not_())
    if check.test == "negative":
        return c < _n(0)
    if check.test == "outside01":
        out = _or(c < _n(0), c.copy() > _n(1))
        return _and(out, _nan(c).not_()) if dtype.is_float() else out
    if check.test == "fraction":
        rounded = exp.Round(this=c.copy())
        return _and(exp.NEQ(this=c, expression=rounded), _nonfinite(c).not_())
    raise AssertionError(f"no portable SQL for the check {check.test!r}")  # Enum: DuckDB only


def masks(p: Plan, schema: pl.Schema) -> tuple[exp.Expr, exp.Expr, exp.Expr]:
    """(null, nonfinite, keep) conditions, the twins of ``_validate``'s row masks."""
    null = [_c(c).is_(exp.null()) for c in p.roles.values()]
    null += [_nan(_c(c)) for c in p.label_cols if schema[c].is_float()]
    bad = [_nonfinite(_c(c)) for c in p.score_cols]
    null_sql, bad_sql = _or(*null), _or(*bad)
    keep = null_sql.copy().not_()
    if p.nonfinite == "drop":
        keep = exp.and_(keep, bad_sql.copy().not_())
    return null_sql, bad_sql, exp.Paren(this=keep)


def tests(p: Plan, schema: pl.Schema) -> list[exp.Expr]:
    """Each check's condition, limited to the rows it is counted on."""
    null, _, keep = masks(p, schema)
    out = []
    for check in p.checks:
        if check.after_drop:
            scope = keep.copy()
        elif check.test == "null":
            scope = exp.true()
        else:
            scope = null.copy().not_()
        out.append(_and(_test(check, schema[check.column]), scope))
    return out


def _count(cond: exp.Expr) -> exp.Expr:
    return exp.Coalesce(this=exp.Sum(this=_case((cond, _n(1)), default=_n(0))), expressions=[_n(0)])


def count_query(
    p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, pos_label: exp.Expr | None
) -> str:
    """One aggregate with the counts :func:`clfeval._validate.raise_for` reads."""
    _, _, keep = masks(p, schema)
    items: list[exp.Expr] = []
    for i, cond in enumerate(tests(p, schema)):
        items.append(exp.alias_(_count(cond), f"n{i}"))
    for i, check in enumerate(p.checks):
        if check.test == "outside01":
            c = _c(check.column)
            kept = _and(keep.copy(), _nan(c).not_()) if schema[check.column].is_float() else keep
            value = _case((kept.copy(), c.copy()))
            items += [exp.alias_(exp.Min(this=value), f"lo{i}"),
                      exp.alias_(exp.Max(this=value.copy()), f"hi{i}")]  # fmt: skip
    items.append(exp.alias_(exp.Count(this=exp.Star()), "n_rows"))
    items.append(exp.alias_(_count(keep.copy()), "n_kept"))
    if p.weight is not None:
        w = _case((keep.copy(), _dbl(_c(p.weight))))
        items.append(exp.alias_(exp.Sum(this=w), "w_kept"))
    if pos_label is not None:
        y = _c(p.label_cols[0])
        items.append(exp.alias_(_count(_and(keep.copy(), y.eq(pos_label))), "has_pos"))
        kept_y = exp.Count(this=exp.Distinct(expressions=[_case((keep.copy(), y.copy()))]))
        items.append(exp.alias_(_case((kept_y > _n(1), _n(1)), default=_n(0)), "y_varies"))
    return exp.select(*items).from_(table.copy()).sql(dialect=dialect, identify=True)


def rows_query(p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, i: int) -> str:
    """The first rows (0-based, in the engine's scan order) where check ``i`` holds."""
    order = None
    if dialect == "spark":  # Spark's row_number() needs an order: the scan order's ids
        order = exp.Order(expressions=[exp.Ordered(this=exp.func("monotonically_increasing_id"))])
    number = exp.Window(this=exp.RowNumber(), over="OVER", order=order)
    inner = exp.select(
        exp.alias_(number - _n(1), "_clf_row"), exp.alias_(tests(p, schema)[i], "_clf_bad")
    ).from_(table.copy())
    q = (
        exp.select(_c("_clf_row"))
        .from_(inner.subquery("_clf_rows"))
        .where(_c("_clf_bad"))
        .order_by(_c("_clf_row"))
        .limit(MAX_EXAMPLES)
    )
    return q.sql(dialect=dialect, identify=True)


def sums_query(
    p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, columns: list[str], tol: float
) -> str:
    """Rows of per-class probabilities whose sum is off 1 by more than ``tol`` (on the kept
    rows): ``n``, the first worst row ``i`` (0-based, scan order) and its sum ``s``."""
    _, _, keep = masks(p, schema)
    total = _dbl(_c(columns[0]))
    for c in columns[1:]:
        total = total + _dbl(_c(c))
    gap = exp.Abs(this=exp.Paren(this=total.copy() - exp.Literal.number(1)))
    order = None
    if dialect == "spark":
        order = exp.Order(expressions=[exp.Ordered(this=exp.func("monotonically_increasing_id"))])
    row = exp.Window(this=exp.RowNumber(), over="OVER", order=order) - _n(1)
    inner = exp.select(
        exp.alias_(row, "_clf_row"),
        exp.alias_(_case((keep, gap)), "_clf_gap"),
        exp.alias_(total, "_clf_sum"),
    ).from_(table.copy())
    ranked = exp.select(
        "*",
        exp.alias_(
            exp.Window(
                this=exp.RowNumber(),
                over="OVER",
                order=exp.Order(expressions=[
                    exp.Ordered(this=_c("_clf_gap"), desc=True, nulls_first=False),
                    exp.Ordered(this=_c("_clf_row")),
                ]),
            ),
            "_clf_rank",
        ),
    ).from_(inner.subquery("_clf_rows"))  # fmt: skip
    bad = _c("_clf_gap") > exp.Literal.number(repr(float(tol)))
    q = exp.select(
        exp.alias_(_count(bad), "n"),
        exp.alias_(exp.Max(this=_case((_c("_clf_rank").eq(_n(1)), _c("_clf_row")))), "i"),
        exp.alias_(exp.Max(this=_case((_c("_clf_rank").eq(_n(1)), _c("_clf_sum")))), "s"),
    ).from_(ranked.subquery("_clf_ranked"))
    return q.sql(dialect=dialect, identify=True)


def present_query(p: Plan, schema: pl.Schema, table: exp.Table, dialect: str) -> str:
    """The first ten sorted classes of y on the kept rows."""
    _, _, keep = masks(p, schema)
    y = _c(p.label_cols[0])
    q = exp.select(y).distinct().from_(table.copy()).where(keep).order_by(y.copy()).limit(10)
    return q.sql(dialect=dialect, identify=True)


def classes_query(table: exp.Table, column: str, dialect: str) -> str:
    """The first ten sorted non-null values of a column (for messages naming the classes)."""
    c = _c(column)
    q = exp.select(c).distinct().from_(table.copy()).where(c.is_(exp.null()).not_())
    return q.order_by(c.copy()).limit(10).sql(dialect=dialect, identify=True)


def dropped(p: Plan, schema: pl.Schema) -> exp.Expr:
    """The rows ``missing="drop"``/``nonfinite="drop"`` leave out."""
    null, bad, _ = masks(p, schema)
    parts = [part for part, on in ((null, p.missing == "drop"), (bad, p.nonfinite == "drop")) if on]
    return _or(*parts)


def kept_view(
    p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, name: str
) -> tuple[str, str]:
    """(CREATE TEMPORARY VIEW of the kept rows, DROP VIEW) for the drop options."""
    body = exp.select(exp.Star()).from_(table.copy()).where(dropped(p, schema).not_())
    create = exp.Create(
        this=exp.Table(this=_id(name)),
        kind="VIEW",
        expression=body,
        properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
    )
    drop = exp.Drop(tables=[exp.Table(this=_id(name))], kind="VIEW", exists=True)
    return create.sql(dialect=dialect, identify=True), drop.sql(dialect=dialect, identify=True)


def excluded_query(
    p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, by: Sequence[str]
) -> str:
    """The rows left out per group: the group columns, then ``n_excluded``."""
    n = exp.alias_(exp.cast(_count(dropped(p, schema)), "BIGINT"), "n_excluded")
    q = exp.select(*[_c(b) for b in by], n).from_(table.copy())
    if by:
        q = q.group_by(*[_c(b) for b in by])
    return q.sql(dialect=dialect, identify=True)


def literal(value: Any) -> exp.Expr:
    """A class value as a SQL literal (a string is escaped by the dialect's generator)."""
    return exp.convert(value)


def fraction_query(p: Plan, schema: pl.Schema, table: exp.Table, dialect: str, column: str) -> str:
    """The kept rows whose ``column`` holds a finite value that is not a whole number
    (frequency weights: DeLong's variance and McNemar's test count rows)."""
    _, _, keep = masks(p, schema)
    test = _test(Check("weight", column, "fraction", True), schema[column])
    q = exp.select(exp.alias_(_count(_and(keep, test)), "n")).from_(table.copy())
    return q.sql(dialect=dialect, identify=True)
