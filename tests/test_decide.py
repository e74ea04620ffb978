"""From scores to decisions: prevalence shift, costs, net benefit, cross-validated results.

The seeds' figures (lesson 003 section 10, the best threshold per beta of section 9, course
notes 004 C13 Ex5) are reproduced from their data; every other number is checked against an
independent computation (NumPy by hand, scikit-learn on re-weighted rows); Polars equals
DuckDB, grouped and weighted; bad input is one message on every surface.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import clfeval as ce
from clfeval import sql

try:
    from seed_cases import CV_FOLDS, PATIENT_SCORE, PATIENT_Y, PREVALENCE_TABLE
except ImportError:  # tests/ imported as a package
    from .seed_cases import CV_FOLDS, PATIENT_SCORE, PATIENT_Y, PREVALENCE_TABLE

TOL = 1e-9


def printed(got: float | None, value: float, digits: int) -> bool:
    """``got`` prints as the seed's ``value`` with ``digits`` decimals."""
    return got is not None and abs(got - value) <= 0.5 * 10.0**-digits + 1e-12


def equal(a: pl.DataFrame, b: pl.DataFrame) -> None:
    assert_frame_equal(a, b, check_exact=False, rel_tol=TOL, abs_tol=TOL)


@pytest.fixture(scope="module")
def patients() -> pl.DataFrame:
    """The 20 patients of lesson 003 and the model's class at threshold 0.5."""
    df = pl.DataFrame({"y": PATIENT_Y, "s": PATIENT_SCORE})
    return df.with_columns(yhat=(pl.col("s") >= 0.5).cast(pl.Int64))


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


def grouped(seed: int = 0, n: int = 300) -> pl.DataFrame:
    """Two groups of scored rows with weights, and a third group with one class only."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.clip(np.round(0.5 * y + rng.normal(0.3, 0.25, n), 2), 0.0, 1.0)
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b"], n).tolist(),
            "y": y.astype(int),
            "s": s,
            "w": rng.choice([0.5, 1.0, 2.0, 3.0], n),
            "fold": rng.integers(1, 4, n),
        }
    ).with_columns(yhat=(pl.col("s") >= 0.5).cast(pl.Int64))
    lone = pl.DataFrame(
        {"g": ["c"] * 4, "y": [0] * 4, "s": [0.2, 0.6, 0.7, 0.1], "w": [1.0] * 4}
    ).with_columns(fold=pl.Series([1, 2, 1, 2]), yhat=(pl.col("s") >= 0.5).cast(pl.Int64))
    return pl.concat([df, lone.select(df.columns)])


# --- the seeds' figures -----------------------------------------------------------------------


def _prevalence_rows() -> list[Any]:
    out = []
    for case in PREVALENCE_TABLE:
        figs = {f.name or f.metric: f for f in case.figs}
        expect = {m: (figs[m].value, figs[m].digits) for m in ("precision", "npv", "accuracy")}
        out.append(pytest.param(figs["prevalence"].value, expect, id=case.id))
    return out


@pytest.mark.parametrize(("pi", "expect"), _prevalence_rows())
def test_seed_prevalence_table(patients, con, pi, expect) -> None:
    """Lesson 003 section 10 from the 20 patients at threshold 0.5 (recall 0.70,
    specificity 0.80), shifted to 50%, 10% and 1%: every surface prints the seed's table."""
    names = list(expect)
    frame = ce.metrics(patients, "y", "yhat", metrics=[*names, "recall"], prevalence=pi)
    exprs = patients.select(
        ce.precision("y", "yhat", prevalence=pi),
        ce.npv("y", "yhat", prevalence=pi),
        ce.accuracy("y", "yhat", prevalence=pi),
    )
    table = ce.thresholds(patients, "y", "s", prevalence=pi).filter(pl.col("threshold") >= 0.5)
    at_half = table.sort("threshold").row(0, named=True)  # the rule score >= 0.5
    duck = sql.metrics(patients, "y", "yhat", prevalence=pi)
    con.register("patients", patients)
    macro = con.sql(f"FROM clf_thresholds('patients', 'y', 's', prevalence := {pi})").pl()
    macro_half = macro.filter(pl.col("threshold") >= 0.5).sort("threshold").row(0, named=True)
    curve = ce.prevalence_curve(patients, "y", "yhat", prevalences=[pi])
    for name, (value, digits) in expect.items():
        for got in (
            frame[name].item(),
            exprs[name].item(),
            at_half[name],
            macro_half[name],
            curve[name].item(),
            *([duck[name].item()] if name in duck.columns else []),
        ):
            assert printed(got, value, digits), (name, got, value)
    assert frame["recall"].item() == pytest.approx(0.70, abs=TOL)  # does not move
    assert at_half["specificity"] == pytest.approx(0.80, abs=TOL)
    assert frame.row(0, named=True)["prevalence"] == 0.5  # measured, beside the target
    assert frame.row(0, named=True)["target_prevalence"] == pi


