"""The table macros over per-class scores, and the new binary options and macros.

``clf_auroc(max_fpr := ...)``, ``clf_auroc_multiclass`` (ovr/ovo; macro, weighted, micro),
``clf_roc_curve_multiclass`` / ``clf_pr_curve_multiclass``, ``clf_top_k_accuracy``,
``clf_ece`` / ``clf_ece_multiclass`` and ``clf_lift``: DuckDB (the macros called in SQL with
bound parameters, and the Python wrappers of ``clfeval.sql``) against the Polars expressions
and frame functions and scikit-learn, per group, to 1e-9. Randomized frames (hypothesis,
no shrinking): integer and string labels, 2-5 classes, a one-class group, NULL rows (left out
by the macros), weights with zeros, tied scores. Then the clfeval: errors, and one query of
each macro in the DuckDB command-line client 1.5.6.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import warnings
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import clfeval as ce
from clfeval import sql

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: keeps a failure fast
)
TOL = 1e-9


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


@st.composite
def frames(draw: st.DrawFn, *, nulls: bool = True, proba: bool = False) -> dict[str, Any]:
    """Groups 'a' and 'b' with 2-5 classes and group 'c' with one class; scores rounded to one
    decimal (ties) or not; NULL labels, scores and weights when ``nulls``; zero weights. With
    ``proba`` each row's scores are probabilities that sum to 1."""
    text = draw(st.booleans())
    k = draw(st.integers(2, 5))
    classes: list[Any] = (
        draw(st.lists(st.sampled_from(["ant", "bee", "Cat", "dog", "ému", "x y"]),
                      min_size=k, max_size=k, unique=True))
        if text
        else draw(st.lists(st.integers(-3, 40), min_size=k, max_size=k, unique=True))
    )  # fmt: skip
    n = draw(st.integers(2, 50))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y: list[Any] = [classes[i] for i in rng.integers(0, k, n)]
    raw = rng.random((n, k))
    if draw(st.booleans()):
        raw = np.round(raw, 1)  # ties
    if proba:
        raw = raw + 0.05
        raw = raw / raw.sum(axis=1, keepdims=True)
    w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.5], n)
    g = list(rng.choice(["a", "b"], n))
    one = int(rng.integers(1, 4))  # group 'c': one class only
    y += [classes[0]] * one
    g += ["c"] * one
    raw = np.vstack([raw, np.full((one, k), 1.0 / k)])
    w = np.concatenate([w, np.ones(one)])
    cols = {f"s{i}": raw[:, i].tolist() for i in range(k)}
    wl: list[Any] = w.tolist()
    if nulls:  # in groups 'a' and 'b' only: group 'c' keeps every row
        for i in rng.choice(n, size=min(3, n), replace=False):
            which = int(rng.integers(0, 3))
            if which == 0:
                y[i] = None
            elif which == 1:
                cols["s0"][i] = None
            else:
                wl[i] = None
    dtype = pl.String if text else pl.Int64
    df = pl.DataFrame(
        {"g": g, "y": pl.Series(y, dtype=dtype), **cols, "w": pl.Series(wl, dtype=pl.Float64)}
    )
    order = draw(st.permutations(range(k)))  # labels in any order, not the sorted one
    labels = [classes[i] for i in order]
    scores = [f"s{i}" for i in order]
    return {"df": df, "labels": labels, "scores": scores, "mapping": dict(zip(labels, scores))}


def _grouped(df: pl.DataFrame, expr: pl.Expr) -> dict[str, Any]:
    return dict(df.group_by("g").agg(expr).sort("g").iter_rows())


def _close(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=0, abs_tol=TOL)


def _check_groups(got: pl.DataFrame, want: dict[str, Any], column: str) -> None:
    """Every group the macro returns equals Polars; a group it leaves out (no row kept) is
    null in Polars."""
    rows = dict(zip(got["g"].to_list(), got[column].to_list()))
    assert set(rows) <= set(want)
    for g, value in want.items():
        if g in rows:
            assert _close(rows[g], value), (g, rows[g], value)
        else:
            assert value is None, (g, value)


def _macro(con: duckdb.DuckDBPyConnection, df: pl.DataFrame, name: str, *args: str,
           **named: Any) -> pl.DataFrame:  # fmt: skip
    """``FROM name('t', $a0, ..., key := $key ...)`` with every value bound."""
    con.register("t", df)
    binds = {f"a{i}": a for i, a in enumerate(args)}
    binds.update(dict(named.items()))
    params = [f"$a{i}" for i in range(len(args))] + [f"{k} := ${k}" for k in named]
    try:
        return con.sql(f"FROM {name}('t', {', '.join(params)})", params=binds).pl()
    finally:
        con.unregister("t")


