"""clf_metrics (sql/25_metrics.sql) and clfeval.sql.metrics: every label metric of
clfeval.metrics, per group, equal to scikit-learn and to the Polars frame function."""

from __future__ import annotations

import math
import warnings
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clfeval as ce
from clfeval import _metrics, sql

COLUMNS = list(_metrics.metrics_order("label"))
SETTINGS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    return sql.connect()


def close(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    a_missing = a is None or (isinstance(a, float) and math.isnan(a))
    b_missing = b is None or (isinstance(b, float) and math.isnan(b))
    if a_missing or b_missing:
        return a_missing and b_missing
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def sk(fn: Any, *args: Any, **kw: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(fn(*args, **kw))


@st.composite
def cases(draw: st.DrawFn) -> tuple[pl.DataFrame, list[Any]]:
    """Groups 'a', 'b' (and a one-class group 'c'), k classes as ints or text, weights with
    zeros (never all zero in a group: scikit-learn refuses that)."""
    k = draw(st.integers(2, 4))
    classes = draw(st.sampled_from([[0, 1, 2, 3], ["ant", "bee", "cat", "dog"]]))[:k]
    n = draw(st.integers(6, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y, yhat = rng.integers(0, k, n), rng.integers(0, k, n)
    yhat = np.where(rng.random(n) < 0.5, y, yhat)
    w = rng.integers(0, 4, n) * 0.5
    w[0] = w[n // 2] = 1.0
    rows = pl.DataFrame(
        {
            "g": np.where(np.arange(n) < n // 2, "a", "b"),
            "y": [classes[i] for i in y],
            "yhat": [classes[i] for i in yhat],
            "w": w,
        }
    )
    one = pl.DataFrame(
        {"g": ["c"] * 3, "y": [classes[0]] * 3, "yhat": [classes[0]] * 3, "w": [1.0] * 3}
    )
    return pl.concat([rows, one]), classes


def _options(draw: st.DrawFn, classes: list[Any]) -> dict[str, Any]:
    average = draw(st.sampled_from(["micro", "macro", "weighted"]))
    labels = draw(st.none() | st.permutations(classes).map(list))
    if labels is not None:
        labels = labels[: draw(st.integers(1, len(labels)))]
    return {
        "average": average,
        "labels": labels,
        "zero_division": draw(st.sampled_from([0.0, 1.0, None])),
        "beta": draw(st.sampled_from([0.5, 1.0, 2.0, float("inf")])),
        "kappa_weights": draw(st.sampled_from([None, "linear", "quadratic"])),
        "adjusted": draw(st.booleans()),
    }


@SETTINGS
@given(case=cases(), weighted=st.booleans(), data=st.data())
def test_every_column_equals_polars_and_sklearn(con, case, weighted, data) -> None:
    df, classes = case
    opts = _options(data.draw, classes)
    weight = "w" if weighted else None
    got = sql.metrics(df, "y", "yhat", by="g", weight=weight, metrics=COLUMNS, con=con, **opts)
    expected = ce.metrics(df, "y", "yhat", by="g", weight=weight, metrics=COLUMNS, **opts)
    assert got.columns == expected.columns == ["g", *COLUMNS]
    for a, b in zip(got.rows(), expected.rows()):
        assert all(close(x, z) for x, z in zip(a, b)), (a, b)
    zd = np.nan if opts["zero_division"] is None else opts["zero_division"]
    average, labels = opts["average"], opts["labels"]
    for row in got.iter_rows(named=True):
        sub = df.filter(pl.col("g") == row["g"])
        y, yhat = sub["y"].to_numpy(), sub["yhat"].to_numpy()
        sw = sub["w"].to_numpy() if weighted else None
        if labels is not None and not (set(labels) & (set(y) | set(yhat))):
            continue  # scikit-learn warns and averages nothing
        ratio = {"average": average, "labels": labels, "sample_weight": sw, "zero_division": zd}
        want = {
            "accuracy": sk(skm.accuracy_score, y, yhat, sample_weight=sw),
            "balanced_accuracy": sk(
                skm.balanced_accuracy_score, y, yhat, sample_weight=sw, adjusted=opts["adjusted"]
            ),
            "precision": sk(skm.precision_score, y, yhat, **ratio),
            "recall": sk(skm.recall_score, y, yhat, **ratio),
            "f1": sk(skm.f1_score, y, yhat, **ratio),
            "fbeta": sk(skm.fbeta_score, y, yhat, beta=opts["beta"], **ratio),
            # scikit-learn's jaccard_score takes no zero_division=np.nan
            **({"jaccard": sk(skm.jaccard_score, y, yhat, **ratio)} if zd == zd else {}),
            "mcc": sk(skm.matthews_corrcoef, y, yhat, sample_weight=sw),
        }
        kappa_labels = labels if labels is not None else None
        if len(set(y) | set(yhat)) > 1 and (
            kappa_labels is None or len(set(kappa_labels) & set(y) & set(yhat)) > 0
        ):
            want["cohen_kappa"] = sk(
                skm.cohen_kappa_score, y, yhat, labels=kappa_labels,
                weights=opts["kappa_weights"], sample_weight=sw,
            )  # fmt: skip
        if math.isinf(want["balanced_accuracy"]):  # adjusted with one class in y: undefined
            want["balanced_accuracy"] = float("nan")  # (scikit-learn: -inf; clfeval: null)
        for name, value in want.items():
            assert close(row[name], value), (row["g"], name, row[name], value, opts)


@pytest.mark.parametrize("weighted", [False, True])
def test_binary_columns_equal_sklearn(con, weighted: bool) -> None:
    rng = np.random.default_rng(4)
    n = 120
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b"], n),
            "y": rng.choice(["neg", "pos"], n),
            "yhat": rng.choice(["neg", "pos"], n),
            "w": rng.integers(1, 4, n) * 1.0,
        }
    )
    weight = "w" if weighted else None
    got = sql.metrics(df, "y", "yhat", by="g", weight=weight, pos_label="pos", beta=2.0,
                      metrics=COLUMNS, con=con)  # fmt: skip
    for row in got.iter_rows(named=True):
        sub = df.filter(pl.col("g") == row["g"])
        y, yhat = sub["y"].to_numpy(), sub["yhat"].to_numpy()
        sw = sub["w"].to_numpy() if weighted else None
        kw = {"pos_label": "pos", "sample_weight": sw}
        tn, fp, fn, tp = skm.confusion_matrix(
            y, yhat, labels=["neg", "pos"], sample_weight=sw
        ).ravel()
        want = {
            "precision": skm.precision_score(y, yhat, **kw),
            "recall": skm.recall_score(y, yhat, **kw),
            "specificity": tn / (tn + fp),
            "fpr": fp / (fp + tn),
            "npv": tn / (tn + fn),
            "fnr": fn / (fn + tp),
            "jaccard": skm.jaccard_score(y, yhat, **kw),
            "fbeta": skm.fbeta_score(y, yhat, beta=2.0, **kw),
            "cohen_kappa": skm.cohen_kappa_score(y, yhat, sample_weight=sw),
        }
        for name, value in want.items():
            assert close(row[name], float(value)), (name, row[name], value)


def test_columns_follow_the_registry(con) -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0]})
    con.register("small", df.to_arrow())
    raw = con.sql("FROM clf_metrics('small', 'y', 'yhat')")
    assert raw.columns == COLUMNS == list(sql.TABLE_MACROS["clf_metrics"].outputs)
    assert {str(t) for t in raw.types} == {"DOUBLE"}
    assert COLUMNS[:6] == list(_metrics.default_set("label"))
    assert sql.metrics(df, "y", "yhat").columns == COLUMNS[:6]  # the default set
    picked = sql.metrics(df, "y", "yhat", metrics=["cohen_kappa", "npv", "accuracy"])
    assert picked.columns == ["cohen_kappa", "npv", "accuracy"]
    assert picked.row(0) == ce.metrics(df, "y", "yhat", metrics=picked.columns).row(0)


def test_kappa_alone_takes_many_classes_as_the_frame_function(con) -> None:
    """average='binary' only concerns the averaged ratios: kappa and mcc alone are not refused."""
    df = pl.DataFrame({"y": [0, 1, 2, 2, 1], "yhat": [0, 2, 2, 1, 1]})
    for fn in (ce.metrics, sql.metrics):
        out = fn(df, "y", "yhat", metrics=["cohen_kappa", "mcc"])
        assert close(out["cohen_kappa"].item(), skm.cohen_kappa_score(df["y"], df["yhat"]))
    for fn in (ce.metrics, sql.metrics):
        with pytest.raises(ce.InputError, match="has 3 classes"):
            fn(df, "y", "yhat", metrics=["cohen_kappa", "f1"])


def test_adjusted_balanced_accuracy_on_the_frame_function_and_sql(con) -> None:
    df = pl.DataFrame({"y": [0, 0, 1, 1, 2, 2, 2], "yhat": [0, 1, 1, 1, 2, 0, 2]})
    want = skm.balanced_accuracy_score(df["y"], df["yhat"], adjusted=True)
    for fn in (ce.metrics, sql.metrics):
        got = fn(df, "y", "yhat", metrics=["balanced_accuracy"], adjusted=True)
        assert close(got.item(), want)
    lazy = df.lazy().clf.metrics("y", "yhat", metrics=["balanced_accuracy"], adjusted=True)
    assert close(lazy.collect().item(), want)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"beta": -1.0}, "beta=-1.0 is not a number >= 0"),
        (
            {"kappa_weights": "cubic"},
            "kappa_weights='cubic' is not one of [None, 'linear', 'quadratic']",
        ),
        ({"adjusted": 1}, "adjusted=1 is not True or False"),
        ({"metrics": ["f2"]}, "unknown metric 'f2' in metrics="),
        ({"metrics": "f1"}, "metrics='f1' is not a list of metric names"),
        ({"metrics": ["auroc"]}, "metric 'auroc' needs score="),
        ({"average": None}, "average=None is not one of"),
    ],
)
def test_bad_options_get_the_frame_functions_message(con, options, message) -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0]})
    with pytest.raises(ce.InputError) as err:
        sql.metrics(df, "y", "yhat", con=con, **options)
    assert str(err.value).startswith(message)
    if options != {"average": None}:  # None is ce.metrics' per-class layout
        with pytest.raises(ce.InputError) as frame_err:
            ce.metrics(df, "y", "yhat", **options)
        assert str(frame_err.value).split("\n")[0] == str(err.value).split("\n")[0]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("beta := -1", "clfeval: beta = -1 is not a number >= 0"),
        ("beta := 'x'", "clfeval: beta = 'x' is not a number >= 0"),
        ("kappa_weights := 'cubic'", "clfeval: kappa_weights = 'cubic' is not one of NULL, 'linear', 'quadratic'; kappa_weights sets"),
        ("kappa_weights := 2", "clfeval: kappa_weights = 2 is not one of NULL"),
        ("adjusted := 'yes'", "clfeval: adjusted = 'yes' is not true or false"),
        ("adjusted := NULL", "clfeval: adjusted = NULL is not true or false"),
        ("adjusted := 1", "clfeval: adjusted = 1 is not true or false"),
    ],
)  # fmt: skip
def test_the_macro_raises_on_bad_options(con, option: str, message: str) -> None:
    con.register("opts", pl.DataFrame({"y": [0, 1, 2], "yhat": [0, 2, 2]}).to_arrow())
    with pytest.raises(duckdb.Error, match="Invalid Input Error") as err:
        con.sql(f"FROM clf_metrics('opts', 'y', 'yhat', average := 'macro', {option})").fetchall()
    assert message in str(err.value)


def test_kappa_uses_the_listed_classes_in_their_order(con) -> None:
    df = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0, 3], "yhat": [0, 2, 2, 1, 1, 1, 0]})
    for weights in (None, "linear", "quadratic"):
        got = sql.metrics(df, "y", "yhat", metrics=["cohen_kappa"], labels=[2, 0, 1],
                          kappa_weights=weights, average="macro", con=con)  # fmt: skip
        want = skm.cohen_kappa_score(df["y"], df["yhat"], labels=[2, 0, 1], weights=weights)
        assert close(got.item(), want), weights


def test_huge_weights_do_not_overflow(con) -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 2], "yhat": [0, 1, 2, 2], "w": [1e300, 1e300, 2e300, 1e300]})
    small = df.with_columns(w=pl.col("w") / 1e300)
    big = sql.metrics(df, "y", "yhat", weight="w", average="macro", metrics=COLUMNS, con=con)
    ref = sql.metrics(small, "y", "yhat", weight="w", average="macro", metrics=COLUMNS, con=con)
    assert all(close(a, b) for a, b in zip(big.row(0), ref.row(0)))
