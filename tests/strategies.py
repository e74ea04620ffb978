"""Shared Hypothesis strategies: label frames with every label dtype clfeval accepts.

A drawn :class:`LabelCase` holds a Polars frame (``y``, ``yhat``, optionally ``w``, ``g``,
``score`` and ``p_0 … p_{k-1}``) and the same data as class *indices* (positions in the class
order), so a test can hand scikit-learn plain integers whose sorted order is clfeval's class
order (an Enum sorts in its category order, the rest by value) and map ``labels=`` and
``pos_label`` both ways.

Import from a test file with ``from strategies import label_cases`` (pytest puts ``tests/`` on
``sys.path``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from hypothesis import strategies as st

__all__ = [
    "ENGINES",
    "KINDS",
    "LABEL_TEXT",
    "TOL",
    "LabelCase",
    "assert_same",
    "class_values",
    "is_missing",
    "label_cases",
    "labels_option",
    "pyvalue",
    "run",
    "same",
    "select",
    "sk",
    "to_sklearn",
]

KINDS = ("int", "bool", "str", "cat", "enum")
INT_DTYPES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt32)
# label text: letters, digits, punctuation (quotes, '<', '/'), spaces and a little unicode; no
# control characters (numpy's fixed-width unicode drops a trailing NUL)
LABEL_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"), max_codepoint=0x2FFF
    ),
    min_size=1,
    max_size=6,
)


@dataclass(frozen=True)
class LabelCase:
    """One drawn evaluation: the frame and the same rows as class indices."""

    df: pl.DataFrame
    kind: str
    classes: tuple[Any, ...]  # every class value, in clfeval's class order
    y: tuple[int, ...]  # class index of each row's actual class
    yhat: tuple[int, ...]
    weight: tuple[int, ...] | None = None
    group: tuple[Any, ...] | None = None

    @property
    def w(self) -> str | None:
        """The weight column name, or None."""
        return None if self.weight is None else "w"

    @property
    def present(self) -> list[int]:
        """Indices of the classes present in y or yhat, in class order."""
        return sorted(set(self.y) | set(self.yhat))

    @property
    def sample_weight(self) -> np.ndarray | None:
        return None if self.weight is None else np.asarray(self.weight, dtype=float)

    def value(self, index: int) -> Any:
        """The label value of a class index."""
        return self.classes[index]

    def values(self, indices: Sequence[int] | None) -> list[Any] | None:
        return None if indices is None else [self.classes[i] for i in indices]

    def rows(self, mask: Sequence[bool]) -> LabelCase:
        """The sub-case of the rows where ``mask`` is true."""
        keep = [i for i, m in enumerate(mask) if m]

        def pick(t: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
            return None if t is None else tuple(t[i] for i in keep)

        return LabelCase(
            df=self.df.filter(pl.Series(list(mask))),
            kind=self.kind,
            classes=self.classes,
            y=pick(self.y),  # type: ignore[arg-type]
            yhat=pick(self.yhat),  # type: ignore[arg-type]
            weight=pick(self.weight),
            group=pick(self.group),
        )


def to_sklearn(case: LabelCase) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(y_true, y_pred, sample_weight)`` as class indices for scikit-learn."""
    return np.asarray(case.y), np.asarray(case.yhat), case.sample_weight


@st.composite
def class_values(draw: st.DrawFn, kind: str, k: int) -> tuple[tuple[Any, ...], pl.DataType]:
    """``k`` distinct class values of one kind in clfeval's class order, and their dtype."""
    if kind == "bool":
        return (False, True), pl.Boolean
    if kind == "int":
        dtype = draw(st.sampled_from(INT_DTYPES))
        lo = -100 if dtype in (pl.Int8, pl.Int16, pl.Int32, pl.Int64) else 0
        values = draw(st.lists(st.integers(lo, 120), min_size=k, max_size=k, unique=True))
        return tuple(sorted(values)), dtype
    texts = draw(st.lists(LABEL_TEXT, min_size=k, max_size=k, unique=True))
    if kind == "str":
        return tuple(sorted(texts)), pl.String
    if kind == "cat":  # Categorical sorts lexically in Polars 2.x
        return tuple(sorted(texts)), pl.Categorical()
    # Enum: the category order is the class order, and it is not the lexical order; extra,
    # never-used categories may come anywhere
    order = draw(st.permutations(texts))
    extra = draw(st.lists(LABEL_TEXT.filter(lambda t: t not in texts), max_size=2, unique=True))
    cats = list(order)
    for e in extra:
        cats.insert(draw(st.integers(0, len(cats))), e)
    return tuple(order), pl.Enum(cats)


