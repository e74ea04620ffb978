"""The twin table: every metric of the registry, every option, every engine, one number.

For each metric of ``clfeval._metrics.METRICS`` and each of its options (read from the Polars
expression's signature, so a new option is covered the day it lands), one scenario sets that
option to each non-default value. On randomized grouped data (hypothesis) the Polars
expression under ``group_by`` is the reference, and every other engine the registry names
must give the same number per group to 1e-9:

- the frame function ``ce.metrics(metrics=[name])`` (when the registry lists it there);
- the DuckDB aggregate macro, ``SELECT g, clf_x(y, ..., option := ?) ... GROUP BY g``;
- the DuckDB table macro (``FROM clf_metrics(...)``, ``clf_auroc``...), when one applies;
- the generated SQL (``clfeval.sql.query``) run on DuckDB, when it computes the metric (per-class
  scores too, when the registry says ``generated_per_class``).

Spark runs the same generated SQL in ``test_spark.py``. An engine that cannot take an option
must be listed in ``UNSUPPORTED`` with the reason, and that list is checked too: a stale entry
(the engine accepts the option after all) fails.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import clfeval as ce
from clfeval import _metrics, sql, sqlgen
from clfeval._metrics import METRICS

SETTINGS = settings(
    max_examples=4,  # x 136 scenarios x 5 engines: the suite's budget
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
CLASSES = [0, 1, 2, 3]
# The non-default values each option is tried with (defaults are the baseline scenario).
OPTION_VALUES: dict[str, list[Any]] = {
    "average": ["micro", "macro", "weighted"],
    "pos_label": [0],
    "labels": [[3, 1, 0, 2]],
    "zero_division": [1.0, None],
    "beta": [0.5, 2.0],
    "weights": ["linear", "quadratic"],
    "adjusted": [True],
    "max_fpr": [0.35],
    "multi_class": ["ovo"],
    "k": [1, 3],
    "n_bins": [4],
    "kind": ["max"],
    "weight": ["w"],
    "prevalence": [0.1],  # the share of pos_label the rows are re-weighted to (two classes)
}
# Options that only make sense with per-class scores (a mapping {label: column}).
PER_CLASS = {"multi_class"}
# (engine, metric, option): why that engine does not take the option.
UNSUPPORTED: dict[tuple[str, str, str], str] = {
    ("duckdb aggregate", "accuracy", "pos_label"): "clf_accuracy reads no positive class",
    ("duckdb aggregate", "mcc", "pos_label"): "clf_mcc refuses one: its value does not need it",
}
# prevalence=: the table macro clf_metrics takes it (prevalence :=); the aggregate macros and
# the generated SQL do not (clf_thresholds and the frame functions are tested in test_decide)
for _name in ("precision", "recall", "specificity", "fpr", "npv", "fnr", "jaccard", "f1",
              "fbeta", "accuracy", "mcc"):  # fmt: skip
    UNSUPPORTED[("duckdb aggregate", _name, "prevalence")] = "re-weighting: clf_metrics only"
    UNSUPPORTED[("generated SQL", _name, "prevalence")] = "re-weighting: clf_metrics only"


def expression_options(name: str) -> list[str]:
    """The keyword options of the Polars expression ``ce.<name>``."""
    sig = inspect.signature(getattr(ce, name))
    return [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]


def required(name: str) -> dict[str, Any]:
    """Keyword options without a default (fbeta's beta), at their first value."""
    sig = inspect.signature(getattr(ce, name))
    return {
        p.name: OPTION_VALUES[p.name][0]
        for p in sig.parameters.values()
        if p.kind is p.KEYWORD_ONLY and p.default is p.empty
    }


def scenarios(name: str) -> list[dict[str, Any]]:
    """The defaults, then each option at each of its values (labels= of an averaged ratio
    with average='macro': under 'binary' it only names the two classes)."""
    base = required(name)
    out: list[dict[str, Any]] = [base]
    options = expression_options(name)
    for option in options:
        for value in OPTION_VALUES[option]:
            extra = {"average": "macro"} if option == "labels" and "average" in options else {}
            if {**base, **extra, option: value} not in out:
                out.append({**base, **extra, option: value})
    return out


CASES = [
    pytest.param(
        name, opts, id=f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items()) or 'default'}"
    )
    for name, m in METRICS.items()
    if m.expression
    for opts in scenarios(name)
]