# --- multiclass AUROC ---------------------------------------------------------------------


@SETTINGS
@given(case=frames(), weighted=st.booleans(),
       form=st.sampled_from([("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"),
                             ("ovo", "macro"), ("ovo", "weighted")]))  # fmt: skip
def test_auroc_multiclass_equals_polars(con, case, weighted, form):
    df, w = case["df"], "w" if weighted else None
    multi_class, average = form
    got = _macro(con, df, "clf_auroc_multiclass", "y", case["scores"], labels=case["labels"],
                 group_cols=["g"], weight_col=w, multi_class=multi_class, average=average)  # fmt: skip
    assert got.columns == ["g", "auroc"]
    want = _grouped(
        df, ce.auroc("y", case["mapping"], multi_class=multi_class, average=average, weight=w)
    )
    _check_groups(got, want, "auroc")
    # the Python wrapper, rows with a NULL dropped by the front door
    wrapped = ce.sql.auroc(df, "y", case["mapping"], by="g", weight=w, missing="drop",
                           multi_class=multi_class, average=average)  # fmt: skip
    assert wrapped.schema == pl.Schema({"g": pl.String, "auroc": pl.Float64})
    _check_groups(wrapped, want, "auroc")


@SETTINGS
@given(case=frames(nulls=False, proba=True), weighted=st.booleans())
def test_auroc_multiclass_equals_sklearn(con, case, weighted):
    df = case["df"].filter(pl.col("g") != "c")
    labels, scores = case["labels"], case["scores"]
    order = sorted(labels)  # scikit-learn wants the columns in sorted class order
    for g, part in df.group_by("g"):
        if part["y"].n_unique() != len(labels):
            continue  # scikit-learn needs every class present
        y = part["y"].to_list()
        p = part.select(scores[labels.index(c)] for c in order).to_numpy()
        w = part["w"].to_numpy() if weighted else None
        if w is not None and any(w[np.array(y) == c].sum() == 0 for c in order):
            continue
        forms = [("ovr", "macro"), ("ovr", "weighted")]
        forms += [] if weighted else [("ovo", "macro")]
        if len(labels) > 2:
            for mc, av in forms:
                want = skm.roc_auc_score(y, p, multi_class=mc, average=av, labels=order,
                                         sample_weight=w)  # fmt: skip
                got = ce.sql.auroc(part, "y", case["mapping"], multi_class=mc, average=av,
                                   weight="w" if weighted else None)  # fmt: skip
                assert _close(got["auroc"].item(), want), (g, mc, av)


# --- max_fpr ----------------------------------------------------------------------------


@SETTINGS
@given(case=frames(), weighted=st.booleans(), max_fpr=st.sampled_from([0.01, 0.1, 0.37, 0.5, 1.0]))
def test_max_fpr_equals_polars_and_sklearn(con, case, weighted, max_fpr):
    df = case["df"].with_columns(pos=(pl.col("y") == case["labels"][0]).cast(pl.Int64))
    w = "w" if weighted else None
    got = _macro(con, df, "clf_auroc", "pos", "s1", group_cols=["g"], weight_col=w,
                 max_fpr=max_fpr)  # fmt: skip
    want = _grouped(df, ce.auroc("pos", "s1", max_fpr=max_fpr, weight=w))
    _check_groups(got, want, "auroc")
    wrapped = ce.sql.auroc(df, "pos", "s1", by="g", weight=w, max_fpr=max_fpr, missing="drop")
    _check_groups(wrapped, want, "auroc")
    clean = df.drop_nulls(["pos", "s1", *([w] if w else [])])
    for g, part in clean.group_by("g"):
        sw = part["w"].to_numpy() if weighted else None
        pos_w = (part["pos"].to_numpy() * (1 if sw is None else sw)).sum()
        neg_w = ((1 - part["pos"].to_numpy()) * (1 if sw is None else sw)).sum()
        if pos_w == 0 or neg_w == 0:
            continue
        ref = skm.roc_auc_score(part["pos"], part["s1"], max_fpr=max_fpr, sample_weight=sw)
        assert _close(dict(got.iter_rows())[g[0]], ref), (g, max_fpr)


