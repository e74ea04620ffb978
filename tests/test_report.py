"""The front door of ``clfeval._report``: ``Report``, ``metrics`` and ``baseline``.

``str(report)`` is checked character for character against
``sklearn.metrics.classification_report`` (scikit-learn is given the raw label values, and
for an Enum the class list in category order), ``to_dict()`` against ``output_dict=True``,
``metrics`` against the registry of ``test_label.py`` and ``baseline`` against
``sklearn.dummy.DummyClassifier``.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.dummy import DummyClassifier
from strategies import (
    ENGINES,
    LabelCase,
    assert_same,
    label_cases,
    labels_option,
    run,
    same,
    sk,
    to_sklearn,
)
from test_label import REGISTRY

import clfeval as ce

# --- classification_report ----------------------------------------------------------------------


def raw(case: LabelCase) -> tuple[np.ndarray, np.ndarray]:
    """The label values themselves, as scikit-learn would get them from a user."""
    return np.asarray(case.df["y"].to_list()), np.asarray(case.df["yhat"].to_list())


def sk_labels(case: LabelCase, labels: list[int] | None) -> list[Any] | None:
    """``labels=`` for scikit-learn: the listed classes, or for an Enum (whose class order is
    not the sorted order) the present classes in category order."""
    if labels is not None:
        return case.values(labels)
    if case.kind == "enum":
        return case.values(case.present)
    return None


def sk_report(case: LabelCase, labels: list[int] | None = None, **kw: Any) -> Any:
    y, yhat = raw(case)
    return sk(
        skm.classification_report,
        y,
        yhat,
        labels=sk_labels(case, labels),
        sample_weight=case.sample_weight,
        **kw,
    )


@st.composite
def report_calls(draw: st.DrawFn, **case_kw: Any) -> tuple[LabelCase, dict[str, Any], dict]:
    """A case plus matching clfeval and scikit-learn keyword arguments for a report."""
    case = draw(label_cases(**case_kw))
    labels = draw(labels_option(case))
    digits = draw(st.integers(2, 4))
    zd = draw(st.sampled_from([0.0, 1.0, None]))
    ours: dict[str, Any] = {
        "labels": case.values(labels),
        "digits": digits,
        "zero_division": zd,
        "weight": case.w,
    }
    theirs: dict[str, Any] = {"digits": digits, "zero_division": np.nan if zd is None else zd}
    if draw(st.booleans()):
        n = len(labels) if labels is not None else len(case.present)
        names = draw(
            st.lists(st.text(min_size=1, max_size=14).filter(str.strip), min_size=n, max_size=n)
        )
        ours["target_names"] = names
        theirs["target_names"] = names
    return case, ours, {"labels": labels, **theirs}


def _sk_ok(case: LabelCase, labels: list[int] | None) -> bool:
    """scikit-learn's report needs at least one listed class present (as clfeval)."""
    return labels is None or any(label in case.present for label in labels)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=report_calls())
def test_report_text_is_sklearn(call: tuple[LabelCase, dict, dict]) -> None:
    """``str(report)`` is scikit-learn's text for every label dtype, labels= subsets (then
    "micro avg") and orders, target_names, digits 2–4, zero_division and weights."""
    case, ours, theirs = call
    assume(_sk_ok(case, theirs["labels"]))
    expected = sk_report(case, **theirs)
    got = ce.report(case.df, "y", "yhat", **ours)
    assert str(got) == expected, f"\n{got}\n---- scikit-learn ----\n{expected}"
    assert repr(got) == expected


@pytest.mark.parametrize(
    ("y", "yhat", "kw"),
    [
        ([1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 1, 1], {}),
        ([0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 0, 0], {"digits": 3}),
        (["cat", "dog", "dog", "bird"], ["cat", "cat", "dog", "bird"], {"digits": 4}),
        ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1], {"labels": [2, 1]}),  # micro avg
        ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1], {"labels": [2, 1, 0]}),  # reversed, accuracy
        ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1], {"labels": [0, 1, 2, 3]}),  # an absent class
        ([0, 1, 1], [0, 1, 0], {"target_names": ["negative", "positive"]}),
        ([True, False, True, True], [True, True, False, True], {}),
        # no correct prediction at all: scikit-learn prints the supports as floats
        ([0, 1], [1, 0], {}),
        (["a", "b", "c"], ["b", "c", "a"], {"labels": ["b", "c"]}),
    ],
)
def test_report_text_examples(y: list[Any], yhat: list[Any], kw: dict[str, Any]) -> None:
    """Named cases of the hypothesis test, readable on failure."""
    df = pl.DataFrame({"y": y, "yhat": yhat})
    expected = sk(skm.classification_report, np.asarray(y), np.asarray(yhat), **kw)
    assert str(df.clf.report("y", "yhat", **kw)) == expected


