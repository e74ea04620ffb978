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
from collections.abc import Sequence
from numbers import Integral
from typing import Any

from clfeval import _metrics, _options
from clfeval.exceptions import InputError
from clfeval.sqlgen._label import LABEL_METRICS, LabelParts
from clfeval.sqlgen._score import RATES, ScoreParts
from clfeval.sqlgen._tree import MISSING_SQLGLOT, Base, _id, _parenthesize, exp

__all__ = ["CAPABILITIES", "DIALECTS", "query"]

DIALECTS = ("duckdb", "spark", "bigquery", "snowflake", "trino", "postgres")
_LABEL = ("counts", "confusion", "report")
_SCORE = ("thresholds", "roc_curve", "pr_curve", "det_curve", "auroc", "average_precision")
_PROB = ("log_loss", "brier", "calibration")
CAPABILITIES = (*_LABEL, "metrics", *_SCORE, *_PROB)
_ALIASES = {"confusion_matrix": "confusion"}
_AVERAGES = ("binary", "micro", "macro", "weighted")
_SCORE_METRICS = _metrics.default_set("score", "proba")  # no per-class None: one row per group
_OUTPUTS = {
    "counts": ("label", "tp", "fp", "fn", "tn", "support"),
    "confusion": ("actual", "predicted", "count"),
    "report": ("label", "precision", "recall", "f1", "support"),
    "metrics": (*LABEL_METRICS, *_SCORE_METRICS),
    "thresholds": ("threshold", "tp", "fp", "fn", "tn", *RATES),
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
    kappa_weights: str | None = None,
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
      set): with `yhat` any label metric of the registry (cohen_kappa with `kappa_weights`; the averaged ones
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
    _options.choice(
        "kappa_weights",
        kappa_weights,
        (None, "linear", "quadratic"),
        "cohen_kappa's weights: how far apart two classes are in the class order",
    )
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
        tree = b.metrics(
            y, yhat, ranking, proba, average, _metric_list(metrics, yhat, ranking), kappa_weights
        )
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


# ------------------------------------------------- what a call reads (for clfeval.sql.run)


def capability(metric: str) -> str:
    """The capability ``metric`` names (aliases resolved), or an InputError."""
    return _choice(_ALIASES.get(metric, metric), CAPABILITIES, "metric")


def table_ref(table: str | Sequence[str]) -> exp.Table:
    """The quoted table reference ``query`` reads."""
    return _table(table)


def roles_read(
    cap: str,
    y: str,
    yhat: str | None,
    score: str | None,
    proba: str | None,
    weight: str | None,
    options: dict[str, Any],
) -> tuple[dict[str, str], bool]:
    """(role -> column, whether a probability is read) for one call of ``query``, so the
    front door checks exactly the columns the SQL reads."""
    roles = {"y": y}
    probability = cap in _PROB
    if cap in _LABEL:
        roles["yhat"] = _need(yhat, "yhat", cap)
    elif cap == "metrics":
        ranking = score if score is not None else proba
        chosen = _metric_list(options.get("metrics"), yhat, ranking)
        if yhat is not None and any(m in LABEL_METRICS for m in chosen):
            roles["yhat"] = yhat
        ranked = any(m in ("auroc", "average_precision") for m in chosen)
        probability = any(m in ("log_loss", "brier") for m in chosen)
        if score is not None and (ranked or (probability and proba is None)):
            roles["score"] = score
        if proba is not None and (probability or (ranked and score is None)):
            roles["proba"] = proba
    elif cap in _PROB:  # the role is named after the keyword the caller used
        if proba is not None:
            roles["proba"] = proba
        else:
            roles["score"] = _need(score, "proba", cap)
    else:
        roles["score"] = _need(score if score is not None else proba, "score", cap)
    if weight is not None:
        roles["weight"] = weight
    return roles, probability


def binary_labels(cap: str, options: dict[str, Any]) -> bool:
    """Whether the call computes a per-class ratio under ``average="binary"`` (scikit-learn's
    binary rules on pos_label and the number of classes apply)."""
    if cap != "metrics" or options.get("average", "binary") != "binary":
        return False
    chosen = options.get("metrics")
    names = _metrics.default_set("label") if chosen is None else chosen
    return any(_metrics.METRICS[m].averaged for m in names if m in _metrics.METRICS)


# --------------------------------------------------------------------------- validation


def _metric_list(metrics: Any, yhat: str | None, score: str | None) -> list[str]:
    """The metrics of ``metrics=`` (default: clfeval.metrics' default set for the columns
    given), each with the column it reads."""
    if metrics is None:
        return [
            *(_metrics.default_set("label") if yhat is not None else ()),
            *(_SCORE_METRICS if score is not None else ()),
        ]
    names = _options.metric_names(metrics, (*LABEL_METRICS, *_SCORE_METRICS))
    for name in names:
        needed, given = ("yhat", yhat) if name in LABEL_METRICS else ("score", score)
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


class _Builder(LabelParts, ScoreParts, Base):
    """Collects the CTEs of one statement; every name it invents starts with ``_clf_``."""
