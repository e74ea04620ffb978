"""The public macros as the Python side sees them: column arguments, options, outputs."""

from __future__ import annotations

from dataclasses import dataclass

from clfeval._metrics import metrics_order


@dataclass(frozen=True)
class Macro:
    """What the Python side needs to know about one public macro."""

    roles: tuple[str, ...]  # column arguments after the table, in order
    options: tuple[str, ...]  # named parameters
    outputs: tuple[str, ...]  # output columns after the group columns
    positional: tuple[str, ...] = ()  # parameters passed by position after the columns
    probability: bool = False  # the score column holds probabilities in [0, 1]
    binary: bool = False  # pos_label against the rest (a label macro: sklearn's binary rules)
    multiclass: bool = (
        False  # the score argument is per-class scores (columns, or a LIST), labels= needed
    )
    covers_y: bool = False  # (multiclass) every class of y needs a score column, as the curves
    paired: bool = False  # two prediction columns of the same rows (clfeval.sql.compare...)
    column_options: tuple[str, ...] = ()  # options that name a column the macro reads (fold)


_LABEL = ("group_cols", "weight_col", "labels")
_DECIDE = ("prevalence",)  # a number in (0, 1): the metrics at that share of positives
_COSTS = ("cost_fp", "cost_fn", "benefit_tp", "benefit_tn")
_CURVE = ("group_cols", "weight_col", "pos_label")
_PER_CLASS = ("group_cols", "weight_col", "labels")
_SIX = ("accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc")
_RATES = (
    "threshold", "tp", "fp", "fn", "tn", "precision", "recall", "specificity", "fpr", "npv",
    "f1", "fbeta", "accuracy", "balanced_accuracy", "mcc", "youden_j",
)  # fmt: skip
TABLE_MACROS: dict[str, Macro] = {
    "clf_confusion": Macro(("y", "yhat"), _LABEL, ("actual", "predicted", "count")),
    "clf_counts": Macro(("y", "yhat"), _LABEL, ("label", "tp", "fp", "fn", "tn", "support")),
    "clf_report": Macro(
        ("y", "yhat"), (*_LABEL, "zero_division"), ("label", "precision", "recall", "f1", "support")
    ),
    "clf_metrics": Macro(  # every label metric of clfeval.metrics, in its order
        ("y", "yhat"),
        (
            *_LABEL,
            "average",
            "pos_label",
            "zero_division",
            "beta",
            "kappa_weights",
            "adjusted",
            *_DECIDE,
        ),
        metrics_order("label"),
    ),
    "clf_roc_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "fpr", "tpr")
    ),
    "clf_pr_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "precision", "recall")
    ),
    "clf_det_curve": Macro(
        ("y", "score"), (*_CURVE, "drop_intermediate"), ("threshold", "fpr", "fnr")
    ),
    "clf_thresholds": Macro(
        ("y", "score"), (*_CURVE, "beta", "zero_division", *_DECIDE, *_COSTS), _RATES
    ),
    "clf_auroc": Macro(("y", "score"), (*_CURVE, "max_fpr"), ("auroc",)),
    "clf_average_precision": Macro(("y", "score"), _CURVE, ("average_precision",)),
    "clf_gain": Macro(("y", "score"), _CURVE, ("fraction_targeted", "gain")),
    "clf_lift": Macro(("y", "score"), _CURVE, ("fraction_targeted", "lift")),
    "clf_ece": Macro(("y", "proba"), (*_CURVE, "n_bins", "kind"), ("ece",), probability=True),
    # per-class score columns: (y, [column, ...]) with labels := [class, ...] in their order
    "clf_auroc_multiclass": Macro(
        ("y", "scores"), (*_PER_CLASS, "multi_class", "average"), ("auroc",), multiclass=True
    ),
    "clf_top_k_accuracy": Macro(
        ("y", "scores"), (*_PER_CLASS, "k"), ("top_k_accuracy",), multiclass=True
    ),
    "clf_ece_multiclass": Macro(
        ("y", "scores"),
        (*_PER_CLASS, "n_bins", "kind"),
        ("ece",),
        probability=True,
        multiclass=True,
    ),
    "clf_roc_curve_multiclass": Macro(
        ("y", "scores"),
        (*_PER_CLASS, "drop_intermediate"),
        ("label", "threshold", "fpr", "tpr"),
        multiclass=True,
        covers_y=True,
    ),
    "clf_pr_curve_multiclass": Macro(
        ("y", "scores"),
        (*_PER_CLASS, "drop_intermediate"),
        ("label", "threshold", "precision", "recall"),
        multiclass=True,
        covers_y=True,
    ),
    # 60_decide.sql
    "clf_decision_curve": Macro(
        ("y", "proba"),
        (*_CURVE, "thresholds"),
        ("threshold", "net_benefit", "net_benefit_all", "net_benefit_none"),
        probability=True,
    ),
    "clf_cv_summary": Macro(
        ("y", "yhat"),
        (
            *_LABEL,
            "average",
            "pos_label",
            "zero_division",
            "beta",
            "kappa_weights",
            "adjusted",
            "fold",
            "ddof",
        ),
        ("metric", "pooled", "mean", "sd", "n_folds"),
        column_options=("fold",),
    ),
    "clf_calibration": Macro(
        ("y", "proba"),
        (*_CURVE, "n_bins", "strategy"),
        ("bin", "mean_predicted", "fraction_positive", "count"),
        probability=True,
    ),
    # uncertainty (sql/70_uncertainty.sql, sql/75_compare.sql): the Poisson bootstrap, DeLong,
    # paired tests
    "clf_bootstrap": Macro(
        ("y", "yhat"),
        (*_LABEL, "average", "pos_label", "zero_division", "n_boot", "seed"),
        ("replicate", *_SIX),
    ),
    "clf_bootstrap_scores": Macro(
        ("y", "score"),
        (*_CURVE, "n_boot", "seed"),
        ("replicate", "auroc", "average_precision", "log_loss", "brier"),
    ),
    "clf_metrics_ci": Macro(
        ("y", "yhat"),
        (*_LABEL, "average", "pos_label", "zero_division", "level", "n_boot", "seed"),
        (
            *(c for m in _SIX for c in (m, f"{m}_lo", f"{m}_hi")),
            *(f"{m}_n_undefined" for m in _SIX),
        ),
    ),
    "clf_auroc_ci": Macro(
        ("y", "score"), (*_CURVE, "level"), ("auroc", "auroc_lo", "auroc_hi", "se")
    ),
    # paired: two prediction columns of the same rows (clfeval.sql.compare_auroc, compare)
    "clf_compare_auroc": Macro(
        ("y", "score", "score_b"),
        (*_CURVE, "level"),
        ("auroc_a", "auroc_b", "diff", "diff_lo", "diff_hi", "se", "z", "p_value"),
        paired=True,
    ),
    "clf_compare": Macro(
        ("y", "yhat", "yhat_b"),
        (*_LABEL, "average", "pos_label", "zero_division", "level", "n_boot", "seed"),
        (
            "n_a_only",
            "n_b_only",
            "mcnemar_statistic",
            "mcnemar_p_value",
            "mcnemar_method",
            *(f"{m}{s}" for m in _SIX for s in ("_a", "_b", "_diff", "_diff_lo", "_diff_hi")),
            *(f"{m}_diff_n_undefined" for m in _SIX),
        ),
        paired=True,
    ),
}

