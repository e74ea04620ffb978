"""clfeval.sqlgen with per-class scores, max_fpr, adjusted and labels=: on DuckDB, equal per
group to the Polars expressions and to scikit-learn; parsed in every dialect; refused with an
InputError where the generated SQL does not go."""

from __future__ import annotations

import math
import warnings
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
import sklearn.metrics as skm
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clfeval as ce
from clfeval import _metrics
from clfeval.sqlgen import DIALECTS, query

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SCORED = ["auroc", "average_precision", "log_loss", "brier"]
LABEL = list(_metrics.names(family="label", in_metrics=True))


def close(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    a_missing = a is None or (isinstance(a, float) and math.isnan(a))
    b_missing = b is None or (isinstance(b, float) and math.isnan(b))
    if a_missing or b_missing:
        return a_missing and b_missing
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def assert_frames(got: pl.DataFrame, expected: pl.DataFrame, what: Any = "") -> None:
    assert got.columns == expected.columns, (got.columns, expected.columns)
    assert got.height == expected.height, what
    for a, b in zip(got.rows(), expected.rows()):
        assert all(close(x, z) for x, z in zip(a, b)), (what, a, b)


def run(df: pl.DataFrame, **kw: Any) -> pl.DataFrame:
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    return con.sql(query(kw.pop("metric", "metrics"), table="t", y="y", **kw)).pl()


@st.composite
def proba_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, list[Any]]:
    """Groups 'a', 'b' (nulls too), a one-class group 'c', k per-class probabilities rounded
    to tenths (ties) summing to about 1, a row whose y has no column, weights with zeros."""
    k = draw(st.integers(2, 4))
    classes = draw(st.sampled_from([[0, 1, 2, 3], ["ant", "bee", "cat", "dog"]]))[:k]
    n = draw(st.integers(8, 50))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    raw = rng.random((n, k)) + np.eye(k)[y] * rng.random()
    p = np.round(raw / raw.sum(axis=1, keepdims=True), 1)
    w = rng.integers(0, 4, n) * 0.5
    w[0] = 1.0
    g = np.where(np.arange(n) < n // 2, "a", "b").astype(object)
    g[-1] = None
    frame = pl.DataFrame(
        {
            "g": pl.Series(g.tolist(), dtype=pl.String),
            "y": [classes[i] for i in y],
            **{f"p{i}": p[:, i] for i in range(k)},
            "w": w,
        }
    )
    dtype = frame.schema["y"]
    one = frame.head(2).with_columns(g=pl.lit("c"), y=pl.lit(classes[0], dtype))
    stray = frame.head(1).with_columns(y=pl.lit(9 if dtype == pl.Int64 else "zzz", dtype))
    return pl.concat([frame, one, stray]), classes


def expected(df: pl.DataFrame, scores: Any, names: list[str], **kw: Any) -> pl.DataFrame:
    """The Polars expressions per group (sorted as the SQL: nulls last)."""
    weight, labels = kw.get("weight"), kw.get("labels")
    exprs = {
        "auroc": lambda: ce.auroc(
            "y",
            scores,
            multi_class=kw.get("multi_class", "ovr"),
            average=kw.get("average", "macro"),
            labels=labels,
            weight=weight,
        ),
        "average_precision": lambda: ce.average_precision(
            "y", scores, average=kw.get("average", "macro"), labels=labels, weight=weight
        ),
        "log_loss": lambda: ce.log_loss("y", scores, labels=labels, weight=weight),
        "brier": lambda: ce.brier("y", scores, labels=labels, weight=weight),
    }
    out = df.group_by("g").agg(exprs[n]() for n in names)
    return out.sort("g", nulls_last=True)


@SETTINGS
@given(
    case=proba_frames(),
    weighted=st.booleans(),
    multi_class=st.sampled_from(["ovr", "ovo"]),
    data=st.data(),
)
def test_per_class_scores_equal_polars(case, weighted, multi_class, data) -> None:
    df, classes = case
    averages = ["macro", "weighted"] + (["micro"] if multi_class == "ovr" else [])
    average = data.draw(st.sampled_from(averages))
    labels = data.draw(st.none() | st.permutations(classes).map(list))
    as_list = labels is not None and data.draw(st.booleans())
    mapping = {c: f"p{i}" for i, c in enumerate(classes)}
    scores = [mapping[c] for c in labels] if as_list else mapping
    kw = {"weight": "w" if weighted else None, "labels": labels, "average": average}
    got = run(df, score=scores, group_cols=["g"], metrics=SCORED, multi_class=multi_class, **kw)
    want = expected(df, scores, SCORED, multi_class=multi_class, **kw)
    assert_frames(got, want, (multi_class, kw))


def test_per_class_scores_equal_sklearn() -> None:
    rng = np.random.default_rng(8)
    n, k = 200, 3
    y = rng.integers(0, k, n)
    raw = rng.random((n, k)) + np.eye(k)[y] * 0.8
    p = raw / raw.sum(axis=1, keepdims=True)
    df = pl.DataFrame(
        {"g": rng.choice(["a", "b"], n), "y": y, **{f"p{i}": p[:, i] for i in range(k)}}
    )
    score = {i: f"p{i}" for i in range(k)}
    for multi_class, average in [("ovr", "macro"), ("ovr", "weighted"), ("ovo", "macro"),
                                 ("ovo", "weighted"), ("ovr", "micro")]:  # fmt: skip
        got = run(df, score=score, group_cols=["g"], multi_class=multi_class, average=average,
                  metrics=["auroc", "average_precision"])  # fmt: skip
        for row in got.iter_rows(named=True):
            sub = df.filter(pl.col("g") == row["g"])
            yt, ps = sub["y"].to_numpy(), sub.select(score.values()).to_numpy()
            if average == "micro":
                auc = skm.roc_auc_score(np.eye(k)[yt], ps, average="micro")
            else:
                auc = skm.roc_auc_score(yt, ps, multi_class=multi_class, average=average)
            ap = skm.average_precision_score(np.eye(k)[yt], ps, average=average)
            assert close(row["auroc"], auc), (multi_class, average)
            assert close(row["average_precision"], ap), average
    losses = run(df, proba=score, group_cols=["g"], metrics=["log_loss", "brier"])
    for row in losses.iter_rows(named=True):
        sub = df.filter(pl.col("g") == row["g"])
        yt, ps = sub["y"].to_numpy(), sub.select(score.values()).to_numpy()
        assert close(row["log_loss"], skm.log_loss(yt, ps, labels=[0, 1, 2]))
        assert close(row["brier"], skm.brier_score_loss(yt, ps, labels=[0, 1, 2]))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("max_fpr", [0.05, 0.3, 0.5, 1.0])
def test_partial_auroc_equals_sklearn_and_polars(weighted: bool, max_fpr: float) -> None:
    rng = np.random.default_rng(2)
    n = 300
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "y": rng.integers(0, 2, n),
            "s": np.round(rng.random(n), 1),  # ties
            "w": rng.integers(1, 5, n) * 0.5,
        }
    ).with_columns(y=pl.when(pl.col("g") == "c").then(1).otherwise("y"))  # one class: null
    weight = "w" if weighted else None
    for metric, kw in (("auroc", {}), ("metrics", {"metrics": ["auroc"]})):
        got = run(
            df, metric=metric, score="s", group_cols=["g"], weight=weight, max_fpr=max_fpr, **kw
        )
        want = df.group_by("g").agg(ce.auroc("y", "s", max_fpr=max_fpr, weight=weight)).sort("g")
        assert_frames(got, want, max_fpr)
    for row in got.iter_rows(named=True):
        if row["g"] == "c":
            assert row["auroc"] is None
            continue
        sub = df.filter(pl.col("g") == row["g"])
        sw = sub["w"].to_numpy() if weighted else None
        ref = skm.roc_auc_score(sub["y"], sub["s"], max_fpr=max_fpr, sample_weight=sw)
        assert close(row["auroc"], ref)