def test_seed_pooled_versus_fold_averaged_f1(con) -> None:
    """Course notes 004 C13 Ex5: fold 1 TP 2 FP 0 FN 2, fold 2 TP 8 FP 4 FN 0: F1 per fold
    0.6667 and 0.8, mean 0.7333; pooled 0.7692."""
    df = pl.DataFrame({"y": CV_FOLDS.y, "yhat": CV_FOLDS.yhat, "fold": CV_FOLDS.group})
    figs = {f.name: f for f in CV_FOLDS.figs}
    for out in (
        ce.cv_summary(df, "y", "yhat", metrics=["f1"]),
        ce.cv_summary(df.lazy(), "y", "yhat", metrics=["f1"]).collect(),
        df.clf.cv_summary("y", "yhat", metrics=["f1"]),
        sql.cv_summary(df, "y", "yhat").filter(pl.col("metric") == "f1"),
    ):
        row = out.row(0, named=True)
        assert row["metric"] == "f1"
        assert printed(row["pooled"], figs["f1-pooled"].value, 4)
        assert printed(row["mean"], figs["f1-fold-average"].value, 4)
        assert row["n_folds"] == 2
        # sd over the two folds (ddof=1): |0.8 - 0.6667| / sqrt(2)
        assert row["sd"] == pytest.approx(abs(0.8 - 2 / 3) / math.sqrt(2), abs=TOL)
    text = str(ce.report(df, "y", "yhat", fold="fold", digits=4))
    line = next(x for x in text.splitlines() if x.strip().startswith("f1 "))
    assert line.split()[1:4] == ["0.769231", "0.733333", "0.094281"]


@pytest.mark.parametrize(
    ("metric", "beta", "at"), [("f2", 2.0, 0.20), ("f1", 1.0, 0.35), ("f0.5", 0.5, 0.45)]
)
def test_seed_best_threshold_per_beta(patients, con, metric, beta, at) -> None:
    """Lesson 003 section 9: F2 is best at 0.20, F1 at 0.35, F0.5 at 0.45; unchanged at the
    data's own prevalence, and the argmax of the DuckDB table with that prevalence."""
    for kw in ({}, {"prevalence": 0.5}):
        best = ce.best_threshold(patients, "y", "s", metric=metric, **kw)
        assert best["threshold"].item() == at
    con.register("patients", patients)
    table = con.sql(
        f"FROM clf_thresholds('patients', 'y', 's', beta := {beta}, prevalence := 0.5)"
    ).pl()
    top = table.filter(pl.col("fbeta") == pl.col("fbeta").max()).sort("threshold").row(-1)
    assert top[0] == at


# --- prevalence shift = re-weighted rows -------------------------------------------------------