# average='binary' (the default) applies scikit-learn's binary rules (pos_label checked on the
# classes found); 'micro', 'macro' and 'weighted' average over the classes (labels=)
_RATIO = ("pos_label", "zero_division", "weight", "average", "labels")
AGGREGATE_MACROS: dict[str, Macro] = {
    "clf_accuracy": Macro(("y", "yhat"), ("weight",), ("accuracy",)),
    **{
        f"clf_{name}": Macro(("y", "yhat"), _RATIO, (name,))
        for name in ("precision", "recall", "f1", "specificity", "npv", "fpr", "fnr", "jaccard")
    },
    "clf_fbeta": Macro(("y", "yhat"), _RATIO, ("fbeta",), positional=("beta",)),
    # multiclass (from each group's confusion matrix), as the Polars expressions: no pos_label
    "clf_mcc": Macro(("y", "yhat"), ("weight",), ("mcc",)),
    "clf_cohen_kappa": Macro(("y", "yhat"), ("weights", "labels", "weight"), ("cohen_kappa",)),
    "clf_balanced_accuracy": Macro(("y", "yhat"), ("adjusted", "weight"), ("balanced_accuracy",)),
    "clf_prevalence": Macro(("y",), ("pos_label", "weight"), ("prevalence",)),
    "clf_log_loss": Macro(("y", "proba"), ("pos_label", "weight"), ("log_loss",), probability=True),
    "clf_brier": Macro(("y", "proba"), ("pos_label", "weight"), ("brier",), probability=True),
    # also table macros (TABLE_MACROS): the runner looks a name up per kind
    "clf_auroc": Macro(("y", "score"), ("pos_label", "weight", "max_fpr"), ("auroc",)),
    "clf_average_precision": Macro(("y", "score"), ("pos_label", "weight"), ("average_precision",)),
    "clf_ks": Macro(("y", "score"), ("pos_label", "weight"), ("ks",)),
    "clf_ece": Macro(
        ("y", "proba"), ("n_bins", "kind", "pos_label", "weight"), ("ece",), probability=True
    ),
    # multiclass: the score column is a LIST (or ARRAY) of per-class scores in labels= order
    # (one name per form: DuckDB macros cannot take a scalar and a list under one name cheaply)
    "clf_auroc_ovr": Macro(
        ("y", "score"), ("labels", "average", "weight"), ("auroc",), multiclass=True
    ),
    "clf_auroc_ovo": Macro(
        ("y", "score"), ("labels", "average", "weight"), ("auroc",), multiclass=True
    ),
    "clf_average_precision_ovr": Macro(
        ("y", "score"), ("labels", "average", "weight"), ("average_precision",), multiclass=True
    ),
    "clf_top_k_accuracy": Macro(
        ("y", "score"), ("labels", "k", "weight"), ("top_k_accuracy",), multiclass=True
    ),
    "clf_log_loss_multiclass": Macro(
        ("y", "proba"), ("labels", "weight"), ("log_loss",), probability=True, multiclass=True
    ),
    "clf_brier_multiclass": Macro(
        ("y", "proba"), ("labels", "weight"), ("brier",), probability=True, multiclass=True
    ),
    "clf_ece_multiclass": Macro(
        ("y", "proba"),
        ("labels", "n_bins", "kind", "weight"),
        ("ece",),
        probability=True,
        multiclass=True,
    ),
}
