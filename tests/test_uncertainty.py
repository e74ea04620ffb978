"""Uncertainty in Polars: the Poisson bootstrap on counts, DeLong, McNemar, and their coverage.

Every reference is computed here independently: the normal distribution from the standard
library, the Poisson law from scipy, DeLong's variance from its placement formulas over all
positive-negative pairs (O(n²)), McNemar from scipy's binomial and χ² laws, and the row-level
Poisson bootstrap from NumPy's own Poisson weights. The coverage tests simulate many data sets
as the groups of one frame (one call each), with fixed seeds.
"""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from scipy import stats

import clfeval as ce
from clfeval import _draws, _normal

LABEL = ["recall", "precision", "f1", "mcc"]


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# --- the normal distribution -------------------------------------------------------------------


def test_normal_quantile_and_tail_match_the_standard_library():
    nd = statistics.NormalDist()
    ps = np.concatenate([np.linspace(1e-9, 1 - 1e-9, 4001), 10.0 ** -np.arange(1.0, 300.0, 7)])
    got = _normal.ndtri_columns(pl.LazyFrame({"p": ps}), "p", "z").collect()["z"].to_numpy()
    want = np.array([nd.inv_cdf(p) for p in ps])
    assert np.allclose(got, want, rtol=1e-14, atol=1e-14)
    assert [_normal.ndtri(p) for p in ps] == pytest.approx(list(want), rel=1e-14, abs=1e-14)
    xs = np.linspace(0.0, 26.0, 5001)
    tail = pl.DataFrame({"x": xs}).select(_normal.erfc_expr(pl.col("x")).alias("e"))["e"]
    ref = np.array([math.erfc(x) for x in xs])
    assert np.max(np.abs(tail.to_numpy() - ref) / ref) < 1e-13
    z = pl.DataFrame({"z": [-3.0, 0.0, 1.959963984540054, 8.5, None]})
    p = z.select(_normal.p_value(pl.col("z")).alias("p"))["p"].to_list()
    assert p[:4] == pytest.approx([math.erfc(3 / math.sqrt(2)), 1.0, 0.05, math.erfc(8.5 / 2**0.5)])
    assert p[4] is None


# --- Poisson draws ------------------------------------------------------------------------------


def _draw(lams: list[float], n: int, seed: int) -> pl.DataFrame:
    cells = pl.LazyFrame(
        {_draws.CELL: pl.Series(range(len(lams)), dtype=pl.UInt64), _draws.LAM: lams}
    )
    reps = pl.LazyFrame({_draws.REP: pl.Series(range(n), dtype=pl.UInt64)})
    return _draws.draw(cells, reps, seed).collect()


@pytest.mark.parametrize("lam", [0.4, 3.0, 17.5, 99.5, 100.0, 250.25, 4000.0, 1e6])
def test_draws_follow_the_poisson_law(lam):
    n = 20_000
    x = _draw([lam], n, seed=11)[_draws.DRAW].to_numpy()
    k = np.arange(max(0, int(lam - 8 * lam**0.5) - 2), int(lam + 8 * lam**0.5) + 3)
    ecdf = np.searchsorted(np.sort(x), k, side="right") / n
    assert np.max(np.abs(ecdf - stats.poisson.cdf(k, lam))) < 1.95 / math.sqrt(n)  # KS, 0.1%
    assert abs(x.mean() - lam) < 4.5 * math.sqrt(lam / n)
    assert abs(x.var() / lam - 1) < 4.5 * math.sqrt(2 / n)