@pytest.mark.parametrize("average", ["binary", "macro"])
def test_adjusted_balanced_accuracy_equals_sklearn(average: str) -> None:
    rng = np.random.default_rng(6)
    n = 150
    k = 2 if average == "binary" else 4
    df = pl.DataFrame({"g": rng.choice(["a", "b"], n), "y": rng.integers(0, k, n),
                       "yhat": rng.integers(0, k, n), "w": rng.integers(0, 3, n) * 1.0})  # fmt: skip
    for weight in (None, "w"):
        got = run(df, yhat="yhat", group_cols=["g"], weight=weight, average=average,
                  adjusted=True, metrics=["balanced_accuracy", "f1"])  # fmt: skip
        for row in got.iter_rows(named=True):
            sub = df.filter(pl.col("g") == row["g"])
            sw = sub["w"].to_numpy() if weight else None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = skm.balanced_accuracy_score(sub["y"], sub["yhat"], adjusted=True,
                                                  sample_weight=sw)  # fmt: skip
            assert close(row["balanced_accuracy"], ref)


@pytest.mark.parametrize("average", ["micro", "macro", "weighted"])
@pytest.mark.parametrize("labels", [[3, 1, 0, 2], [2, 0], [5, 1]])
def test_labels_pick_the_classes_of_the_label_metrics(average: str, labels: list[int]) -> None:
    rng = np.random.default_rng(9)
    n = 200
    df = pl.DataFrame(
        {
            "g": pl.Series(rng.choice(["a", "b", "c"], n)).replace("c", None),
            "y": rng.integers(0, 4, n),
            "yhat": rng.integers(0, 4, n),
            "w": rng.integers(0, 4, n) * 0.5,
        }
    )
    for weight, kappa_weights in ((None, None), ("w", "linear"), (None, "quadratic")):
        kw = {"average": average, "labels": labels, "zero_division": None, "beta": 2.0}
        got = run(df, yhat="yhat", group_cols=["g"], weight=weight, metrics=LABEL,
                  kappa_weights=kappa_weights, **kw)  # fmt: skip
        exprs = []
        for name in LABEL:
            opts: dict[str, Any] = {"weight": weight}
            if _metrics.METRICS[name].averaged:
                opts |= {"average": average, "labels": labels, "zero_division": None}
            if name == "fbeta":
                opts["beta"] = 2.0
            if name == "cohen_kappa":
                opts |= {"weights": kappa_weights, "labels": labels}
            exprs.append(getattr(ce, name)("y", "yhat", **opts))
        want = df.group_by("g").agg(exprs).sort("g", nulls_last=True)
        assert_frames(got, want, (weight, kappa_weights))
        for row in got.iter_rows(named=True):  # scikit-learn, on the groups it takes
            sub = df.filter(pl.col("g").eq_missing(row["g"]))
            sw = sub["w"].to_numpy() if weight else None
            ref = skm.precision_score(sub["y"], sub["yhat"], labels=labels, average=average,
                                      sample_weight=sw, zero_division=np.nan)  # fmt: skip
            assert close(row["precision"], float(ref))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_dialect_parses_the_new_forms(dialect: str) -> None:
    score = {"a": "p_a", "b": "p_b", "c": "p_c"}
    calls = [
        {"score": score, "metrics": SCORED, "average": "micro"},
        {"score": score, "multi_class": "ovo", "average": "weighted"},
        {"score": ["p_a", "p_b"], "labels": ["a", "b"], "metrics": ["log_loss", "brier"]},
        {"score": "s", "max_fpr": 0.2},
        {"yhat": "p", "metrics": LABEL, "labels": ["b", "a"], "average": "macro", "adjusted": True},
    ]
    for kw in calls:
        for weight in (None, "n"):
            sql = query("metrics", table="lake.preds", y="label", weight=weight,
                        group_cols=["model"], dialect=dialect, **kw)  # fmt: skip
            [tree] = sqlglot.parse(sql, read=dialect)
            assert isinstance(tree, sqlglot.exp.Select)
            assert "/ 0" not in sql
            assert all(i.quoted for i in tree.find_all(sqlglot.exp.Identifier))


