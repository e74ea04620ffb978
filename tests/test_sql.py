"""The DuckDB SQL layer (``sql/*.sql`` and ``clfeval.sql``) against scikit-learn.

Hypothesis draws frames with ties (scores on a k/8 grid), integer weights 0-5, int or string
labels and two group columns with null values; every group of every macro's result must equal
scikit-learn on that group's rows to 1e-9 (curves: the same points in the same order). Then the
plumbing: Parquet files and database files, hostile identifiers, errors, loading and comments.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

import clfeval as ce
from clfeval import InputError, sql

BY = ["g1", "g2"]
GRID = [k / 8 for k in range(9)]
SETTINGS = settings(max_examples=30, deadline=None)


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    c = sql.connect()
    c.execute("SET threads = 1")  # tiny frames: starting threads would cost more than the work
    yield c
    c.close()


# --- strategies and helpers ---------------------------------------------------------------


@st.composite
def frames(draw: st.DrawFn, classes: int = 2, max_size: int = 40) -> tuple[pl.DataFrame, list]:
    """A frame (g1, g2, y, yhat, s, w) and its class values; the last class is pos_label."""
    n = draw(st.integers(1, max_size))
    k = classes if classes == 2 else draw(st.integers(2, classes))
    values = (["ant", "bee", "cat", "dog"] if draw(st.booleans()) else [0, 1, 2, 3])[:k]
    values = [values[0], values[-1]] if k == 2 else values

    def column(elements: st.SearchStrategy) -> list:
        return draw(st.lists(elements, min_size=n, max_size=n))

    df = pl.DataFrame(
        {
            "g1": pl.Series(column(st.sampled_from(["a", "b", None])), dtype=pl.String),
            "g2": pl.Series(column(st.sampled_from([0, 1, None])), dtype=pl.Int64),
            "y": column(st.sampled_from(values)),
            "yhat": column(st.sampled_from(values)),
            "s": column(st.sampled_from(GRID)),
            "w": pl.Series(column(st.integers(0, 5)), dtype=pl.Int64),
        }
    )
    return df, values


def groups(df: pl.DataFrame) -> Iterator[tuple[tuple, pl.DataFrame]]:
    yield from df.partition_by(BY, as_dict=True, maintain_order=True).items()


def pick(res: pl.DataFrame, key: tuple) -> pl.DataFrame:
    """The rows of ``res`` for one group (null-safe)."""
    cond = [pl.col(c).is_null() if v is None else pl.col(c) == v for c, v in zip(BY, key)]
    return res.filter(pl.all_horizontal(cond))


def sk(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call scikit-learn with its undefined-metric warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)


def assert_close(got: Any, expected: Any, what: str = "") -> None:
    got = np.nan if got is None else got
    expected = np.nan if expected is None else expected
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12, err_msg=what)


def assert_points(got: pl.DataFrame, expected: dict[str, np.ndarray]) -> None:
    """Same points in the same order (NULL in clfeval is NaN in scikit-learn)."""
    assert got.height == len(next(iter(expected.values()))), (got, expected)
    for name, values in expected.items():
        assert_close(got[name].cast(pl.Float64).to_numpy(), np.asarray(values, float), name)


def assert_group_order(res: pl.DataFrame) -> None:
    """Group columns first and rows sorted by them, nulls last."""
    assert res.columns[:2] == BY
    keys = res.select(BY).unique(maintain_order=True)
    assert keys.equals(keys.sort(BY, nulls_last=True))


def arrays(sub: pl.DataFrame, weighted: bool) -> tuple[np.ndarray, ...]:
    w = sub["w"].to_numpy().astype(float) if weighted else None
    return sub["y"].to_numpy(), sub["yhat"].to_numpy(), sub["s"].to_numpy(), w


# --- curves and ranking metrics -----------------------------------------------------------


@SETTINGS
@given(case=frames(), weighted=st.booleans(), drop=st.booleans())
def test_roc_pr_det_curves_match_sklearn(con, case, weighted, drop):
    df, (_, pos) = case
    opts = {"by": BY, "weight": "w" if weighted else None, "pos_label": pos, "con": con}
    roc = sql.roc_curve(df, "y", "s", drop_intermediate=drop, **opts)
    pr = sql.pr_curve(df, "y", "s", drop_intermediate=drop, **opts)
    det = sql.det_curve(df, "y", "s", drop_intermediate=drop, **opts)
    for res in (roc, pr, det):
        assert_group_order(res)
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, weighted)
        if w is not None and w.sum() == 0:  # scikit-learn refuses; no threshold survives
            assert pick(roc, key).height == pick(pr, key).height == pick(det, key).height == 0
            continue
        kw = {"pos_label": pos, "sample_weight": w, "drop_intermediate": drop}
        fpr, tpr, thr = sk(skm.roc_curve, y, s, **kw)
        assert_points(pick(roc, key), {"threshold": thr, "fpr": fpr, "tpr": tpr})
        precision, recall, thr = sk(skm.precision_recall_curve, y, s, **kw)
        got = pick(pr, key)
        assert got["threshold"][-1] is None
        assert_points(got[:-1], {"threshold": thr})
        assert_points(got, {"precision": precision, "recall": recall})
        if len(set(y)) == 2:  # det_curve raises with one class
            fpr, fnr, thr = sk(skm.det_curve, y, s, **kw)
            assert_points(pick(det, key), {"threshold": thr, "fpr": fpr, "fnr": fnr})


@SETTINGS
@given(case=frames(), weighted=st.booleans())
def test_auroc_and_average_precision_match_sklearn(con, case, weighted):
    df, (_, pos) = case
    opts = {"by": BY, "weight": "w" if weighted else None, "pos_label": pos, "con": con}
    auc, ap = sql.auroc(df, "y", "s", **opts), sql.average_precision(df, "y", "s", **opts)
    assert auc.columns == [*BY, "auroc"]
    assert ap.columns == [*BY, "average_precision"]
    assert auc.height == ap.height == df.select(BY).n_unique()
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, weighted)
        positive = (y == pos).astype(int)
        pos_weight = positive.sum() if w is None else (w * positive).sum()
        total = len(y) if w is None else w.sum()
        got_auc, got_ap = pick(auc, key)["auroc"].item(), pick(ap, key)["average_precision"].item()
        if total == 0:
            assert got_auc is None
            assert got_ap is None
            continue
        assert_close(got_auc, sk(skm.roc_auc_score, positive, s, sample_weight=w), "auroc")
        if pos_weight == 0:  # undefined: NULL (scikit-learn returns 0.0 with a warning)
            assert got_ap is None
        else:
            expected = sk(skm.average_precision_score, y, s, pos_label=pos, sample_weight=w)
            assert_close(got_ap, expected, "average_precision")


@pytest.mark.parametrize("by", [None, "g1", BY], ids=["no_group", "one_group", "two_groups"])
@pytest.mark.parametrize("scores", ["grid", "distinct"])
@pytest.mark.parametrize("weighted", [False, True])
def test_both_score_plans_and_every_partition_shape_match_sklearn(con, by, scores, weighted):
    # The score macros pick a plan from the data (GROUP BY score for few distinct scores, one
    # window over the rows otherwise) and partition by the group column itself, a constant or
    # a struct by the number of group columns; every combination must give scikit-learn's
    # numbers. "distinct" keeps some tied scores, so the row plan must merge runs of ties.
    rng = np.random.default_rng(7)
    n = 400
    s = rng.random(n) if scores == "distinct" else rng.integers(0, 9, n) / 8
    if scores == "distinct":
        s[::10] = s[1::10]
    df = pl.DataFrame(
        {
            "g1": rng.choice(["a", "b"], n),
            "g2": rng.integers(0, 2, n),
            "y": (rng.random(n) < 0.4).astype(np.int64),
            "s": s,
            "w": rng.integers(0, 4, n),
        }
    )
    cols = [] if by is None else [by] if isinstance(by, str) else by
    opts = {"by": by, "weight": "w" if weighted else None, "con": con}
    res = {
        "auroc": sql.auroc(df, "y", "s", **opts),
        "ap": sql.average_precision(df, "y", "s", **opts),
        "roc": sql.roc_curve(df, "y", "s", **opts),
        "pr": sql.pr_curve(df, "y", "s", drop_intermediate=True, **opts),
        "det": sql.det_curve(df, "y", "s", **opts),
    }
    parts = df.partition_by(cols, as_dict=True, maintain_order=True) if cols else {(): df}
    for key, sub in parts.items():
        cond = [pl.col(c) == v for c, v in zip(cols, key)]
        got = {k: v.filter(*cond) if cond else v for k, v in res.items()}
        y, sc = sub["y"].to_numpy(), sub["s"].to_numpy()
        w = sub["w"].to_numpy().astype(float) if weighted else None
        assert_close(got["auroc"]["auroc"].item(), sk(skm.roc_auc_score, y, sc, sample_weight=w))
        expected = sk(skm.average_precision_score, y, sc, sample_weight=w)
        assert_close(got["ap"]["average_precision"].item(), expected)
        fpr, tpr, thr = sk(skm.roc_curve, y, sc, sample_weight=w)
        assert_points(got["roc"], {"threshold": thr, "fpr": fpr, "tpr": tpr})
        precision, recall, thr = sk(
            skm.precision_recall_curve, y, sc, sample_weight=w, drop_intermediate=True
        )
        assert_points(got["pr"][:-1], {"threshold": thr})
        assert_points(got["pr"], {"precision": precision, "recall": recall})
        fpr, fnr, thr = sk(skm.det_curve, y, sc, sample_weight=w)
        assert_points(got["det"], {"threshold": thr, "fpr": fpr, "fnr": fnr})


@pytest.mark.parametrize("scores", ["grid", "distinct"])
def test_fractional_weights_end_every_count_exactly(con, scores):
    """A group's totals are its running sums at the last threshold, bit for bit: with
    fractional weights, fn and tn end at exactly 0 (npv at zero_division), tpr and fpr at
    exactly 1, on either plan, as in Polars and scikit-learn (a separately added total left
    +-1e-10 there, and npv 0.64 instead of 0)."""
    rng = np.random.default_rng(3)
    n = 20_000
    s = rng.random(n) if scores == "distinct" else rng.integers(0, 50, n) / 49
    df = pl.DataFrame({"y": rng.integers(0, 2, n), "s": s, "w": rng.random(n) * 3})
    last = sql.thresholds(df, "y", "s", weight="w", con=con).tail(1)
    assert last.select("fn", "tn", "npv").row(0) == (0.0, 0.0, 0.0)
    polars_last = ce.thresholds(df, "y", "s", weight="w").tail(1)
    assert polars_last.select("fn", "tn", "npv").row(0) == (0.0, 0.0, 0.0)
    roc = sql.roc_curve(df, "y", "s", weight="w", con=con).tail(1)
    assert roc.select("fpr", "tpr").row(0) == (1.0, 1.0)
    det = [sql.det_curve(df, "y", "s", weight="w", con=con) for _ in range(3)]
    assert det[0].equals(det[1])
    assert det[0].equals(det[2])


@settings(SETTINGS, max_examples=30)
@given(
    case=frames(),
    weighted=st.booleans(),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    at=st.integers(0, 8),
)
def test_thresholds_match_sklearn(con, case, weighted, beta, at):
    df, (_neg, pos) = case
    res = sql.thresholds(
        df, "y", "s", by=BY, weight="w" if weighted else None, pos_label=pos, beta=beta, con=con
    )
    assert_group_order(res)
    assert res.schema["tp"] == (pl.Float64 if weighted else pl.Int64)
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, weighted)
        got = pick(res, key)
        if w is not None and w.sum() == 0:
            assert got.height == 0
            continue
        tns, fps, fns, tps, thr = sk(
            skm.confusion_matrix_at_thresholds, y, s, pos_label=pos, sample_weight=w
        )
        assert_points(got, {"threshold": thr, "tp": tps, "fp": fps, "fn": fns, "tn": tns})
        truth = (y == pos).astype(int)
        # the metrics at one threshold per group (scikit-learn's input checks are slow)
        row = got.row(at % got.height, named=True)
        said = (s >= row["threshold"]).astype(int)
        ref = {"sample_weight": w, "zero_division": 0.0}
        expected = {
            "precision": sk(skm.precision_score, truth, said, **ref),
            "recall": sk(skm.recall_score, truth, said, **ref),
            "specificity": sk(skm.recall_score, truth, said, pos_label=0, **ref),
            "npv": sk(skm.precision_score, truth, said, pos_label=0, **ref),
            "f1": sk(skm.f1_score, truth, said, **ref),
            "fbeta": sk(skm.fbeta_score, truth, said, beta=beta, **ref),
            "accuracy": sk(skm.accuracy_score, truth, said, sample_weight=w),
            "balanced_accuracy": sk(skm.balanced_accuracy_score, truth, said, sample_weight=w),
            "mcc": sk(skm.matthews_corrcoef, truth, said, sample_weight=w),
        }
        for name, value in expected.items():
            assert_close(row[name], value, name)
        tn, fp, fn, tp = row["tn"], row["fp"], row["fn"], row["tp"]
        assert_close(row["fpr"], fp / (fp + tn) if fp + tn else 0.0, "fpr")
        youden = (tp / (tp + fn) if tp + fn else 0.0) + (tn / (tn + fp) if tn + fp else 0.0) - 1
        assert_close(row["youden_j"], youden, "youden_j")


@SETTINGS
@given(case=frames(), weighted=st.booleans())
def test_gain_curve_is_share_of_positives_against_share_targeted(con, case, weighted):
    df, (_, pos) = case
    res = sql.gain_curve(
        df, "y", "s", by=BY, weight="w" if weighted else None, pos_label=pos, con=con
    )
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, weighted)
        w = np.ones(len(y)) if w is None else w
        if w.sum() == 0:
            continue
        cuts = np.unique(s[w > 0])[::-1]
        hit = (y == pos) * w
        targeted = [0.0] + [w[s >= t].sum() / w.sum() for t in cuts]
        gain = [0.0] + [hit[s >= t].sum() / hit.sum() for t in cuts] if hit.sum() else None
        got = pick(res, key)
        assert_points(got, {"fraction_targeted": targeted})
        if gain is None:
            assert got["gain"].null_count() == got.height
        else:
            assert_points(got, {"gain": gain})


@SETTINGS
@given(case=frames(), n_bins=st.integers(1, 10), strategy=st.sampled_from(["uniform", "quantile"]))
def test_calibration_matches_sklearn(con, case, n_bins, strategy):
    df, (_, pos) = case
    res = sql.calibration(
        df, "y", "s", by=BY, pos_label=pos, n_bins=n_bins, strategy=strategy, con=con
    )
    assert res.columns == [*BY, "bin", "mean_predicted", "fraction_positive", "count"]
    assert res.schema["count"] == pl.Int64
    for key, sub in groups(df):
        y, _, s, _ = arrays(sub, False)
        prob_true, prob_pred = sk(
            calibration_curve, y, s, pos_label=pos, n_bins=n_bins, strategy=strategy
        )
        got = pick(res, key)
        assert_points(got, {"fraction_positive": prob_true, "mean_predicted": prob_pred})
        assert got["count"].sum() == len(y)


@settings(max_examples=40, deadline=None)
@example(n_bins=49)  # 49 * (1 / 49) < 1: p = 1 is one past the last bin before the clip
@given(n_bins=st.integers(1, 1000))
def test_calibration_bins_are_searchsorted_bit_for_bit(con, n_bins):
    """Every edge of [0, 1] and its neighbours one ulp away (0 and 1 included) fall in the bin
    numpy's searchsorted gives: the macro clips its unclipped key per group, not per row."""
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    near = np.concatenate([edges, np.nextafter(edges, 2), np.nextafter(edges, -1)])
    p = near[(near >= 0) & (near <= 1)]
    res = sql.calibration(
        pl.DataFrame({"y": np.arange(len(p)) % 2, "p": p}), "y", "p", n_bins=n_bins, con=con
    )
    bins, counts = np.unique(np.searchsorted(edges[1:-1], p, side="left"), return_counts=True)
    assert res["bin"].to_list() == bins.tolist()
    assert res["count"].to_list() == counts.tolist()


