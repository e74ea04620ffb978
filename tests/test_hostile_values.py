"""Hostile input that must give the right number (or null), never a wrong one.

Drops happen before every other check; LazyFrames follow the expression rule (bad data gives
null, a NaN score or a null row is left out); odd but valid labels keep their classes (no
truncation, no cast between kinds); huge weights keep scikit-learn's numbers; multiclass
probabilities are checked, never renormalised. Numbers are compared with scikit-learn.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import polars as pl
import pytest
import sklearn.metrics as skm
from hostile_surfaces import (
    LAZY,
    NAN,
    SURFACES,
    Surface,
    assert_frames,
    base,
    close,
    expect_error,
    ids,
    of,
    outcome,
    set_row,
    twins,
)

import clfeval as ce


def sk(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


PRIMARY = [s for s in SURFACES if not s.name.startswith("clf.") and s.name != "report_html"]

# --- missing= / nonfinite= "drop" happen before every other check ------------------------------


def _without_first_row(df: pl.DataFrame) -> pl.DataFrame:
    return df.slice(1)


DROPS: list[tuple[str, set[str], str, Any]] = [
    # id, kinds, option, change to row 0 (the row that is dropped)
    ("nan-score-negative-weight", {"score", "proba"}, "nonfinite",
     lambda d: set_row(set_row(d, "s", NAN), "w", -5.0)),
    ("inf-score-out-of-range", {"score", "proba"}, "nonfinite",
     lambda d: set_row(set_row(d, "s", float("inf")), "w", float("nan"))),
    ("null-y-probability-1.7", {"proba"}, "missing",
     lambda d: set_row(set_row(d, "y", None), "s", 1.7)),
    ("null-y-negative-weight", {"label", "score", "proba", "y"}, "missing",
     lambda d: set_row(set_row(d, "y", None), "w", -1.0)),
    ("null-weight-third-class", {"label", "y"}, "missing",
     lambda d: set_row(set_row(d, "w", None), "y", 5)),
    ("null-yhat-fraction-y", {"label"}, "missing",
     lambda d: set_row(set_row(d, "yhat", None), "y", 0.5)),
    ("null-score-infinite-weight", {"score", "proba"}, "missing",
     lambda d: set_row(set_row(d, "s", None), "w", float("inf"))),
]  # fmt: skip
DROP_CASES = [(case, s) for case in DROPS for s in of(case[1], {case[2], "weight"}, PRIMARY)]


@pytest.mark.parametrize(
    ("case", "surface"), DROP_CASES, ids=[f"{c[0]}-{s.name}" for c, s in DROP_CASES]
)
def test_drop_happens_before_every_check(case: tuple, surface: Surface) -> None:
    """The dropped row is never range-checked, weight-checked or counted as a class: the
    result equals the call on the frame without that row (n_excluded aside)."""
    _, _, option, make = case
    kind, got = outcome(lambda: surface.run(make(base()), weight="w", **{option: "drop"}))
    assert kind == "ok", f"a row left out by {option}='drop' was checked: {got}"
    clean = _without_first_row(base())
    if option == "missing" and case[0] == "null-yhat-fraction-y":
        clean = clean.with_columns(pl.col("y").cast(pl.Float64))
    expected = surface.run(clean, weight="w")
    if "n_excluded" in got.columns:
        assert got["n_excluded"].to_list() == [1] * got.height, got["n_excluded"].to_list()
        got = got.drop("n_excluded")
    assert_frames(got, expected, surface.name, tol=1e-9)


EXCLUDED = [s for s in PRIMARY if s.name in ("metrics", "sql.metrics", "table.metrics")]


@pytest.mark.parametrize("surface", EXCLUDED, ids=ids(EXCLUDED))
def test_n_excluded_counts_the_dropped_rows_per_group(surface: Surface) -> None:
    df = set_row(set_row(set_row(base(), "y", None, 0), "yhat", None, 2), "w", None, 3)
    out = surface.run(df, by="g", weight="w", missing="drop")
    assert out.columns[:2] == ["g", "n_excluded"], out.columns
    assert out.select("g", "n_excluded").rows() == [("a", 1), ("b", 2)]
    kept = df.filter(pl.all_horizontal(pl.col("y", "yhat", "w").is_not_null()))
    assert_frames(out.drop("n_excluded"), surface.run(kept, by="g", weight="w"))


@pytest.mark.parametrize("grouped", [False, True], ids=["plain", "by"])
def test_report_counts_the_dropped_rows(grouped: bool) -> None:
    df = set_row(set_row(base(), "s", NAN, 1), "y", None, 2)
    by = {"by": "g"} if grouped else {}
    rep = ce.report(df, "y", "yhat", score="s", missing="drop", nonfinite="drop", **by)
    if grouped:
        assert rep.n_excluded.rows() == [("a", 1), ("b", 1)]
    else:
        assert rep.n_excluded == 2


# --- LazyFrames follow the expression rule -----------------------------------------------------

KEYS = {"label", "actual", "predicted", "threshold", "bin", "strategy", "g", "n_excluded"}
LAZY_BAD = [
    ("weight-negative", lambda d: set_row(d, "w", -1.0), {"label", "score", "proba", "y"}),
    ("weight-nan", lambda d: set_row(d, "w", NAN), {"label", "score", "proba", "y"}),
    ("weight-inf", lambda d: set_row(d, "w", float("inf")), {"label", "score", "proba", "y"}),
    ("proba-1.5", lambda d: set_row(d, "s", 1.5), {"proba"}),
    ("proba-minus-0.2", lambda d: set_row(d, "s", -0.2), {"proba"}),
]
LAZY_FUNCTIONS = [s for s in LAZY if not s.name.startswith("lazy.clf.")]
LAZY_CASES = [
    (name, make, s)
    for name, make, kinds in LAZY_BAD
    for s in of(kinds, {"weight"}, LAZY_FUNCTIONS)
    if s.name not in ("lazy.report", "lazy.report[score]", "lazy.report_html")  # always eager
]


@pytest.mark.parametrize(
    ("name", "make", "surface"),
    LAZY_CASES,
    ids=[f"{n}-{s.name}" for n, _, s in LAZY_CASES],
)
def test_lazyframes_give_null_for_meaningless_data(name: str, make: Any, surface: Surface) -> None:
    """A LazyFrame is not read when the function is called, so bad data cannot raise: like
    the expressions, every value computed from it is null, never a number."""
    kw = {"weight": "w"}
    kind, got = outcome(lambda: surface.run(make(base()), **kw))
    if kind == "error":  # raised at call time: allowed only if it names the culprit
        assert "'w'" in str(got) or "'s'" in str(got), str(got)
        return
    values = [c for c in got.columns if c not in KEYS]
    numbers = got.select(values).rows()
    assert all(v is None for row in numbers for v in row), f"{name} gave numbers: {numbers[:3]}"


LEFT_OUT = [
    ("nan-score", lambda d: set_row(d, "s", NAN), {"score", "proba"}),
    ("null-y", lambda d: set_row(d, "y", None), {"label", "score", "proba", "y"}),
    ("null-score", lambda d: set_row(d, "s", None), {"score", "proba"}),
    ("null-weight", lambda d: set_row(d, "w", None), {"label", "score", "proba", "y"}),
]
LEFT_OUT_CASES = [
    (name, make, s)
    for name, make, kinds in LEFT_OUT
    for s in of(kinds, {"weight"}, LAZY_FUNCTIONS)
    if s.name not in ("lazy.report", "lazy.report[score]", "lazy.report_html")
]


@pytest.mark.parametrize(
    ("name", "make", "surface"),
    LEFT_OUT_CASES,
    ids=[f"{n}-{s.name}" for n, _, s in LEFT_OUT_CASES],
)
def test_lazyframes_leave_out_nulls_and_nan_scores(name: str, make: Any, surface: Surface) -> None:
    got = surface.run(make(base()), weight="w")
    expected = surface.run(_without_first_row(base()).lazy(), weight="w")
    assert_frames(got, expected, name)


# --- odd but valid labels ------------------------------------------------------------------------


def test_lazyframe_float_labels_are_never_truncated() -> None:
    """0.7 is its own class on a LazyFrame (not read, so not checked): the frame function
    gives the expression's answer and the confusion matrix keeps 0.7."""
    df = pl.DataFrame({"y": [0.7, 1.0, 1.0, 0.0, 0.7], "yhat": [1.0, 1.0, 0.7, 0.0, 0.7]})
    exprs = df.select(
        ce.accuracy("y", "yhat"),
        ce.f1("y", "yhat", average="macro"),
        ce.precision("y", "yhat", average="weighted"),
    )
    out = ce.metrics(df.lazy(), "y", "yhat", average="macro", metrics=["accuracy", "f1"]).collect()
    assert close(out["accuracy"].item(), exprs["accuracy"].item())
    assert close(out["f1"].item(), exprs["f1"].item())
    assert close(out["accuracy"].item(), 0.6)
    classes = ce.confusion_matrix(df.lazy(), "y", "yhat", labels=[0.0, 0.7, 1.0]).collect()
    assert sorted(set(classes["actual"].to_list())) == [0.0, 0.7, 1.0]
    counts = ce.counts(df.lazy(), "y", "yhat").collect()
    assert counts["label"].to_list() == [0.0, 0.7, 1.0]
    expected = sk(skm.f1_score, ["a", "b", "b", "c", "a"], ["b", "b", "a", "c", "a"],
                  average="macro")  # fmt: skip
    assert close(out["f1"].item(), expected)


