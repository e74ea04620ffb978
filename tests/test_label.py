"""Label metric expressions (``clfeval._label``) against scikit-learn, through a registry.

``REGISTRY`` pairs each clfeval expression with its scikit-learn reference and says which
arguments it takes, like scikit-learn's ``sklearn/metrics/tests/test_common.py``. Argument
mapping: ``weight="w"`` ↔ ``sample_weight``, ``zero_division=None`` ↔ ``np.nan`` (and a null
result ↔ NaN), ``labels``/``pos_label`` ↔ the same classes. scikit-learn is fed class indices
whose sorted order is clfeval's class order (see ``strategies.LabelCase``), so the per-class
order of ``average=None`` is checked too, for Enum labels as well.

specificity, npv, fpr and fnr have no scikit-learn function: their reference applies the
formula to scikit-learn's ``multilabel_confusion_matrix`` and averages like
``precision_recall_fscore_support`` (``test_ovr_reference_reproduces_sklearn`` shows that
this reference gives scikit-learn's precision, recall, F and Jaccard).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from strategies import (
    ENGINES,
    LabelCase,
    assert_same,
    label_cases,
    labels_option,
    pyvalue,
    run,
    select,
    sk,
    to_sklearn,
)

import clfeval as ce
from clfeval import InputError

# --- the reference for one-vs-rest ratios ------------------------------------------------------

FORMULAS: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "precision": lambda tp, fp, fn, tn, b2: (tp, tp + fp),
    "recall": lambda tp, fp, fn, tn, b2: (tp, tp + fn),
    "fbeta": lambda tp, fp, fn, tn, b2: ((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
    "jaccard": lambda tp, fp, fn, tn, b2: (tp, tp + fp + fn),
    "specificity": lambda tp, fp, fn, tn, b2: (tn, tn + fp),
    "npv": lambda tp, fp, fn, tn, b2: (tn, tn + fn),
    "fpr": lambda tp, fp, fn, tn, b2: (fp, fp + tn),
    "fnr": lambda tp, fp, fn, tn, b2: (fn, fn + tp),
}


def nanaverage(values: np.ndarray, weights: np.ndarray | None) -> float:
    """scikit-learn's ``_nanaverage``: NaN left out; all-zero weights give the plain mean."""
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    values = values[keep]
    if weights is None or weights[keep].sum() == 0:
        return float(values.mean())
    return float(np.average(values, weights=weights[keep]))


def ovr_reference(
    name: str,
    y: np.ndarray,
    yhat: np.ndarray,
    *,
    average: str | None = "binary",
    pos_label: Any = 1,
    labels: list[Any] | None = None,
    zero_division: float = 0.0,
    sample_weight: np.ndarray | None = None,
    beta: float = 1.0,
) -> Any:
    """A one-vs-rest ratio from scikit-learn's ``multilabel_confusion_matrix``, averaged as
    ``precision_recall_fscore_support`` averages (NaN left out of macro/weighted means)."""
    mcm = sk(
        skm.multilabel_confusion_matrix,
        y,
        yhat,
        sample_weight=sample_weight,
        labels=[pos_label] if average == "binary" else labels,
    ).astype(float)
    tn, fp, fn, tp = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]
    if average == "micro":
        tn, fp, fn, tp = (np.array([a.sum()]) for a in (tn, fp, fn, tp))
    num, den = FORMULAS[name](tp, fp, fn, tn, beta * beta)
    with np.errstate(all="ignore"):
        value = np.where(den == 0, zero_division, num / np.where(den == 0, 1.0, den))
    if average is None:
        return value
    if average in ("binary", "micro"):
        return float(value[0])
    return nanaverage(value, tp + fn if average == "weighted" else None)


