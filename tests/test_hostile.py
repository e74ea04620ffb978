"""Hostile input on every Python surface: one bad-input contract, one message per input.

Each family of bad data or bad arguments runs on every surface of ``hostile_surfaces`` that
can receive it (frame functions, ``.clf``, ``clfeval.sql.*`` on a Polars frame and on a DuckDB
table with ``con=``, ``report_html``; LazyFrames for what the schema shows). The contract:

* the call raises ``clfeval.InputError`` (a ValueError) whose text names the culprit, and no
  raw Polars, DuckDB or Python exception (PanicException included) reaches the user;
* surfaces computing the same thing (twins) give the same message for the same input;
* a bad input never turns into a number; a good but odd input gives scikit-learn's number.

Other files: ``test_hostile_values.py`` (numbers, drops, lazy frames, odd labels),
``test_hostile_exprs.py`` (expressions), ``test_hostile_sql.py`` (raw macros, generated SQL,
connections and table names), ``test_hostile_cli.py`` (the command line).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import polars as pl
import pytest
from hostile_surfaces import (
    HOSTILE,
    INF,
    LAZY,
    NAN,
    POLARS,
    SQL,
    SURFACES,
    Surface,
    assert_frames,
    base,
    expect_error,
    ids,
    of,
    outcome,
    set_row,
    twins,
)

import clfeval as ce

ALL_KINDS = {"label", "score", "proba", "y"}
SCORES = {"score", "proba"}


@dataclass(frozen=True)
class Bad:
    """One bad input: a change to ``base()``, the call's arguments, what the message names."""

    id: str
    kinds: set[str]
    make: Callable[[pl.DataFrame], pl.DataFrame] = lambda df: df
    kw: dict[str, Any] = field(default_factory=dict)
    needs: frozenset[str] = frozenset()
    says: tuple[str, ...] = ()
    y: Any = "y"
    x: Any = None
    polars_only: bool = False  # the input cannot be a DuckDB table (Enum, Null dtype...)
    schema: bool = False  # visible in the schema: a LazyFrame raises the same at call time
    reads_x: bool = False  # the culprit is the x column: not for kind "y" surfaces
    text: bool = False  # text labels: surfaces that take pos_label get pos_label="b"

    def surfaces(self, pool: list[Surface]) -> list[Surface]:
        found = of(self.kinds, self.needs, pool)
        if self.polars_only:
            found = [s for s in found if s.engine != "table"]
        if self.reads_x:
            found = [s for s in found if s.kind != "y"]
        return found

    def call(self, s: Surface) -> Any:
        kw = dict(self.kw)
        if self.text and "pos_label" in s.opts:
            kw.setdefault("pos_label", "b")
        return s.run(self.make(base()), self.y, self.x, **kw)


W = frozenset({"weight"})
enum = pl.Enum(["b", "a"])


def _text_labels(df: pl.DataFrame) -> pl.DataFrame:
    names = {0: "a", 1: "b"}
    return df.with_columns(
        pl.col("y").replace_strict(names, return_dtype=pl.String),
        pl.col("yhat").replace_strict(names, return_dtype=pl.String),
    )


def _enum_labels(df: pl.DataFrame) -> pl.DataFrame:
    return _text_labels(df).with_columns(pl.col("y").cast(enum), pl.col("yhat").cast(enum))


