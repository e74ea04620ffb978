"""The bad-input contract (reliability.md §7.1) for label metrics at the front door.

Each test asserts ``clfeval.InputError`` (a ``ValueError``), its ``.rule``, ``.column`` and
``.role``, that the message names the column or value, and that ``str(err)`` ends with a
blank line and a ``Hint:``. No raw Polars error may reach the user.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import assert_same

import clfeval as ce
from clfeval import InputError, _validate

Front = Callable[..., Any]

# every label front door, called as f(frame, y, yhat, **kw)
FRONT: dict[str, Front] = {
    "confusion_matrix": lambda df, y, yhat, **kw: ce.confusion_matrix(df, y, yhat, **kw),
    "confusion_matrix_wide": lambda df, y, yhat, **kw: ce.confusion_matrix(
        df, y, yhat, wide=True, **kw
    ),
    "counts": lambda df, y, yhat, **kw: ce.counts(df, y, yhat, **kw),
    "metrics": lambda df, y, yhat, **kw: ce.metrics(df, y, yhat, average="macro", **kw),
    "report": lambda df, y, yhat, **kw: ce.report(df, y, yhat, **kw),
    "clf.metrics": lambda df, y, yhat, **kw: df.clf.metrics(y, yhat, average="macro", **kw),
    "clf.confusion_matrix": lambda df, y, yhat, **kw: df.clf.confusion_matrix(y, yhat, **kw),
}


def frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "label": [0, 1, 1, 2, 0, 2, 1],
            "pred": [0, 1, 2, 2, 0, 1, 1],
            "w": [1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 0.5],
            "grp": ["a", "b", "a", "b", "a", "b", None],
        }
    )


def raises(
    fn: Callable[[], Any],
    rule: str,
    *,
    column: str | None = None,
    role: str | None = None,
    says: tuple[str, ...] = (),
) -> InputError:
    """Call ``fn``; assert it raised InputError with these fields and message parts."""
    with pytest.raises(InputError) as info:
        fn()
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule == rule, (err.rule, str(err))
    if column is not None:
        assert err.column == column
    if role is not None:
        assert err.role == role
    text = str(err)
    for part in says:
        assert part in text, (part, text)
    assert err.message[:1] == err.message[:1].lower(), err.message  # no sentence case
    assert re.search(r"\n\nHint: .+$", text), text
    return err


# --- columns ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("front", list(FRONT))
@pytest.mark.parametrize(
    ("role", "kw", "missing", "close"),
    [
        ("y", {"y": "lable"}, "lable", "label"),
        ("yhat", {"yhat": "prd"}, "prd", "pred"),
        ("weight", {"weight": "wt"}, "wt", None),
        ("by", {"by": "grop"}, "grop", "grp"),
    ],
)
def test_missing_column(
    front: str, role: str, kw: dict[str, str], missing: str, close: str | None
) -> None:
    """A missing column names itself and its role, lists the frame's columns and suggests
    the closest one."""
    args = {"y": "label", "yhat": "pred", **kw}
    y, yhat = args.pop("y"), args.pop("yhat")
    err = raises(
        lambda: FRONT[front](frame(), y, yhat, **args),
        "missing_column",
        column=missing,
        role=role,
        says=(repr(missing),),
    )
    assert "['label', 'pred', 'w', 'grp']" in err.hint
    if close is not None:
        assert f"did you mean {close!r}" in err.hint


def _sentinel_lazyframe() -> tuple[pl.LazyFrame, list[int]]:
    """A LazyFrame whose schema is known but whose data raises if it is ever read."""
    reads: list[int] = []

    def read(df: pl.DataFrame) -> pl.DataFrame:
        reads.append(1)
        raise RuntimeError("the data was read")

    lf = frame().lazy().map_batches(read, schema=frame().schema)
    return lf, reads


@pytest.mark.parametrize(
    "call",
    [
        lambda lf: ce.metrics(lf, "label", "pred_"),
        lambda lf: ce.counts(lf, "lable", "pred"),
        lambda lf: ce.confusion_matrix(lf, "label", "pred", weight="weight"),
        lambda lf: ce.baseline(lf, "y"),
        lambda lf: lf.clf.metrics("label", "pred", by="group"),
    ],
)
def test_lazyframe_missing_column_raises_at_call_time_without_reading(call: Front) -> None:
    """A LazyFrame is checked against its schema when the function is called; no data is
    read (the source raises if it is)."""
    lf, reads = _sentinel_lazyframe()
    with pytest.raises(InputError) as info:
        call(lf)
    assert info.value.rule == "missing_column"
    assert reads == []


@pytest.mark.parametrize(
    "call",
    [
        lambda lf: ce.metrics(lf, "label", "pred", average="macro"),
        lambda lf: ce.counts(lf, "label", "pred", by="grp"),
        lambda lf: ce.confusion_matrix(lf, "label", "pred", normalize="true"),
        lambda lf: ce.confusion_matrix(lf, "label", "pred", wide=True, labels=[0, 1, 2]),
        lambda lf: ce.baseline(lf, "label", average="macro"),
        lambda lf: lf.select(ce.f1("label", "pred", average="macro")),
    ],
)
def test_lazyframe_in_lazyframe_out_reads_nothing(call: Front) -> None:
    """Lazy in, lazy out: the call builds a plan and reads no data until it is collected."""
    lf, reads = _sentinel_lazyframe()
    out = call(lf)
    assert isinstance(out, pl.LazyFrame)
    assert reads == []
    with pytest.raises(Exception, match="the data was read"):
        out.collect()


# --- label dtypes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("front", list(FRONT))
def test_int_vs_string_labels(front: str) -> None:
    """Int y with String yhat: no silent cast ('01' is not 1); both columns and dtypes named."""
    df = frame().with_columns(pl.col("pred").cast(pl.String))
    raises(
        lambda: FRONT[front](df, "label", "pred"),
        "dtype_mismatch",
        column="pred",
        role="yhat",
        says=("'label'", "'pred'", "Int64", "String"),
    )


@pytest.mark.parametrize("front", list(FRONT))
def test_non_integral_float_labels(front: str) -> None:
    """A float label column with fractions (a score passed as yhat) is rejected with the count
    and the first rows."""
    df = frame().with_columns(pl.col("pred") + pl.Series([0.0, 0.5, 0, 0.25, 0, 0, 0]))
    raises(
        lambda: FRONT[front](df, "label", "pred"),
        "continuous_labels",
        column="pred",
        role="yhat",
        says=("'pred'", "2 non-integral", "rows 1, 3"),
    )


def test_integral_floats_bool_and_uint_are_accepted() -> None:
    """Integral floats, bools vs 0/1 ints and unsigned ints compare as numbers (sklearn)."""
    df = frame()
    expected = ce.metrics(df, "label", "pred", average="macro")
    as_float = df.with_columns(pl.col("label").cast(pl.Float64), pl.col("pred").cast(pl.UInt8))
    assert_same(
        list(ce.metrics(as_float, "label", "pred", average="macro").row(0)), list(expected.row(0))
    )
    binary = pl.DataFrame({"y": [True, False, True], "p": [1, 0, 0]})
    out = ce.metrics(binary, "y", "p", metrics=["accuracy", "recall"], pos_label=True)
    assert_same(list(out.row(0)), [2 / 3, 0.5])


def test_enum_vs_string_with_unknown_value() -> None:
    """Enum y with a String yhat holding a value that is no category: the String column is
    named, with the count and rows, instead of Polars' cast error."""
    enum = pl.Enum(["cat", "dog"])
    df = pl.DataFrame(
        {"y": ["cat", "dog", "dog"], "p": ["cat", "cow", "dog"]},
        schema={"y": enum, "p": pl.String},
    )
    for front in FRONT.values():
        raises(
            lambda front=front: front(df, "y", "p"),
            "unknown_category",
            column="p",
            role="yhat",
            says=("'p'", "1 value", "rows 1"),
        )
    swapped = df.select(pl.col("p").alias("y"), pl.col("y").alias("p"))
    raises(lambda: ce.counts(swapped, "y", "p"), "unknown_category", column="y", role="y")