ENGINES = {
    "frame": lambda: frame_engine,
    "duckdb aggregate": lambda: duckdb_aggregate_engine,
    "duckdb table": lambda: duckdb_table_engine,
    "generated SQL": lambda: generated_engine,
}


def test_unsupported_is_still_unsupported() -> None:
    """Each entry of UNSUPPORTED is true: that engine refuses that option (else drop it). Today
    only the positive class of accuracy/mcc (read by prevalence= alone) and prevalence= itself
    outside the frame function and clf_metrics."""
    df = pl.DataFrame(
        {
            "g": ["a"] * 4,
            "y": [0, 1, 0, 1],
            "yhat": [0, 1, 1, 1],
            "s": [0.1, 0.9, 0.4, 0.6],
            "w": [1.0] * 4,
        }
    )
    for engine, name, option in UNSUPPORTED:
        m = METRICS[name]
        opts = {**required(name), option: OPTION_VALUES[option][0]}
        with pytest.raises((TypeError, ce.InputError, duckdb.Error)):
            ENGINES[engine]()(m, df, opts, 2)
    # and every engine is held to the expression in the twin table, per-class forms included
    covered = {(e, _per_class(METRICS[n], o)) for n, o in
               ((c.values[0], c.values[1]) for c in CASES) for e in engines(METRICS[n], o)}  # fmt: skip
    assert {e for e, _ in covered} == set(ENGINES)
    assert {e for e, per_class in covered if per_class} >= {"duckdb aggregate", "generated SQL"}


def test_every_option_has_values() -> None:
    """A new option of an expression needs values here, or its twins go untested."""
    for name, m in METRICS.items():
        if m.expression:
            assert set(expression_options(name)) <= set(OPTION_VALUES), name


# --- data ------------------------------------------------------------------------------------