def test_integer_y_against_fractional_lazy_yhat_is_not_truncated() -> None:
    df = pl.DataFrame({"y": [1, 1, 0, 0], "yhat": [1.0, 0.7, 0.0, 0.0]})
    lazy = ce.metrics(df.lazy(), "y", "yhat", metrics=["accuracy"], average="macro").collect()
    assert close(lazy["accuracy"].item(), 0.75)
    assert close(lazy["accuracy"].item(), df.select(ce.accuracy("y", "yhat")).item())


LABEL_TWINS = {k: v for k, v in twins().items() if v[0].kind == "label"}


def _label_frame(y: pl.Series, yhat: pl.Series) -> pl.DataFrame:
    return pl.DataFrame({"y": y, "yhat": yhat, "w": [1.0] * len(y), "g": ["a"] * len(y)})


def _twins_agree(df: pl.DataFrame, group: list[Surface], **kw: Any) -> list[Any]:
    outs = []
    for s in group:
        if s.engine == "table" and any(
            isinstance(t, pl.Enum | pl.Categorical) for t in df.schema.values()
        ):
            continue
        kind, got = outcome(lambda s=s: s.run(df, **kw))
        assert kind == "ok", f"{s.name}: {got}"
        outs.append((s.name, got))
    first_name, first = outs[0]
    for name, got in outs[1:]:
        assert_frames(got, first, f"{name} vs {first_name}")
    return [g for _, g in outs]


