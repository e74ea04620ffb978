"""Portable SQL for clfeval's table capabilities (Spark, BigQuery, Snowflake, Trino, Postgres, DuckDB).

`query` builds one complete ``WITH ... SELECT`` statement per capability as a sqlglot
expression tree and renders it for the requested dialect. User strings never reach the SQL
text unescaped: identifiers are sqlglot identifiers quoted by the dialect's generator, values
are sqlglot literals. The SQL uses only GROUP BY, window sums over *distinct* scores (so ties
never depend on a frame), CASE-guarded division (no engine division by zero) and CASTs:
counts are BIGINT (DOUBLE when weighted), rates DOUBLE.

Null policy (the aggregate rule of the SQL macros): a row with a null in a column the
capability reads (``y``, ``yhat``, the score or probability, the weight) is left out, and a
NaN score or probability counts as null. Every number matches scikit-learn to 1e-9 per group.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

from clfeval.exceptions import InputError

try:
    from sqlglot import exp
except ImportError:  # pragma: no cover - sqlglot is an optional dependency
    exp = None  # type: ignore[assignment]

__all__ = ["CAPABILITIES", "DIALECTS", "query"]

DIALECTS = ("duckdb", "spark", "bigquery", "snowflake", "trino", "postgres")
CAPABILITIES = (
    "counts",
    "confusion",
    "report",
    "metrics",
    "thresholds",
    "roc_curve",
    "pr_curve",
    "det_curve",
    "auroc",
    "average_precision",
    "log_loss",
    "brier",
    "calibration",
)
_ALIASES = {"confusion_matrix": "confusion"}
_AVERAGES = ("binary", "micro", "macro", "weighted")
_EPS = sys.float_info.epsilon  # numpy.finfo(float64).eps, scikit-learn's log-loss clip
_OUTPUTS = {
    "counts": ("label", "tp", "fp", "fn", "tn", "support"),
    "confusion": ("actual", "predicted", "count"),
    "report": ("label", "precision", "recall", "f1", "support"),
    "metrics": (
        "accuracy",
        "balanced_accuracy",
        "precision",
        "recall",
        "f1",
        "mcc",
        "auroc",
        "average_precision",
        "log_loss",
        "brier",
    ),
    "thresholds": (
        "threshold",
        "tp",
        "fp",
        "fn",
        "tn",
        "precision",
        "recall",
        "specificity",
        "fpr",
        "f1",
        "accuracy",
        "mcc",
    ),
    "roc_curve": ("threshold", "fpr", "tpr"),
    "pr_curve": ("threshold", "precision", "recall"),
    "det_curve": ("threshold", "fpr", "fnr"),
    "auroc": ("auroc",),
    "average_precision": ("average_precision",),
    "log_loss": ("log_loss",),
    "brier": ("brier",),
    "calibration": ("bin", "mean_predicted", "fraction_positive", "count"),
}


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
    average: str = "macro",
    zero_division: float | None = 0.0,
) -> str:
    """One SQL statement computing `metric` per group, exactly as scikit-learn does.

    Output columns are the group columns, then the capability's columns; rows are sorted by
    the group keys (nulls last), then by label or threshold order:

    - ``counts``: label, tp, fp, fn, tn, support (one-vs-rest, sorted labels of y and yhat).
    - ``confusion``: actual, predicted, count (every label pair of the group, zeros too).
    - ``report``: label (text), precision, recall, f1, support per class, then the rows
      ``accuracy`` (f1 = accuracy, precision and recall null), ``macro avg``,
      ``weighted avg``; support of the summary rows is the group total.
    - ``metrics``: accuracy, balanced_accuracy, precision, recall, f1, mcc (with `yhat`;
      `average` binary/micro/macro/weighted), auroc, average_precision (with `score`),
      log_loss, brier (with `proba`): one row per group.
    - ``thresholds``: threshold, tp, fp, fn, tn, precision, recall, specificity, fpr, f1,
      accuracy, mcc; one row per distinct score, highest first (``score >= threshold``).
    - ``roc_curve`` (threshold, fpr, tpr; first row +inf), ``pr_curve`` (threshold,
      precision, recall; thresholds increasing, then the end point 1, 0 with a null
      threshold), ``det_curve`` (threshold, fpr, fnr): scikit-learn's points in its order.
    - ``auroc`` (ties get half credit), ``average_precision`` (step sum), ``log_loss``
      (probabilities clipped to [eps, 1 - eps]), ``brier``: one value per group.
    - ``calibration``: bin (0-based, ``n_bins`` uniform bins as scikit-learn's
      ``calibration_curve``), mean_predicted, fraction_positive, count; empty bins left out.

    Null when undefined: AUROC with one class, rates whose denominator is zero on a curve,
    accuracy and log loss of an empty group; precision, recall and f1 give `zero_division`.
    Average precision without positives is 0.0 and PR recall without positives is 1.0, as
    in scikit-learn.

    Parameters
    ----------
    metric
        One of `CAPABILITIES`.
    table
        Table name; dots separate catalog, schema and table (``"lake.preds"``), or a
        sequence of the parts. Each part is quoted.
    y, yhat, score, proba, weight
        Column names of the truth, the predicted label, the ranking score, the probability
        of `pos_label` and the non-negative row weight. Curves fall back to `proba` when
        `score` is not given and probability metrics to `score`.
    group_cols
        Column name(s); one result per combination, null keys included.
    pos_label
        The positive class (a literal of y's type) for score, probability and binary
        metrics.
    dialect
        One of `DIALECTS`.
    drop_intermediate
        Drop collinear (ROC) or vertical (PR, DET) points; None uses scikit-learn's default
        for the curve (True for ROC, False for PR and DET).
    n_bins
        Number of uniform calibration bins.
    average
        ``"binary"``, ``"micro"``, ``"macro"`` or ``"weighted"`` for the label metrics.
    zero_division
        0.0, 1.0 or None (null, and left out of averages) for 0/0 in precision, recall, f1.

    Returns
    -------
    str
        The SQL text (identifiers quoted).

    See Also
    --------
    clfeval.sql.load : the DuckDB macros (``clf_roc_curve`` ...), the DuckDB twin.
    sklearn.metrics : the reference for every number.

    Examples
    --------
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES (1, 0.9), (0, 0.4), (1, 0.4)) t(y, s)")
    >>> con.execute(query("auroc", table="preds", y="y", score="s")).fetchall()
    [(0.75,)]
    """
    if exp is None:  # pragma: no cover
        raise ImportError("clfeval.sql.query needs sqlglot: pip install 'sqlglot>=30,<31'")
    cap = _check_choice(_ALIASES.get(metric, metric), CAPABILITIES, "metric")
    _check_choice(dialect, DIALECTS, "dialect")
    _check_choice(average, _AVERAGES, "average")
    groups = _names(group_cols, "group_cols")
    for value, role in ((y, "y"), (yhat, "yhat"), (score, "score"), (proba, "proba")):
        if value is not None:
            _name(value, role)
    if weight is not None:
        _name(weight, "weight")
    _check_groups(groups, _OUTPUTS[cap])
    if zero_division is not None and zero_division not in (0.0, 1.0):
        raise InputError(
            f"zero_division must be 0.0, 1.0 or None, got {zero_division!r}",
            role="zero_division",
            rule="choice",
            hint="None returns null and leaves the class out of averages",
        )
    if isinstance(n_bins, bool) or not isinstance(n_bins, Integral) or not 1 <= n_bins <= 10_000:
        raise InputError(
            f"n_bins must be an integer from 1 to 10000, got {n_bins!r}",
            role="n_bins",
            rule="range",
            hint="scikit-learn's calibration_curve uses n_bins=5; clfeval defaults to 10",
        )
    if drop_intermediate is not None and not isinstance(drop_intermediate, bool):
        raise InputError(
            f"drop_intermediate must be True, False or None, got {drop_intermediate!r}",
            role="drop_intermediate",
            rule="type",
            hint="None uses scikit-learn's default for the curve",
        )
    b = _Builder(
        dialect=dialect,
        table=_table(table),
        groups=groups,
        weight=weight,
        pos_label=_literal(pos_label),
        zero_division=zero_division,
    )
    ranking = score if score is not None else proba
    probability = proba if proba is not None else score
    if cap in ("counts", "confusion", "report"):
        b.label_source(y, _need(yhat, "yhat", cap))
        tree = getattr(b, cap)()
    elif cap == "metrics":
        if yhat is None and ranking is None:
            raise InputError(
                "metrics needs yhat, score or proba",
                role="yhat",
                rule="missing_argument",
                hint="pass yhat= for label metrics, score= for auroc and average precision, "
                "proba= for log loss and Brier",
            )
        tree = b.metrics(y, yhat, score, proba, average)
    elif cap in ("log_loss", "brier", "calibration"):
        b.prob_source(y, _need(probability, "proba", cap))
        tree = b.calibration(n_bins) if cap == "calibration" else b.prob_metric(cap)
    else:
        b.score_source(y, _need(ranking, "score", cap))
        if cap in ("roc_curve", "pr_curve", "det_curve"):
            keep = drop_intermediate if drop_intermediate is not None else cap == "roc_curve"
            tree = getattr(b, cap)(keep)
        else:
            tree = getattr(b, cap)()
    return tree.sql(dialect=dialect, identify=True, pretty=True)


# --------------------------------------------------------------------------- validation


def _check_choice(value: Any, options: Sequence[str], role: str) -> str:
    if isinstance(value, str) and value in options:
        return value
    close = difflib.get_close_matches(str(value), options, n=1)
    raise InputError(
        f"{role} must be one of {list(options)}, got {value!r}",
        role=role,
        rule="choice",
        hint=f"did you mean {close[0]!r}?" if close else f"valid values: {', '.join(options)}",
    )


def _name(value: Any, role: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(
            f"{role} must be a non-empty column name, got {value!r}",
            column=value if isinstance(value, str) else None,
            role=role,
            rule="type",
            hint="pass the column name as a string",
        )
    return value


def _names(value: str | Sequence[str], role: str) -> list[str]:
    names = [value] if isinstance(value, str) else list(value)
    for name in names:
        _name(name, role)
    seen = [n.lower() for n in names]
    dupes = sorted({n for n in names if seen.count(n.lower()) > 1})
    if dupes:
        raise InputError(
            f"{role} repeats {dupes!r}",
            column=dupes[0],
            role=role,
            rule="duplicate",
            hint="SQL engines compare identifiers case-insensitively; list each column once",
        )
    return names


def _check_groups(groups: list[str], outputs: Sequence[str]) -> None:
    for name in groups:
        low = name.lower()
        if low.startswith("_clf_") or low in outputs:
            raise InputError(
                f"group column {name!r} collides with an output or internal column name",
                column=name,
                role="group_cols",
                rule="reserved_name",
                hint=f"rename it in a view first; reserved: {', '.join(outputs)} and _clf_*",
            )


def _need(value: str | None, role: str, cap: str) -> str:
    if value is None:
        raise InputError(
            f"{cap} needs the {role} column",
            role=role,
            rule="missing_argument",
            hint=f"pass {role}='<column>'",
        )
    return value


def _table(table: str | Sequence[str]) -> exp.Table:
    parts = table.split(".") if isinstance(table, str) else list(table)
    if not 1 <= len(parts) <= 3 or not all(isinstance(p, str) and p for p in parts):
        raise InputError(
            f"table must be 'table', 'schema.table' or 'catalog.schema.table', got {table!r}",
            role="table",
            rule="table_name",
            hint="pass a sequence of parts, e.g. ('lake', 'my.table'), for names with dots",
        )
    ids = [exp.to_identifier(p, quoted=True) for p in parts]
    return exp.Table(
        this=ids[-1],
        db=ids[-2] if len(ids) > 1 else None,
        catalog=ids[-3] if len(ids) > 2 else None,
    )


def _literal(value: Any) -> exp.Expr:
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool):
        return exp.convert(value)
    if isinstance(value, Integral):
        return exp.convert(int(value))
    if isinstance(value, Real):
        return exp.convert(float(value))
    if isinstance(value, str):
        return exp.convert(value)
    raise InputError(
        f"pos_label must be a bool, number or string, got {value!r}",
        role="pos_label",
        rule="type",
        hint="pass a value of the y column's type, e.g. pos_label=1 or pos_label='spam'",
    )


# --------------------------------------------------------------------------- tree helpers


def _id(name: str) -> exp.Identifier:
    return exp.to_identifier(name, quoted=True)


def _c(name: str, table: str | None = None) -> exp.Column:
    return exp.Column(this=_id(name), table=_id(table) if table else None)


def _as(e: exp.Expr, name: str) -> exp.Alias:
    return exp.Alias(this=e, alias=_id(name))


def _n(value: int) -> exp.Literal:
    return exp.Literal.number(value)


def _ref(name: str) -> exp.Table:
    return exp.Table(this=_id(name))


def _type(name: str) -> exp.DataType:
    return exp.DataType.build(name)


def _cast(e: exp.Expr, to: str) -> exp.Expr:
    if isinstance(e, exp.Cast) and e.to.this == _type(to).this:
        return e
    return exp.Cast(this=e, to=_type(to))


def _dbl(e: exp.Expr) -> exp.Expr:
    return _cast(e, "DOUBLE")


def _p(e: exp.Expr) -> exp.Expr:
    return exp.Paren(this=e)


def _add(*es: exp.Expr) -> exp.Expr:
    out = es[0]
    for e in es[1:]:
        out = exp.Add(this=out, expression=e)
    return out


def _sub(a: exp.Expr, b: exp.Expr) -> exp.Expr:
    return exp.Sub(this=a, expression=_p(b) if isinstance(b, (exp.Add, exp.Sub)) else b)


def _mul(a: exp.Expr, b: exp.Expr) -> exp.Expr:
    wrap = (exp.Add, exp.Sub)
    return exp.Mul(
        this=_p(a) if isinstance(a, wrap) else a, expression=_p(b) if isinstance(b, wrap) else b
    )


def _case(*whens: tuple[exp.Expr, exp.Expr], default: exp.Expr | None = None) -> exp.Case:
    case = exp.Case(ifs=[exp.If(this=c, true=v) for c, v in whens])
    if default is not None:
        case.set("default", default)
    return case


def _eq(a: exp.Expr, b: exp.Expr) -> exp.Expr:
    return exp.EQ(this=a, expression=b)


def _and(*es: exp.Expr) -> exp.Expr:
    return exp.and_(*es) if len(es) > 1 else es[0]


def _sum(e: exp.Expr) -> exp.Expr:
    return exp.Sum(this=e)


def _max(e: exp.Expr) -> exp.Expr:
    return exp.Max(this=e)


def _union(*selects: exp.Select) -> exp.Expr:
    out: exp.Expr = selects[0]
    for s in selects[1:]:
        out = exp.Union(this=out, expression=s, distinct=False)
    return out


class _Builder:
    """Accumulates CTEs for one statement; every name it invents starts with ``_clf_``."""

    def __init__(self, *, dialect, table, groups, weight, pos_label, zero_division) -> None:
        self.dialect = dialect
        self.table = table
        self.groups = groups
        self.weight = weight
        self.pos = pos_label
        self.zd = exp.Null() if zero_division is None else _dbl(_n(int(zero_division)))
        self.ctype = "DOUBLE" if weight is not None else "BIGINT"
        self.ctes: list[tuple[str, exp.Expr]] = []

    # -- small pieces ---------------------------------------------------------------------

    def g(self, table: str | None = None) -> list[exp.Column]:
        return [_c(name, table) for name in self.groups]

    def cte(self, name: str, body: exp.Expr) -> str:
        self.ctes.append((name, body))
        return name

    def select(self, frm: str | exp.Table, *items: exp.Expr, where=None, group=None):
        sel = exp.select(*self.g(), *items).from_(_ref(frm) if isinstance(frm, str) else frm)
        if where is not None:
            sel = sel.where(where)
        if group is not None and (self.groups or group):
            sel = sel.group_by(*self.g(), *group)
        return sel

    def window(self, func: exp.Expr, order: exp.Expr | None = None, *, desc=True, running=False):
        win = exp.Window(this=func, partition_by=self.g() or None, over="OVER")
        if order is not None:
            win.set("order", exp.Order(expressions=[exp.Ordered(this=order, desc=desc)]))
        if running:
            win.set(
                "spec",
                exp.WindowSpec(
                    kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end="CURRENT ROW"
                ),
            )
        return win

    def count(self, e: exp.Expr) -> exp.Expr:
        return _cast(e, self.ctype)

    def div(self, num: exp.Expr, den: exp.Expr, zero: exp.Expr | None = None) -> exp.Expr:
        """``CASE WHEN den = 0 THEN zero ELSE num / den END`` in DOUBLE; never divides by 0."""
        quotient = exp.Div(this=_dbl(num), expression=_dbl(den.copy()), typed=False, safe=False)
        return _case((_eq(den, _n(0)), zero or exp.Null()), default=quotient)

    def fconst(self, value: float) -> exp.Expr:
        """A DOUBLE constant, parsed from its shortest round-trip text (no DECIMAL detour)."""
        if value == float("inf"):
            if self.dialect == "trino":  # Trino's CAST(varchar) rejects 'inf'
                return exp.Anonymous(this="infinity", expressions=[])
            return _dbl(exp.Literal.string("inf"))
        return _dbl(exp.Literal.string(repr(value)))

    def not_nan(self, e: exp.Expr) -> exp.Expr:
        if self.dialect in ("snowflake", "postgres"):  # no isnan(); NaN = NaN is TRUE there
            return exp.Not(this=_p(_eq(e, _dbl(exp.Literal.string("NaN")))))
        return exp.Not(this=exp.IsNan(this=e))

    def notnull(self, *names: str) -> list[exp.Expr]:
        cols = [*names, *([self.weight] if self.weight is not None else [])]
        return [exp.Not(this=exp.Is(this=_c(n), expression=exp.Null())) for n in cols]

    def w(self) -> exp.Expr:
        return _dbl(_c(self.weight)) if self.weight is not None else _n(1)

    def zero(self) -> exp.Expr:
        return _dbl(_n(0)) if self.weight is not None else _n(0)

    def finish(self, body: exp.Select, *order: exp.Expr) -> exp.Select:
        ordered = [exp.Ordered(this=g, desc=False, nulls_first=False) for g in self.g()]
        if ordered or order:
            body = body.order_by(*ordered, *order)
        ctes = [exp.CTE(this=q, alias=exp.TableAlias(this=_id(n))) for n, q in self.ctes]
        body.set("with_", exp.With(expressions=ctes))
        return body

    @staticmethod
    def asc(e: exp.Expr, desc: bool = False) -> exp.Ordered:
        return exp.Ordered(this=e, desc=desc, nulls_first=False)

    # -- label capabilities ----------------------------------------------------------------

    def label_source(self, y: str, yhat: str) -> None:
        self.cte(
            "_clf_src",
            self.select(
                self.table,
                _as(_c(y), "_clf_y"),
                _as(_c(yhat), "_clf_p"),
                _as(self.w(), "_clf_w"),
                where=_and(*self.notnull(y, yhat)),
            ),
        )
        # Each row counts once for its true label and once for its predicted label.
        hit = _case((_eq(_c("_clf_y"), _c("_clf_p")), _c("_clf_w")), default=self.zero())
        truth = self.select(
            "_clf_src",
            _as(_c("_clf_y"), "_clf_label"),
            _as(_c("_clf_w"), "_clf_true"),
            _as(self.zero(), "_clf_pred"),
            _as(hit, "_clf_tp"),
        )
        pred = self.select(
            "_clf_src",
            _as(_c("_clf_p"), "_clf_label"),
            _as(self.zero(), "_clf_true"),
            _as(_c("_clf_w"), "_clf_pred"),
            _as(self.zero(), "_clf_tp"),
        )
        self.cte("_clf_long", _union(truth, pred))
        sums = [_as(self.count(_sum(_c(f"_clf_{k}"))), f"_clf_{k}") for k in ("tp", "pred", "true")]
        self.cte(
            "_clf_lab",
            self.select("_clf_long", _c("_clf_label"), *sums, group=[_c("_clf_label")]),
        )

    def counts(self) -> exp.Select:
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        n = self.count(self.window(_sum(true)))
        fp, fn = _sub(pred, tp), _sub(true, tp)
        body = self.select(
            "_clf_lab",
            _as(_c("_clf_label"), "label"),
            _as(tp, "tp"),
            _as(fp, "fp"),
            _as(fn, "fn"),
            _as(_sub(_sub(_sub(n, tp), _p(fp)), _p(fn)), "tn"),  # scikit-learn: n - tp - fp - fn
            _as(true, "support"),
        )
        return self.finish(body, self.asc(_c("label")))

    def confusion(self) -> exp.Select:
        on = [exp.NullSafeEQ(this=_c(g, "_clf_a"), expression=_c(g, "_clf_b")) for g in self.groups]
        pairs = exp.select(
            *self.g("_clf_a"),
            _as(_c("_clf_label", "_clf_a"), "_clf_y"),
            _as(_c("_clf_label", "_clf_b"), "_clf_p"),
            _as(self.zero(), "_clf_w"),
        ).from_(exp.Table(this=_id("_clf_lab"), alias=exp.TableAlias(this=_id("_clf_a"))))
        other = exp.Table(this=_id("_clf_lab"), alias=exp.TableAlias(this=_id("_clf_b")))
        pairs.append(
            "joins",
            exp.Join(this=other, on=_and(*on)) if on else exp.Join(this=other, kind="CROSS"),
        )
        cells = ("_clf_y", "_clf_p", "_clf_w")
        self.cte("_clf_cells", _union(self.select("_clf_src", *map(_c, cells)), pairs))
        body = self.select(
            "_clf_cells",
            _as(_c("_clf_y"), "actual"),
            _as(_c("_clf_p"), "predicted"),
            _as(self.count(_sum(_c("_clf_w"))), "count"),
            group=[_c("_clf_y"), _c("_clf_p")],
        )
        return self.finish(body, self.asc(_c("actual")), self.asc(_c("predicted")))

    def per_class(self) -> None:
        """Per-class precision, recall and f1 (scikit-learn: f1 = 2 tp / (true + pred))."""
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        self.cte(
            "_clf_per",
            self.select(
                "_clf_lab",
                _c("_clf_label"),
                tp,
                pred,
                true,
                _as(self.div(tp, pred, self.zd), "_clf_precision"),
                _as(self.div(tp, true, self.zd), "_clf_recall"),
                _as(self.div(_mul(_dbl(_n(2)), tp), _add(true, pred), self.zd), "_clf_f1"),
                _as(self.window(exp.RowNumber(), _c("_clf_label"), desc=False), "_clf_o"),
            ),
        )

    def class_agg(self, pos: exp.Expr | None) -> None:
        """Sums over the classes of a group: micro counts, macro means, weighted sums, mcc."""
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        items: list[exp.Expr] = [
            _as(_sum(e), f"_clf_s{k}") for k, e in (("tp", tp), ("pred", pred), ("true", true))
        ]
        if pos is not None:
            for k, e in (("tp", tp), ("pred", pred), ("true", true)):
                pick = _case((_eq(_c("_clf_label"), pos), e), default=_n(0))
                items.append(_as(_sum(pick), f"_clf_b{k}"))
        for m in ("precision", "recall", "f1"):
            col = _c(f"_clf_{m}")
            used = _case((exp.Not(this=exp.Is(this=col, expression=exp.Null())), _dbl(true)))
            items += [
                _as(exp.Avg(this=col), f"_clf_m{m}"),
                _as(_sum(_mul(col, _dbl(true))), f"_clf_wn{m}"),
                _as(_sum(used), f"_clf_wd{m}"),
            ]
        recall = _case(
            (exp.GT(this=true, expression=_n(0)), exp.Div(this=_dbl(tp), expression=_dbl(true)))
        )
        items += [
            _as(exp.Avg(this=recall), "_clf_balanced"),
            _as(_sum(_mul(_dbl(true), _dbl(pred))), "_clf_tdotp"),
            _as(_sum(_mul(_dbl(pred), _dbl(pred))), "_clf_pdotp"),
            _as(_sum(_mul(_dbl(true), _dbl(true))), "_clf_tdott"),
        ]
        self.cte("_clf_agg", self.select("_clf_per", *items, group=[]))

    def weighted(self, m: str) -> exp.Expr:
        """scikit-learn's _nanaverage with support weights (plain mean if they sum to 0)."""
        den = exp.Coalesce(this=_c(f"_clf_wd{m}"), expressions=[_dbl(_n(0))])
        return _case(
            (_eq(den, _n(0)), _c(f"_clf_m{m}")),
            default=exp.Div(this=_c(f"_clf_wn{m}"), expression=_c(f"_clf_wd{m}")),
        )

    def micro(self, prefix: str) -> tuple[exp.Expr, exp.Expr, exp.Expr]:
        tp, pred, true = (_c(f"_clf_{prefix}{k}") for k in ("tp", "pred", "true"))
        return (
            self.div(tp, pred, self.zd),
            self.div(tp, true, self.zd),
            self.div(_mul(_dbl(_n(2)), tp), _add(true, pred), self.zd),
        )

    def report(self) -> exp.Select:
        self.per_class()
        self.class_agg(None)
        text = "VARCHAR"
        null = _dbl(exp.Null())
        rows = [
            self.select(
                "_clf_per",
                _as(_n(0), "_clf_k"),
                _c("_clf_o"),
                _as(_cast(_c("_clf_label"), text), "label"),
                _as(_c("_clf_precision"), "precision"),
                _as(_c("_clf_recall"), "recall"),
                _as(_c("_clf_f1"), "f1"),
                _as(_c("_clf_true"), "support"),
            )
        ]
        summaries = [
            ("accuracy", null, null, self.micro("s")[2]),
            ("macro avg", _c("_clf_mprecision"), _c("_clf_mrecall"), _c("_clf_mf1")),
            (
                "weighted avg",
                self.weighted("precision"),
                self.weighted("recall"),
                self.weighted("f1"),
            ),
        ]
        for k, (name, p, r, f) in enumerate(summaries, start=1):
            rows.append(
                self.select(
                    "_clf_agg",
                    _n(k),
                    _n(0),
                    _cast(exp.Literal.string(name), text),
                    p,
                    r,
                    f,
                    self.count(_c("_clf_strue")),
                )
            )
        self.cte("_clf_rows", _union(*rows))
        cols = [_c(n) for n in ("label", "precision", "recall", "f1", "support")]
        return self.finish(
            self.select("_clf_rows", *cols), self.asc(_c("_clf_k")), self.asc(_c("_clf_o"))
        )

    def mcc(self) -> exp.Expr:
        """scikit-learn's multiclass MCC from class sums; 0 when a marginal is constant."""
        n, c = _dbl(_c("_clf_spred")), _dbl(_c("_clf_stp"))
        cov_tp = _sub(_mul(c, n), _c("_clf_tdotp"))
        cov_pp = _sub(_mul(n, n), _c("_clf_pdotp"))
        cov_tt = _sub(_mul(n, n), _c("_clf_tdott"))
        prod = _mul(_p(cov_pp), _p(cov_tt))
        return _case(
            (_eq(prod, _n(0)), _dbl(_n(0))),
            default=exp.Div(this=_p(cov_tp), expression=exp.Sqrt(this=prod)),
        )

    def label_metrics(self, average: str) -> exp.Select:
        self.per_class()
        self.class_agg(self.pos if average == "binary" else None)
        if average in ("binary", "micro"):
            p, r, f = self.micro("b" if average == "binary" else "s")
        elif average == "macro":
            p, r, f = (_c(f"_clf_m{m}") for m in ("precision", "recall", "f1"))
        else:
            p, r, f = (self.weighted(m) for m in ("precision", "recall", "f1"))
        return self.select(
            "_clf_agg",
            _as(self.div(_c("_clf_stp"), _c("_clf_strue")), "accuracy"),
            _as(_c("_clf_balanced"), "balanced_accuracy"),
            _as(p, "precision"),
            _as(r, "recall"),
            _as(f, "f1"),
            _as(self.mcc(), "mcc"),
        )

    def metrics(self, y, yhat, score, proba, average) -> exp.Select:
        parts: list[tuple[list[str], exp.Select]] = []
        if yhat is not None:
            self.label_source(y, yhat)
            names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"]
            parts.append((names, self.label_metrics(average)))
        if score is not None:
            self.score_source(y, score)
            self.score_agg()
            parts.append(
                (["auroc", "average_precision"], self.score_select("auroc", "average_precision"))
            )
        if proba is not None:
            self.prob_source(y, proba)
            parts.append((["log_loss", "brier"], self.prob_select("log_loss", "brier")))
        if len(parts) == 1:
            return self.finish(parts[0][1])
        # One row per group and part; the union plus MAX merges them without a null-unsafe join.
        names = [n for cols, _ in parts for n in cols]
        padded = []
        for k, (cols, sel) in enumerate(parts):
            self.cte(f"_clf_part{k}", sel)
            items = [_c(n) if n in cols else _as(_dbl(exp.Null()), n) for n in names]
            padded.append(self.select(f"_clf_part{k}", *items))
        self.cte("_clf_parts", _union(*padded))
        return self.finish(
            self.select("_clf_parts", *[_as(_max(_c(n)), n) for n in names], group=[])
        )

    # -- score capabilities ----------------------------------------------------------------

    def score_source(self, y: str, score: str) -> None:
        """Per distinct score: positive and negative weight, running tp/fp, totals P and N."""
        s = _dbl(_c(score))
        is_pos = _eq(_c(y), self.pos)
        where = [*self.notnull(y, score), self.not_nan(s)]
        if self.weight is not None:  # scikit-learn drops zero-weight rows before thresholds
            where.append(exp.NEQ(this=_c(self.weight), expression=_n(0)))
        self.cte(
            "_clf_ssrc",
            self.select(
                self.table,
                _as(s, "_clf_s"),
                _as(_case((is_pos, self.w()), default=self.zero()), "_clf_pos"),
                _as(_case((is_pos, self.zero()), default=self.w()), "_clf_neg"),
                where=_and(*where),
            ),
        )
        self.cte(
            "_clf_pts",
            self.select(
                "_clf_ssrc",
                _c("_clf_s"),
                _as(self.count(_sum(_c("_clf_pos"))), "_clf_dp"),
                _as(self.count(_sum(_c("_clf_neg"))), "_clf_dn"),
                group=[_c("_clf_s")],
            ),
        )
        s = _c("_clf_s")
        self.cte(
            "_clf_cum",
            self.select(
                "_clf_pts",
                s,
                _c("_clf_dp"),
                _c("_clf_dn"),
                _as(self.count(self.window(_sum(_c("_clf_dp")), s, running=True)), "_clf_tp"),
                _as(self.count(self.window(_sum(_c("_clf_dn")), s, running=True)), "_clf_fp"),
                _as(self.window(exp.RowNumber(), s), "_clf_i"),
            ),
        )
        cols = [_c(n) for n in ("_clf_s", "_clf_dp", "_clf_dn", "_clf_tp", "_clf_fp", "_clf_i")]
        self.cte(
            "_clf_tot",
            self.select(
                "_clf_cum",
                *cols,
                _as(self.window(_max(_c("_clf_tp"))), "_clf_npos"),
                _as(self.window(_max(_c("_clf_fp"))), "_clf_nneg"),
            ),
        )

    def thresholds(self) -> exp.Select:
        tp, fp, P, N = _c("_clf_tp"), _c("_clf_fp"), _c("_clf_npos"), _c("_clf_nneg")
        self.cte(
            "_clf_thr",
            self.select(
                "_clf_tot",
                _c("_clf_i"),
                _as(_c("_clf_s"), "threshold"),
                _as(tp, "tp"),
                _as(fp, "fp"),
                _as(_sub(P, tp), "fn"),
                _as(_sub(N, fp), "tn"),
                P,
                N,
                _as(_dbl(_add(_c("_clf_tp"), fp)), "_clf_pp"),
            ),
        )
        tp, fp, fn, tn = (_dbl(_c(k)) for k in ("tp", "fp", "fn", "tn"))
        P, N, pp = _dbl(_c("_clf_npos")), _dbl(_c("_clf_nneg")), _c("_clf_pp")
        n = _add(P, N)
        # scikit-learn's MCC on the 2x2 matrix (labels negative, positive).
        cov_tp = _sub(_mul(_p(_add(tp, tn)), _p(n)), _add(_mul(N, _p(_add(tn, fn))), _mul(P, pp)))
        cov_pp = _sub(
            _mul(_p(n), _p(n)), _add(_mul(_p(_add(tn, fn)), _p(_add(tn, fn))), _mul(pp, pp))
        )
        cov_tt = _sub(_mul(_p(n), _p(n)), _add(_mul(N, N), _mul(P, P)))
        self.cte(
            "_clf_thm",
            self.select(
                "_clf_thr",
                *[
                    _c(k)
                    for k in (
                        "_clf_i",
                        "threshold",
                        "tp",
                        "fp",
                        "fn",
                        "tn",
                        "_clf_npos",
                        "_clf_nneg",
                        "_clf_pp",
                    )
                ],
                _as(cov_tp, "_clf_ctp"),
                _as(_mul(_p(cov_pp), _p(cov_tt)), "_clf_cprod"),
            ),
        )
        tp, fp, fn, tn = (_c(k) for k in ("tp", "fp", "fn", "tn"))
        P, N, pp = _c("_clf_npos"), _c("_clf_nneg"), _c("_clf_pp")
        prod = _c("_clf_cprod")
        body = self.select(
            "_clf_thm",
            *[_c(k) for k in ("threshold", "tp", "fp", "fn", "tn")],
            _as(self.div(tp, pp, self.zd), "precision"),
            _as(self.div(tp, P, self.zd), "recall"),
            _as(self.div(tn, N, self.zd), "specificity"),
            _as(self.div(fp, N, self.zd), "fpr"),
            _as(self.div(_mul(_dbl(_n(2)), tp), _add(P, pp), self.zd), "f1"),
            _as(self.div(_add(tp, tn), _add(P, N)), "accuracy"),
            _as(
                _case(
                    (_eq(prod, _n(0)), _dbl(_n(0))),
                    default=exp.Div(this=_c("_clf_ctp"), expression=exp.Sqrt(this=prod)),
                ),
                "mcc",
            ),
        )
        return self.finish(body, self.asc(_c("_clf_i")))

    def keep_flags(self, src: str, order: str, *, second: bool) -> str:
        """Mark scikit-learn's drop_intermediate survivors (first, last and corner points)."""
        o = _c(order)

        def lag(name: str, fn) -> exp.Expr:
            return self.window(fn(this=_c(name)), o, desc=False)

        lt, nt = lag("_clf_tp", exp.Lag), lag("_clf_tp", exp.Lead)
        edge = exp.or_(
            exp.Is(this=lt, expression=exp.Null()), exp.Is(this=nt, expression=exp.Null())
        )
        if second:  # ROC: np.diff(x, 2) != 0, i.e. (next - x) - (x - prev) != 0
            conds = [edge]
            for name in ("_clf_tp", "_clf_fp"):
                x, prv, nxt = _c(name), lag(name, exp.Lag), lag(name, exp.Lead)
                d2 = _sub(_p(_sub(nxt, x)), _p(_sub(x, prv)))
                conds.append(exp.NEQ(this=d2, expression=_n(0)))
            keep = exp.or_(*conds)
        else:  # PR and DET: tp differs from the previous or the next point
            keep = exp.or_(
                edge,
                exp.NEQ(this=_c("_clf_tp"), expression=lt),
                exp.NEQ(this=nt, expression=_c("_clf_tp")),
            )
        names = ["_clf_s", "_clf_tp", "_clf_fp", "_clf_npos", "_clf_nneg", order]
        self.cte(f"{src}_k", self.select(src, *map(_c, names), _as(keep, "_clf_keep")))
        return f"{src}_k"

    def roc_curve(self, drop_intermediate: bool) -> exp.Select:
        src = "_clf_tot"
        if drop_intermediate:
            src = self.keep_flags(src, "_clf_i", second=True)
        kept = self.select(
            src,
            *[_c(n) for n in ("_clf_s", "_clf_tp", "_clf_fp", "_clf_npos", "_clf_nneg", "_clf_i")],
            where=_c("_clf_keep") if drop_intermediate else None,
        )
        start = self.select(
            "_clf_tot",
            _as(self.fconst(float("inf")), "_clf_s"),
            _as(self.count(_n(0)), "_clf_tp"),
            _as(self.count(_n(0)), "_clf_fp"),
            _c("_clf_npos"),
            _c("_clf_nneg"),
            _as(_n(0), "_clf_i"),
            where=_eq(_c("_clf_i"), _n(1)),
        )
        self.cte("_clf_roc", _union(kept, start))
        body = self.select(
            "_clf_roc",
            _as(_c("_clf_s"), "threshold"),
            _as(self.div(_c("_clf_fp"), _c("_clf_nneg")), "fpr"),
            _as(self.div(_c("_clf_tp"), _c("_clf_npos")), "tpr"),
        )
        return self.finish(body, self.asc(_c("_clf_i")))

    def pr_curve(self, drop_intermediate: bool) -> exp.Select:
        src = "_clf_tot"
        if drop_intermediate:
            src = self.keep_flags(src, "_clf_i", second=False)
        tp, fp, P = _c("_clf_tp"), _c("_clf_fp"), _c("_clf_npos")
        points = self.select(
            src,
            _as(_c("_clf_s"), "threshold"),
            _as(self.div(tp, _add(tp, fp), _dbl(_n(0))), "precision"),
            _as(self.div(tp, P, _dbl(_n(1))), "recall"),  # scikit-learn: recall 1 without positives
            _as(exp.Neg(this=_c("_clf_i")), "_clf_o"),
            where=_c("_clf_keep") if drop_intermediate else None,
        )
        end = self.select(
            "_clf_tot",
            _as(_dbl(exp.Null()), "threshold"),
            _as(_dbl(_n(1)), "precision"),
            _as(_dbl(_n(0)), "recall"),
            _as(_n(0), "_clf_o"),
            where=_eq(_c("_clf_i"), _n(1)),
        )
        self.cte("_clf_prc", _union(points, end))
        cols = [_c(n) for n in ("threshold", "precision", "recall")]
        return self.finish(self.select("_clf_prc", *cols), self.asc(_c("_clf_o")))

    def det_curve(self, drop_intermediate: bool) -> exp.Select:
        names = ("_clf_s", "_clf_tp", "_clf_fp", "_clf_npos", "_clf_nneg", "_clf_i")
        start = self.select(
            "_clf_tot",
            _as(self.fconst(float("inf")), "_clf_s"),
            _as(self.count(_n(0)), "_clf_tp"),
            _as(self.count(_n(0)), "_clf_fp"),
            _c("_clf_npos"),
            _c("_clf_nneg"),
            _as(_n(0), "_clf_i"),
            where=_eq(_c("_clf_i"), _n(1)),
        )
        self.cte("_clf_det", _union(start, self.select("_clf_tot", *map(_c, names))))
        src = "_clf_det"
        if drop_intermediate:
            src = self.keep_flags(src, "_clf_i", second=False)
        kept = self.select(
            src, *map(_c, names), where=_c("_clf_keep") if drop_intermediate else None
        )
        self.cte("_clf_detk", kept)
        o = _c("_clf_i")
        nfp = self.window(exp.Lead(this=_c("_clf_fp")), o, desc=False)
        ptp = self.window(exp.Lag(this=_c("_clf_tp")), o, desc=False)
        self.cte(
            "_clf_detn",
            self.select("_clf_detk", *map(_c, names), _as(nfp, "_clf_nfp"), _as(ptp, "_clf_ptp")),
        )
        # Keep from the last point with fp = 0 to the first point with tp = P (inclusive).
        is_null = lambda e: exp.Is(this=e, expression=exp.Null())  # noqa: E731
        from_start = exp.or_(
            exp.NEQ(this=_c("_clf_fp"), expression=_n(0)),
            is_null(_c("_clf_nfp")),
            exp.NEQ(this=_c("_clf_nfp"), expression=_n(0)),
        )
        to_end = exp.or_(
            exp.NEQ(this=_c("_clf_tp"), expression=_c("_clf_npos")),
            is_null(_c("_clf_ptp")),
            exp.NEQ(this=_c("_clf_ptp"), expression=_c("_clf_npos")),
        )
        body = self.select(
            "_clf_detn",
            _as(_c("_clf_s"), "threshold"),
            _as(self.div(_c("_clf_fp"), _c("_clf_nneg")), "fpr"),
            _as(self.div(_sub(_c("_clf_npos"), _c("_clf_tp")), _c("_clf_npos")), "fnr"),
            where=_and(_p(from_start), _p(to_end)),
        )
        return self.finish(body, self.asc(_c("_clf_i"), desc=True))

    def score_agg(self) -> None:
        """Per group: trapezoid area (Mann-Whitney, ties half), AP step sum, P and N."""
        dn, dp, tp, fp = (_dbl(_c(n)) for n in ("_clf_dn", "_clf_dp", "_clf_tp", "_clf_fp"))
        area = _sum(_mul(dn, _p(_sub(_mul(_dbl(_n(2)), tp), dp))))
        step = _mul(dp, self.div(tp, _add(tp, fp), _dbl(_n(0))))
        self.cte(
            "_clf_area",
            self.select(
                "_clf_tot",
                _as(area, "_clf_area"),
                _as(_sum(step), "_clf_ap"),
                _as(_dbl(_max(_c("_clf_npos"))), "_clf_npos"),
                _as(_dbl(_max(_c("_clf_nneg"))), "_clf_nneg"),
                group=[],
            ),
        )

    def score_select(self, *names: str) -> exp.Select:
        P, N = _c("_clf_npos"), _c("_clf_nneg")
        exprs = {
            # null with one class; sklearn's auc of the ROC points
            "auroc": self.div(_c("_clf_area"), _mul(_mul(_dbl(_n(2)), P), N)),
            # sum of (dp / P) * precision; 0.0 without positives, as scikit-learn
            "average_precision": self.div(_c("_clf_ap"), P, _dbl(_n(0))),
        }
        return self.select("_clf_area", *[_as(exprs[n], n) for n in names])

    def auroc(self) -> exp.Select:
        self.score_agg()
        return self.finish(self.score_select("auroc"))

    def average_precision(self) -> exp.Select:
        self.score_agg()
        return self.finish(self.score_select("average_precision"))

    # -- probability capabilities ------------------------------------------------------------

    def prob_source(self, y: str, proba: str) -> None:
        p = _dbl(_c(proba))
        self.cte(
            "_clf_psrc",
            self.select(
                self.table,
                _as(_case((_eq(_c(y), self.pos), _n(1)), default=_n(0)), "_clf_yb"),
                _as(p, "_clf_pr"),
                _as(_dbl(self.w()), "_clf_w"),
                where=_and(*self.notnull(y, proba), self.not_nan(p)),
            ),
        )

    def prob_select(self, *names: str) -> exp.Select:
        p, yb, w = _c("_clf_pr"), _c("_clf_yb"), _c("_clf_w")
        lo, hi = self.fconst(_EPS), self.fconst(1.0 - _EPS)

        def clip(e: exp.Expr) -> exp.Expr:  # scikit-learn clips p and 1 - p to [eps, 1 - eps]
            return _case(
                (exp.LT(this=e, expression=lo.copy()), lo.copy()),
                (exp.GT(this=e.copy(), expression=hi.copy()), hi.copy()),
                default=e.copy(),
            )

        losses = {
            "log_loss": _case(
                (_eq(yb, _n(1)), exp.Neg(this=exp.Ln(this=clip(p)))),
                default=exp.Neg(this=exp.Ln(this=clip(_p(_sub(_dbl(_n(1)), p))))),
            ),
            "brier": _mul(_p(_sub(yb, p)), _p(_sub(yb, p))),
        }
        items = [_as(self.div(_sum(_mul(w, losses[n])), _sum(w)), n) for n in names]
        return self.select("_clf_psrc", *items, group=[])

    def prob_metric(self, name: str) -> exp.Select:
        return self.finish(self.prob_select(name))

    def calibration(self, n_bins: int) -> exp.Select:
        # numpy.searchsorted(linspace(0, 1, n_bins + 1)[1:-1], p): p on an edge goes to the
        # lower bin; edges are i * (1 / n_bins) exactly as numpy computes them.
        step = 1.0 / n_bins
        p = _c("_clf_pr")
        whens = [
            (exp.LTE(this=p, expression=self.fconst(i * step)), _n(i - 1)) for i in range(1, n_bins)
        ]
        binid = _case(*whens, default=_n(n_bins - 1)) if whens else _n(0)
        self.cte(
            "_clf_bins",
            self.select("_clf_psrc", _as(binid, "_clf_bin"), p, _c("_clf_yb"), _c("_clf_w")),
        )
        w = _c("_clf_w")
        body = self.select(
            "_clf_bins",
            _as(_cast(_c("_clf_bin"), "BIGINT"), "bin"),
            _as(self.div(_sum(_mul(w, p)), _sum(w.copy())), "mean_predicted"),
            _as(self.div(_sum(_mul(w.copy(), _c("_clf_yb"))), _sum(w.copy())), "fraction_positive"),
            _as(self.count(_sum(w.copy())), "count"),
            group=[_c("_clf_bin")],
        )
        body = body.having(exp.GT(this=_sum(w.copy()), expression=_n(0)))
        return self.finish(body, self.asc(_c("bin")))
