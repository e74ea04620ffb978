"""The registry of Python entry points the hostile-input suite (``tests/test_hostile*.py``) runs.

Every surface is called the same way, ``surface.call(data, y, x, **kw)``: ``x`` is the
predicted-label column (kind ``label``), the score column (``score``) or the probability
column (``proba``); ``kind == "y"`` surfaces read ``y`` only. ``opts`` lists the keyword
arguments the surface takes, so a family of bad input runs on every surface that can receive
it, and a new function added to the registry is attacked by every family at once.

Engines: ``polars`` (an eager DataFrame), ``lazy`` (the same function on a LazyFrame),
``sql`` (``clfeval.sql.*`` on a Polars frame) and ``table`` (``clfeval.sql.*`` on a DuckDB
table name with ``con=``). Surfaces that compute the same thing share a ``twin`` name: the
contract gives them one message for one input, and the same numbers.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import duckdb
import polars as pl
import pytest

import clfeval as ce
from clfeval import InputError

NAN, INF = float("nan"), float("inf")
HOSTILE = '"; DROP TABLE t; --'
TOL = 1e-9

# Exceptions that must never reach a user of the front door. PanicException is a
# BaseException, so it needs its own entry.
RAW: tuple[type[BaseException], ...] = (Exception, pl.exceptions.PanicException)


def base() -> pl.DataFrame:
    """Eight rows, two classes, a score, a weight and a group column (a: 4 rows, b: 4 rows)."""
    return pl.DataFrame(
        {
            "y": [0, 1, 1, 0, 1, 0, 1, 0],
            "yhat": [0, 1, 0, 0, 1, 1, 1, 0],
            "s": [0.1, 0.8, 0.4, 0.3, 0.9, 0.6, 0.7, 0.2],
            "w": [1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.5, 1.5],
            "g": ["a", "a", "b", "b", "a", "b", "a", "b"],
        }
    )


def set_row(df: pl.DataFrame, column: str, value: Any, row: int = 0) -> pl.DataFrame:
    """``df`` with ``column[row] = value`` (the dtype widens to hold the value)."""
    values = df[column].to_list()
    values[row] = value
    dtype = df.schema[column]
    if isinstance(value, float) and dtype.is_integer():
        dtype = pl.Float64
    return df.with_columns(pl.Series(column, values, dtype=dtype, strict=False))


# --- outcomes ------------------------------------------------------------------------------


def materialize(out: Any) -> Any:
    """A comparable value: LazyFrames collected, a Report as its table, a page as its text."""
    if isinstance(out, pl.LazyFrame):
        return out.collect()
    if isinstance(out, ce.Report):
        return out.table
    if isinstance(out, ce.ReportPage):
        return out.to_html()
    return out


def first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", value)`` or ``("error", InputError)``; any other exception fails the test."""
    try:
        value = materialize(fn())
    except InputError as err:
        if not isinstance(err, ValueError):  # pragma: no cover - the class hierarchy
            pytest.fail("InputError must be a ValueError")
        return "error", err
    except RAW as err:
        pytest.fail(
            f"raw {type(err).__module__}.{type(err).__qualname__} reached the user: "
            f"{first_line(err)[:300]}"
        )
    return "ok", value


def expect_error(fn: Callable[[], Any], *says: str) -> InputError:
    """Call ``fn``; it must raise InputError whose text contains every part of ``says``."""
    kind, value = outcome(fn)
    if kind == "ok":
        shown = value.rows()[:3] if isinstance(value, pl.DataFrame) else str(value)[:80]
        pytest.fail(f"no InputError; the call returned {shown!r}")
    text = str(value)
    for part in says:
        assert part in text, f"the message does not name {part!r}: {text!r}"
    return value


def close(a: Any, b: Any, tol: float = TOL) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, int | float) or not isinstance(b, int | float):
            return False
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
    return a == b


