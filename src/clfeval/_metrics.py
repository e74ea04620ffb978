"""The metric registry: every metric declared once, and every list of metrics read from here.

One :class:`Metric` per metric: its name, family, title, formula and undefined case (the
README's metric table is rendered from them, :func:`markdown_table`), the scikit-learn
function that gives the same number, its DuckDB macro, and where it appears (the default
set of :func:`clfeval.metrics`, the thresholds table). Binary metrics of the confusion
counts also carry their formula as code over a :class:`Counts` and an :class:`Algebra`:
the same function renders the Polars expression (the label ratios and the thresholds
table) and the generated SQL (:mod:`clfeval.sqlgen`), so the engines cannot drift apart.

Adding a metric: an entry here, its expression (``_label``, ``_score`` or ``_prob``) and,
for SQL, its macro; ``tests/test_registry.py`` fails while one of them is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = ["METRICS", "Algebra", "Counts", "Metric", "markdown_table"]

Family = Literal["label", "score", "proba"]


class Algebra(Protocol):
    """What a formula needs from an engine besides + − × /: the guarded operations."""

    def div(self, num: Any, den: Any, zero: Any) -> Any:
        """num / den, or ``zero`` (the zero_division value; null when None) where den = 0."""

    def share(self, part: Any, total: Any) -> Any:
        """part / total for shares of the rows (total > 0 where it is used)."""

    def mean_defined(self, a: Any, b: Any) -> Any:
        """The mean of those of a and b that are not null (null when both are)."""

    def zero_when(self, cond_zero: Any, value: Any) -> Any:
        """0 where ``cond_zero`` is 0, else ``value``."""

    def sqrt(self, x: Any) -> Any: ...


@dataclass(frozen=True)
class Counts:
    """Binary (or one-vs-rest) counts: tp, pred = tp + fp, support = tp + fn, and the total."""

    tp: Any
    pred: Any
    support: Any
    total: Any

    @property
    def fp(self) -> Any:
        return self.pred - self.tp

    @property
    def fn(self) -> Any:
        return self.support - self.tp

    @property
    def tn(self) -> Any:
        return self.total - self.pred - self.support + self.tp

    @property
    def negatives(self) -> Any:
        return self.total - self.support


Formula = Callable[[Algebra, Counts, Any, float], Any]  # (algebra, counts, zero, beta)


@dataclass(frozen=True)
class Metric:
    name: str
    family: Family
    title: str  # axis and legend title in the charts
    formula: str  # one line, for the docs
    undefined: str  # when it is undefined, and what is returned then
    sklearn: str | None  # the scikit-learn function that gives the same number
    sql: str | None  # the DuckDB aggregate macro
    binary: Formula | None = None  # the value from binary counts, engine-neutral
    averaged: bool = False  # a per-class ratio that ``average=`` combines
    default: int = 0  # its place in the default set of clfeval.metrics() (0: not in it)
    in_metrics: bool = True  # clfeval.metrics(metrics=[...]) accepts it
    at_threshold: bool = False  # a column of clfeval.thresholds()
    params: tuple[str, ...] = ()  # options beyond the family's own (beta, weights, ...)
    expression: bool = True  # clfeval.<name> is its Polars expression
    table: str | None = None  # a DuckDB table macro with a column of this name
    # the DuckDB aggregate and table macros over per-class scores ({multi_class}: ovr, ovo)
    sql_per_class: str | None = None
    table_per_class: str | None = None
    generated: bool = False  # clfeval.sql.query("metrics", metrics=[name]) computes it
    # ... also from per-class scores, score={label: column} (one-vs-rest, one-vs-one)
    generated_per_class: bool = False


def _fbeta(k: Algebra, c: Counts, z: Any, beta: float) -> Any:
    if beta == float("inf"):  # scikit-learn's limit: recall
        return k.div(c.tp, c.support, z)
    b2 = beta * beta
    return k.div((1 + b2) * c.tp, b2 * c.support + c.pred, z)


def _mcc(k: Algebra, c: Counts, z: Any, beta: float) -> Any:
    """Binary MCC on shares of the rows (huge weights cannot overflow); 0 when a margin is
    empty, as scikit-learn."""
    n = c.total
    pp, pn = k.share(c.pred, n), k.share(c.tn + c.fn, n)
    ap, an = k.share(c.support, n), k.share(c.negatives, n)
    den = pp * pn * ap * an
    num = k.share(c.tp, n) * k.share(c.tn, n) - k.share(c.fp, n) * k.share(c.fn, n)
    return k.zero_when(den, num / k.sqrt(den))


def _balanced(k: Algebra, c: Counts, z: Any, beta: float) -> Any:
    return k.mean_defined(k.div(c.tp, c.support, None), k.div(c.tn, c.negatives, None))


def _youden(k: Algebra, c: Counts, z: Any, beta: float) -> Any:
    return k.div(c.tp, c.support, z) + k.div(c.tn, c.tn + c.fp, z) - 1.0


_ZD = "zero_division (0.0)"
METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "precision", "label", "Precision", "tp / (tp + fp)", f"no predicted positive: {_ZD}",
            "precision_score", "clf_precision",
            lambda k, c, z, b: k.div(c.tp, c.pred, z), averaged=True, default=3,
            at_threshold=True, table="clf_metrics", generated=True,
        ),
        Metric(
            "recall", "label", "Recall", "tp / (tp + fn)", f"no actual positive: {_ZD}",
            "recall_score", "clf_recall",
            lambda k, c, z, b: k.div(c.tp, c.support, z), averaged=True, default=4,
            at_threshold=True, table="clf_metrics", generated=True,
        ),
        Metric(
            "specificity", "label", "Specificity", "tn / (tn + fp)", f"no actual negative: {_ZD}",
            None, "clf_specificity",
            lambda k, c, z, b: k.div(c.tn, c.tn + c.fp, z), averaged=True, at_threshold=True,
            table="clf_metrics", generated=True,
        ),
        Metric(
            "fpr", "label", "False positive rate", "fp / (fp + tn)",
            f"no actual negative: {_ZD}", None, "clf_fpr",
            lambda k, c, z, b: k.div(c.fp, c.fp + c.tn, z), averaged=True, at_threshold=True,
            table="clf_metrics", generated=True,
        ),
        Metric(
            "npv", "label", "Negative predictive value", "tn / (tn + fn)",
            f"no predicted negative: {_ZD}", None, "clf_npv",
            lambda k, c, z, b: k.div(c.tn, c.tn + c.fn, z), averaged=True, at_threshold=True,
            table="clf_metrics", generated=True,
        ),
        Metric(
            "fnr", "label", "False negative rate", "fn / (fn + tp)",
            f"no actual positive: {_ZD}", None, "clf_fnr",
            lambda k, c, z, b: k.div(c.fn, c.fn + c.tp, z), averaged=True, table="clf_metrics",
            generated=True,
        ),
        Metric(
            "jaccard", "label", "Jaccard index", "tp / (tp + fp + fn)",
            f"no positive at all: {_ZD}", "jaccard_score", "clf_jaccard",
            lambda k, c, z, b: k.div(c.tp, c.support + c.pred - c.tp, z), averaged=True,
            table="clf_metrics", generated=True,
        ),
        Metric(
            "f1", "label", "F1 score", "2·tp / (2·tp + fp + fn)", f"no positive at all: {_ZD}",
            "f1_score", "clf_f1",
            lambda k, c, z, b: _fbeta(k, c, z, 1.0), averaged=True, default=5,
            at_threshold=True, table="clf_metrics", generated=True,
        ),
        Metric(
            "fbeta", "label", "F-beta score", "(1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp)",
            f"no positive at all: {_ZD}", "fbeta_score", "clf_fbeta", _fbeta,
            averaged=True, at_threshold=True, params=("beta",), table="clf_metrics",
            generated=True,
        ),
        Metric(
            "accuracy", "label", "Accuracy", "(tp + tn) / n", "no row: null",
            "accuracy_score", "clf_accuracy",
            lambda k, c, z, b: k.div(c.tp + c.tn, c.total, z), default=1, at_threshold=True, table="clf_metrics", generated=True,
        ),
        Metric(
            "balanced_accuracy", "label", "Balanced accuracy",
            "mean recall over the classes of y", "no row: null", "balanced_accuracy_score",
            "clf_balanced_accuracy", _balanced, default=2, at_threshold=True,
            params=("adjusted",), table="clf_metrics", generated=True,
        ),
        Metric(
            "mcc", "label", "Matthews correlation",
            "(c·n − Σₖ pₖ·tₖ) / √((n² − Σₖ pₖ²)(n² − Σₖ tₖ²)); two classes: "
            "(tp·tn − fp·fn) / √((tp+fp)(tp+fn)(tn+fp)(tn+fn))",
            "a constant marginal: 0 (scikit-learn)", "matthews_corrcoef", "clf_mcc", _mcc,
            default=6, at_threshold=True, table="clf_metrics", generated=True,
        ),
        Metric(
            "youden_j", "label", "Youden's J", "recall + specificity − 1",
            "as recall and specificity", None, None, _youden, in_metrics=False,
            at_threshold=True, expression=False,
        ),
        Metric(
            "cohen_kappa", "label", "Cohen's kappa", "(p_o − p_e) / (1 − p_e)",
            "p_e = 1: null", "cohen_kappa_score", "clf_cohen_kappa", params=("weights",),
            table="clf_metrics", generated=True,
        ),
        Metric(
            "prevalence", "label", "Prevalence", "share of pos_label in y", "no row: null",
            None, "clf_prevalence", in_metrics=False,
        ),
        Metric(
            "auroc", "score", "AUROC", "P(score₊ > score₋) + ½·P(tie)", "one class: null",
            "roc_auc_score", "clf_auroc", default=7,
            params=("max_fpr", "multi_class", "average"), table="clf_auroc", generated=True,
            generated_per_class=True, sql_per_class="clf_auroc_{multi_class}",
            table_per_class="clf_auroc_multiclass",
        ),
        Metric(
            "average_precision", "score", "Average precision", "Σ (Rₙ − Rₙ₋₁)·Pₙ",
            "no positive: null", "average_precision_score", "clf_average_precision",
            default=8, table="clf_average_precision", generated=True, generated_per_class=True,
            sql_per_class="clf_average_precision_ovr",
        ),
        Metric(
            "ks", "score", "KS statistic", "max |TPR − FPR| over thresholds", "one class: null",
            None, "clf_ks", in_metrics=False,
        ),
        Metric(
            "top_k_accuracy", "score", "Top-k accuracy", "share of rows whose class is in the k "
            "highest scores", "no row: null", "top_k_accuracy_score", None, in_metrics=False,
            params=("k",),
            sql_per_class="clf_top_k_accuracy", table_per_class="clf_top_k_accuracy",
        ),
        Metric(
            "log_loss", "proba", "Log loss", "mean −log p(actual class), p clipped to [ε, 1 − ε]",
            "no row: null", "log_loss", "clf_log_loss", default=9, generated=True,
            generated_per_class=True, sql_per_class="clf_log_loss_multiclass",
        ),
        Metric(
            "brier", "proba", "Brier score", "mean Σ_c (1[y = c] − p_c)²", "no row: null",
            "brier_score_loss", "clf_brier", default=10, generated=True,
            generated_per_class=True, sql_per_class="clf_brier_multiclass",
        ),
        Metric(
            "ece", "proba", "Expected calibration error", "Σ_b (n_b / n)·|acc_b − conf_b|",
            "no row: null", None, "clf_ece", in_metrics=False, params=("n_bins",),
            table="clf_ece", sql_per_class="clf_ece_multiclass", table_per_class="clf_ece_multiclass",
        ),
    )
}  # fmt: skip


def names(**where: Any) -> tuple[str, ...]:
    """The metrics whose fields equal ``where``, in registry order."""
    return tuple(
        m.name for m in METRICS.values() if all(getattr(m, k) == v for k, v in where.items())
    )


def binary_formulas(k: Algebra, c: Counts, zero: Any, beta: float, chosen: Any) -> dict[str, Any]:
    """Each chosen metric's value from the binary counts ``c``, rendered by ``k``."""
    out = {}
    for name in chosen:
        formula = METRICS[name].binary
        assert formula is not None, name
        out[name] = formula(k, c, zero, beta)
    return out