def test_report_weighted_text() -> None:
    """With weights, supports print as scikit-learn's float sums."""
    df = pl.DataFrame({"y": [0, 1, 1, 2, 2], "yhat": [0, 1, 2, 2, 2], "w": [1, 3, 0, 2, 5]})
    expected = skm.classification_report(
        df["y"].to_numpy(), df["yhat"].to_numpy(), sample_weight=df["w"].to_numpy()
    )
    assert str(ce.report(df, "y", "yhat", weight="w")) == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(call=report_calls())
def test_report_to_dict_is_sklearn_output_dict(call: tuple[LabelCase, dict, dict]) -> None:
    """``to_dict()`` equals ``classification_report(output_dict=True)``: same keys in the same
    order ('f1-score', 'accuracy' or 'micro avg'), same numbers (NaN ↔ None)."""
    case, ours, theirs = call
    assume(_sk_ok(case, theirs["labels"]))
    theirs = {k: v for k, v in theirs.items() if k != "digits"}
    expected = sk_report(case, output_dict=True, **theirs)
    got = ce.report(case.df, "y", "yhat", **ours).to_dict()
    assert list(got) == list(expected)
    for key, value in expected.items():
        if isinstance(value, dict):
            assert list(got[key]) == list(value)
            for field, number in value.items():
                assert same(got[key][field], number), (key, field, got[key][field], number)
        else:
            assert same(got[key], value), (key, got[key], value)


def test_report_table_schema() -> None:
    """``.table``: label, precision, recall, f1, support; class rows then accuracy, macro avg,
    weighted avg; support Int64 (Float64 with weights); group columns first with ``by``."""
    df = pl.DataFrame(
        {
            "y": [0, 1, 2, 2, 1],
            "yhat": [0, 2, 2, 1, 1],
            "w": [1, 2, 1, 1, 1],
            "g": ["a", "a", "b", "b", None],
        }
    )
    table = ce.report(df, "y", "yhat").table
    assert table.columns == ["label", "precision", "recall", "f1", "support"]
    assert table.dtypes == [pl.String, pl.Float64, pl.Float64, pl.Float64, pl.Int64]
    assert table["label"].to_list() == ["0", "1", "2", "accuracy", "macro avg", "weighted avg"]
    acc = table.row(3, named=True)
    assert acc["precision"] is None
    assert acc["recall"] is None
    assert acc["f1"] == pytest.approx(0.6)
    assert acc["support"] == 5
    weighted = ce.report(df, "y", "yhat", weight="w").table
    assert weighted.schema["support"] == pl.Float64
    micro = ce.report(df, "y", "yhat", labels=[2, 1]).table
    assert micro["label"].to_list() == ["2", "1", "micro avg", "macro avg", "weighted avg"]
    grouped = ce.report(df, "y", "yhat", by="g").table
    assert grouped.columns == ["g", "label", "precision", "recall", "f1", "support"]
    assert grouped["g"].unique(maintain_order=True).to_list() == ["a", "b", None]


def test_report_from_lazyframe_is_eager() -> None:
    """A LazyFrame gives the same (always eager) Report."""
    df = pl.DataFrame({"y": ["a", "b", "b", "c"], "yhat": ["a", "b", "c", "c"]})
    assert str(ce.report(df.lazy(), "y", "yhat")) == str(ce.report(df, "y", "yhat"))
    assert isinstance(ce.report(df.lazy(), "y", "yhat").table, pl.DataFrame)


# --- HTML -------------------------------------------------------------------------------------


EVIL = "</td><script>alert(1)</script>"