BIG = 2**64 - 1


@pytest.mark.parametrize("twin", ["confusion", "counts", "report", "accuracy"])
def test_int8_against_uint64_max_keeps_every_class(twin: str) -> None:
    """Int8 and UInt64 compare in a lossless common type: 2**64 - 1 stays its own class."""
    df = _label_frame(
        pl.Series([127, 0, 127, 0, -128], dtype=pl.Int8),
        pl.Series([BIG, 0, 127, 0, 0], dtype=pl.UInt64),
    )
    outs = _twins_agree(df, LABEL_TWINS[twin])
    if twin == "confusion":
        assert BIG in outs[0]["predicted"].to_list()
        assert outs[0]["count"].sum() == 5
    if twin == "accuracy":
        assert close(outs[0]["accuracy"].item(), 0.6)


def test_int8_against_uint64_max_metrics() -> None:
    df = _label_frame(
        pl.Series([127, 0, 127, 0, -128], dtype=pl.Int8),
        pl.Series([BIG, 0, 127, 0, 0], dtype=pl.UInt64),
    )
    text = [str(v) for v in [127, 0, 127, 0, -128]], [str(v) for v in [BIG, 0, 127, 0, 0]]
    for s in LABEL_TWINS["metrics"]:
        kind, got = outcome(lambda s=s: s.run(df, average="macro"))
        assert kind == "ok", f"{s.name}: {got}"
        assert close(got["f1"].item(), sk(skm.f1_score, *text, average="macro")), s.name
        assert close(got["mcc"].item(), sk(skm.matthews_corrcoef, *text)), s.name