# --- per-class curves ---------------------------------------------------------------------


@SETTINGS
@given(case=frames(), weighted=st.booleans(), drop=st.booleans(),
       curve=st.sampled_from(["roc_curve", "pr_curve"]))  # fmt: skip
def test_per_class_curves_equal_the_polars_frame_functions(con, case, weighted, drop, curve):
    df = case["df"].drop_nulls(["y", "s0", "w"])  # the frame functions raise on NULLs
    labels = set(case["labels"])
    df = df.filter(pl.col("y").is_in(list(labels)))
    if df.height == 0:
        return
    w = "w" if weighted else None
    want = getattr(ce, curve)(df, "y", case["mapping"], by="g", weight=w, drop_intermediate=drop)
    got = getattr(ce.sql, curve)(df, "y", case["mapping"], by="g", weight=w, drop_intermediate=drop)
    assert got.columns == want.columns
    assert_frame_equal(got, want, abs_tol=TOL, rel_tol=0)
    # the macro called in SQL: same rows, label of the labels' type
    raw = _macro(con, df, f"clf_{curve}_multiclass", "y", case["scores"], labels=case["labels"],
                 group_cols=["g"], weight_col=w, drop_intermediate=drop)  # fmt: skip
    assert raw.height == want.height
    assert raw["label"].to_list() == want["label"].to_list()


def test_per_class_roc_curve_equals_sklearn():
    rng = np.random.default_rng(3)
    n = 200
    df = pl.DataFrame({"y": rng.choice(["a", "b", "c"], n), "w": rng.choice([0.0, 1.0, 2.5], n),
                       **{f"p_{c}": np.round(rng.random(n), 2) for c in "abc"}})  # fmt: skip
    got = ce.sql.roc_curve(df, "y", {"c": "p_c", "a": "p_a", "b": "p_b"}, weight="w")
    assert got["label"].unique(maintain_order=True).to_list() == ["c", "a", "b"]
    for c in "cab":
        fpr, tpr, thr = skm.roc_curve(df["y"] == c, df[f"p_{c}"], sample_weight=df["w"])
        part = got.filter(pl.col("label") == c)
        np.testing.assert_allclose(part["threshold"], thr, atol=TOL)
        np.testing.assert_allclose(part["fpr"], fpr, atol=TOL)
        np.testing.assert_allclose(part["tpr"], tpr, atol=TOL)


def test_per_class_curves_end_exactly_at_one_with_fractional_weights():
    """Each class's totals are its running sums at the last threshold, bit for bit: tpr,
    fpr and recall end at exactly 1, as scikit-learn's tps / tps[-1] (a separately added
    total missed 1 by 1e-16 in most curves)."""
    rng = np.random.default_rng(0)
    n = 5000
    p = rng.dirichlet([1, 1, 1], n)
    df = pl.DataFrame({"y": rng.integers(0, 3, n), "a": p[:, 0], "b": p[:, 1], "c": p[:, 2],
                       "w": rng.random(n) * 3, "g": rng.integers(0, 4, n)})  # fmt: skip
    for frame in (ce, ce.sql):
        roc = frame.roc_curve(df, "y", ["a", "b", "c"], labels=[0, 1, 2], weight="w", by="g")
        ends = roc.group_by("g", "label").agg(pl.col("fpr", "tpr").last())
        assert ends.height == 12
        assert (ends["fpr"] == 1.0).all()
        assert (ends["tpr"] == 1.0).all()
        pr = frame.pr_curve(df, "y", ["a", "b", "c"], labels=[0, 1, 2], weight="w", by="g")
        assert (pr.group_by("g", "label").agg(pl.col("recall").first())["recall"] == 1.0).all()


# --- top-k, ECE, lift ---------------------------------------------------------------------


@SETTINGS
@given(case=frames(), weighted=st.booleans(), k=st.integers(1, 4))
def test_top_k_accuracy_equals_polars(con, case, weighted, k):
    df, w = case["df"], "w" if weighted else None
    got = _macro(con, df, "clf_top_k_accuracy", "y", case["scores"], labels=case["labels"], k=k,
                 group_cols=["g"], weight_col=w)  # fmt: skip
    want = _grouped(df, ce.top_k_accuracy("y", case["mapping"], k=k, weight=w))
    _check_groups(got, want, "top_k_accuracy")
    wrapped = ce.sql.top_k_accuracy(df, "y", case["mapping"], k=k, by="g", weight=w,
                                    missing="drop")  # fmt: skip
    assert wrapped.schema == pl.Schema({"g": pl.String, "top_k_accuracy": pl.Float64})
    _check_groups(wrapped, want, "top_k_accuracy")