def test_hostile_class_names_and_columns_stay_literals_and_identifiers() -> None:
    score = {"it's'; --": 'x"; DROP TABLE t; --', "b": "p b"}
    sql = query("metrics", table="t", y="my label", score=score, group_cols=["select"])
    [tree] = sqlglot.parse(sql, read="duckdb")
    strings = {lit.this for lit in tree.find_all(sqlglot.exp.Literal) if lit.is_string}
    assert "it's'; --" in strings
    names = {i.name for i in tree.find_all(sqlglot.exp.Identifier)}
    assert {'x"; DROP TABLE t; --', "p b", "my label", "select"} <= names


@pytest.mark.parametrize(
    ("kw", "role", "message"),
    [
        ({"score": {0: "p0", 1: "p1"}, "max_fpr": 0.3}, "max_fpr", "max_fpr (partial AUROC) is binary only"),
        ({"score": {0: "p0", 1: "p1"}, "multi_class": "ovo", "average": "micro"}, "average",
         "average='micro' is not one of ['macro', 'weighted']"),
        ({"score": ["p0", "p1"]}, "score", "a list of 2 score columns needs labels= of the same length"),
        ({"score": {0: "p0"}}, "score", "multiclass scores need at least two classes"),
        ({"score": {0: "p0", 1: "p1"}, "labels": [0, 2]}, "labels", "labels [2] have no score column"),
        ({"score": "s", "labels": [0, 1]}, "score", "one score column with labels= is a List/Array"),
        ({"metric": "roc_curve", "score": {0: "p0", 1: "p1"}}, "score", "roc_curve takes one score column"),
        ({"metric": "counts", "yhat": "p", "labels": [0, 1]}, "labels", "labels= is not generated for counts"),
        ({"multi_class": "ovx", "score": "s"}, "multi_class", "multi_class='ovx' is not one of"),
        ({"adjusted": "yes", "yhat": "p"}, "adjusted", "adjusted='yes' is not True or False"),
        ({"max_fpr": 0.0, "score": "s"}, "max_fpr", "max_fpr=0.0 is not a number in (0, 1]"),
        ({"labels": [], "yhat": "p"}, "labels", "labels=[] lists no class"),
        ({"score": {0: "p0", 1: "p1"}, "group_cols": ["p1"]}, "group_cols", "collides with the score of 1 column"),
    ],
)  # fmt: skip
def test_bad_input_is_an_input_error(kw: dict, role: str, message: str) -> None:
    args = {"metric": "metrics", "table": "t", "y": "y"} | kw
    with pytest.raises(ce.InputError) as err:
        query(args.pop("metric"), **args)
    assert err.value.role == role
    assert message in str(err.value)