# --- the registry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One clfeval metric and its scikit-learn reference.

    ``ours(y, yhat, **kw)`` builds the expression; ``ref(y_true, y_pred, **kw)`` computes the
    number. ``averaging``: takes average/pos_label/labels/zero_division; ``labels``: takes
    ``labels`` alone (kappa). ``fixed`` are extra keyword arguments for both sides.
    """

    name: str
    ours: Callable[..., pl.Expr]
    ref: Callable[..., Any]
    averaging: bool = False
    labels: bool = False
    fixed: dict[str, Any] = field(default_factory=dict)


def _undefined_as_nan(fn: Callable[..., Any]) -> Callable[..., Any]:
    """scikit-learn's adjusted balanced accuracy is -inf with one class in y_true; clfeval
    gives null there by design (SPEC §2: an undefined metric is null), so the reference maps
    a non-finite result to NaN, which ``same`` pairs with null."""

    def ref(*args: Any, **kwargs: Any) -> Any:
        value = fn(*args, **kwargs)
        return float("nan") if not np.isfinite(value) else value

    return ref


def _ratio_ref(name: str, **sk_kw: Any) -> Callable[..., Any]:
    return lambda y, yhat, **kw: ovr_reference(name, y, yhat, **sk_kw, **kw)


REGISTRY: dict[str, Entry] = {
    e.name: e
    for e in [
        Entry("accuracy", ce.accuracy, skm.accuracy_score),
        Entry("balanced_accuracy", ce.balanced_accuracy, skm.balanced_accuracy_score),
        Entry(
            "balanced_accuracy_adjusted",
            ce.balanced_accuracy,
            _undefined_as_nan(skm.balanced_accuracy_score),
            fixed={"adjusted": True},
        ),
        Entry("precision", ce.precision, skm.precision_score, averaging=True),
        Entry("recall", ce.recall, skm.recall_score, averaging=True),
        Entry("f1", ce.f1, skm.f1_score, averaging=True),
        Entry("fbeta_0.5", ce.fbeta, skm.fbeta_score, averaging=True, fixed={"beta": 0.5}),
        Entry("fbeta_2", ce.fbeta, skm.fbeta_score, averaging=True, fixed={"beta": 2.0}),
        # jaccard_score rejects zero_division=np.nan; for None clfeval leaves nulls out of
        # the averages as for every ratio (SPEC §2), which is the _nanaverage reference used
        # here. test_jaccard_matches_sklearn_when_defined covers jaccard_score itself.
        Entry("jaccard", ce.jaccard, _ratio_ref("jaccard"), averaging=True),
        Entry("specificity", ce.specificity, _ratio_ref("specificity"), averaging=True),
        Entry("npv", ce.npv, _ratio_ref("npv"), averaging=True),
        Entry("fpr", ce.fpr, _ratio_ref("fpr"), averaging=True),
        Entry("fnr", ce.fnr, _ratio_ref("fnr"), averaging=True),
        Entry("mcc", ce.mcc, skm.matthews_corrcoef),
        Entry("cohen_kappa", ce.cohen_kappa, skm.cohen_kappa_score, labels=True),
        Entry(
            "cohen_kappa_linear",
            ce.cohen_kappa,
            skm.cohen_kappa_score,
            labels=True,
            fixed={"weights": "linear"},
        ),
        Entry(
            "cohen_kappa_quadratic",
            ce.cohen_kappa,
            skm.cohen_kappa_score,
            labels=True,
            fixed={"weights": "quadratic"},
        ),
    ]
}
AVERAGING = [n for n, e in REGISTRY.items() if e.averaging]
AVERAGES = ["binary", "micro", "macro", "weighted", None]
ZERO_DIVISIONS = [0.0, 1.0, None]


def test_registry_covers_every_label_metric() -> None:
    """Every label metric clfeval exports has a registry entry (prevalence: its own test)."""
    exported = {
        ce.accuracy,
        ce.balanced_accuracy,
        ce.precision,
        ce.recall,
        ce.f1,
        ce.fbeta,
        ce.specificity,
        ce.npv,
        ce.fpr,
        ce.fnr,
        ce.jaccard,
        ce.mcc,
        ce.cohen_kappa,
    }
    assert exported <= {e.ours for e in REGISTRY.values()}
    label_functions = {
        getattr(ce, n)
        for n in ce.__all__
        if getattr(getattr(ce, n), "__module__", None) == "clfeval._label"
    }
    assert label_functions == exported | {ce.prevalence}


# --- drawing one call ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """clfeval keyword arguments (labels as values) and scikit-learn's (labels as indices)."""

    ours: dict[str, Any]
    ref: dict[str, Any]