@SETTINGS
@given(case=frames(nulls=False), weighted=st.booleans(), k=st.integers(1, 3))
def test_top_k_accuracy_equals_sklearn(case, weighted, k):
    labels, scores = case["labels"], case["scores"]
    order = sorted(labels)
    df = case["df"]
    if len(labels) < 3 or k >= len(labels):
        return
    w = df["w"].to_numpy() if weighted else None
    if w is not None and w.sum() == 0:
        return
    p = df.select(scores[labels.index(c)] for c in order).to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = skm.top_k_accuracy_score(df["y"].to_list(), p, k=k, labels=order, sample_weight=w)
    # scikit-learn breaks ties by the sorted class order: list the classes sorted
    got = ce.sql.top_k_accuracy(df, "y", [scores[labels.index(c)] for c in order], labels=order,
                                k=k, weight="w" if weighted else None)  # fmt: skip
    assert _close(got["top_k_accuracy"].item(), want)


@SETTINGS
@given(case=frames(proba=True), weighted=st.booleans(), n_bins=st.sampled_from([1, 2, 3, 10, 15]),
       kind=st.sampled_from(["expected", "max"]))  # fmt: skip
def test_ece_equals_polars(con, case, weighted, n_bins, kind):
    df, w = case["df"], "w" if weighted else None
    column = "ece" if kind == "expected" else "mce"
    got = _macro(con, df, "clf_ece_multiclass", "y", case["scores"], labels=case["labels"],
                 n_bins=n_bins, kind=kind, group_cols=["g"], weight_col=w)  # fmt: skip
    assert got.columns == ["g", column]
    want = _grouped(df, ce.ece("y", case["mapping"], n_bins=n_bins, kind=kind, weight=w))
    _check_groups(got, want, column)
    wrapped = ce.sql.ece(df, "y", case["mapping"], n_bins=n_bins, kind=kind, by="g", weight=w,
                         missing="drop")  # fmt: skip
    _check_groups(wrapped, want, column)

    # binary: the probability of a label present in y on the rows missing="drop" keeps (the
    # front door wants pos_label in y)
    def kept(c):
        column = case["scores"][case["labels"].index(c)]
        return df.drop_nulls(["y", column, *([w] if w else [])])["y"].to_list()

    present = [c for c in case["labels"] if c in kept(c)]
    if not present:
        return
    pos = present[0]
    s = case["scores"][case["labels"].index(pos)]
    got = _macro(con, df, "clf_ece", "y", s, pos_label=pos, n_bins=n_bins, kind=kind,
                 group_cols=["g"], weight_col=w)  # fmt: skip
    want = _grouped(df, ce.ece("y", s, pos_label=pos, n_bins=n_bins, kind=kind, weight=w))
    _check_groups(got, want, column)
    wrapped = ce.sql.ece(df, "y", s, pos_label=pos, n_bins=n_bins, kind=kind, by="g", weight=w,
                         missing="drop")  # fmt: skip
    _check_groups(wrapped, want, column)


def test_ece_bins_put_an_edge_value_in_the_lower_bin():
    # 0.1 * 3 = 0.30000000000000004 > 0.3: numpy's linspace edges, compared exactly
    df = pl.DataFrame({"y": [1, 0, 1, 0, 1], "p": [0.3, 0.3, 0.6, 0.7, 1.0]})
    for n_bins in (3, 10, 1000):
        want = df.select(ce.ece("y", "p", n_bins=n_bins)).item()
        assert _close(ce.sql.ece(df, "y", "p", n_bins=n_bins)["ece"].item(), want)
    # n_bins=2: [0.3, 0.3] gap 0.7 - 0.3 = 0.4; (0.6, 0.7, 1.0) gap 0.4 - 0.7 + 0 = -0.3
    assert _close(ce.sql.ece(df, "y", "p", n_bins=2)["ece"].item(), (0.4 + 0.3) / 5)


