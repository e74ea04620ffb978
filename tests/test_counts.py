"""The count layer's frame functions against scikit-learn.

``confusion_matrix`` (long, ``wide=True``, ``normalize=``) against
``sklearn.metrics.confusion_matrix(labels=, sample_weight=, normalize=)`` and ``counts``
against ``multilabel_confusion_matrix``, on every label dtype, with weights, ``labels=``
subsets and orders, ``by=`` groups with a null key, and on DataFrame, LazyFrame and the
streaming engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from strategies import (
    ENGINES,
    LabelCase,
    assert_same,
    label_cases,
    labels_option,
    run,
    sk,
    to_sklearn,
)

import clfeval as ce
from clfeval import InputError

NORMALIZE = [None, "true", "pred", "all"]


def frame_for(case: LabelCase, engine: str) -> pl.DataFrame | pl.LazyFrame:
    return case.df if engine == "eager" else case.df.lazy()


def collect(out: pl.DataFrame | pl.LazyFrame, engine: str) -> pl.DataFrame:
    """Lazy in, lazy out: a LazyFrame result for lazy input, collected with ``engine``."""
    if engine == "eager":
        assert isinstance(out, pl.DataFrame)
    else:
        assert isinstance(out, pl.LazyFrame)
    return run(out, engine)


def class_list(case: LabelCase, labels: list[int] | None) -> list[int]:
    """The classes (indices) a frame function reports: ``labels`` or those present."""
    return case.present if labels is None else labels


def sk_matrix(
    case: LabelCase, labels: list[int] | None, normalize: str | None = None
) -> np.ndarray:
    y, yhat, w = to_sklearn(case)
    return sk(
        skm.confusion_matrix,
        y,
        yhat,
        labels=class_list(case, labels),
        sample_weight=w,
        normalize=normalize,
    )


def sk_accepts(case: LabelCase, labels: list[int] | None) -> bool:
    """scikit-learn's confusion_matrix needs a listed class in y_true; clfeval accepts one in
    y or yhat (its front door raises only when no listed class occurs at all)."""
    return labels is None or any(label in case.y for label in labels)


# --- confusion_matrix --------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_confusion_matrix_matches_sklearn(engine: str, data: st.DataObject) -> None:
    """Long form: every (actual, predicted) pair of the class list in order, zeros included,
    with scikit-learn's counts or normalized values."""
    case = data.draw(label_cases())
    labels = data.draw(labels_option(case))
    normalize = data.draw(st.sampled_from(NORMALIZE))
    assume(sk_accepts(case, labels))
    out = collect(
        ce.confusion_matrix(
            frame_for(case, engine),
            "y",
            "yhat",
            labels=case.values(labels),
            normalize=normalize,
            weight=case.w,
        ),
        engine,
    )
    measure = "count" if normalize is None else "value"
    assert out.columns == ["actual", "predicted", measure]
    assert out.schema["actual"] == case.df.schema["y"]
    assert out.schema["predicted"] == case.df.schema["y"]
    if normalize is not None or case.weight is not None:
        assert out.schema[measure] == pl.Float64
    else:
        assert out.schema[measure] == pl.Int64
    classes = case.values(class_list(case, labels))
    assert out["actual"].to_list() == [a for a in classes for _ in classes]
    assert out["predicted"].to_list() == [p for _ in classes for p in classes]
    expected = sk_matrix(case, labels, normalize)
    assert_same(out[measure].to_list(), expected.ravel().tolist(), (labels, normalize))


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_wide_confusion_matrix_matches_sklearn(engine: str, data: st.DataObject) -> None:
    """``wide=True``: ``actual`` then one column per predicted class (named by the label's
    text), rows in class order; the cells are scikit-learn's matrix."""
    case = data.draw(label_cases())
    labels = data.draw(labels_option(case))
    normalize = data.draw(st.sampled_from(NORMALIZE))
    assume(sk_accepts(case, labels))
    if engine != "eager" and labels is None:
        # a LazyFrame's wide columns are its classes, unknown before reading: labels= needed
        with pytest.raises(InputError, match="labels="):
            ce.confusion_matrix(frame_for(case, engine), "y", "yhat", wide=True)
        return
    out = collect(
        ce.confusion_matrix(
            frame_for(case, engine),
            "y",
            "yhat",
            labels=case.values(labels),
            normalize=normalize,
            weight=case.w,
            wide=True,
        ),
        engine,
    )
    classes = case.values(class_list(case, labels))
    names = [str(c) for c in classes]  # Python's spelling of each class (True, not true)
    assert out.columns == ["actual", *names]
    assert out["actual"].to_list() == classes
    expected = sk_matrix(case, labels, normalize)
    got = out.select(names).to_numpy()
    assert got.shape == expected.shape
    assert_same(got.ravel().tolist(), expected.ravel().tolist())