@SETTINGS
@given(case=frames(), n_bins=st.integers(1, 10), strategy=st.sampled_from(["uniform", "quantile"]))
def test_weighted_calibration_is_bincount_with_weights(con, case, n_bins, strategy):
    df, (_, pos) = case
    res = sql.calibration(
        df, "y", "s", by=BY, weight="w", pos_label=pos, n_bins=n_bins, strategy=strategy, con=con
    )
    assert res.schema["count"] == pl.Float64
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, True)
        if w.sum() == 0:
            assert pick(res, key).height == 0
            continue
        edges = (
            np.linspace(0.0, 1.0, n_bins + 1)
            if strategy == "uniform"  # quantile edges: the unweighted rows of nonzero weight
            else np.percentile(s[w > 0], np.linspace(0, 1, n_bins + 1) * 100)
        )
        ids = np.searchsorted(edges[1:-1], s)
        total = np.bincount(ids, weights=w, minlength=n_bins)
        keep = total > 0
        expected = {
            "bin": np.arange(n_bins)[keep],
            "mean_predicted": np.bincount(ids, weights=w * s, minlength=n_bins)[keep] / total[keep],
            "fraction_positive": np.bincount(ids, weights=w * (y == pos), minlength=n_bins)[keep]
            / total[keep],
            "count": total[keep],
        }
        assert_points(pick(res, key), expected)