@SETTINGS
@given(case=frames(), weighted=st.booleans())
def test_lift_equals_the_polars_frame_function(con, case, weighted):
    df = case["df"].drop_nulls(["y", "s1", "w"])
    df = df.with_columns(pos=(pl.col("y") == case["labels"][0]).cast(pl.Int64))
    w = "w" if weighted else None
    want = ce.lift_curve(df, "pos", "s1", by="g", weight=w)
    got = ce.sql.lift_curve(df, "pos", "s1", by="g", weight=w)
    assert_frame_equal(got, want, abs_tol=TOL, rel_tol=0)
    gain = ce.sql.gain_curve(df, "pos", "s1", by="g", weight=w)  # lift = gain / targeted
    tail = gain.filter(pl.col("fraction_targeted") > 0)
    ratio = (tail["gain"] / tail["fraction_targeted"]).to_list()
    assert all(_close(a, b) for a, b in zip(ratio, got["lift"].to_list()))


# --- errors -------------------------------------------------------------------------------


def _fails(con: duckdb.DuckDBPyConnection, query: str, *fragments: str) -> None:
    with pytest.raises(duckdb.Error) as err:
        con.sql(query).fetchall()
    message = str(err.value)
    assert "clfeval: " in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)


@pytest.fixture(scope="module")
def bad(con):
    con.execute(
        """
        CREATE OR REPLACE TABLE m AS SELECT * FROM (VALUES
            ('g1', 'a', 0.2, 0.5, 0.3, 1.0, 'x', 1),
            ('g1', 'b', 0.6, 0.1, 0.3, 2.0, 'y', 0),
            ('g2', 'c', 0.1, 0.1, 0.8, 0.0, 'z', 1),
            ('g2', 'a', 0.4, 0.4, 0.2, 1.5, 'x', 0)
        ) v(g, y, pa, pb, pc, w, txt, yi)
        """
    )
    con.execute(
        "CREATE OR REPLACE TABLE m_bad AS SELECT *, CASE WHEN y = 'b' THEN 'nan'::DOUBLE "
        "ELSE pb END AS pnan, CASE WHEN y = 'b' THEN 'inf'::DOUBLE ELSE pb END AS pinf, "
        "CASE WHEN y = 'b' THEN 1.5 ELSE pb END AS pout, CASE WHEN y = 'b' THEN -1.0 ELSE w END "
        "AS wneg FROM m"
    )
    return con


ABC = "['pa', 'pb', 'pc'], labels := ['a', 'b', 'c']"