@pytest.mark.parametrize("twin", ["confusion", "counts", "metrics", "report"])
def test_leading_zero_text_labels_are_distinct_classes(twin: str) -> None:
    """'01' is not '1' and ' 1' is not '1': exact strings, compared as scikit-learn does."""
    y = ["01", "0", "1", "0", " 1", "1"]
    yhat = ["1", "0", "1", "0", "1", " 1"]
    df = _label_frame(pl.Series(y), pl.Series(yhat))
    kw = {"average": "macro"} if twin == "metrics" else {}
    outs = _twins_agree(df, LABEL_TWINS[twin], **kw)
    if twin == "metrics":
        assert close(outs[0]["accuracy"].item(), sk(skm.accuracy_score, y, yhat))
        assert close(outs[0]["f1"].item(), sk(skm.f1_score, y, yhat, average="macro"))
    if twin == "counts":
        assert outs[0]["label"].to_list() == [" 1", "0", "01", "1"]


@pytest.mark.parametrize("twin", ["confusion", "counts", "metrics", "report", "f1"])
def test_bool_against_integer_labels(twin: str) -> None:
    y, yhat = [True, False, True, False, True], [1, 0, 0, 0, 1]
    df = _label_frame(pl.Series(y), pl.Series(yhat))
    kw = {"pos_label": True} if twin in ("metrics", "f1") else {}
    outs = _twins_agree(df, LABEL_TWINS[twin], **kw)
    if twin == "f1":
        assert close(outs[0]["f1"].item(), sk(skm.f1_score, y, yhat, pos_label=True))


@pytest.mark.parametrize("dtype", [pl.Categorical, pl.Enum(["b", "a"])], ids=["cat", "enum"])
@pytest.mark.parametrize("twin", ["confusion", "counts", "metrics", "f1"])
def test_categorical_and_enum_against_text(twin: str, dtype: pl.DataType) -> None:
    y, yhat = ["a", "b", "a", "b", "a"], ["a", "a", "a", "b", "b"]
    df = _label_frame(pl.Series(y).cast(dtype), pl.Series(yhat))
    kw = {"pos_label": "b"} if twin in ("metrics", "f1") else {}
    outs = _twins_agree(df, LABEL_TWINS[twin], **kw)
    if twin == "f1":
        assert close(outs[0]["f1"].item(), sk(skm.f1_score, y, yhat, pos_label="b"))


def test_huge_float_labels_and_pos_label() -> None:
    y, yhat = [1e20, 0.0, 1e20, 0.0], [1e20, 0.0, 0.0, 0.0]
    df = _label_frame(pl.Series(y), pl.Series(yhat))
    for s in LABEL_TWINS["f1"]:  # tp 1, fp 0, fn 1 (scikit-learn calls 1e20 continuous)
        got = s.run(df, pos_label=1e20)
        assert close(got["f1"].item(), 2 / 3), s.name


ODD_LABELS = [([True, 0], "bool among ints"), ([1, 0.5], "a fraction among ints")]
ODD_CASES = [(lab, why, s) for lab, why in ODD_LABELS for s in of("label", {"labels"}, PRIMARY)]


@pytest.mark.parametrize(
    ("labels", "why", "surface"),
    ODD_CASES,
    ids=[f"{w}-{s.name}" for _, w, s in ODD_CASES],
)
def test_labels_of_a_neighbouring_kind(labels: list[Any], why: str, surface: Surface) -> None:
    """labels=[True, 0] or [1, 0.5] for an integer y: an InputError naming the label, or
    the classes as given (True is 1; 0.5 an absent class); never a raw error."""
    kind, got = outcome(lambda: surface.run(base(), labels=labels))
    if kind == "error":
        assert "labels" in str(got), str(got)
        assert repr(labels[0]) in str(got) or repr(labels[1]) in str(got), str(got)
        return
    if labels[0] is True:  # True is the class 1: the answer of labels=[1, 0]
        assert_frames(got, surface.run(base(), labels=[1, 0]), "labels=[True, 0]")
        return
    columns = [c for c in ("label", "actual", "predicted") if c in got.columns]
    if not columns:  # one row of metrics: the numbers of labels=[1] plus an empty class
        assert all(v == v for v in got.row(0)), got.rows()
        return
    assert "0.5" in got[columns[0]].cast(pl.String).to_list(), got.rows()[:4]