# --- label metrics ------------------------------------------------------------------------


@st.composite
def labels_option(draw: st.DrawFn, values: list) -> list | None:
    """None, or some classes (maybe one absent from the data) in a random order."""
    if draw(st.booleans()):
        return None
    pool = [*values, "zzz" if isinstance(values[0], str) else 9]
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))


def labels_match_nothing(df: pl.DataFrame, labels: list | None) -> bool:
    """The macros raise when no listed class occurs in y or yhat (of any group)."""
    return labels is not None and not set(labels) & (set(df["y"]) | set(df["yhat"]))


@SETTINGS
@given(case=frames(classes=4), weighted=st.booleans(), data=st.data())
def test_confusion_counts_report_match_sklearn(con, case, weighted, data):
    df, values = case
    labels = data.draw(labels_option(values))
    zd = data.draw(st.sampled_from([0.0, 1.0, None]))
    opts = {"by": BY, "weight": "w" if weighted else None, "labels": labels, "con": con}
    if labels_match_nothing(df, labels):
        for fn in (sql.confusion_matrix, sql.counts, sql.report):
            with pytest.raises(InputError, match="none of labels"):
                fn(df, "y", "yhat", **opts)
        return
    cm = sql.confusion_matrix(df, "y", "yhat", **opts)
    counts = sql.counts(df, "y", "yhat", **opts)
    report = sql.report(df, "y", "yhat", zero_division=zd, **opts)
    for res in (cm, counts, report):
        assert_group_order(res)
    kind = pl.Float64 if weighted else pl.Int64
    assert cm.schema["count"] == counts.schema["tp"] == report.schema["support"] == kind
    for key, sub in groups(df):
        y, yhat, _, w = arrays(sub, weighted)
        if w is not None and w.sum() == 0:
            continue
        order = labels if labels is not None else sorted(set(y) | set(yhat))
        got = pick(cm, key)
        assert got["actual"].to_list() == [a for a in order for _ in order]
        assert got["predicted"].to_list() == [p for _ in order for p in order]
        if labels is None or set(labels) & set(y):  # else scikit-learn raises; clfeval: zeros
            expected = sk(skm.confusion_matrix, y, yhat, labels=order, sample_weight=w)
            assert_points(got, {"count": expected.ravel()})
        mcm = sk(skm.multilabel_confusion_matrix, y, yhat, labels=order, sample_weight=w)
        got = pick(counts, key)
        assert got["label"].to_list() == order
        assert_points(
            got,
            {
                "tp": mcm[:, 1, 1],
                "fp": mcm[:, 0, 1],
                "fn": mcm[:, 1, 0],
                "tn": mcm[:, 0, 0],
                "support": mcm[:, 1, 1] + mcm[:, 1, 0],
            },
        )
        expected = sk(
            skm.classification_report,
            y,
            yhat,
            labels=labels,
            sample_weight=w,
            output_dict=True,
            zero_division=np.nan if zd is None else zd,
        )
        got = pick(report, key)
        assert got["label"].to_list() == [*map(str, order), *list(expected)[len(order) :]]
        for row, (name, value) in zip(got.iter_rows(named=True), expected.items()):
            if name == "accuracy":
                assert row["precision"] is None
                assert row["recall"] is None
                assert_close(row["f1"], value, name)
                continue
            for ours, theirs in (
                ("precision", "precision"),
                ("recall", "recall"),
                ("f1", "f1-score"),
                ("support", "support"),
            ):
                assert_close(row[ours], value[theirs], f"{name} {ours}")