def test_repr_html_escapes_labels_target_names_and_groups() -> None:
    """Every user string reaches the HTML escaped: labels, target names, group keys."""
    df = pl.DataFrame(
        {
            "y": [EVIL, "ok", "ok", EVIL],
            "yhat": [EVIL, "ok", EVIL, EVIL],
            "g": ["<b>", "<b>", '"&', '"&'],
        }
    )
    page = ce.report(df, "y", "yhat")._repr_html_()
    assert "<script" not in page
    assert html.escape(EVIL) in page
    assert page.count("<td>") == page.count("</td>")
    named = ce.report(df, "y", "yhat", target_names=["fine", "<i>x</i>"])._repr_html_()
    assert "<i>" not in named
    assert html.escape("<i>x</i>") in named
    grouped = ce.report(df, "y", "yhat", by="g")._repr_html_()
    assert "<script" not in grouped
    assert "<b>" not in grouped
    assert html.escape("g=<b>") in grouped
    assert html.escape('g="&') in grouped


# --- by= and missing= ------------------------------------------------------------------------------


def _show(key: Any) -> str:
    return "<null>" if key is None else str(key)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(group=True, kinds=("int", "str", "enum")), digits=st.integers(2, 4))
def test_report_by_group_blocks_are_sklearn(case: LabelCase, digits: int) -> None:
    """``by=``: one block per group (sorted, null last), each headed ``g=<key>`` and equal to
    scikit-learn's report on that group's rows (its own classes)."""
    keys = set(case.group or ())
    order = sorted(k for k in keys if k is not None) + ([None] if None in keys else [])
    blocks = []
    for key in order:
        part = case.rows([g == key for g in case.group or ()])
        assume(part.weight is None or any(part.weight))
        blocks.append(f"g={_show(key)}\n" + sk_report(part, digits=digits, zero_division=0.0))
    got = ce.report(case.df, "y", "yhat", by="g", digits=digits, weight=case.w)
    assert str(got) == "\n".join(blocks)
    as_dict = got.to_dict()
    assert list(as_dict) == order
    for key in order:
        part = case.rows([g == key for g in case.group or ()])
        expected = sk_report(part, output_dict=True, zero_division=0.0)
        assert as_dict[key]["accuracy"] == pytest.approx(expected["accuracy"], abs=1e-9)


def test_report_by_group_with_many_classes_is_sklearn() -> None:
    """Groups of 8 or more classes (NumPy's eight accumulators; groups of one size are summed
    as rows of one array) and a group above 128 classes (NumPy halves it): every block is
    scikit-learn's text, weights included."""
    rng = np.random.default_rng(11)
    frames, blocks = [], []
    for g, k in enumerate([9, 9, 16, 16, 23, 140]):
        n = 3 * k
        y = rng.integers(0, k, n)
        yhat = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
        w = rng.integers(1, 6, n).astype(float)
        frames.append(pl.DataFrame({"g": g, "y": y, "yhat": yhat, "w": w}))
        text = skm.classification_report(y, yhat, sample_weight=w, digits=4, zero_division=0.0)
        blocks.append(f"g={g}\n{text}")
    got = ce.report(pl.concat(frames), "y", "yhat", by="g", weight="w", digits=4)
    assert str(got) == "\n".join(blocks)


def test_np_sums_add_in_numpys_order() -> None:
    """The average rows' sums equal NumPy's bit for bit (not just to a tolerance), for group
    sizes below 8, up to 128 and above (NumPy's halving), several groups per size."""
    from clfeval._report import _np_sums

    rng = np.random.default_rng(5)
    sizes = [1, 3, 7, 8, 9, 15, 16, 17, 64, 127, 128, 129, 200, 300, 9, 200, 3]
    values = [rng.random(n) * 10.0 ** rng.integers(-3, 4, n) for n in sizes]
    frame = pl.DataFrame(
        {
            "__gid": np.repeat(np.arange(len(sizes), dtype=np.uint32), sizes),
            "v": np.concatenate(values),
        }
    )
    got = dict(_np_sums(frame).iter_rows())
    assert got == {g: float(np.sum(v)) for g, v in enumerate(values)}


def test_report_missing_drop_reports_n_excluded() -> None:
    """``missing="drop"`` leaves out rows with a null in y, yhat or weight and says how many,
    overall or per group; the text is scikit-learn's on the remaining rows."""
    df = pl.DataFrame(
        {
            "y": [0, 1, None, 2, 1, 0, 2, 1],
            "yhat": [0, None, 1, 2, 1, 1, 2, 0],
            "w": [1.0, 1.0, 1.0, None, 2.0, 1.0, 1.0, 3.0],
            "g": ["a", "a", "b", "b", "a", None, None, "b"],
        }
    )
    rep = ce.report(df, "y", "yhat", weight="w", missing="drop")
    assert rep.n_excluded == 3
    clean = df.drop_nulls(["y", "yhat", "w"])
    expected = skm.classification_report(
        clean["y"].to_numpy(), clean["yhat"].to_numpy(), sample_weight=clean["w"].to_numpy()
    )
    assert str(rep) == expected
    grouped = ce.report(df, "y", "yhat", by="g", missing="drop")
    assert isinstance(grouped.n_excluded, pl.DataFrame)
    assert grouped.n_excluded.sort("g", nulls_last=True).rows() == [("a", 1), ("b", 1), (None, 0)]