# fmt: off
BAD: list[Bad] = [
    # --- weights
    Bad("weight-negative", ALL_KINDS, lambda d: set_row(d, "w", -1.0), {"weight": "w"}, W,
        ("'w' (weight)", "1 negative value(s)", "rows 0")),
    Bad("weight-nan", ALL_KINDS, lambda d: set_row(d, "w", NAN), {"weight": "w"}, W,
        ("'w' (weight)", "NaN")),
    Bad("weight-inf", ALL_KINDS, lambda d: set_row(d, "w", INF), {"weight": "w"}, W,
        ("'w' (weight)", "infinite")),
    Bad("weight-minus-inf", ALL_KINDS, lambda d: set_row(d, "w", -INF), {"weight": "w"}, W,
        ("'w' (weight)",)),
    Bad("weight-null", ALL_KINDS, lambda d: set_row(d, "w", None), {"weight": "w"}, W,
        ("'w' (weight)", "null")),
    Bad("weight-all-zero", ALL_KINDS, lambda d: d.with_columns(w=pl.lit(0.0)),
        {"weight": "w"}, W, ("'w' (weight)", "0")),
    Bad("weight-overflow", ALL_KINDS, lambda d: d.with_columns(w=pl.lit(1.5e308)),
        {"weight": "w"}, W, ("'w' (weight)", "float64")),
    Bad("weight-text", ALL_KINDS, lambda d: d.with_columns(pl.col("w").cast(pl.String)),
        {"weight": "w"}, W, ("'w' (weight)", "String"), schema=True),
    Bad("weight-bool", ALL_KINDS, lambda d: d.with_columns(w=pl.col("y") == 1),
        {"weight": "w"}, W, ("'w' (weight)", "Boolean"), schema=True),
    # --- scores and probabilities
    Bad("score-nan", SCORES, lambda d: set_row(d, "s", NAN), says=("'s'", "NaN", "nonfinite")),
    Bad("score-inf", SCORES, lambda d: set_row(d, "s", INF), says=("'s'", "infinite")),
    Bad("score-minus-inf", SCORES, lambda d: set_row(d, "s", -INF), says=("'s'", "infinite")),
    Bad("score-null", SCORES, lambda d: set_row(d, "s", None), says=("'s'", "null")),
    Bad("score-text", SCORES, lambda d: d.with_columns(pl.col("s").cast(pl.String)),
        says=("'s'", "String"), schema=True),
    Bad("score-bool", SCORES, lambda d: d.with_columns(s=pl.col("y") == 1),
        says=("'s'", "Boolean"), schema=True),
    Bad("proba-above-1", {"proba"}, lambda d: set_row(d, "s", 1.5),
        says=("'s'", "outside [0, 1]", "1.5")),
    Bad("proba-below-0", {"proba"}, lambda d: set_row(d, "s", -0.2),
        says=("'s'", "outside [0, 1]", "-0.2")),
    Bad("proba-just-above-1", {"proba"}, lambda d: set_row(d, "s", 1 + 1e-12),
        says=("'s'", "outside [0, 1]")),
    # --- labels
    Bad("y-null", ALL_KINDS, lambda d: set_row(d, "y", None), says=("'y' (y)", "null")),
    Bad("y-nan", ALL_KINDS, lambda d: set_row(d, "y", NAN), says=("'y' (y)", "null")),
    Bad("y-fraction", ALL_KINDS, lambda d: set_row(d, "y", 0.7),
        says=("'y' (y)", "non-integral", "rows 0")),
    Bad("y-inf", ALL_KINDS, lambda d: set_row(d, "y", INF), says=("'y' (y)", "infinite")),
    Bad("y-date", ALL_KINDS, lambda d: d.with_columns(pl.col("y").cast(pl.Date)),
        says=("'y' (y)", "Date"), schema=True),
    Bad("y-list", ALL_KINDS, lambda d: d.with_columns(pl.concat_list("y").alias("y")),
        says=("'y' (y)", "List"), schema=True),
    Bad("y-struct", ALL_KINDS, lambda d: d.with_columns(pl.struct("y").alias("y")),
        says=("'y' (y)", "Struct"), schema=True),
    Bad("yhat-null", {"label"}, lambda d: set_row(d, "yhat", None),
        says=("'yhat' (yhat)", "null")),
    Bad("yhat-fraction", {"label"}, lambda d: set_row(d, "yhat", 0.5),
        says=("'yhat' (yhat)", "non-integral")),
    Bad("yhat-text-vs-int", {"label"}, lambda d: d.with_columns(pl.col("yhat").cast(pl.String)),
        says=("'y'", "'yhat'", "different kinds"), schema=True),
    Bad("y-text-vs-int", {"label"}, lambda d: d.with_columns(pl.col("y").cast(pl.String)),
        says=("'y'", "'yhat'", "different kinds"), schema=True),
    Bad("y-bool-vs-text", {"label"},
        lambda d: d.with_columns(pl.col("y") == 1, pl.col("yhat").cast(pl.String)),
        says=("'y'", "'yhat'", "different kinds"), schema=True),
    Bad("enum-vs-other-enum", {"label"},
        lambda d: _enum_labels(d).with_columns(pl.col("yhat").cast(pl.String).cast(
            pl.Enum(["a", "b"]))),
        says=("'yhat'", "Enum"), polars_only=True, schema=True, text=True),
    Bad("enum-vs-unknown-text", {"label"},
        lambda d: set_row(_enum_labels(d).with_columns(pl.col("yhat").cast(pl.String)),
                          "yhat", "zz"),
        says=("'yhat'", "Enum"), polars_only=True, text=True),
    Bad("enum-vs-int", {"label"},
        lambda d: _enum_labels(d).with_columns(yhat=pl.Series([0, 1] * 4)),
        says=("'y'", "'yhat'", "different kinds"), polars_only=True, schema=True, text=True),
    # --- columns
    Bad("y-missing", ALL_KINDS, y="label", says=("'label' (y) not found", "'yhat'"),
        schema=True),
    Bad("x-missing", ALL_KINDS - {"y"}, x="nope", says=("'nope'", "not found"), schema=True,
        reads_x=True),
    Bad("weight-missing", ALL_KINDS, kw={"weight": "wt"}, needs=W,
        says=("'wt' (weight) not found",), schema=True),
    Bad("by-missing", ALL_KINDS, kw={"by": "grp"}, says=("'grp' (by) not found",), schema=True),
    Bad("y-empty-name", ALL_KINDS, y="", says=("y must be a column name", "''"), schema=True),
    Bad("y-int-name", ALL_KINDS, y=1, says=("y must be a column name", "got 1"), schema=True),
    Bad("y-none-name", ALL_KINDS, y=None, says=("y", "None"), schema=True),
    Bad("y-list-name", ALL_KINDS, y=["y"], says=("y", "['y']"), schema=True),
    Bad("x-empty-name", ALL_KINDS - {"y"}, x="", says=("must be a column name", "''"),
        schema=True, reads_x=True),
    Bad("x-int-name", ALL_KINDS - {"y"}, x=3, says=("3", "column name"), schema=True,
        reads_x=True),
    Bad("weight-empty-name", ALL_KINDS, kw={"weight": ""}, needs=W,
        says=("weight must be a column name",), schema=True),
    Bad("weight-int-name", ALL_KINDS, kw={"weight": 1}, needs=W,
        says=("weight must be a column name", "1"), schema=True),
    Bad("weight-list-name", ALL_KINDS, kw={"weight": ["w"]}, needs=W,
        says=("weight", "['w']"), schema=True),
    Bad("y-hostile-missing", ALL_KINDS, y=HOSTILE, says=(repr(HOSTILE), "not found"),
        schema=True),
    Bad("y-script-missing", ALL_KINDS, y="</script>", says=("'</script>' (y) not found",),
        schema=True),
    Bad("y-unicode-missing", ALL_KINDS, y="ÿ名", says=("'ÿ名' (y) not found",), schema=True),
    Bad("y-trailing-space", ALL_KINDS, y="y ", says=("'y ' (y) not found", "did you mean 'y'"),
        schema=True),
    Bad("y-other-case", ALL_KINDS, y="Y", says=("'Y' (y) not found", "did you mean 'y'"),
        schema=True),
    # --- by
    Bad("by-empty-name", ALL_KINDS, kw={"by": ""}, says=("by", "''"), schema=True),
    Bad("by-int", ALL_KINDS, kw={"by": 1}, says=("by=1",), schema=True),
    Bad("by-twice", ALL_KINDS, kw={"by": ["g", "g"]}, says=("'g'", "twice"), schema=True),
    Bad("by-is-y", ALL_KINDS, kw={"by": "y"}, says=("'y'", "collides"), schema=True),
    Bad("by-is-x", ALL_KINDS - {"y"}, kw={"by": "PLACEHOLDER_X"}, says=("collides",),
        schema=True, reads_x=True),
    Bad("by-is-weight", ALL_KINDS, kw={"by": "w", "weight": "w"}, needs=W,
        says=("'w'", "collides with the weight column"), schema=True),
    Bad("by-reserved-prefix", ALL_KINDS, lambda d: d.rename({"g": "__clf_g"}),
        {"by": "__clf_g"}, says=("'__clf_g'", "__clf_"), schema=True),
    # --- pos_label
    Bad("pos-absent", ALL_KINDS, kw={"pos_label": 2}, needs=frozenset({"pos_label"}),
        says=("pos_label=2",)),
    Bad("pos-text-for-int", ALL_KINDS, kw={"pos_label": "1"}, needs=frozenset({"pos_label"}),
        says=("pos_label='1'",), schema=True),
    Bad("pos-nan", ALL_KINDS, kw={"pos_label": NAN}, needs=frozenset({"pos_label"}),
        says=("pos_label=nan",), schema=True),
    Bad("pos-none", ALL_KINDS, kw={"pos_label": None}, needs=frozenset({"pos_label"}),
        says=("pos_label=None",), schema=True),
    Bad("pos-list", ALL_KINDS, kw={"pos_label": [1]}, needs=frozenset({"pos_label"}),
        says=("pos_label=[1]",), schema=True),
    Bad("pos-int-for-text", ALL_KINDS, _text_labels, {}, frozenset({"pos_label"}),
        ("pos_label=1",), schema=True),
    Bad("pos-hostile-text", ALL_KINDS, _text_labels, {"pos_label": "</script>"},
        frozenset({"pos_label"}), ("pos_label='</script>'",)),
    Bad("pos-enum-absent", ALL_KINDS, _enum_labels, {"pos_label": "z"},
        frozenset({"pos_label"}), ("pos_label='z'",), polars_only=True, schema=True),
    Bad("pos-two-for-bool", ALL_KINDS,
        lambda d: d.with_columns(pl.col("y") == 1, pl.col("yhat") == 1),
        {"pos_label": 2}, frozenset({"pos_label"}), ("pos_label=2",), schema=True),
    # --- labels=
    Bad("labels-empty", {"label", "y"}, kw={"labels": []}, needs=frozenset({"labels"}),
        says=("labels=[]",), schema=True),
    Bad("labels-twice", {"label", "y"}, kw={"labels": [1, 0, 1]}, needs=frozenset({"labels"}),
        says=("1 twice",), schema=True),
    Bad("labels-one-and-one-point-zero", {"label", "y"}, kw={"labels": [1, 1.0]},
        needs=frozenset({"labels"}), says=("twice",), schema=True),
    Bad("labels-absent", {"label", "y"}, kw={"labels": [7, 8]}, needs=frozenset({"labels"}),
        says=("[7, 8]",)),
    Bad("labels-text-for-int", {"label", "y"}, kw={"labels": ["0", "1"]},
        needs=frozenset({"labels"}), says=("labels='0'",), schema=True),
    Bad("labels-a-string", {"label", "y"}, kw={"labels": "01"}, needs=frozenset({"labels"}),
        says=("labels='01'",), schema=True),
    Bad("labels-nested", {"label", "y"}, kw={"labels": [[0], [1]]},
        needs=frozenset({"labels"}), says=("labels=[0]",), schema=True),
    Bad("labels-nan", {"label", "y"}, kw={"labels": [0, NAN]}, needs=frozenset({"labels"}),
        says=("labels=nan",), schema=True),
    Bad("labels-mapping", {"label", "y"}, kw={"labels": {0: "a"}},
        needs=frozenset({"labels"}), says=("labels={0: 'a'}",), schema=True),
    Bad("labels-enum-absent", {"label", "y"}, _enum_labels, {"labels": ["a", "z"]},
        frozenset({"labels"}), ("'z'",), polars_only=True, schema=True, text=True),
    # --- empty input
    Bad("zero-rows", ALL_KINDS, lambda d: d.head(0), says=("no rows to evaluate",)),
    Bad("zero-rows-after-drop", ALL_KINDS, lambda d: d.with_columns(y=pl.lit(None, pl.Int64)),
        {"missing": "drop"}, says=("no rows to evaluate", "leaving out 8")),
    Bad("zero-rows-after-nonfinite-drop", SCORES, lambda d: d.with_columns(s=pl.lit(NAN)),
        {"nonfinite": "drop"}, frozenset({"nonfinite"}), ("no rows to evaluate", "leaving out 8")),
]
# fmt: on