def test_draws_are_the_poisson_quantile_of_their_uniform():
    """Exact inversion below λ = 100; the Cornish–Fisher expansion from 100 on errs with
    probability below its stated bound (a grid of 200,000 uniforms)."""
    u = (np.arange(200_000) + 0.5) / 200_000
    bounds = {2.5: 0.0, 40.0: 0.0, 99.0: 0.0, 100.0: 1.5e-5, 300.0: 5e-6, 1000.0: 1e-6, 1e4: 1e-7}
    frame = pl.LazyFrame(
        {
            "__clf_u": np.tile(u, len(bounds)),
            _draws.LAM: np.repeat(list(bounds), len(u)),
            "__clf_i": np.arange(len(u) * len(bounds)),
        }
    )
    out = _draws.poisson_columns(frame).collect().sort("__clf_i")
    for j, (lam, bound) in enumerate(bounds.items()):
        got = out[_draws.DRAW].to_numpy()[j * len(u) : (j + 1) * len(u)]
        k = np.arange(int(lam + 12 * lam**0.5 + 30))
        want = np.searchsorted(stats.poisson.cdf(k, lam), u, side="left")  # the exact quantile
        assert np.mean(got != want) <= bound, lam


def test_uniforms_are_reproducible_and_distinct_per_seed_cell_and_replicate():
    a, b = _draw([5.0, 5.0], 2000, seed=1), _draw([5.0, 5.0], 2000, seed=1)
    assert_frame_equal(a, b)
    c = _draw([5.0, 5.0], 2000, seed=2)
    by_cell = a.sort(_draws.CELL, _draws.REP).partition_by(_draws.CELL)
    assert (by_cell[0][_draws.DRAW] != by_cell[1][_draws.DRAW]).mean() > 0.7
    assert (
        a.sort(_draws.CELL, _draws.REP)[_draws.DRAW] != c.sort(_draws.CELL, _draws.REP)[_draws.DRAW]
    ).mean() > 0.7


# --- the bootstrap on counts ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def binary() -> pl.DataFrame:
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    score = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 2)
    return pl.DataFrame(
        {"g": rng.choice(["a", "b"], n), "y": y, "score": score, "yhat": (score >= 0.5).astype(int)}
    )


def test_replicates_from_counts_equal_a_row_level_poisson_bootstrap_in_distribution(binary):
    """Means and variances over 3,000 replicates: the count-table draws against NumPy's
    Poisson(1) weight per row, scored by ce.metrics with that weight."""
    b = 3000
    names = [*LABEL, "auroc", "average_precision", "log_loss"]
    ours = ce.bootstrap(binary, "y", "yhat", score="score", metrics=names, n_boot=b, seed=5)
    rng = np.random.default_rng(99)
    weights = rng.poisson(1.0, size=(b, binary.height)).astype(float)
    long = pl.concat([binary] * b).with_columns(
        pl.Series("w", weights.ravel()), pl.Series("rep", np.repeat(np.arange(b), binary.height))
    )
    rows = ce.metrics(long, "y", "yhat", score="score", metrics=names, by="rep", weight="w")
    for name in names:
        x, r = ours[name].drop_nulls().to_numpy(), rows[name].drop_nulls().to_numpy()
        se = math.sqrt(x.var() / len(x) + r.var() / len(r))
        assert abs(x.mean() - r.mean()) < 4.5 * se, name
        assert 0.88 < x.var() / r.var() < 1.12, name


def test_weights_are_frequencies_a_pre_aggregated_table_gives_the_expanded_draws(binary):
    agg = binary.group_by("g", "y", "yhat", "score").agg(pl.len().alias("n"))
    names = ["accuracy", "f1", "mcc", "auroc", "log_loss"]
    kw = {"score": "score", "metrics": names, "by": "g", "n_boot": 300, "seed": 9}
    assert_frame_equal(
        ce.bootstrap(agg, "y", "yhat", weight="n", **kw), ce.bootstrap(binary, "y", "yhat", **kw)
    )


def test_seed_lazy_and_streaming(binary, engine):
    kw = {"score": "score", "by": "g", "ci": 0.9, "n_boot": 200, "seed": 4}
    eager = ce.metrics(binary, "y", "yhat", **kw)
    data = binary if engine == "eager" else binary.lazy()
    out = ce.metrics(data, "y", "yhat", **kw)
    if engine != "eager":
        assert isinstance(out, pl.LazyFrame)
        out = out.collect(engine="streaming" if engine == "streaming" else "auto")
    assert_frame_equal(out, eager)
    other = ce.metrics(binary, "y", "yhat", **{**kw, "seed": 5})
    assert not other["f1_lo"].equals(eager["f1_lo"])