def test_the_same_options_are_refused_by_the_frame_function() -> None:
    """The messages of the generated SQL are clfeval.metrics' own."""
    df = pl.DataFrame({"y": [0, 1, 1, 0], "p0": [0.6, 0.2, 0.3, 0.9], "p1": [0.4, 0.8, 0.7, 0.1]})
    score = {0: "p0", 1: "p1"}
    for kw in ({"max_fpr": 0.3}, {"multi_class": "ovo", "average": "micro"}):
        with pytest.raises(ce.InputError) as frame_err:
            ce.metrics(df, "y", score=score, metrics=["auroc"], **kw)
        with pytest.raises(ce.InputError) as sql_err:
            query("metrics", table="t", y="y", score=score, metrics=["auroc"], **kw)
        assert str(frame_err.value).split("\n")[0] == str(sql_err.value).split("\n")[0]


@pytest.mark.parametrize("groups", [["g"], []])
def test_kappa_of_a_group_without_listed_classes_is_null(groups: list[str]) -> None:
    df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [0, 1, 2, 2], "yhat": [0, 1, 2, 1]})
    labels = [0, 1] if groups else [5]
    got = run(df, yhat="yhat", group_cols=groups, metrics=["cohen_kappa"], labels=labels)
    frame = df.group_by(groups) if groups else df
    want = (
        frame.agg(ce.cohen_kappa("y", "yhat", labels=labels)).sort("g")
        if groups
        else df.select(ce.cohen_kappa("y", "yhat", labels=labels))
    )
    assert got.rows() == want.rows() == ([("a", 1.0), ("b", None)] if groups else [(None,)])
