"""The seeds' worked examples, with the figures exactly as the seeds print them.

The data live in ``seed_cases.py``. Every figure is checked twice:

- ``test_case_matches_sklearn`` recomputes it with scikit-learn/NumPy from the encoded
  rows, which proves the encoding of the example (independent of clfeval);
- the other tests compute it with clfeval (expressions in ``df.select``, frame
  functions, the ``.clf`` namespace) and compare at the seed's printed precision.

Cases given as a confusion matrix are also evaluated in pre-aggregated form,
``(y, yhat, n)`` with ``weight="n"``, which must give the same figures.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve
from sklearn.dummy import DummyClassifier

import clfeval as ce

try:
    from seed_cases import CASES, CASES_BY_ID, Case, Fig, seed_roc_points
except ImportError:  # tests/ imported as a package
    from .seed_cases import CASES, CASES_BY_ID, Case, Fig, seed_roc_points

LABEL_METRICS = {
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
    "mcc",
    "cohen_kappa",
}
SCORE_METRICS = {"log_loss", "brier", "auroc", "auroc_reversed"}
SCALAR = LABEL_METRICS | SCORE_METRICS | {"prevalence"}
WEIGHTABLE = LABEL_METRICS | {"prevalence", "confusion_matrix", "counts", "baseline"}
FRAME_KINDS = {
    "confusion_matrix",
    "counts",
    "report",
    "threshold_row",
    "best_threshold",
    "best_cut",
    "baseline",
    "calibration",
    "roc_points",
    "roc_area",
    "by_group",
    "group_mean",
    "change",
}


def params(kinds: set[str], weighted: bool = False) -> list[Any]:
    """One pytest param per (case, figure) whose kind is in ``kinds``."""
    out = []
    for case in CASES:
        if weighted and case.matrix is None:
            continue
        for f in case.figs:
            if f.metric in kinds:
                out.append(pytest.param(case, f, id=f"{case.id}-{f.id}"))
    return out


def form_params(kinds: set[str]) -> list[Any]:
    """(case, figure, form): every figure on rows, matrix cases also weighted."""
    out = []
    for case in CASES:
        forms = ["rows", "weight"] if case.matrix is not None else ["rows"]
        for f in case.figs:
            if f.metric in kinds:
                out += [
                    pytest.param(case, f, form, id=f"{case.id}-{f.id}-{form}") for form in forms
                ]
    return out


# ---------------------------------------------------------------------------------------
# Comparison at the printed precision.


def close(got: Any, value: Any, digits: int | None) -> bool:
    """True when ``got`` prints as ``value`` with ``digits`` decimals (repr: 1e-12)."""
    if isinstance(value, (tuple, list)):
        return (
            got is not None
            and len(got) == len(value)
            and all(close(g, v, digits) for g, v in zip(got, value))
        )
    if got is None:
        return False
    if digits == 0 and isinstance(value, int) and not isinstance(value, bool):
        return got == value
    tolerance = 1e-12 if digits is None else 0.5 * 10.0**-digits + 1e-12
    return abs(float(got) - value) <= tolerance


def check(got: Any, f: Fig) -> None:
    assert close(got, f.value, f.digits), (
        f"got {got!r}, the seed prints {f.value!r} ({f.digits} decimals)"
    )


# ---------------------------------------------------------------------------------------
# Frames.


@functools.cache
def _frame(case_id: str, form: str) -> pl.DataFrame:
    case = CASES_BY_ID[case_id]
    if form == "weight":
        assert case.matrix is not None
        assert case.labels is not None
        cells = [
            (a, p, n)
            for i, a in enumerate(case.labels)
            for j, p in enumerate(case.labels)
            if (n := case.matrix[i][j]) > 0
        ]
        return pl.DataFrame(
            {
                "y": [c[0] for c in cells],
                "yhat": [c[1] for c in cells],
                "n": [c[2] for c in cells],
            }
        )
    columns: dict[str, Any] = {"y": case.y}
    if case.yhat is not None:
        columns["yhat"] = case.yhat
    if case.score is not None:
        columns["score"] = pl.Series(case.score, dtype=pl.Float64)
    if case.group is not None:
        columns["group"] = case.group
    return pl.DataFrame(columns)


def frame(case: Case, form: str = "rows") -> pl.DataFrame:
    return _frame(case.id, form)


def class_order(case: Case, labels: list[Any] | None = None) -> list[Any]:
    """The order the figure uses: ``labels=`` if given, else the sorted union."""
    if labels is not None:
        return list(labels)
    return sorted(set(case.y) | set(case.yhat or []))


# ---------------------------------------------------------------------------------------
# clfeval side.


def clf_expr(f: Fig, weight: str | None = None) -> pl.Expr:
    """The clfeval expression of a scalar figure."""
    kw = dict(f.kw)
    if weight is not None:
        kw["weight"] = weight
    fn: Callable[..., pl.Expr]
    if f.metric in LABEL_METRICS:
        fn = getattr(ce, f.metric)
        return fn("y", "yhat", **kw)
    if f.metric == "prevalence":
        return ce.prevalence("y", **kw)
    if f.metric == "auroc_reversed":
        return ce.auroc("y", 1 - pl.col("score"), **kw)
    fn = getattr(ce, f.metric)
    return fn("y", "score", **kw)


def clf_scalar(case: Case, f: Fig, form: str = "rows") -> Any:
    df = frame(case, form)
    return df.select(clf_expr(f, "n" if form == "weight" else None)).item()


def threshold_row(out: pl.DataFrame, at: float) -> dict[str, Any]:
    """The row of a thresholds table that applies the rule ``score >= at``."""
    rows = out.sort("threshold").filter(pl.col("threshold") >= at - 1e-12)
    assert rows.height > 0, f"no threshold >= {at}"
    return rows.row(0, named=True)


@pytest.mark.parametrize(("case", "fig"), params(SCALAR))
def test_seed_figure(case: Case, fig: Fig) -> None:
    check(clf_scalar(case, fig), fig)


@pytest.mark.parametrize(("case", "fig"), params(SCALAR & WEIGHTABLE, weighted=True))
def test_seed_figure_weighted(case: Case, fig: Fig) -> None:
    """The same figure from the pre-aggregated table (y, yhat, n) with weight="n"."""
    check(clf_scalar(case, fig, "weight"), fig)


@pytest.mark.parametrize(("case", "fig", "form"), form_params({"confusion_matrix"}))
def test_seed_confusion_matrix(case: Case, fig: Fig, form: str) -> None:
    labels = fig.kw.get("labels")
    df = frame(case, form)
    weight = {"weight": "n"} if form == "weight" else {}
    out = df.clf.confusion_matrix("y", "yhat", labels=labels, **weight)
    order = class_order(case, labels)
    expected = [(a, p, fig.value[i][j]) for i, a in enumerate(order) for j, p in enumerate(order)]
    assert out.select("actual", "predicted", "count").rows() == expected


@pytest.mark.parametrize(("case", "fig", "form"), form_params({"counts"}))
def test_seed_counts(case: Case, fig: Fig, form: str) -> None:
    weight = {"weight": "n"} if form == "weight" else {}
    out = ce.counts(frame(case, form), "y", "yhat", labels=fig.kw.get("labels"), **weight)
    expected = dict(fig.value)
    label = expected.pop("label")
    row = out.filter(pl.col("label") == label)
    assert row.height == 1, f"one row for label {label!r}"
    got = row.row(0, named=True)
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize(("case", "fig"), params({"report"}))
def test_seed_report(case: Case, fig: Fig) -> None:
    """str(Report) is the seed's printed classification_report, character for character."""
    report = frame(case).clf.report("y", "yhat", **fig.kw)
    assert str(report) == fig.value