def test_metrics_ci_columns_intervals_and_undefined_replicates(binary):
    out = ce.metrics(binary, "y", "yhat", score="score", by="g", ci=0.95, n_boot=400)
    names = ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc", "auroc",
             "average_precision", "log_loss", "brier"]  # fmt: skip
    triples = [c for n in names for c in (n, f"{n}_lo", f"{n}_hi")]
    assert out.columns == ["g", *triples, *[f"{n}_n_undefined" for n in names]]
    assert_frame_equal(
        out.select("g", *names), ce.metrics(binary, "y", "yhat", score="score", by="g")
    )
    for n in names:
        assert (out[f"{n}_lo"] <= out[n]).all(), n
        assert (out[n] <= out[f"{n}_hi"]).all(), n
    # one positive among 12 rows: about e^-1 of the replicates have none, AUROC null there
    tiny = pl.DataFrame(
        {"y": [1] + [0] * 11, "yhat": [1, 1] + [0] * 10, "s": np.linspace(1, 0, 12)}
    )
    reps = ce.bootstrap(tiny, "y", "yhat", score="s", metrics=["auroc", "recall"], n_boot=500)
    ci = ce.metrics(tiny, "y", "yhat", score="s", metrics=["auroc", "recall"], ci=0.9, n_boot=500)
    assert ci["auroc_n_undefined"].item() == reps["auroc"].null_count() > 100
    assert ci["recall_n_undefined"].item() == 0  # zero_division=0.0 gives 0, as the metric does
    kept = reps["auroc"].drop_nulls()
    assert ci["auroc_lo"].item() == pytest.approx(kept.quantile(0.05, "linear"))
    strict = ce.metrics(
        tiny, "y", "yhat", metrics=["recall"], ci=0.9, n_boot=500, zero_division=None
    )
    nulls = ce.bootstrap(tiny, "y", "yhat", metrics=["recall"], n_boot=500, zero_division=None)
    assert strict["recall_n_undefined"].item() == nulls["recall"].null_count()
    # label and score cells are drawn apart: both near 500 / e, not equal
    assert 130 < strict["recall_n_undefined"].item() < 240
    assert 130 < ci["auroc_n_undefined"].item() < 240


def test_per_class_and_averaged_intervals():
    rng = np.random.default_rng(1)
    y = rng.choice(["a", "b", "c"], 600)
    yhat = np.where(rng.random(600) < 0.7, y, rng.choice(["a", "b", "c"], 600))
    df = pl.DataFrame({"y": y, "yhat": yhat})
    per = ce.metrics(df, "y", "yhat", average=None, ci=0.95, n_boot=300)
    assert per.columns[:5] == ["label", "precision", "precision_lo", "precision_hi", "recall"]
    assert per["label"].to_list() == ["a", "b", "c"]
    macro = ce.metrics(df, "y", "yhat", average="macro", metrics=["f1", "mcc"], ci=0.95, n_boot=300)
    reps = ce.bootstrap(df, "y", "yhat", average="macro", metrics=["f1", "mcc"], n_boot=300)
    assert macro["f1_hi"].item() == pytest.approx(reps["f1"].quantile(0.975, "linear"))


def test_report_prints_intervals_and_keeps_the_plain_layout(binary):
    plain = ce.report(binary, "y", "yhat")
    assert plain.ci is None
    assert "[" not in str(plain)
    rep = ce.report(binary, "y", "yhat", score="score", ci=0.95, n_boot=300, seed=2)
    text = str(rep)
    row = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    value, lo, hi = (
        rep.table.filter(pl.col("label") == "1")
        .select("precision", "precision_lo", "precision_hi")
        .row(0)
    )
    assert f"{value:.2f} [{lo:.2f}, {hi:.2f}]" in row
    accuracy = next(line for line in text.splitlines() if line.strip().startswith("accuracy"))
    assert accuracy.count("[") == 1  # only f1 (accuracy) has a value, as scikit-learn prints
    assert "95% percentile bootstrap intervals: 300 Poisson replicates" in text
    assert " auroc " in text
    assert "auroc_lo" not in text
    assert rep.table.columns == ["label", "precision", "precision_lo", "precision_hi", "recall",
                                 "recall_lo", "recall_hi", "f1", "f1_lo", "f1_hi", "support"]  # fmt: skip
    html = rep._repr_html_()
    assert f"{value:.2f} [{lo:.2f}, {hi:.2f}]" in html
    assert "percentile bootstrap" in html