@st.composite
def calls(draw: st.DrawFn, entry: Entry, **case_kw: Any) -> tuple[LabelCase, Call]:
    """A case and the arguments of one call of ``entry``, mapped for both libraries."""
    average = draw(st.sampled_from(AVERAGES)) if entry.averaging else "n/a"
    binary = average == "binary"
    case = draw(label_cases(max_classes=2 if binary else 8, **case_kw))
    ours: dict[str, Any] = dict(entry.fixed)
    ref: dict[str, Any] = dict(entry.fixed)
    if case.weight is not None:
        ours["weight"] = "w"
        ref["sample_weight"] = case.sample_weight
    if entry.averaging:
        zd = draw(st.sampled_from(ZERO_DIVISIONS))
        ours |= {"average": average, "zero_division": zd}
        ref |= {"average": average, "zero_division": np.nan if zd is None else zd}
        if binary:
            pos = draw(st.sampled_from(range(len(case.classes))))
            ours["pos_label"] = case.value(pos)
            ref["pos_label"] = pos
        else:
            labels = draw(labels_option(case))
            if labels is not None:
                ours["labels"] = case.values(labels)
                ref["labels"] = labels
    elif entry.labels:
        labels = draw(labels_option(case))
        if labels is not None:
            ours["labels"] = case.values(labels)
            ref["labels"] = labels
    return case, Call(ours, ref)


def reference(entry: Entry, case: LabelCase, call: Call) -> Any:
    """scikit-learn's number for ``case`` (its own rows and weights)."""
    y, yhat, w = to_sklearn(case)
    kw = dict(call.ref)
    if w is not None:
        kw["sample_weight"] = w
    return pyvalue(sk(entry.ref, y, yhat, **kw))


def _sk_accepts(entry: Entry, case: LabelCase, call: Call) -> bool:
    """scikit-learn rejects all-zero weights, and its kappa needs a listed label in y_true
    (clfeval's front door: in y or yhat)."""
    if case.weight is not None and not any(case.weight):
        return False
    labels = call.ref.get("labels")
    if entry.name.startswith("cohen_kappa") and labels is not None:
        return any(label in case.y for label in labels)
    return True


# --- parity ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(REGISTRY))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parity_with_sklearn(name: str, data: st.DataObject) -> None:
    """Each metric in ``select`` equals scikit-learn on every label dtype, average and
    zero_division, with and without weights and labels=."""
    entry = REGISTRY[name]
    case, call = data.draw(calls(entry))
    assume(_sk_accepts(entry, case, call))
    expected = reference(entry, case, call)
    out = case.df.select(entry.ours("y", "yhat", **call.ours))
    assert out.dtypes[0] in (pl.Float64, pl.List(pl.Float64))
    assert_same(out.item(), expected, (case.kind, call.ours))


def _per_group_reference(entry: Entry, case: LabelCase, call: Call) -> dict[Any, Any]:
    """scikit-learn on each group's rows (groups scikit-learn rejects are left out)."""
    expected = {}
    for key in set(case.group or ()):
        part = case.rows([g == key for g in case.group or ()])
        if _sk_accepts(entry, part, call):
            expected[key] = reference(entry, part, call)
    return expected


def _check_grouped(
    grouped: pl.DataFrame, case: LabelCase, expected: dict[Any, Any], context: Any
) -> None:
    got = {pyvalue(k): pyvalue(v) for k, v in grouped.iter_rows()}
    assert set(got) == set(case.group or ())  # every key, the null key included
    for key, value in expected.items():
        assert_same(got[key], value, (context, "group", key))