# --- metrics() ---------------------------------------------------------------------------------------

LABEL_METRICS = {
    "accuracy": "accuracy",
    "balanced_accuracy": "balanced_accuracy",
    "precision": "precision",
    "recall": "recall",
    "f1": "f1",
    "mcc": "mcc",
    "cohen_kappa": "cohen_kappa",
    "specificity": "specificity",
    "npv": "npv",
    "fpr": "fpr",
    "fnr": "fnr",
    "jaccard": "jaccard",
    "fbeta": "fbeta_2",
}


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_metrics_frame_matches_sklearn(engine: str, data: st.DataObject) -> None:
    """``metrics(...)`` gives one column per metric, each equal to scikit-learn (the registry
    of test_label.py), for every average and zero_division, on DataFrame and LazyFrame."""
    average = data.draw(st.sampled_from(["binary", "micro", "macro", "weighted"]))
    case = data.draw(label_cases(max_classes=2 if average == "binary" else 8))
    zd = data.draw(st.sampled_from([0.0, 1.0, None]))
    kw: dict[str, Any] = {"average": average, "zero_division": zd, "weight": case.w}
    ref_kw: dict[str, Any] = {"average": average, "zero_division": np.nan if zd is None else zd}
    if average == "binary":
        pos = data.draw(st.sampled_from(case.present))
        assume(len(case.present) == 2)  # clfeval's front door raises for an absent pos_label
        kw["pos_label"], ref_kw["pos_label"] = case.value(pos), pos
    else:
        labels = data.draw(labels_option(case))
        if labels is not None:
            kw["labels"], ref_kw["labels"] = case.values(labels), labels
    names = list(LABEL_METRICS)
    frame = case.df if engine == "eager" else case.df.lazy()
    out = ce.metrics(frame, "y", "yhat", metrics=names, beta=2.0, **kw)
    assert isinstance(out, type(frame))
    got = run(out, engine)
    assert got.columns == names
    assert got.height == 1
    y, yhat, w = to_sklearn(case)
    for name, entry_name in LABEL_METRICS.items():
        entry = REGISTRY[entry_name]
        args: dict[str, Any] = dict(entry.fixed)
        if w is not None:
            args["sample_weight"] = w
        if entry.averaging:
            args |= ref_kw
        elif entry.labels and "labels" in ref_kw:
            args["labels"] = ref_kw["labels"]
            if not any(label in case.y for label in ref_kw["labels"]):
                continue  # scikit-learn's kappa needs a listed class in y_true
        expected = sk(entry.ref, y, yhat, **args)
        assert_same(got[name].item(), expected, (engine, name, kw))