def _fix(bad: Bad, s: Surface) -> Bad:
    if bad.kw.get("by") == "PLACEHOLDER_X":
        x = "yhat" if s.kind == "label" else "s"
        return Bad(**{**bad.__dict__, "kw": {"by": x}, "says": (repr(x), "collides")})
    return bad


# .clf methods are one-line delegates: the twin tests below hold them to the function's text
PRIMARY = [s for s in SURFACES if not s.name.startswith("clf.")]
CASES = [(bad, s) for bad in BAD for s in bad.surfaces(PRIMARY)]
LAZY_PRIMARY = [s for s in LAZY if not s.name.startswith("lazy.clf.")]
LAZY_CASES = [(bad, s) for bad in BAD if bad.schema for s in bad.surfaces(LAZY_PRIMARY)]


@pytest.mark.parametrize(("bad", "surface"), CASES, ids=[f"{b.id}-{s.name}" for b, s in CASES])
def test_bad_input_is_an_input_error_naming_the_culprit(bad: Bad, surface: Surface) -> None:
    bad = _fix(bad, surface)
    expect_error(lambda: bad.call(surface), *bad.says)


@pytest.mark.parametrize(
    ("bad", "surface"), LAZY_CASES, ids=[f"{b.id}-{s.name}" for b, s in LAZY_CASES]
)
def test_lazyframes_raise_schema_problems_when_called(bad: Bad, surface: Surface) -> None:
    """What the schema shows is checked when a LazyFrame function is called."""
    bad = _fix(bad, surface)
    expect_error(lambda: bad.call(surface), *bad.says)