@pytest.mark.parametrize(
    ("query", "fragments"),
    [
        ("FROM clf_auroc_multiclass('m', 'y', ['pa'], labels := ['a'])",
         ["multiclass scores need at least two classes, got ['pa']"]),
        ("FROM clf_auroc_multiclass('m', 'y', ['pa', 'pa'], labels := ['a', 'b'])",
         ["lists a column more than once"]),
        ("FROM clf_auroc_multiclass('m', 'y', ['pa', 'pb'])",
         ["a list of 2 score columns needs labels := of the same length"]),
        ("FROM clf_auroc_multiclass('m', 'y', ['pa', 'pb'], labels := ['a', 'a'])",
         ["lists a class more than once"]),
        ("FROM clf_auroc_multiclass('m', 'y', ['pa', 'pb'], labels := [1, 2])",
         ["column 'y' (role y, VARCHAR) and labels (INTEGER[]) hold different kinds of labels"]),
        ("FROM clf_auroc_multiclass('m', 'y', ['txt', 'y'], labels := ['a', 'b'])",
         ["columns ['txt', 'y'] (role score, VARCHAR) holds no numbers; scores must be numbers"]),
        (f"FROM clf_auroc_multiclass('m', 'y', {ABC}, multi_class := 'ovx')",
         ["multi_class = 'ovx' is not one of ['ovr', 'ovo']"]),
        (f"FROM clf_auroc_multiclass('m', 'y', {ABC}, multi_class := 'ovo', average := 'micro')",
         ["average = 'micro' is not one of ['macro', 'weighted']"]),
        (f"FROM clf_auroc_multiclass('m', 'y', {ABC}, average := 'binary')",
         ["average = 'binary' is not one of ['macro', 'weighted', 'micro']"]),
        ("FROM clf_auroc_multiclass('m_bad', 'y', ['pa', 'pnan', 'pc'], labels := ['a', 'b', 'c'])",
         ["column 'pnan' (role score) has 1 NaN value(s); scores must be finite"]),
        ("FROM clf_auroc_multiclass('m_bad', 'y', ['pa', 'pinf', 'pc'], labels := ['a', 'b', 'c'])",
         ["column 'pinf' (role score) has 1 infinite value(s)"]),
        (f"FROM clf_auroc_multiclass('m_bad', 'y', {ABC}, weight_col := 'wneg')",
         ["column 'wneg' (role weight) has 1 negative value(s) (min -1.0)"]),
        (f"FROM clf_top_k_accuracy('m', 'y', {ABC}, k := 0)",
         ["k = 0 is not an integer from 1 to 2,147,483,648"]),
        (f"FROM clf_top_k_accuracy('m', 'y', {ABC}, k := 1.5)", ["k = 1.5 is not an integer"]),
        (f"FROM clf_ece_multiclass('m', 'y', {ABC}, n_bins := 0)",
         ["n_bins = 0 is not an integer from 1 to 1,000"]),
        (f"FROM clf_ece_multiclass('m', 'y', {ABC}, kind := 'mean')",
         ["kind = 'mean' is not one of ['expected', 'max']"]),
        ("FROM clf_ece_multiclass('m_bad', 'y', ['pa', 'pout', 'pc'], labels := ['a', 'b', 'c'])",
         ["column 'pout' (role proba) has 1 value(s) outside [0, 1] (min 0.1, max 1.5)"]),
        ("FROM clf_ece('m_bad', 'yi', 'pout')",
         ["column 'pout' (role proba) has 1 value(s) outside [0, 1]"]),
        ("FROM clf_ece('m', 'yi', 'pa', kind := 'max', n_bins := 1001)", ["n_bins = 1001"]),
        (f"FROM clf_ece_multiclass('m', 'y', {ABC}, n_bins := '10')", ["n_bins = '10'"]),
        (f"FROM clf_ece_multiclass('m', 'y', {ABC}, n_bins := true)", ["n_bins = true"]),
        ("FROM clf_ece('m', 'y', 'pa')", ["pos_label := '1'"]),
        ("FROM clf_auroc('m', 'yi', 'pa', max_fpr := 0)",
         ["max_fpr = 0 is not a number in (0, 1]"]),
        ("FROM clf_auroc('m', 'yi', 'pa', max_fpr := 1.5)", ["max_fpr = 1.5 is not a number"]),
        ("FROM clf_lift('m', 'yi', 'txt')", ["holds no numbers"]),
        ("FROM clf_roc_curve_multiclass('m_bad', 'y', ['pa', 'pnan', 'pc'], labels := ['a', 'b', 'c'])",
         ["column 'pnan' (role score) has 1 NaN value(s)"]),
        (f"FROM clf_pr_curve_multiclass('m_bad', 'y', {ABC}, weight_col := 'wneg')",
         ["column 'wneg' (role weight) has 1 negative value(s)"]),
    ],
)  # fmt: skip
def test_macro_errors(bad, query, fragments):
    _fails(bad, query, *fragments)


def test_a_text_column_among_number_columns_raises(bad):
    """DuckDB refuses to list text with numbers when it binds the query (before the macro's
    own check); the Python front door names the column first."""
    with pytest.raises(duckdb.Error):
        bad.sql(
            "FROM clf_auroc_multiclass('m', 'y', ['pa', 'txt'], labels := ['a', 'b'])"
        ).fetchall()
    df = pl.DataFrame({"y": ["a", "b"], "pa": [0.2, 0.4], "txt": ["x", "y"]})
    with pytest.raises(ce.InputError, match="'txt'"):
        ce.sql.auroc(df, "y", {"a": "pa", "b": "txt"})


def test_a_score_string_is_never_a_regex(bad):
    """COLUMNS('p.') would pick pa, pb and pc; a string is refused instead."""
    with pytest.raises(duckdb.Error, match="can't be cast"):
        bad.sql("FROM clf_auroc_multiclass('m', 'y', 'p.', labels := ['a', 'b', 'c'])").fetchall()


def test_rows_of_other_classes_and_nulls_are_left_out(bad):
    full = bad.sql(f"FROM clf_auroc_multiclass('m', 'y', {ABC})").fetchall()
    bad.execute(
        "CREATE OR REPLACE TABLE m_more AS FROM m UNION ALL "
        "SELECT 'g1', 'zzz', 0.9, 0.0, 0.1, 1.0, 'x', 1 UNION ALL "
        "SELECT 'g1', NULL, 0.9, 0.0, 0.1, 1.0, 'x', 1 UNION ALL "
        "SELECT 'g1', 'a', NULL, 0.0, 0.1, 1.0, 'x', 1"
    )
    assert bad.sql(f"FROM clf_auroc_multiclass('m_more', 'y', {ABC})").fetchall() == full