def test_metrics_default_columns() -> None:
    """Default metric set, in order: accuracy, balanced_accuracy, precision, recall, f1, mcc."""
    df = pl.DataFrame({"y": [1, 0, 1, 1, 0], "yhat": [1, 0, 0, 1, 1]})
    out = ce.metrics(df, "y", "yhat")
    assert out.columns == ["accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc"]
    y, yhat = df["y"].to_numpy(), df["yhat"].to_numpy()
    expected = [
        skm.accuracy_score(y, yhat),
        skm.balanced_accuracy_score(y, yhat),
        skm.precision_score(y, yhat),
        skm.recall_score(y, yhat),
        skm.f1_score(y, yhat),
        skm.matthews_corrcoef(y, yhat),
    ]
    assert_same(list(out.row(0)), expected)
    assert df.clf.metrics("y", "yhat").equals(out)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_metrics_average_none_rows_per_class(engine: str, data: st.DataObject) -> None:
    """``average=None``: by…, label, precision, recall, f1, support; one row per class in
    class order, equal to scikit-learn's ``precision_recall_fscore_support(average=None)``."""
    case = data.draw(label_cases(group=data.draw(st.booleans())))
    labels = data.draw(labels_option(case))
    zd = data.draw(st.sampled_from([0.0, 1.0, None]))
    by = "g" if case.group is not None else None
    frame = case.df if engine == "eager" else case.df.lazy()
    got = run(
        ce.metrics(
            frame,
            "y",
            "yhat",
            average=None,
            labels=case.values(labels),
            zero_division=zd,
            weight=case.w,
            by=by,
        ),
        engine,
    )
    assert got.columns == [*([by] if by else []), "label", "precision", "recall", "f1", "support"]
    parts = (
        {None: case}
        if by is None
        else {k: case.rows([g == k for g in case.group or ()]) for k in set(case.group or ())}
    )
    for key, part in parts.items():
        rows = got if by is None else got.filter(pl.col("g").eq_missing(key))
        classes = labels if labels is not None else part.present
        assert rows["label"].to_list() == case.values(classes)
        if part.weight is not None and not any(part.weight):
            continue
        y, yhat, w = to_sklearn(part)
        p, r, f, s = sk(
            skm.precision_recall_fscore_support,
            y,
            yhat,
            labels=classes,
            sample_weight=w,
            zero_division=np.nan if zd is None else zd,
        )
        assert_same(rows["precision"].to_list(), p)
        assert_same(rows["recall"].to_list(), r)
        assert_same(rows["f1"].to_list(), f)
        assert_same(rows["support"].to_list(), s)


@pytest.mark.parametrize("engine", ["eager", "streaming"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(group=True, kinds=("int", "str", "cat")))
def test_metrics_by_group(engine: str, case: LabelCase) -> None:
    """``by=``: the group column first, rows sorted with the null key last, each row equal to
    the ungrouped result on that group."""
    names = ["accuracy", "balanced_accuracy", "f1", "mcc", "cohen_kappa", "jaccard"]
    frame = case.df if engine == "eager" else case.df.lazy()
    got = run(
        ce.metrics(frame, "y", "yhat", metrics=names, average="macro", by="g", weight=case.w),
        engine,
    )
    assert got.columns == ["g", *names]
    keys = set(case.group or ())
    order = sorted(k for k in keys if k is not None) + ([None] if None in keys else [])
    assert got["g"].to_list() == order
    for key in order:
        part = case.rows([g == key for g in case.group or ()])
        if case.w is not None and part.df[case.w].sum() == 0:
            # alone, an all-zero-weight frame raises "empty" (§7.1 #8); grouped, it is null
            assert got.filter(pl.col("g").eq_missing(key))["accuracy"].item() is None
            continue
        alone = ce.metrics(part.df, "y", "yhat", metrics=names, average="macro", weight=case.w)
        assert_same(
            list(got.filter(pl.col("g").eq_missing(key)).drop("g").row(0)), list(alone.row(0)), key
        )


def test_metrics_missing_drop_n_excluded() -> None:
    """``missing="drop"``: an ``n_excluded`` column after the group columns; rows still sorted
    by group (null last); values equal the result on the pre-filtered frame."""
    df = pl.DataFrame(
        {
            "y": [0, 1, None, 2, 1, 0, 2, 1, 0],
            "yhat": [0, None, 1, 2, 1, 1, 2, 0, 0],
            "g": ["b", "b", None, "a", "a", None, None, "b", "a"],
        }
    )
    out = ce.metrics(df, "y", "yhat", average="macro", by="g", missing="drop")
    assert out.columns[:2] == ["g", "n_excluded"]
    assert out["g"].to_list() == ["a", "b", None]
    assert out["n_excluded"].to_list() == [0, 1, 1]
    clean = ce.metrics(df.drop_nulls(["y", "yhat"]), "y", "yhat", average="macro", by="g")
    assert out.drop("n_excluded").equals(clean)
    whole = ce.metrics(df, "y", "yhat", average="macro", missing="drop")
    assert whole.columns[0] == "n_excluded"
    assert whole["n_excluded"].item() == 2


# --- baseline() -----------------------------------------------------------------------------------


def _dummy(strategy: str, y: np.ndarray, w: np.ndarray | None) -> DummyClassifier:
    x = np.zeros((len(y), 1))
    return DummyClassifier(strategy=strategy).fit(x, y, sample_weight=w)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=label_cases(kinds=("int", "str", "enum", "bool"), max_classes=6))
