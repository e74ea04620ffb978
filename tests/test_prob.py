"""Probability metrics: log loss, Brier, calibration error and the calibration curve."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

from clfeval._prob import brier, calibration, ece, log_loss, uniform_bin, uniform_edges
from clfeval._validate import check_proba_sums, prepare
from clfeval.exceptions import InputError

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-9


@st.composite
def binary(draw: Any, weighted: bool = True) -> pl.DataFrame:
    """y in {0, 1} (both present), p on a k/10 grid (0 and 1 included), w in 0..5."""
    n = draw(st.integers(2, 60))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    assume(len(set(y)) == 2)
    cols: dict[str, Any] = {
        "y": y,
        "p": [v / 10 for v in draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))],
        "g": draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n)),
    }
    if weighted:
        w = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
        assume(sum(w) > 0)
        cols["w"] = [float(v) for v in w]
    return pl.DataFrame(cols)


@st.composite
def multiclass(draw: Any) -> tuple[pl.DataFrame, int]:
    k = draw(st.integers(2, 6))
    n = draw(st.integers(1, 40))
    y = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    raw = np.array(
        draw(st.lists(st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=n, max_size=n)),
        dtype=float,
    )
    raw[raw.sum(axis=1) == 0, -1] = 1.0
    proba = raw / raw.sum(axis=1, keepdims=True)
    w = draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))
    cols = {"y": y, "w": [float(v) for v in w]} | {f"p{c}": proba[:, c] for c in range(k)}
    return pl.DataFrame(cols), k


@SETTINGS
@given(binary())
def test_binary_log_loss_and_brier_match_sklearn(df: pl.DataFrame) -> None:
    y, p, w = df["y"].to_numpy(), df["p"].to_numpy(), df["w"].to_numpy()
    got = df.select(log_loss("y", "p", weight="w"), brier("y", "p", weight="w")).row(0)
    assert got[0] == pytest.approx(skm.log_loss(y, p, sample_weight=w), abs=TOL)
    assert got[1] == pytest.approx(skm.brier_score_loss(y, p, sample_weight=w), abs=TOL)
    flipped = df.select(log_loss("y", 1 - pl.col("p"), pos_label=0)).item()
    assert flipped == pytest.approx(skm.log_loss(y, p), abs=TOL)
    assert df.select(brier("y", 1 - pl.col("p"), pos_label=0)).item() == pytest.approx(
        skm.brier_score_loss(y, p), abs=TOL
    )


@SETTINGS
@given(multiclass())
def test_multiclass_log_loss_and_brier_match_sklearn(data: Any) -> None:
    df, k = data
    proba = df.select(f"p{c}" for c in range(k)).to_numpy()
    labels = list(range(k))
    mapping = {c: f"p{c}" for c in labels}
    packed = df.with_columns(pl.concat_list([f"p{c}" for c in labels]).alias("p"))
    ll = skm.log_loss(df["y"], proba, labels=labels, sample_weight=df["w"])
    bs = skm.brier_score_loss(df["y"], proba, labels=labels, sample_weight=df["w"])
    assert df.select(log_loss("y", mapping, weight="w")).item() == pytest.approx(ll, abs=TOL)
    assert df.select(brier("y", mapping, weight="w")).item() == pytest.approx(bs, abs=TOL)
    from_list = packed.select(log_loss("y", "p", labels=labels, weight="w")).item()
    assert from_list == pytest.approx(ll, abs=TOL)
    columns = [f"p{c}" for c in labels]
    assert df.select(brier("y", columns, labels=labels, weight="w")).item() == pytest.approx(
        bs, abs=TOL
    )


def test_log_loss_clips_like_sklearn() -> None:
    df = pl.DataFrame({"y": [0, 1], "p": [1.0, 0.0]})
    assert df.select(log_loss("y", "p")).item() == pytest.approx(skm.log_loss([0, 1], [1.0, 0.0]))
    assert df.select(log_loss("y", "p")).item() == pytest.approx(-np.log(sys.float_info.epsilon))


@SETTINGS
@given(binary(weighted=False), st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_calibration_matches_sklearn(df: pl.DataFrame, n_bins: int, strategy: str) -> None:
    y, p = df["y"].to_numpy(), df["p"].to_numpy()
    frac, mean = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    out = calibration(df, "y", "p", n_bins=n_bins, strategy=strategy)
    assert out.columns == ["bin", "mean_predicted", "fraction_positive", "count"]
    np.testing.assert_allclose(out["fraction_positive"], frac, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(out["mean_predicted"], mean, rtol=TOL, atol=TOL)
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(ids, minlength=n_bins)
    assert out["bin"].to_list() == np.flatnonzero(counts).tolist()
    assert out["count"].to_list() == counts[counts > 0].tolist()
    assert uniform_edges(n_bins) == np.linspace(0.0, 1.0, n_bins + 1).tolist()


@SETTINGS
@given(binary(), st.integers(1, 12))
def test_ece_summarises_calibration(df: pl.DataFrame, n_bins: int) -> None:
    for weight in (None, "w"):
        bins = calibration(df, "y", "p", n_bins=n_bins, weight=weight)
        gap = (bins["fraction_positive"] - bins["mean_predicted"]).abs()
        share = bins["count"] / bins["count"].sum()
        got = df.select(
            ece("y", "p", n_bins=n_bins, weight=weight).alias("e"),
            ece("y", "p", n_bins=n_bins, kind="max", weight=weight).alias("m"),
        ).row(0)
        assert got[0] == pytest.approx((share * gap).sum(), abs=TOL)
        assert got[1] == pytest.approx(gap.max(), abs=TOL)


@SETTINGS
@given(binary())
def test_grouped_lazy_and_streaming_agree(df: pl.DataFrame) -> None:
    grouped = calibration(df, "y", "p", by="g", weight="w", strategy="quantile", n_bins=4)
    assert grouped.columns[0] == "g"
    # weighted sums may add up in another order: equal to 1e-12, not bit for bit
    same: dict[str, Any] = {"rel_tol": 1e-12, "abs_tol": 1e-12}
    for key in grouped["g"].unique().to_list():
        alone = calibration(
            df.filter(pl.col("g") == key).lazy(),
            "y",
            "p",
            weight="w",
            strategy="quantile",
            n_bins=4,
        ).collect()
        assert_frame_equal(grouped.filter(pl.col("g") == key).drop("g"), alone, **same)
    lazy = calibration(df.lazy(), "y", "p", by="g", weight="w", strategy="quantile", n_bins=4)
    assert_frame_equal(lazy.collect(engine="streaming"), grouped, **same)
    exprs = [log_loss("y", "p", weight="w"), brier("y", "p", weight="w"), ece("y", "p")]
    agg = df.group_by("g").agg(exprs).sort("g")
    for row in agg.iter_rows():
        alone = df.filter(pl.col("g") == row[0]).select(exprs).row(0)
        assert row[1:] == pytest.approx(alone, abs=TOL, nan_ok=True)
    over = df.select(pl.col("g"), log_loss("y", "p", weight="w").over("g")).unique().sort("g")
    assert over["log_loss"].to_list() == pytest.approx(agg["log_loss"].to_list(), abs=TOL)
    stream = df.lazy().select(exprs).collect(engine="streaming").row(0)
    assert stream == pytest.approx(df.select(exprs).row(0), abs=TOL, nan_ok=True)


def test_multiclass_calibration_is_one_vs_rest() -> None:
    df = pl.DataFrame({"y": ["a", "b", "c", "a"], "pa": [0.7, 0.2, 0.1, 0.4]}).with_columns(
        pb=pl.Series([0.2, 0.5, 0.3, 0.3]), pc=pl.Series([0.1, 0.3, 0.6, 0.3])
    )
    out = calibration(df, "y", {"a": "pa", "b": "pb", "c": "pc"}, n_bins=2)
    assert out.columns == ["label", "bin", "mean_predicted", "fraction_positive", "count"]
    alone = calibration(df, "y", "pb", pos_label="b", n_bins=2)
    # a parallel group-by sums in any order: the means may differ in the last bit (0.325 or
    # 0.32499999999999996, about one run in ten), the rest is exact
    ovr = out.filter(pl.col("label") == "b").drop("label")
    assert_frame_equal(ovr, alone, check_exact=False, rel_tol=1e-15, abs_tol=0.0)
    assert ovr.drop("mean_predicted").equals(alone.drop("mean_predicted"))


# --- bad input ---------------------------------------------------------------------------------


def test_probabilities_outside_unit_interval_raise() -> None:
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 1.2, 0.7]})
    with pytest.raises(InputError, match=r"'p' \(proba\) has 1 value\(s\) outside \[0, 1\]") as err:
        calibration(df, "y", "p")
    assert err.value.rule == "probability_range"
    assert err.value.column == "p"
    nan = df.with_columns(pl.Series("p", [0.2, float("nan"), 0.7]))
    with pytest.raises(InputError, match="NaN"):
        calibration(nan, "y", "p")


def test_rows_must_sum_to_one() -> None:
    df = pl.DataFrame({"y": [0, 1, 2], "a": [0.5, 0.2, 0.3], "b": [0.3, 0.5, 0.2]})
    df = df.with_columns(c=pl.Series([0.2, 0.3, 0.4]))  # row 2 sums to 0.9
    prep = prepare(df, y="y", score={0: "a", 1: "b", 2: "c"}, probability=True)
    with pytest.raises(InputError, match=r"worst is row 2 with sum 0\.9") as err:
        check_proba_sums(prep, {0: "a", 1: "b", 2: "c"})
    assert err.value.rule == "probability_sum"
    with pytest.raises(InputError, match="do not sum to 1"):
        calibration(df, "y", {0: "a", 1: "b", 2: "c"})
    close_enough = df.with_columns(c=pl.Series([0.2, 0.3, 0.5 + 1e-9]))
    prep = prepare(close_enough, y="y", score={0: "a", 1: "b", 2: "c"}, probability=True)
    check_proba_sums(prep, {0: "a", 1: "b", 2: "c"})


def test_option_errors() -> None:
    df = pl.DataFrame({"y": [0, 1], "p": [0.2, 0.7]})
    with pytest.raises(InputError, match="n_bins=0"):
        calibration(df, "y", "p", n_bins=0)
    with pytest.raises(InputError, match="strategy="):
        calibration(df, "y", "p", strategy="kmeans")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="kind="):
        ece("y", "p", kind="mean")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="needs labels="):
        log_loss("y", ["p", "p"])


def test_no_rows_is_null() -> None:
    df = pl.DataFrame({"y": [None, 1], "p": [0.3, None]}, schema={"y": pl.Int64, "p": pl.Float64})
    got = df.select(log_loss("y", "p"), brier("y", "p"), ece("y", "p")).row(0)
    assert got == (None, None, None)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 1000),
    st.lists(st.floats(-0.5, 1.5, allow_nan=False), max_size=30),
    st.lists(st.integers(0, 1000), max_size=30),
)
def test_uniform_bin_is_searchsorted_bit_for_bit(n_bins: int, values: list, at: list) -> None:
    """Every inner edge, its neighbours one ulp away, random values and values outside
    [0, 1] (the end bins), ±inf too: the bin numpy's searchsorted gives."""
    edges = np.asarray(uniform_edges(n_bins))
    picked = edges[np.asarray(at, dtype=np.int64) % len(edges)] if at else np.array([])
    x = np.concatenate(
        [edges, np.nextafter(edges, 2), np.nextafter(edges, -1), picked, values, [-np.inf, np.inf]]
    )
    got = pl.DataFrame({"p": x}).select(uniform_bin(pl.col("p"), n_bins))["p"].to_numpy()
    assert (got == np.searchsorted(edges[1:-1], x, side="left")).all()