# --- DeLong ------------------------------------------------------------------------------------


def delong_reference(y, scores, w=None):
    """AUROCs and DeLong's covariance matrix from the placements of every pair (O(n²))."""
    y = np.asarray(y)
    if w is not None:
        rows = np.repeat(np.arange(len(y)), np.asarray(w, dtype=int))
        y, scores = y[rows], [np.asarray(s)[rows] for s in scores]
    pos = y == 1
    v10, v01 = [], []
    for s in scores:
        s = np.asarray(s, dtype=float)
        psi = (s[pos][:, None] > s[~pos][None, :]) + 0.5 * (s[pos][:, None] == s[~pos][None, :])
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    v10, v01 = np.atleast_2d(v10), np.atleast_2d(v01)
    cov = np.atleast_2d(np.cov(v10)) / pos.sum() + np.atleast_2d(np.cov(v01)) / (~pos).sum()
    return v10.mean(axis=1), cov


@pytest.mark.parametrize("weighted", [False, True])
def test_delong_equals_the_placement_formulas_with_ties(weighted):
    rng = np.random.default_rng(8)
    n = 240
    df = pl.DataFrame(
        {
            "g": rng.choice(["x", "y"], n),
            "y": rng.integers(0, 2, n),
            "w": rng.integers(0, 4, n),
        }
    ).with_columns(
        a=(pl.col("y") * 0.8 + pl.Series(rng.normal(size=n))).round(1),
        b=(pl.col("y") * 1.1 + pl.Series(rng.normal(size=n))).round(1),
        c=pl.Series(rng.integers(0, 3, n)).cast(pl.Float64),  # heavy ties
    )
    weight = "w" if weighted else None
    ci = ce.auroc_ci(df, "y", "a", by="g", weight=weight, level=0.9)
    cmp = ce.compare_auroc(df, "y", ["a", "b", "c"], by="g", weight=weight)
    z90 = statistics.NormalDist().inv_cdf(0.95)
    for g in ("x", "y"):
        part = df.filter(pl.col("g") == g)
        auc, cov = delong_reference(
            part["y"], [part[c] for c in "abc"], part["w"] if weighted else None
        )
        row = ci.filter(pl.col("g") == g).row(0, named=True)
        assert row["auroc"] == pytest.approx(auc[0], abs=1e-12)
        assert row["se"] == pytest.approx(math.sqrt(cov[0, 0]), abs=1e-12)
        assert row["auroc_lo"] == pytest.approx(auc[0] - z90 * math.sqrt(cov[0, 0]), abs=1e-9)
        for j, other in ((1, "b"), (2, "c")):
            got = cmp.filter((pl.col("g") == g) & (pl.col("model_b") == other)).row(0, named=True)
            se = math.sqrt(cov[0, 0] + cov[j, j] - 2 * cov[0, j])
            assert got["diff"] == pytest.approx(auc[j] - auc[0], abs=1e-12)
            assert got["se"] == pytest.approx(se, abs=1e-12)
            assert got["z"] == pytest.approx((auc[j] - auc[0]) / se, abs=1e-9)
            assert got["p_value"] == pytest.approx(2 * stats.norm.sf(abs(got["z"])), abs=1e-12)