def _reweighted(y: np.ndarray, w: np.ndarray, pi: float) -> np.ndarray:
    """The row weights π/π̂ (positives) and (1 − π)/(1 − π̂) (negatives), by hand."""
    share = w[y == 1].sum() / w.sum()
    return np.where(y == 1, w * pi / share, w * (1 - pi) / (1 - share))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.booleans(), st.booleans(), st.sampled_from([0.5, 1.0, 2.0, 3.0])),
        min_size=4,
        max_size=40,
    ),
    st.floats(0.001, 0.999),
)
def test_shift_equals_weighted_metrics_on_reweighted_rows(rows, pi) -> None:
    y = np.array([r[0] for r in rows], dtype=int)
    yhat = np.array([r[1] for r in rows], dtype=int)
    w = np.array([r[2] for r in rows])
    df = pl.DataFrame({"y": y, "yhat": yhat, "w": w})
    names = ["precision", "npv", "accuracy", "f1", "mcc", "recall", "specificity"]
    shifted = ce.metrics(df, "y", "yhat", metrics=names, prevalence=pi, weight="w")
    if y.min() == y.max():  # one class: the shift is undefined, and null
        assert shifted.select(names).row(0) == (None,) * len(names)
        return
    w2 = _reweighted(y, w, pi)
    plain = ce.metrics(df.with_columns(w2=w2), "y", "yhat", metrics=names, weight="w2")
    equal(shifted.select(names), plain)
    expected = {
        "precision": skm.precision_score(y, yhat, sample_weight=w2, zero_division=0),
        "npv": skm.precision_score(y, yhat, pos_label=0, sample_weight=w2, zero_division=0),
        "accuracy": skm.accuracy_score(y, yhat, sample_weight=w2),
        "f1": skm.f1_score(y, yhat, sample_weight=w2, zero_division=0),
        "mcc": skm.matthews_corrcoef(y, yhat, sample_weight=w2),
    }
    exprs = df.select(
        *[getattr(ce, m)("y", "yhat", prevalence=pi, weight="w") for m in expected]
    ).row(0, named=True)
    for name, value in expected.items():
        assert shifted[name].item() == pytest.approx(value, abs=TOL), name
        assert exprs[name] == pytest.approx(value, abs=TOL), name


def test_shift_reweights_the_rows_of_a_multiclass_matrix() -> None:
    """A target class distribution weighs each row of the confusion matrix by share / π̂."""
    rng = np.random.default_rng(3)
    y = rng.choice(["low", "mid", "high"], 200, p=[0.6, 0.3, 0.1])
    yhat = np.where(rng.random(200) < 0.7, y, rng.choice(["low", "mid", "high"], 200))
    target = {"low": 0.2, "mid": 0.3, "high": 0.5}
    measured = {c: (y == c).mean() for c in target}
    w = np.array([target[c] / measured[c] for c in y])
    df = pl.DataFrame({"y": y, "yhat": yhat})
    for average in ("macro", "weighted", "micro"):
        got = ce.metrics(df, "y", "yhat", average=average, prevalence=target)
        assert got["f1"].item() == pytest.approx(
            skm.f1_score(y, yhat, average=average, sample_weight=w), abs=TOL
        )
        assert got["mcc"].item() == pytest.approx(
            skm.matthews_corrcoef(y, yhat, sample_weight=w), abs=TOL
        )
    report = ce.report(df, "y", "yhat", prevalence=target).to_dict()
    sk = skm.classification_report(y, yhat, sample_weight=w, output_dict=True)
    for label in target:
        for key in ("precision", "recall", "f1-score", "support"):
            assert report[label][key] == pytest.approx(sk[label][key], abs=TOL)
    assert report["accuracy"] == pytest.approx(sk["accuracy"], abs=TOL)


def test_pr_curve_and_average_precision_at_a_target(patients) -> None:
    """The shifted PR curve is scikit-learn's on the re-weighted rows; so is AP."""
    y, s = np.array(PATIENT_Y), np.array(PATIENT_SCORE)
    w2 = _reweighted(y, np.ones(len(y)), 0.1)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w2)
    curve = ce.pr_curve(patients, "y", "s", prevalence=0.1)
    np.testing.assert_allclose(curve["precision"].to_numpy(), precision, atol=TOL)
    np.testing.assert_allclose(curve["recall"].to_numpy(), recall, atol=TOL)
    ap = ce.metrics(patients, "y", score="s", metrics=["average_precision"], prevalence=0.1)
    assert ap["average_precision"].item() == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w2), abs=TOL
    )