@pytest.mark.parametrize(("case", "fig"), params({"threshold_row"}))
def test_seed_threshold_row(case: Case, fig: Fig) -> None:
    out = ce.thresholds(frame(case), "y", "score", beta=fig.kw.get("beta", 1.0))
    check(threshold_row(out, fig.kw["at"])[fig.kw["column"]], fig)


@pytest.mark.parametrize(("case", "fig"), params({"best_threshold"}))
def test_seed_best_threshold_from_table(case: Case, fig: Fig) -> None:
    """The highest F-beta of the thresholds table sits at the seed's threshold."""
    out = ce.thresholds(frame(case), "y", "score", beta=fig.kw["beta"])
    out = out.sort("threshold", descending=True)
    best = out.row(int(out["fbeta"].arg_max()), named=True)
    check(best["threshold"], fig)


@pytest.mark.parametrize(("case", "fig"), params({"best_threshold"}))
def test_seed_best_threshold(case: Case, fig: Fig) -> None:
    metric = fig.kw["metric"]
    extra = {"beta": fig.kw["beta"]} if metric == "fbeta" else {}
    out = ce.best_threshold(frame(case), "y", "score", metric=metric, **extra)
    assert out.height == 1
    row = out.row(0, named=True)
    check(row["threshold"], fig)
    for column, value in fig.kw.get("expect", {}).items():
        assert row[column] == value, column


