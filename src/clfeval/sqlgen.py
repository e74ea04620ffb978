"""Portable SQL for clfeval's table capabilities: Spark, BigQuery, Snowflake, Trino, Postgres, DuckDB.

`query` builds one complete ``WITH ... SELECT`` statement per capability as a sqlglot
expression tree and renders it for the requested dialect. User strings never reach the SQL
text unescaped: identifiers are sqlglot identifiers quoted by the dialect's generator, values
are sqlglot literals. The SQL uses only GROUP BY, window sums over *distinct* scores (so ties
never depend on a frame), CASE-guarded division (never the engine's division by zero) and
CASTs: counts are BIGINT (DOUBLE when weighted), rates DOUBLE.

Null policy (the aggregate rule of the SQL macros): a row with a null in a column the
capability reads (y, yhat, the score or probability, the weight) is left out, and a NaN
score or probability counts as null. Every number matches scikit-learn per group to 1e-9.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from numbers import Integral
from typing import Any

from clfeval import _metrics, _options
from clfeval._metrics import THRESHOLD_METRICS, Counts, binary_formulas
from clfeval.exceptions import InputError

try:
    from sqlglot import exp
except ImportError:  # pragma: no cover - sqlglot is optional at runtime
    exp = None  # type: ignore[assignment]

MISSING_SQLGLOT = (
    "clfeval.sql.query needs sqlglot, which is not installed: pip install 'clfeval[warehouse]'"
)

__all__ = ["CAPABILITIES", "DIALECTS", "query"]

DIALECTS = ("duckdb", "spark", "bigquery", "snowflake", "trino", "postgres")
_LABEL = ("counts", "confusion", "report")
_SCORE = ("thresholds", "roc_curve", "pr_curve", "det_curve", "auroc", "average_precision")
_PROB = ("log_loss", "brier", "calibration")
CAPABILITIES = (*_LABEL, "metrics", *_SCORE, *_PROB)
_ALIASES = {"confusion_matrix": "confusion"}
_AVERAGES = ("binary", "micro", "macro", "weighted")
_PRF = ("precision", "recall", "f1")  # the report's per-class metrics
_AVERAGED = _metrics.names(averaged=True)
# the label metrics of clfeval.metrics that portable SQL computes (kappa needs the full
# confusion matrix: not generated yet)
_LABEL_METRICS = tuple(
    n for n in _metrics.names(family="label", in_metrics=True) if n != "cohen_kappa"
)
_SCORE_METRICS = _metrics.default_set("score", "proba")  # no per-class None: one row per group
_EPS = sys.float_info.epsilon  # numpy.finfo(float64).eps: scikit-learn's log-loss clip
_PT = ("_clf_s", "_clf_tp", "_clf_fp", "_clf_npos", "_clf_nneg", "_clf_i")  # a curve point
_RATES = THRESHOLD_METRICS  # the thresholds table's metrics, as in Polars
_KEYS = ("label", "actual", "predicted", "threshold", "bin")  # kept when a group is nulled
_OUTPUTS = {
    "counts": ("label", "tp", "fp", "fn", "tn", "support"),
    "confusion": ("actual", "predicted", "count"),
    "report": ("label", "precision", "recall", "f1", "support"),
    "metrics": (*_LABEL_METRICS, *_SCORE_METRICS),
    "thresholds": ("threshold", "tp", "fp", "fn", "tn", *_RATES),
    "roc_curve": ("threshold", "fpr", "tpr"),
    "pr_curve": ("threshold", "precision", "recall"),
    "det_curve": ("threshold", "fpr", "fnr"),
    "calibration": ("bin", "mean_predicted", "fraction_positive", "count"),
} | {name: (name,) for name in ("auroc", "average_precision", "log_loss", "brier")}


def query(
    metric: str,
    *,
    table: str | Sequence[str],
    y: str,
    yhat: str | None = None,
    score: str | None = None,
    proba: str | None = None,
    group_cols: str | Sequence[str] = (),
    pos_label: Any = 1,
    weight: str | None = None,
    dialect: str = "duckdb",
    drop_intermediate: bool | None = None,
    n_bins: int = 10,
    average: str = _options.DEFAULTS["average"],
    zero_division: float | None = 0.0,
    beta: float = 1.0,
    metrics: Sequence[str] | None = None,
) -> str:
    """One SQL statement computing `metric` per group, as scikit-learn computes it.

    Output: the group columns, then the capability's columns; rows sorted by the group keys
    (nulls last), then by label or threshold order.

    - ``counts``: label, tp, fp, fn, tn, support (one-vs-rest over the group's sorted labels).
    - ``confusion``: actual, predicted, count (every label pair of the group, zeros too).
    - ``report``: label (text), precision, recall, f1, support per class, then ``accuracy``
      (f1 = accuracy; precision, recall null), ``macro avg`` and ``weighted avg`` rows whose
      support is the group total.
    - ``metrics``: ``metrics=`` names them as ``clfeval.metrics`` does (default its default
      set): with `yhat` any label metric of the registry but cohen_kappa (the averaged ones
      under `average`, fbeta with `beta`); auroc, average_precision with `score`; log_loss,
      brier with `proba` (or `score`). One formula per metric, shared with Polars.
    - ``thresholds``: threshold, tp, fp, fn, tn, then the metrics of ``clfeval.thresholds``
      (precision, recall, specificity, fpr, npv, f1, fbeta with ``beta``, accuracy,
      balanced_accuracy, mcc, youden_j: the registry's formulas, rendered to SQL) per
      distinct score, highest first (``score >= threshold`` is positive).
    - ``roc_curve`` (threshold, fpr, tpr; first row +inf), ``pr_curve`` (threshold,
      precision, recall; thresholds increasing, then precision 1, recall 0 at a null
      threshold), ``det_curve`` (threshold, fpr, fnr): scikit-learn's points and order.
    - ``auroc`` (ties get half credit), ``average_precision`` (step sum), ``log_loss``
      (p clipped to [eps, 1 - eps]), ``brier``: one row per group.
    - ``calibration``: bin (0-based), mean_predicted, fraction_positive, count over
      `n_bins` uniform bins as ``calibration_curve`` (an edge value goes to the lower bin).

    Null when undefined: AUROC and curve rates with one class, average precision without
    positives (scikit-learn: 0.0), accuracy and losses of a group whose weights sum to 0.
    Precision, recall, f1 and threshold rates give `zero_division` on 0/0. As scikit-learn:
    MCC is 0 when a marginal is constant and PR recall without positives is 1.0. Weighted:
    curves drop zero-weight rows (scikit-learn does); counts are DOUBLE. ``average="binary"``
    on a multiclass group gives the one-vs-rest numbers of `pos_label` (scikit-learn raises).

    Parameters
    ----------
    metric
        One of `CAPABILITIES`.
    table
        Table name; dots separate catalog, schema and table (``"lake.preds"``), or a
        sequence of the parts. Each part is quoted.
    y, yhat, score, proba, weight
        Column names: truth, predicted label, ranking score, probability of `pos_label`,
        non-negative row weight. Curves use `proba` if `score` is not given and the
        probability metrics `score` if `proba` is not given.
    group_cols
        Column name(s); one result per combination of values, null keys included.
    pos_label
        The positive class, a literal of y's type (score, probability and binary metrics).
    dialect
        One of `DIALECTS`.
    drop_intermediate
        Drop collinear ROC points or PR/DET points where tp does not change; None is
        scikit-learn's default for the curve (True for ROC, False for PR and DET).
    n_bins
        Number of uniform calibration bins.
    average
        ``"binary"``, ``"micro"``, ``"macro"`` or ``"weighted"`` for the label metrics.
    zero_division
        0.0, 1.0 or None (null, and left out of averages) for 0/0.

    Returns
    -------
    str
        The SQL text, identifiers quoted.

    See Also
    --------
    clfeval.sql.load : the DuckDB macros (``clf_roc_curve`` ...).
    sklearn.metrics : the reference for every number.

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS FROM (VALUES (1, 0.9), (0, 0.4), (1, 0.4)) v(y, s)")
    >>> con.execute(query("auroc", table="t", y="y", score="s")).fetchall()
    [(0.75,)]
    """
    if exp is None:  # pragma: no cover - the CLI and clfeval.sql.query say which extra
        raise ImportError(MISSING_SQLGLOT)
    cap = _choice(_ALIASES.get(metric, metric), CAPABILITIES, "metric")
    _choice(dialect, DIALECTS, "dialect")
    average = _options.average(average, _AVERAGES)
    zero_division = _options.zero_division(zero_division)
    beta = _options.beta(beta)
    n_bins = _options.n_bins(n_bins)
    if drop_intermediate is not None:
        _options.flag("drop_intermediate", drop_intermediate)
    for value, role in (
        (y, "y"),
        (yhat, "yhat"),
        (score, "score"),
        (proba, "proba"),
        (weight, "weight"),
    ):
        if value is not None or role == "y":
            _options.column_name(role, value)
    roles = {r: c for r, c in (("y", y), ("yhat", yhat), ("score", score), ("proba", proba),
                               ("weight", weight)) if c is not None}  # fmt: skip
    groups = _names(group_cols, cap, roles)
    b = _Builder(dialect, _table(table), groups, weight, _literal(pos_label), zero_division)
    b.beta = beta
    ranking = score if score is not None else proba
    if cap in _LABEL:
        b.label_source(y, _need(yhat, "yhat", cap))
        tree = getattr(b, cap)()
    elif cap == "metrics":
        _check(
            yhat is not None or ranking is not None,
            "metrics needs yhat, score or proba",
            "yhat",
            "yhat= gives the label metrics, score= auroc and average precision, "
            "proba= log loss and Brier",
        )
        proba = proba if proba is not None else score
        tree = b.metrics(y, yhat, ranking, proba, average, _metric_list(metrics, yhat, ranking))
    elif cap in _PROB:
        b.prob_source(y, _need(proba if proba is not None else score, "proba", cap))
        tree = b.calibration(n_bins) if cap == "calibration" else b.finish(b.prob_select(cap))
    else:
        area = cap in ("auroc", "average_precision")
        b.score_source(y, _need(ranking, "score", cap), curve=not area)
        if area:
            tree = b.finish(b.score_select(cap))
        elif cap == "thresholds":
            tree = b.thresholds()
        else:
            keep = cap == "roc_curve" if drop_intermediate is None else drop_intermediate
            tree = getattr(b, cap)(keep)
    return _parenthesize(tree).sql(dialect=dialect, identify=True, pretty=True)


# --------------------------------------------------------------------------- validation


def _metric_list(metrics: Any, yhat: str | None, score: str | None) -> list[str]:
    """The metrics of ``metrics=`` (default: clfeval.metrics' default set for the columns
    given), each with the column it reads."""
    if metrics is None:
        return [
            *(_metrics.default_set("label") if yhat is not None else ()),
            *(_SCORE_METRICS if score is not None else ()),
        ]
    if "cohen_kappa" in (metrics if isinstance(metrics, list | tuple) else ()):
        raise InputError(
            "cohen_kappa is not in the generated SQL yet",
            role="metrics",
            rule="option",
            hint="compute it with clfeval.cohen_kappa or the DuckDB macro clf_cohen_kappa",
        )
    names = _options.metric_names(metrics, (*_LABEL_METRICS, *_SCORE_METRICS))
    for name in names:
        needed, given = ("yhat", yhat) if name in _LABEL_METRICS else ("score", score)
        _check(
            given is not None,
            f"metric {name!r} needs {needed}=",
            needed,
            "pass the column it reads: yhat= for label metrics, score= or proba= for scores",
        )
    return names


def _check(ok: bool, message: str, role: str, hint: str, column: str | None = None) -> None:
    if not ok:
        raise InputError(message, column=column, role=role, rule="option", hint=hint)


def _choice(value: Any, options: Sequence[str], role: str) -> str:
    close = difflib.get_close_matches(str(value), options, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"choose one of {list(options)}"
    return _options.choice(role, value, options, hint)


def _names(value: str | Sequence[str], cap: str, roles: dict[str, str]) -> list[str]:
    """The group columns: the front door's rules, compared case-insensitively (SQL engines
    fold identifiers), and clear of the internal ``_clf_`` names."""
    names = _options.group_columns(
        value or None, roles=roles, outputs=_OUTPUTS[cap], role="group_cols"
    )
    lower = [n.lower() for n in names]
    taken = {c.lower(): r for r, c in roles.items()}
    for name, low in zip(names, lower):
        problem = None
        if lower.count(low) > 1:
            problem = "is listed twice (SQL engines compare identifiers case-insensitively)"
        elif low in taken:
            problem = f"collides with the {taken[low]} column (compared case-insensitively)"
        elif low in _OUTPUTS[cap]:
            problem = "collides with an output column of the same name"
        elif low.startswith("_clf_"):
            problem = "uses the prefix '_clf_', reserved for the generated SQL's names"
        if problem is not None:
            raise InputError(
                f"group column {name!r} {problem}",
                column=name,
                role="group_cols",
                rule="by_name",
                hint="rename it in a view first",
            )
    return names


def _need(value: str | None, role: str, cap: str) -> str:
    _check(value is not None, f"{cap} needs the {role} column", role, f"pass {role}='<column>'")
    return value  # type: ignore[return-value]


def _table(table: str | Sequence[str]) -> exp.Table:
    parts = table.split(".") if isinstance(table, str) else list(table)
    _check(
        1 <= len(parts) <= 3 and all(isinstance(p, str) and p for p in parts),
        f"table must be 'table', 'schema.table' or 'catalog.schema.table', got {table!r}",
        "table",
        "pass a sequence of parts, e.g. ('lake', 'my.table'), for a name with dots",
    )
    ids = [None] * (3 - len(parts)) + [_id(p) for p in parts]
    return exp.Table(catalog=ids[0], db=ids[1], this=ids[2])


def _literal(value: Any) -> exp.Expr:
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()
    _options.class_value("pos_label", value)
    if isinstance(value, (bool, str)):
        return exp.convert(value)
    return exp.convert(int(value) if isinstance(value, Integral) else float(value))


# --------------------------------------------------------------------------- tree helpers


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

    def __init__(self, builder: _Builder) -> None:
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


class _Builder:
    """Collects the CTEs of one statement; every name it invents starts with ``_clf_``."""

    def __init__(self, dialect, table, groups, weight, pos_label, zero_division) -> None:
        self.dialect, self.table, self.groups = dialect, table, groups
        self.weight, self.pos = weight, pos_label
        self.zd = exp.null() if zero_division is None else _f(int(zero_division))
        self.ctype = "DOUBLE" if weight is not None else "BIGINT"
        self.ctes: list[exp.CTE] = []
        self.guards: list[str] = []  # CTEs flagging groups whose numbers are meaningless
        self.beta = 1.0  # F-beta's beta in the thresholds table and metrics
        self.averaged: list[str] = list(_PRF)  # the per-class metrics of _clf_per

    # -- plumbing -------------------------------------------------------------------------

    def g(self, table: str | None = None) -> list[exp.Column]:
        return [_c(name, table) for name in self.groups]

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

    def valid(self, *names: str, nan: exp.Expr | None = None) -> exp.Expr:
        """The rows a capability reads: no null in its columns, no NaN in `nan`."""
        cols = [*names, *([self.weight] if self.weight is not None else [])]
        conds = [_null(_c(n)).not_() for n in cols]
        if nan is not None and self.dialect in ("snowflake", "postgres"):
            conds.append(nan.eq(_dbl(exp.Literal.string("NaN"))).not_())  # NaN = NaN there
        elif nan is not None:
            conds.append(exp.IsNan(this=nan).not_())
        return exp.and_(*conds)

    def w(self) -> exp.Expr:
        return _dbl(_c(self.weight)) if self.weight is not None else _n(1)

    def zero(self) -> exp.Expr:
        return _f(0) if self.weight is not None else _n(0)

    def guard(self, where: exp.Expr, proba: exp.Expr | None = None) -> None:
        """Flag the groups (as ``_clf_bad`` = 1) holding a negative, NaN or infinite weight, or
        a probability outside [0, 1], among the rows ``where`` keeps: their numbers come out
        null (the expressions' rule; portable SQL has no error function to raise with)."""
        bad = []
        if self.weight is not None:
            w = _dbl(_c(self.weight))
            # x - x = 0 holds exactly for finite x, and is false for NaN and +-inf everywhere
            bad.append(w < _f(0))
            bad.append(exp.Paren(this=(w.copy() - w.copy()).eq(_f(0))).not_())
        if proba is not None:
            bad.append(exp.or_(proba < _f(0), proba.copy() > _f(1)))
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
            if n not in self.groups and n not in _KEYS:
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

    # -- label capabilities ---------------------------------------------------------------

    def label_source(self, y: str, yhat: str) -> None:
        """_clf_lab: per group and label, tp and the true and predicted weight."""
        self.cte(
            "_clf_src",
            self.sel(
                self.table,
                ("_clf_y", _c(y)),
                ("_clf_p", _c(yhat)),
                ("_clf_w", self.w()),
                where=self.valid(y, yhat),
            ),
        )
        self.guard(self.valid(y, yhat))
        hit = _case((_c("_clf_y").eq(_c("_clf_p")), _c("_clf_w")), default=self.zero())
        z = self.zero
        truth = self.sel(
            "_clf_src",
            ("_clf_label", _c("_clf_y")),
            ("_clf_true", _c("_clf_w")),
            ("_clf_pred", z()),
            ("_clf_tp", hit),
        )
        pred = self.sel(
            "_clf_src",
            ("_clf_label", _c("_clf_p")),
            ("_clf_true", z()),
            ("_clf_pred", _c("_clf_w")),
            ("_clf_tp", z()),
        )
        self.cte("_clf_long", _union(truth, pred))  # each row: once as truth, once as prediction
        sums = [(k, self.count(exp.Sum(this=_c(k)))) for k in ("_clf_tp", "_clf_pred", "_clf_true")]
        self.cte("_clf_lab", self.sel("_clf_long", "_clf_label", *sums, group=["_clf_label"]))

    def counts(self) -> exp.Select:
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        n = self.count(self.win(exp.Sum(this=_c("_clf_true"))))
        fp, fn = pred - tp, true - tp
        cols = [("label", _c("_clf_label")), ("tp", tp), ("fp", fp), ("fn", fn)]
        body = self.sel(
            "_clf_lab", *cols, ("tn", n - tp - fp - fn), ("support", true)
        )  # sklearn: n - tp - fp - fn
        return self.finish(body, "label")

    def confusion(self) -> exp.Select:
        """Every pair of the group's labels (a self-join on null-safe group keys), plus rows."""
        lab = lambda alias: exp.Table(this=_id("_clf_lab"), alias=exp.TableAlias(this=_id(alias)))  # noqa: E731
        cols = [
            ("_clf_y", _c("_clf_label", "_clf_a")),
            ("_clf_p", _c("_clf_label", "_clf_b")),
            ("_clf_w", self.zero()),
        ]
        pairs = exp.select(*self.g("_clf_a"), *map(_item, cols)).from_(lab("_clf_a"))
        on = [exp.NullSafeEQ(this=_c(g, "_clf_a"), expression=_c(g, "_clf_b")) for g in self.groups]
        pairs.append(
            "joins",
            exp.Join(this=lab("_clf_b"), on=exp.and_(*on))
            if on
            else exp.Join(this=lab("_clf_b"), kind="CROSS"),
        )
        self.cte("_clf_cells", _union(self.sel("_clf_src", "_clf_y", "_clf_p", "_clf_w"), pairs))
        cols = [
            ("actual", _c("_clf_y")),
            ("predicted", _c("_clf_p")),
            ("count", self.count(exp.Sum(this=_c("_clf_w")))),
        ]
        body = self.sel("_clf_cells", *cols, group=["_clf_y", "_clf_p"])
        return self.finish(body, "actual", "predicted")

    def per_class(self, names: Sequence[str] = _PRF) -> None:
        """_clf_per: per class, the registry's formula of each averaged metric in ``names``
        over its one-vs-rest counts (f1 = 2 tp / (true + pred) as scikit-learn), and the
        group total ``_clf_n``."""
        n = self.win(exp.Sum(this=_c("_clf_true")))
        counts = self.counts_of("_clf_tp", "_clf_pred", "_clf_true", n)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, names)
        rates = [
            *((f"_clf_{m}", values[m].node) for m in names),
            ("_clf_n", n.copy()),
            ("_clf_o", self.win(exp.RowNumber(), "_clf_label", desc=False)),
        ]
        self.cte(
            "_clf_per",
            self.sel("_clf_lab", "_clf_label", "_clf_tp", "_clf_pred", "_clf_true", *rates),
        )
        self.averaged = list(names)

    @staticmethod
    def counts_of(tp: str, pred: str, true: str, total: str | exp.Expr) -> Counts:
        """Counts of the registry's formulas, as DOUBLE columns (or an expression total)."""
        col = lambda k: _Sql(_dbl(_c(k) if isinstance(k, str) else k))  # noqa: E731
        return Counts(tp=col(tp), pred=col(pred), support=col(true), total=col(total))

    def class_agg(self, pos: exp.Expr | None) -> None:
        """_clf_agg per group: micro sums, macro means, weighted sums, balanced accuracy, MCC sums."""
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        items = [(f"_clf_s{k}", exp.Sum(this=_c(f"_clf_{k}"))) for k in ("tp", "pred", "true", "n")]
        items.append(("_clf_bn", exp.Max(this=_c("_clf_n"))))  # the group total
        if pos is not None:

            def pick(k: str) -> exp.Expr:
                return _case((_c("_clf_label").eq(pos.copy()), _c(f"_clf_{k}")), default=_n(0))

            items += [(f"_clf_b{k}", exp.Sum(this=pick(k))) for k in ("tp", "pred", "true")]
        for m in self.averaged:
            col = _c(f"_clf_{m}")
            items += [
                (f"_clf_m{m}", exp.Avg(this=col)),
                (f"_clf_wn{m}", exp.Sum(this=col * _dbl(true))),
                (f"_clf_wd{m}", exp.Sum(this=_case((_null(col).not_(), _dbl(true))))),
            ]
        items += [
            ("_clf_balanced", exp.Avg(this=_case((true > 0, _dbl(tp) / _dbl(true))))),
            ("_clf_tdotp", exp.Sum(this=_dbl(true) * _dbl(pred))),
            ("_clf_pdotp", exp.Sum(this=_dbl(pred) * _dbl(pred))),
            ("_clf_tdott", exp.Sum(this=_dbl(true) * _dbl(true))),
        ]
        self.cte("_clf_agg", self.sel("_clf_per", *items, group=[]))

    def weighted(self, m: str) -> exp.Expr:
        """scikit-learn's _nanaverage with support weights (a plain mean if they sum to 0)."""
        den = exp.Coalesce(this=_c(f"_clf_wd{m}"), expressions=[_f(0)])
        return _case((den.eq(0), _c(f"_clf_m{m}")), default=_c(f"_clf_wn{m}") / _c(f"_clf_wd{m}"))

    def micro(self, prefix: str, names: Sequence[str] = _PRF) -> list[exp.Expr]:
        """The averaged metrics over pooled counts: the positive class's (``b``, binary) or
        every class's summed (``s``, micro; the summed totals make the summed tn)."""
        total = "_clf_bn" if prefix == "b" else "_clf_sn"
        counts = self.counts_of(*(f"_clf_{prefix}{k}" for k in ("tp", "pred", "true")), total)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, names)
        return [values[m].node for m in names]

    def report(self) -> exp.Select:
        self.per_class()
        self.class_agg(None)
        text, null = exp.DataType.build("VARCHAR"), _dbl(exp.null())
        cols = ("label", "precision", "recall", "f1", "support")
        per = [
            exp.cast(_c("_clf_label"), text),
            "_clf_precision",
            "_clf_recall",
            "_clf_f1",
            "_clf_true",
        ]
        rows = [
            self.sel(
                "_clf_per", ("_clf_k", _n(0)), "_clf_o", *((c, _item(v)) for c, v in zip(cols, per))
            )
        ]
        macro = [_c(f"_clf_m{m}") for m in ("precision", "recall", "f1")]
        summaries = {
            "accuracy": [null, null.copy(), self.micro("s")[2]],
            "macro avg": macro,
            "weighted avg": [self.weighted(m) for m in ("precision", "recall", "f1")],
        }
        for k, (name, values) in enumerate(summaries.items(), start=1):
            label = exp.cast(exp.Literal.string(name), text)
            rows.append(
                self.sel("_clf_agg", _n(k), _n(0), label, *values, self.count(_c("_clf_strue")))
            )
        self.cte("_clf_rows", _union(*rows))
        return self.finish(self.sel("_clf_rows", *cols), "_clf_k", "_clf_o")

    def mcc(
        self, c: exp.Expr, n: exp.Expr, tdotp: exp.Expr, pdotp: exp.Expr, tdott: exp.Expr
    ) -> exp.Expr:
        """scikit-learn's multiclass MCC from class sums; 0 when a marginal is constant."""
        prod = (n * n - pdotp) * (n.copy() * n.copy() - tdott)
        return _case(
            (prod.eq(0), _f(0)), default=(c * n.copy() - tdotp) / exp.Sqrt(this=prod.copy())
        )

    def metrics(self, y, yhat, score, proba, average, names) -> exp.Select:
        parts: list[exp.Select] = []
        label_names = [n for n in names if n in _LABEL_METRICS]
        if label_names:
            self.label_source(y, yhat)
            averaged = [n for n in label_names if n in _AVERAGED]
            self.per_class(averaged)
            self.class_agg(self.pos if average == "binary" else None)
            if average in ("binary", "micro"):
                rates = self.micro("b" if average == "binary" else "s", averaged)
            elif average == "macro":
                rates = [_c(f"_clf_m{m}") for m in averaged]
            else:
                rates = [self.weighted(m) for m in averaged]
            sums = [
                _dbl(_c(k))
                for k in ("_clf_stp", "_clf_spred", "_clf_tdotp", "_clf_pdotp", "_clf_tdott")
            ]
            values = {
                "accuracy": self.div(_c("_clf_stp"), _c("_clf_strue")),
                "balanced_accuracy": _c("_clf_balanced"),
                "mcc": self.mcc(*sums),
                **dict(zip(averaged, rates)),
            }
            parts.append(self.sel("_clf_agg", *((n, values[n]) for n in label_names)))
        ranked = [n for n in names if n in ("auroc", "average_precision")]
        if ranked:
            self.score_source(y, score, curve=False)
            parts.append(self.score_select(*ranked))
        probability = [n for n in names if n in ("log_loss", "brier")]
        if probability:
            self.prob_source(y, proba)
            parts.append(self.prob_select(*probability))
        if len(parts) == 1:
            return self.finish(parts[0])
        # One row per group and part; UNION ALL + MAX merges them (no null-unsafe join).
        padded = []
        for k, part in enumerate(parts):
            self.cte(f"_clf_part{k}", part)
            own = {a.alias for a in part.expressions}
            padded.append(
                self.sel(
                    f"_clf_part{k}", *(n if n in own else (n, _dbl(exp.null())) for n in names)
                )
            )
        self.cte("_clf_parts", _union(*padded))
        return self.finish(
            self.sel("_clf_parts", *((n, exp.Max(this=_c(n))) for n in names), group=[])
        )

    # -- score capabilities ---------------------------------------------------------------

    def score_source(self, y: str, score: str, *, curve: bool = True) -> None:
        """_clf_tot: per distinct score, its positive and negative weight (dp, dn), the
        running tp and fp from the highest score down, its rank i and the totals.

        ``curve``: leave out zero-weight rows, as scikit-learn does before it picks thresholds;
        areas keep them (they add nothing), so a group whose weights are all 0 stays, as null.
        """
        s = _dbl(_c(score))
        is_pos = _c(y).eq(self.pos.copy())
        where = self.valid(y, score, nan=s.copy())
        self.guard(where.copy())
        if self.weight is not None and curve:
            where = exp.and_(where, _c(self.weight).neq(0))
        pos, neg = (
            _case((is_pos, self.w()), default=self.zero()),
            _case((is_pos.copy(), self.zero()), default=self.w()),
        )
        self.cte(
            "_clf_ssrc",
            self.sel(self.table, ("_clf_s", s), ("_clf_pos", pos), ("_clf_neg", neg), where=where),
        )
        sums = [
            ("_clf_dp", self.count(exp.Sum(this=_c("_clf_pos")))),
            ("_clf_dn", self.count(exp.Sum(this=_c("_clf_neg")))),
        ]
        self.cte("_clf_pts", self.sel("_clf_ssrc", "_clf_s", *sums, group=["_clf_s"]))
        running = [
            (
                f"_clf_{k}",
                self.count(self.win(exp.Sum(this=_c(d)), "_clf_s", running=True)),
            )
            for k, d in (("tp", "_clf_dp"), ("fp", "_clf_dn"))
        ]
        self.cte(
            "_clf_cum",
            self.sel(
                "_clf_pts",
                "_clf_s",
                "_clf_dp",
                "_clf_dn",
                *running,
                ("_clf_i", self.win(exp.RowNumber(), "_clf_s")),
            ),
        )
        totals = [
            ("_clf_npos", self.win(exp.Max(this=_c("_clf_tp")))),
            ("_clf_nneg", self.win(exp.Max(this=_c("_clf_fp")))),
        ]
        self.cte(
            "_clf_tot",
            self.sel(
                "_clf_cum", "_clf_s", "_clf_dp", "_clf_dn", "_clf_tp", "_clf_fp", "_clf_i", *totals
            ),
        )

    def thresholds(self) -> exp.Select:
        tp, fp, P, N = _c("_clf_tp"), _c("_clf_fp"), _c("_clf_npos"), _c("_clf_nneg")
        counts = [
            ("threshold", _c("_clf_s")),
            ("tp", tp),
            ("fp", fp),
            ("fn", P - tp),
            ("tn", N - fp),
        ]
        self.cte(
            "_clf_thr",
            self.sel(
                "_clf_tot", "_clf_i", *counts, "_clf_npos", "_clf_nneg", ("_clf_pp", _dbl(tp + fp))
            ),
        )
        tp, P, N, pp = (_Sql(_dbl(_c(k))) for k in ("tp", "_clf_npos", "_clf_nneg", "_clf_pp"))
        counts = Counts(tp=tp, pred=pp, support=P, total=P + N)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, _RATES)
        rates = [values[name].node for name in _RATES]
        body = self.sel("_clf_thr", "threshold", "tp", "fp", "fn", "tn", *zip(_RATES, rates))
        return self.finish(body, "_clf_i")

    def keep(self, src: str, *, second: bool) -> str:
        """scikit-learn's drop_intermediate survivors: the first, the last and the corners."""
        x = lambda name, f=None: self.win(f(this=_c(name)), "_clf_i", desc=False) if f else _c(name)  # noqa: E731
        edge = _null(x("_clf_tp", exp.Lag)) | _null(x("_clf_tp", exp.Lead))
        if second:  # ROC: np.diff(v, 2) != 0 for tp or fp, i.e. (next - v) - (v - prev) != 0
            bends = [
                ((x(v, exp.Lead) - x(v)) - (x(v) - x(v, exp.Lag))).neq(0)
                for v in ("_clf_tp", "_clf_fp")
            ]
            keep = exp.or_(edge, *bends)
        else:  # PR and DET: tp differs from the previous or the next point
            keep = exp.or_(
                edge,
                x("_clf_tp").neq(x("_clf_tp", exp.Lag)),
                x("_clf_tp", exp.Lead).neq(x("_clf_tp")),
            )
        self.cte(f"{src}_k", self.sel(src, *_PT, ("_clf_keep", keep)))
        return f"{src}_k"

    def start_row(self) -> exp.Select:
        """The point at threshold +inf (tp = fp = 0) that ROC and DET start from."""
        zeros = [
            ("_clf_s", self.fconst(float("inf"))),
            ("_clf_tp", self.count(_n(0))),
            ("_clf_fp", self.count(_n(0))),
        ]
        return self.sel(
            "_clf_tot",
            *zeros,
            "_clf_npos",
            "_clf_nneg",
            ("_clf_i", _n(0)),
            where=_c("_clf_i").eq(1),
        )

    def points(self, src: str, keep: bool) -> exp.Select:
        return self.sel(src, *_PT, where=_c("_clf_keep") if keep else None)

    def roc_curve(self, keep: bool) -> exp.Select:
        self.cte(
            "_clf_roc",
            _union(
                self.points(self.keep("_clf_tot", second=True) if keep else "_clf_tot", keep),
                self.start_row(),
            ),
        )
        rates = [
            ("fpr", self.div(_c("_clf_fp"), _c("_clf_nneg"))),
            ("tpr", self.div(_c("_clf_tp"), _c("_clf_npos"))),
        ]
        return self.finish(self.sel("_clf_roc", ("threshold", _c("_clf_s")), *rates), "_clf_i")

    def pr_curve(self, keep: bool) -> exp.Select:
        src = self.keep("_clf_tot", second=False) if keep else "_clf_tot"
        tp, fp = _c("_clf_tp"), _c("_clf_fp")
        points = self.sel(
            src,
            ("threshold", _c("_clf_s")),
            ("precision", self.div(tp, tp + fp, _f(0))),
            ("recall", self.div(tp, _c("_clf_npos"), _f(1))),  # scikit-learn: 1 without positives
            ("_clf_o", -_c("_clf_i")),
            where=_c("_clf_keep") if keep else None,
        )
        end = self.sel("_clf_tot", _dbl(exp.null()), _f(1), _f(0), _n(0), where=_c("_clf_i").eq(1))
        self.cte("_clf_prc", _union(points, end))
        return self.finish(self.sel("_clf_prc", "threshold", "precision", "recall"), "_clf_o")

    def det_curve(self, keep: bool) -> exp.Select:
        self.cte("_clf_det", _union(self.start_row(), self.points("_clf_tot", False)))
        self.cte(
            "_clf_detk",
            self.points(self.keep("_clf_det", second=False) if keep else "_clf_det", keep),
        )
        near = [("_clf_nfp", self.win(exp.Lead(this=_c("_clf_fp")), "_clf_i", desc=False))]
        near += [("_clf_ptp", self.win(exp.Lag(this=_c("_clf_tp")), "_clf_i", desc=False))]
        self.cte("_clf_detn", self.sel("_clf_detk", *_PT, *near))
        # From the last point with fp = 0 to the first point with tp = P, both included.
        fp, tp, nfp, ptp, P = (
            _c(k) for k in ("_clf_fp", "_clf_tp", "_clf_nfp", "_clf_ptp", "_clf_npos")
        )
        span = exp.Paren(this=fp.neq(0) | _null(nfp) | nfp.copy().neq(0)).and_(
            exp.Paren(this=tp.neq(P) | _null(ptp) | ptp.copy().neq(P.copy()))
        )
        rates = [
            ("fpr", self.div(_c("_clf_fp"), _c("_clf_nneg"))),
            ("fnr", self.div(_c("_clf_npos") - _c("_clf_tp"), _c("_clf_npos"))),
        ]
        body = self.sel("_clf_detn", ("threshold", _c("_clf_s")), *rates, where=span)
        return self.finish(body, exp.Ordered(this=_c("_clf_i"), desc=True, nulls_first=False))

    def score_select(self, *names: str) -> exp.Select:
        """AUROC: trapezoids over distinct scores (Mann-Whitney, ties half); AP: step sum."""
        dn, dp, tp, fp = (_dbl(_c(k)) for k in ("_clf_dn", "_clf_dp", "_clf_tp", "_clf_fp"))
        # each factor divided by its total before the product, so huge weights cannot overflow
        width = self.div(dn, _dbl(_c("_clf_nneg")))
        height = self.div(_f(2) * tp - dp, _dbl(_c("_clf_npos")))
        sums = [
            ("_clf_area", exp.Sum(this=width * height)),
            ("_clf_ap", exp.Sum(this=dp.copy() * self.div(tp.copy(), tp.copy() + fp, _f(0)))),
            ("_clf_npos", _dbl(exp.Max(this=_c("_clf_npos")))),
            ("_clf_nneg", _dbl(exp.Max(this=_c("_clf_nneg")))),
        ]
        self.cte("_clf_area", self.sel("_clf_tot", *sums, group=[]))
        P, N = _c("_clf_npos"), _c("_clf_nneg")
        values = {
            "auroc": _case(
                (exp.or_(P.eq(0), N.eq(0)), _dbl(exp.null())), default=_c("_clf_area") / _f(2)
            ),  # null with one class
            # null without positives (scikit-learn: 0.0 and a warning), as clf_average_precision
            "average_precision": self.div(_c("_clf_ap"), P.copy()),
        }
        return self.sel("_clf_area", *((n, values[n]) for n in names))

    # -- probability capabilities ---------------------------------------------------------

    def prob_source(self, y: str, proba: str) -> None:
        p = _dbl(_c(proba))
        yb = _case((_c(y).eq(self.pos.copy()), _n(1)), default=_n(0))
        cols = [("_clf_yb", yb), ("_clf_pr", p), ("_clf_w", _dbl(self.w()))]
        where = self.valid(y, proba, nan=p.copy())
        self.cte("_clf_psrc", self.sel(self.table, *cols, where=where))
        self.guard(where.copy(), proba=p.copy())

    def prob_select(self, *names: str) -> exp.Select:
        p, yb, w = _c("_clf_pr"), _c("_clf_yb"), _c("_clf_w")
        lo, hi = self.fconst(_EPS), self.fconst(1.0 - _EPS)

        def clip(e: exp.Expr) -> exp.Expr:  # scikit-learn clips p and 1 - p to [eps, 1 - eps]
            return _case(
                (e < lo.copy(), lo.copy()), (e.copy() > hi.copy(), hi.copy()), default=e.copy()
            )

        losses = {
            "log_loss": _case(
                (yb.eq(1), -exp.Ln(this=clip(p))), default=-exp.Ln(this=clip(_f(1) - p))
            ),
            "brier": (yb - p) * (yb.copy() - p.copy()),
        }
        items = [(n, self.div(exp.Sum(this=w * losses[n]), exp.Sum(this=w.copy()))) for n in names]
        return self.sel("_clf_psrc", *items, group=[])

    def calibration(self, n_bins: int) -> exp.Select:
        # numpy.searchsorted(linspace(0, 1, n_bins + 1)[1:-1], p): an edge value goes to the
        # lower bin; the edges are i * (1 / n_bins), computed as numpy does.
        p, step = _c("_clf_pr"), 1.0 / n_bins
        whens = [(p <= self.fconst(i * step), _n(i - 1)) for i in range(1, n_bins)]
        binid = _case(*whens, default=_n(n_bins - 1)) if whens else _n(0)
        self.cte(
            "_clf_bins", self.sel("_clf_psrc", ("_clf_bin", binid), "_clf_pr", "_clf_yb", "_clf_w")
        )
        w = _c("_clf_w")

        def total() -> exp.Expr:
            return exp.Sum(this=_c("_clf_w"))

        body = self.sel(
            "_clf_bins",
            ("bin", exp.cast(_c("_clf_bin"), "BIGINT")),
            ("mean_predicted", self.div(exp.Sum(this=w * p), total())),
            ("fraction_positive", self.div(exp.Sum(this=w.copy() * _c("_clf_yb")), total())),
            ("count", self.count(total())),
            group=["_clf_bin"],
            having=total() > 0,
        )
        return self.finish(body, "bin")
