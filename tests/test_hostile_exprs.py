"""Hostile input to the expressions (``ce.f1("y", "yhat")`` in select / group_by / over).

Expressions run inside other people's queries, so the contract is split: a bad OPTION (or a
column argument that cannot be a column) raises InputError when the expression is built,
with the message the frame functions give for the same option; bad DATA never raises and
never gives a number: a negative, NaN or infinite weight, or a probability outside [0, 1],
makes the value null; a null or a NaN probability only leaves its row out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest
import sklearn.metrics as skm
from hostile_surfaces import INF, NAN, base, close, expect_error, outcome, set_row

import clfeval as ce

Build = Callable[..., pl.Expr]

MAP = {0: "s0", 1: "s"}


def frame() -> pl.DataFrame:
    return base().with_columns(s0=1 - pl.col("s"))


# name -> (builder taking weight=..., reads a probability)
EXPRS: dict[str, tuple[Build, bool]] = {
    "accuracy": (lambda **kw: ce.accuracy("y", "yhat", **kw), False),
    "balanced_accuracy": (lambda **kw: ce.balanced_accuracy("y", "yhat", **kw), False),
    "balanced_accuracy_adjusted": (
        lambda **kw: ce.balanced_accuracy("y", "yhat", adjusted=True, **kw),
        False,
    ),
    "precision": (lambda **kw: ce.precision("y", "yhat", **kw), False),
    "recall_micro": (lambda **kw: ce.recall("y", "yhat", average="micro", **kw), False),
    "f1": (lambda **kw: ce.f1("y", "yhat", **kw), False),
    "f1_macro": (lambda **kw: ce.f1("y", "yhat", average="macro", **kw), False),
    "f1_per_class": (lambda **kw: ce.f1("y", "yhat", average=None, **kw), False),
    "fbeta": (lambda **kw: ce.fbeta("y", "yhat", beta=2.0, **kw), False),
    "specificity": (lambda **kw: ce.specificity("y", "yhat", **kw), False),
    "npv": (lambda **kw: ce.npv("y", "yhat", **kw), False),
    "fpr": (lambda **kw: ce.fpr("y", "yhat", **kw), False),
    "fnr": (lambda **kw: ce.fnr("y", "yhat", **kw), False),
    "jaccard_weighted": (lambda **kw: ce.jaccard("y", "yhat", average="weighted", **kw), False),
    "mcc": (lambda **kw: ce.mcc("y", "yhat", **kw), False),
    "cohen_kappa": (lambda **kw: ce.cohen_kappa("y", "yhat", **kw), False),
    "cohen_kappa_quadratic": (
        lambda **kw: ce.cohen_kappa("y", "yhat", weights="quadratic", **kw),
        False,
    ),
    "prevalence": (lambda **kw: ce.prevalence("y", **kw), False),
    "auroc": (lambda **kw: ce.auroc("y", "s", **kw), False),
    "auroc_partial": (lambda **kw: ce.auroc("y", "s", max_fpr=0.5, **kw), False),
    "auroc_multiclass": (lambda **kw: ce.auroc("y", MAP, **kw), False),
    "average_precision": (lambda **kw: ce.average_precision("y", "s", **kw), False),
    "ks": (lambda **kw: ce.ks("y", "s", **kw), False),
    "top_k_accuracy": (
        lambda **kw: ce.top_k_accuracy("y", ["s0", "s"], labels=[0, 1], k=1, **kw),
        False,
    ),
    "log_loss": (lambda **kw: ce.log_loss("y", "s", **kw), True),
    "log_loss_multiclass": (lambda **kw: ce.log_loss("y", MAP, **kw), True),
    "brier": (lambda **kw: ce.brier("y", "s", **kw), True),
    "brier_multiclass": (lambda **kw: ce.brier("y", MAP, **kw), True),
    "ece": (lambda **kw: ce.ece("y", "s", **kw), True),
    "ece_max": (lambda **kw: ce.ece("y", "s", kind="max", **kw), True),
}
PROBA = [name for name, (_, p) in EXPRS.items() if p]


def value(expr: pl.Expr, df: pl.DataFrame | None = None) -> Any:
    kind, out = outcome(lambda: (frame() if df is None else df).select(expr))
    assert kind == "ok", f"an expression raised on data: {out}"
    return out.item()


# --- data: null, never a number -------------------------------------------------------------------

BAD_WEIGHTS = {"negative": -1.0, "nan": NAN, "inf": INF, "minus-inf": -INF, "huge-negative": -1e300}
W_CASES = [(name, w) for name in EXPRS for w in BAD_WEIGHTS]


@pytest.mark.parametrize(("name", "bad"), W_CASES, ids=[f"{n}-{w}" for n, w in W_CASES])
def test_bad_weight_makes_the_value_null(name: str, bad: str) -> None:
    build, _ = EXPRS[name]
    df = set_row(frame(), "w", BAD_WEIGHTS[bad], 3)
    assert value(build(weight="w"), df) is None


@pytest.mark.parametrize("name", list(EXPRS))
def test_bad_weight_nulls_only_its_own_group(name: str) -> None:
    """In group_by().agg() the group holding the bad weight is null; the other group keeps
    the value the expression gives on that group alone."""
    build, _ = EXPRS[name]
    df = set_row(frame(), "w", -1.0, 0)  # row 0 is in group a
    out = df.group_by("g").agg(build(weight="w").alias("v")).sort("g")
    got = dict(out.rows())
    assert got["a"] is None, got
    expected = frame().filter(pl.col("g") == "b").select(build(weight="w")).item()
    if isinstance(expected, pl.Series):  # average=None: one value per class
        expected = expected.to_list()
        got["b"] = list(got["b"])
        assert all(close(a, b) for a, b in zip(got["b"], expected)), (got["b"], expected)
    else:
        assert close(got["b"], expected), (got["b"], expected)


@pytest.mark.parametrize("name", list(EXPRS))
def test_bad_weight_in_over_and_lazy_streaming(name: str) -> None:
    build, _ = EXPRS[name]
    if name == "f1_per_class":
        return  # a list per group: over() broadcasts lists differently
    df = set_row(frame(), "w", NAN, 0)
    over = df.select(build(weight="w").over("g").alias("v"), "g")
    assert over.filter(pl.col("g") == "a")["v"].to_list() == [None] * 4
    lazy = df.lazy().select(build(weight="w")).collect(engine="streaming")
    assert lazy.item() is None


OUT_OF_RANGE = {"1.5": 1.5, "-0.2": -0.2, "1+1e-12": 1 + 1e-12, "inf": INF, "-inf": -INF}
P_CASES = [(name, p) for name in PROBA for p in OUT_OF_RANGE]


@pytest.mark.parametrize(("name", "p"), P_CASES, ids=[f"{n}-{p}" for n, p in P_CASES])
def test_probability_outside_0_1_makes_the_value_null(name: str, p: str) -> None:
    build, _ = EXPRS[name]
    df = set_row(frame(), "s", OUT_OF_RANGE[p], 2)
    assert value(build(), df) is None


SCORED = ["auroc", "auroc_partial", "auroc_multiclass", "average_precision", "ks",
          "top_k_accuracy", *PROBA]  # fmt: skip


@pytest.mark.parametrize("hole", ["nan", "null"])
@pytest.mark.parametrize("name", SCORED)
def test_nan_or_null_score_leaves_its_row_out(name: str, hole: str) -> None:
    build, _ = EXPRS[name]
    df = set_row(frame(), "s", NAN if hole == "nan" else None, 2)
    if name == "top_k_accuracy" or name.endswith("multiclass"):
        df = set_row(df, "s0", NAN if hole == "nan" else None, 2)
    got = value(build(), df)
    expected = value(build(), frame().filter(pl.int_range(pl.len()) != 2))
    assert close(got, expected), (got, expected)


@pytest.mark.parametrize("name", [n for n in EXPRS if n != "f1_per_class"])
def test_null_weight_leaves_its_row_out(name: str) -> None:
    build, _ = EXPRS[name]
    got = value(build(weight="w"), set_row(frame(), "w", None, 5))
    expected = value(build(weight="w"), frame().filter(pl.int_range(pl.len()) != 5))
    assert close(got, expected), (got, expected)


def _sk(fn: Any, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def test_huge_weights_keep_scikit_learns_numbers() -> None:
    df = frame()
    y, yhat, s, w = (df[c].to_numpy() for c in ("y", "yhat", "s", "w"))
    big = df.with_columns(pl.col("w") * 1e300)
    checks = {
        "mcc": (ce.mcc("y", "yhat", weight="w"), _sk(skm.matthews_corrcoef, y, yhat,
                                                     sample_weight=w)),
        "kappa": (ce.cohen_kappa("y", "yhat", weight="w"),
                  _sk(skm.cohen_kappa_score, y, yhat, sample_weight=w)),
        "auroc": (ce.auroc("y", "s", weight="w"), _sk(skm.roc_auc_score, y, s, sample_weight=w)),
        "ap": (ce.average_precision("y", "s", weight="w"),
               _sk(skm.average_precision_score, y, s, sample_weight=w)),
        "log_loss": (ce.log_loss("y", "s", weight="w"), _sk(skm.log_loss, y, s, sample_weight=w)),
        "f1": (ce.f1("y", "yhat", weight="w"), _sk(skm.f1_score, y, yhat, sample_weight=w)),
    }  # fmt: skip
    for name, (expr, expected) in checks.items():
        assert close(value(expr, big), expected), name


MIXED_KINDS = {
    "f1-text-y-default-pos": (lambda: ce.f1("y", "yhat"), ("y", "yhat")),
    "auroc-text-y-default-pos": (lambda: ce.auroc("y", "s"), ("y",)),
    "log_loss-text-y-default-pos": (lambda: ce.log_loss("y", "s"), ("y",)),
    "prevalence-text-y-default-pos": (lambda: ce.prevalence("y"), ("y",)),
    "auroc-text-y-int-keys": (lambda: ce.auroc("y", {0: "s0", 1: "s"}), ("y",)),
    "brier-text-y-int-keys": (lambda: ce.brier("y", {0: "s0", 1: "s"}), ("y",)),
    "auroc-int-y-text-keys": (lambda: ce.auroc("y", {"0": "s0", "1": "s"}), ()),
    "accuracy-int-y-text-yhat": (lambda: ce.accuracy("y", "yhat"), ("yhat",)),
    "f1-macro-int-y-text-yhat": (lambda: ce.f1("y", "yhat", average="macro"), ("yhat",)),
    "mcc-int-y-text-yhat": (lambda: ce.mcc("y", "yhat"), ("yhat",)),
    "kappa-int-y-text-yhat": (lambda: ce.cohen_kappa("y", "yhat"), ("yhat",)),
    "recall-int-y-text-pos": (lambda: ce.recall("y", "yhat", pos_label="1"), ()),
}


@pytest.mark.parametrize("name", list(MIXED_KINDS))
def test_labels_of_another_kind_never_give_a_number(name: str) -> None:
    """The dtypes are known only when the query runs: text never equals a number, so the
    answer is an error then (any), or null; never a number from a cast or a comparison."""
    build, as_text = MIXED_KINDS[name]
    df = frame().with_columns(pl.col(c).cast(pl.String) for c in as_text)
    try:
        got = df.select(build()).item()
    except (Exception, pl.exceptions.PanicException):
        return
    assert got is None, f"{name} gave {got!r}"


# --- options: InputError when built, the frame functions' text -------------------------------------

OPTIONS: list[tuple[str, Build, list[Any], str]] = [
    ("zero_division", lambda v: ce.f1("y", "yhat", zero_division=v), [7, NAN, True, "0"],
     "zero_division="),
    ("average", lambda v: ce.precision("y", "yhat", average=v), ["samples", "", 1, "BINARY"],
     "average="),
    ("average-score", lambda v: ce.auroc("y", MAP, average=v), ["binary", "samples", 1],
     "average="),
    ("pos_label", lambda v: ce.recall("y", "yhat", pos_label=v), [NAN, [1], None, {}],
     "pos_label="),
    ("pos_label-score", lambda v: ce.auroc("y", "s", pos_label=v), [NAN, [1], None],
     "pos_label="),
    ("pos_label-proba", lambda v: ce.log_loss("y", "s", pos_label=v), [NAN, [1], None],
     "pos_label="),
    ("pos_label-prevalence", lambda v: ce.prevalence("y", pos_label=v), [NAN, [1], None],
     "pos_label="),
    ("labels", lambda v: ce.f1("y", "yhat", average="macro", labels=v),
     [[], [1, 1], "01", [NAN], [[0]], {0: 1}], "labels"),
    ("labels-kappa", lambda v: ce.cohen_kappa("y", "yhat", labels=v), [[], [1, 1], "01"],
     "labels"),
    ("beta", lambda v: ce.fbeta("y", "yhat", beta=v), [-1, NAN, "2", None], "beta="),
    ("n_bins", lambda v: ce.ece("y", "s", n_bins=v), [0, -1, 10**8, 2.5, True], "n_bins="),
    ("max_fpr", lambda v: ce.auroc("y", "s", max_fpr=v), [0, 1.5, -0.1, NAN, "0.5"], "max_fpr="),
    ("multi_class", lambda v: ce.auroc("y", MAP, multi_class=v), ["raise", None, "OVR"],
     "multi_class="),
    ("k", lambda v: ce.top_k_accuracy("y", ["s0", "s"], labels=[0, 1], k=v),
     [0, -1, 2.5, True, "2"], "k="),
    ("weights", lambda v: ce.cohen_kappa("y", "yhat", weights=v), ["cubic", 1, True],
     "weights="),
    ("adjusted", lambda v: ce.balanced_accuracy("y", "yhat", adjusted=v), ["yes", 1, None],
     "adjusted="),
    ("kind", lambda v: ce.ece("y", "s", kind=v), ["x", None], "kind="),
]  # fmt: skip
OPTION_CASES = [(o, b, v, says) for o, b, values, says in OPTIONS for v in values]


@pytest.mark.parametrize(
    ("opt", "build", "bad", "says"),
    OPTION_CASES,
    ids=[f"{o}={v!r}" for o, _, v, _ in OPTION_CASES],
)
def test_bad_option_raises_when_the_expression_is_built(
    opt: str, build: Build, bad: Any, says: str
) -> None:
    expect_error(lambda: build(bad), says)


# the frame function taking the same option: its message must be the expression's
FRAME_TWINS: dict[str, Callable[[Any], Any]] = {
    "zero_division": lambda v: ce.metrics(base(), "y", "yhat", zero_division=v),
    "average": lambda v: ce.metrics(base(), "y", "yhat", average=v),
    "pos_label-score": lambda v: ce.roc_curve(base(), "y", "s", pos_label=v),
    "pos_label-proba": lambda v: ce.calibration(base(), "y", "s", pos_label=v),
    "labels": lambda v: ce.metrics(base(), "y", "yhat", average="macro", labels=v),
    "beta": lambda v: ce.metrics(base(), "y", "yhat", beta=v),
    "n_bins": lambda v: ce.calibration(base(), "y", "s", n_bins=v),
}
TWIN_CASES = [c for c in OPTION_CASES if c[0] in FRAME_TWINS]


@pytest.mark.parametrize(
    ("opt", "build", "bad", "says"),
    TWIN_CASES,
    ids=[f"{o}={v!r}" for o, _, v, _ in TWIN_CASES],
)
def test_expression_and_frame_function_give_one_message(
    opt: str, build: Build, bad: Any, says: str
) -> None:
    expr_err = expect_error(lambda: build(bad), says)
    frame_err = expect_error(lambda: FRAME_TWINS[opt](bad), says)
    assert str(expr_err) == str(frame_err)


# --- column arguments: checked when built, never a raw error ----------------------------------

COLUMNS: list[tuple[str, Callable[[Any], pl.Expr], str]] = [
    ("y", lambda v: ce.f1(v, "yhat"), "y"),
    ("yhat", lambda v: ce.accuracy("y", v), "yhat"),
    ("y-auroc", lambda v: ce.auroc(v, "s"), "y"),
    ("score", lambda v: ce.auroc("y", v), "score"),
    ("proba", lambda v: ce.log_loss("y", v), "proba"),
    ("weight", lambda v: ce.f1("y", "yhat", weight=v), "weight"),
    ("weight-auroc", lambda v: ce.auroc("y", "s", weight=v), "weight"),
    ("weight-brier", lambda v: ce.brier("y", "s", weight=v), "weight"),
]
NOT_COLUMNS = [("int", 1), ("none", None), ("empty", ""), ("list", ["y", "s"]), ("float", 2.5)]
COLUMN_CASES = [
    (role, build, says, label, v)
    for role, build, says in COLUMNS
    for label, v in NOT_COLUMNS
    if not (v is None and role.startswith("weight"))  # weight=None means no weight
    and not (isinstance(v, list) and role in ("score", "proba"))  # a list of class columns
]


@pytest.mark.parametrize(
    ("role", "build", "says", "label", "bad"),
    COLUMN_CASES,
    ids=[f"{r}-{lab}" for r, _, _, lab, _ in COLUMN_CASES],
)
def test_column_argument_that_cannot_be_a_column(
    role: str, build: Callable[[Any], pl.Expr], says: str, label: str, bad: Any
) -> None:
    """An int, None, '', a list or a float where a column name (or expression) belongs:
    InputError naming the argument when the expression is built, not an AttributeError or
    a ColumnNotFoundError when it runs."""
    expect_error(lambda: build(bad), says)


def test_expressions_are_accepted_where_columns_are() -> None:
    df = frame()
    got = df.select(ce.f1(pl.col("y"), pl.col("yhat") * 1, weight=pl.col("w") * 2)).item()
    assert close(got, df.select(ce.f1("y", "yhat", weight="w")).item())
