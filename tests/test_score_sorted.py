"""Unweighted AUROC and average precision from two value sorts (one per class).

The expressions sort each class's scores and count with binary searches; the front door uses
them on mostly distinct unweighted scores. Checked against pairwise counting on scores that
tie across classes and include -0.0 and 0.0 (equal), ±inf and the smallest subnormal, with
nulls and NaN left out, in select, group_by().agg(), over() and the streaming engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval as ce
from clfeval import _score
from clfeval._whole import whole_scores

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-12
POOL = [-np.inf, -1.0, -0.0, 0.0, 5e-324, 0.25, 0.5, 1.0, np.inf, np.nan, None]


def pairwise(y: np.ndarray, s: np.ndarray) -> tuple[float | None, float | None]:
    """AUROC by counting every (positive, negative) pair, AP from tp/(tp + fp) at each
    positive's score; None where undefined."""
    pos, neg = s[y == 1], s[y == 0]
    auc = None
    if len(pos) and len(neg):
        above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
        auc = above / (len(pos) * len(neg))
    ap = None
    if len(pos):
        tp = (pos[None, :] >= pos[:, None]).sum(axis=1)
        fp = (neg[None, :] >= pos[:, None]).sum(axis=1)
        ap = float(np.mean(tp / (tp + fp)))
    return auc, ap


@st.composite
def frames(draw: Any) -> pl.DataFrame:
    n = draw(st.integers(0, 40))
    y = draw(st.lists(st.sampled_from([0, 1, 1, 0, None]), min_size=n, max_size=n))
    s = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
    g = draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n))
    return pl.DataFrame(
        {"y": y, "s": s, "g": g}, schema={"y": pl.Int64, "s": pl.Float64, "g": pl.String}
    )


def expected(df: pl.DataFrame) -> tuple[float | None, float | None]:
    kept = df.filter(pl.col("y").is_not_null() & pl.col("s").is_not_null() & ~pl.col("s").is_nan())
    return pairwise(kept["y"].to_numpy(), kept["s"].to_numpy())


def same(got: float | None, want: float | None) -> None:
    assert (got is None) == (want is None), (got, want)
    if want is not None:
        assert got == pytest.approx(want, abs=TOL)


EXPRS = [ce.auroc("y", "s").alias("auroc"), ce.average_precision("y", "s").alias("ap")]


@SETTINGS
@given(frames())
def test_ties_infinities_and_missing_match_pairwise_counts(df: pl.DataFrame) -> None:
    auc, ap = expected(df)
    got = df.select(EXPRS).row(0)
    same(got[0], auc)
    same(got[1], ap)
    streamed = df.lazy().select(EXPRS).collect(engine="streaming").row(0)
    assert streamed == got


@SETTINGS
@given(frames())
def test_group_by_and_over_are_per_group(df: pl.DataFrame) -> None:
    agg = df.group_by("g").agg(EXPRS).sort("g")
    over = df.select("g", *[e.over("g") for e in EXPRS]).unique().sort("g")
    assert over.equals(agg)
    for key, auc, ap in agg.iter_rows():
        want = expected(df.filter(pl.col("g") == key))
        same(auc, want[0])
        same(ap, want[1])


@pytest.mark.parametrize("n", [2, 7, 500])
def test_front_door_on_distinct_scores_matches_sklearn(n: int) -> None:
    """Mostly distinct scores: unweighted through the expressions, weighted and partial AUROC
    through the threshold counts; grouped too. Every number is scikit-learn's."""
    rng = np.random.default_rng(n)
    y = np.r_[0, 1, rng.integers(0, 2, n - 2)]
    s = rng.random(n)
    s[: n // 5] = s[n // 5 : 2 * (n // 5)]  # some ties across rows (and classes)
    w = rng.integers(0, 4, n).astype(float)
    w[:2] = 1.0
    g = np.where(np.arange(n) % 2 == 0, "a", "b")
    df = pl.DataFrame({"y": y, "s": s, "w": w, "g": g})
    out = ce.metrics(df, "y", score="s", metrics=["auroc", "average_precision"])
    assert out["auroc"].item() == pytest.approx(skm.roc_auc_score(y, s), abs=TOL)
    assert out["average_precision"].item() == pytest.approx(
        skm.average_precision_score(y, s), abs=TOL
    )
    weighted = ce.metrics(df, "y", score="s", metrics=["auroc"], weight="w")
    assert weighted.item() == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), abs=TOL)
    partial = ce.metrics(df, "y", score="s", metrics=["auroc"], max_fpr=0.3)
    assert partial.item() == pytest.approx(skm.roc_auc_score(y, s, max_fpr=0.3), abs=TOL)
    grouped = ce.metrics(df, "y", score="s", metrics=["auroc"], by="g", missing="drop")
    for key, value in grouped.select("g", "auroc").iter_rows():
        m = g == key
        if len(set(y[m])) < 2:
            assert value is None
        else:
            assert value == pytest.approx(skm.roc_auc_score(y[m], s[m]), abs=TOL)


