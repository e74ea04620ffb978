"""Any frame in (SPEC §10): pandas, PyArrow and DuckDB relations give the numbers Polars gives.

A pandas DataFrame, a PyArrow Table or RecordBatchReader are read once through the Arrow
stream; a DuckDB relation is evaluated inside DuckDB by the function's SQL twin when it has
one, and otherwise read through the stream. ``clfeval._frames`` is the one place that decides.
"""

from __future__ import annotations

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import clfeval as ce
from clfeval import _frames

DF = ce.datasets.predictions(n=1500, seed=3)
MC = ce.datasets.predictions_multiclass(n=900).with_columns(pl.col("y", "yhat").cast(pl.String))
PROBA = {"low": "p_low", "medium": "p_medium", "high": "p_high"}

# (function, positional columns, options); the twin column says what a relation runs
CALLS = [
    ("confusion_matrix", ("y", "yhat"), {"by": "model", "labels": [1, 0]}, True),
    ("confusion_matrix", ("y", "yhat"), {"normalize": "true"}, False),
    ("counts", ("y", "yhat"), {"by": ["model", "region"]}, True),
    ("metrics", ("y", "yhat"), {"by": "model", "average": "macro"}, True),
    ("metrics", ("y", "yhat"), {"score": "score", "by": "model"}, False),
    ("roc_curve", ("y", "score"), {"by": "model"}, True),
    ("roc_curve", ("y", "score"), {"drop_intermediate": False, "weight": "w"}, True),
    ("pr_curve", ("y", "score"), {"by": "region"}, True),
    ("det_curve", ("y", "score"), {}, True),
    ("thresholds", ("y", "score"), {"by": "model", "beta": 2.0}, True),
    ("thresholds", ("y", "score"), {"metrics": ["f1"], "n": 11}, False),
    ("calibration", ("y", "score"), {"n_bins": 7, "strategy": "quantile"}, True),
    ("gain_curve", ("y", "score"), {"by": "model"}, True),
    ("lift_curve", ("y", "score"), {}, True),
    ("best_threshold", ("y", "score"), {"by": "model", "metric": "f2"}, False),
    ("baseline", ("y",), {"by": "model"}, False),
    ("threshold_counts", ("y", "score"), {}, False),
]
WEIGHTED = DF.with_columns(w=(pl.col("id") % 3 + 1).cast(pl.Float64))


def polars_answer(name: str, columns: tuple, options: dict, data: pl.DataFrame) -> pl.DataFrame:
    out = getattr(ce, name)(data, *columns, **options)
    return out.collect() if isinstance(out, pl.LazyFrame) else out


def inputs(frame: pl.DataFrame) -> dict:
    table = frame.to_arrow()
    con = duckdb.connect()
    con.register("preds", frame)
    return {
        "pandas": frame.to_pandas(),
        "pyarrow Table": table,
        "RecordBatchReader": pa.RecordBatchReader.from_batches(table.schema, table.to_batches()),
        "DuckDB relation": con.sql("FROM preds"),
    }


@pytest.mark.parametrize(("name", "columns", "options", "twin"), CALLS)
def test_every_input_gives_the_polars_numbers(name, columns, options, twin):
    expected = polars_answer(name, columns, options, WEIGHTED)
    for kind, data in inputs(WEIGHTED).items():
        got = getattr(ce, name)(data, *columns, **options)
        assert isinstance(got, pl.DataFrame), (kind, type(got))
        assert_frame_equal(got, expected, check_exact=False, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize(("name", "columns", "options", "twin"), CALLS)
def test_a_relation_runs_in_duckdb_exactly_when_a_twin_takes_the_call(
    name, columns, options, twin, monkeypatch
):
    """With a twin, no row leaves DuckDB: the Arrow reader is never called and the twin is;
    without one (or with an option SQL cannot spell), the rows come through the stream."""
    read, ran = [], []
    real_read = _frames.as_polars
    monkeypatch.setattr(_frames, "as_polars", lambda d, *a: read.append(d) or real_read(d, *a))
    real_twin = getattr(ce.sql, name, None)
    if real_twin is not None:
        monkeypatch.setattr(ce.sql, name, lambda *a, **k: ran.append(a) or real_twin(*a, **k))
    relation = inputs(WEIGHTED)["DuckDB relation"]
    got = getattr(ce, name)(relation, *columns, **options)
    assert_frame_equal(
        got, polars_answer(name, columns, options, WEIGHTED), rel_tol=1e-12, abs_tol=1e-12
    )
    if twin:
        assert ran, f"{name} did not run its SQL twin"
        assert not any(_frames.is_relation(d) for d in read), "the relation was read into Python"
    else:
        assert not ran
        assert any(_frames.is_relation(d) for d in read)


def test_per_class_scores_of_a_relation_run_the_multiclass_twin():
    con = duckdb.connect()
    con.register("mc", MC)
    for name in ("roc_curve", "pr_curve"):
        expected = getattr(ce, name)(MC, "y", PROBA, by="model")
        got = getattr(ce, name)(con.sql("FROM mc"), "y", PROBA, by="model")
        assert_frame_equal(got, expected, rel_tol=1e-12, abs_tol=1e-12)


def test_a_read_only_database_is_never_written(tmp_path):
    """The macros go in as TEMP macros of the relation's connection: a read-only file works,
    and no object is added to the database."""
    path = tmp_path / "preds.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("frame", DF)
        con.execute("CREATE TABLE preds AS FROM frame")
    before = path.read_bytes()
    con = duckdb.connect(str(path), read_only=True)
    relation = con.sql("FROM preds WHERE region <> 'west'")
    expected = ce.roc_curve(DF.filter(pl.col("region") != "west"), "y", "score", by="model")
    got = ce.roc_curve(relation, "y", "score", by="model")
    assert_frame_equal(got.sort("model", maintain_order=True), expected, rel_tol=1e-12)
    places = con.sql(
        "SELECT DISTINCT database_name FROM duckdb_functions() WHERE function_name LIKE 'clf_%'"
    ).fetchall()
    assert places == [("temp",)]
    assert con.sql("SELECT count(*) FROM duckdb_views() WHERE NOT internal").fetchall() == [(0,)]
    con.close()
    assert path.read_bytes() == before


def test_bad_data_of_a_relation_gets_the_front_door_message():
    con = duckdb.connect()
    con.register(
        "bad", DF.with_columns(score=pl.when(pl.col("id") == 3).then(None).otherwise("score"))
    )
    with pytest.raises(ce.InputError, match="score"):
        ce.roc_curve(con.sql("FROM bad"), "y", "score")
    with pytest.raises(ce.InputError, match="'nope'"):
        ce.thresholds(con.sql("FROM bad"), "y", "nope")


def test_report_and_its_page_take_any_frame():
    text = str(ce.report(DF, "y", "yhat", score="score", by="model"))
    page = ce.report_html(DF, "y", "yhat", score="score").to_html()
    for data in inputs(DF).values():
        assert str(ce.report(data, "y", "yhat", score="score", by="model")) == text
    for kind, data in inputs(DF).items():
        assert ce.report_html(data, "y", "yhat", score="score").to_html() == page, kind


def test_a_pandas_index_is_not_a_column():
    frame = DF.to_pandas().set_index("id")
    with pytest.raises(ce.InputError, match="'id'"):
        ce.metrics(frame, "id", "yhat")
    assert_frame_equal(ce.counts(frame, "y", "yhat"), ce.counts(DF, "y", "yhat"))
    assert isinstance(frame, pd.DataFrame)