# --- huge weights keep the numbers ---------------------------------------------------------------

RNG = np.random.default_rng(7)
N = 60
Y = RNG.integers(0, 2, N)
S = np.round(RNG.random(N), 2)
YHAT = (S > 0.5).astype(int)
W = RNG.integers(1, 6, N).astype(float)


def _reference() -> dict[str, float]:
    return {
        "accuracy": sk(skm.accuracy_score, Y, YHAT, sample_weight=W),
        "balanced_accuracy": sk(skm.balanced_accuracy_score, Y, YHAT, sample_weight=W),
        "precision": sk(skm.precision_score, Y, YHAT, sample_weight=W),
        "recall": sk(skm.recall_score, Y, YHAT, sample_weight=W),
        "f1": sk(skm.f1_score, Y, YHAT, sample_weight=W),
        "mcc": sk(skm.matthews_corrcoef, Y, YHAT, sample_weight=W),
        "cohen_kappa": sk(skm.cohen_kappa_score, Y, YHAT, sample_weight=W),
        "auroc": sk(skm.roc_auc_score, Y, S, sample_weight=W),
        "average_precision": sk(skm.average_precision_score, Y, S, sample_weight=W),
        "log_loss": sk(skm.log_loss, Y, S, sample_weight=W),
        "brier": sk(skm.brier_score_loss, Y, S, sample_weight=W),
    }


REF = _reference()
SCALES = [1e160, 1e300]


def _weighted(scale: float) -> pl.DataFrame:
    return pl.DataFrame({"y": Y, "yhat": YHAT, "s": S, "w": W * scale, "g": ["a"] * N})


METRIC_SURFACES = [
    s
    for s in PRIMARY
    if s.twin in ("metrics", "f1", "accuracy", "auroc", "average_precision", "log_loss", "brier")
    or s.name in ("metrics[log_loss]", "metrics[brier]")
]


@pytest.mark.parametrize("scale", SCALES, ids=["1e160", "1e300"])
@pytest.mark.parametrize("surface", METRIC_SURFACES, ids=ids(METRIC_SURFACES))
def test_huge_weights_give_the_unscaled_metrics(surface: Surface, scale: float) -> None:
    got = surface.run(_weighted(scale), weight="w")
    for column in got.columns:
        assert close(got[column].item(), REF[column], 1e-9), (column, got[column].item())


KAPPA = [
    ("metrics[cohen_kappa]", lambda d: ce.metrics(d, "y", "yhat", weight="w",
                                                  metrics=["cohen_kappa"])),
    ("sql.aggregate[clf_mcc]", lambda d: ce.sql.aggregate("clf_mcc", d, "y", "yhat", weight="w")),
    ("sql.aggregate[clf_cohen_kappa]",
     lambda d: ce.sql.aggregate("clf_cohen_kappa", d, "y", "yhat", weight="w")),
    ("sql.aggregate[clf_balanced_accuracy]",
     lambda d: ce.sql.aggregate("clf_balanced_accuracy", d, "y", "yhat", weight="w")),
    ("expressions", lambda d: d.select(
        ce.mcc("y", "yhat", weight="w"), ce.cohen_kappa("y", "yhat", weight="w"),
        ce.auroc("y", "s", weight="w"), ce.average_precision("y", "s", weight="w"),
        ce.log_loss("y", "s", weight="w"), ce.brier("y", "s", weight="w"),
        ce.balanced_accuracy("y", "yhat", weight="w"))),
]  # fmt: skip