TWIN_CASES = [
    (bad, name, group)
    for bad in BAD
    for name, group in twins().items()
    if len([s for s in group if s in bad.surfaces(SURFACES)]) > 1
]


@pytest.mark.parametrize(
    ("bad", "twin", "group"), TWIN_CASES, ids=[f"{b.id}-{t}" for b, t, _ in TWIN_CASES]
)
def test_twins_give_the_same_message(bad: Bad, twin: str, group: list[Surface]) -> None:
    """The frame function, .clf, clfeval.sql on a frame and on a table: one text."""
    texts = {}
    for s in group:
        if s not in bad.surfaces(SURFACES):
            continue
        kind, value = outcome(lambda s=s: _fix(bad, s).call(s))
        texts[s.name] = str(value) if kind == "error" else f"<no error: {kind}>"
    assert len(set(texts.values())) == 1, "\n".join(f"{k}: {v!r}" for k, v in texts.items())


# --- bad options ------------------------------------------------------------------------------

OPTIONS: list[tuple[str, list[Any], str]] = [
    ("zero_division", [7, NAN, True, "0", -1, [0]], "zero_division="),
    ("beta", [-1, NAN, "2", None, [1]], "beta="),
    ("kappa_weights", ["cubic", 1, "Linear", ["linear"]], "kappa_weights="),
    ("adjusted", ["yes", 1, None], "adjusted="),
    ("average", ["samples", "", 1, "BINARY", ["macro"]], "average="),
    ("missing", ["keep", None, True, ""], "missing="),
    ("nonfinite", ["keep", None, False], "nonfinite="),
    ("normalize", ["rows", True, 1, ""], "normalize="),
    ("wide", ["yes", 1, None], "wide="),
    ("digits", [-1, 16, 2.0, True, "2", 10**100], "digits="),
    ("target_names", [["a"], "ab", [1, 2]], "target_names"),
    ("n_bins", [0, -1, 10**8, 2.5, True, "10"], "n_bins="),
    ("strategy", ["x", None, "UNIFORM"], "strategy="),
    ("drop_intermediate", ["yes", 1, None], "drop_intermediate="),
    ("n", [0, 1, -1, 2.5, 10**9, True], "n="),
    ("min_precision", [1.5, -0.1, NAN, "0.5"], "min_precision="),
    ("min_recall", [1.5, -0.1, NAN, "0.5"], "min_recall="),
    ("metric", ["nope", ["f1"], "", None], "metric="),
    ("metrics", ["accuracy", [], ["accuracy", "accuracy"], ["nope"], [1]], "metrics"),
    ("title", [5, ["t"]], "title"),
    ("con", ["x", 1], "con"),
]
OPTION_CASES = [
    (opt, value, says, s)
    for opt, values, says in OPTIONS
    for value in values
    for s in SURFACES
    if opt in s.opts
]