@st.composite
def frames(draw: st.DrawFn, multiclass: bool) -> pl.DataFrame:
    """Groups 'a' and 'b' (and a one-class group 'c'); y, yhat; a binary score s with ties;
    per-class probabilities p0..p3 summing to 1; weights with zeros."""
    k = 4 if multiclass else 2
    n = draw(st.integers(8, 60))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present in group 'a'
    yhat = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n))
    raw = rng.random((n, 4)) + np.eye(4)[y] * rng.random()
    raw[:, k:] = 0.0
    p = raw / raw.sum(axis=1, keepdims=True)
    g = np.where(np.arange(n) < max(k, n // 2), "a", "b")
    frame = pl.DataFrame(
        {
            "g": g,
            "y": y,
            "yhat": yhat,
            "s": np.round(p[:, 1], 1),  # ties
            **{f"p{c}": p[:, c] for c in range(4)},
            "w": rng.integers(0, 4, n) * 0.5,
        }
    )
    frame = frame.with_columns(w=pl.when(pl.int_range(pl.len()) == 0).then(1.0).otherwise("w"))
    one_class = frame.head(3).with_columns(
        g=pl.lit("c"), y=pl.lit(1, pl.Int64), yhat=pl.lit(1, pl.Int64)
    )
    return pl.concat([frame, one_class])


# --- engines ---------------------------------------------------------------------------------


def _second(m: _metrics.Metric, opts: dict[str, Any], k: int) -> Any:
    """What the metric reads besides y: yhat, the binary score, or per-class scores."""
    if m.family == "label":
        return "yhat"
    if _per_class(m, opts):
        return {c: f"p{c}" for c in range(k)}
    return "s"


def _per_class(m: _metrics.Metric, opts: dict[str, Any]) -> bool:
    if m.family == "label":
        return False
    if m.name == "top_k_accuracy":
        return True
    return bool(PER_CLASS & set(opts)) or "average" in opts or "labels" in opts


def _k(m: _metrics.Metric, opts: dict[str, Any]) -> int:
    if "prevalence" in opts:  # a share of pos_label: two classes (clf_metrics' 'binary')
        return 2
    multi = (
        m.name in ("top_k_accuracy",)
        or _per_class(m, opts)
        or (
            m.family == "label"
            and (
                "average" in opts
                or "labels" in opts
                or m.name in ("mcc", "cohen_kappa", "balanced_accuracy", "accuracy")
            )
        )
    )
    if m.family == "label" and m.averaged and "average" not in opts and "labels" not in opts:
        return 2
    return 4 if multi else 2


def _kwargs(opts: dict[str, Any], k: int) -> dict[str, Any]:
    out = {o: v for o, v in opts.items() if o != "weight"}
    if "labels" in out:
        out["labels"] = [c for c in out["labels"] if c < k] if k < 4 else out["labels"]
    return out


def polars_engine(m: _metrics.Metric, df: pl.DataFrame, opts: dict[str, Any], k: int) -> dict:
    args = ["y"] if m.name == "prevalence" else ["y", _second(m, opts, k)]
    expr = getattr(ce, m.name)(*args, weight=opts.get("weight"), **_kwargs(opts, k))
    out = df.group_by("g").agg(expr.alias("v"))
    return dict(out.iter_rows())


def frame_engine(m: _metrics.Metric, df: pl.DataFrame, opts: dict[str, Any], k: int) -> dict:
    kw = _kwargs(opts, k)
    if "weights" in kw:
        kw["kappa_weights"] = kw.pop("weights")
    second = _second(m, opts, k)
    args = {"yhat": second} if m.family == "label" else {"score": second}
    if m.family != "label" and "average" not in kw and _per_class(m, opts):
        kw["average"] = "macro"
    out = ce.metrics(df, "y", **args, metrics=[m.name], by="g", weight=opts.get("weight"), **kw)
    return dict(out.select("g", m.name).iter_rows())  # prevalence= adds two columns


_CON: list[duckdb.DuckDBPyConnection] = []


def connection(df: pl.DataFrame) -> duckdb.DuckDBPyConnection:
    """One connection with the macros loaded (loading costs more than a query); df as t."""
    if not _CON:
        _CON.append(sql.connect())
    con = _CON[0]
    con.register("t", df.to_arrow())
    return con


def _sql_call(m: _metrics.Metric, opts: dict[str, Any], k: int) -> tuple[str, list[str], list[Any]]:
    """The aggregate macro, its arguments (SQL text) and the values bound to the ``?``."""
    params = _kwargs(opts, k)
    second = _second(m, opts, k)
    if isinstance(second, dict):  # a LIST of per-class scores, in labels order
        assert m.sql_per_class is not None, m.name
        macro = m.sql_per_class.format(multi_class=params.pop("multi_class", "ovr"))
        labels = params.setdefault("labels", list(second))
        args = ["y", "[" + ", ".join(second[c] for c in labels) + "]"]
    else:
        assert m.sql is not None, m.name
        macro = m.sql
        args = ["y"] if m.name == "prevalence" else ["y", second]
    binds: list[Any] = []
    if m.name == "fbeta":
        args.append("?")
        binds.append(params.pop("beta", 1.0))
    for option, value in params.items():
        args.append(f"{option} := ?")
        binds.append(value)
    if "weight" in opts:
        args.append("weight := w")
    return macro, args, binds


def duckdb_aggregate_engine(
    m: _metrics.Metric, df: pl.DataFrame, opts: dict[str, Any], k: int
) -> dict:
    macro, args, binds = _sql_call(m, opts, k)
    query = f"SELECT g, {macro}({', '.join(args)}) FROM t GROUP BY g"
    return dict(connection(df).execute(query, binds).fetchall())


def duckdb_table_engine(m: _metrics.Metric, df: pl.DataFrame, opts: dict[str, Any], k: int) -> dict:
    """The table macro through its clfeval.sql wrapper (named and called as the frame function)."""
    kw = _kwargs(opts, k)
    weight, con = opts.get("weight"), connection(df)
    if m.family == "label":
        if "weights" in kw:
            kw["kappa_weights"] = kw.pop("weights")
        out = sql.metrics(df, "y", "yhat", by="g", weight=weight, con=con, metrics=[m.name], **kw)
    else:
        out = getattr(sql, m.name)(
            df, "y", _second(m, opts, k), by="g", weight=weight, con=con, **kw
        )
    column = m.name if m.name in out.columns else out.columns[-1]  # ece(kind="max") is "mce"
    return dict(out.select("g", column).iter_rows())


def generated_engine(m: _metrics.Metric, df: pl.DataFrame, opts: dict[str, Any], k: int) -> dict:
    kw = _kwargs(opts, k)
    if "weights" in kw:
        kw["kappa_weights"] = kw.pop("weights")
    second = _second(m, opts, k)
    role = {"label": "yhat", "score": "score", "proba": "proba"}[m.family]
    query = sqlgen.query(
        "metrics", table="t", y="y", group_cols=["g"], weight=opts.get("weight"),
        metrics=[m.name], **{role: second}, **kw,
    )  # fmt: skip
    return dict(connection(df).sql(query).fetchall())


def engines(m: _metrics.Metric, opts: dict[str, Any]) -> dict[str, Any]:
    """The engines the registry says compute this metric with these options."""
    out: dict[str, Any] = {}
    if m.in_metrics:
        out["frame"] = frame_engine
    per_class = _per_class(m, opts)
    if (m.sql_per_class if per_class else m.sql) is not None:
        out["duckdb aggregate"] = duckdb_aggregate_engine
    if (m.table_per_class if per_class else m.table) is not None:
        out["duckdb table"] = duckdb_table_engine
    if m.generated_per_class if per_class else m.generated:
        out["generated SQL"] = generated_engine
    return {e: fn for e, fn in out.items() if not any((e, m.name, o) in UNSUPPORTED for o in opts)}


def same(a: Any, b: Any) -> bool:
    if (
        a is None
        or b is None
        or (isinstance(a, float) and math.isnan(a))
        or (isinstance(b, float) and math.isnan(b))
    ):
        na = a is None or (isinstance(a, float) and math.isnan(a))
        nb = b is None or (isinstance(b, float) and math.isnan(b))
        return na and nb
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@pytest.mark.parametrize(("name", "opts"), CASES)
def test_twins_agree(name: str, opts: dict[str, Any]) -> None:
    m = METRICS[name]
    k_classes = _k(m, opts)
    others = engines(m, opts)

    @SETTINGS
    @given(df=frames(multiclass=k_classes > 2))
    def run(df: pl.DataFrame) -> None:
        try:
            expected = polars_engine(m, df, opts, k_classes)
        except ce.InputError:  # the same input must be refused by every engine
            for engine, fn in others.items():
                try:
                    fn(m, df, opts, k_classes)
                except (ce.InputError, duckdb.Error):
                    continue
                pytest.fail(f"{engine} accepted what the expression refused")
            return
        for engine, fn in others.items():
            try:
                got = fn(m, df, opts, k_classes)
            except Exception as err:
                raise AssertionError(f"{engine} failed where the expression did not") from err
            assert got.keys() == expected.keys(), engine
            for g, v in expected.items():
                assert same(got[g], v), (engine, g, got[g], v)

    run()