@pytest.mark.parametrize("name", list(REGISTRY))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parity_in_group_by_and_over(name: str, data: st.DataObject) -> None:
    """The expression in ``group_by().agg()`` and ``.over()`` equals scikit-learn on each
    group (a null group key is a group of its own)."""
    entry = REGISTRY[name]
    case, call = data.draw(calls(entry, group=True))
    expr = entry.ours("y", "yhat", **call.ours)
    expected = _per_group_reference(entry, case, call)
    _check_grouped(case.df.group_by("g").agg(expr.alias("m")), case, expected, call.ours)
    over = case.df.with_columns(expr.over("g").alias("m"))
    for key, m in zip(over["g"].to_list(), over["m"].to_list()):
        if key in expected:
            assert_same(m, expected[key], ("over", key, call.ours))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parity_on_lazyframe_and_streaming(data: st.DataObject) -> None:
    """Any registry metric in ``select`` and ``group_by().agg()`` on a LazyFrame, collected
    in memory or with the streaming engine, equals scikit-learn (whole frame, each group).
    One entry and one engine per example: lazy plans of these expressions are slow."""
    entry = REGISTRY[data.draw(st.sampled_from(list(REGISTRY)))]
    engine = data.draw(st.sampled_from(["lazy", "streaming"]))
    case, call = data.draw(calls(entry, group=True))
    assume(_sk_accepts(entry, case, call))
    expr = entry.ours("y", "yhat", **call.ours)
    assert_same(
        select(case.df, expr, engine).item(),
        reference(entry, case, call),
        (engine, entry.name, call.ours),
    )
    grouped = case.df.lazy().group_by("g").agg(expr.alias("m"))
    _check_grouped(
        run(grouped, engine),
        case,
        _per_group_reference(entry, case, call),
        (engine, entry.name, call.ours),
    )


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_ovr_reference_reproduces_sklearn(data: st.DataObject) -> None:
    """The multilabel-confusion-matrix reference gives scikit-learn's own numbers for
    precision, recall, F-beta and Jaccard, so it is a fair reference for the rest."""
    average = data.draw(st.sampled_from(AVERAGES))
    case = data.draw(label_cases(max_classes=2 if average == "binary" else 8))
    zd = data.draw(st.sampled_from([0.0, 1.0, np.nan]))
    y, yhat, w = to_sklearn(case)
    kw: dict[str, Any] = {"average": average, "zero_division": zd, "sample_weight": w}
    if average == "binary":
        kw["pos_label"] = data.draw(st.sampled_from([0, 1]))
    else:
        kw["labels"] = data.draw(labels_option(case))
    checks = [
        ("precision", skm.precision_score, {}),
        ("recall", skm.recall_score, {}),
        ("fbeta", skm.fbeta_score, {"beta": 0.5}),
        ("fbeta", skm.fbeta_score, {"beta": 1.0}),
    ]
    if not np.isnan(zd):  # jaccard_score rejects zero_division=np.nan
        checks.append(("jaccard", skm.jaccard_score, {}))
    for name, fn, extra in checks:
        ours = np.atleast_1d(ovr_reference(name, y, yhat, **kw, **extra))
        theirs = np.atleast_1d(sk(fn, y, yhat, **kw, **extra))
        np.testing.assert_allclose(
            ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True, err_msg=f"{name} {kw}"
        )


@settings(max_examples=30, deadline=None)
@given(case=label_cases(kinds=("int", "str"), max_classes=5), zd=st.sampled_from([0.0, 1.0]))
def test_jaccard_matches_sklearn_when_defined(case: LabelCase, zd: float) -> None:
    """``ce.jaccard`` equals ``jaccard_score`` itself (numeric zero_division), on raw values."""
    y, yhat = np.asarray(case.df["y"].to_list()), np.asarray(case.df["yhat"].to_list())
    for average in ("micro", "macro", "weighted"):
        expected = sk(
            skm.jaccard_score,
            y,
            yhat,
            average=average,
            zero_division=zd,
            sample_weight=case.sample_weight,
        )
        got = case.df.select(
            ce.jaccard("y", "yhat", average=average, zero_division=zd, weight=case.w)
        ).item()
        assert_same(got, expected, average)


@settings(max_examples=30, deadline=None)
@given(case=label_cases(kinds=("int", "str"), max_classes=6))
def test_raw_values_match_sklearn(case: LabelCase) -> None:
    """scikit-learn on the raw label values (not indices) gives the same per-class lists."""
    y, yhat = np.asarray(case.df["y"].to_list()), np.asarray(case.df["yhat"].to_list())
    w = case.sample_weight
    out = case.df.select(
        ce.precision("y", "yhat", average=None, weight=case.w),
        ce.recall("y", "yhat", average=None, weight=case.w),
        ce.f1("y", "yhat", average=None, weight=case.w),
        ce.mcc("y", "yhat", weight=case.w),
        ce.accuracy("y", "yhat", weight=case.w),
    ).row(0)
    p, r, f, _ = sk(
        skm.precision_recall_fscore_support, y, yhat, sample_weight=w, zero_division=0.0
    )
    assert_same(out[0], p)
    assert_same(out[1], r)
    assert_same(out[2], f)
    assert_same(out[3], sk(skm.matthews_corrcoef, y, yhat, sample_weight=w))
    assert_same(out[4], skm.accuracy_score(y, yhat, sample_weight=w))