@pytest.mark.parametrize(("case", "fig"), params({"best_cut"}))
def test_seed_best_cut(case: Case, fig: Fig) -> None:
    """The best cut of a ranked list: the top k predicted positive, with its F."""
    out = ce.best_threshold(frame(case), "y", "score", metric=fig.kw["metric"])
    row = out.row(0, named=True)
    assert row["tp"] + row["fp"] == fig.value
    assert row["threshold"] == sorted(case.score, reverse=True)[fig.value - 1]
    for column, value in fig.kw["expect"].items():
        assert close(row[column], value, 2), column


@pytest.mark.parametrize(("case", "fig", "form"), form_params({"baseline"}))
def test_seed_baseline(case: Case, fig: Fig, form: str) -> None:
    weight = {"weight": "n"} if form == "weight" else {}
    column = fig.kw["column"]
    out = ce.baseline(frame(case, form), "y", metrics=[column], **weight)
    row = out.filter(pl.col("strategy") == fig.kw["strategy"])
    assert row.height == 1
    check(row[column].item(), fig)


@pytest.mark.parametrize(("case", "fig"), params({"calibration"}))
def test_seed_calibration(case: Case, fig: Fig) -> None:
    out = ce.calibration(frame(case), "y", "score", n_bins=fig.kw["n_bins"])
    rows = (
        out.filter(pl.col("count") > 0)
        .sort("mean_predicted")
        .select("mean_predicted", "fraction_positive", "count")
        .rows()
    )
    assert len(rows) == len(fig.value)
    for (mean, frac, count), (p, share, n) in zip(rows, fig.value):
        assert count == n
        assert abs(mean - p) <= 1e-12
        assert abs(frac - share) <= 1e-12


@pytest.mark.parametrize(("case", "fig"), params({"roc_points"}))
def test_seed_roc_construction(case: Case, fig: Fig) -> None:
    """Seed 000's construction: +inf, then every distinct score, (fpr, tpr) at each."""
    out = ce.roc_curve(frame(case), "y", "score", drop_intermediate=False)
    got = out.select("threshold", "fpr", "tpr").rows()
    expected = seed_roc_points(case.y, case.score)
    assert len(got) == len(expected)
    assert got[0][0] == float("inf")
    for g, e in zip(got[1:], expected[1:]):
        assert abs(g[0] - e[0]) <= 1e-12
    for g, e in zip(got, expected):
        assert abs(g[1] - e[1]) <= 1e-12
        assert abs(g[2] - e[2]) <= 1e-12


@pytest.mark.parametrize(("case", "fig"), params({"roc_area"}))
def test_seed_roc_area(case: Case, fig: Fig) -> None:
    """Trapezoids under the constructed curve give the AUROC the seed prints."""
    out = ce.roc_curve(frame(case), "y", "score", drop_intermediate=False)
    check(float(np.trapezoid(out["tpr"].to_numpy(), out["fpr"].to_numpy())), fig)


def clf_by_group(case: Case, f: Fig) -> list[float]:
    metric = Fig(f.kw["metric"], None, None)
    out = frame(case).group_by("group").agg(clf_expr(metric).alias("v")).sort("group")
    return out["v"].to_list()


@pytest.mark.parametrize(("case", "fig"), params({"by_group", "group_mean"}))
def test_seed_folds(case: Case, fig: Fig) -> None:
    per_group = clf_by_group(case, fig)
    got = per_group if fig.metric == "by_group" else sum(per_group) / len(per_group)
    check(got, fig)