@SETTINGS
@given(case=frames(classes=4), weighted=st.booleans(), data=st.data())
def test_metrics_match_sklearn(con, case, weighted, data):
    df, values = case
    average = (
        "binary" if len(values) == 2 else data.draw(st.sampled_from(["micro", "macro", "weighted"]))
    )
    labels = None if average == "binary" else data.draw(labels_option(values))
    zd = data.draw(st.sampled_from([0.0, 1.0, None]))
    opts = {
        "average": average,
        "pos_label": values[-1],
        "labels": labels,
        "zero_division": zd,
        "by": BY,
        "weight": "w" if weighted else None,
        "con": con,
    }
    if labels_match_nothing(df, labels):
        with pytest.raises(InputError, match="none of labels"):
            sql.metrics(df, "y", "yhat", **opts)
        return
    res = sql.metrics(df, "y", "yhat", **opts)
    assert res.columns == [*BY, "accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"]
    assert_group_order(res)
    for key, sub in groups(df):
        y, yhat, _, w = arrays(sub, weighted)
        row = pick(res, key).row(0, named=True)
        if w is not None and w.sum() == 0:
            assert row["accuracy"] is None
            continue
        kw = {
            "average": average,
            "labels": labels,
            "sample_weight": w,
            "zero_division": np.nan if zd is None else zd,
        }
        if average == "binary":
            kw["pos_label"] = values[-1]
        expected = {
            "accuracy": sk(skm.accuracy_score, y, yhat, sample_weight=w),
            "balanced_accuracy": sk(skm.balanced_accuracy_score, y, yhat, sample_weight=w),
            "precision": sk(skm.precision_score, y, yhat, **kw),
            "recall": sk(skm.recall_score, y, yhat, **kw),
            "f1": sk(skm.f1_score, y, yhat, **kw),
            "mcc": sk(skm.matthews_corrcoef, y, yhat, sample_weight=w),
        }
        for name, value in expected.items():
            assert_close(row[name], value, name)


def _fpr(y, yhat, neg, pos, w, zd):
    tn, fp, _fn, _tp = skm.confusion_matrix(y, yhat, labels=[neg, pos], sample_weight=w).ravel()
    return zd if fp + tn == 0 else fp / (fp + tn)


def _fnr(y, yhat, neg, pos, w, zd):
    _tn, _fp, fn, tp = skm.confusion_matrix(y, yhat, labels=[neg, pos], sample_weight=w).ravel()
    return zd if fn + tp == 0 else fn / (fn + tp)


def _jaccard(y, yhat, neg, pos, w, zd):
    _tn, fp, fn, tp = skm.confusion_matrix(y, yhat, labels=[neg, pos], sample_weight=w).ravel()
    return zd if tp + fp + fn == 0 else tp / (tp + fp + fn)


def _finite(value: float) -> float | None:
    return value if np.isfinite(value) else None


# (macro, extra SQL parameters, reference(y, yhat, neg, pos, w, zero_division))
AGGREGATES: list[tuple[str, dict[str, Any], Callable[..., Any]]] = [
    ("clf_accuracy", {}, lambda y, h, n, p, w, z: skm.accuracy_score(y, h, sample_weight=w)),
    (
        "clf_precision",
        {"zd": 1},
        lambda y, h, n, p, w, z: skm.precision_score(
            y, h, pos_label=p, sample_weight=w, zero_division=z
        ),
    ),
    (
        "clf_recall",
        {"zd": 1},
        lambda y, h, n, p, w, z: skm.recall_score(
            y, h, pos_label=p, sample_weight=w, zero_division=z
        ),
    ),
    (
        "clf_f1",
        {"zd": 1},
        lambda y, h, n, p, w, z: skm.f1_score(y, h, pos_label=p, sample_weight=w, zero_division=z),
    ),
    (
        "clf_fbeta",
        {"zd": 1, "beta": 2.0},
        lambda y, h, n, p, w, z: skm.fbeta_score(
            y, h, beta=2.0, pos_label=p, sample_weight=w, zero_division=z
        ),
    ),
    (
        "clf_specificity",
        {"zd": 1},
        lambda y, h, n, p, w, z: skm.recall_score(
            y, h, pos_label=n, sample_weight=w, zero_division=z
        ),
    ),
    (
        "clf_npv",
        {"zd": 1},
        lambda y, h, n, p, w, z: skm.precision_score(
            y, h, pos_label=n, sample_weight=w, zero_division=z
        ),
    ),
    ("clf_fpr", {"zd": 1}, _fpr),
    ("clf_fnr", {"zd": 1}, _fnr),
    (
        "clf_jaccard",
        {"zd": 1},
        lambda y, h, n, p, w, z: (
            _jaccard(y, h, n, p, w, z)
            if np.isnan(z)  # jaccard_score takes no zero_division=nan
            else skm.jaccard_score(y, h, pos_label=p, sample_weight=w, zero_division=z)
        ),
    ),
    ("clf_mcc", {}, lambda y, h, n, p, w, z: skm.matthews_corrcoef(y, h, sample_weight=w)),
    ("clf_cohen_kappa", {}, lambda y, h, n, p, w, z: skm.cohen_kappa_score(y, h, sample_weight=w)),
    (
        "clf_balanced_accuracy",
        {},
        lambda y, h, n, p, w, z: skm.balanced_accuracy_score(y, h, sample_weight=w),
    ),
    (
        "clf_balanced_accuracy",
        {"adjusted": True},
        lambda y, h, n, p, w, z: _finite(
            skm.balanced_accuracy_score(y, h, sample_weight=w, adjusted=True)
        ),
    ),
]