def test_prevalence_per_group_from_a_column_and_nulls_where_undefined() -> None:
    df = grouped().with_columns(pi=pl.col("g").replace_strict({"a": 0.1, "b": 0.02, "c": 0.3}))
    got = ce.metrics(df, "y", "yhat", prevalence="pi", by="g", weight="w")
    for g, pi in (("a", 0.1), ("b", 0.02)):
        part = df.filter(pl.col("g") == g)
        one = ce.metrics(part, "y", "yhat", prevalence=pi, weight="w")
        equal(got.filter(pl.col("g") == g).drop("g"), one)
    lone = got.filter(pl.col("g") == "c").row(0, named=True)
    assert lone["prevalence"] == 0.0
    assert lone["target_prevalence"] == 0.3
    assert all(lone[m] is None for m in ("accuracy", "precision", "recall", "f1", "mcc"))
    for frame in (got, ce.thresholds(df, "y", "s", prevalence="pi", by="g")):
        floats = [c for c, t in frame.schema.items() if t.is_float()]
        assert frame.select(pl.col(floats).is_nan().any()).row(0) == (False,) * len(floats)
    with pytest.raises(ce.InputError, match="varies within a group"):
        ce.metrics(df.with_columns(pi=pl.col("s") / 2 + 0.1), "y", "yhat", prevalence="pi")


# --- costs ---------------------------------------------------------------------------------


def _costs_by_hand(y, s, w, c_fp, c_fn, b_tp, b_tn, pi=None):
    """(thresholds decreasing, expected cost per row, total cost) with NumPy."""
    ts = np.unique(s[w > 0])[::-1]
    if pi is not None:
        w = _reweighted(y, w, pi)
    out = []
    for t in ts:
        flag = s >= t
        tp, fp = w[flag & (y == 1)].sum(), w[flag & (y == 0)].sum()
        fn, tn = w[~flag & (y == 1)].sum(), w[~flag & (y == 0)].sum()
        total = c_fp * fp + c_fn * fn - b_tp * tp - b_tn * tn
        out.append((t, total / w.sum(), total))
    return np.array(out)


@pytest.mark.parametrize("pi", [None, 0.05])
def test_expected_cost_equals_numpy(con, pi) -> None:
    df = grouped()
    costs = {"cost_fp": 1.0, "cost_fn": 7.5, "benefit_tp": 2.0, "benefit_tn": 0.25}
    extra = {} if pi is None else {"prevalence": pi}
    table = ce.thresholds(df, "y", "s", by="g", weight="w", **costs, **extra)
    equal(table, sql.thresholds(df, "y", "s", by="g", weight="w", **costs, **extra))
    for g in ("a", "b"):
        part = df.filter(pl.col("g") == g)
        y, s, w = (part[c].to_numpy() for c in ("y", "s", "w"))
        hand = _costs_by_hand(y, s, w, *costs.values(), pi=pi)
        mine = table.filter(pl.col("g") == g)
        np.testing.assert_allclose(mine["threshold"].to_numpy(), hand[:, 0])
        np.testing.assert_allclose(mine["expected_cost"].to_numpy(), hand[:, 1], atol=TOL)
        np.testing.assert_allclose(mine["total_cost"].to_numpy(), hand[:, 2], atol=1e-7)
        # the minimum, ties to the highest threshold, flagging no row (+inf) a candidate
        none = (
            costs["cost_fn"] * w[y == 1].sum() - costs["benefit_tn"] * w[y == 0].sum()
        ) / w.sum()
        if pi is not None:
            none = pi * costs["cost_fn"] - (1 - pi) * costs["benefit_tn"]
        options = np.r_[none, hand[:, 1]]
        best = ce.best_threshold(part, "y", "s", metric="cost", weight="w", **costs, **extra)
        i = int(np.flatnonzero(options <= options.min() + 1e-12)[0])
        assert best["threshold"].item() == (math.inf if i == 0 else hand[i - 1, 0])
        assert best["expected_cost"].item() == pytest.approx(options.min(), abs=TOL)
        t = (1.0 + 0.25) / (1.0 + 0.25 + 7.5 + 2.0)
        if pi is not None:  # Bayes: the odds move by π̂(1 − π) / ((1 − π̂)π)
            share = w[y == 1].sum() / w.sum()
            k = share * (1 - pi) / ((1 - share) * pi)
            t = t * k / (t * k + 1 - t)
        assert best["calibrated_threshold"].item() == pytest.approx(t, abs=TOL)