@pytest.mark.parametrize(
    ("sql_call", "polars_call"),
    [
        (lambda df: ce.sql.auroc(df, "y", {"a": "pa", "b": "pb"}, average="binary"),
         lambda df: df.select(ce.auroc("y", {"a": "pa", "b": "pb"}, average="binary"))),
        (lambda df: ce.sql.auroc(df, "y", {"a": "pa", "b": "pb"}, multi_class="x"),
         lambda df: df.select(ce.auroc("y", {"a": "pa", "b": "pb"}, multi_class="x"))),
        (lambda df: ce.sql.auroc(df, "y", {"a": "pa", "b": "pb"}, max_fpr=0.5),
         lambda df: df.select(ce.auroc("y", {"a": "pa", "b": "pb"}, max_fpr=0.5))),
        (lambda df: ce.sql.auroc(df, "yi", "pa", max_fpr=2),
         lambda df: df.select(ce.auroc("yi", "pa", max_fpr=2))),
        (lambda df: ce.sql.auroc(df, "y", ["pa", "pb"]),
         lambda df: df.select(ce.auroc("y", ["pa", "pb"]))),
        (lambda df: ce.sql.auroc(df, "y", {"a": "pa"}),
         lambda df: df.select(ce.auroc("y", {"a": "pa"}))),
        (lambda df: ce.sql.top_k_accuracy(df, "y", {"a": "pa", "b": "pb"}, k=0),
         lambda df: df.select(ce.top_k_accuracy("y", {"a": "pa", "b": "pb"}, k=0))),
        (lambda df: ce.sql.ece(df, "y", {"a": "pa", "b": "pb"}, kind="mean"),
         lambda df: df.select(ce.ece("y", {"a": "pa", "b": "pb"}, kind="mean"))),
        (lambda df: ce.sql.ece(df, "yi", "pa", n_bins=0),
         lambda df: df.select(ce.ece("yi", "pa", n_bins=0))),
        (lambda df: ce.sql.roc_curve(df, "y", {"a": "pa", "b": "pb"}),
         lambda df: ce.roc_curve(df, "y", {"a": "pa", "b": "pb"})),
    ],
)  # fmt: skip
def test_python_errors_match_the_polars_front_door(sql_call, polars_call):
    df = pl.DataFrame({"y": ["a", "b", "c"], "yi": [1, 0, 1], "pa": [0.2, 0.5, 0.3],
                       "pb": [0.5, 0.2, 0.3]})  # fmt: skip
    with pytest.raises(ce.InputError) as want:
        polars_call(df)
    with pytest.raises(ce.InputError) as got:
        sql_call(df)
    message = str(want.value).split("\n")[0]
    if "is not one of" in message:  # the SQL forms have no average=None
        message = message.split(" is not one of")[0]
    assert message in str(got.value)


def test_python_front_door_checks_the_data():
    df = pl.DataFrame({"y": ["a", "b"], "pa": [0.2, math.nan], "pb": [0.8, 0.5],
                       "w": [1.0, -1.0]})  # fmt: skip
    with pytest.raises(ce.InputError, match="NaN"):
        ce.sql.auroc(df, "y", {"a": "pa", "b": "pb"})
    with pytest.raises(ce.InputError, match="negative"):
        ce.sql.top_k_accuracy(df.with_columns(pa=pl.lit(0.2)), "y", {"a": "pa", "b": "pb"},
                              weight="w")  # fmt: skip
    with pytest.raises(ce.InputError, match="top_k_accuracy takes per-class score columns"):
        ce.sql.top_k_accuracy(df, "y", "pa")