@pytest.mark.parametrize("scale", SCALES, ids=["1e160", "1e300"])
@pytest.mark.parametrize(("name", "call"), KAPPA, ids=[k for k, _ in KAPPA])
def test_huge_weights_in_products_of_sums(name: str, call: Any, scale: float) -> None:
    """MCC and kappa multiply sums of weights: 1e160**2 overflows unless shares come first."""
    got = call(_weighted(scale))
    for column in got.columns:
        assert close(got[column].item(), REF[column], 1e-9), (column, got[column].item())


def _at_threshold(t: float) -> dict[str, float]:
    pred = (t <= S).astype(int)
    return {
        "precision": sk(skm.precision_score, Y, pred, sample_weight=W, zero_division=0),
        "recall": sk(skm.recall_score, Y, pred, sample_weight=W),
        "f1": sk(skm.f1_score, Y, pred, sample_weight=W),
        "accuracy": sk(skm.accuracy_score, Y, pred, sample_weight=W),
        "mcc": sk(skm.matthews_corrcoef, Y, pred, sample_weight=W),
    }


THRESHOLDS = [s for s in PRIMARY if s.twin == "thresholds"]


@pytest.mark.parametrize("scale", SCALES, ids=["1e160", "1e300"])
@pytest.mark.parametrize("surface", THRESHOLDS, ids=ids(THRESHOLDS))
def test_huge_weights_in_the_thresholds_table(surface: Surface, scale: float) -> None:
    out = surface.run(_weighted(scale), weight="w")
    for row in out.iter_rows(named=True):
        ref = _at_threshold(row["threshold"])
        for column, value in ref.items():
            assert close(row[column], value, 1e-9), (row["threshold"], column, row[column])


CURVES = [s for s in PRIMARY if s.twin in ("roc", "pr", "calibration", "counts", "confusion")]


@pytest.mark.parametrize("scale", SCALES, ids=["1e160", "1e300"])
@pytest.mark.parametrize("surface", CURVES, ids=ids(CURVES))
def test_huge_weights_in_curves_and_counts(surface: Surface, scale: float) -> None:
    """Rates equal the unscaled ones; counts are the unscaled counts times the scale.

    The scale is the power of two nearest to it: then scaling is exact in float64, so which
    points drop_intermediate finds collinear (an exact test, as scikit-learn's) cannot change;
    at any other scale rounding may make a collinear point bend, in scikit-learn too.
    """
    scale = 2.0 ** round(np.log2(scale))
    got = surface.run(_weighted(scale), weight="w")
    plain = surface.run(_weighted(1.0), weight="w")
    for column in got.columns:
        counts = column in ("count", "tp", "fp", "fn", "tn", "support")
        factor = scale if counts else 1.0
        for a, b in zip(got[column].to_list(), plain[column].to_list()):
            if isinstance(b, float) and not (counts and b == 0):
                assert close(a, b * factor, 1e-9), (column, a, b * factor)


def test_huge_weights_roc_matches_scikit_learn() -> None:
    fpr, tpr, _ = skm.roc_curve(Y, S, sample_weight=W)
    for s in [x for x in PRIMARY if x.twin == "roc"]:
        out = s.run(_weighted(2.0**996), weight="w")  # ~1e300, exact (see above)
        assert out.height == len(fpr), (s.name, out.height, len(fpr))
        assert np.allclose(out["fpr"].to_numpy(), fpr, rtol=1e-9, atol=0), s.name
        assert np.allclose(out["tpr"].to_numpy(), tpr, rtol=1e-9, atol=0), s.name


# --- tiny inputs: twins agree ----------------------------------------------------------------

TINY = {
    "one-row": lambda: base().head(1),
    "one-class": lambda: base().with_columns(y=pl.lit(1)),
    "one-class-zero": lambda: base().with_columns(y=pl.lit(0), yhat=pl.lit(0)),
    "all-equal-scores": lambda: base().with_columns(s=pl.lit(0.5)),
    "zero-weight-group": lambda: base().with_columns(
        w=pl.when(pl.col("g") == "b").then(0.0).otherwise(pl.col("w"))
    ),
}
TINY_CASES = [(name, twin) for name in TINY for twin in twins()]