def test_enum_vs_string_known_values_are_accepted() -> None:
    """Enum vs String (or Categorical) with known values: compared through the Enum."""
    enum = pl.Enum(["dog", "cat"])
    df = pl.DataFrame(
        {"y": ["cat", "dog", "dog"], "p": ["cat", "cat", "dog"]},
        schema={"y": enum, "p": pl.String},
    )
    out = ce.counts(df, "y", "p")
    assert out["label"].to_list() == ["dog", "cat"]  # the Enum's order
    assert out["tp"].to_list() == [1, 1]


def test_enums_with_different_categories() -> None:
    enum_a, enum_b = pl.Enum(["a", "b"]), pl.Enum(["b", "a", "c"])
    df = pl.DataFrame({"y": ["a", "b"], "p": ["b", "b"]}, schema={"y": enum_a, "p": enum_b})
    raises(
        lambda: ce.counts(df, "y", "p"),
        "enum_mismatch",
        column="p",
        role="yhat",
        says=("'y'", "'p'"),
    )


def test_non_label_dtype() -> None:
    df = pl.DataFrame({"y": [[0], [1]], "p": [0, 1]})
    raises(lambda: ce.counts(df, "y", "p"), "dtype", column="y", role="y", says=("List",))


# --- nulls and missing= --------------------------------------------------------------------------


