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
from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any

from clfeval import _metrics, _options
from clfeval._schema import order_scores
from clfeval.exceptions import InputError
from clfeval.sqlgen._classes import ClassParts
from clfeval.sqlgen._label import LABEL_METRICS, LabelParts
from clfeval.sqlgen._score import RATES, ScoreParts
from clfeval.sqlgen._tree import MISSING_SQLGLOT, Base, _id, _parenthesize, exp

__all__ = ["CAPABILITIES", "DIALECTS", "query"]

Scores = Mapping[Any, str] | Sequence[str]  # per-class columns: {label: column}, or with labels=

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
    score: str | Scores | None = None,
    proba: str | Scores | None = None,
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
    adjusted: bool = False,
    max_fpr: float | None = None,
    multi_class: str = _options.DEFAULTS["multi_class"],
    labels: Sequence[Any] | None = None,
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
      set): with `yhat` any label metric of the registry (the averaged ones under `average`
      and `labels`, fbeta with `beta`, cohen_kappa with `kappa_weights` and `labels`,
      balanced_accuracy with `adjusted`); auroc (`max_fpr`), average_precision with `score`;
      log_loss, brier with `proba` (or `score`). Per-class scores (``{label: column}``, or a
      list of columns with `labels`): auroc one-vs-rest (`average` macro, weighted, micro;
      macro for 'binary') or one-vs-one (``multi_class="ovo"``, macro or weighted),
      average_precision one-vs-rest, multiclass log_loss and brier; rows whose y is not one
      of the classes are left out. One formula per metric, shared with Polars.
    - ``thresholds``: threshold, tp, fp, fn, tn, then the metrics of ``clfeval.thresholds``
      (precision, recall, specificity, fpr, npv, f1, fbeta with ``beta``, accuracy,
      balanced_accuracy, mcc, youden_j: the registry's formulas, rendered to SQL) per
      distinct score, highest first (``score >= threshold`` is positive).
    - ``roc_curve`` (threshold, fpr, tpr; first row +inf), ``pr_curve`` (threshold,
      precision, recall; thresholds increasing, then precision 1, recall 0 at a null
      threshold), ``det_curve`` (threshold, fpr, fnr): scikit-learn's points and order.
    - ``auroc`` (ties get half credit), ``average_precision`` (step sum), ``log_loss``
      (p clipped to [eps, 1 - eps]), ``brier``: one row per group; per-class scores and
      `max_fpr` as under ``metrics``.
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
        probability metrics `score` if `proba` is not given. `score` and `proba` may be
        per-class columns for the areas and losses.
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
    beta, kappa_weights, adjusted, max_fpr, multi_class, labels
        As ``clfeval.metrics``: F-beta's beta; cohen_kappa's weights (None, ``"linear"``,
        ``"quadratic"``); balanced accuracy rescaled so chance is 0; McClish's standardised
        partial AUROC up to that false positive rate (binary); ``"ovr"`` or ``"ovo"`` for
        per-class AUROC; the classes (and their order) of the averaged ratios, of kappa and
        of per-class scores. `labels` and per-class scores raise `InputError` on the
        capabilities that do not generate them (counts, confusion, report, the curves,
        thresholds, calibration).

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
    _options.kappa_weights(kappa_weights)
    _options.flag("adjusted", adjusted)
    max_fpr = _options.max_fpr(max_fpr)
    _options.choice(
        "multi_class", multi_class, ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )  # fmt: skip
    labels = _options.labels(labels)
    n_bins = _options.n_bins(n_bins)
    if drop_intermediate is not None:
        _options.flag("drop_intermediate", drop_intermediate)
    for value, role in ((y, "y"), (yhat, "yhat"), (weight, "weight")):
        if value is not None or role == "y":
            _options.column_name(role, value)
    score_cols, proba_cols = _scores(score, labels, "score"), _scores(proba, labels, "proba")
    roles = {r: c for r, c in (("y", y), ("yhat", yhat), ("weight", weight)) if c is not None}
    for role, columns in (("score", score_cols), ("proba", proba_cols)):
        if isinstance(columns, str):
            roles[role] = columns
        elif columns is not None:
            roles.update({f"{role} of {label!r}": c for label, c in columns.items()})
    groups = _names(group_cols, cap, roles)
    b = _Builder(dialect, _table(table), groups, weight, _literal(pos_label), zero_division)
    b.beta = beta
    ranking = score_cols if score_cols is not None else proba_cols
    if cap in ("auroc", "average_precision", "log_loss", "brier") and (
        not isinstance(ranking, str) or max_fpr is not None
    ):  # per-class scores or a partial area: the metrics plan, for this one metric
        metrics, yhat = [cap], None
        _need(ranking, "proba" if cap in _PROB else "score", cap)
        cap = "metrics"
    if cap != "metrics":
        _check(
            labels is None,
            f"labels= is not generated for {cap}",
            "labels",
            "the generated SQL reports the classes of each group; for chosen classes use "
            "clfeval.{0} or clfeval.sql.{0} (DuckDB), or filter the rows in a view".format(
                {"confusion": "confusion_matrix"}.get(cap, cap)
            ),
        )
        _check(
            ranking is None or isinstance(ranking, str),
            f"{cap} takes one score column in the generated SQL, got per-class columns",
            "score",
            "per-class scores are generated for auroc, average_precision, log_loss, brier and "
            "metrics; for one-vs-rest curves use clfeval.roc_curve or clf_roc_curve_multiclass",
        )
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
        names = _metric_list(metrics, yhat, ranking)
        opts = {
            "average": average,
            "kappa_weights": kappa_weights,
            "adjusted": adjusted,
            "max_fpr": max_fpr,
            "multi_class": multi_class,
            # per-class scores average as clfeval.metrics: macro when average is 'binary'
            "score_average": "macro" if average == "binary" else average,
        }
        _check_scores(names, ranking, labels, opts)
        opts["labels"] = None if labels is None else [_literal(v) for v in labels]
        proba_cols = proba_cols if proba_cols is not None else score_cols
        tree = b.metrics(y, yhat, _classes(ranking), _classes(proba_cols), names, opts)
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
    score: Any,
    proba: Any,
    weight: str | None,
    options: dict[str, Any],
) -> tuple[dict[str, str], bool, dict[Any, str] | None]:
    """(role -> column, whether a probability is read, the per-class score columns or None)
    for one call of ``query``, so the front door checks exactly the columns the SQL reads.
    Roles are named as the Polars front door names them (``score``, ``proba[a]``...)."""
    labels = _options.labels(options.get("labels"))
    score, proba = _scores(score, labels, "score"), _scores(proba, labels, "proba")
    roles = {"y": y}
    probability = cap in _PROB
    if cap in _LABEL:
        roles["yhat"] = _need(yhat, "yhat", cap)
    elif cap in _PROB and proba is None:  # the role is named after the keyword the caller used
        roles["score"] = _need(score, "proba", cap)  # type: ignore[assignment]
    elif cap in _PROB:
        roles["proba"] = proba  # type: ignore[assignment]
    elif cap != "metrics":
        roles["score"] = _need(score if score is not None else proba, "score", cap)  # type: ignore[assignment]
    if cap in ("metrics", "auroc", "average_precision", "log_loss", "brier"):
        ranking = score if score is not None else proba
        single = None if cap == "metrics" else [cap]
        chosen = _metric_list(options.get("metrics", single), yhat, ranking)
        if cap == "metrics" and yhat is not None and any(m in LABEL_METRICS for m in chosen):
            roles["yhat"] = yhat
        ranked = any(m in ("auroc", "average_precision") for m in chosen)
        probability = any(m in ("log_loss", "brier") for m in chosen)
        roles = {r: c for r, c in roles.items() if r in ("y", "yhat")}
        for name, value, used in (
            ("score", score, ranked or (probability and proba is None)),
            ("proba", proba, probability or (ranked and score is None)),
        ):
            if value is None or not used:
                continue
            if isinstance(value, str):
                roles[name] = value
            else:
                roles |= {f"{name}[{k}]": c for k, c in value.items()}
    if weight is not None:
        roles["weight"] = weight
    per_class = next((v for v in (score, proba) if isinstance(v, dict)), None)
    return roles, probability, per_class


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


