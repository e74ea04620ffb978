"""The metric registry (``clfeval._metrics``) is the one list: every surface reads it, and a
metric missing from one of them fails here (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest

import clfeval as ce
from clfeval import _metric_table, _metrics, charts, sqlgen
from clfeval._metrics import METRICS, THRESHOLD_METRICS
from clfeval.sql import AGGREGATE_MACROS

ROOT = Path(__file__).resolve().parents[1]
MACROS = {
    m.lower()
    for m in re.findall(
        r"CREATE\s+OR\s+REPLACE\s+MACRO\s+(clf_\w+)", ce.sql.text(), flags=re.IGNORECASE
    )
}


def test_the_registry_is_not_empty() -> None:
    assert len(METRICS) >= 20
    assert {"label", "score", "proba"} == {m.family for m in METRICS.values()}


@pytest.mark.parametrize("name", METRICS)
def test_every_surface_has_the_metric(name: str) -> None:
    m = METRICS[name]
    assert charts.TITLES[name] == m.title
    if m.expression:
        assert callable(getattr(ce, name)), name
        assert name in ce.__all__
    if m.sql is not None:
        assert m.sql in MACROS, f"{m.sql} is not in sql/*.sql"
        assert m.sql in AGGREGATE_MACROS, m.sql
    for multi_class in ("ovr", "ovo"):
        if m.sql_per_class is not None:
            per_class = m.sql_per_class.format(multi_class=multi_class)
            assert AGGREGATE_MACROS[per_class].multiclass, per_class
    if m.table is not None:
        assert name in ce.sql.TABLE_MACROS[m.table].outputs or (
            name == "ece" and "ece" in ce.sql.TABLE_MACROS[m.table].outputs[0]
        )
    if m.table_per_class is not None:
        assert ce.sql.TABLE_MACROS[m.table_per_class].multiclass
    if m.in_metrics:
        known = (*_metric_table.LABEL_METRICS, *_metric_table.SCORE_DEFAULT)
        assert name in known
    if m.at_threshold:
        assert name in ce.thresholds(pl.DataFrame({"y": [0, 1], "s": [0.2, 0.7]}), "y", "s").columns
    if m.binary is None:
        assert not m.at_threshold
        assert not m.averaged


def test_defaults_read_the_registry() -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 0], "yhat": [0, 1, 0, 0], "s": [0.1, 0.9, 0.4, 0.3]})
    got = ce.metrics(df, "y", "yhat", score="s").columns
    assert tuple(got) == _metrics.default_set("label", "score", "proba")


def test_readme_table_is_the_registrys() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = "<!-- metric table: clfeval._metrics.markdown_table() -->\n"
    table = text[text.index(start) + len(start) : text.index("<!-- end of metric table -->")]
    assert table == _metrics.markdown_table(), "regenerate it: clfeval._metrics.markdown_table()"
    assert table.count("\n") == len(METRICS) + 2


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("zero_division", "beta"), [(0.0, 1.0), (1.0, 2.0), (None, 0.5)])
def test_generated_thresholds_equal_polars(
    weighted: bool, zero_division: float | None, beta: float
) -> None:
    """One formula per metric, rendered to Polars and to SQL: the same table."""
    rng = np.random.default_rng(11)
    n = 600
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "y": rng.integers(0, 2, n),
            "s": np.round(rng.random(n), 2),
            "w": rng.integers(0, 4, n) * 0.5,
        }
    )
    weight = "w" if weighted else None
    sql = sqlgen.query(
        "thresholds", table="t", y="y", score="s", group_cols=["g"], weight=weight,
        zero_division=zero_division, beta=beta,
    )  # fmt: skip
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    got = con.sql(sql).pl()
    expected = ce.thresholds(
        df, "y", "s", by="g", weight=weight, zero_division=zero_division, beta=beta
    )
    assert (
        got.columns
        == expected.columns
        == ["g", "threshold", "tp", "fp", "fn", "tn", *THRESHOLD_METRICS]
    )
    a = got.drop("g").cast(pl.Float64).to_numpy()
    b = expected.drop("g").cast(pl.Float64).to_numpy()
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


GENERATED_LABEL = list(_metrics.names(family="label", in_metrics=True))


@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("zero_division", "beta"), [(0.0, 1.0), (None, 2.0)])
def test_generated_metrics_equal_polars(
    average: str, weighted: bool, zero_division: float | None, beta: float
) -> None:
    """Every label metric the registry lists for clfeval.metrics, in the generated SQL."""
    rng = np.random.default_rng(5)
    n = 500
    k = 2 if average == "binary" else 4
    df = pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "y": rng.integers(0, k, n),
            "yhat": rng.integers(0, k, n),
            "w": rng.integers(0, 4, n) * 0.5,
        }
    )
    weight = "w" if weighted else None
    sql = sqlgen.query(
        "metrics", table="t", y="y", yhat="yhat", group_cols=["g"], weight=weight,
        average=average, zero_division=zero_division, beta=beta, metrics=GENERATED_LABEL,
    )  # fmt: skip
    con = duckdb.connect()
    con.register("t", df.to_arrow())
    got = con.sql(sql).pl()
    expected = ce.metrics(
        df, "y", "yhat", by="g", weight=weight, average=average,
        zero_division=zero_division, beta=beta, metrics=GENERATED_LABEL,
    )  # fmt: skip
    assert got.columns == expected.columns == ["g", *GENERATED_LABEL]
    a, b = got.drop("g").to_numpy(), expected.drop("g").to_numpy()
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_generated_metrics_names() -> None:
    with pytest.raises(ce.InputError, match="needs score="):
        sqlgen.query("metrics", table="t", y="y", yhat="p", metrics=["auroc"])
    with pytest.raises(ce.InputError, match="kappa_weights"):
        sqlgen.query(
            "metrics", table="t", y="y", yhat="p", metrics=["cohen_kappa"], kappa_weights="cubic"
        )
    with pytest.raises(ce.InputError, match="'f2'"):
        sqlgen.query("metrics", table="t", y="y", yhat="p", metrics=["f2"])