@pytest.mark.parametrize(("name", "twin"), TINY_CASES, ids=[f"{n}-{t}" for n, t in TINY_CASES])
def test_tiny_inputs_twins_agree(name: str, twin: str) -> None:
    """One row, one class, constant scores, a group whose weights are all 0: every twin
    gives the same frame (null where undefined), or the same InputError."""
    group = twins()[twin]
    kw: dict[str, Any] = {"weight": "w"}
    if name == "zero-weight-group":
        kw["by"] = "g"
    results = {}
    for s in group:
        kind, got = outcome(lambda s=s: s.run(TINY[name](), **kw))
        results[s.name] = (kind, got)
    kinds = {k for k, _ in results.values()}
    assert len(kinds) == 1, {n: (k, str(v)[:120]) for n, (k, v) in results.items()}
    (first_name, (kind, first)), *rest = results.items()
    for other, (_, got) in rest:
        if kind == "error":
            assert str(got) == str(first), (other, str(got), first_name, str(first))
        else:
            assert_frames(got, first, f"{other} vs {first_name}")
            values = [c for c in got.columns if c not in KEYS]
            nan = [v for row in got.select(values).rows() for v in row if v != v]
            assert not nan, f"{other} returned NaN: {got.rows()[:3]}"


def test_one_class_auroc_is_null_not_nan_or_zero() -> None:
    df = base().with_columns(y=pl.lit(1))
    for s in [x for x in SURFACES if x.twin == "auroc"]:
        assert s.run(df)["auroc"].to_list() == [None], s.name


def test_null_group_key_is_its_own_group() -> None:
    df = set_row(base(), "g", None, 0)
    for twin in ("confusion", "metrics", "roc", "calibration", "f1"):
        outs = _twins_agree(df, twins()[twin], by="g")
        assert outs[0]["g"].to_list()[-1] is None, twin


# --- multiclass probabilities ---------------------------------------------------------------------


def _multi() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "y": [0, 1, 2, 1, 0, 2, 1, 0],
            "p0": [0.7, 0.1, 0.2, 0.2, 0.6, 0.1, 0.3, 0.5],
            "p1": [0.2, 0.8, 0.2, 0.5, 0.3, 0.2, 0.4, 0.3],
            "p2": [0.1, 0.1, 0.6, 0.3, 0.1, 0.7, 0.3, 0.2],
            "yhat": [0, 1, 2, 1, 1, 2, 0, 0],
        }
    )


MAP = {0: "p0", 1: "p1", 2: "p2"}
PROBS = _multi().select("p0", "p1", "p2").to_numpy()
MULTI_FRONT = {
    "metrics[log_loss]": lambda d, p, **kw: ce.metrics(d, "y", score=p, metrics=["log_loss"],
                                                       **kw),
    "metrics[brier]": lambda d, p, **kw: ce.metrics(d, "y", score=p, metrics=["brier"], **kw),
    "metrics[auroc]": lambda d, p, **kw: ce.metrics(d, "y", score=p, metrics=["auroc"], **kw),
    "report": lambda d, p, **kw: ce.report(d, "y", "yhat", score=p, **kw).table,
    "roc_curve": lambda d, p, **kw: ce.roc_curve(d, "y", p, **kw),
    "thresholds": lambda d, p, **kw: ce.thresholds(d, "y", p, **kw),
    "calibration": lambda d, p, **kw: ce.calibration(d, "y", p, **kw),
}  # fmt: skip
PROPER = ["metrics[log_loss]", "metrics[brier]", "report", "calibration"]


@pytest.mark.parametrize("name", PROPER)
def test_multiclass_rows_not_summing_to_one(name: str) -> None:
    df = set_row(_multi(), "p2", 0.4, 5)  # row 5 sums to 0.7
    expect_error(lambda: MULTI_FRONT[name](df, MAP), "do not sum to 1", "row 5")


@pytest.mark.parametrize("value", [1.5, -0.1])
@pytest.mark.parametrize("name", PROPER)
def test_multiclass_probability_outside_0_1(name: str, value: float) -> None:
    df = set_row(_multi(), "p1", value, 2)
    expect_error(lambda: MULTI_FRONT[name](df, MAP), "'p1'", "outside [0, 1]")