@SETTINGS
@given(case=frames(), weighted=st.booleans(), zd=st.sampled_from([0.0, 1.0, None]))
def test_aggregate_label_macros_match_sklearn(con, case, weighted, zd):
    df, (neg, pos) = case
    # every macro in one GROUP BY query, as an analyst would write it (names here are fixed)
    calls = []
    for i, (macro, extra, _) in enumerate(AGGREGATES):
        args = ["y", "yhat", *(["$beta"] if "beta" in extra else [])]
        if "pos_label" in sql.AGGREGATE_MACROS[macro].options:
            args.append("pos_label := $pos")
        if "zd" in extra:
            args.append("zero_division := $zd")
        if "adjusted" in extra:
            args.append("adjusted := true")
        if weighted:
            args.append("weight := w")
        calls.append(f"{macro}({', '.join(args)}) AS m{i}")
    con.register("agg_case", df)
    try:
        res = con.sql(
            f"SELECT g1, g2, {', '.join(calls)} FROM agg_case GROUP BY ALL",
            params={"pos": pos, "zd": zd, "beta": 2.0},
        ).pl()
    finally:
        con.unregister("agg_case")
    assert all(res.schema[f"m{i}"] == pl.Float64 for i in range(len(AGGREGATES)))
    for key, sub in groups(df):
        y, yhat, _, w = arrays(sub, weighted)
        if w is not None and w.sum() == 0:
            continue
        row = pick(res, key).row(0, named=True)
        for i, (macro, extra, reference) in enumerate(AGGREGATES):
            expected = sk(reference, y, yhat, neg, pos, w, np.nan if zd is None else zd)
            assert_close(row[f"m{i}"], expected, f"{macro} {extra}")


def test_aggregate_helper_groups_weights_and_names_the_value(con):
    df = _sample().with_columns(seg=pl.Series(["x", None] * 6))
    res = sql.aggregate(
        "clf_fbeta",
        df,
        "y",
        "yhat",
        by=["seg", "model"],
        weight="w",
        beta=2.0,
        pos_label=0,
        zero_division=None,
        con=con,
    )
    assert res.columns == ["seg", "model", "fbeta"]
    assert res.select("seg", "model").rows() == [
        ("x", "m1"),
        ("x", "m2"),
        (None, "m1"),
        (None, "m2"),
    ]
    for seg, model, value in res.rows():
        sub = df.filter(pl.col("seg").eq_missing(seg) & (pl.col("model") == model))
        expected = skm.fbeta_score(
            sub["y"],
            sub["yhat"],
            beta=2.0,
            pos_label=0,
            sample_weight=sub["w"],
            zero_division=np.nan,
        )
        assert_close(value, expected)
    assert sql.aggregate("clf_accuracy", df, "y", "yhat", con=con).columns == ["accuracy"]
    with pytest.raises(InputError, match="needs beta="):
        sql.aggregate("clf_fbeta", df, "y", "yhat", con=con)


@SETTINGS
@given(case=frames(), weighted=st.booleans())
def test_aggregate_probability_macros_match_sklearn(con, case, weighted):
    df, (neg, pos) = case
    weight = "w" if weighted else None
    loss = sql.aggregate("clf_log_loss", df, "y", "s", by=BY, weight=weight, pos_label=pos, con=con)
    brier = sql.aggregate("clf_brier", df, "y", "s", by=BY, weight=weight, pos_label=pos, con=con)
    prev = sql.aggregate("clf_prevalence", df, "y", by=BY, weight=weight, pos_label=pos, con=con)
    for key, sub in groups(df):
        y, _, s, w = arrays(sub, weighted)
        if w is not None and w.sum() == 0:
            assert pick(loss, key)["log_loss"].item() is None
            continue
        assert_close(
            pick(loss, key)["log_loss"].item(),
            sk(skm.log_loss, y, s, labels=[neg, pos], sample_weight=w),
        )
        assert_close(
            pick(brier, key)["brier"].item(),
            sk(skm.brier_score_loss, y, s, pos_label=pos, sample_weight=w),
        )
        assert_close(pick(prev, key)["prevalence"].item(), np.average(y == pos, weights=w))


def test_aggregate_macros_compose_with_group_by_in_plain_sql(con):
    rows = con.sql(
        "SELECT m, clf_precision(y, yhat), clf_recall(y, yhat, pos_label := 0), "
        "clf_log_loss(y, p), clf_accuracy(y, yhat, weight := w) "
        "FROM (VALUES ('a', 1, 1, 0.9, 1), ('a', 0, 1, 0.4, 3), ('b', 1, 0, 0.2, 1)) "
        "t(m, y, yhat, p, w) GROUP BY m ORDER BY m"
    ).fetchall()
    assert rows[0][:3] == ("a", 0.5, 0.0)
    assert rows[0][3] == pytest.approx(skm.log_loss([1, 0], [0.9, 0.4]), rel=1e-12)
    assert rows[0][4] == 0.25
    assert rows[1][:3] == ("b", 0.0, 0.0)