@pytest.mark.parametrize(("case", "fig"), params({"change"}))
def test_seed_change(case: Case, fig: Fig) -> None:
    """After minus before, each side rounded as the seed prints it."""
    metric = Fig(fig.kw["metric"], None, None, {"average": fig.kw["average"]})
    after = clf_scalar(case, metric)
    before = clf_scalar(CASES_BY_ID[fig.kw["before"]], metric)
    check(round(after, fig.digits) - round(before, fig.digits), fig)


# ---------------------------------------------------------------------------------------
# scikit-learn side: proves each case's encoding reproduces the seed's figure.


def binary_negative(case: Case, pos_label: Any) -> Any:
    (negative,) = [label for label in class_order(case) if label != pos_label]
    return negative


def sk_label(case: Case, metric: str, kw: dict[str, Any], y: Any, yhat: Any) -> Any:
    """scikit-learn's value of a label metric (figures use zero_division=0)."""
    kw = dict(kw)
    if metric == "accuracy":
        return skm.accuracy_score(y, yhat)
    if metric == "balanced_accuracy":
        return skm.balanced_accuracy_score(y, yhat)
    if metric == "mcc":
        return skm.matthews_corrcoef(y, yhat)
    if metric == "cohen_kappa":
        return skm.cohen_kappa_score(y, yhat)
    kw.setdefault("zero_division", 0.0)
    pos = kw.get("pos_label", 1)
    if metric in {"specificity", "npv", "fpr"}:
        kw["pos_label"] = binary_negative(case, pos)
    funcs = {
        "precision": skm.precision_score,
        "recall": skm.recall_score,
        "f1": skm.f1_score,
        "fbeta": skm.fbeta_score,
        "specificity": skm.recall_score,
        "npv": skm.precision_score,
        "fpr": skm.recall_score,
        "fnr": skm.recall_score,
    }
    value = funcs[metric](y, yhat, **kw)
    if metric in {"fpr", "fnr"}:
        value = 1 - value
    if isinstance(value, np.ndarray):
        return tuple(float(v) for v in value)
    return float(value)


def sk_scalar(case: Case, f: Fig) -> Any:
    y = np.asarray(case.y)
    if f.metric in LABEL_METRICS:
        return sk_label(case, f.metric, f.kw, case.y, case.yhat)
    if f.metric == "prevalence":
        return float(np.mean(y == f.kw.get("pos_label", True if y.dtype == bool else 1)))
    s = np.asarray(case.score, dtype=float)
    if f.metric == "log_loss":
        return skm.log_loss(y, s)
    if f.metric == "brier":
        return skm.brier_score_loss(y, s)
    if f.metric == "auroc":
        return skm.roc_auc_score(y, s)
    if f.metric == "auroc_reversed":
        return skm.roc_auc_score(y, 1 - s)
    raise AssertionError(f"no scikit-learn reference for {f.metric}")


def sk_threshold_row(case: Case, at: float, column: str, beta: float) -> Any:
    y = np.asarray(case.y)
    pred = (np.asarray(case.score) >= at - 1e-12).astype(int)
    tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1]).ravel().tolist()
    if column in {"tp", "fp", "fn", "tn"}:
        return {"tp": tp, "fp": fp, "fn": fn, "tn": tn}[column]
    if column == "fbeta":
        return skm.fbeta_score(y, pred, beta=beta, zero_division=0.0)
    return sk_label(case, column, {}, y, pred)