def _with_nulls(col: str, rows: list[int]) -> pl.DataFrame:
    df = frame()
    mask = pl.Series([i in rows for i in range(df.height)])
    return df.with_columns(pl.when(mask).then(None).otherwise(pl.col(col)).alias(col))


@pytest.mark.parametrize("front", list(FRONT))
@pytest.mark.parametrize(("col", "role"), [("label", "y"), ("pred", "yhat"), ("w", "weight")])
def test_nulls_raise_with_count_and_rows(front: str, col: str, role: str) -> None:
    df = _with_nulls(col, [2, 5])
    raises(
        lambda: FRONT[front](df, "label", "pred", weight="w"),
        "null",
        column=col,
        role=role,
        says=(f"'{col}'", f"({role})", "2 null", "rows 2, 5", "missing='drop'"),
    )


def test_null_rows_beyond_five_are_elided() -> None:
    df = pl.DataFrame({"y": [None] * 7 + [1], "p": [1] * 8}, schema={"y": pl.Int64, "p": pl.Int64})
    raises(
        lambda: ce.counts(df, "y", "p"),
        "null",
        column="y",
        says=("7 null", "rows 0, 1, 2, 3, 4, ..."),
    )


def test_nan_in_a_float_label_column_is_a_null() -> None:
    df = pl.DataFrame({"y": [0.0, 1.0, float("nan")], "p": [0, 1, 1]})
    raises(lambda: ce.counts(df, "y", "p"), "null", column="y", role="y", says=("1 null", "rows 2"))
    kept = ce.counts(df, "y", "p", missing="drop")
    assert kept["support"].to_list() == [1, 1]


@pytest.mark.parametrize("col", ["label", "pred", "w"])
def test_missing_drop_equals_prefiltered_and_reports_n_excluded(col: str) -> None:
    """``missing="drop"`` gives the result on the pre-filtered frame and ``n_excluded``."""
    df = _with_nulls(col, [1, 4])
    clean = df.drop_nulls(["label", "pred", "w"])
    out = ce.metrics(df, "label", "pred", average="weighted", weight="w", missing="drop")
    assert out.columns[0] == "n_excluded"
    assert out["n_excluded"].item() == 2
    expected = ce.metrics(clean, "label", "pred", average="weighted", weight="w")
    assert out.drop("n_excluded").equals(expected)
    for fn in (ce.counts, ce.confusion_matrix):
        assert fn(df, "label", "pred", weight="w", missing="drop").equals(
            fn(clean, "label", "pred", weight="w")
        )
    rep = ce.report(df, "label", "pred", weight="w", missing="drop")
    assert rep.n_excluded == 2
    assert str(rep) == str(ce.report(clean, "label", "pred", weight="w"))