def test_nulls_are_left_out_and_nan_scores_count_as_null_in_aggregates(con):
    """The SQL macros follow aggregate semantics (rows with a null left out, a NaN score
    counted as null); the Python front door raises on them unless told to drop them, and
    then gives the same numbers."""
    df = pl.DataFrame(
        {
            "y": [1, 0, None, 1, 0, 1],
            "yhat": [1, 1, 0, None, 0, 0],
            "p": [0.9, 0.2, 0.5, 0.7, float("nan"), None],
            "w": [1.0, 2.0, 1.0, 1.0, None, 3.0],
        }
    )
    con.register("nulls", df)
    complete = df.filter(pl.col("y").is_not_null() & pl.col("yhat").is_not_null())
    for macro in ("clf_precision", "clf_recall", "clf_mcc", "clf_accuracy"):
        raw = con.sql(f"SELECT {macro}(y, yhat) FROM nulls").fetchall()[0][0]
        expected = sql.aggregate(macro, complete, "y", "yhat", con=con).item(0, 0)
        assert_close(raw, expected, macro)
        dropped = sql.aggregate(macro, df.drop("p", "w"), "y", "yhat", con=con, missing="drop")
        assert_close(dropped.item(0, 0), expected, macro)
        with pytest.raises(InputError, match="null"):
            sql.aggregate(macro, df, "y", "yhat", con=con)
    weighted = df.drop_nulls(["y", "yhat", "w"])
    assert_close(
        con.sql("SELECT clf_f1(y, yhat, weight := w) FROM nulls").fetchall()[0][0],
        sk(skm.f1_score, weighted["y"], weighted["yhat"], sample_weight=weighted["w"]),
    )
    scored = df.filter(
        pl.col("p").is_not_nan() & pl.col("p").is_not_null() & pl.col("y").is_not_null()
    )
    assert_close(
        con.sql("SELECT clf_log_loss(y, p) FROM nulls").fetchall()[0][0],
        sk(skm.log_loss, scored["y"], scored["p"], labels=[0, 1]),
    )
    front = sql.aggregate(
        "clf_log_loss", df.drop("yhat", "w"), "y", "p", con=con, missing="drop", nonfinite="drop"
    )
    assert_close(front.item(0, 0), sk(skm.log_loss, scored["y"], scored["p"], labels=[0, 1]))
    curve = sql.roc_curve(df.drop("yhat", "w"), "y", "p", con=con, missing="drop", nonfinite="drop")
    expected = sk(skm.roc_curve, scored["y"], scored["p"])
    assert_points(curve, dict(zip(["fpr", "tpr", "threshold"], expected)))


# --- sources: Parquet, database files, LazyFrames, Enums ---------------------------------


def _sample() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "model": ["m1"] * 6 + ["m2"] * 6,
            "y": [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0],
            "yhat": [1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0],
            "s": [0.9, 0.1, 0.5, 0.5, 0.5, 0.2, 0.8, 0.7, 0.3, 0.7, 0.4, 0.1],
            "w": [1, 2, 1, 0, 3, 1, 2, 2, 1, 1, 1, 5],
        }
    )


def _all_results(data: Any, con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    by = {"by": "model", "con": con}
    return {
        "confusion": sql.confusion_matrix(data, "y", "yhat", weight="w", **by),
        "counts": sql.counts(data, "y", "yhat", **by),
        "report": sql.report(data, "y", "yhat", **by),
        "metrics": sql.metrics(data, "y", "yhat", average="macro", **by),
        "roc": sql.roc_curve(data, "y", "s", weight="w", **by),
        "pr": sql.pr_curve(data, "y", "s", **by),
        "det": sql.det_curve(data, "y", "s", **by),
        "thresholds": sql.thresholds(data, "y", "s", **by),
        "auroc": sql.auroc(data, "y", "s", weight="w", **by),
        "ap": sql.average_precision(data, "y", "s", **by),
        "calibration": sql.calibration(data, "y", "s", n_bins=4, **by),
        "gain": sql.gain_curve(data, "y", "s", **by),
        "f1": sql.aggregate("clf_f1", data, "y", "yhat", **by),
    }


def test_parquet_file_view_and_database_file_give_the_frame_results(tmp_path: Path, con):
    df = _sample()
    expected = _all_results(df, con)
    for model, auroc in expected["auroc"].rows():
        sub = df.filter(pl.col("model") == model)
        assert_close(auroc, skm.roc_auc_score(sub["y"], sub["s"], sample_weight=sub["w"]))
    for name, frame in _all_results(df.lazy(), con).items():
        assert frame.equals(expected[name]), name
    parquet = tmp_path / "preds.parquet"
    df.write_parquet(parquet)
    for name, frame in _all_results(str(parquet), con).items():
        assert frame.equals(expected[name]), name

    path = tmp_path / "eval.duckdb"
    with duckdb.connect(str(path)) as db:
        sql.load(db)
        literal = "'" + str(parquet).replace("'", "''") + "'"  # DDL takes no parameters
        db.execute(f"CREATE VIEW preds AS SELECT * FROM read_parquet({literal})")
        for name, frame in _all_results("preds", db).items():
            assert frame.equals(expected[name]), name
    with duckdb.connect(str(path)) as db:  # macros and the view persist in the file
        assert db.sql(
            "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'clf_roc_curve'"
        ).fetchall() == [(1,)]
        for name, frame in _all_results("preds", db).items():
            assert frame.equals(expected[name]), name


def test_group_columns_come_first_in_by_order_whatever_the_table_order(con):
    df = _sample().with_columns(seg=pl.Series([None, "x"] * 6))
    con.register("ordered_preds", df)
    try:
        res = sql.auroc("ordered_preds", "y", "s", by=["seg", "model"], con=con)
    finally:
        con.unregister("ordered_preds")
    assert res.columns == ["seg", "model", "auroc"]
    assert res.select("seg", "model").rows() == [
        ("x", "m1"),
        ("x", "m2"),
        (None, "m1"),
        (None, "m2"),
    ]


def test_enum_labels_follow_category_order_and_come_back_as_enum(con):
    kinds = pl.Enum(["pos", "neg", "odd"])
    df = pl.DataFrame(
        {"y": ["neg", "pos", "pos", "neg"], "yhat": ["pos", "pos", "neg", "neg"]},
        schema={"y": kinds, "yhat": kinds},
    )
    cm = sql.confusion_matrix(df, "y", "yhat", con=con)
    assert cm.schema["actual"] == kinds
    assert cm["actual"].cast(pl.String).to_list() == ["pos", "pos", "neg", "neg"]
    assert cm["count"].to_list() == [1, 1, 1, 1]
    assert sql.report(df, "y", "yhat", con=con)["label"].to_list()[:2] == ["pos", "neg"]
    precision = sql.metrics(df, "y", "yhat", pos_label="pos", con=con)["precision"].item()
    assert precision == 0.5


def test_loading_twice_is_harmless_and_files_load_in_order(con):
    sql.load(con)
    sql.load(con)
    assert con.sql("SELECT clf_accuracy(1, 1)").fetchall() == [(1.0,)]
    names = [f.name for f in sql.files()]
    assert names == sorted(names)
    assert names[0] == "00_helpers.sql"
    assert len(names) == 12
    assert sql.text() == "\n".join(f.read_text(encoding="utf-8") for f in sql.files())
    fresh = duckdb.connect()  # `cat sql/*.sql | duckdb`: the files alone, one after another
    for f in sql.files():
        fresh.execute(f.read_text(encoding="utf-8"))
    fresh.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.8), (0, 0.3), (1, 0.3)) v(y, s)")
    assert fresh.sql("FROM clf_auroc('t', 'y', 's')").fetchall() == [(0.75,)]
    fresh.close()