def test_expected_cost_of_labels_binary_and_matrix() -> None:
    rng = np.random.default_rng(5)
    y = rng.choice(["a", "b", "c"], 120)
    yhat = np.where(rng.random(120) < 0.6, y, rng.choice(["a", "b", "c"], 120))
    matrix = {"a": {"b": 1.0, "c": 4.0}, "b": {"a": 2.0}, "c": {"a": 10.0, "b": 3.0}}
    cm = skm.confusion_matrix(y, yhat, labels=["a", "b", "c"])
    cost = np.array([[0, 1, 4], [2, 0, 0], [10, 3, 0]])
    df = pl.DataFrame({"y": y, "yhat": yhat})
    got = ce.expected_cost(df, "y", "yhat", costs=matrix)
    assert got["total_cost"].item() == pytest.approx((cm * cost).sum())
    assert got["expected_cost"].item() == pytest.approx((cm * cost).sum() / 120)
    binary = df.with_columns((pl.col(c) == "a").cast(pl.Int64) for c in ("y", "yhat"))
    _tn, fp, fn, tp = skm.confusion_matrix(binary["y"], binary["yhat"]).ravel()
    two = ce.expected_cost(binary, "y", "yhat", cost_fp=1, cost_fn=5, benefit_tp=0.5)
    assert two["total_cost"].item() == pytest.approx(fp + 5 * fn - 0.5 * tp)


# --- net benefit ---------------------------------------------------------------------------


def _net_benefit_by_hand(y, s, w, ts):
    n = w.sum()
    rows = []
    for t in ts:
        flag = s >= t
        tp, fp = w[flag & (y == 1)].sum(), w[flag & (y == 0)].sum()
        odds = t / (1 - t)
        rows.append((t, tp / n - fp / n * odds, w[y == 1].sum() / n - w[y == 0].sum() / n * odds))
    return np.array(rows)


@pytest.mark.parametrize("plan", ["group", "sort"])
def test_net_benefit_equals_the_formula(con, monkeypatch, plan) -> None:
    from clfeval import _curves

    monkeypatch.setattr(_curves, "PLAN", plan)  # both plans of the threshold counts
    df = grouped()
    grid = [0.05, 0.1, 0.2, 0.35, 0.5, 0.8]
    got = ce.decision_curve(df, "y", "s", thresholds=grid, by="g", weight="w")
    equal(got, sql.decision_curve(df, "y", "s", thresholds=grid, by="g", weight="w"))
    equal(
        got, ce.decision_curve(df.lazy(), "y", "s", thresholds=grid, by="g", weight="w").collect()
    )
    for g in ("a", "b", "c"):
        part = df.filter(pl.col("g") == g)
        hand = _net_benefit_by_hand(*(part[c].to_numpy() for c in ("y", "s", "w")), grid)
        mine = got.filter(pl.col("g") == g)
        np.testing.assert_allclose(mine["threshold"].to_numpy(), hand[:, 0])
        np.testing.assert_allclose(mine["net_benefit"].to_numpy(), hand[:, 1], atol=TOL)
        np.testing.assert_allclose(mine["net_benefit_all"].to_numpy(), hand[:, 2], atol=TOL)
        assert mine["net_benefit_none"].to_list() == [0.0] * len(grid)
    default = ce.decision_curve(df, "y", "s")
    assert default["threshold"].to_list() == [i / 100 for i in range(1, 100)]
    con.register("grouped", df)
    macro = con.sql("FROM clf_decision_curve('grouped', 'y', 's')").pl()
    equal(macro, default)