def assert_frames(got: Any, expected: Any, context: str = "", tol: float = TOL) -> None:
    """Same columns, same rows in the same order, numbers within ``tol`` (relative)."""
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected, context
        return
    assert isinstance(got, pl.DataFrame), (type(got), context)
    assert got.columns == expected.columns, (got.columns, expected.columns, context)
    assert got.height == expected.height, (got.rows()[:5], expected.rows()[:5], context)
    for r, (row_got, row_exp) in enumerate(zip(got.rows(), expected.rows())):
        for c, a, b in zip(got.columns, row_got, row_exp):
            assert close(a, b, tol), f"row {r} column {c!r}: {a!r} != {b!r}; {context}"


# --- DuckDB tables ------------------------------------------------------------------------------

_con: duckdb.DuckDBPyConnection | None = None
_lock = threading.Lock()


def shared_con() -> duckdb.DuckDBPyConnection:
    """One connection with the macros loaded, for every table surface."""
    global _con
    with _lock:
        if _con is None:
            _con = duckdb.connect()
            ce.sql.load(_con)
        return _con


@contextmanager
def as_table(df: pl.DataFrame) -> Iterator[tuple[str, duckdb.DuckDBPyConnection]]:
    """``df`` as a real DuckDB table of the shared connection (dropped afterwards)."""
    con = shared_con()
    name = f"hostile_{secrets.token_hex(5)}"
    src = f"src_{secrets.token_hex(5)}"
    con.register(src, df.to_arrow())
    try:
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM "{src}"')
    finally:
        con.unregister(src)
    try:
        yield name, con
    finally:
        con.execute(f'DROP TABLE IF EXISTS "{name}"')


def table_exists(name: str) -> bool:
    con = shared_con()
    rows = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [name]
    ).fetchone()
    return bool(rows and rows[0])


# --- the registry -------------------------------------------------------------------------------

COMMON = frozenset({"by", "weight", "missing"})
SCORED = COMMON | {"pos_label", "nonfinite"}


@dataclass(frozen=True)
class Surface:
    name: str
    kind: str  # "label" (y, yhat), "score" (y, score), "proba" (y, probability), "y"
    engine: str  # "polars", "lazy", "sql", "table"
    call: Callable[..., Any]
    opts: frozenset[str] = field(default_factory=frozenset)
    twin: str | None = None  # surfaces with one twin name compute the same thing

    def run(self, data: Any, y: Any = "y", x: Any = None, **kw: Any) -> Any:
        """Call the surface; a table surface gets ``data`` as a DuckDB table with ``con=``."""
        x = default_x(self.kind) if x is None else x
        if self.engine == "table" and isinstance(data, pl.DataFrame):
            with as_table(data) as (name, con):
                con = kw.pop("con", con)
                return materialize(self.call(name, y, x, con=con, **kw))
        if self.engine == "lazy" and isinstance(data, pl.DataFrame):
            data = data.lazy()
        return materialize(self.call(data, y, x, **kw))

    def __repr__(self) -> str:
        return self.name


def default_x(kind: str) -> str:
    return "yhat" if kind == "label" else "s"