@pytest.mark.parametrize(
    ("opt", "value", "says", "surface"),
    OPTION_CASES,
    ids=[f"{o}={v!r}-{s.name}" for o, v, _, s in OPTION_CASES],
)
def test_bad_option_names_the_option(opt: str, value: Any, says: str, surface: Surface) -> None:
    expect_error(lambda: surface.run(base(), **{opt: value}), says)


OPTION_TWINS = [
    (opt, value, name, [s for s in group if opt in s.opts])
    for opt, values, _ in OPTIONS
    for value in values
    for name, group in twins().items()
    if len([s for s in group if opt in s.opts]) > 1 and opt != "average"
]


@pytest.mark.parametrize(
    ("opt", "value", "twin", "group"),
    OPTION_TWINS,
    ids=[f"{o}={v!r}-{t}" for o, v, t, _ in OPTION_TWINS],
)
def test_twins_give_the_same_option_message(
    opt: str, value: Any, twin: str, group: list[Surface]
) -> None:
    texts = {}
    for s in group:
        kind, out = outcome(lambda s=s: s.run(base(), **{opt: value}))
        texts[s.name] = str(out) if kind == "error" else "<no error>"
    assert len(set(texts.values())) == 1, "\n".join(f"{k}: {v!r}" for k, v in texts.items())


