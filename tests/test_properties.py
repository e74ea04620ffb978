"""Hypothesis invariances of the label metrics (reliability.md §8).

P1 row order, P2 eager == lazy == streaming, P4 grouped == per group (null key included),
P5 integer weights == repeated rows, zero weight == removed row, scaled weights, P6 label
renaming (int → String → Enum with pos_label/labels mapped), P8 symmetries (micro-F1 ==
accuracy, precision(y, ŷ) == recall(ŷ, y), …), P12 averaging consistency, P13 bounds.

Every property evaluates one wide ``select`` of all label metrics (``metric_exprs``), so one
drawn frame checks every metric at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import (
    LABEL_TEXT,
    LabelCase,
    label_cases,
    pyvalue,
    same,
    select,
)

import clfeval as ce

RATIO_FUNCTIONS = {
    "precision": ce.precision,
    "recall": ce.recall,
    "f1": ce.f1,
    "specificity": ce.specificity,
    "npv": ce.npv,
    "fpr": ce.fpr,
    "fnr": ce.fnr,
    "jaccard": ce.jaccard,
}
AVERAGES = ("micro", "macro", "weighted", None)
# metrics whose value does not depend on the class order
ORDER_FREE_PREFIXES = ("accuracy", "balanced", "mcc", "kappa_plain")
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def metric_exprs(
    *,
    averages: tuple[str | None, ...] = AVERAGES,
    labels: list[Any] | None = None,
    pos_label: Any = None,
    weight: str | pl.Expr | None = None,
    zero_division: float | None = 0.0,
    functions: tuple[str, ...] = tuple(RATIO_FUNCTIONS),
    y: str = "y",
    yhat: str = "yhat",
) -> list[pl.Expr]:
    """The scalar label metrics, and each ratio under each of ``averages`` (plus binary and
    prevalence when ``pos_label`` is given)."""
    w = weight
    exprs: dict[str, pl.Expr] = {
        "accuracy": ce.accuracy(y, yhat, weight=w),
        "balanced": ce.balanced_accuracy(y, yhat, weight=w),
        "balanced_adjusted": ce.balanced_accuracy(y, yhat, adjusted=True, weight=w),
        "mcc": ce.mcc(y, yhat, weight=w),
        "kappa_plain": ce.cohen_kappa(y, yhat, labels=labels, weight=w),
        "kappa_linear": ce.cohen_kappa(y, yhat, weights="linear", labels=labels, weight=w),
        "kappa_quadratic": ce.cohen_kappa(y, yhat, weights="quadratic", labels=labels, weight=w),
    }
    kw: dict[str, Any] = {"labels": labels, "zero_division": zero_division, "weight": w}
    for name in functions:
        fn = RATIO_FUNCTIONS[name]
        for average in averages:
            exprs[f"{name}_{average}"] = fn(y, yhat, average=average, **kw)
        if pos_label is not None:
            exprs[f"{name}_binary"] = fn(
                y, yhat, pos_label=pos_label, zero_division=zero_division, weight=w
            )
    for average in averages:
        exprs[f"fbeta_{average}"] = ce.fbeta(y, yhat, beta=0.5, average=average, **kw)
    if pos_label is not None:
        exprs["prevalence"] = ce.prevalence(y, pos_label=pos_label, weight=w)
    return [e.alias(k) for k, e in exprs.items()]


# one average per drawn frame keeps the plans small (each averaged ratio is a large expression)
ONE_AVERAGE = st.sampled_from(AVERAGES).map(lambda a: (a,))


def evaluate(df: pl.DataFrame, exprs: list[pl.Expr], engine: str = "eager") -> dict[str, Any]:
    return {k: pyvalue(v) for k, v in select(df, exprs, engine).row(0, named=True).items()}


def assert_all_same(
    a: dict[str, Any], b: dict[str, Any], context: Any = "", tol: float = 1e-9
) -> None:
    assert a.keys() == b.keys()
    bad = {k: (a[k], b[k]) for k in a if not same(a[k], b[k], tol)}
    assert not bad, f"{context}: {bad}"


def all_classes(case: LabelCase) -> list[Any]:
    return list(case.classes)


def pos_of(case: LabelCase) -> Any:
    """A positive class for the binary metrics: the last class, when at most two occur."""
    return case.classes[-1] if len(case.present) <= 2 else None


# --- P1, P2 -------------------------------------------------------------------------------------


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(), seed=st.integers(0, 2**32 - 1), averages=ONE_AVERAGE)
def test_row_order_invariance(case: LabelCase, seed: int, averages: tuple) -> None:
    """P1: shuffling the rows changes no metric and no count."""
    shuffled = case.df.sample(fraction=1.0, shuffle=True, seed=seed)
    exprs = metric_exprs(averages=averages, pos_label=pos_of(case), weight=case.w)
    assert_all_same(evaluate(case.df, exprs), evaluate(shuffled, exprs), "shuffle")
    a = ce.counts(case.df, "y", "yhat", weight=case.w)
    b = ce.counts(shuffled, "y", "yhat", weight=case.w)
    assert a.equals(b)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(), averages=ONE_AVERAGE)
def test_eager_equals_streaming_on_chunks(case: LabelCase, averages: tuple) -> None:
    """P2: the same expressions on a multi-chunk LazyFrame with the streaming engine give the
    eager numbers. (One ratio family, few examples: lazy plans of these expressions take
    seconds to build. test_label.py checks every metric on LazyFrames, in memory and
    streaming, against scikit-learn.)"""
    engine = "streaming"
    exprs = metric_exprs(
        averages=averages, pos_label=pos_of(case), weight=case.w, functions=("jaccard",)
    )
    eager = evaluate(case.df, exprs)
    half = case.df.height // 2
    chunked = pl.concat([case.df.slice(0, half), case.df.slice(half)], rechunk=False)
    assert chunked.n_chunks() == (2 if 0 < half < case.df.height else 1)
    assert_all_same(eager, evaluate(chunked, exprs, engine), engine)


# --- P4 -------------------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(group=True), averages=ONE_AVERAGE)
def test_grouped_equals_per_group(case: LabelCase, averages: tuple) -> None:
    """P4: ``group_by("g").agg(metric)`` for key k equals the metric on ``filter(g == k)``;
    the keys are the distinct keys, null included; ``.over("g")`` broadcasts the same."""
    exprs = metric_exprs(averages=averages, weight=case.w, labels=all_classes(case))
    grouped = case.df.group_by("g").agg(exprs)
    keys = set(case.group or ())
    assert set(grouped["g"].to_list()) == keys
    over = case.df.with_columns([e.over("g") for e in exprs[:7]])
    for key in keys:
        part = case.df.filter(pl.col("g").eq_missing(key))
        alone = evaluate(part, exprs)
        row = grouped.filter(pl.col("g").eq_missing(key)).drop("g").row(0, named=True)
        assert_all_same({k: pyvalue(v) for k, v in row.items()}, alone, ("group", key))
        first = over.filter(pl.col("g").eq_missing(key)).row(0, named=True)
        assert_all_same(
            {k: first[k] for k in list(alone)[:7]},
            {k: alone[k] for k in list(alone)[:7]},
            ("over", key),
        )


def test_constant_group_is_the_ungrouped_result() -> None:
    df = pl.DataFrame({"y": [0, 1, 2, 2, 1], "yhat": [0, 2, 2, 1, 1], "g": ["x"] * 5})
    exprs = metric_exprs(labels=[0, 1, 2])
    grouped = df.group_by("g").agg(exprs).drop("g").row(0, named=True)
    assert_all_same({k: pyvalue(v) for k, v in grouped.items()}, evaluate(df, exprs))


# --- P5 -------------------------------------------------------------------------------------------


def repeated(case: LabelCase) -> pl.DataFrame:
    """Each row repeated ``w`` times (rows with w == 0 dropped), without the weight column."""
    assert case.weight is not None
    idx = [i for i, w in enumerate(case.weight) for _ in range(w)]
    return case.df[idx].drop("w")


@SETTINGS
@given(case=label_cases(weights=True), averages=ONE_AVERAGE)
def test_integer_weights_equal_repeated_rows(case: LabelCase, averages: tuple) -> None:
    """P5b: integer weights give the numbers of the rows repeated that many times (with the
    class list fixed, since a class seen only in zero-weight rows is still a class)."""
    labels = all_classes(case)
    pos = pos_of(case)
    weighted = evaluate(
        case.df, metric_exprs(averages=averages, labels=labels, pos_label=pos, weight="w")
    )
    plain = evaluate(repeated(case), metric_exprs(averages=averages, labels=labels, pos_label=pos))
    assert_all_same(weighted, plain, "weights vs repetition")
    counts_w = ce.counts(case.df, "y", "yhat", labels=labels, weight="w")
    counts_r = ce.counts(repeated(case), "y", "yhat", labels=labels)
    assert counts_w.equals(counts_r.with_columns(pl.exclude("label").cast(pl.Float64)))


@SETTINGS
@given(case=label_cases(weights=False, min_size=2), data=st.data(), averages=ONE_AVERAGE)
def test_zero_weight_equals_removed_row(
    case: LabelCase, data: st.DataObject, averages: tuple
) -> None:
    """P5c: weight 0 on some rows equals removing them; P5a: weight 1 equals no weight."""
    n = case.df.height
    drop = data.draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda m: not all(m)))
    labels = all_classes(case)
    pos = pos_of(case)
    df = case.df.with_columns(pl.Series("w", [0 if d else 1 for d in drop]))
    exprs_w = metric_exprs(averages=averages, labels=labels, pos_label=pos, weight="w")
    exprs = metric_exprs(averages=averages, labels=labels, pos_label=pos)
    kept = df.filter(pl.col("w") == 1)
    assert_all_same(evaluate(df, exprs_w), evaluate(kept, exprs), "zero weight")
    ones = case.df.with_columns(pl.lit(1).alias("w"))
    assert_all_same(evaluate(ones, exprs_w), evaluate(case.df, exprs), "unit weight")


@SETTINGS
@given(
    case=label_cases(weights=True), scale=st.sampled_from([2.0, 0.3, 1e-3]), averages=ONE_AVERAGE
)
def test_scaling_weights_changes_no_ratio(case: LabelCase, scale: float, averages: tuple) -> None:
    """P5d: multiplying every weight by a constant leaves every metric unchanged."""
    exprs = metric_exprs(averages=averages, pos_label=pos_of(case), weight="w")
    scaled = case.df.with_columns(pl.col("w") * scale)
    assert_all_same(evaluate(case.df, exprs), evaluate(scaled, exprs), scale, tol=1e-7)


# --- P6 -------------------------------------------------------------------------------------------


@SETTINGS
@given(
    case=label_cases(kinds=("int",)),
    names=st.lists(LABEL_TEXT, min_size=8, max_size=8, unique=True),
    averages=ONE_AVERAGE,
    reverse=st.booleans(),
)
def test_label_renaming_invariance(
    case: LabelCase, names: list[str], averages: tuple, reverse: bool
) -> None:
    """P6: renaming the classes (int → String → Enum), with pos_label and labels mapped, gives
    the same metrics. An Enum whose categories follow the int order gives identical results,
    per-class lists included; String labels (sorted differently) give the same order-free
    metrics and the same per-class values for an explicit ``labels`` order."""
    rename = dict(zip(case.classes, names))
    as_str = case.df.with_columns(
        pl.col("y", "yhat").cast(pl.Int64).replace_strict(rename, return_dtype=pl.String)
    )
    enum = pl.Enum([rename[c] for c in case.classes])
    as_enum = as_str.with_columns(pl.col("y", "yhat").cast(enum))
    pos = pos_of(case)
    for labels in [all_classes(case)[::-1] if reverse else None]:
        base = evaluate(
            case.df, metric_exprs(averages=averages, labels=labels, pos_label=pos, weight=case.w)
        )
        mapped = {
            "averages": averages,
            "labels": None if labels is None else [rename[c] for c in labels],
            "pos_label": None if pos is None else rename[pos],
            "weight": case.w,
        }
        assert_all_same(base, evaluate(as_enum, metric_exprs(**mapped)), ("enum", labels))
        strings = evaluate(as_str, metric_exprs(**mapped))
        if labels is not None:  # an explicit order: everything matches
            assert_all_same(base, strings, ("string", labels))
        else:
            order_free = {
                k: v
                for k, v in base.items()
                if not isinstance(v, list)
                and not k.startswith("kappa_l")
                and not k.startswith("kappa_q")
            }
            assert_all_same(order_free, {k: strings[k] for k in order_free}, "string")


# --- P8, P12, P13 ---------------------------------------------------------------------------------


@SETTINGS
@given(case=label_cases(), zd=st.sampled_from([0.0, 1.0, None]))
def test_symmetries(case: LabelCase, zd: float | None) -> None:
    """P8: micro precision = recall = F1 = accuracy (single-label data); precision(y, ŷ) ==
    recall(ŷ, y) and specificity(y, ŷ) == npv(ŷ, y) per class; accuracy, MCC, kappa, F1 and
    Jaccard are symmetric in (y, ŷ)."""
    labels = all_classes(case)
    kw: dict[str, Any] = {
        "averages": (None, "macro", "micro"),
        "labels": labels,
        "pos_label": pos_of(case),
        "zero_division": zd,
        "weight": case.w,
        "functions": ("precision", "recall", "f1", "specificity", "npv", "jaccard"),
    }
    fwd = evaluate(case.df, metric_exprs(**kw))
    swapped = case.df.rename({"y": "yhat", "yhat": "y"})
    bwd = evaluate(swapped, metric_exprs(**kw))
    acc = fwd["accuracy"]
    for name in ("precision_micro", "recall_micro", "f1_micro"):
        assert same(fwd[name], acc), (name, fwd[name], acc)
    for a, b in (("precision", "recall"), ("specificity", "npv")):
        for average in (None, "macro", "micro"):
            assert same(fwd[f"{a}_{average}"], bwd[f"{b}_{average}"]), (a, b, average)
        if "precision_binary" in fwd:
            assert same(fwd[f"{a}_binary"], bwd[f"{b}_binary"]), (a, b, "binary")
    symmetric = [
        "accuracy",
        "mcc",
        "kappa_plain",
        "kappa_linear",
        "kappa_quadratic",
        "f1_None",
        "f1_macro",
        "jaccard_None",
        "jaccard_macro",
    ]
    for name in symmetric:
        assert same(fwd[name], bwd[name]), (name, fwd[name], bwd[name])


@SETTINGS
@given(case=label_cases(), zd=st.sampled_from([0.0, 1.0, None]))
def test_averages_are_means_of_the_per_class_values(case: LabelCase, zd: float | None) -> None:
    """P12: macro is the mean of the per-class values (nulls left out); weighted is their
    support-weighted mean (nulls left out; all-zero support falls back to the plain mean)."""
    out = evaluate(
        case.df, metric_exprs(averages=(None, "macro", "weighted"), zero_division=zd, weight=case.w)
    )
    support = ce.counts(case.df, "y", "yhat", weight=case.w)["support"].cast(pl.Float64)
    for name in RATIO_FUNCTIONS:
        values = out[f"{name}_None"]
        assert len(values) == len(case.present)
        kept = [(v, s) for v, s in zip(values, support.to_list()) if v is not None]
        macro = None if not kept else float(np.mean([v for v, _ in kept]))
        assert same(out[f"{name}_macro"], np.nan if macro is None else macro), name
        if not kept:
            weighted = np.nan
        elif sum(s for _, s in kept) == 0:
            weighted = macro
        else:
            weighted = float(np.average([v for v, _ in kept], weights=[s for _, s in kept]))
        assert same(out[f"{name}_weighted"], weighted), (name, out[f"{name}_weighted"], weighted)


@SETTINGS
@given(case=label_cases(), zd=st.sampled_from([0.0, 1.0, None]), averages=ONE_AVERAGE)
def test_bounds_and_totals(case: LabelCase, zd: float | None, averages: tuple) -> None:
    """P13: ratios in [0, 1], MCC and kappa in [-1, 1], adjusted balanced accuracy <= 1;
    never NaN; the confusion matrix sums to n (or the total weight) and its rows to the
    supports; normalize='true' rows sum to 1 (0 for an empty row)."""
    out = evaluate(
        case.df,
        metric_exprs(averages=averages, pos_label=pos_of(case), zero_division=zd, weight=case.w),
    )
    for name, value in out.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if v is None:
                continue
            assert not np.isnan(v), name
            if name == "balanced_adjusted":  # (score - 1/k) / (1 - 1/k) can go below -1
                low = -np.inf
            elif name.startswith(("mcc", "kappa")):
                low = -1.0
            else:
                low = 0.0
            assert low - 1e-12 <= v <= 1.0 + 1e-12, (name, v)
    total = float(sum(case.weight)) if case.weight is not None else float(case.df.height)
    cm = ce.confusion_matrix(case.df, "y", "yhat", weight=case.w)
    assert abs(float(cm["count"].sum()) - total) < 1e-9
    counts = ce.counts(case.df, "y", "yhat", weight=case.w)
    rows = cm.group_by("actual", maintain_order=True).agg(pl.col("count").sum())
    assert rows["count"].cast(pl.Float64).to_list() == counts["support"].cast(pl.Float64).to_list()
    norm = ce.confusion_matrix(case.df, "y", "yhat", weight=case.w, normalize="true")
    sums = norm.group_by("actual", maintain_order=True).agg(pl.col("value").sum())["value"]
    for s, sup in zip(sums.to_list(), counts["support"].to_list()):
        assert abs(s - (1.0 if sup > 0 else 0.0)) < 1e-9
    assert_counts_consistent(counts, total)


def assert_counts_consistent(counts: pl.DataFrame, total: float) -> None:
    """tp + fp + fn + tn is the total for every class; support = tp + fn."""
    rows = counts.select(
        (pl.col("tp") + pl.col("fp") + pl.col("fn") + pl.col("tn")).cast(pl.Float64),
        (pl.col("tp") + pl.col("fn") - pl.col("support")).cast(pl.Float64).alias("d"),
    )
    assert all(abs(v - total) < 1e-9 for v in rows.to_series(0).to_list())
    assert all(d == 0 for d in rows["d"].to_list())


@SETTINGS
@given(case=label_cases(all_present=True), average=st.sampled_from(["micro", "macro", "weighted"]))
def test_metrics_frame_equals_expressions(case: LabelCase, average: str) -> None:
    """The frame function (computed from the grouped counts) equals the expressions on the raw
    rows for every averaged metric."""
    assume(case.weight is None or any(case.weight))
    names = [
        "accuracy",
        "balanced_accuracy",
        "precision",
        "recall",
        "f1",
        "mcc",
        "cohen_kappa",
        "specificity",
        "npv",
        "fpr",
        "fnr",
        "jaccard",
    ]
    frame = ce.metrics(case.df, "y", "yhat", metrics=names, average=average, weight=case.w).row(
        0, named=True
    )
    exprs = {
        "accuracy": ce.accuracy("y", "yhat", weight=case.w),
        "balanced_accuracy": ce.balanced_accuracy("y", "yhat", weight=case.w),
        "mcc": ce.mcc("y", "yhat", weight=case.w),
        "cohen_kappa": ce.cohen_kappa("y", "yhat", weight=case.w),
        **{
            n: RATIO_FUNCTIONS[n]("y", "yhat", average=average, weight=case.w)
            for n in names
            if n in RATIO_FUNCTIONS
        },
    }
    direct = evaluate(case.df, [e.alias(k) for k, e in exprs.items()])
    assert_all_same({k: frame[k] for k in names}, {k: direct[k] for k in names}, average)


# --- the shared strategy itself ------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(case=label_cases(group=True, scores=True))
def test_label_cases_strategy_contract(case: LabelCase) -> None:
    """``strategies.label_cases``: values match the class indices in clfeval's class order,
    weights are integers 0–5 (not all 0), ``score`` and ``p_i`` lie on the k/8 grid and each
    ``p`` row sums to 1 (tests of other modules rely on this)."""
    k = len(case.classes)
    assert 2 <= k <= 8
    assert case.df["y"].to_list() == [case.value(i) for i in case.y]
    assert case.df["yhat"].to_list() == [case.value(i) for i in case.yhat]
    order = ce.counts(case.df, "y", "yhat", weight=None)["label"].to_list()
    assert order == case.values(case.present)  # clfeval sorts classes as the strategy says
    if case.weight is not None:
        assert all(0 <= w <= 5 for w in case.weight)
        assert any(case.weight)
    assert case.df.schema["g"] == pl.String
    probs = case.df.select([f"p_{i}" for i in range(k)])
    assert (probs.sum_horizontal() == 1.0).all()
    for column in ["score", *probs.columns]:
        grid = case.df[column] * 8
        assert (grid == grid.round(0)).all()
        assert case.df[column].is_between(0.0, 1.0).all()