def test_delong_edge_cases_and_frequency_weights():
    one = pl.DataFrame({"y": [1, 1, 1], "s": [0.1, 0.2, 0.3]})
    assert ce.auroc_ci(one, "y", "s").row(0) == (None, None, None, None)
    single = pl.DataFrame({"y": [1, 0, 0], "s": [0.9, 0.2, 0.3]})
    assert ce.auroc_ci(single, "y", "s").row(0) == (1.0, None, None, None)  # one positive
    same = pl.DataFrame({"y": [1, 0, 1, 0], "a": [0.9, 0.2, 0.4, 0.5]}).with_columns(b=pl.col("a"))
    row = ce.compare_auroc(same, "y", ["a", "b"]).row(0, named=True)
    assert (row["diff"], row["se"], row["z"], row["p_value"]) == (0, 0, None, None)
    frac = same.with_columns(w=pl.Series([1.0, 2.5, 1.0, 1.0]))
    with pytest.raises(ce.InputError, match=r"column 'w' \(weight\) has 1 non-integral value"):
        ce.auroc_ci(frac, "y", "a", weight="w")
    lazy = ce.auroc_ci(frac.lazy(), "y", "a", weight="w").collect()
    assert lazy.row(0) == (None, None, None, None)  # the expression rule: null, not an error


def test_delong_coverage_of_a_binormal_auroc():
    """1,000 data sets of 100 + 100 rows, binormal scores: true AUROC Φ(μ/√2)."""
    d, m, mu = 1000, 100, 1.2
    rng = np.random.default_rng(11)
    y = np.tile(np.r_[np.ones(m), np.zeros(m)], d).astype(int)
    df = pl.DataFrame(
        {"ds": np.repeat(np.arange(d), 2 * m), "y": y, "s": rng.normal(size=2 * m * d) + mu * y}
    )
    out = ce.auroc_ci(df, "y", "s", by="ds")
    truth = _phi(mu / math.sqrt(2))
    covered = out.select(
        ((pl.col("auroc_lo") <= truth) & (pl.col("auroc_hi") >= truth)).mean()
    ).item()
    assert 0.93 <= covered <= 0.97


# --- coverage of the bootstrap ---------------------------------------------------------------


def confusion_sets(d: int, n: int, seed: int) -> tuple[pl.DataFrame, dict[str, float]]:
    """``d`` data sets of ``n`` rows from a known confusion probability table, as counts
    (weights are frequencies: the draws of the expanded rows), and the true metrics."""
    p = np.array([0.25, 0.10, 0.15, 0.50])  # tp, fn, fp, tn
    tp, fn, fp, tn = p
    truth = {
        "recall": tp / (tp + fn),
        "precision": tp / (tp + fp),
        "f1": 2 * tp / (2 * tp + fp + fn),
        "mcc": (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)),
    }
    counts = np.random.default_rng(seed).multinomial(n, p, size=d)
    df = pl.DataFrame(
        {
            "ds": np.repeat(np.arange(d), 4),
            "y": np.tile([1, 1, 0, 0], d),
            "yhat": np.tile([1, 0, 1, 0], d),
            "n": counts.ravel(),
        }
    )
    return df, truth


def coverage(out: pl.DataFrame, name: str, truth: float) -> float:
    inside = (pl.col(f"{name}_lo") <= truth) & (pl.col(f"{name}_hi") >= truth)
    return out.select(inside.mean()).item()


def test_bootstrap_coverage_of_label_metrics():
    df, truth = confusion_sets(2000, 400, seed=1)
    out = ce.metrics(
        df, "y", "yhat", metrics=LABEL, by="ds", weight="n", ci=0.95, n_boot=500, seed=7
    )
    for name, value in truth.items():
        assert 0.93 <= coverage(out, name, value) <= 0.97, name


def binned_binormal(d: int, m: int, mu: float, seed: int) -> tuple[pl.DataFrame, float]:
    """Binormal scores floored to 5 bins (ties everywhere) and their exact AUROC."""
    cuts = [-math.inf, 0, 1, 2, 3, math.inf]

    def probs(mean: float) -> np.ndarray:
        return np.array([_phi(b - mean) - _phi(a - mean) for a, b in itertools.pairwise(cuts)])

    pp, pn = probs(mu), probs(0.0)
    truth = sum(pp[j] * (pn[:j].sum() + 0.5 * pn[j]) for j in range(len(pp)))
    rng = np.random.default_rng(seed)
    y = np.tile(np.r_[np.ones(m), np.zeros(m)], d).astype(int)
    s = np.clip(np.floor(rng.normal(size=2 * m * d) + mu * y), -1, 3)
    return pl.DataFrame({"ds": np.repeat(np.arange(d), 2 * m), "y": y, "s": s}), truth