def test_table_macro_and_a_duckdb_table_run_the_multiclass_macros(con):
    df = pl.DataFrame({"g": [1, 1, 1, 2, 2, 2], "y": [0, 1, 2, 0, 1, 2],
                       "p0": [0.6, 0.2, 0.1, 0.3, 0.3, 0.5], "p1": [0.3, 0.5, 0.2, 0.3, 0.4, 0.2],
                       "p2": [0.1, 0.3, 0.7, 0.4, 0.3, 0.3]})  # fmt: skip
    mapping = {0: "p0", 1: "p1", 2: "p2"}
    want = df.group_by("g").agg(ce.auroc("y", mapping, multi_class="ovo")).sort("g")
    got = sql.table_macro("clf_auroc_multiclass", df, "y", ["p0", "p1", "p2"], labels=[0, 1, 2],
                          group_cols=["g"], multi_class="ovo")  # fmt: skip
    assert_frame_equal(got, want, abs_tol=TOL)
    con.register("mc", df)
    try:
        assert_frame_equal(ce.sql.auroc("mc", "y", mapping, by="g", con=con, multi_class="ovo"),
                           want, abs_tol=TOL)  # fmt: skip
        curve = ce.sql.roc_curve("mc", "y", mapping, by="g", con=con)
        assert_frame_equal(curve, ce.roc_curve(df, "y", mapping, by="g"), abs_tol=TOL)
        with pytest.raises(ce.InputError, match="which have no score column"):
            ce.sql.roc_curve("mc", "y", {0: "p0", 1: "p1"}, con=con)
    finally:
        con.unregister("mc")
    for name, spec in sql.TABLE_MACROS.items():
        if spec.multiclass:
            out = sql.table_macro(name, df, "y", mapping)
            assert out.columns == list(spec.outputs), name


# --- the DuckDB command-line client (1.5.6) --------------------------------------------------


def _cli() -> str | None:
    return shutil.which("duckdb", path=os.path.dirname(sys.executable)) or shutil.which("duckdb")


CLI = _cli()


@pytest.mark.skipif(
    CLI is None and os.environ.get("CI") != "true",
    reason="no duckdb command-line client (pip install duckdb-cli)",
)
def test_cli_runs_the_new_macros_like_the_package(tmp_path, con):
    table = (
        "CREATE TABLE t AS SELECT CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS g, "
        "CAST((i * 7) % 3 AS INTEGER) AS y, ((i * 13) % 17) / 17.0 AS p0, "
        "((i * 5) % 11) / 11.0 AS p1, ((i * 3) % 7) / 7.0 AS p2, (i % 4) * 0.5 AS w "
        "FROM range(300) r(i)"
    )
    queries = [
        "FROM clf_auroc_multiclass('t', 'y', ['p2', 'p0', 'p1'], labels := [2, 0, 1], "
        "group_cols := ['g'], weight_col := 'w', multi_class := 'ovo', average := 'weighted')",
        "FROM clf_auroc_multiclass('t', 'y', ['p0', 'p1', 'p2'], labels := [0, 1, 2], "
        "group_cols := ['g'], average := 'micro')",
        "FROM clf_top_k_accuracy('t', 'y', ['p0', 'p1', 'p2'], labels := [0, 1, 2], k := 1, "
        "group_cols := ['g'])",
        "FROM clf_ece_multiclass('t', 'y', ['p0', 'p1', 'p2'], labels := [0, 1, 2], "
        "group_cols := ['g'], kind := 'max')",
        "FROM clf_ece('t', 'y', 'p1', group_cols := ['g'], weight_col := 'w')",
        "FROM clf_auroc('t', 'y', 'p1', group_cols := ['g'], max_fpr := 0.3)",
        "FROM clf_lift('t', 'y', 'p1', group_cols := ['g'])",
        "FROM clf_roc_curve_multiclass('t', 'y', ['p0', 'p1', 'p2'], labels := [0, 1, 2], "
        "group_cols := ['g'])",
        "FROM clf_pr_curve_multiclass('t', 'y', ['p0', 'p1', 'p2'], labels := [0, 1, 2], "
        "group_cols := ['g'], weight_col := 'w')",
    ]
    db = str(tmp_path / "mc.db")
    done = subprocess.run([CLI, db, "-bail"], input=sql.text() + "\n" + table + ";\n",
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    con.execute(table.replace("CREATE TABLE t", "CREATE OR REPLACE TABLE cli_t"))
    for query in queries:
        done = subprocess.run([CLI, db, "-json", "-c", query], capture_output=True, text=True,
                              timeout=300, check=False)  # fmt: skip
        assert done.returncode == 0, (query, done.stderr)
        got = json.loads(done.stdout or "[]")
        want = con.sql(query.replace("('t'", "('cli_t'")).fetchall()
        assert len(got) == len(want) > 0, query
        for row, ref in zip(got, want):
            for a, b in zip(row.values(), ref):
                if isinstance(b, float):
                    assert a is not None, (query, a, b)
                    assert math.isclose(float(a), b, abs_tol=TOL), (query, a, b)
                else:
                    assert a == b or str(a) == str(b), (query, a, b)