def test_wide_bool_labels() -> None:
    """Bool labels pivot too: columns are named as Python prints the label (as the report)."""
    df = pl.DataFrame({"y": [True, False, True], "yhat": [True, True, False]})
    out = ce.confusion_matrix(df, "y", "yhat", wide=True)
    assert out.columns == ["actual", "False", "True"]
    assert out.rows() == [(False, 0, 1), (True, 1, 1)]


def test_textbook_layout_with_labels() -> None:
    """``labels=[1, 0]`` puts the positive class first (tp, fn / fp, tn)."""
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0], "yhat": [1, 0, 0, 1, 1]})
    out = ce.confusion_matrix(df, "y", "yhat", labels=[1, 0])
    assert out.rows() == [(1, 1, 2), (1, 0, 1), (0, 1, 1), (0, 0, 1)]
    wide = ce.confusion_matrix(df, "y", "yhat", labels=[1, 0], wide=True)
    assert wide.columns == ["actual", "1", "0"]
    assert wide.rows() == [(1, 2, 1), (0, 1, 1)]


def test_listed_class_absent_from_data_gets_zero_row() -> None:
    """A listed class that never occurs gets an all-zero row and column (scikit-learn)."""
    df = pl.DataFrame({"y": [0, 1, 1], "yhat": [0, 1, 0]})
    out = ce.confusion_matrix(df, "y", "yhat", labels=[0, 1, 2])
    expected = skm.confusion_matrix([0, 1, 1], [0, 1, 0], labels=[0, 1, 2])
    assert out["count"].to_list() == expected.ravel().tolist()
    normalized = ce.confusion_matrix(df, "y", "yhat", labels=[0, 1, 2], normalize="true")
    expected = skm.confusion_matrix([0, 1, 1], [0, 1, 0], labels=[0, 1, 2], normalize="true")
    assert_same(normalized["value"].to_list(), expected.ravel().tolist())


def test_enum_order_and_dtype() -> None:
    """An Enum keeps its category order in rows and columns, and its dtype."""
    enum = pl.Enum(["z", "a", "m"])
    df = pl.DataFrame(
        {"y": ["a", "z", "a", "m"], "yhat": ["z", "z", "a", "a"]},
        schema={"y": enum, "yhat": enum},
    )
    out = ce.confusion_matrix(df, "y", "yhat")
    assert out.schema["actual"] == enum
    assert out["actual"].to_list()[::3] == ["z", "a", "m"]
    wide = ce.confusion_matrix(df, "y", "yhat", wide=True)
    assert wide.columns == ["actual", "z", "a", "m"]
    idx = {"z": 0, "a": 1, "m": 2}
    expected = skm.confusion_matrix(
        [idx[v] for v in df["y"]], [idx[v] for v in df["yhat"]], labels=[0, 1, 2]
    )
    assert wide.select("z", "a", "m").to_numpy().tolist() == expected.tolist()


# --- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_counts_match_multilabel_confusion_matrix(engine: str, data: st.DataObject) -> None:
    """One-vs-rest tp, fp, fn, tn and support per class equal scikit-learn's
    ``multilabel_confusion_matrix`` (rows of unlisted classes count as negatives)."""
    case = data.draw(label_cases())
    labels = data.draw(labels_option(case))
    out = collect(
        ce.counts(frame_for(case, engine), "y", "yhat", labels=case.values(labels), weight=case.w),
        engine,
    )
    assert out.columns == ["label", "tp", "fp", "fn", "tn", "support"]
    dtype = pl.Float64 if case.weight is not None else pl.Int64
    assert out.dtypes == [case.df.schema["y"], *[dtype] * 5]
    classes = class_list(case, labels)
    assert out["label"].to_list() == case.values(classes)
    y, yhat, w = to_sklearn(case)
    mcm = sk(skm.multilabel_confusion_matrix, y, yhat, labels=classes, sample_weight=w)
    assert_same(out["tn"].to_list(), mcm[:, 0, 0].tolist())
    assert_same(out["fp"].to_list(), mcm[:, 0, 1].tolist())
    assert_same(out["fn"].to_list(), mcm[:, 1, 0].tolist())
    assert_same(out["tp"].to_list(), mcm[:, 1, 1].tolist())
    assert_same(out["support"].to_list(), (mcm[:, 1, 0] + mcm[:, 1, 1]).tolist())


# --- by= -----------------------------------------------------------------------------------------


def _per_group(case: LabelCase) -> dict[Any, LabelCase]:
    return {k: case.rows([g == k for g in case.group or ()]) for k in set(case.group or ())}