def test_everything_dropped_or_empty() -> None:
    """No row to evaluate (an empty frame, or nothing left after dropping) is an error."""
    empty = frame().clear()
    raises(lambda: ce.metrics(empty, "label", "pred"), "empty", says=("no rows",))
    all_null = frame().with_columns(pl.lit(None, pl.Int64).alias("pred"))
    raises(lambda: ce.counts(all_null, "label", "pred", missing="drop"), "empty", says=("7",))


def test_all_zero_weights_are_empty() -> None:
    """All weights 0 leave nothing to evaluate (§7.1 #8; scikit-learn raises too)."""
    df = frame().with_columns(pl.lit(0.0).alias("w"))
    raises(lambda: ce.metrics(df, "label", "pred", average="macro", weight="w"), "empty")


# --- weights -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("front", list(FRONT))
@pytest.mark.parametrize(
    ("value", "rule", "text"),
    [
        (-1.0, "negative_weight", "1 negative"),
        (float("nan"), "nan", "1 NaN"),
        (float("inf"), "inf", "1 infinite"),
    ],
)
def test_bad_weights(front: str, value: float, rule: str, text: str) -> None:
    """Negative, NaN and infinite weights raise (scikit-learn accepts negative ones; clfeval
    requires weights >= 0 by design, §7.1 #12–13), also with missing='drop'."""
    df = frame().with_columns(
        pl.when(pl.int_range(pl.len()) == 3).then(value).otherwise(pl.col("w")).alias("w")
    )
    for missing in ("raise", "drop"):
        err = raises(
            lambda missing=missing: FRONT[front](df, "label", "pred", weight="w", missing=missing),
            rule,
            column="w",
            role="weight",
            says=("'w'", text, "rows 3"),
        )
        # the fix for a weight is not the score switch nonfinite='drop' (it does not apply)
        assert "nonfinite" not in (err.hint or "")


def test_weight_must_be_numeric() -> None:
    df = frame().with_columns(pl.col("w").cast(pl.String))
    raises(
        lambda: ce.counts(df, "label", "pred", weight="w"),
        "dtype",
        column="w",
        role="weight",
        says=("String",),
    )


# --- pos_label, average, labels ------------------------------------------------------------------


def test_pos_label_absent() -> None:
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 0, 1]})
    raises(
        lambda: ce.metrics(df, "y", "p", pos_label=2),
        "pos_label",
        column="y",
        role="pos_label",
        says=("pos_label=2", "[0, 1]"),
    )
    strings = pl.DataFrame({"y": ["neg", "pos"], "p": ["neg", "neg"]})
    raises(
        lambda: ce.metrics(strings, "y", "p"), "pos_label", says=("pos_label=1", "'neg'", "'pos'")
    )
    raises(lambda: ce.baseline(df, "y", pos_label="yes"), "pos_label", role="pos_label")
    raises(lambda: df.clf.metrics("y", "p", metrics=["precision"], pos_label=7), "pos_label")
    # scikit-learn's rule: with a single class in the data an absent pos_label is accepted
    # (its ratios are zero_division), as precision_score([0, 0], [0, 0], pos_label=1)
    one = pl.DataFrame({"y": [0, 0], "p": [0, 0]})
    out = ce.metrics(one, "y", "p", metrics=["precision", "recall"], zero_division=None)
    assert out.row(0) == (None, None)