def test_every_public_macro_has_a_comment_and_a_python_entry(con):
    rows = con.sql(
        "SELECT DISTINCT function_name, function_type, comment FROM duckdb_functions() "
        "WHERE function_name LIKE 'clf\\_%' ESCAPE '\\'"
    ).fetchall()
    found = {name: (kind, comment) for name, kind, comment in rows}
    assert set(found) == set(sql.TABLE_MACROS) | set(sql.AGGREGATE_MACROS)
    for name, (kind, comment) in found.items():
        assert len(comment or "") > 60, name
        assert (kind == "table_macro") == (name in sql.TABLE_MACROS), name


def _code(script: str) -> str:
    """SQL without comments and string literals."""
    script = re.sub(r"--[^\n]*", "", script)
    return re.sub(r"'(?:[^']|'')*'", "''", script)


def test_sql_files_follow_the_conventions():
    for f in sql.files():
        code = _code(f.read_text(encoding="utf-8"))
        assert "//" not in code, f.name
        assert "%" not in code, f.name
        assert not re.search(r"COLUMNS\(\s*'", code), f.name  # a string there is a regex
        creates = re.findall(r"CREATE\s+(OR\s+REPLACE\s+)?MACRO", code)
        assert creates, f.name
        assert all(creates), f.name
        public = re.findall(r"MACRO\s+(clf_\w+)", code)
        commented = re.findall(
            r"COMMENT ON MACRO (?:TABLE )?(clf_\w+)", f.read_text(encoding="utf-8")
        )
        assert sorted(set(public)) == sorted(commented), f.name


# --- hostile identifiers ------------------------------------------------------------------