# --- prevalence --------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_prevalence(data: st.DataObject) -> None:
    """Prevalence is the (weighted) share of actual ``pos_label`` rows."""
    case = data.draw(label_cases())
    pos = data.draw(st.sampled_from(range(len(case.classes))))
    y = np.asarray(case.y)
    expected = np.average(y == pos, weights=case.sample_weight)
    for engine in ENGINES:
        got = select(case.df, ce.prevalence("y", pos_label=case.value(pos), weight=case.w), engine)
        assert got.columns == ["prevalence"]
        assert_same(got.item(), expected, engine)


# --- fixed examples ------------------------------------------------------------------------------


@pytest.mark.parametrize(("zero_division", "expected"), [(0.0, 0.0), (1.0, 1.0), (None, None)])
def test_zero_division_values(zero_division: float | None, expected: float | None) -> None:
    """No predicted positive: precision is ``zero_division``; None gives null, never NaN."""
    df = pl.DataFrame({"y": [0, 1, 1], "yhat": [0, 0, 0]})
    got = df.select(ce.precision("y", "yhat", zero_division=zero_division)).item()
    assert got == expected
    both_undefined = pl.DataFrame({"y": [0, 0, 0], "yhat": [0, 0, 0]})
    assert both_undefined.select(ce.f1("y", "yhat", zero_division=zero_division)).item() == expected


def test_absent_listed_class_in_macro_average() -> None:
    """sklearn's documented example: recall([0,1,1],[0,1,0], labels=[0,1,2], macro) = 0.5 with
    zero_division=0, and 0.75 with NaN/null left out."""
    df = pl.DataFrame({"y": [0, 1, 1], "yhat": [0, 1, 0]})
    recall = lambda z: ce.recall(  # noqa: E731
        "y", "yhat", average="macro", labels=[0, 1, 2], zero_division=z
    )
    assert df.select(recall(0.0)).item() == pytest.approx(0.5, abs=1e-12)
    assert df.select(recall(None)).item() == pytest.approx(0.75, abs=1e-12)
    per_class = df.select(
        ce.recall("y", "yhat", average=None, labels=[2, 1, 0], zero_division=None)
    ).item()
    assert per_class.to_list() == [None, 0.5, 1.0]


def test_average_none_follows_enum_category_order() -> None:
    """An Enum's class order is its category order, not the lexical order."""
    enum = pl.Enum(["zeta", "alpha", "mid"])
    df = pl.DataFrame(
        {"y": ["alpha", "zeta", "zeta", "mid"], "yhat": ["alpha", "zeta", "mid", "mid"]},
        schema={"y": enum, "yhat": enum},
    )
    got = df.select(ce.recall("y", "yhat", average=None)).item().to_list()
    assert got == [0.5, 1.0, 1.0]  # zeta, alpha, mid
    as_str = df.with_columns(pl.col("y", "yhat").cast(pl.String))
    assert as_str.select(ce.recall("y", "yhat", average=None)).item().to_list() == [
        1.0,
        1.0,
        0.5,  # alpha, mid, zeta
    ]


def test_bool_labels_default_pos_label() -> None:
    """Bool labels: pos_label=True (== 1) is the positive class."""
    df = pl.DataFrame({"y": [True, True, False, False], "yhat": [True, False, True, False]})
    got = df.select(
        ce.precision("y", "yhat", pos_label=True),
        ce.recall("y", "yhat"),
        ce.specificity("y", "yhat", pos_label=True),
    ).row(0)
    assert got == (0.5, 0.5, 0.5)