# --- cross-validation ------------------------------------------------------------------------


def test_cv_summary_pooled_mean_sd_and_duckdb() -> None:
    df = grouped().filter(pl.col("g") != "c")
    got = ce.cv_summary(df, "y", "yhat", by="g", weight="w")
    equal(got, sql.cv_summary(df, "y", "yhat", by="g", weight="w"))
    per_fold = ce.metrics(df, "y", "yhat", by=["g", "fold"], weight="w")
    pooled = ce.metrics(df, "y", "yhat", by="g", weight="w")
    for row in got.iter_rows(named=True):
        values = per_fold.filter(pl.col("g") == row["g"])[row["metric"]].to_numpy()
        assert row["mean"] == pytest.approx(values.mean(), abs=TOL)
        assert row["sd"] == pytest.approx(values.std(ddof=1), abs=TOL)
        assert row["n_folds"] == 3
        assert row["pooled"] == pytest.approx(
            pooled.filter(pl.col("g") == row["g"])[row["metric"]].item(), abs=TOL
        )
    scored = ce.cv_summary(df, "y", score="s", metrics=["auroc"], ddof=0)
    aucs = [
        skm.roc_auc_score(part["y"], part["s"])
        for _, part in df.group_by("fold", maintain_order=True)
    ]
    assert scored["mean"].item() == pytest.approx(np.mean(aucs), abs=TOL)
    assert scored["sd"].item() == pytest.approx(np.std(aucs), abs=TOL)


# --- Polars == DuckDB with a prevalence ------------------------------------------------------


def test_shifted_metrics_polars_equal_duckdb(con) -> None:
    df = grouped()
    for pi in (0.5, 0.02):
        equal(
            ce.metrics(df, "y", "yhat", prevalence=pi, by="g", weight="w"),
            sql.metrics(df, "y", "yhat", prevalence=pi, by="g", weight="w"),
        )
        lazy = ce.thresholds(df.lazy(), "y", "s", prevalence=pi, by="g", weight="w").collect()
        equal(lazy, sql.thresholds(df, "y", "s", prevalence=pi, by="g", weight="w"))


# --- bad input: one message on every surface ---------------------------------------------------

BAD = [  # (options, the argument the error names, what it says)
    ({"prevalence": 0}, "prevalence", "prevalence=0 is not a number in (0, 1)"),
    ({"prevalence": 1.5}, "prevalence", "prevalence=1.5 is not a number in (0, 1)"),
    ({"prevalence": float("nan")}, "prevalence", "prevalence=nan is not a number in (0, 1)"),
    ({"cost_fp": -1.0, "cost_fn": 1.0}, "cost_fp", "cost_fp=-1.0 is not a finite number >= 0"),
    ({"cost_fp": 1.0, "cost_fn": float("nan")}, "cost_fn", "cost_fn=nan is not a finite number"),
    ({"cost_fp": 1.0}, "cost_fn", "cost_fp= is given but cost_fn= is not"),
]


def _sql_text(kw: dict[str, Any]) -> str:
    def lit(v: float) -> str:
        return f"'{v}'::DOUBLE" if math.isnan(v) or math.isinf(v) else repr(v)

    return ", ".join(f"{k} := {lit(v)}" for k, v in kw.items())