def default_set(*families: Family) -> tuple[str, ...]:
    """The default metrics of ``families``, in their order."""
    chosen = [m for m in METRICS.values() if m.default and m.family in families]
    return tuple(m.name for m in sorted(chosen, key=lambda m: m.default))


def metrics_order(family: Family) -> tuple[str, ...]:
    """The metrics of ``family`` that clfeval.metrics(metrics=[...]) accepts: the default set
    first, then the others in registry order (for labels: the columns of clf_metrics)."""
    first = default_set(family)
    rest = (n for n in names(family=family, in_metrics=True) if n not in first)
    return (*first, *rest)


THRESHOLD_METRICS = names(at_threshold=True)


def markdown_table() -> str:
    """The README's metric table: name, formula, undefined case, Python, the DuckDB aggregate
    and table macros, the generated SQL (clfeval.sql.query), reference."""
    rows = [
        "| metric | formula | undefined | Python | DuckDB | generated SQL | scikit-learn |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for m in METRICS.values():
        python = f"`ce.{m.name}`" if m.expression else "`thresholds()` column"
        per_class = m.sql_per_class and m.sql_per_class.format(multi_class="ovr|ovo")
        macros = dict.fromkeys(x for x in (m.sql, per_class, m.table, m.table_per_class) if x)
        sql = ", ".join(f"`{x}`" for x in macros) or "—"
        generated = "per-class too" if m.generated_per_class else "yes" if m.generated else "—"
        ref = f"`{m.sklearn}`" if m.sklearn else "—"
        cells = [m.title, m.formula, m.undefined, python, sql, generated, ref]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"