@SETTINGS
@given(df=frames(), pos_label=st.sampled_from([0, 1]))
def test_the_whole_column_plan_matches_pairwise_counts(df: pl.DataFrame, pos_label: int) -> None:
    """The front door's plan for one eager column (the classes sorted in one query, searched
    in NumPy): ties across classes, -0.0 and 0.0, infinities, nulls and NaN left out."""
    got = whole_scores(df.lazy(), "y", "s", pos_label, ["auroc", "average_precision"]).collect()
    flipped = df.with_columns(pl.col("y").replace_strict({0: 1, 1: 0}, default=None))
    want = expected(df if pos_label == 1 else flipped)
    same(got["auroc"].item(), want[0])
    same(got["average_precision"].item(), want[1])
    assert got.schema == pl.Schema({"auroc": pl.Float64, "average_precision": pl.Float64})


@pytest.mark.parametrize("tied", [0.0, 0.01, 0.5])
def test_the_whole_column_plan_matches_sklearn_on_long_columns(tied: float) -> None:
    """300,000 rows (long sorted classes, a search per positive): no ties, and 1% or half the
    rows rounded onto a coarse grid that ties across classes (the second search)."""
    rng = np.random.default_rng(17)
    n = 300_000
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.normal(size=n) + y
    coarse = rng.random(n) < tied
    s[coarse] = np.round(s[coarse], 2)
    df = pl.DataFrame({"y": y, "s": s})
    got = whole_scores(df.lazy(), "y", "s", 1, ["auroc", "average_precision"]).collect().row(0)
    assert got[0] == pytest.approx(skm.roc_auc_score(y, s), abs=TOL)
    assert got[1] == pytest.approx(skm.average_precision_score(y, s), abs=TOL)


@st.composite
def per_class_frames(draw: Any) -> tuple[pl.DataFrame, dict[str, str]]:
    """Three scored classes ("a" never occurs in some draws; "d", not scored, is left out),
    tied scores, nulls and NaN in y and in any class's score column."""
    n = draw(st.integers(0, 40))
    labels = st.sampled_from(["a", "b", "c", "d", None] if draw(st.booleans()) else ["b", "c"])
    data: dict[str, Any] = {"y": draw(st.lists(labels, min_size=n, max_size=n))}
    for c in "abc":
        data[f"p_{c}"] = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
    schema = {"y": pl.String, **{f"p_{c}": pl.Float64 for c in "abc"}}
    return pl.DataFrame(data, schema=schema), {c: f"p_{c}" for c in "abc"}