def test_binary_average_on_multiclass() -> None:
    df = pl.DataFrame({"y": [0, 1, 2], "p": [0, 1, 1]})
    raises(
        lambda: ce.metrics(df, "y", "p"),
        "multiclass_binary",
        column="y",
        role="y",
        says=("3 classes", "average='binary'"),
    )
    raises(lambda: ce.baseline(df, "y", metrics=["f1"]), "multiclass_binary")
    # a class only in yhat makes it multiclass too (scikit-learn: the union of both)
    only_pred = pl.DataFrame({"y": [0, 1, 1], "p": [0, 2, 1]})
    raises(lambda: ce.metrics(only_pred, "y", "p"), "multiclass_binary")


@pytest.mark.parametrize("front", [*FRONT, "baseline"])
@pytest.mark.parametrize(
    ("labels", "rule", "text"),
    [
        ([], "labels_empty", "labels=[]"),
        ([1, 0, 1], "labels_duplicate", "1 twice"),
        ([7, 8], "labels_absent", "[7, 8]"),
    ],
)
def test_bad_labels(front: str, labels: list[int], rule: str, text: str) -> None:
    df = frame()
    if front == "baseline":
        fn: Front = lambda: ce.baseline(df, "label", labels=labels, average="macro")  # noqa: E731
    else:
        fn = lambda: FRONT[front](df, "label", "pred", labels=labels)  # noqa: E731
    raises(fn, rule, role="labels", says=(text,))


def test_labels_present_only_in_yhat_are_enough() -> None:
    """clfeval asks for a listed class in y or yhat (scikit-learn's confusion_matrix: y)."""
    df = pl.DataFrame({"y": [0, 0], "p": [0, 5]})
    out = ce.confusion_matrix(df, "y", "p", labels=[5])
    assert out.rows() == [(5, 5, 0)]


# --- options -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "role", "value"),
    [
        (lambda df: ce.metrics(df, "label", "pred", average="samples"), "average", "'samples'"),
        (lambda df: ce.baseline(df, "label", average="avg"), "average", "'avg'"),
        (
            lambda df: ce.metrics(df, "label", "pred", average=None, zero_division="warn"),
            "zero_division",
            "'warn'",
        ),
        (lambda df: ce.report(df, "label", "pred", zero_division=2), "zero_division", "2"),
        (
            lambda df: ce.confusion_matrix(df, "label", "pred", normalize="rows"),
            "normalize",
            "'rows'",
        ),
        (lambda df: ce.confusion_matrix(df, "label", "pred", normalize=True), "normalize", "True"),
        (lambda df: ce.counts(df, "label", "pred", missing="ignore"), "missing", "'ignore'"),
        (lambda df: ce.metrics(df, "label", "pred", missing=None), "missing", "None"),
        (lambda df: ce.report(df, "label", "pred", missing="skip"), "missing", "'skip'"),
        (lambda df: ce.baseline(df, "label", missing="keep"), "missing", "'keep'"),
    ],
)
def test_bad_option_values(call: Front, role: str, value: str) -> None:
    raises(lambda: call(frame()), "option", role=role, says=(value, role))


def test_wide_on_a_lazyframe_needs_labels() -> None:
    """wide=True on a LazyFrame: its columns are the classes, unknown before reading, so
    labels= is required (with them the result stays lazy, see above)."""
    lf, reads = _sentinel_lazyframe()
    raises(
        lambda: ce.confusion_matrix(lf, "label", "pred", wide=True),
        "wide_lazy",
        role="labels",
        says=("labels=",),
    )
    assert reads == []


def test_other_front_door_errors() -> None:
    df = frame()
    raises(
        lambda: ce.metrics(df, "label", "pred", metrics=["auc"]),
        "unknown_metric",
        role="metrics",
        says=("'auc'",),
    )
    raises(lambda: ce.metrics(df.to_dict(), "label", "pred"), "data_type", says=("dict",))
    raises(
        lambda: ce.report(df, "label", "pred", target_names=["a", "b"]),
        "target_names",
        says=("2 names", "3 classes"),
    )