@st.composite
def label_cases(
    draw: st.DrawFn,
    *,
    kinds: Sequence[str] = KINDS,
    min_classes: int = 2,
    max_classes: int = 8,
    min_size: int = 1,
    max_size: int = 40,
    weights: bool | None = None,
    group: bool = False,
    scores: bool = False,
    all_present: bool = False,
) -> LabelCase:
    """A frame ``y, yhat`` (+ ``w`` integer weights 0–5, ``g`` a String group with nulls,
    ``score`` on a k/8 grid and ``p_i`` per-class probabilities on a k/8 grid summing to 1).

    ``weights=None`` draws whether to add weights; ``all_present`` makes every class occur in
    y or yhat. Weighted cases always have a row with a non-zero weight (scikit-learn rejects
    all-zero weights).
    """
    kind = draw(st.sampled_from(list(kinds)))
    k = 2 if kind == "bool" else draw(st.integers(min_classes, max_classes))
    classes, dtype = draw(class_values(kind, k))
    n = draw(st.integers(max(min_size, k if all_present else 1), max_size))
    idx = st.integers(0, k - 1)
    y = draw(st.lists(idx, min_size=n, max_size=n))
    yhat = draw(st.lists(idx, min_size=n, max_size=n))
    if all_present:
        missing = sorted(set(range(k)) - set(y) - set(yhat))
        for j, c in enumerate(missing):  # put each absent class into a distinct row of y
            y[j] = c
    use_w = draw(st.booleans()) if weights is None else weights
    w = None
    if use_w:
        w = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
        if not any(w):
            w[draw(st.integers(0, n - 1))] = draw(st.integers(1, 5))
    data: dict[str, pl.Series] = {
        "y": pl.Series("y", [classes[i] for i in y], dtype=dtype),
        "yhat": pl.Series("yhat", [classes[i] for i in yhat], dtype=dtype),
    }
    if w is not None:
        data["w"] = pl.Series("w", w, dtype=pl.Int64)
    g = None
    if group:
        g = draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n))
        data["g"] = pl.Series("g", g, dtype=pl.String)
    if scores:
        data["score"] = (
            pl.Series(
                "score", draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)), pl.Float64
            )
            / 8
        )
        parts = [draw(_composition(k)) for _ in range(n)]
        for c in range(k):
            data[f"p_{c}"] = pl.Series(f"p_{c}", [p[c] / 8 for p in parts], pl.Float64)
    return LabelCase(
        df=pl.DataFrame(list(data.values())),
        kind=kind,
        classes=classes,
        y=tuple(y),
        yhat=tuple(yhat),
        weight=None if w is None else tuple(w),
        group=None if g is None else tuple(g),
    )


@st.composite
def _composition(draw: st.DrawFn, k: int) -> list[int]:
    """k non-negative integers summing to 8 (a probability row on the k/8 grid)."""
    cuts = sorted(draw(st.lists(st.integers(0, 8), min_size=k - 1, max_size=k - 1)))
    bounds = [0, *cuts, 8]
    return [bounds[i + 1] - bounds[i] for i in range(k)]


@st.composite
def labels_option(draw: st.DrawFn, case: LabelCase) -> list[int] | None:
    """A ``labels=`` choice as class indices: None, all classes reversed, a shuffled subset
    or a superset holding an absent class; always lists at least one present class."""
    present = case.present
    mode = draw(st.sampled_from(["none", "reversed", "subset", "shuffled_all"]))
    if mode == "none":
        return None
    if mode == "reversed":
        return list(range(len(case.classes)))[::-1]
    if mode == "shuffled_all":
        return list(draw(st.permutations(list(range(len(case.classes))))))
    first = draw(st.sampled_from(present))
    others = draw(
        st.lists(st.sampled_from(range(len(case.classes))), unique=True, max_size=4).filter(
            lambda xs: first not in xs
        )
    )
    subset = [first, *others]
    return list(draw(st.permutations(subset)))


# --- helpers shared by the test files ---------------------------------------------------------

ENGINES = ("eager", "lazy", "streaming")
TOL = 1e-9


def run(frame: pl.DataFrame | pl.LazyFrame, engine: str) -> pl.DataFrame:
    """Collect a frame with one engine: eager as is, lazy in memory, or streaming."""
    if isinstance(frame, pl.DataFrame):
        return frame
    if engine == "streaming":
        return frame.collect(engine="streaming")
    return frame.collect()


def select(df: pl.DataFrame, exprs: Any, engine: str = "eager") -> pl.DataFrame:
    """``df.select(exprs)`` on a DataFrame (eager) or its LazyFrame (lazy / streaming)."""
    if engine == "eager":
        return df.select(exprs)
    return run(df.lazy().select(exprs), engine)


def pyvalue(value: Any) -> Any:
    """A result cell as plain Python: a List cell (a Series) becomes a list."""
    if isinstance(value, pl.Series):
        return value.to_list()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def is_missing(value: Any) -> bool:
    """None (clfeval's undefined) or NaN (scikit-learn's)."""
    return value is None or (isinstance(value, float) and np.isnan(value))


def same(got: Any, expected: Any, tol: float = TOL) -> bool:
    """``got`` (clfeval: None for undefined) equals ``expected`` (scikit-learn: NaN for
    undefined) to ``tol``, absolute or relative; lists element by element."""
    got, expected = pyvalue(got), pyvalue(expected)
    if isinstance(expected, list) or isinstance(got, list):
        return (
            isinstance(got, list)
            and isinstance(expected, list)
            and len(got) == len(expected)
            and all(same(g, e, tol) for g, e in zip(got, expected))
        )
    if is_missing(expected) or is_missing(got):
        return got is None and is_missing(expected)
    return abs(float(got) - float(expected)) <= tol * max(1.0, abs(float(expected)))


def assert_same(got: Any, expected: Any, context: Any = "", tol: float = TOL) -> None:
    assert same(got, expected, tol), (
        f"clfeval gave {pyvalue(got)!r}, expected {pyvalue(expected)!r}; {context}"
    )


def sk(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a scikit-learn reference with its UndefinedMetricWarning/UserWarning silenced
    (pytest turns warnings into errors; the reference's warnings are not under test)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)