@SETTINGS
@given(data=per_class_frames(), average=st.sampled_from(["macro", "weighted"]))
def test_the_whole_column_plan_one_vs_rest_equals_the_expressions(
    data: tuple[pl.DataFrame, dict[str, str]], average: Any
) -> None:
    """One-vs-rest through the whole-column plan (each class sorted once, searched in NumPy):
    the expressions' numbers, with a row left out for every class when any of its scores is
    null or NaN, and an absent class null and left out of the average."""
    df, mapping = data
    names = ["auroc", "average_precision"]
    got = whole_scores(df.lazy(), "y", mapping, None, names, average=average).collect()
    want = df.select(
        ce.auroc("y", mapping, average=average), ce.average_precision("y", mapping, average=average)
    )
    for name in names:
        same(got[name].item(), want[name].item())
    assert got.schema == pl.Schema(dict.fromkeys(names, pl.Float64))


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_the_front_door_one_vs_rest_matches_sklearn(average: str) -> None:
    """200,000 rows, four classes, a quarter of the probabilities rounded (ties across
    classes): ``ce.metrics`` (the whole-column plan) gives scikit-learn's numbers."""
    rng = np.random.default_rng(3)
    n, k = 200_000, 4
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.0
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    rounded = rng.random(n) < 0.25
    proba[rounded] = np.round(proba[rounded], 2)
    proba[rounded] /= proba[rounded].sum(axis=1, keepdims=True)
    df = pl.DataFrame({"y": y, **{f"p{c}": proba[:, c] for c in range(k)}})
    scores = {c: f"p{c}" for c in range(k)}
    got = ce.metrics(
        df, "y", score=scores, metrics=["auroc", "average_precision"], average=average
    ).row(0)
    assert got[0] == pytest.approx(
        skm.roc_auc_score(y, proba, multi_class="ovr", average=average), abs=TOL
    )
    assert got[1] == pytest.approx(
        skm.average_precision_score(np.eye(k)[y], proba, average=average), abs=TOL
    )


@pytest.mark.parametrize("plan", ["whole", "rank"])
@SETTINGS
@given(df=frames())
def test_every_sort_plan_matches_pairwise_counts(df: pl.DataFrame, plan: str) -> None:
    """The plans frame functions pick (a whole column sorted as a column, one rank per small
    group) give the default plan's numbers, ties, infinities and missing values included."""
    with _score.sort_plan(plan):  # type: ignore[arg-type]
        exprs = [ce.auroc("y", "s").alias("auroc"), ce.average_precision("y", "s").alias("ap")]
    for key, auc, ap in df.group_by("g").agg(exprs).iter_rows():
        want = expected(df.filter(pl.col("g") == key))
        same(auc, want[0])
        same(ap, want[1])
    got = df.select(exprs).row(0)
    want = expected(df)
    same(got[0], want[0])
    same(got[1], want[1])


@pytest.mark.parametrize(
    ("rows", "groups", "small"),
    [(200_000, 20, False), (200_000, 1_000, True), (2_000_000, 10_000, True), (50, 1, True)],
)
def test_small_groups_probe_sees_periodic_keys(rows: int, groups: int, small: bool) -> None:
    """Keys that repeat with a period (row i in group i % groups) would alias a stride."""
    frame = pl.LazyFrame({"g": pl.int_range(rows, eager=True) % groups})
    assert _score.small_groups(frame, ["g"]) is small
    blocks = pl.LazyFrame({"g": pl.int_range(rows, eager=True) // (rows // groups)})
    assert _score.small_groups(blocks, ["g"]) is small


def test_front_door_by_takes_the_rank_plan_only_for_small_groups(monkeypatch) -> None:
    """ce.metrics(by=) asks the probe once and gives scikit-learn's numbers either way."""
    asked: list[bool] = []
    probe = _score.small_groups

    def spy(frame: pl.LazyFrame, by: list[str]) -> bool:
        asked.append(probe(frame, by))
        return asked[-1]

    monkeypatch.setattr(_score, "small_groups", spy)
    rng = np.random.default_rng(3)
    for groups, rows in [(400, 40_000), (2, 40_000)]:
        df = pl.DataFrame(
            {"g": np.arange(rows) % groups, "y": rng.integers(0, 2, rows), "s": rng.random(rows)}
        )
        out = ce.metrics(df, "y", score="s", metrics=["auroc", "average_precision"], by="g")
        for key, auc, ap in out.select("g", "auroc", "average_precision").rows()[:5]:
            part = df.filter(pl.col("g") == key)
            yv, sv = part["y"].to_numpy(), part["s"].to_numpy()
            assert auc == pytest.approx(skm.roc_auc_score(yv, sv), abs=TOL)
            assert ap == pytest.approx(skm.average_precision_score(yv, sv), abs=TOL)
    assert asked == [True, False]
