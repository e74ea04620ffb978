"""The sqlglot tree helpers of the generated SQL and the builder's plumbing (CTEs, windows,
the zero guard, the groups whose numbers are nulled)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

try:
    from sqlglot import exp
except ImportError:  # pragma: no cover - sqlglot is optional at runtime
    exp = None  # type: ignore[assignment]

MISSING_SQLGLOT = (
    "clfeval.sql.query needs sqlglot, which is not installed: pip install 'clfeval[warehouse]'"
)
KEYS = ("label", "actual", "predicted", "threshold", "bin")  # kept when a group is nulled
PRF = ("precision", "recall", "f1")  # the report's per-class metrics


def _id(name: str) -> exp.Identifier:
    return exp.to_identifier(name, quoted=True)


def _c(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table, quoted=True)


def _n(value: int) -> exp.Literal:
    return exp.Literal.number(value)


def _dbl(e: exp.Expr) -> exp.Expr:
    if isinstance(e, exp.Cast) and e.to.is_type("double"):
        return e
    return exp.cast(e, "DOUBLE")


def _f(value: int) -> exp.Expr:
    return _dbl(_n(value))


def _null(e: exp.Expr) -> exp.Expr:
    return e.is_(exp.null())


def _case(*whens: tuple[exp.Expr, exp.Expr], default: exp.Expr | None = None) -> exp.Expr:
    case = exp.case()
    for cond, value in whens:
        case = case.when(cond, value)
    return case.else_(default) if default is not None else case


def _parenthesize(tree: exp.Expr) -> exp.Expr:
    """Wrap arithmetic operands that are arithmetic, so the text keeps the tree's evaluation
    order (sqlglot prints ``a - (b - c)`` built with operators as ``a - b - c``)."""
    arith = (exp.Add, exp.Sub, exp.Mul, exp.Div)
    for node in list(tree.find_all(*arith)):
        for key in ("this", "expression"):
            if isinstance(node.args.get(key), arith):
                node.set(key, exp.Paren(this=node.args[key]))
    return tree


def _union(*selects: exp.Select) -> exp.Expr:
    out: exp.Expr = selects[0]
    for s in selects[1:]:
        out = exp.union(out, s, distinct=False)
    return out


class _Sql:
    """A sqlglot expression whose arithmetic copies its operands (a node has one parent), so
    that the registry's formulas (``clfeval._metrics``) may use a value twice."""

    __slots__ = ("node",)

    def __init__(self, node: exp.Expr) -> None:
        self.node = node

    @staticmethod
    def of(value: Any) -> exp.Expr:
        if isinstance(value, _Sql):
            return value.node.copy()
        return _dbl(exp.Literal.number(repr(float(value))))

    def _op(self, kind: type[exp.Expr], other: Any, swap: bool = False) -> _Sql:
        a, b = _Sql.of(self), _Sql.of(other)
        return _Sql(kind(this=b, expression=a) if swap else kind(this=a, expression=b))

    def __add__(self, o: Any) -> _Sql:
        return self._op(exp.Add, o)

    def __radd__(self, o: Any) -> _Sql:
        return self._op(exp.Add, o, swap=True)

    def __sub__(self, o: Any) -> _Sql:
        return self._op(exp.Sub, o)

    def __rsub__(self, o: Any) -> _Sql:
        return self._op(exp.Sub, o, swap=True)

    def __mul__(self, o: Any) -> _Sql:
        return self._op(exp.Mul, o)

    def __rmul__(self, o: Any) -> _Sql:
        return self._op(exp.Mul, o, swap=True)

    def __truediv__(self, o: Any) -> _Sql:
        return self._op(exp.Div, o)


class _SqlAlgebra:
    """The registry's formulas rendered as portable SQL (sqlglot), through the builder's
    zero guard."""

    def __init__(self, builder: Base) -> None:
        self.b = builder

    def div(self, num: Any, den: Any, zero: Any) -> _Sql:
        fallback = None if zero is None else zero.copy()
        return _Sql(self.b.div(_Sql.of(num), _Sql.of(den), fallback))

    def share(self, part: Any, total: Any) -> _Sql:
        return _Sql(self.b.div(_Sql.of(part), _Sql.of(total)))

    def mean_defined(self, a: Any, b: Any) -> _Sql:
        x, y = _Sql.of(a), _Sql.of(b)
        mean = (x.copy() + y.copy()) / _f(2)
        return _Sql(_case((_null(x), y.copy()), (_null(y), x.copy()), default=mean))

    def zero_when(self, den: Any, value: Any) -> _Sql:
        return _Sql(_case((_Sql.of(den).eq(0), _f(0)), default=_Sql.of(value)))

    def sqrt(self, x: Any) -> _Sql:
        return _Sql(exp.Sqrt(this=_Sql.of(x)))