def _polars() -> list[Surface]:
    label = COMMON | {"labels"}
    out = [
        Surface(
            "confusion_matrix",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.confusion_matrix(d, y, x, **kw),
            label | {"normalize", "wide"},
            "confusion",
        ),
        Surface(
            "counts",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.counts(d, y, x, **kw),
            label,
            "counts",
        ),
        Surface(
            "metrics",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, x, **kw),
            label
            | {"pos_label", "average", "zero_division", "beta", "metrics", "nonfinite"}
            | {"kappa_weights", "adjusted"},
            "metrics",
        ),
        Surface(
            "metrics[f1]",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, x, metrics=["f1"], **kw),
            COMMON | {"pos_label", "zero_division"},
            "f1",
        ),
        Surface(
            "metrics[accuracy]",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, x, metrics=["accuracy"], **kw),
            COMMON,
            "accuracy",
        ),
        Surface(
            "report",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.report(d, y, x, **kw),
            label | {"zero_division", "digits", "target_names", "nonfinite"},
            "report",
        ),
        Surface(
            "report_html",
            "label",
            "polars",
            lambda d, y, x, **kw: ce.report_html(d, y, x, **kw),
            label | {"digits", "title", "nonfinite"},
        ),
        Surface(
            "baseline",
            "y",
            "polars",
            lambda d, y, x, **kw: ce.baseline(d, y, **kw),
            COMMON | {"pos_label", "labels", "metrics", "average", "zero_division"},
        ),
        Surface(
            "clf.confusion_matrix",
            "label",
            "polars",
            lambda d, y, x, **kw: d.clf.confusion_matrix(y, x, **kw),
            label | {"normalize", "wide"},
            "confusion",
        ),
        Surface(
            "clf.counts",
            "label",
            "polars",
            lambda d, y, x, **kw: d.clf.counts(y, x, **kw),
            label,
            "counts",
        ),
        Surface(
            "clf.metrics",
            "label",
            "polars",
            lambda d, y, x, **kw: d.clf.metrics(y, x, **kw),
            label
            | {"pos_label", "average", "zero_division", "beta", "metrics", "nonfinite"}
            | {"kappa_weights", "adjusted"},
            "metrics",
        ),
        Surface(
            "clf.report",
            "label",
            "polars",
            lambda d, y, x, **kw: d.clf.report(y, x, **kw),
            label | {"zero_division", "digits", "target_names", "nonfinite"},
            "report",
        ),
        Surface(
            "clf.baseline",
            "y",
            "polars",
            lambda d, y, x, **kw: d.clf.baseline(y, **kw),
            COMMON | {"pos_label", "labels", "metrics", "average", "zero_division"},
        ),
    ]
    curves = {
        "roc_curve": ("roc", {"drop_intermediate"}),
        "pr_curve": ("pr", {"drop_intermediate"}),
        "det_curve": ("det", {"drop_intermediate"}),
        "gain_curve": ("gain", set()),
        "lift_curve": (None, set()),
        "threshold_counts": (None, set()),
        "thresholds": ("thresholds", {"beta", "zero_division", "n", "metrics"}),
        "best_threshold": (None, {"beta", "metric", "min_precision", "min_recall"}),
    }
    for fname, (twin, extra) in curves.items():
        fn = getattr(ce, fname)
        out.append(
            Surface(
                fname,
                "score",
                "polars",
                lambda d, y, x, _f=fn, **kw: _f(d, y, x, **kw),
                SCORED | extra,
                twin,
            )
        )
        out.append(
            Surface(
                f"clf.{fname}",
                "score",
                "polars",
                lambda d, y, x, _n=fname, **kw: getattr(d.clf, _n)(y, x, **kw),
                SCORED | extra,
                twin,
            )
        )
    out += [
        Surface(
            "metrics[auroc]",
            "score",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, score=x, metrics=["auroc"], **kw),
            SCORED,
            "auroc",
        ),
        Surface(
            "metrics[average_precision]",
            "score",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, score=x, metrics=["average_precision"], **kw),
            SCORED,
            "average_precision",
        ),
        Surface(
            "calibration",
            "proba",
            "polars",
            lambda d, y, x, **kw: ce.calibration(d, y, x, **kw),
            SCORED | {"n_bins", "strategy"},
            "calibration",
        ),
        Surface(
            "clf.calibration",
            "proba",
            "polars",
            lambda d, y, x, **kw: d.clf.calibration(y, x, **kw),
            SCORED | {"n_bins", "strategy"},
            "calibration",
        ),
        Surface(
            "metrics[log_loss]",
            "proba",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, score=x, metrics=["log_loss"], **kw),
            SCORED,  # no twin: its argument is score=, the macro's is the probability column
        ),
        Surface(
            "metrics[brier]",
            "proba",
            "polars",
            lambda d, y, x, **kw: ce.metrics(d, y, score=x, metrics=["brier"], **kw),
            SCORED,  # no twin: its argument is score=, the macro's is the probability column
        ),
        Surface(
            "report[score]",
            "proba",
            "polars",
            lambda d, y, x, **kw: ce.report(d, y, "yhat", score=x, **kw),
            SCORED,
        ),
    ]
    return out