# --- the data argument ---------------------------------------------------------------------------


class NotAFrame:
    """Looks like pandas to a duck-typer (columns, shape) but offers no Arrow stream."""

    columns: ClassVar[list[str]] = ["y", "yhat", "s"]
    shape = (8, 3)


class ArrowStream:
    """An object with only the Arrow PyCapsule stream interface (what pandas >= 2.2 has)."""

    def __init__(self, df: pl.DataFrame) -> None:
        self._table = df.to_arrow()

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self._table.__arrow_c_stream__(requested_schema)


NOT_DATA = [({"y": [0, 1]}, "dict"), (None, "NoneType"), ([0, 1], "list"), (7, "int"),
            (NotAFrame(), "NotAFrame")]  # fmt: skip
FUNCTIONS = [s for s in [*POLARS, *SQL] if not s.name.startswith("clf.")]  # .clf needs a frame
DATA_CASES = [(v, t, s) for v, t in NOT_DATA for s in FUNCTIONS]


@pytest.mark.parametrize(
    ("data", "type_name", "surface"),
    DATA_CASES,
    ids=[f"{t}-{s.name}" for _, t, s in DATA_CASES],
)
def test_data_that_is_not_a_frame(data: Any, type_name: str, surface: Surface) -> None:
    expect_error(lambda: surface.run(data), "data", type_name)


POLARS_FUNCTIONS = [s for s in FUNCTIONS if s.engine == "polars"]


@pytest.mark.parametrize("surface", POLARS_FUNCTIONS, ids=ids(POLARS_FUNCTIONS))
def test_a_string_is_not_data_for_polars_functions(surface: Surface) -> None:
    expect_error(lambda: surface.run("preds"), "data", "str")


ARROW = [s for s in POLARS_FUNCTIONS if s.name != "report_html"]


@pytest.mark.parametrize("surface", ARROW, ids=ids(ARROW))
def test_arrow_stream_objects_are_frames(surface: Surface) -> None:
    """SPEC §10: frame functions accept any object with the Arrow PyCapsule stream interface
    (pandas, PyArrow, Polars); the result is the Polars frame's."""
    expected = surface.run(base())
    kind, got = outcome(lambda: surface.run(ArrowStream(base())))
    assert kind == "ok", f"an Arrow stream was refused: {got}"
    assert_frames(got, expected, "Arrow stream")


@pytest.mark.parametrize("surface", ARROW, ids=ids(ARROW))
def test_pyarrow_tables_are_frames(surface: Surface) -> None:
    expected = surface.run(base())
    kind, got = outcome(lambda: surface.run(base().to_arrow()))
    assert kind == "ok", f"a pyarrow Table was refused: {got}"
    assert_frames(got, expected, "pyarrow Table")