def _scores(value: Any, labels: list[Any] | None, role: str) -> str | dict[Any, str] | None:
    """A score argument as clfeval reads it: one column (binary), or ``{label: column}`` from
    a mapping (restricted to and ordered by ``labels``) or a list of columns with ``labels``."""
    if value is None:
        return None
    if isinstance(value, str):
        return _options.column_name(role, value)
    if isinstance(value, Mapping):
        for key in value:
            _options.class_value(role, key)
        mapping = order_scores(value, labels)
    elif isinstance(value, Sequence) and not isinstance(value, bytes):
        _check(
            labels is not None and len(labels) == len(value),
            f"a list of {len(value)} {role} columns needs labels= of the same length",
            role,
            "pass labels=[...] in the order of the columns, or a mapping {label: column}",
        )
        mapping = dict(zip(labels or [], value))
    else:
        return _options.column_name(role, value)  # raises: not a column name
    _check(
        len(mapping) >= 2,
        f"multiclass scores need at least two classes, got {list(mapping)!r}",
        role,
        "pass one column for a binary score, or one column per class",
    )
    return {label: _options.column_name(role, c) for label, c in mapping.items()}


def _classes(value: str | dict[Any, str] | None) -> str | list[tuple[exp.Expr, str]] | None:
    """Per-class columns as (the class as a literal, its column), in class order."""
    if value is None or isinstance(value, str):
        return value
    return [(_literal(label), column) for label, column in value.items()]


def _check_scores(names: list[str], ranking: Any, labels: Any, opts: dict[str, Any]) -> None:
    """The options of the score metrics, checked as clfeval.auroc and average_precision do."""
    per_class = not isinstance(ranking, str)
    scored = [n for n in names if n in _SCORE_METRICS]
    _check(
        not scored or per_class or labels is None,
        "one score column with labels= is a List/Array column, which the generated SQL "
        "does not read",
        "score",
        "pass per-class columns: score={label: column, ...}, or a list of columns with labels=",
    )
    if "auroc" in names and per_class and opts["max_fpr"] not in (None, 1):
        raise InputError(
            "max_fpr (partial AUROC) is binary only",
            role="max_fpr",
            rule="option",
            hint="leave max_fpr=None for multiclass scores",
        )
    if "auroc" in names and per_class and opts["multi_class"] == "ovo":
        _options.average(opts["score_average"], ("macro", "weighted"))


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


class _Builder(LabelParts, ScoreParts, ClassParts, Base):
    """Collects the CTEs of one statement; every name it invents starts with ``_clf_``."""