def sk_figure(case: Case, f: Fig) -> None:
    """Assert that scikit-learn, on the encoded rows, gives the seed's figure."""
    kw = f.kw
    if f.metric in SCALAR:
        check(sk_scalar(case, f), f)
    elif f.metric == "confusion_matrix":
        labels = class_order(case, kw.get("labels"))
        cm = skm.confusion_matrix(case.y, case.yhat, labels=labels)
        assert cm.tolist() == f.value
        if "labels" not in kw:  # the seed's call without labels= sorts the labels
            assert skm.confusion_matrix(case.y, case.yhat).tolist() == f.value
    elif f.metric == "counts":
        order = class_order(case, kw.get("labels"))
        mcm = skm.multilabel_confusion_matrix(case.y, case.yhat, labels=order)
        expected = dict(f.value)
        (tn, fp), (fn, tp) = mcm[order.index(expected.pop("label"))].tolist()
        got = {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "support": tp + fn}
        assert {k: got[k] for k in expected} == expected
    elif f.metric == "report":
        assert skm.classification_report(case.y, case.yhat, **kw) == f.value
    elif f.metric == "threshold_row":
        check(sk_threshold_row(case, kw["at"], kw["column"], kw.get("beta", 1.0)), f)
    elif f.metric == "best_threshold":
        y = np.asarray(case.y)
        distinct = sorted(set(case.score), reverse=True)
        scores = [
            skm.fbeta_score(y, np.asarray(case.score) >= t, beta=kw["beta"]) for t in distinct
        ]
        best = distinct[int(np.argmax(scores))]
        check(best, f)
        pred = np.asarray(case.score) >= best
        for column, value in kw.get("expect", {}).items():
            got = {"tp": int((pred & (y == 1)).sum()), "fn": int((~pred & (y == 1)).sum())}
            assert got[column] == value
    elif f.metric == "best_cut":
        n = len(case.y)
        f1 = [skm.f1_score(case.y, [1] * k + [0] * (n - k)) for k in range(1, n + 1)]
        assert int(np.argmax(f1)) + 1 == f.value
        assert close(max(f1), kw["expect"]["f1"], 2)
    elif f.metric == "baseline":
        X = np.zeros((len(case.y), 1))
        pred = DummyClassifier(strategy=kw["strategy"]).fit(X, case.y).predict(X)
        pos = True if isinstance(case.y[0], bool) else 1
        check(sk_label(case, kw["column"], {"pos_label": pos}, case.y, pred), f)
    elif f.metric == "calibration":
        y = np.asarray(case.y)
        s = np.asarray(case.score)
        frac, mean = calibration_curve(y, s, n_bins=kw["n_bins"])
        values, counts = np.unique(s, return_counts=True)  # one distinct value per bin
        got = list(zip(mean.tolist(), frac.tolist(), counts.tolist()))
        assert len(got) == len(f.value) == len(values)
        for g, e in zip(got, f.value):
            assert g[2] == e[2]
            assert abs(g[0] - e[0]) <= 1e-12
            assert abs(g[1] - e[1]) <= 1e-12
    elif f.metric == "roc_points":
        fpr, tpr, thr = skm.roc_curve(case.y, case.score, drop_intermediate=False)
        expected = seed_roc_points(case.y, case.score)
        assert len(thr) == len(expected)
        assert np.allclose(fpr, [e[1] for e in expected], rtol=0, atol=1e-12)
        assert np.allclose(tpr, [e[2] for e in expected], rtol=0, atol=1e-12)
    elif f.metric == "roc_area":
        fpr, tpr, _ = skm.roc_curve(case.y, case.score, drop_intermediate=False)
        check(skm.auc(fpr, tpr), f)
    elif f.metric in {"by_group", "group_mean"}:
        groups = sorted(set(case.group))
        per_group = []
        for g in groups:
            rows = [i for i, gi in enumerate(case.group) if gi == g]
            yg = [case.y[i] for i in rows]
            yhatg = [case.yhat[i] for i in rows]
            per_group.append(sk_label(case, kw["metric"], {}, yg, yhatg))
        check(per_group if f.metric == "by_group" else float(np.mean(per_group)), f)
    elif f.metric == "change":
        before_case = CASES_BY_ID[kw["before"]]
        opts = {"average": kw["average"]}
        after = sk_label(case, kw["metric"], opts, case.y, case.yhat)
        before = sk_label(before_case, kw["metric"], opts, before_case.y, before_case.yhat)
        check(round(after, f.digits) - round(before, f.digits), f)
    else:
        raise AssertionError(f"unknown figure kind {f.metric!r}")


@pytest.mark.parametrize(("case", "fig"), params(SCALAR | FRAME_KINDS))
def test_case_matches_sklearn(case: Case, fig: Fig) -> None:
    sk_figure(case, fig)


def test_every_figure_is_tested() -> None:
    kinds = {f.metric for case in CASES for f in case.figs}
    assert kinds <= SCALAR | FRAME_KINDS, kinds - (SCALAR | FRAME_KINDS)


def test_matrix_cases_expand_to_their_matrix() -> None:
    """Rows built from a printed matrix give back that matrix (the seed's expand)."""
    for case in CASES:
        if case.matrix is not None:
            cm = skm.confusion_matrix(case.y, case.yhat, labels=case.labels)
            assert cm.tolist() == case.matrix, case.id