def test_baseline_matches_dummy_classifier(case: LabelCase) -> None:
    """most_frequent and prior: the metrics of DummyClassifier's predictions (ties go to the
    first class in class order, as ``argmax``) and its probabilities' log loss and Brier;
    uniform: DummyClassifier's 1/k probabilities, and the label metrics of the expected
    confusion matrix (each row spread evenly over the k classes)."""
    y, _, w = to_sklearn(case)
    classes = sorted(set(case.y))
    k = len(classes)
    binary = k == 2
    pos = classes[-1]
    names = ["accuracy", "balanced_accuracy", "f1", "mcc", "cohen_kappa"]
    names += ["log_loss", "brier"] if binary else []
    average = "binary" if binary else "macro"
    out = ce.baseline(
        case.df, "y", metrics=names, average=average, pos_label=case.value(pos), weight=case.w
    )
    assert out.columns == ["strategy", *names]
    assert out["strategy"].to_list() == ["most_frequent", "prior", "uniform"]
    f1_kw: dict[str, Any] = {"average": average, "zero_division": 0.0}
    if binary:
        f1_kw["pos_label"] = pos
    for row, strategy in zip(out.iter_rows(named=True), ("most_frequent", "prior", "uniform")):
        dummy = _dummy(strategy, y, w)
        proba = dummy.predict_proba(np.zeros((len(y), 1)))
        if strategy == "uniform":
            # the expected confusion matrix: each row once per class with weight w/k
            yy = np.repeat(y, k)
            pp = np.tile(classes, len(y))
            ww = np.repeat(np.ones(len(y)) if w is None else w, k) / k
        else:
            yy, pp, ww = y, dummy.predict(np.zeros((len(y), 1))), w
        expected = {
            "accuracy": skm.accuracy_score(yy, pp, sample_weight=ww),
            "balanced_accuracy": sk(skm.balanced_accuracy_score, yy, pp, sample_weight=ww),
            "f1": sk(skm.f1_score, yy, pp, sample_weight=ww, **f1_kw),
            "mcc": sk(skm.matthews_corrcoef, yy, pp, sample_weight=ww),
            "cohen_kappa": sk(skm.cohen_kappa_score, yy, pp, sample_weight=ww),
        }
        if binary:
            expected["log_loss"] = sk(skm.log_loss, y, proba, labels=classes, sample_weight=w)
            expected["brier"] = sk(skm.brier_score_loss, y == pos, proba[:, 1], sample_weight=w)
        for name in names:
            assert_same(row[name], expected[name], (strategy, name))


def test_baseline_by_group_and_lazy() -> None:
    """``by=``: group column first, each group's baselines equal the ungrouped ones."""
    df = pl.DataFrame({"y": [0, 0, 1, 1, 1, 0, 1], "g": ["a", "a", "a", "b", "b", None, None]})
    out = ce.baseline(df, "y", metrics=["accuracy", "brier"], by="g")
    assert out.columns == ["g", "strategy", "accuracy", "brier"]
    assert out["g"].unique(maintain_order=True).to_list() == ["a", "b", None]
    for key in ["a", "b", None]:
        alone = ce.baseline(
            df.filter(pl.col("g").eq_missing(key)), "y", metrics=["accuracy", "brier"]
        )
        assert_same(
            out.filter(pl.col("g").eq_missing(key)).drop("g")["brier"].to_list(),
            alone["brier"].to_list(),
        )
        assert_same(
            out.filter(pl.col("g").eq_missing(key))["accuracy"].to_list(),
            alone["accuracy"].to_list(),
        )
    lazy = ce.baseline(df.lazy(), "y", metrics=["accuracy", "brier"], by="g")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(out)


def test_baseline_most_frequent_tie_goes_to_first_class() -> None:
    """A tie for the majority goes to the first class in class order (Enum: category order)."""
    enum = pl.Enum(["b", "a"])
    df = pl.DataFrame({"y": ["a", "b", "a", "b"]}, schema={"y": enum})
    out = ce.baseline(df, "y", metrics=["accuracy", "f1"], pos_label="b")
    # predicting "b" (first category) for every row: f1 for pos "b" = 2·2 / (2·2 + 2) = 2/3
    assert out.row(0)[1:] == (0.5, pytest.approx(2 / 3))
    assert math.isclose(out["f1"][0], skm.f1_score([1, 0, 1, 0], [0, 0, 0, 0], pos_label=0))