def test_same_column_as_y_and_yhat_is_not_a_raw_polars_error() -> None:
    """y and yhat may be the same column (§7.1 #23: allowed; a warning is allowed)."""
    df = frame()
    copy = df.with_columns(pl.col("label").alias("label2"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (ce.counts, ce.confusion_matrix):
            assert fn(df, "label", "label").equals(fn(copy, "label", "label2"))
        same = ce.metrics(df, "label", "label", average="macro")
        assert same.equals(ce.metrics(copy, "label", "label2", average="macro"))


def test_error_text_format() -> None:
    """Lowercase message naming the column, then a blank line and the hint."""
    with pytest.raises(InputError) as info:
        ce.counts(frame(), "lable", "pred")
    text = str(info.value)
    first, hint = text.split("\n\n")
    assert first == "column 'lable' (y) not found"
    assert hint.startswith("Hint: ")


# --- the clean pass against the exact pass -------------------------------------------------------

_VALUES = st.sampled_from([0.0, 0.25, 1.0, -0.5, 1.5, float("nan"), float("inf"), -float("inf")])


@settings(max_examples=150, deadline=None)
@given(
    y=st.lists(st.sampled_from([0, 1, 2]), min_size=0, max_size=8),
    scores=st.lists(st.one_of(st.none(), _VALUES), min_size=8, max_size=8),
    weights=st.lists(st.sampled_from([0.0, 1.0, 2.5, -1.0, float("nan")]), min_size=8, max_size=8),
    pos_label=st.sampled_from([0, 1, 2, 3]),
    probability=st.booleans(),
    weighted=st.booleans(),
)
@example([0, 1, 2], [0.5] * 8, [1.0] * 8, 1, True, True)  # pos_label inside y: the exact pass
@example([0, 1], [0.5, 2.0] + [0.5] * 6, [1.0] * 8, 1, True, False)  # outside [0, 1]
@example([0, 1], [-float("inf")] + [0.5] * 7, [1.0] * 8, 1, False, False)
@example([0, 1], [0.5] * 8, [-1.0] + [1.0] * 7, 0, False, True)  # a negative weight
@example([0, 1], [0.5] * 8, [1.0] * 8, 1, True, True)  # clean: the cheap counts
def test_the_clean_pass_and_the_exact_pass_agree(
    y: list[int],
    scores: list[float | None],
    weights: list[float],
    pos_label: int,
    probability: bool,
    weighted: bool,
) -> None:
    """The cheap pass (bounds instead of masks) either finds the frame clean, and then the
    exact pass finds it clean with the same counts, or steps aside: one message either way."""
    n = len(y)
    df = pl.DataFrame(
        {"y": y, "s": scores[:n], "w": weights[:n]},
        schema={"y": pl.Int64, "s": pl.Float64, "w": pl.Float64},
    )
    kw: dict[str, Any] = {"y": "y", "score": "s", "probability": probability, "classes": False}
    kw |= {"pos_label": pos_label, "pos_in_y": True, "weight": "w" if weighted else None}

    def outcome(clean_pass: Callable[..., Any]) -> Any:
        saved = _validate._clean_pass
        _validate._clean_pass = clean_pass
        try:
            return _validate.prepare(df, **kw).n_rows
        except InputError as err:
            return str(err)
        finally:
            _validate._clean_pass = saved

    assert outcome(_validate._clean_pass) == outcome(lambda *a: None)
    if n:  # a clean frame's cheap counts are the exact ones
        plan = _validate.plan(
            df.schema,
            {"y": "y", "score": "s", **({"weight": "w"} if weighted else {})},
            cast=None,
            missing="raise",
            nonfinite="raise",
            probability=probability,
            grouped=False,
            pos_label=pos_label,
        )
        masks = [_validate._test(c, df.schema[c.column]) for c in plan.checks]
        cheap = _validate._clean_pass(df.lazy(), df.schema, plan, masks, [])
        exact = [df.select(m.fill_null(False).sum()).item() for m in masks]
        if cheap is not None:
            assert [cheap[f"n{i}"] for i in range(len(masks))] == exact == [0] * len(masks)
        else:
            assert any(exact) or pos_label not in (min(y), max(y))