def test_expressions_follow_aggregate_semantics() -> None:
    """A row with a null in y, yhat or weight is left out of every expression."""
    df = pl.DataFrame(
        {
            "y": [0, 1, 1, None, 1, 0, 2],
            "yhat": [0, 1, 0, 1, None, 2, 2],
            "w": [1.0, 2.0, 1.0, 1.0, 1.0, None, 3.0],
        }
    )
    clean = df.drop_nulls()
    exprs = [
        ce.accuracy("y", "yhat", weight="w"),
        ce.balanced_accuracy("y", "yhat", weight="w"),
        ce.f1("y", "yhat", average="macro", weight="w"),
        ce.precision("y", "yhat", average=None, weight="w"),
        ce.mcc("y", "yhat", weight="w"),
        ce.cohen_kappa("y", "yhat", weights="quadratic", weight="w"),
        ce.jaccard("y", "yhat", average="weighted", weight="w"),
    ]
    got, expected = df.select(exprs).row(0), clean.select(exprs).row(0)
    for g, e in zip(got, expected):
        assert_same(g, e)
    y, yhat, w = (clean[c].to_numpy() for c in ("y", "yhat", "w"))
    assert_same(got[0], skm.accuracy_score(y, yhat, sample_weight=w))
    assert_same(got[5], skm.cohen_kappa_score(y, yhat, weights="quadratic", sample_weight=w))
    # prevalence reads y and weight only: a row with a null yhat still counts
    read = df.filter(pl.col("y").is_not_null() & pl.col("w").is_not_null())
    assert_same(
        df.select(ce.prevalence("y", pos_label=1, weight="w")).item(),
        np.average(read["y"].to_numpy() == 1, weights=read["w"].to_numpy()),
    )


def test_arguments_may_be_expressions() -> None:
    """Column arguments are names or expressions."""
    df = pl.DataFrame({"a": [0, 1, 2, 2], "b": [1, 1, 2, 0], "w": [1, 2, 3, 4]})
    by_name = df.select(ce.f1("a", "b", average="macro", weight="w")).item()
    by_expr = df.select(
        ce.f1(pl.col("a") * 10, pl.col("b") * 10, average="macro", weight=pl.col("w"))
    ).item()
    assert_same(by_expr, by_name)
    assert_same(
        by_name,
        skm.f1_score([0, 1, 2, 2], [1, 1, 2, 0], average="macro", sample_weight=[1, 2, 3, 4]),
    )


def test_expression_names_and_dtypes() -> None:
    """Each expression is named after its metric and gives Float64 (List for average=None)."""
    df = pl.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0]})
    out = df.select(
        ce.accuracy("y", "yhat"),
        ce.balanced_accuracy("y", "yhat"),
        ce.precision("y", "yhat"),
        ce.recall("y", "yhat"),
        ce.f1("y", "yhat"),
        ce.fbeta("y", "yhat", beta=2.0),
        ce.specificity("y", "yhat"),
        ce.npv("y", "yhat"),
        ce.fpr("y", "yhat"),
        ce.fnr("y", "yhat"),
        ce.jaccard("y", "yhat"),
        ce.mcc("y", "yhat"),
        ce.cohen_kappa("y", "yhat"),
        ce.prevalence("y"),
        ce.recall("y", "yhat", average=None).alias("per_class"),
    )
    assert out.columns == [
        "accuracy",
        "balanced_accuracy",
        "precision",
        "recall",
        "f1",
        "fbeta",
        "specificity",
        "npv",
        "fpr",
        "fnr",
        "jaccard",
        "mcc",
        "cohen_kappa",
        "prevalence",
        "per_class",
    ]
    assert out.dtypes[:-1] == [pl.Float64] * 14
    assert out.dtypes[-1] == pl.List(pl.Float64)


def test_undefined_kappa_is_null_and_one_class_mcc_is_zero() -> None:
    """Kappa with one class is null (sklearn: NaN); MCC is 0.0 there, as scikit-learn."""
    df = pl.DataFrame({"y": ["a", "a"], "yhat": ["a", "a"]})
    kappa, mcc = df.select(ce.cohen_kappa("y", "yhat"), ce.mcc("y", "yhat")).row(0)
    assert kappa is None
    assert np.isnan(sk(skm.cohen_kappa_score, ["a", "a"], ["a", "a"]))
    assert mcc == 0.0