# --- names: group columns named like outputs, internal names, case, hostile text ----------------

OUTPUT_NAMES = [
    "label", "actual", "predicted", "count", "tp", "support", "accuracy", "f1", "threshold",
    "fpr", "bin", "fraction_targeted", "auroc", "log_loss", "n_excluded", "strategy",
]  # fmt: skip
GROUPED = [s for s in PRIMARY if "by" in s.opts and s.name != "report_html"]
BY_CASES = [(s, name) for s in GROUPED for name in OUTPUT_NAMES]


def _grouped(s: Surface, df: pl.DataFrame, by: str) -> Any:
    kw: dict[str, Any] = {"by": by}
    if "missing" in s.opts and s.kind != "y":
        kw["missing"] = "drop"  # metrics add n_excluded
    return s.run(df, **kw)


_EXPECTED: dict[tuple[str, str], Any] = {}


def expected_of(s: Surface, how: str, fn: Callable[[], Any]) -> Any:
    """The answer on the plain frame, computed once per surface."""
    key = (s.name, how)
    if key not in _EXPECTED:
        _EXPECTED[key] = fn()
    return _EXPECTED[key]


@pytest.mark.parametrize(("surface", "name"), BY_CASES, ids=[f"{n}-{s.name}" for s, n in BY_CASES])
def test_group_column_named_like_an_output(surface: Surface, name: str) -> None:
    """Output never overwrites input: a group column named like a column of the result is an
    InputError naming it, or it comes back unchanged (the result equals grouping by 'g')."""
    kind, got = outcome(lambda: _grouped(surface, base().rename({"g": name}), name))
    if kind == "error":
        assert repr(name) in str(got), str(got)
        return
    expected = expected_of(surface, "by", lambda: _grouped(surface, base(), "g"))
    assert got.columns == [name if c == "g" else c for c in expected.columns], got.columns
    assert_frames(got.rename({name: "g"}), expected, f"by={name!r}")


CM_OPTIONS = [{"normalize": "true"}, {"normalize": "all"}, {"wide": True}]
CM_CASES = [(kw, name) for kw in CM_OPTIONS for name in ["count", "value", "actual", "0", "1"]]


@pytest.mark.parametrize(("kw", "name"), CM_CASES, ids=[f"{n}-{k}" for k, n in CM_CASES])
def test_confusion_matrix_group_named_like_its_columns(kw: dict[str, Any], name: str) -> None:
    """normalize= adds 'value' (and works from 'count'); wide=True names columns after the
    classes: a group column with one of those names must not be overwritten."""
    kind, got = outcome(
        lambda: ce.confusion_matrix(base().rename({"g": name}), "y", "yhat", by=name, **kw)
    )
    if kind == "error":
        assert repr(name) in str(got), str(got)
        return
    expected = ce.confusion_matrix(base(), "y", "yhat", by="g", **kw)
    assert got.columns == [name if c == "g" else c for c in expected.columns], got.columns
    assert_frames(got.rename({name: "g"}), expected, f"by={name!r}")


INTERNAL = ["__clf_n", "__clf_s", "__clf_w", "__clf_pos", "__clf_yhat_copy", "__clf_k"]
ROLE_COLUMNS = {"y": "y", "x": None, "weight": "w"}
INTERNAL_CASES = [
    (s, role, name)
    for s in PRIMARY
    if s.name != "report_html" and s.engine != "table"
    for role in ROLE_COLUMNS
    if not (role == "x" and s.kind == "y") and not (role == "weight" and "weight" not in s.opts)
    for name in (INTERNAL if s.engine == "polars" else INTERNAL[:1])
]