def test_bootstrap_coverage_of_auroc():
    df, truth = binned_binormal(400, 400, 1.0, seed=12)
    out = ce.metrics(df, "y", score="s", metrics=["auroc"], by="ds", ci=0.95, n_boot=400, seed=3)
    assert 0.93 <= coverage(out, "auroc", truth) <= 0.97


# --- McNemar and the paired bootstrap ---------------------------------------------------------


def paired(b: int, c: int, agree: int = 40) -> pl.DataFrame:
    """Rows where only model a is right (b), only model b is right (c), both right (agree)."""
    y = [1] * (b + c + agree)
    a = [1] * b + [0] * c + [1] * agree
    m = [0] * b + [1] * c + [1] * agree
    return pl.DataFrame({"y": y + [0] * 10, "a": a + [0] * 10, "b": m + [0] * 10})


@pytest.mark.parametrize(("b", "c"), [(0, 0), (3, 9), (12, 12), (10, 14), (13, 12), (40, 62)])
def test_mcnemar_equals_the_exact_and_chi_square_tests(b, c):
    row = ce.compare(paired(b, c), "y", ["a", "b"], metrics=["accuracy"], n_boot=50).row(
        0, named=True
    )
    assert (row["n_a_only"], row["n_b_only"]) == (b, c)
    if b + c < 25:  # statsmodels' mcnemar(exact=True): two-sided binomial, p = 1/2
        want = 1.0 if b + c == 0 else stats.binomtest(min(b, c), b + c, 0.5).pvalue
        assert (row["mcnemar_method"], row["mcnemar_statistic"]) == ("exact", min(b, c))
    else:  # mcnemar(exact=False, correction=True)
        statistic = (abs(b - c) - 1) ** 2 / (b + c)
        want = stats.chi2.sf(statistic, 1)
        assert row["mcnemar_method"] == "chi2"
        assert row["mcnemar_statistic"] == pytest.approx(statistic, rel=1e-14)
    assert row["mcnemar_p_value"] == pytest.approx(min(want, 1.0), rel=1e-12, abs=1e-15)


def test_compare_differences_are_paired(binary):
    df = binary.with_columns(
        other=pl.when(pl.col("score") > 0.6).then(1).otherwise(0), copy=pl.col("yhat")
    )
    out = ce.compare(df, "y", ["yhat", "other", "copy"], by="g", n_boot=400, seed=1)
    assert out.columns[:8] == ["g", "model_a", "model_b", "n_a_only", "n_b_only",
                               "mcnemar_statistic", "mcnemar_p_value", "mcnemar_method"]  # fmt: skip
    point = ce.metrics(df, "y", "yhat", by="g").join(ce.metrics(df, "y", "other", by="g"), on="g")
    first = out.filter(pl.col("model_b") == "other").join(point, on="g")
    assert (first["f1_diff"] - (first["f1_right"] - first["f1"])).abs().max() < 1e-12
    assert (first["f1_diff_lo"] <= first["f1_diff"]).all()
    assert (first["f1_diff"] <= first["f1_diff_hi"]).all()
    itself = out.filter(pl.col("model_b") == "copy")  # a model against itself: no difference
    assert (itself["f1_diff_lo"] == 0).all()
    assert (itself["f1_diff_hi"] == 0).all()
    assert (itself["mcnemar_p_value"] == 1).all()


