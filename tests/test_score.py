"""Ranking metrics and curves: scikit-learn parity, invariances, grouping, engines, bad input.

Scores sit on a k/8 grid so ties are everywhere; integer weights 0-5 (zeros included) keep
float sums exact, so scikit-learn's ``drop_intermediate`` decisions are reproducible.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.stats import ks_2samp
from sklearn import metrics as skm

import clfeval as ce
from clfeval import _curves
from clfeval._curves import det_curve, pr_curve, roc_curve, threshold_counts
from clfeval._gain import gain_curve, lift_curve
from clfeval._score import auroc, average_precision, ks, top_k_accuracy
from clfeval._thresholds import best_threshold, thresholds
from clfeval.exceptions import InputError

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(SETTINGS, max_examples=20)  # many frame functions per example
TOL = 1e-9


# --- strategies ------------------------------------------------------------------------------


@st.composite
def binary(draw: Any, weighted: bool | None = None, max_size: int = 60) -> pl.DataFrame:
    """y in {0, 1}, s on the k/8 grid, w in 0..5 (or absent), g in a/b/c."""
    n = draw(st.integers(2, max_size))
    ints = st.lists(st.integers(0, 8), min_size=n, max_size=n)
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    assume(len(set(y)) == 2)  # a pos_label absent from eager data is an error
    cols: dict[str, Any] = {
        "y": y,
        "s": [v / 8 for v in draw(ints)],
        "g": draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n)),
    }
    if weighted is None:
        weighted = draw(st.booleans())
    if weighted:
        cols["w"] = [float(v) for v in draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))]
    return pl.DataFrame(cols)


def weights(df: pl.DataFrame) -> np.ndarray | None:
    return df["w"].to_numpy() if "w" in df.columns else None


def both_classes(df: pl.DataFrame) -> bool:
    w = weights(df)
    y = df["y"].to_numpy()
    w = np.ones(len(y)) if w is None else w
    return bool(w[y == 1].sum() > 0 and w[y == 0].sum() > 0)


@st.composite
def multiclass(draw: Any, min_k: int = 3, weighted: bool = False) -> tuple[pl.DataFrame, int]:
    """y in 0..k-1 (every class present), p0..p{k-1} rows of small-integer ratios."""
    k = draw(st.integers(min_k, 6))
    n = draw(st.integers(k, 50))
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    assume(len(set(y)) == k)
    raw = np.array(
        draw(st.lists(st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=n, max_size=n)),
        dtype=float,
    )
    raw[raw.sum(axis=1) == 0, 0] = 1.0
    proba = raw / raw.sum(axis=1, keepdims=True)
    cols: dict[str, Any] = {"y": y} | {f"p{c}": proba[:, c] for c in range(k)}
    if weighted:
        cols["w"] = [float(v) for v in draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))]
    return pl.DataFrame(cols), k


def close(got: Any, expected: Any) -> None:
    np.testing.assert_allclose(
        np.asarray(got, dtype=float), np.asarray(expected, dtype=float), rtol=TOL, atol=TOL
    )


def wkw(df: pl.DataFrame) -> dict[str, Any]:
    return {"weight": "w"} if "w" in df.columns else {}


# --- curves: the same points as scikit-learn ----------------------------------------------------


@SETTINGS
@given(binary(), st.booleans())
def test_roc_curve_matches_sklearn(df: pl.DataFrame, drop: bool) -> None:
    assume(both_classes(df))
    fpr, tpr, thr = skm.roc_curve(
        df["y"], df["s"], sample_weight=weights(df), drop_intermediate=drop
    )
    out = roc_curve(df, "y", "s", drop_intermediate=drop, **wkw(df))
    assert out.columns == ["threshold", "fpr", "tpr"]
    close(out["threshold"], thr)
    close(out["fpr"], fpr)
    close(out["tpr"], tpr)


@SETTINGS
@given(binary(), st.booleans())
def test_pr_curve_matches_sklearn(df: pl.DataFrame, drop: bool) -> None:
    assume(both_classes(df))
    p, r, thr = skm.precision_recall_curve(
        df["y"], df["s"], sample_weight=weights(df), drop_intermediate=drop
    )
    out = pr_curve(df, "y", "s", drop_intermediate=drop, **wkw(df))
    assert out.columns == ["threshold", "precision", "recall"]
    assert out["threshold"][-1] is None
    close(out["threshold"][:-1], thr)
    close(out["precision"], p)
    close(out["recall"], r)


@SETTINGS
@given(binary(), st.booleans())
def test_det_curve_matches_sklearn(df: pl.DataFrame, drop: bool) -> None:
    assume(both_classes(df))
    fpr, fnr, thr = skm.det_curve(
        df["y"], df["s"], sample_weight=weights(df), drop_intermediate=drop
    )
    out = det_curve(df, "y", "s", drop_intermediate=drop, **wkw(df))
    close(out["threshold"], thr)
    close(out["fpr"], fpr)
    close(out["fnr"], fnr)


@SETTINGS
@given(binary(), st.sampled_from(["group", "sort"]))
def test_both_plans_give_the_same_rows(df: pl.DataFrame, plan: str) -> None:
    expected = threshold_counts(df, "y", "s", by="g", **wkw(df))
    old = _curves.PLAN
    _curves.PLAN = plan  # type: ignore[assignment]
    try:
        got = threshold_counts(df, "y", "s", by="g", **wkw(df))
    finally:
        _curves.PLAN = old
    assert got.equals(expected)


@SETTINGS
@given(binary(), st.sampled_from(["group", "sort"]))
def test_metrics_ranks_from_counts_like_the_expressions(df: pl.DataFrame, plan: str) -> None:
    """ce.metrics computes binary AUROC and AP from the threshold counts (either plan): per
    group the same as the expressions and scikit-learn; a group without a class is null."""
    names = ["auroc", "average_precision"]
    old = _curves.PLAN
    _curves.PLAN = plan  # type: ignore[assignment]
    try:
        got = ce.metrics(df, "y", score="s", metrics=names, by="g", **wkw(df))
    finally:
        _curves.PLAN = old
    exprs = [auroc("y", "s", **wkw(df)), average_precision("y", "s", **wkw(df))]
    expected = df.group_by("g").agg(exprs).sort("g")
    assert got.columns == ["g", *names]
    assert got["g"].to_list() == expected["g"].to_list()
    for name in names:
        close(got[name].fill_null(np.nan), expected[name].fill_null(np.nan))
    for row in got.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        if not both_classes(part):
            assert row["auroc"] is None
            continue
        w = weights(part)
        assert row["auroc"] == pytest.approx(
            skm.roc_auc_score(part["y"], part["s"], sample_weight=w), abs=TOL
        )
        ap = skm.average_precision_score(part["y"], part["s"], sample_weight=w)
        assert row["average_precision"] == pytest.approx(ap, abs=TOL)


@SETTINGS
@given(binary())
def test_threshold_counts_equal_direct_counts(df: pl.DataFrame) -> None:
    """Counts at t equal counting ``s >= t`` directly; confusion_matrix_at_thresholds too."""
    out = thresholds(df, "y", "s", **wkw(df))
    w = weights(df)
    w = np.ones(df.height) if w is None else w
    y, s = df["y"].to_numpy(), df["s"].to_numpy()
    keep = w != 0
    assert out["threshold"].to_list() == sorted(set(s[keep]), reverse=True)
    for row in out.iter_rows(named=True):
        flag = s >= row["threshold"]
        assert row["tp"] == pytest.approx(w[flag & (y == 1)].sum())
        assert row["fp"] == pytest.approx(w[flag & (y == 0)].sum())
        assert row["fn"] == pytest.approx(w[~flag & (y == 1)].sum())
        assert row["tn"] == pytest.approx(w[~flag & (y == 0)].sum())
    if both_classes(df):
        tns, fps, fns, tps, _thr = skm.confusion_matrix_at_thresholds(
            df["y"], df["s"], sample_weight=weights(df)
        )
        close(out.select("tn", "fp", "fn", "tp").to_numpy().T, [tns, fps, fns, tps])


@HEAVY
@given(binary(weighted=False))
def test_threshold_metrics_equal_label_metrics(df: pl.DataFrame) -> None:
    y, s = df["y"].to_numpy(), df["s"].to_numpy()
    out = thresholds(df, "y", "s", beta=2.0)
    for row in out.iter_rows(named=True):
        pred = (s >= row["threshold"]).astype(int)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = {
                "precision": skm.precision_score(y, pred, zero_division=0.0),
                "recall": skm.recall_score(y, pred, zero_division=0.0),
                "f1": skm.f1_score(y, pred, zero_division=0.0),
                "fbeta": skm.fbeta_score(y, pred, beta=2.0, zero_division=0.0),
                "accuracy": skm.accuracy_score(y, pred),
                "balanced_accuracy": skm.balanced_accuracy_score(y, pred),
                "mcc": skm.matthews_corrcoef(y, pred),
            }
        if (y == 0).any():
            expected["specificity"] = skm.recall_score(y, pred, pos_label=0, zero_division=0.0)
            expected["npv"] = skm.precision_score(y, pred, pos_label=0, zero_division=0.0)
        for name, value in expected.items():
            assert row[name] == pytest.approx(value, abs=TOL), name
        assert row["youden_j"] == pytest.approx(row["recall"] + row["specificity"] - 1)
        assert row["fpr"] == pytest.approx(1 - row["specificity"]) or not (y == 0).any()


# --- scalar metrics ----------------------------------------------------------------------------


@SETTINGS
@given(binary(), st.sampled_from([None, 0.1, 0.35, 0.5, 1.0]))
def test_auroc_matches_sklearn(df: pl.DataFrame, max_fpr: float | None) -> None:
    assume(both_classes(df))
    expected = skm.roc_auc_score(df["y"], df["s"], sample_weight=weights(df), max_fpr=max_fpr)
    got = df.select(auroc("y", "s", max_fpr=max_fpr, **wkw(df))).item()
    assert got == pytest.approx(expected, abs=TOL)


@SETTINGS
@given(binary())
def test_average_precision_and_ks(df: pl.DataFrame) -> None:
    assume(both_classes(df))
    ap = skm.average_precision_score(df["y"], df["s"], sample_weight=weights(df))
    got = df.select(average_precision("y", "s", **wkw(df))).item()
    assert got == pytest.approx(ap, abs=TOL)
    plain = df.filter(pl.col("y") == 1)["s"], df.filter(pl.col("y") == 0)["s"]
    with warnings.catch_warnings():  # scipy may warn about its p-value; only D is compared
        warnings.simplefilter("ignore", RuntimeWarning)
        statistic = ks_2samp(plain[0].to_numpy(), plain[1].to_numpy()).statistic
    assert df.select(ks("y", "s")).item() == pytest.approx(statistic, abs=TOL)


@SETTINGS
@given(multiclass(), st.sampled_from(["macro", "weighted", "micro"]), st.booleans())
def test_multiclass_ovr_matches_sklearn(data: Any, average: str, weighted: bool) -> None:
    df, k = data
    w = np.arange(df.height) % 4 + 1.0 if weighted else None
    df = df.with_columns(w=pl.Series(w)) if weighted else df
    proba = df.select(f"p{c}" for c in range(k)).to_numpy()
    mapping = {c: f"p{c}" for c in range(k)}
    kw = {"weight": "w"} if weighted else {}
    expected = skm.roc_auc_score(
        df["y"], proba, multi_class="ovr", average=average, sample_weight=w
    )
    assert df.select(auroc("y", mapping, average=average, **kw)).item() == pytest.approx(
        expected, abs=TOL
    )
    ap = skm.average_precision_score(df["y"], proba, average=average, sample_weight=w)
    got = df.select(average_precision("y", mapping, average=average, **kw)).item()
    assert got == pytest.approx(ap, abs=TOL)


@SETTINGS
@given(multiclass(), st.sampled_from(["macro", "weighted"]))
def test_multiclass_ovo_matches_sklearn(data: Any, average: str) -> None:
    df, k = data
    proba = df.select(f"p{c}" for c in range(k)).to_numpy()
    expected = skm.roc_auc_score(df["y"], proba, multi_class="ovo", average=average)
    cols = [f"p{c}" for c in range(k)]
    got = df.select(auroc("y", cols, labels=list(range(k)), multi_class="ovo", average=average))
    assert got.item() == pytest.approx(expected, abs=TOL)


@SETTINGS
@given(multiclass(min_k=2, weighted=True), st.integers(1, 4))
def test_top_k_accuracy_matches_sklearn(data: Any, k: int) -> None:
    df, n_classes = data
    proba = df.select(f"p{c}" for c in range(n_classes)).to_numpy()
    packed = df.with_columns(pl.concat_list([f"p{c}" for c in range(n_classes)]).alias("p"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # k >= n_classes is "meaningless" to sklearn
        if n_classes == 2:
            expected = skm.top_k_accuracy_score(df["y"], proba[:, 1], k=k, sample_weight=df["w"])
            got = df.select(top_k_accuracy("y", "p1", k=k, weight="w")).item()
        else:
            expected = skm.top_k_accuracy_score(
                df["y"], proba, k=k, labels=list(range(n_classes)), sample_weight=df["w"]
            )
            expr = top_k_accuracy("y", "p", k=k, labels=list(range(n_classes)), weight="w")
            got = packed.select(expr).item()
    assert got == pytest.approx(expected, abs=TOL)


def test_multiclass_expressions_in_group_by_and_over() -> None:
    rng = np.random.default_rng(7)
    proba = rng.dirichlet(np.ones(3), 60)
    df = pl.DataFrame(
        {"y": rng.integers(0, 3, 60), "g": rng.integers(0, 3, 60), "w": rng.integers(1, 4, 60)}
    ).with_columns(pl.Series(f"p{c}", proba[:, c]) for c in range(3))
    cols, labels = ["p0", "p1", "p2"], [0, 1, 2]
    exprs = [
        auroc("y", cols, labels=labels, weight="w").alias("ovr"),
        auroc("y", cols, labels=labels, multi_class="ovo", average="weighted").alias("ovo"),
        auroc("y", cols, labels=labels, average="micro").alias("micro"),
        average_precision("y", cols, labels=labels, average="weighted").alias("ap"),
        top_k_accuracy("y", cols, labels=labels, k=2, weight="w").alias("top2"),
    ]
    agg = df.group_by("g").agg(exprs).sort("g")
    windowed = df.select("g", *[e.over("g") for e in exprs]).unique().sort("g")
    assert windowed.equals(agg)
    for row in agg.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        alone = part.select(exprs).row(0, named=True)
        assert alone == pytest.approx({k: v for k, v in row.items() if k != "g"}, abs=TOL)
        proba_g = part.select(cols).to_numpy()
        expected = skm.roc_auc_score(part["y"], proba_g, multi_class="ovo", average="weighted")
        assert row["ovo"] == pytest.approx(expected, abs=TOL)


def test_top_k_binary_threshold_rule() -> None:
    """scikit-learn thresholds decision values (outside [0, 1]) at 0, probabilities at 0.5."""
    df = pl.DataFrame({"y": [0, 1, 1, 0], "s": [-0.5, 0.3, 2.0, 0.1]})
    expected = skm.top_k_accuracy_score(df["y"], df["s"], k=1)
    assert df.select(top_k_accuracy("y", "s", k=1)).item() == expected == 0.75


def test_single_class_is_null_not_zero() -> None:
    df = pl.DataFrame({"y": [1, 1, 1, 0, 0], "s": [0.1, 0.5, 0.9, 0.2, 0.3], "g": [1, 1, 1, 2, 2]})
    out = df.group_by("g").agg(
        auroc("y", "s"),
        auroc("y", "s", weight=pl.lit(1.0)).alias("weighted"),
        average_precision("y", "s"),
        ks("y", "s"),
    )
    got = out.sort("g").to_dicts()
    assert got[0]["auroc"] is None
    assert got[0]["weighted"] is None
    assert got[0]["ks"] is None
    assert got[0]["average_precision"] == 1.0  # every row positive: AP is defined
    assert got[1]["auroc"] is None
    assert got[1]["average_precision"] is None
    curve = roc_curve(df, "y", "s", by="g")
    no_negatives = curve.filter(pl.col("g") == 1)["fpr"]
    assert no_negatives.len() > 0
    assert no_negatives.null_count() == no_negatives.len()


def test_absent_class_is_null_and_left_out_of_macro() -> None:
    df = pl.DataFrame({"y": [0, 0, 1, 1], "a": [0.8, 0.6, 0.3, 0.1], "b": [0.1, 0.3, 0.6, 0.8]})
    df = df.with_columns(c=1 - pl.col("a") - pl.col("b"))
    scores = {0: "a", 1: "b", 2: "c"}
    per_class = df.select(auroc("y", scores, average=None)).item().to_list()
    assert per_class == [1.0, 1.0, None]
    assert df.select(auroc("y", scores)).item() == 1.0


# --- properties --------------------------------------------------------------------------------


@SETTINGS
@given(binary(), st.randoms(use_true_random=False))
def test_row_order_and_monotone_invariance(df: pl.DataFrame, rnd: Any) -> None:
    assume(both_classes(df))
    order = list(range(df.height))
    rnd.shuffle(order)
    shuffled = df[order]
    moved = df.with_columns(((pl.col("s") * 3).exp() - 7).alias("s"))
    exprs = [auroc("y", "s", **wkw(df)), average_precision("y", "s", **wkw(df))]
    base = df.select(exprs).row(0)
    for other in (shuffled, moved):
        close(other.select(exprs).row(0), base)
    a, b = roc_curve(df, "y", "s", **wkw(df)), roc_curve(moved, "y", "s", **wkw(df))
    close(a.select("fpr", "tpr").to_numpy(), b.select("fpr", "tpr").to_numpy())
    assert roc_curve(shuffled, "y", "s", **wkw(df)).equals(a)


@SETTINGS
@given(binary())
def test_auroc_symmetries_and_area(df: pl.DataFrame) -> None:
    assume(both_classes(df))
    kw = wkw(df)
    a = df.select(auroc("y", "s", **kw)).item()
    flipped = df.with_columns((1 - pl.col("y")).alias("y"), (1 - pl.col("s")).alias("s"))
    assert flipped.select(auroc("y", "s", **kw)).item() == pytest.approx(a, abs=TOL)
    other = df.with_columns((1 - pl.col("y")).alias("y"))
    assert other.select(auroc("y", "s", **kw)).item() == pytest.approx(1 - a, abs=TOL)
    assert df.select(auroc("y", "s", pos_label=0, **kw)).item() == pytest.approx(1 - a, abs=TOL)
    for drop in (True, False):
        curve = roc_curve(df, "y", "s", drop_intermediate=drop, **kw)
        area = np.trapezoid(curve["tpr"].to_numpy(), curve["fpr"].to_numpy())
        assert area == pytest.approx(a, abs=TOL)


@HEAVY
@given(binary())
def test_grouped_equals_per_group(df: pl.DataFrame) -> None:
    kw = wkw(df)
    for fn in (roc_curve, pr_curve, det_curve, thresholds, gain_curve, lift_curve):
        grouped = fn(df, "y", "s", by="g", **kw)
        assert grouped.columns[0] == "g"
        assert grouped["g"].to_list() == sorted(grouped["g"].to_list())
        for key in grouped["g"].unique().to_list():
            # lazy: a group may hold one class, which eager input rejects up front
            alone = fn(df.filter(pl.col("g") == key).lazy(), "y", "s", **kw).collect()
            assert grouped.filter(pl.col("g") == key).drop("g").equals(alone), fn.__name__
    expr = auroc("y", "s", **kw)
    agg = df.group_by("g").agg(expr.alias("v"))
    windowed = df.select("g", expr.over("g").alias("v")).unique()
    for key, value in agg.iter_rows():
        alone = df.filter(pl.col("g") == key).select(expr).item()
        assert value == alone or value == pytest.approx(alone, abs=TOL)
        assert windowed.filter(pl.col("g") == key)["v"].item() == value


@HEAVY
@given(binary())
def test_eager_lazy_streaming_agree(df: pl.DataFrame) -> None:
    kw = wkw(df)
    for fn in (roc_curve, pr_curve, det_curve, thresholds, best_threshold, gain_curve):
        eager = fn(df, "y", "s", by="g", **kw)
        lazy = fn(df.lazy(), "y", "s", by="g", **kw)
        assert isinstance(lazy, pl.LazyFrame)
        assert lazy.collect().equals(eager), fn.__name__
        assert lazy.collect(engine="streaming").equals(eager), fn.__name__
    exprs = [
        auroc("y", "s", **kw).alias("a"),
        auroc("y", "s", max_fpr=0.5, **kw).alias("b"),
        average_precision("y", "s", **kw).alias("c"),
        ks("y", "s", **kw).alias("d"),
    ]
    eager_row = df.select(exprs).row(0)
    stream_row = df.lazy().select(exprs).collect(engine="streaming").row(0)
    assert eager_row == pytest.approx(stream_row, abs=TOL, nan_ok=True)


def test_multiclass_curves_are_one_vs_rest() -> None:
    df = pl.DataFrame(
        {
            "y": ["a", "b", "c", "a", "b", "c", "a"],
            "pa": [0.6, 0.2, 0.1, 0.3, 0.3, 0.2, 0.5],
            "pb": [0.2, 0.5, 0.3, 0.3, 0.4, 0.2, 0.25],
        }
    ).with_columns(pc=1 - pl.col("pa") - pl.col("pb"))
    mapping = {"a": "pa", "b": "pb", "c": "pc"}
    packed = df.with_columns(pl.concat_list("pa", "pb", "pc").alias("p"))
    out = roc_curve(df, "y", mapping, drop_intermediate=False)
    assert out.columns == ["label", "threshold", "fpr", "tpr"]
    assert out["label"].unique(maintain_order=True).to_list() == ["a", "b", "c"]
    for label, column in mapping.items():
        alone = roc_curve(df, "y", column, pos_label=label, drop_intermediate=False)
        assert out.filter(pl.col("label") == label).drop("label").equals(alone)
    assert roc_curve(packed, "y", "p", labels=["a", "b", "c"], drop_intermediate=False).equals(out)
    by_list = pr_curve(df, "y", ["pa", "pb", "pc"], labels=["a", "b", "c"])
    assert by_list.equals(pr_curve(df, "y", mapping))


# --- best threshold ----------------------------------------------------------------------------


def test_best_threshold_rules() -> None:
    df = pl.DataFrame(
        {"y": [1, 1, 0, 1, 0, 0, 1, 0], "s": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]}
    )
    table = thresholds(df, "y", "s")
    best = best_threshold(df, "y", "s")
    assert best.columns == ["threshold", "f1", "tp", "fp", "fn", "tn"]
    top = table["f1"].max()
    assert best["f1"].item() == top
    assert best["threshold"].item() == table.filter(pl.col("f1") == top)["threshold"].max()
    f2 = best_threshold(df, "y", "s", metric="f2")
    assert f2.columns[1] == "f2"
    assert f2.row(0)[1:] == best_threshold(df, "y", "s", metric="fbeta", beta=2.0).row(0)[1:]
    lowest = best_threshold(df, "y", "s", min_precision=0.75)
    ok = table.filter(pl.col("precision") >= 0.75)
    assert lowest["threshold"].item() == ok["threshold"].min()
    highest = best_threshold(df, "y", "s", min_recall=0.75)
    assert highest["threshold"].item() == table.filter(pl.col("recall") >= 0.75)["threshold"].max()
    none = best_threshold(
        df.with_columns(g=pl.lit("x")), "y", "s", by="g", min_precision=1.0, min_recall=1.0
    )
    assert none.row(0) == ("x", None, None, None, None, None, None)


def test_thresholds_n_keeps_quantile_scores() -> None:
    df = pl.DataFrame({"y": [0, 1] * 10, "s": [i / 20 for i in range(20)]})
    out = thresholds(df, "y", "s", n=5, metrics=["recall"])
    expected = sorted(
        {float(np.quantile(df["s"], q, method="lower")) for q in np.linspace(0, 1, 5)}
    )
    assert out["threshold"].to_list() == expected[::-1]
    assert out.columns == ["threshold", "tp", "fp", "fn", "tn", "recall"]


def test_gain_and_lift() -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0, 0], "s": [0.9, 0.8, 0.8, 0.3, 0.1]})
    gain = gain_curve(df, "y", "s")
    assert gain.rows() == [(0.0, 0.0), (0.2, 0.5), (0.6, 1.0), (0.8, 1.0), (1.0, 1.0)]
    lift = lift_curve(df, "y", "s")
    close(lift["lift"], [2.5, 1 / 0.6, 1 / 0.8, 1.0])


# --- bad input ---------------------------------------------------------------------------------


def test_nan_and_inf_scores_raise_naming_the_column() -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 0], "s": [0.1, float("nan"), 0.3, 0.4]})
    with pytest.raises(InputError, match="'s'") as err:
        roc_curve(df, "y", "s")
    assert err.value.column == "s"
    assert err.value.rule == "nan"
    inf = df.with_columns(pl.Series("s", [0.1, float("inf"), 0.3, 0.4]))
    with pytest.raises(InputError, match="infinite"):
        thresholds(inf, "y", "s")
    kept = roc_curve(df, "y", "s", nonfinite="drop")
    fpr, tpr, _ = skm.roc_curve([0, 1, 0], [0.1, 0.3, 0.4])
    close(kept["fpr"], fpr)
    close(kept["tpr"], tpr)


def test_pos_label_errors() -> None:
    df = pl.DataFrame({"y": ["a", "b", "b"], "s": [0.1, 0.6, 0.7]})
    with pytest.raises(InputError, match="pos_label=1") as err:
        roc_curve(df, "y", "s")
    assert err.value.rule == "pos_label"
    with pytest.raises(InputError, match="pos_label=1"):
        roc_curve(df.lazy(), "y", "s")  # caught on the schema, before any data is read
    with pytest.raises(InputError, match="'c' is not a class"):
        pr_curve(df, "y", "s", pos_label="c")
    assert roc_curve(df, "y", "s", pos_label="b")["tpr"].to_list() == [0.0, 0.5, 1.0, 1.0]
    numbers = pl.DataFrame({"y": [0, 2, 2], "s": [0.1, 0.6, 0.7]})
    with pytest.raises(InputError, match="pos_label=1 is not a class"):
        det_curve(numbers, "y", "s")


def test_argument_errors() -> None:
    df = pl.DataFrame({"y": [0, 1, 2], "p": [[0.2, 0.3, 0.5]] * 3, "a": [0.1, 0.2, 0.3]})
    with pytest.raises(InputError, match="labels= must name them"):
        roc_curve(df, "y", "p")
    with pytest.raises(InputError, match="have no score column") as err:
        roc_curve(df, "y", "p", labels=[0, 1])
    assert err.value.rule == "unknown_label"
    with pytest.raises(InputError, match="max_fpr"):
        auroc("y", "a", max_fpr=0.0)
    with pytest.raises(InputError, match="multi_class"):
        auroc("y", "p", labels=[0, 1, 2], multi_class="ovx")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="average='micro'"):
        auroc("y", "p", labels=[0, 1, 2], multi_class="ovo", average="micro")
    with pytest.raises(InputError, match="binary only"):
        auroc("y", "p", labels=[0, 1, 2], max_fpr=0.5)
    with pytest.raises(InputError, match="needs labels="):
        auroc("y", ["a", "a"])
    with pytest.raises(InputError, match="not a column of the thresholds table"):
        best_threshold(df, "y", "a", metric="f1x")
    with pytest.raises(InputError, match="metrics"):
        thresholds(df, "y", "a", metrics=["auc"])
    with pytest.raises(InputError, match="n=1"):
        thresholds(df, "y", "a", n=1)
    with pytest.raises(InputError, match="k=0"):
        top_k_accuracy("y", "a", k=0)
    with pytest.raises(InputError, match=r"labels \[2\] have no score column"):
        roc_curve(df, "y", {0: "a", 1: "a"}, labels=[0, 1, 2])
    grouped = df.with_columns(threshold=pl.lit(1), label=pl.lit(1))
    with pytest.raises(InputError, match="'threshold' collides") as err:
        roc_curve(grouped, "y", "a", pos_label=1, by="threshold")
    assert err.value.rule == "by_name"
    with pytest.raises(InputError, match="'label' collides"):
        roc_curve(grouped, "y", "p", labels=[0, 1, 2], by="label")
    assert roc_curve(grouped, "y", "a", by="label").columns[0] == "label"  # binary: no clash


@pytest.mark.parametrize("lazy", [False, True])
def test_plan_probe_groups_tied_scores_and_sorts_distinct_ones(lazy: bool) -> None:
    """A LazyFrame's plan comes from its first 100,000 rows (a Parquet scan reads only its
    first row groups), an eager frame's from a stride; both plans give the same curve."""
    rng = np.random.default_rng(7)
    n = 150_000
    y = rng.integers(0, 2, n)
    tied = pl.DataFrame({"y": y, "s": np.round(rng.random(n), 2)})
    distinct = pl.DataFrame({"y": y, "s": rng.random(n)})
    for df, plan in [(tied, "group"), (distinct, "sort")]:
        frame = df.lazy() if lazy else df
        prep, long, _ = _curves.setup(
            frame, "y", "s", pos_label=1, labels=None, by=None, weight=None,
            missing="raise", nonfinite="raise",
        )  # fmt: skip
        assert _curves.choose_plan(prep, long) == plan
        curve = ce.roc_curve(frame, "y", "s")
        got = curve.collect(engine="streaming") if lazy else curve
        fpr, tpr, _ = skm.roc_curve(df["y"].to_numpy(), df["s"].to_numpy())
        close(got["fpr"], fpr)
        close(got["tpr"], tpr)


def test_plan_probe_counts_distinct_scores_within_groups() -> None:
    """Scores few overall but nearly distinct within each of many groups: grouping by
    (group, score) would keep nearly every row, so the probe sorts; few groups: it groups."""
    rng = np.random.default_rng(8)
    n = 400_000
    y, s = rng.integers(0, 2, n), np.round(rng.random(n), 3)
    for groups, plan in [(40_000, "sort"), (4, "group")]:
        df = pl.DataFrame({"g": np.arange(n) % groups, "y": y, "s": s})
        prep, long, _ = _curves.setup(
            df, "y", "s", pos_label=1, labels=None, by="g", weight=None,
            missing="raise", nonfinite="raise",
        )  # fmt: skip
        assert _curves.choose_plan(prep, long) == plan