@pytest.mark.parametrize("form", ["list", "array"])
@pytest.mark.parametrize("name", list(MULTI_FRONT))
def test_list_and_array_probability_columns(name: str, form: str) -> None:
    """SPEC §3: multiclass scores may be one List/Array column with labels=; the answer is
    the mapping's."""
    df = _multi().with_columns(pl.concat_list("p0", "p1", "p2").alias("P"))
    if form == "array":
        df = df.with_columns(pl.col("P").cast(pl.Array(pl.Float64, 3)))
    expected = MULTI_FRONT[name](_multi(), MAP)
    kind, got = outcome(lambda: MULTI_FRONT[name](df, "P", labels=[0, 1, 2]))
    assert kind == "ok", f"a {form} column with labels= was refused: {got}"
    assert_frames(got, expected, name)


def test_multiclass_numbers_match_scikit_learn() -> None:
    y = _multi()["y"].to_numpy()
    out = ce.metrics(_multi(), "y", score=MAP, metrics=["auroc", "log_loss", "brier"])
    assert close(out["auroc"].item(), sk(skm.roc_auc_score, y, PROBS, multi_class="ovr"))
    assert close(out["log_loss"].item(), sk(skm.log_loss, y, PROBS))
    assert close(out["brier"].item(), sk(skm.brier_score_loss, y, PROBS))


MAPPING_KEYS = [
    ({"0": "p0", "1": "p1", "2": "p2"}, "'0'"),
    ({0.5: "p0", 1: "p1", 2: "p2"}, "0.5"),
    ({None: "p0", 1: "p1", 2: "p2"}, "None"),
]
KEY_CASES = [(m, says, name) for m, says in MAPPING_KEYS for name in MULTI_FRONT]


@pytest.mark.parametrize(
    ("mapping", "says", "name"), KEY_CASES, ids=[f"{s}-{n}" for _, s, n in KEY_CASES]
)
def test_mapping_keys_of_the_wrong_kind(mapping: dict, says: str, name: str) -> None:
    """Keys are classes of y: text keys for integer labels, a fraction that is no class of y
    (it leaves class 0 without a column) or None are InputErrors naming the key."""
    expect_error(lambda: MULTI_FRONT[name](_multi(), mapping), says)


@pytest.mark.parametrize("name", list(MULTI_FRONT))
def test_mapping_without_a_class_present_in_y(name: str) -> None:
    """reliability §7 #14: a class of y without a probability column is an error (the rows
    are not silently left out)."""
    expect_error(lambda: MULTI_FRONT[name](_multi(), {0: "p0", 1: "p1"}), "'y'", "2")


@pytest.mark.parametrize("mapping", [{}, {0: "p0"}], ids=["empty", "one"])
@pytest.mark.parametrize("name", list(MULTI_FRONT))
def test_mapping_with_fewer_than_two_classes(mapping: dict, name: str) -> None:
    expect_error(lambda: MULTI_FRONT[name](_multi(), mapping))


# --- huge class counts ---------------------------------------------------------------------------

K = 20_000


def _many() -> pl.DataFrame:
    y = list(range(K))
    return pl.DataFrame({"y": y, "yhat": [(i + 1) % K if i % 3 else i for i in y]})


@pytest.mark.parametrize("engine", ["polars", "sql"])
def test_many_classes_give_linear_output(engine: str) -> None:
    df = _many()
    counts = (ce.counts if engine == "polars" else ce.sql.counts)(df, "y", "yhat")
    assert counts.height == K
    mets = (ce.metrics if engine == "polars" else ce.sql.metrics)(df, "y", "yhat",
                                                                   average="macro")  # fmt: skip
    y, yhat = df["y"].to_numpy(), df["yhat"].to_numpy()
    assert close(mets["accuracy"].item(), sk(skm.accuracy_score, y, yhat))
    assert close(mets["f1"].item(), sk(skm.f1_score, y, yhat, average="macro"))
    subset = (ce.confusion_matrix if engine == "polars" else ce.sql.confusion_matrix)(
        df, "y", "yhat", labels=[0, 3]
    )
    assert subset.height == 4


def test_many_classes_report() -> None:
    rep = ce.report(_many(), "y", "yhat")
    assert rep.table.height == K + 3