@pytest.mark.parametrize(("kw", "role", "says"), BAD, ids=[str(b[0]) for b in BAD])
def test_bad_decision_options_raise_the_same_message(patients, con, kw, role, says) -> None:
    costs = {} if "cost_fp" in kw else {"cost_fp": 1.0, "cost_fn": 2.0}
    calls = [
        lambda: ce.thresholds(patients, "y", "s", **kw),
        lambda: patients.clf.thresholds("y", "s", **kw),
        lambda: patients.lazy().clf.best_threshold("y", "s", metric="cost", **costs, **kw),
        lambda: sql.thresholds(patients, "y", "s", **kw),
    ]
    if "prevalence" in kw:
        calls += [
            lambda: ce.metrics(patients, "y", "yhat", **kw),
            lambda: patients.select(ce.precision("y", "yhat", **kw)),
            lambda: ce.report(patients, "y", "yhat", **kw),
            lambda: sql.metrics(patients, "y", "yhat", **kw),
        ]
    for call in calls:
        with pytest.raises(ce.InputError) as err:
            call()
        assert str(err.value).startswith(says), str(err.value)
        assert err.value.role == role
    con.register("patients", patients)
    with pytest.raises(duckdb.Error) as raw:
        con.sql(f"FROM clf_thresholds('patients', 'y', 's', {_sql_text(kw)})").fetchall()
    # the macro spells the argument SQL's way: "prevalence = 0", "cost_fp is given"
    message = str(raw.value).split("clfeval: ", 1)[1]
    assert message.replace(" = ", "=").startswith(re.sub(r"(?<=\w)= ", " ", says))


@pytest.mark.parametrize("grid", [[0.0, 0.5], [0.2, 1.0], [0.3, 0.3], []])
def test_bad_decision_thresholds(patients, con, grid) -> None:
    for call in (
        lambda: ce.decision_curve(patients, "y", "s", thresholds=grid),
        lambda: patients.clf.decision_curve("y", "s", thresholds=grid),
        lambda: sql.decision_curve(patients, "y", "s", thresholds=grid),
    ):
        with pytest.raises(ce.InputError, match=r"\Athresholds") as err:
            call()
        assert err.value.role == "thresholds"
    con.register("patients", patients)
    with pytest.raises(duckdb.Error, match="clfeval: thresholds"):
        con.sql(
            f"FROM clf_decision_curve('patients', 'y', 's', thresholds := {grid}::DOUBLE[])"
        ).fetchall()


def test_fewer_than_two_folds_is_an_error_everywhere(con) -> None:
    df = pl.DataFrame({"y": [1, 0, 1, 0], "yhat": [1, 1, 0, 0], "fold": [1, 1, 1, 1]})
    says = "column 'fold' (fold) has 1 fold(s), fewer than 2"
    for call in (
        lambda: ce.cv_summary(df, "y", "yhat"),
        lambda: df.clf.cv_summary("y", "yhat"),
        lambda: sql.cv_summary(df, "y", "yhat"),
        lambda: ce.report(df, "y", "yhat", fold="fold"),
    ):
        with pytest.raises(ce.InputError) as err:
            call()
        assert str(err.value).startswith(says)
        assert err.value.role == "fold"
    con.register("one_fold", df)
    with pytest.raises(duckdb.Error, match=r"clfeval: column 'fold' \(fold\) has 1 fold"):
        con.sql("FROM clf_cv_summary('one_fold', 'y', 'yhat')").fetchall()


# --- charts ---------------------------------------------------------------------------------


def test_decision_charts_render(patients) -> None:
    vlc = pytest.importorskip("vl_convert")
    charts = {
        "prevalence": patients.clf.plot.prevalence("y", "yhat"),
        "decision": patients.clf.plot.decision_curve("y", "s"),
        "cost": patients.clf.plot.thresholds("y", "s", cost_fp=1, cost_fn=5),
    }
    spec = charts["prevalence"].to_dict()
    rows = next(iter(spec["datasets"].values()))
    rules = [r["prevalence"] for r in rows if r["part"] == "rule"]
    assert rules == [0.5]  # the data's own prevalence, marked
    assert spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    cost = charts["cost"].to_dict()
    points = next(r for r in cost["datasets"].values() if any("expected_cost" in x for x in r))
    best = [r for r in points if r["part"] == "best"]
    assert best == [{"series": "all", "threshold": 0.2, "expected_cost": 0.25, "part": "best"}]
    subtitle = charts["cost"].to_dict()["vconcat"][1]["title"]["subtitle"]
    assert subtitle[0] == "● the minimum expected cost, 0.25 at 0.2"
    assert [r["threshold"] for r in points if r["part"] == "rule"] == [pytest.approx(1 / 6)]
    for name, chart in charts.items():
        png = vlc.vegalite_to_png(json.dumps(chart.to_dict()))
        assert png[:8] == b"\x89PNG\r\n\x1a\n", name
        assert len(png) > 5_000, name