@pytest.mark.parametrize(
    ("surface", "role", "name"),
    INTERNAL_CASES,
    ids=[f"{n}-as-{r}-{s.name}" for s, r, n in INTERNAL_CASES],
)
def test_columns_named_like_internal_columns(surface: Surface, role: str, name: str) -> None:
    """A user column named like clfeval's working columns (``__clf_*``): the right answer, or
    an InputError naming the column (clfeval.sql reserves the prefix). Never a raw error."""
    x = "yhat" if surface.kind == "label" else "s"
    column = ROLE_COLUMNS[role] or x
    df = base().rename({column: name})
    args = {"y": "y", "x": x}
    kw: dict[str, Any] = {"weight": "w"} if "weight" in surface.opts else {}
    if role == "weight":
        kw["weight"] = name
    else:
        args[role] = name
    kind, got = outcome(lambda: surface.run(df, args["y"], args["x"], **kw))
    if kind == "error":
        assert repr(name) in str(got), str(got)
        return
    assert surface.engine == "polars", "clfeval.sql reserves the prefix '__clf_'"
    plain = {"weight": "w"} if "weight" in kw else {}
    expected = expected_of(surface, "plain-w", lambda: surface.run(base(), "y", x, **plain))
    assert_frames(got, expected, f"{name} as {role}")


NAMED = [s for s in PRIMARY if s.kind != "y" and s.name != "report_html"]
CASE_SURFACES = [s for s in NAMED if s.engine != "table"]  # DuckDB cannot hold y and Y


@pytest.mark.parametrize("surface", CASE_SURFACES, ids=ids(CASE_SURFACES))
def test_names_that_differ_only_in_case(surface: Surface) -> None:
    """Polars tells y from Y; DuckDB does not, so clfeval.sql refuses them by name."""
    x = "yhat" if surface.kind == "label" else "s"
    df = base().rename({x: "Y"})
    kind, got = outcome(lambda: surface.run(df, "y", "Y"))
    if surface.engine == "sql":
        assert kind == "error", got
        assert "'Y'" in str(got), str(got)
        assert "case" in str(got), str(got)
        return
    assert kind == "ok", got
    assert_frames(got, surface.run(base()), "y and Y")


HOSTILE_NAMES = {"y": HOSTILE, "yhat": "</script> 'p'", "s": 'sc"ore; --', "w": "w\tñ 名",
                 "g": "SELECT * FROM t"}  # fmt: skip


@pytest.mark.parametrize("surface", NAMED, ids=ids(NAMED))
def test_hostile_column_names_give_the_plain_answer(surface: Surface) -> None:
    """Quotes, SQL, markup, tabs and unicode in every column name: the same numbers."""
    x = "yhat" if surface.kind == "label" else "s"
    kw: dict[str, Any] = {"by": HOSTILE_NAMES["g"]}
    plain: dict[str, Any] = {"by": "g"}
    if "weight" in surface.opts:
        kw["weight"], plain["weight"] = HOSTILE_NAMES["w"], "w"
    renames = dict(HOSTILE_NAMES)
    if surface.name == "report[score]":
        renames.pop("yhat")  # it reads yhat by its plain name
    df = base().rename(renames)
    kind, got = outcome(lambda: surface.run(df, HOSTILE_NAMES["y"], renames.get(x, x), **kw))
    assert kind == "ok", got
    expected = surface.run(base(), "y", x, **plain)
    assert_frames(got.rename({HOSTILE_NAMES["g"]: "g"}), expected, "hostile names")


def _hostile_labels(df: pl.DataFrame) -> pl.DataFrame:
    names = {0: HOSTILE, 1: "</script><b>x</b>"}
    return df.with_columns(
        pl.col("y").replace_strict(names, return_dtype=pl.String),
        pl.col("yhat").replace_strict(names, return_dtype=pl.String),
    )


LABEL_COLUMNS = ("label", "actual", "predicted", "strategy")


@pytest.mark.parametrize("surface", NAMED, ids=ids(NAMED))
def test_hostile_label_text_gives_the_numeric_answer(surface: Surface) -> None:
    """Labels that are SQL, markup and quotes: the numbers of the 0/1 labels, in class order."""
    kw = {"pos_label": "</script><b>x</b>"} if "pos_label" in surface.opts else {}
    kind, got = outcome(lambda: surface.run(_hostile_labels(base()), **kw))
    assert kind == "ok", got
    expected = surface.run(base())
    keep = [c for c in expected.columns if c not in LABEL_COLUMNS]
    assert_frames(got.select(keep), expected.select(keep), "hostile labels")
    for c in LABEL_COLUMNS:
        if c in got.columns and c in expected.columns and c != "strategy":
            assert got[c].cast(pl.String).to_list()[:2] != [None, None]