HOSTILE = [
    "my y",
    'say "hi"',
    "it's",
    "a;b",
    "x -- y",
    "select",
    "group",
    "ünï¢ødé ✓",
    'x"; DROP TABLE preds; --',
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_identifiers_work_and_inject_nothing(con, name):
    con.execute("CREATE OR REPLACE TABLE preds AS SELECT 1 AS keep")
    base = _sample()
    plain = _all_results(base, con)
    renamed = base.rename({"model": name, "s": name + " score", "y": name + "_y"})
    got = {
        "auroc": sql.auroc(renamed, name + "_y", name + " score", by=name, weight="w", con=con),
        "confusion": sql.confusion_matrix(
            renamed, name + "_y", "yhat", by=name, weight="w", con=con
        ),
        "f1": sql.aggregate("clf_f1", renamed, name + "_y", "yhat", by=name, con=con),
    }
    for key, frame in got.items():
        assert frame.rename({name: "model"}).equals(plain[key]), key
    con.register("renamed_preds", renamed)
    try:
        con.execute(f"CREATE OR REPLACE TABLE {sql.quote(name)} AS FROM renamed_preds")
        roc = sql.roc_curve(
            sql.quote(name), name + "_y", name + " score", by=name, weight="w", con=con
        )
        assert roc.rename({name: "model"}).equals(plain["roc"])
        if '"' in name:  # unquoted, DuckDB cannot parse it as a table name: an error, no harm
            with pytest.raises(InputError, match="cannot be read"):
                sql.roc_curve(name, name + "_y", name + " score", con=con)
    finally:
        con.execute(f"DROP TABLE {sql.quote(name)}")
        con.unregister("renamed_preds")
    assert con.sql("SELECT * FROM preds").fetchall() == [(1,)]


def test_case_collisions_and_reserved_names_raise(con):
    df = pl.DataFrame({"y": [1, 0], "Y": [1, 1], "s": [0.3, 0.6]})
    with pytest.raises(InputError, match="differ only in case") as err:
        sql.confusion_matrix(df, "y", "Y", con=con)
    assert err.value.rule == "case_collision"
    sql.auroc(df, "y", "s", con=con)  # an unused colliding column does no harm
    with pytest.raises(InputError, match="reserved prefix"):
        sql.auroc(df.rename({"s": "__clf_s"}), "y", "__clf_s", con=con)
    with pytest.raises(InputError, match="collides with an output column"):
        sql.roc_curve(df.with_columns(fpr=pl.lit("a")), "y", "s", by="fpr", con=con)


# --- errors -------------------------------------------------------------------------------


def test_missing_columns_and_tables_raise_input_error_naming_them(con):
    df = _sample()
    with pytest.raises(InputError, match=r"column 'ss' \(score\) not found") as err:
        sql.roc_curve(df, "y", "ss", con=con)
    assert (err.value.column, err.value.role, err.value.rule) == ("ss", "score", "missing_column")
    assert str(err.value).endswith(
        "Hint: the frame has ['model', 'y', 'yhat', 's', 'w']; did you mean 's'?"
    )
    with pytest.raises(InputError, match=r"(?s)column 'Y' \(y\) not found.*did you mean 'y'"):
        sql.counts(df, "Y", "yhat", con=con)
    with pytest.raises(InputError, match=r"column 'grp' \(by\)"):
        sql.counts(df, "y", "yhat", by="grp", con=con)
    with pytest.raises(InputError, match="cannot be read") as err:
        sql.auroc("no_such_table", "y", "s", con=con)
    assert err.value.rule == "missing_table"
    con.register("some_preds", df)
    try:  # plain SQL: DuckDB's own error names the column
        with pytest.raises(duckdb.BinderException, match='Column "nope"'):
            con.sql("FROM clf_auroc(?, 'y', 'nope')", params=["some_preds"]).fetchall()
    finally:
        con.unregister("some_preds")


@pytest.mark.parametrize(
    ("bad", "rule", "sql_text"),
    [
        ([float("nan"), float("nan")], "nan", "has 2 NaN value(s); scores must be finite"),
        ([float("inf"), 0.5], "inf", "has 1 infinite value(s); scores must be finite"),
    ],
)
@pytest.mark.parametrize("ties", [False, True], ids=["row_plan", "group_plan"])
def test_nonfinite_scores_raise_with_the_documented_wording(con, bad, rule, sql_text, ties):
    df = pl.DataFrame({"y": [1, 0, 1, 0], "s": [0.3, 0.6, *bad]})
    if ties:  # mostly one score: the macros take the GROUP BY plan, which checks on its own
        df = pl.concat([df, pl.DataFrame({"y": [0, 1] * 10, "s": [0.5] * 20})])
    for fn in (
        sql.roc_curve,
        sql.pr_curve,
        sql.thresholds,
        sql.auroc,
        sql.average_precision,
        sql.gain_curve,
    ):
        with pytest.raises(InputError) as err:
            fn(df, "y", "s", con=con)
        assert (err.value.column, err.value.role, err.value.rule) == ("s", "score", rule)
        assert str(err.value).startswith("column 's' (score) has ")
    con.register("bad_scores", df)
    try:
        with pytest.raises(duckdb.InvalidInputException) as raw:
            con.sql("FROM clf_roc_curve('bad_scores', 'y', 's')").fetchall()
    finally:
        con.unregister("bad_scores")
    assert f"clfeval: column 's' (role score) {sql_text}" in str(raw.value)


def test_probabilities_outside_unit_interval_raise(con):
    df = pl.DataFrame({"y": [1, 0, 1], "p": [0.2, 1.5, -0.25]})
    with pytest.raises(
        InputError, match=r"column 'p' \(proba\) has 2 value\(s\) outside \[0, 1\]"
    ) as err:
        sql.calibration(df, "y", "p", con=con)
    assert err.value.rule == "probability_range"
    assert "min -0.25, max 1.5" in str(err.value)
    with pytest.raises(InputError, match=r"NaN"):
        sql.calibration(df.with_columns(p=pl.lit(float("nan"))), "y", "p", con=con)
    for macro in ("clf_log_loss", "clf_brier"):
        with pytest.raises(InputError, match=r"column 'p' \(proba\) has 2 value\(s\) outside"):
            sql.aggregate(macro, df, "y", "p", con=con)


# values on and just past the edges of what the checks allow (-0.0 is 0; 1e-300 below 0 is not)
EDGE_P = [
    0.1,
    0.7,
    0.0,
    -0.0,
    1.0,
    1 + 1e-12,
    -1e-300,
    2.0,
    float("nan"),
    float("inf"),
    -float("inf"),
]
EDGE_W = [1.0, 2.5, 0.0, -0.0, -1.0, -1e-300, float("nan"), float("inf"), -float("inf")]


def _outcome(run: Callable[[], pl.DataFrame]) -> pl.DataFrame | str:
    try:
        return run()
    except InputError as err:
        return str(err)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_table_is_checked_as_the_front_door_checks_a_frame(con, data):
    """The check pass over a DuckDB table (the columns' smallest and largest values first, the
    counts only when those cannot clear every check) raises what the Polars front door raises
    on the same rows, and lets through what it lets through."""
    n = data.draw(st.integers(1, 8))
    rows = st.lists(st.sampled_from(EDGE_P), min_size=n, max_size=n)
    df = pl.DataFrame(
        {
            "y": data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)),
            "p": data.draw(rows),
            "w": data.draw(st.lists(st.sampled_from(EDGE_W), min_size=n, max_size=n)),
        },
        schema={"y": pl.Int64, "p": pl.Float64, "w": pl.Float64},
    )
    weight = data.draw(st.sampled_from([None, "w"]))
    con.execute("CREATE OR REPLACE TABLE edge_rows AS SELECT * FROM df")
    try:
        for front, table in ((ce.calibration, sql.calibration), (ce.roc_curve, sql.roc_curve)):
            want = _outcome(lambda f=front: f(df, "y", "p", weight=weight))
            got = _outcome(lambda t=table: t("edge_rows", "y", "p", weight=weight, con=con))
            if isinstance(want, str) or isinstance(got, str):
                assert got == want
            else:
                assert got.columns == want.columns
                assert_close(got.to_numpy(), want.to_numpy())
    finally:
        con.execute("DROP TABLE edge_rows")


def test_option_errors_are_clear(con):
    df = pl.DataFrame({"y": [0, 1, 2], "yhat": [0, 2, 1], "s": [0.1, 0.2, 0.3]})
    with pytest.raises(InputError, match=r"has 3 classes \[0, 1, 2\] but average='binary'") as err:
        sql.metrics(df, "y", "yhat", con=con)
    assert (err.value.column, err.value.rule) == ("y", "multiclass_binary")
    with pytest.raises(InputError, match="average='mean' is not one of"):
        sql.metrics(df, "y", "yhat", average="mean", con=con)
    with pytest.raises(InputError, match="pos_label=5 is not a class"):
        sql.metrics(
            df.filter(pl.col("y") < 2).with_columns(yhat=pl.col("y")),
            "y",
            "yhat",
            pos_label=5,
            con=con,
        )
    with pytest.raises(InputError, match="strategy='even'"):
        sql.calibration(df.with_columns(y=pl.col("y") > 0), "y", "s", strategy="even", con=con)
    with pytest.raises(InputError, match="has no parameter 'average'"):
        sql.table_macro("clf_roc_curve", df, "y", "s", average="macro", con=con)
    with pytest.raises(InputError, match="is not a clfeval table macro"):
        sql.table_macro("clf_nope", df, "y", "s", con=con)
    with pytest.raises(InputError, match="pos_label=1 cannot be a class of column 'y'"):
        sql.auroc(df.with_columns(y=pl.col("y").cast(pl.String) + "x"), "y", "s", con=con)


def test_default_connection_and_string_labels_need_no_setup():
    df = pl.DataFrame({"y": ["spam", "ham", "spam"], "yhat": ["spam", "spam", "ham"]})
    res = sql.metrics(df, "y", "yhat", average="macro")  # the integer pos_label default is dropped
    assert res.columns == ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"]
    assert_close(res["f1"].item(), skm.f1_score(df["y"], df["yhat"], average="macro"))
    assert sql.metrics(df, "y", "yhat", pos_label="spam")["precision"].item() == 0.5