def _sql() -> list[Surface]:
    label = COMMON | {"labels", "con"}
    scored = SCORED | {"con"}
    out = [
        Surface(
            "sql.confusion_matrix",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.confusion_matrix(d, y, x, **kw),
            label,
            "confusion",
        ),
        Surface(
            "sql.counts",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.counts(d, y, x, **kw),
            label,
            "counts",
        ),
        Surface(
            "sql.report",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.report(d, y, x, **kw),
            label | {"zero_division"},
            "report",
        ),
        Surface(
            "sql.metrics",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.metrics(d, y, x, **kw),
            label
            | {"pos_label", "average", "zero_division", "beta", "metrics", "kappa_weights"}
            | {"adjusted"},
            "metrics",
        ),
        Surface(
            "sql.aggregate[clf_f1]",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.aggregate("clf_f1", d, y, x, **kw),
            COMMON | {"pos_label", "zero_division", "con"},
            "f1",
        ),
        Surface(
            "sql.aggregate[clf_accuracy]",
            "label",
            "sql",
            lambda d, y, x, **kw: ce.sql.aggregate("clf_accuracy", d, y, x, **kw),
            COMMON | {"con"},
            "accuracy",
        ),
        Surface(
            "sql.calibration",
            "proba",
            "sql",
            lambda d, y, x, **kw: ce.sql.calibration(d, y, x, **kw),
            scored | {"n_bins", "strategy"},
            "calibration",
        ),
        Surface(
            "sql.aggregate[clf_log_loss]",
            "proba",
            "sql",
            lambda d, y, x, **kw: ce.sql.aggregate("clf_log_loss", d, y, x, **kw),
            scored,
            "log_loss",
        ),
        Surface(
            "sql.aggregate[clf_brier]",
            "proba",
            "sql",
            lambda d, y, x, **kw: ce.sql.aggregate("clf_brier", d, y, x, **kw),
            scored,
            "brier",
        ),
    ]
    scores = {
        "roc_curve": ("roc", {"drop_intermediate"}),
        "pr_curve": ("pr", {"drop_intermediate"}),
        "det_curve": ("det", {"drop_intermediate"}),
        "thresholds": ("thresholds", {"beta", "zero_division"}),
        "auroc": ("auroc", set()),
        "average_precision": ("average_precision", set()),
        "gain_curve": ("gain", set()),
    }
    for fname, (twin, extra) in scores.items():
        fn = getattr(ce.sql, fname)
        out.append(
            Surface(
                f"sql.{fname}",
                "score",
                "sql",
                lambda d, y, x, _f=fn, **kw: _f(d, y, x, **kw),
                scored | extra,
                twin,
            )
        )
    return out


POLARS = _polars()
SQL = _sql()
TABLE = [replace(s, name=s.name.replace("sql.", "table.", 1), engine="table") for s in SQL]
LAZY = [replace(s, name=f"lazy.{s.name}", engine="lazy") for s in POLARS]
SURFACES = [*POLARS, *SQL, *TABLE]
EVERY = [*SURFACES, *LAZY]
BY_NAME = {s.name: s for s in EVERY}


def of(kinds: str | set[str], needs: set[str] | frozenset[str] = frozenset(), pool=None):
    """The surfaces of these kinds that take every option in ``needs``."""
    kinds = {kinds} if isinstance(kinds, str) else kinds
    pool = SURFACES if pool is None else pool
    return [s for s in pool if s.kind in kinds and set(needs) <= s.opts]


def twins() -> dict[str, list[Surface]]:
    groups: dict[str, list[Surface]] = {}
    for s in SURFACES:
        if s.twin is not None:
            groups.setdefault(s.twin, []).append(s)
    return {k: v for k, v in groups.items() if len(v) > 1}


def ids(surfaces: list[Surface]) -> list[str]:
    return [s.name for s in surfaces]