def test_kappa_with_no_weight_left_is_null_not_nan() -> None:
    """Regression: kappa over rows whose weights are all 0 (here: the rows labels= keeps) is
    null, as scikit-learn's NaN; it was NaN (0/0)."""
    df = pl.DataFrame({"y": [0, 0, 0], "yhat": [0, 0, 1], "w": [0, 0, 1]})
    for weights in (None, "linear", "quadratic"):
        got = df.select(ce.cohen_kappa("y", "yhat", weights=weights, labels=[0], weight="w"))
        assert got.item() is None, weights
        assert np.isnan(
            sk(
                skm.cohen_kappa_score,
                [0, 0, 0],
                [0, 0, 1],
                labels=[0],
                weights=weights,
                sample_weight=[0, 0, 1],
            )
        )


def test_multiclass_expressions_on_lazyframe_default_engine() -> None:
    """Regression: per-class expressions on a LazyFrame with the default engine raised
    ``ShapeError: zip node received non-equal length inputs``."""
    df = pl.DataFrame({"y": [0, 1, 2, 2], "yhat": [0, 2, 2, 1]})
    expr = ce.recall("y", "yhat", average="macro")
    assert df.lazy().select(expr).collect().item() == pytest.approx(0.5)
    assert df.lazy().select(ce.balanced_accuracy("y", "yhat")).collect().item() == (
        pytest.approx(skm.balanced_accuracy_score([0, 1, 2, 2], [0, 2, 2, 1]))
    )


def test_balanced_accuracy_with_class_only_predicted() -> None:
    """A class only in yhat is left out of balanced accuracy (sklearn: 0.75 + a warning)."""
    df = pl.DataFrame({"y": [0, 1, 1], "yhat": [0, 1, 2]})
    assert df.select(ce.balanced_accuracy("y", "yhat")).item() == pytest.approx(0.75)


def test_empty_selection_is_null() -> None:
    """With no row left, accuracy and prevalence are null (not NaN, not 0)."""
    df = pl.DataFrame({"y": [None, 1], "yhat": [1, None]}, schema={"y": pl.Int64, "yhat": pl.Int64})
    acc, prev = df.select(ce.accuracy("y", "yhat"), ce.prevalence(pl.col("y").filter(False)))
    assert acc.item() is None
    assert prev.item() is None


@pytest.mark.parametrize(
    ("build", "role"),
    [
        (lambda: ce.precision("y", "yhat", average="samples"), "average"),
        (lambda: ce.f1("y", "yhat", average="MACRO"), "average"),
        (lambda: ce.recall("y", "yhat", zero_division="warn"), "zero_division"),
        (lambda: ce.recall("y", "yhat", zero_division=0.5), "zero_division"),
        (lambda: ce.jaccard("y", "yhat", average="macro", labels=[]), "labels"),
        (lambda: ce.npv("y", "yhat", average="macro", labels=[1, 1]), "labels"),
        (lambda: ce.cohen_kappa("y", "yhat", weights="cubic"), "weights"),
    ],
)
def test_bad_options_raise_when_building(build: Callable[[], pl.Expr], role: str) -> None:
    """Bad option values raise InputError when the expression is built, naming the option."""
    with pytest.raises(InputError) as info:
        build()
    assert info.value.role == role
    assert info.value.rule in ("option", "labels_empty", "labels_duplicate")
    assert role in str(info.value)
    assert "\n\nHint: " in str(info.value)


def test_streaming_plan_gives_same_numbers() -> None:
    """A LazyFrame with several chunks gives the same numbers in both engines."""
    df = pl.concat([pl.DataFrame({"y": [0, 1, 2] * 5, "yhat": [0, 2, 2] * 5})] * 3, rechunk=False)
    exprs = [ce.f1("y", "yhat", average="weighted"), ce.cohen_kappa("y", "yhat", weights="linear")]
    eager = df.select(exprs).row(0)
    streaming = df.lazy().select(exprs).collect(engine="streaming").row(0)
    for a, b in zip(eager, streaming):
        assert_same(a, b)
    y, yhat = df["y"].to_numpy(), df["yhat"].to_numpy()
    assert_same(eager[0], skm.f1_score(y, yhat, average="weighted"))
    assert_same(eager[1], skm.cohen_kappa_score(y, yhat, weights="linear"))