# --- errors, the same on every surface ----------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda f, df: f.metrics(df, "y", "yhat", ci=0.95, n_boot=0),
            "n_boot=0 is not an integer from 1 to 100,000",
        ),
        (
            lambda f, df: f.metrics(df, "y", "yhat", ci=0.95, n_boot=100_001),
            "n_boot=100001 is not an integer",
        ),
        (lambda f, df: f.metrics(df, "y", "yhat", ci=1.0), r"ci=1.0 is not a number in \(0, 1\)"),
        (
            lambda f, df: f.metrics(df, "y", "yhat", ci=0.9, seed=-1),
            "seed=-1 is not an integer from 0",
        ),
        (
            lambda f, df: f.auroc_ci(df, "y", "score", level=0),
            r"level=0 is not a number in \(0, 1\)",
        ),
        (
            lambda f, df: f.auroc_ci(df, "y", "g"),
            r"column 'g' \(score\) has dtype String, not a number",
        ),
        (lambda f, df: f.compare_auroc(df, "y", ["score"]), "names fewer than 2 columns"),
        (
            lambda f, df: f.compare_auroc(df, "y", ["score", "g"]),
            r"column 'g' \(score_b\) has dtype String",
        ),
        (lambda f, df: f.compare(df, "y", ["yhat"]), "names fewer than 2 columns"),
        (lambda f, df: f.compare(df, "y", ["yhat", "yhat"], n_boot=-3), "lists a column twice"),
        (lambda f, df: f.compare(df, "y", ["yhat", "y"]), "lists the truth column 'y'"),
        (
            lambda f, df: f.metrics(
                df.with_columns(w=pl.lit(1e300)), "y", "yhat", weight="w", ci=0.9, n_boot=20
            ),
            r"weighs more than 2\^53",
        ),
        (lambda f, df: f.compare_auroc(df, "y", ["y", "score"]), "lists the truth column 'y'"),
    ],
)
def test_bad_input_is_one_input_error_on_every_surface(binary, call, message):
    class Clf:  # the .clf delegates, called like the functions
        def __getattr__(self, name):
            return lambda df, *a, **k: getattr(df.clf, name)(*a, **k)

    texts = set()
    for surface in (ce, Clf(), ce.sql):
        with pytest.raises(ce.InputError, match=message) as err:
            call(surface, binary)
        texts.add(str(err.value))
    assert len(texts) == 1


# --- charts ------------------------------------------------------------------------------------


def _png(chart) -> bytes:
    import vl_convert as vlc

    return vlc.vegalite_to_png(chart.to_json(), scale=1)


def test_forest_differences_and_roc_band_charts(binary):
    df = binary.with_columns(other=(pl.col("score") > 0.6).cast(pl.Int64), s2=pl.col("score") ** 2)
    forest = df.clf.plot.compare("y", "yhat", score="score", by="g", ci=0.9, n_boot=100)
    spec = forest.to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["rule", "point"]
    data = next(iter(spec["datasets"].values()))
    assert {"series", "metric", "value", "lo", "hi"} <= set(data[0])
    assert len(data) == 2 * 10  # two groups, ten metrics: the frame, never the rows
    table = ce.metrics(df, "y", "yhat", score="score", by="g", ci=0.9, n_boot=100)
    assert data[0]["lo"] == pytest.approx(table["accuracy_lo"][0], abs=1e-6)
    labels = df.clf.plot.differences("y", yhat=["yhat", "other"], by="g", n_boot=100).to_dict()
    assert labels["layer"][0]["mark"]["strokeDash"] == [4, 4]  # the line of no difference
    auroc = df.clf.plot.differences("y", score=["score", "s2"]).to_dict()
    rows = next(v for v in auroc["datasets"].values() if "value" in v[0])
    assert rows[0]["metric"] == "AUROC"
    assert rows[0]["value"] == pytest.approx(0.0, abs=1e-12)
    roc = df.clf.plot.roc("y", "score", by="g", ci=0.95, n_boot=100)
    band = next(v for v in roc.to_dict()["datasets"].values() if "tpr_lo" in v[0])
    assert len(band) == 2 * 51
    assert all(r["tpr_lo"] <= r["tpr_hi"] for r in band)
    for chart in (forest, roc):
        assert _png(chart)[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ce.InputError, match="one binary score column"):
        df.clf.plot.roc("y", models=["score", "s2"], ci=0.95)