@pytest.mark.parametrize(
    ("column", "value", "says"),
    [
        ("s", 1.5, "column 's' (proba) has 1 value(s) outside [0, 1]"),
        ("s", float("nan"), "column 's' (proba) has 1 NaN value(s)"),
        ("w", -1.0, "column 'w' (weight) has 1 negative value(s)"),
    ],
)
def test_bad_data_of_a_decision_curve_is_one_message(patients, con, column, value, says) -> None:
    bad = patients.with_columns(w=pl.lit(1.0)).with_columns(
        pl.when(pl.int_range(pl.len()) == 3).then(value).otherwise(pl.col(column)).alias(column)
    )
    con.register("bad_rows", bad)
    for call in (
        lambda: ce.decision_curve(bad, "y", "s", weight="w"),
        lambda: bad.clf.decision_curve("y", "s", weight="w"),
        lambda: sql.decision_curve(bad, "y", "s", weight="w"),
        lambda: sql.decision_curve("bad_rows", "y", "s", weight="w", con=con),
    ):
        with pytest.raises(ce.InputError) as err:
            call()
        assert str(err.value).startswith(says), str(err.value)
    lazy = ce.decision_curve(bad.lazy(), "y", "s", weight="w").collect()
    if math.isnan(value):  # the expression rule: a NaN score leaves its row out
        kept = ce.decision_curve(bad.filter(pl.col("s").is_not_nan()), "y", "s", weight="w")
        equal(lazy, kept)
    else:  # a meaningless value nulls the group's numbers
        assert lazy["net_benefit"].null_count() == lazy.height


def test_report_page_shows_the_target_prevalence_and_costs(patients) -> None:
    page = ce.report_html(
        patients, "y", "yhat", score="s", prevalence=0.1, cost_fp=1, cost_fn=5
    ).to_html()
    cost = ce.expected_cost(patients, "y", "yhat", cost_fp=1, cost_fn=5, prevalence=0.1)
    assert "target prevalence 10.00%" in page
    assert f"expected cost of yhat: {cost['expected_cost'].item():,.4g} per row" in page
    assert "Expected cost per row" in page  # the explorer's panel
    assert "Precision and NPV by prevalence" in page
    plain = ce.report_html(patients, "y", "yhat", score="s").to_html()
    assert "Expected cost per row" not in plain
    assert "target prevalence" not in plain


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"prevalence": 1.5}, r"prevalence=1.5 is not a number in \(0, 1\)"),
        ({"prevalence": "col"}, "prevalence='col' is not a number"),
        ({"cost_fp": 1}, "cost_fp= is given but cost_fn= is not"),
        ({"cost_fp": -1, "cost_fn": 1}, "cost_fp=-1 is not a finite number >= 0"),
    ],
)
def test_report_page_refuses_bad_decision_options(patients, kw, says) -> None:
    with pytest.raises(ce.InputError, match=says):
        ce.report_html(patients, "y", "yhat", score="s", **kw)


def test_report_page_decisions_need_two_classes() -> None:
    df = pl.DataFrame({"y": [0, 1, 2, 1], "yhat": [0, 1, 1, 2]})
    with pytest.raises(ce.InputError, match="for two classes; y and yhat have 3") as err:
        ce.report_html(df, "y", "yhat", cost_fp=1, cost_fn=2)
    assert err.value.role == "cost_fp"
