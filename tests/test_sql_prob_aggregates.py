"""The score and probability aggregate macros, multiclass included (sql/45_multiclass.sql and
clf_auroc(max_fpr :=)): ``SELECT g, clf_auroc_ovr(y, [p_a, p_b, p_c], labels := [...])``.

DuckDB (the Python package; the command-line client 1.5.6 on one query) against the Polars
expressions and scikit-learn, per group, to 1e-9: 2-5 classes, integer and string labels, a
one-class group, NULL rows (left out), weights (zero weights included), ties. Then every
clfeval: error, the issue's query verbatim and the Python runner (clfeval.sql.aggregate).
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
from sklearn import metrics as skm

import clfeval as ce
from clfeval import sql

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: keeps a failure fast
)


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    return c


def _lit(v: Any) -> str:
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def _same(a: Any, b: Any) -> bool:
    a = None if a is None or (isinstance(a, float) and math.isnan(a)) else a
    b = None if b is None or (isinstance(b, float) and math.isnan(b)) else b
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _sk(fn, *args, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(fn(*args, **kwargs))


@st.composite
def prob_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, list[Any]]:
    """Groups 'a' and 'b' of 2-5 classes (NULL labels, scores and weights, zero weights, tied
    probabilities: small integers over their row sum) and group 'c' with one class; integer
    or string labels. Columns g, y, p0..p{k-1} (each row sums to 1), w, y01 (0/1) and s."""
    text = draw(st.booleans())
    k = draw(st.integers(2, 5))
    classes: list[Any] = (
        draw(st.lists(st.sampled_from(["ant", "bee", "Cat", "dog", "ému", "x y"]),
                      min_size=k, max_size=k, unique=True))
        if text
        else draw(st.lists(st.integers(-3, 40), min_size=k, max_size=k, unique=True))
    )  # fmt: skip
    if draw(st.booleans()):
        classes.sort()  # scikit-learn's column order (top-k ties then break alike)
    n = draw(st.integers(1, 50))
    label = st.one_of(*[st.sampled_from(classes)] * 8, st.none())
    y = draw(st.lists(label, min_size=n, max_size=n))
    raw = draw(
        st.lists(st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=n, max_size=n)
    )
    probs = [[v / sum(r) for v in r] if sum(r) else [1.0 / k] * k for r in raw]
    holes = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))  # 0: a NULL score
    for row, h in zip(probs, holes):
        if h == 0:
            row[h % k] = None  # type: ignore[call-overload]
    w = draw(
        st.lists(st.one_of(*[st.floats(0.1, 5.0)] * 5, st.just(0.0), st.none()),
                 min_size=n, max_size=n)
    )  # fmt: skip
    g = draw(st.lists(st.sampled_from("ab"), min_size=n, max_size=n))
    one = draw(st.integers(1, 4))
    y += [classes[0]] * one
    probs += [[1.0 / k] * k] * one
    w += [1.0] * one
    g += ["c"] * one
    y01 = [None if v is None else int(v == classes[0]) for v in y]
    s = [None if r[-1] is None else round(r[-1] * 3) / 3 for r in probs]  # ties
    dtype = pl.String if text else pl.Int64
    cols: dict[str, Any] = {"g": g, "y": y, "w": w, "y01": y01, "s": s}
    schema: dict[str, Any] = {
        "g": pl.String,
        "y": dtype,
        "w": pl.Float64,
        "y01": pl.Int64,
        "s": pl.Float64,
    }
    for i in range(k):
        cols[f"p{i}"] = [r[i] for r in probs]
        schema[f"p{i}"] = pl.Float64
    return pl.DataFrame(cols, schema=schema), classes


def _sql_list(k: int) -> str:
    return "[" + ", ".join(f"p{i}" for i in range(k)) + "]"


def _compare(con, df: pl.DataFrame, pairs: list[tuple[str, pl.Expr]]) -> pl.DataFrame:
    """Run the SQL expressions and the Polars ones grouped by g; assert equal; the SQL result."""
    con.register("pt", df)
    select = ", ".join(f"{q} AS c{i}" for i, (q, _) in enumerate(pairs))
    got = pl.from_arrow(con.sql(f"SELECT g, {select} FROM pt GROUP BY g ORDER BY g").arrow())
    want = df.group_by("g").agg(*[e.alias(f"c{i}") for i, (_, e) in enumerate(pairs)]).sort("g")
    assert got["g"].to_list() == want["g"].to_list()
    for i, (q, _) in enumerate(pairs):
        for g, a, b in zip(got["g"], got[f"c{i}"], want[f"c{i}"]):
            assert _same(a, b), (q, g, a, b)
    return got


def _group(df: pl.DataFrame, g: str, k: int, classes: list[Any], weighted: bool):
    """The rows a multiclass macro evaluates in group g: y, the (n, k) scores, the weights."""
    keep = df.filter(
        (pl.col("g") == g) & pl.col("y").is_not_null()
        & pl.all_horizontal([pl.col(f"p{i}").is_not_null() for i in range(k)])
        & (pl.col("w").is_not_null() if weighted else pl.lit(True))
    )  # fmt: skip
    # scikit-learn reads the columns in sorted label order
    order = sorted(range(k), key=lambda i: classes[i])
    p = keep.select([f"p{i}" for i in order]).to_numpy()
    return keep["y"].to_numpy(), p, keep["w"].to_numpy() if weighted else None


@SETTINGS
@given(
    data=prob_frames(),
    weighted=st.booleans(),
    average=st.sampled_from(["macro", "weighted", "micro"]),
)
def test_ovr_ranking_macros_equal_polars_and_sklearn(con, data, weighted, average):
    df, classes = data
    k = len(classes)
    mapping = {c: f"p{i}" for i, c in enumerate(classes)}
    labels = "[" + ", ".join(_lit(c) for c in classes) + "]"
    w_sql, w_pl = (", weight := w", "w") if weighted else ("", None)
    ovo_avg = "weighted" if average == "weighted" else "macro"
    got = _compare(con, df, [
        (f"clf_auroc_ovr(y, {_sql_list(k)}, labels := {labels}, average := '{average}'{w_sql})",
         ce.auroc("y", mapping, average=average, weight=w_pl)),
        (f"clf_auroc_ovo(y, {_sql_list(k)}, labels := {labels}, average := '{ovo_avg}'{w_sql})",
         ce.auroc("y", mapping, multi_class="ovo", average=ovo_avg, weight=w_pl)),
        (f"clf_average_precision_ovr(y, {_sql_list(k)}, labels := {labels}, average := '{average}'{w_sql})",
         ce.average_precision("y", mapping, average=average, weight=w_pl)),
    ])  # fmt: skip
    if average != "micro":  # one class: no class has an AUROC (micro pools (row, class) pairs)
        assert got.filter(pl.col("g") == "c")["c0"].item() is None
    for row in got.iter_rows(named=True):
        y, p, w = _group(df, row["g"], k, classes, weighted)
        if len(set(y)) < k or (w is not None and any((w[y == c] == 0).all() for c in classes)):
            continue  # scikit-learn needs every class (of nonzero weight) present
        onehot = np.stack([(y == c).astype(int) for c in sorted(classes)], axis=1)
        want = _sk(skm.roc_auc_score, onehot, p, average=average, sample_weight=w)
        assert _same(row["c0"], want), ("ovr", row["g"], row["c0"], want)
        if w is None and k > 2:
            want = _sk(
                skm.roc_auc_score, y, p, multi_class="ovo", average=ovo_avg, labels=sorted(classes)
            )
            assert _same(row["c1"], want), ("ovo", row["g"], row["c1"], want)
        want = _sk(skm.average_precision_score, onehot, p, average=average, sample_weight=w)
        assert _same(row["c2"], want), ("ap", row["g"], row["c2"], want)


@SETTINGS
@given(
    data=prob_frames(),
    weighted=st.booleans(),
    topk=st.integers(1, 4),
    n_bins=st.integers(1, 12),
    kind=st.sampled_from(["expected", "max"]),
)
def test_multiclass_probability_macros_equal_polars_and_sklearn(
    con, data, weighted, topk, n_bins, kind
):
    df, classes = data
    k = len(classes)
    mapping = {c: f"p{i}" for i, c in enumerate(classes)}
    labels = "[" + ", ".join(_lit(c) for c in classes) + "]"
    w_sql, w_pl = (", weight := w", "w") if weighted else ("", None)
    got = _compare(con, df, [
        (f"clf_log_loss_multiclass(y, {_sql_list(k)}, labels := {labels}{w_sql})",
         ce.log_loss("y", mapping, weight=w_pl)),
        (f"clf_brier_multiclass(y, {_sql_list(k)}, labels := {labels}{w_sql})",
         ce.brier("y", mapping, weight=w_pl)),
        (f"clf_top_k_accuracy(y, {_sql_list(k)}, labels := {labels}, k := {topk}{w_sql})",
         ce.top_k_accuracy("y", mapping, k=topk, weight=w_pl)),
        (f"clf_ece_multiclass(y, {_sql_list(k)}, labels := {labels}, n_bins := {n_bins}, kind := '{kind}'{w_sql})",
         ce.ece("y", mapping, n_bins=n_bins, kind=kind, weight=w_pl)),
    ])  # fmt: skip
    for row in got.iter_rows(named=True):
        y, p, w = _group(df, row["g"], k, classes, weighted)
        if not len(y) or (w is not None and w.sum() == 0):
            assert row["c0"] is None
            assert row["c2"] is None
            continue
        want = _sk(skm.log_loss, list(y), p, labels=sorted(classes), sample_weight=w)
        assert _same(row["c0"], want), ("log_loss", row["g"], row["c0"], want)
        if k > 2:
            want = _sk(skm.brier_score_loss, list(y), p, labels=sorted(classes), sample_weight=w)
            assert _same(row["c1"], want), ("brier", row["g"], row["c1"], want)
            want = _sk(
                skm.top_k_accuracy_score,
                list(y),
                p,
                k=topk,
                labels=sorted(classes),
                sample_weight=w,
            )
            assert classes != sorted(classes) or _same(row["c2"], want), (
                "top_k",
                row["g"],
                row["c2"],
                want,
            )


@SETTINGS
@given(
    data=prob_frames(),
    weighted=st.booleans(),
    max_fpr=st.sampled_from([0.05, 0.3, 0.5, 0.99, 1.0]),
    n_bins=st.integers(1, 12),
    kind=st.sampled_from(["expected", "max"]),
)
def test_binary_score_macros_equal_polars_and_sklearn(con, data, weighted, max_fpr, n_bins, kind):
    df, _ = data
    w_sql, w_pl = (", weight := w", "w") if weighted else ("", None)
    got = _compare(con, df, [
        (f"clf_auroc(y01, s, max_fpr := {max_fpr}{w_sql})", ce.auroc("y01", "s", max_fpr=max_fpr, weight=w_pl)),
        (f"clf_ks(y01, s{w_sql})", ce.ks("y01", "s", weight=w_pl)),
        (f"clf_ece(y01, s, n_bins := {n_bins}, kind := '{kind}'{w_sql})",
         ce.ece("y01", "s", n_bins=n_bins, kind=kind, weight=w_pl)),
        (f"clf_ece(y01, s, n_bins := {n_bins}, kind := '{kind}', pos_label := 0{w_sql})",
         ce.ece("y01", "s", n_bins=n_bins, kind=kind, pos_label=0, weight=w_pl)),
    ])  # fmt: skip
    for row in got.iter_rows(named=True):
        keep = df.filter((pl.col("g") == row["g"]) & pl.col("y01").is_not_null() & pl.col("s").is_not_null()
                         & (pl.col("w").is_not_null() if weighted else pl.lit(True)))  # fmt: skip
        y, s = keep["y01"].to_numpy(), keep["s"].to_numpy()
        w = keep["w"].to_numpy() if weighted else None
        pos = w[y == 1].sum() if w is not None else (y == 1).sum()
        neg = w[y == 0].sum() if w is not None else (y == 0).sum()
        if pos == 0 or neg == 0:
            assert row["c0"] is None
            assert row["c1"] is None
            continue
        want = _sk(skm.roc_auc_score, y, s, max_fpr=max_fpr, sample_weight=w)
        assert _same(row["c0"], want), ("auroc", row["g"], row["c0"], want)
        fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        assert _same(row["c1"], float(np.max(np.abs(tpr - fpr)))), ("ks", row["g"])


def test_the_issues_query_runs_verbatim_and_equals_polars(con):
    rng = np.random.default_rng(7)
    n = 3000
    p = rng.dirichlet([1, 2, 3], n)
    preds = pl.DataFrame({
        "model": rng.choice(["m1", "m2"], n), "region": rng.choice(["eu", "us", "apac"], n),
        "label01": rng.integers(0, 2, n), "score": rng.random(n).round(2),
        "label": rng.choice(["a", "b", "c"], n), "p_a": p[:, 0], "p_b": p[:, 1], "p_c": p[:, 2],
    })  # fmt: skip
    con.register("preds", preds)
    got = pl.from_arrow(con.sql("""
    SELECT model, region, clf_auroc(label01, score), clf_average_precision(label01, score), clf_log_loss(label01, score),
           clf_auroc_ovr(label, [p_a, p_b, p_c], labels := ['a','b','c'])
    FROM preds GROUP BY ALL;
    """).arrow())  # fmt: skip
    got.columns = ["model", "region", "auroc", "ap", "log_loss", "ovr"]
    want = preds.group_by("model", "region").agg(
        ce.auroc("label01", "score").alias("auroc"),
        ce.average_precision("label01", "score").alias("ap"),
        ce.log_loss("label01", "score").alias("log_loss"),
        ce.auroc("label", {"a": "p_a", "b": "p_b", "c": "p_c"}).alias("ovr"),
    )
    joined = got.join(want, on=["model", "region"], suffix="_pl")
    assert joined.height == 6
    for col in ("auroc", "ap", "log_loss", "ovr"):
        for a, b in zip(joined[col], joined[f"{col}_pl"]):
            assert _same(a, b), (col, a, b)


def test_arrays_and_short_lists(con):
    """An ARRAY works like a LIST; a row whose list is shorter than labels is left out (its
    missing class scores NULL), extra elements are ignored (as Polars' list.get)."""
    con.execute("""CREATE OR REPLACE TABLE arr AS SELECT * FROM (VALUES
        ('a', [0.7, 0.2, 0.1]), ('b', [0.2, 0.5, 0.3]), ('c', [0.1, 0.3, 0.6]), ('a', [0.3, 0.4, 0.3]),
        ('b', [0.6, 0.3, 0.1, 9.0]), ('c', [0.5, 0.5])) v(y, l)""")  # fmt: skip
    q = "SELECT clf_auroc_ovr(y, {}, labels := ['a', 'b', 'c']) FROM arr"
    as_list = con.sql(q.format("l")).fetchall()
    as_array = con.sql(q.format("CAST(list_resize(l, 3) AS DOUBLE[3])")).fetchall()
    df = con.sql("SELECT y, l FROM arr").pl()
    want = df.select(ce.auroc("y", "l", labels=["a", "b", "c"])).item()
    assert _same(as_list[0][0], want)
    rows5 = con.sql(
        "SELECT clf_auroc_ovr(y, l, labels := ['a', 'b', 'c']) FROM arr WHERE len(l) >= 3"
    ).fetchall()
    assert _same(as_list[0][0], rows5[0][0])
    assert as_array[0][0] is not None


# --- errors ---------------------------------------------------------------------------------

T = ("CREATE OR REPLACE TABLE et AS SELECT * FROM (VALUES (1, 'a', 0.2, 0.8, 1.0), (0, 'b', 0.6, 0.4, 2.0), "
     "(1, 'a', 0.9, 0.1, -1.0)) v(y, ys, p0, p1, wneg)")  # fmt: skip
MULTI = ["clf_auroc_ovr", "clf_auroc_ovo", "clf_average_precision_ovr", "clf_log_loss_multiclass",
         "clf_brier_multiclass", "clf_ece_multiclass", "clf_top_k_accuracy"]  # fmt: skip


def _fails(con, query: str, *fragments: str) -> str:
    with pytest.raises(duckdb.Error) as err:
        con.sql(query).fetchall()
    message = str(err.value)
    assert "clfeval: " in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


@pytest.mark.parametrize("name", MULTI)
def test_multiclass_errors(con, name):
    con.execute(T)
    ok = f"SELECT {name}(y, [p0, p1], labels := [1, 0]) FROM et"
    assert con.sql(ok).fetchall()[0][0] is not None or name == "clf_auroc_ovo"
    _fails(con, f"SELECT {name}(y, p0, labels := [1, 0]) FROM et",
           f"clfeval: {name}: scores (DECIMAL(2,1)) is not a LIST of per-class")  # fmt: skip
    _fails(con, f"SELECT {name}(y, [ys, ys], labels := [1, 0]) FROM et", "holds no numbers")
    _fails(
        con,
        f"SELECT {name}(y, [p0, p1]) FROM et",
        f"clfeval: {name}: labels = NULL; per-class scores need labels",
    )
    _fails(
        con,
        f"SELECT {name}(y, [p0, p1], labels := [1]) FROM et",
        "labels = [1] lists fewer than two classes",
    )
    _fails(con, f"SELECT {name}(y, [p0, p1], labels := []) FROM et", "labels = [] lists no class")
    _fails(
        con, f"SELECT {name}(y, [p0, p1], labels := [1, 1]) FROM et", "lists a class more than once"
    )
    _fails(con, f"SELECT {name}(y, [p0, p1], labels := ['1', '0']) FROM et",
           "hold different kinds of labels", "text never equals a number")  # fmt: skip
    _fails(
        con,
        f"SELECT {name}(ys, [p0, p1], labels := [1, 0]) FROM et",
        "hold different kinds of labels",
    )
    _fails(con, f"SELECT {name}(y, [p0, p1], labels := [1, 0], weight := wneg) FROM et",
           f"clfeval: {name}: weight has 1 negative value(s) (min -1.0); weights must be finite and >= 0")  # fmt: skip
    _fails(con, f"SELECT {name}(y, p0, labels := [1, 0]) FROM et WHERE false", "is not a LIST")
    if "proba" in sql.AGGREGATE_MACROS[name].roles:
        _fails(con, f"SELECT {name}(y, [p0, p1 + 1], labels := [1, 0]) FROM et",
               f"clfeval: {name} got probabilities outside [0, 1] (min 0.2, max 1.8)")  # fmt: skip
        nan = con.sql(
            f"SELECT {name}(y, [p0, CASE WHEN wneg < 0 THEN 'nan'::DOUBLE ELSE p1 END], labels := [1, 0]) FROM et"
        ).fetchall()
        null = con.sql(
            f"SELECT {name}(y, [p0, p1], labels := [1, 0]) FROM et WHERE wneg >= 0"
        ).fetchall()
        assert _same(nan[0][0], null[0][0])


def test_option_errors(con):
    con.execute(T)
    for avg in ("'binary'", "'mean'", "NULL", "1"):
        _fails(con, f"SELECT clf_auroc_ovr(y, [p0, p1], labels := [1, 0], average := {avg}) FROM et",
               "clfeval: clf_auroc_ovr: average = ", "is not one of 'macro', 'weighted', 'micro'")  # fmt: skip
    _fails(con, "SELECT clf_auroc_ovo(y, [p0, p1], labels := [1, 0], average := 'micro') FROM et",
           "clfeval: clf_auroc_ovo: average = 'micro' is not one of 'macro', 'weighted';")  # fmt: skip
    _fails(con, "SELECT clf_average_precision_ovr(y, [p0, p1], labels := [1, 0], average := 'x') FROM et",
           "average = 'x' is not one of")  # fmt: skip
    for k in ("0", "2.5", "NULL", "'2'", "true", "3000000000"):
        _fails(con, f"SELECT clf_top_k_accuracy(y, [p0, p1], labels := [1, 0], k := {k}) FROM et",
               "clfeval: clf_top_k_accuracy: k = ", "is not an integer from 1 to 2,147,483,648")  # fmt: skip
    for kind in ("'mean'", "NULL"):
        _fails(con, f"SELECT clf_ece(y, p0, kind := {kind}) FROM et",
               "clfeval: clf_ece: kind = ", "is not one of 'expected', 'max'")  # fmt: skip
        _fails(con, f"SELECT clf_ece_multiclass(y, [p0, p1], labels := [1, 0], kind := {kind}) FROM et",
               "clf_ece_multiclass: kind = ")  # fmt: skip
    for n_bins in ("0", "1001", "2.5", "NULL"):
        _fails(
            con,
            f"SELECT clf_ece(y, p0, n_bins := {n_bins}) FROM et",
            "is not an integer from 1 to 1,000",
        )
        _fails(con, f"SELECT clf_ece_multiclass(y, [p0, p1], labels := [1, 0], n_bins := {n_bins}) FROM et",
               "is not an integer from 1 to 1,000")  # fmt: skip
    for fpr in ("0", "1.5", "-0.1", "'a'", "'nan'::DOUBLE"):
        _fails(con, f"SELECT clf_auroc(y, p0, max_fpr := {fpr}) FROM et",
               "clfeval: clf_auroc: max_fpr = ", "is not a number in (0, 1]; max_fpr is the false positive rate")  # fmt: skip
    _fails(
        con, "SELECT clf_ks(ys, p0) FROM et", "clfeval: clf_ks: y (VARCHAR) and pos_label (INTEGER)"
    )
    _fails(con, "SELECT clf_ks(y, ys) FROM et", "clfeval: clf_ks: score (VARCHAR) holds no numbers")
    _fails(con, "SELECT clf_ks(y, p0, weight := wneg) FROM et", "clf_ks: weight has 1 negative")
    _fails(
        con,
        "SELECT clf_ece(ys, p0) FROM et",
        "clfeval: clf_ece: y (VARCHAR) and pos_label (INTEGER)",
    )
    _fails(
        con,
        "SELECT clf_ece(y, p0 + 1) FROM et",
        "clfeval: clf_ece got probabilities outside [0, 1]",
    )
    _fails(con, "SELECT clf_ece(y, p0, weight := wneg) FROM et", "clf_ece: weight has 1 negative")


def test_the_python_runner_runs_every_new_macro():
    rng = np.random.default_rng(3)
    n = 300
    p = rng.dirichlet([1, 1, 1], n)
    df = pl.DataFrame({"g": rng.integers(0, 3, n), "y": rng.choice(["a", "b", "c"], n),
                       "pl": p.tolist(), "w": rng.integers(0, 4, n).astype(float),
                       "y01": rng.integers(0, 2, n), "s": rng.random(n)})  # fmt: skip
    m = {
        "a": pl.col("pl").list.get(0),
        "b": pl.col("pl").list.get(1),
        "c": pl.col("pl").list.get(2),
    }
    lab = ["a", "b", "c"]
    runs = [
        ("clf_auroc_ovr", "y", "pl", {"labels": lab, "average": "weighted"}, ce.auroc("y", m, average="weighted", weight="w")),
        ("clf_auroc_ovo", "y", "pl", {"labels": lab}, ce.auroc("y", m, multi_class="ovo", weight="w")),
        ("clf_average_precision_ovr", "y", "pl", {"labels": lab}, ce.average_precision("y", m, weight="w")),
        ("clf_log_loss_multiclass", "y", "pl", {"labels": lab}, ce.log_loss("y", m, weight="w")),
        ("clf_brier_multiclass", "y", "pl", {"labels": lab}, ce.brier("y", m, weight="w")),
        ("clf_ece_multiclass", "y", "pl", {"labels": lab, "n_bins": 5}, ce.ece("y", m, n_bins=5, weight="w")),
        ("clf_top_k_accuracy", "y", "pl", {"labels": lab, "k": 1}, ce.top_k_accuracy("y", m, k=1, weight="w")),
        ("clf_ks", "y01", "s", {}, ce.ks("y01", "s", weight="w")),
        ("clf_ece", "y01", "s", {"kind": "max"}, ce.ece("y01", "s", kind="max", weight="w")),
        ("clf_auroc", "y01", "s", {"max_fpr": 0.4}, ce.auroc("y01", "s", max_fpr=0.4, weight="w")),
    ]  # fmt: skip
    for name, y, s, params, expr in runs:
        got = sql.aggregate(name, df, y, s, by="g", weight="w", **params)
        want = df.group_by("g").agg(expr.alias("v")).sort("g")
        assert got["g"].to_list() == want["g"].to_list(), name
        for a, b in zip(got[got.columns[-1]], want["v"]):
            assert _same(a, b), (name, a, b)
    with pytest.raises(ce.InputError, match="labels=None must list at least two classes"):
        sql.aggregate("clf_auroc_ovr", df, "y", "pl")
    with pytest.raises(ce.InputError, match="k=0 is not an integer"):
        sql.aggregate("clf_top_k_accuracy", df, "y", "pl", labels=lab, k=0)
    bad = df.with_columns(pl.col("pl").list.eval(pl.element() * 2))
    with pytest.raises(ce.InputError, match="outside"):
        sql.aggregate("clf_log_loss_multiclass", bad, "y", "pl", labels=lab)


# --- the DuckDB command-line client (1.5.6) --------------------------------------------------


def _cli() -> str | None:
    return shutil.which("duckdb", path=os.path.dirname(sys.executable)) or shutil.which("duckdb")


CLI = _cli()


@pytest.mark.skipif(
    CLI is None and os.environ.get("CI") != "true", reason="no duckdb command-line client"
)
def test_cli_runs_the_new_macros_like_python(con, tmp_path):
    assert CLI is not None
    table = ("CREATE TABLE t AS SELECT CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS g, "
             "CAST((i * 7) % 3 AS INTEGER) AS y, CAST(i % 2 AS INTEGER) AS y01, "
             "[((i * 13) % 10) / 20.0, ((i * 7) % 10) / 20.0, 1 - ((i * 13) % 10) / 20.0 - ((i * 7) % 10) / 20.0] AS p, "
             "((i * 11) % 17) / 17.0 AS s FROM range(300) r(i)")  # fmt: skip
    query = (
        "SELECT g, clf_auroc_ovr(y, p, labels := [0, 1, 2]) AS a, clf_auroc_ovo(y, p, labels := [0, 1, 2]) AS b, "
        "clf_average_precision_ovr(y, p, labels := [0, 1, 2], average := 'micro') AS c, "
        "clf_log_loss_multiclass(y, p, labels := [0, 1, 2]) AS d, clf_brier_multiclass(y, p, labels := [0, 1, 2]) AS e, "
        "clf_ece_multiclass(y, p, labels := [0, 1, 2]) AS f, clf_top_k_accuracy(y, p, labels := [0, 1, 2]) AS h, "
        "clf_ks(y01, s) AS i, clf_ece(y01, s, kind := 'max') AS j, clf_auroc(y01, s, max_fpr := 0.3) AS k "
        "FROM t GROUP BY g ORDER BY g"
    )  # fmt: skip
    done = subprocess.run([CLI, "-json", "-bail"], input=sql.text() + "\n" + table + ";\n" + query + ";\n",
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    con.execute("CREATE OR REPLACE TABLE t AS " + table.removeprefix("CREATE TABLE t AS "))
    want = con.sql(query).fetchall()
    assert len(got) == len(want) == 2
    for row, ref in zip(got, want):
        for value, exp in zip(row.values(), ref):
            if isinstance(exp, str) or exp is None:
                assert value == exp
            else:
                assert _same(float(value), exp), (row, ref)