def _key_order(keys: set[Any]) -> list[Any]:
    """Group keys as clfeval sorts them: ascending, the null group last."""
    return sorted(k for k in keys if k is not None) + ([None] if None in keys else [])


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_grouped_equals_per_group(engine: str, data: st.DataObject) -> None:
    """``by=``: group columns first, groups sorted with the null key last, and each group's
    rows equal the ungrouped result on that group alone (its own class list)."""
    case = data.draw(label_cases(group=True))
    labels = data.draw(st.sampled_from([None, list(range(len(case.classes)))[::-1]]))
    normalize = data.draw(st.sampled_from(NORMALIZE))
    kw: dict[str, Any] = {"labels": case.values(labels), "weight": case.w}
    cm = collect(
        ce.confusion_matrix(
            frame_for(case, engine), "y", "yhat", by="g", normalize=normalize, **kw
        ),
        engine,
    )
    cnt = collect(ce.counts(frame_for(case, engine), "y", "yhat", by="g", **kw), engine)
    assert cm.columns[0] == "g"
    assert cnt.columns == ["g", "label", "tp", "fp", "fn", "tn", "support"]
    parts = _per_group(case)
    assert cm["g"].unique(maintain_order=True).to_list() == _key_order(set(parts))
    assert cnt["g"].unique(maintain_order=True).to_list() == _key_order(set(parts))
    for key, part in parts.items():
        mine_cm = cm.filter(pl.col("g").eq_missing(key)).drop("g")
        mine_cnt = cnt.filter(pl.col("g").eq_missing(key)).drop("g")
        if part.weight is not None and not any(part.weight):
            # alone, all-zero weights raise "empty" (§7.1 #8); within groups: zero counts
            assert mine_cnt.select(pl.exclude("label").sum()).sum_horizontal().item() == 0
            continue
        alone_cm = ce.confusion_matrix(part.df, "y", "yhat", normalize=normalize, **kw)
        alone_cnt = ce.counts(part.df, "y", "yhat", **kw)
        measure = cm.columns[-1]
        assert mine_cm.select("actual", "predicted").equals(alone_cm.select("actual", "predicted"))
        assert_same(mine_cm[measure].to_list(), alone_cm[measure].to_list(), key)
        assert mine_cnt.equals(alone_cnt), (key, mine_cnt, alone_cnt)
        assert_same(
            mine_cm[measure].to_list(),
            sk_matrix(part, labels, normalize).ravel().tolist(),
            key,
        )


def test_by_list_of_columns_and_null_keys() -> None:
    """Several group columns, nulls in them: each combination is a group, nulls last."""
    df = pl.DataFrame(
        {
            "m": ["b", "a", "b", None, "a", None],
            "s": [1, 1, None, 1, 1, 1],
            "y": [0, 1, 1, 0, 0, 1],
            "yhat": [0, 1, 0, 0, 1, 1],
        }
    )
    out = ce.counts(df, "y", "yhat", by=["m", "s"])
    assert out.columns[:2] == ["m", "s"]
    keys = out.select("m", "s").unique(maintain_order=True).rows()
    assert keys == [("a", 1), ("b", 1), ("b", None), (None, 1)]
    alone = ce.counts(df.filter(pl.col("m").is_null()), "y", "yhat")
    assert out.filter(pl.col("m").is_null()).drop("m", "s").equals(alone)


def test_weighted_counts_equal_repeated_rows() -> None:
    """A pre-aggregated table ``(y, yhat, n)`` with ``weight="n"`` gives the raw rows'
    counts (as Float64)."""
    raw = pl.DataFrame({"y": [0, 0, 0, 1, 1, 2], "yhat": [0, 0, 1, 1, 2, 2]})
    agg = raw.group_by("y", "yhat").agg(pl.len().alias("n"))
    a = ce.counts(raw, "y", "yhat")
    b = ce.counts(agg, "y", "yhat", weight="n")
    assert b.schema["tp"] == pl.Float64
    assert a.with_columns(pl.exclude("label").cast(pl.Float64)).equals(b)
    cm_a = ce.confusion_matrix(raw, "y", "yhat")
    cm_b = ce.confusion_matrix(agg, "y", "yhat", weight="n")
    assert cm_a["count"].cast(pl.Float64).to_list() == cm_b["count"].to_list()


def test_wide_matrix_takes_class_names_that_look_like_patterns() -> None:
    """A class named '*' or '^a$' is a column name, never a wildcard or a regex."""
    df = pl.DataFrame({"y": ["*", "^a$", "*", "b"], "yhat": ["*", "*", "b", "^a$"]})
    wide = ce.confusion_matrix(df, "y", "yhat", wide=True)
    assert wide.columns == ["actual", "*", "^a$", "b"]
    assert wide.rows() == [("*", 1, 0, 1), ("^a$", 1, 0, 0), ("b", 0, 1, 0)]
