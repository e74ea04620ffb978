"""The frame function ``metrics``: one row per group, one column per metric.

Label metrics are computed from the small ``(by, y, yhat, n)`` frame of the count layer: every
expression of :mod:`clfeval._label` evaluated with ``weight=n`` on it gives the same number as on
the raw rows (integer weights are repeated rows), so the data is grouped once. Which metrics
exist, and which are the defaults, is the registry's (:mod:`clfeval._metrics`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _bootstrap, _label, _metrics, _options, _score, _shift
from clfeval._counts import (
    COUNTS_COLUMNS,
    N,
    counts_from_pairs,
    group_eval,
    join_by,
    ovr_from_counts,
    pairs_of,
)
from clfeval._curves import POS, S
from clfeval._draws import REP
from clfeval._frames import as_polars, frame_input
from clfeval._models import Models, comparable
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    Prepared,
    check_labels_present,
    check_options,
    check_pos_label,
    check_prevalence,
    check_proba_sums,
    check_score_classes,
    expand_list_scores,
    prepare,
)
from clfeval._whole import whole_names, whole_scores
from clfeval.exceptions import InputError

LABEL_DEFAULT = _metrics.default_set("label")
SCORE_DEFAULT = _metrics.default_set("score", "proba")
RANKED = ("auroc", "average_precision")  # binary: computed from the threshold counts
AVERAGED = _metrics.names(averaged=True)


def _label_metric(name: str, y: str, yhat: str, opts: dict[str, Any]) -> pl.Expr:
    """One label metric as an expression over raw rows (used where no counts frame fits)."""
    weight = opts["weight"]
    if name == "accuracy":
        return _label.accuracy(y, yhat, weight=weight)
    if name == "balanced_accuracy":
        return _label.balanced_accuracy(
            y, yhat, adjusted=opts.get("adjusted", False), weight=weight
        )
    if name == "mcc":
        return _label.mcc(y, yhat, weight=weight)
    if name == "cohen_kappa":
        return _label.cohen_kappa(
            y, yhat, weights=opts.get("kappa_weights"), labels=opts["labels"], weight=weight
        )
    kw = {k: opts[k] for k in ("average", "pos_label", "labels", "zero_division")}
    if name == "fbeta":
        return _label.fbeta(y, yhat, beta=opts["beta"], weight=weight, **kw)
    return getattr(_label, name)(y, yhat, weight=weight, **kw)


def _ratio(name: str, beta: float) -> _label.Ratio:
    if name == "fbeta":
        return _label.fbeta_ratio(beta)
    if name == "f1":
        return _label.fbeta_ratio(1.0)
    return _label.RATIOS[name]


def _from_counts(name: str, opts: dict[str, Any]) -> pl.Expr | None:
    """A label metric as an aggregation over a counts frame's rows (one group's classes).

    ``None`` for a metric that needs more than one-vs-rest counts (weighted kappa, labels).
    """
    every = ovr_from_counts()
    if name == "accuracy":
        return _label.divide(every.tp.sum(), every.total.first(), None)
    if name == "balanced_accuracy":
        return _label.balanced_from(every, adjusted=opts.get("adjusted", False))
    if name == "mcc":
        return _label.mcc_from(every)
    if name in AVERAGED:
        ratio, average, z = _ratio(name, opts["beta"]), opts["average"], opts["zero_division"]
        if average == "binary":
            return ratio(ovr_from_counts(opts["pos_label"], binary=True), z)
        return _label.average_ratio(ratio, every, average, z)
    return None


LABEL_METRICS = _metrics.metrics_order("label")


def _score_metric(name: str, y: str, score: Any, opts: dict[str, Any]) -> pl.Expr:
    from clfeval import _prob

    weight, pos_label = opts["weight"], opts["pos_label"]
    per_class = {} if isinstance(score, str) else {"average": opts.get("score_average", "macro")}
    if name == "auroc":
        if per_class:
            per_class["multi_class"] = opts.get("multi_class", "ovr")
        if opts.get("max_fpr") is not None:
            per_class["max_fpr"] = opts["max_fpr"]
        return _score.auroc(
            y, score, pos_label=pos_label, weight=weight, labels=opts["labels"], **per_class
        )
    if name == "average_precision":
        return _score.average_precision(
            y, score, pos_label=pos_label, weight=weight, labels=opts["labels"], **per_class
        )
    if name == "log_loss":
        return _prob.log_loss(y, score, pos_label=pos_label, weight=weight, labels=opts["labels"])
    if name == "brier":
        return _prob.brier(y, score, pos_label=pos_label, weight=weight, labels=opts["labels"])
    raise AssertionError(name)


def _check_binary(
    prep: Prepared, y: str, average: Any, pos_label: Any, labels: Sequence[Any] | None
) -> None:
    if prep.classes is not None:
        dtype = prep.frame.collect_schema()[y]
        check_labels_present(prep.classes, labels, y)
        check_pos_label(prep.classes, pos_label, average=average, labels=labels, y=y, dtype=dtype)


@frame_input("metrics")
@comparable("yhat", "score")
def metrics(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    score: Any = None,
    metrics: Sequence[str] | None = None,
    average: _label.Average = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: _label.ZeroDivision = 0.0,
    beta: float = 1.0,
    multi_class: Literal["ovr", "ovo"] = "ovr",
    kappa_weights: Literal["linear", "quadratic"] | None = None,
    adjusted: bool = False,
    max_fpr: float | None = None,
    ci: float | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
    prevalence: Any = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Frame:
    """One row per group, one column per metric (with ``average=None``: one row per class).

    Default metrics: accuracy, balanced_accuracy, precision, recall, f1, mcc from ``yhat``; plus
    auroc, average_precision, log_loss, brier when ``score`` is given. Label metrics are computed
    from one group-by on ``(by, y, yhat)``. With ``missing="drop"`` an ``n_excluded`` column
    follows the group columns.

    Options as the expressions': ``beta`` (fbeta), ``kappa_weights`` (cohen_kappa's
    ``weights``: None, ``"linear"``, ``"quadratic"``), ``adjusted`` (balanced accuracy
    rescaled so chance is 0, scikit-learn's ``adjusted=True``), and for per-class scores
    ``multi_class`` (``"ovr"``, ``"ovo"``) with ``average`` for AUROC and average precision
    (macro, as scikit-learn, when ``average="binary"``); ``max_fpr`` for the binary AUROC
    (McClish's standardized partial AUC).

    ``prevalence``: every metric at a target prevalence of ``pos_label`` (a number in (0, 1),
    or a column holding it per group) or a target class distribution ``{class: share}``,
    computed on the rows re-weighted to it (README, "From scores to decisions"); a binary
    target adds the columns ``prevalence`` (measured) and ``target_prevalence`` before the
    metrics. A group lacking a class the target needs gets nulls.

    ``models=`` (instead of ``yhat``/``score``) compares the prediction columns of a
    wide frame: a list, ``{name: column}``, or ``{name: {"yhat": ..., "score": ...}}``;
    one row per model, with a ``model`` column first.

    ``ci=0.95`` adds ``<metric>_lo``, ``<metric>_hi`` after each metric (percentile
    intervals of ``n_boot`` Poisson bootstrap replicates drawn from the count tables,
    reproducible for a ``seed``; binary scores only) and ``<metric>_n_undefined``, the null
    replicates left out, at the end (:func:`clfeval.bootstrap`).

    See Also
    --------
    clf_metrics : the SQL twin (``clf_metrics_ci`` with intervals).

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> metrics(df, "y", "yhat", metrics=["accuracy", "recall"]).row(0)
    (0.75, 0.6666666666666666)
    """
    return evaluate(
        data, y, yhat, score=score, metrics=metrics, average=average, pos_label=pos_label,
        labels=labels, zero_division=zero_division, beta=beta, multi_class=multi_class,
        kappa_weights=kappa_weights, adjusted=adjusted, max_fpr=max_fpr, ci=ci, n_boot=n_boot,
        seed=seed, prevalence=prevalence, by=by,
        weight=weight, missing=missing, nonfinite=nonfinite,
    )  # fmt: skip


def evaluate(
    data: Frame,
    y: str,
    yhat: str | None,
    *,
    score: Any,
    metrics: Sequence[str] | None,
    average: _label.Average,
    pos_label: Any,
    labels: Sequence[Any] | None,
    zero_division: _label.ZeroDivision,
    beta: float,
    multi_class: Literal["ovr", "ovo"],
    kappa_weights: Literal["linear", "quadratic"] | None,
    max_fpr: float | None,
    ci: float | None,
    adjusted: bool = False,
    n_boot: int,
    seed: int,
    by: str | Sequence[str] | None,
    weight: str | None,
    missing: Literal["raise", "drop"],
    nonfinite: Literal["raise", "drop"],
    replicates: bool = False,
    prevalence: Any = None,
) -> Frame:
    """:func:`metrics`; with ``replicates``, the bootstrap replicates instead
    (:func:`clfeval.bootstrap`)."""
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(average=average, labels=labels, zero_division=zero_division)
    beta = _options.beta(beta)
    max_fpr = _options.max_fpr(max_fpr)
    target = _options.prevalence(prevalence)
    _options.choice(
        "multi_class",
        multi_class,
        ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )
    _options.kappa_weights(kappa_weights)
    _options.flag("adjusted", adjusted)
    level, n_boot, seed = _bootstrap.check(ci, n_boot, seed)
    boot = replicates or level is not None
    if boot and target is not None:
        raise InputError(
            "prevalence= and bootstrap intervals (ci=) do not combine yet",
            role="prevalence",
            rule="option",
            hint="compute the metrics at the target prevalence without ci=, or the intervals "
            "at the measured prevalence without prevalence=",
        )
    if yhat is None and score is None:
        raise InputError(
            "metrics needs yhat= or score=",
            role="yhat",
            rule="missing_argument",
            hint="pass the predicted-class column, the score column, or both",
        )
    known = (*LABEL_METRICS, *SCORE_DEFAULT) if average is not None else (*AVERAGED, "support")
    if metrics is None:
        if average is None:
            names = ["precision", "recall", "f1", "support"]
        else:
            names = [
                *(LABEL_DEFAULT if yhat else ()),
                *(SCORE_DEFAULT if score is not None else ()),
            ]
    else:
        names = _options.metric_names(metrics, known)
    for name in names:
        if name in LABEL_METRICS and yhat is None:
            raise InputError(
                f"metric {name!r} needs yhat=",
                role="yhat",
                rule="missing_argument",
                hint="pass the predicted-class column",
            )
        if name in SCORE_DEFAULT and score is None:
            raise InputError(
                f"metric {name!r} needs score=",
                role="score",
                rule="missing_argument",
                hint="pass the score/probability column",
            )
    data, scores = expand_list_scores(data, score, labels)
    if boot and not isinstance(scores, str | None) and any(n in SCORE_DEFAULT for n in names):
        raise InputError(
            "bootstrap intervals take one binary score column, not per-class scores",
            role="score",
            rule="score_labels",
            hint="pass metrics= with label metrics only, or one score column of pos_label",
        )
    binary_score = isinstance(scores, str) and any(n in SCORE_DEFAULT for n in names)
    # binary label metrics on eager data check pos_label against the classes found (after
    # the multiclass check, in scikit-learn's order); lazy data and scores check its kind
    # on the schema, before any comparison runs
    binary_labels = average == "binary" and any(n in AVERAGED for n in names)
    uses_pos = binary_score or (binary_labels and not isinstance(data, pl.DataFrame))
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        score=scores,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        nonfinite=nonfinite,
        classes=False,
        probability=any(n in ("log_loss", "brier") for n in names),
        pos_label=pos_label if uses_pos else NOT_GIVEN,
        pos_in_y=binary_score,
        outputs=[*names, "n_excluded", *COUNTS_COLUMNS, *_shift.outputs(target)],
    )
    if isinstance(scores, dict):
        check_score_classes(prep, scores, y)
        if any(n in ("log_loss", "brier") for n in names):
            check_proba_sums(prep, scores)
    # prevalence=: every metric on the rows re-weighted to the target; label metrics
    # re-weight their (by, y, yhat) counts, score metrics the rows
    context, rows, row_weight = None, prep, weight
    if target is not None:
        check_prevalence(prep, y, target)
        if any(n in SCORE_DEFAULT for n in names):
            rows, row_weight, context = _shift.shift_frame(prep, y, target, pos_label, weight)
    by_cols = prep.by
    label_names = [n for n in names if n in LABEL_METRICS or n == "support"]
    opts = {
        "average": average,
        "pos_label": pos_label,
        "labels": labels,
        "zero_division": zero_division,
        "weight": N,
        "beta": beta,
        "kappa_weights": kappa_weights,
        "adjusted": adjusted,
        "multi_class": multi_class,
        "max_fpr": max_fpr,
        "score_average": "macro" if average == "binary" else average,
    }
    parts: list[pl.LazyFrame] = []
    boots: list[pl.LazyFrame] = []  # replicates of the label and of the score metrics
    score_names = [n for n in names if n in SCORE_DEFAULT]
    if label_names:
        assert yhat is not None
        prep, pairs, yhat = pairs_of(prep, y, yhat, weight, labels)
        if target is not None:
            pairs, context = _shift.shift_pairs(pairs, prep, y, target, pos_label)
        if any(n in AVERAGED for n in label_names):
            _check_binary(prep, y, average, pos_label, labels)
        if boot:
            boots.append(_label_boot(prep, pairs, y, yhat, label_names, opts, n_boot, seed))
        if average is None:
            out = per_class(pairs, prep.by, y, yhat, label_names, opts)
            if boot:
                return _finish_boot(prep, out, boots, [*by_cols, "label"], label_names, level)
            return prep.finish(with_excluded(_shown(out, context, prep.by), prep))
        parts += label_parts(pairs, by_cols, y, yhat, label_names, opts)
    if boot and score_names:
        assert isinstance(scores, str)
        cells = _bootstrap.score_cells(prep, y, scores, pos_label, weight)
        keys = [*by_cols, S, POS]

        def scored(c: pl.LazyFrame, r: pl.LazyFrame) -> pl.LazyFrame:
            reps = _bootstrap.replicate_counts(c, r, seed, keys)
            return _bootstrap.score_replicates(reps, by_cols, score_names, max_fpr)

        boots.append(_bootstrap.run(cells, n_boot, scored, prep.eager))
    if replicates:
        return _finish_boot(prep, None, boots, by_cols, names, None)
    ranked = [n for n in score_names if n in RANKED] if isinstance(scores, str) else []
    part = _ranked_part(rows, y, scores, ranked, pos_label, row_weight, max_fpr) if ranked else None
    if part is not None:
        parts.append(part)
    expressed = [n for n in score_names if n not in ranked or part is None]
    plan = _sort_plan(prep, rows.frame, row_weight, expressed) if expressed else "lists"
    score_average = opts["score_average"]
    multiclass = not isinstance(scores, str)
    whole = whole_names(expressed, multiclass, score_average, opts["multi_class"], max_fpr)
    if plan == "whole" and whole:  # each class sorted once, searched in NumPy
        parts.append(whole_scores(rows.frame, y, scores, pos_label, whole, labels, score_average))
        expressed = [n for n in expressed if n not in whole]
    if expressed:
        sopts = {**opts, "weight": row_weight}
        with _score.sort_plan(plan):
            exprs = [_score_metric(n, y, scores, sopts) for n in expressed]
        scored = group_eval(rows.frame, by_cols, exprs)
        if prep.eager and any(n in RANKED for n in expressed):
            # DataFrame.select's engine: the sorts ran 10% (grouped) to 65% (one-vs-rest)
            # slower under "auto"
            scored = scored.collect(engine="in-memory").lazy()
        parts.append(scored)
    out = parts[0]
    for part in parts[1:]:
        out = join_by(out, part, by_cols)
    out = out.select(*by_cols, *names)
    if by_cols:
        out = out.sort(by_cols, nulls_last=True)
    if boot:
        return _finish_boot(prep, out, boots, by_cols, names, level)
    return prep.finish(with_excluded(_shown(out, context, by_cols), prep))


def _shown(out: pl.LazyFrame, context: pl.LazyFrame | None, by: list[str]) -> pl.LazyFrame:
    """With a target prevalence: null values where the group cannot be re-weighted, and the
    measured and target prevalence after the group columns (and ``label``)."""
    if context is None:
        return out
    return _shift.finish(out, context, by, keep=["label"])


def _label_boot(
    prep: Prepared,
    pairs: pl.LazyFrame,
    y: str,
    yhat: str,
    names: list[str],
    opts: dict[str, Any],
    n_boot: int,
    seed: int,
) -> pl.LazyFrame:
    """The label metrics of every replicate: ``(by..., __clf_rep, [label,] names...)``."""
    cells = _bootstrap.label_cells(prep, pairs, [y, yhat])
    keys = [*prep.by, y, yhat]

    def labelled(c: pl.LazyFrame, r: pl.LazyFrame) -> pl.LazyFrame:
        reps = _bootstrap.replicate_counts(c, r, seed, keys)
        return label_replicates(reps, prep.by, y, yhat, names, opts)

    return _bootstrap.run(cells, n_boot, labelled, prep.eager)


def _finish_boot(
    prep: Prepared,
    out: pl.LazyFrame | None,
    boots: list[pl.LazyFrame],
    keys: list[str],
    names: list[str],
    level: float | None,
) -> Frame:
    """The replicates (``out`` None) or ``out`` with intervals from them."""
    reps = boots[0]
    for part in boots[1:]:
        reps = reps.join(part, on=[*prep.by, REP], how="inner", nulls_equal=True)
    if out is None:
        columns = [*prep.by, pl.col(REP).alias(_bootstrap.REPLICATE), *names]
        return prep.finish(
            reps.select(columns).sort([*prep.by, _bootstrap.REPLICATE], nulls_last=True)
        )
    assert level is not None
    shown = [n for n in names if n != "support"]
    ints = _bootstrap.intervals(reps, keys, shown, level)
    joined = out.join(
        ints,
        on=keys or None,
        how="left" if keys else "cross",
        nulls_equal=True,
        maintain_order="left",
    )
    order = [
        c
        for name in out.collect_schema().names()
        for c in ((name, f"{name}_lo", f"{name}_hi") if name in shown else (name,))
    ]
    joined = joined.select(*order, *[f"{n}_n_undefined" for n in shown])
    return prep.finish(with_excluded(joined, prep))


def _sort_plan(
    prep: Prepared, frame: pl.LazyFrame, weight: str | None, names: list[str]
) -> _score.SortPlan:
    """The plan of the unweighted AUROC/AP expressions (:func:`clfeval._score.sort_plan`):
    a whole eager column sorts as a column, many small eager groups rank."""
    if not prep.eager or weight is not None or not set(RANKED) & set(names):
        return "lists"
    if not prep.by:
        return "whole"
    return "rank" if _score.small_groups(frame, prep.by) else "lists"


def _ranked_part(
    prep: Prepared,
    y: str,
    score: str,
    names: list[str],
    pos_label: Any,
    weight: str | None,
    max_fpr: float | None,
) -> pl.LazyFrame | None:
    """Binary AUROC and average precision per group from the threshold counts, or None
    where the expressions are faster: mostly distinct scores, in groups (a sort per group
    inside ``agg`` beats one sort by group and score with windows over 10,000 groups) or
    eager and unweighted (two value sorts, one per class, beat one sort of the rows; a
    LazyFrame keeps the row sort, whose memory stays about twice the scored columns).

    The counts come from one group-by over distinct scores or one sort, whichever the data
    suits (:func:`clfeval._curves.choose_plan`). Zero-weight rows stay in, so a group whose
    weights are all 0 gets a null.
    """
    from clfeval import _curves

    long = _curves.binary_long(prep, y, score, pos_label, weight)
    plan = _curves.PLAN if _curves.PLAN != "auto" else _curves.choose_plan(prep, long)
    partial = "auroc" in names and max_fpr is not None and max_fpr != 1
    plain = prep.eager and weight is None and not partial  # lazy input keeps the sort's memory
    if plan == "sort" and _curves.PLAN == "auto" and (prep.by or plain):
        return None
    table = _curves.counts_frame(
        long, prep.by, weight is not None, plan, drop_zero=False, totals=False
    )
    tps, fps = pl.col(_curves.TP).cast(pl.Float64), pl.col(_curves.FP).cast(pl.Float64)
    stats = {"auroc": _score.auroc_stat(max_fpr), "average_precision": _score.ap_stat}
    return group_eval(table, prep.by, [stats[n](tps, fps).alias(n) for n in names])


def label_parts(
    pairs: pl.LazyFrame, by: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> list[pl.LazyFrame]:
    """Label metrics per group: from the counts of every class, of the listed classes (the
    averaged ratios under ``labels=``), and from the pairs themselves (kappa)."""
    labels = opts["labels"]
    every = counts_from_pairs(pairs, by, y, yhat, None)
    listed_names = [
        n for n in names if n in AVERAGED and labels is not None and opts["average"] != "binary"
    ]
    pair_names = [n for n in names if n == "cohen_kappa"]
    every_names = [n for n in names if n not in listed_names and n not in pair_names]
    parts = []
    if every_names:
        parts.append(group_eval(every, by, [_from_counts(n, opts).alias(n) for n in every_names]))
    if listed_names:
        listed = counts_from_pairs(pairs, by, y, yhat, labels)
        parts.append(group_eval(listed, by, [_from_counts(n, opts).alias(n) for n in listed_names]))
    if pair_names:
        parts.append(group_eval(pairs, by, [_label_metric(n, y, yhat, opts) for n in pair_names]))
    return parts


def with_excluded(out: pl.LazyFrame, prep: Prepared) -> pl.LazyFrame:
    if prep.n_excluded is None:
        return out
    if not prep.by:
        return out.with_columns(
            pl.lit(prep.n_excluded.item(), pl.Int64).alias("n_excluded")
        ).select("n_excluded", pl.exclude("n_excluded"))
    joined = out.join(
        prep.n_excluded.lazy(), on=prep.by, how="left", nulls_equal=True, maintain_order="left"
    )
    return joined.select(*prep.by, "n_excluded", pl.exclude([*prep.by, "n_excluded"]))


def per_class(
    pairs: pl.LazyFrame, by: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> pl.LazyFrame:
    """``average=None``: by..., label, then the per-class metrics (support from the counts)."""
    counts = counts_from_pairs(pairs, by, y, yhat, opts["labels"])
    c, z = ovr_from_counts(), opts["zero_division"]
    exprs = [
        pl.col("support") if name == "support" else _ratio(name, opts["beta"])(c, z).alias(name)
        for name in names
    ]
    return counts.select(*by, "label", *exprs)


def label_replicates(
    reps: pl.LazyFrame, by: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> pl.LazyFrame:
    """``(*by, __clf_rep, [label,] *names)``: the label metrics of every replicate."""
    keys = [*by, REP]
    if opts["average"] == "binary" and all(_metrics.METRICS[m].binary is not None for m in names):
        return _bootstrap.binary_replicates(reps, keys, y, yhat, names, opts)
    if opts["average"] is None:
        return per_class(reps, keys, y, yhat, names, opts)
    parts = label_parts(reps, keys, y, yhat, names, opts)
    out = parts[0]
    for part in parts[1:]:
        out = join_by(out, part, keys)
    return out.select(*keys, *names)