def _item(item: str | tuple[str, exp.Expr] | exp.Expr) -> exp.Expr:
    if isinstance(item, str):
        return _c(item)
    if isinstance(item, tuple):
        return exp.alias_(item[1], item[0], quoted=True)
    return item


class Base:
    """Collects the CTEs of one statement; every name it invents starts with ``_clf_``."""

    def __init__(self, dialect, table, groups, weight, pos_label, zero_division) -> None:
        self.dialect, self.table, self.groups = dialect, table, groups
        self.weight, self.pos = weight, pos_label
        self.zd = exp.null() if zero_division is None else _f(int(zero_division))
        self.ctype = "DOUBLE" if weight is not None else "BIGINT"
        self.ctes: list[exp.CTE] = []
        self.guards: list[str] = []  # CTEs flagging groups whose numbers are meaningless
        self.beta = 1.0  # F-beta's beta in the thresholds table and metrics
        self.averaged: list[str] = list(PRF)  # the per-class metrics of _clf_per

    # -- plumbing -------------------------------------------------------------------------

    def g(self, table: str | None = None) -> list[exp.Column]:
        return [_c(name, table) for name in self.groups]

    @contextmanager
    def by_also(self, *extra: str) -> Iterator[None]:
        """Partition by ``extra`` columns too (per class, per pair of classes) meanwhile."""
        groups = self.groups
        self.groups = [*groups, *extra]
        try:
            yield
        finally:
            self.groups = groups

    def cte(self, name: str, body: exp.Expr) -> None:
        self.ctes.append(exp.CTE(this=body, alias=exp.TableAlias(this=_id(name))))

    def sel(self, frm, *items, where=None, group=None, having=None) -> exp.Select:
        """SELECT <groups>, items FROM frm [WHERE] [GROUP BY <groups>, group] [HAVING]."""
        src = exp.Table(this=_id(frm)) if isinstance(frm, str) else frm
        out = exp.select(*self.g(), *map(_item, items)).from_(src)
        out = out.where(where) if where is not None else out
        if group is not None and (self.groups or group):
            out = out.group_by(*self.g(), *map(_item, group))
        return out.having(having) if having is not None else out

    def win(self, func: exp.Expr, order: str | None = None, *, desc=True, running=False):
        """func OVER (PARTITION BY <groups> [ORDER BY order] [ROWS UNBOUNDED PRECEDING])."""
        w = exp.Window(this=func, partition_by=self.g() or None, over="OVER")
        if order is not None:
            w.set("order", exp.Order(expressions=[exp.Ordered(this=_c(order), desc=desc)]))
        if running:
            spec = exp.WindowSpec(
                kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end="CURRENT ROW"
            )
            w.set("spec", spec)
        return w

    def count(self, e: exp.Expr) -> exp.Expr:
        return exp.cast(e, self.ctype)

    def div(self, num: exp.Expr, den: exp.Expr, zero: exp.Expr | None = None) -> exp.Expr:
        """CASE WHEN den = 0 THEN zero ELSE num / den END, in DOUBLE."""
        return _case((den.eq(0), zero or exp.null()), default=_dbl(num) / _dbl(den.copy()))

    def fconst(self, value: float) -> exp.Expr:
        """A DOUBLE constant cast from its round-trip text (no DECIMAL literal detour)."""
        if value == float("inf") and self.dialect == "trino":  # Trino's CAST rejects 'inf'
            return exp.Anonymous(this="infinity", expressions=[])
        return _dbl(exp.Literal.string("inf" if value == float("inf") else repr(value)))

    def valid(self, *names: str, nan: exp.Expr | list[exp.Expr] | None = None) -> exp.Expr:
        """The rows a capability reads: no null in its columns, no NaN in `nan`."""
        cols = [*names, *([self.weight] if self.weight is not None else [])]
        conds = [_null(_c(n)).not_() for n in cols]
        for value in nan if isinstance(nan, list) else [] if nan is None else [nan]:
            if self.dialect in ("snowflake", "postgres"):
                conds.append(value.eq(_dbl(exp.Literal.string("NaN"))).not_())  # NaN = NaN there
            else:
                conds.append(exp.IsNan(this=value).not_())
        return exp.and_(*conds)

    def w(self) -> exp.Expr:
        return _dbl(_c(self.weight)) if self.weight is not None else _n(1)

    def zero(self) -> exp.Expr:
        return _f(0) if self.weight is not None else _n(0)

    def guard(self, where: exp.Expr, proba: exp.Expr | list[exp.Expr] | None = None) -> None:
        """Flag the groups (as ``_clf_bad`` = 1) holding a negative, NaN or infinite weight, or
        a probability outside [0, 1], among the rows ``where`` keeps: their numbers come out
        null (the expressions' rule; portable SQL has no error function to raise with)."""
        bad = []
        if self.weight is not None:
            w = _dbl(_c(self.weight))
            # x - x = 0 holds exactly for finite x, and is false for NaN and +-inf everywhere
            bad.append(w < _f(0))
            bad.append(exp.Paren(this=(w.copy() - w.copy()).eq(_f(0))).not_())
        for p in proba if isinstance(proba, list) else [] if proba is None else [proba]:
            bad.append(exp.or_(p < _f(0), p.copy() > _f(1)))
        if not bad:
            return
        name = f"_clf_bad{len(self.guards)}"
        flag = exp.Max(this=_case((exp.or_(*bad), _n(1)), default=_n(0)))
        self.cte(name, self.sel(self.table, ("_clf_bad", flag), where=where, group=[]))
        self.guards.append(name)

    def finish(self, body: exp.Select, *order: str | exp.Ordered) -> exp.Select:
        """ORDER BY the groups and ``order``; null the values of flagged groups (`guard`)."""
        groups: list[exp.Expr] = self.g()
        if self.guards:
            body, order = self._guarded(body, order)
            groups = self.g("_clf_r")
        keys = [*groups, *order]
        if keys:
            body = body.order_by(
                *(
                    exp.Ordered(this=_item(k), desc=False, nulls_first=False)
                    if not isinstance(k, exp.Ordered)
                    else k
                    for k in keys
                )
            )
        body.set("with_", exp.With(expressions=self.ctes))
        return body

    def _guarded(
        self, body: exp.Select, order: tuple[str | exp.Ordered, ...]
    ) -> tuple[exp.Select, tuple[exp.Ordered, ...]]:
        """``body`` as the CTE ``_clf_r``, its value columns null where ``_clf_guard`` flags
        the group; the order keys rewritten onto ``_clf_r``."""
        shown = list(body.named_selects)
        named = [k.this.name if isinstance(k, exp.Ordered) else k for k in order]
        body = body.select(*(_c(n) for n in named if n not in shown))
        self.cte("_clf_r", body)
        flags = [exp.select(*self.g(), _c("_clf_bad")).from_(g) for g in self.guards]
        self.cte("_clf_flags", _union(*flags))
        self.cte(
            "_clf_guard",
            self.sel("_clf_flags", ("_clf_bad", exp.Max(this=_c("_clf_bad"))), group=[]),
        )
        bad = _c("_clf_bad", "_clf_guard").eq(1)
        items = []
        for n in shown:
            value = _c(n, "_clf_r")
            if n not in self.groups and n not in KEYS:
                value = _case((bad.copy(), exp.null()), default=value)
            items.append(exp.alias_(value, n, quoted=True))
        out = exp.select(*items).from_(exp.Table(this=_id("_clf_r")))
        if self.groups:
            on = exp.and_(
                *(exp.NullSafeEQ(this=_c(g, "_clf_r"), expression=_c(g, "_clf_guard"))
                  for g in self.groups)
            )  # fmt: skip
            out = out.join(exp.Table(this=_id("_clf_guard")), on=on, join_type="left")
        else:
            out = out.join(exp.Table(this=_id("_clf_guard")), join_type="cross")
        ordered = tuple(
            exp.Ordered(
                this=_c(name, "_clf_r"),
                desc=bool(k.args.get("desc")) if isinstance(k, exp.Ordered) else False,
                nulls_first=False,
            )
            for k, name in zip(order, named)
        )
        return out, ordered
