"""Bundled example data: the seed's worked examples exactly, generated data deterministic."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import clfeval as ce
from clfeval import datasets

try:
    from seed_cases import PATIENTS, TRIAGE, TRIAGE_REPORT
except ImportError:  # tests/ imported as a package
    from .seed_cases import PATIENTS, TRIAGE, TRIAGE_REPORT

CLASSES = ["low", "medium", "high"]


def test_patients_are_the_seed_patients():
    df = datasets.patients()
    assert df.schema == pl.Schema(
        {"id": pl.String, "y": pl.Int64, "score": pl.Float64, "yhat": pl.Int64}
    )
    assert df["id"].to_list() == [f"P{i:02d}" for i in range(1, 21)]
    assert df["y"].to_list() == PATIENTS.y
    assert df["score"].to_list() == PATIENTS.score
    assert df["yhat"].to_list() == PATIENTS.yhat


def test_patients_confusion_matrix_at_half():
    df = datasets.patients()
    wide = ce.confusion_matrix(df, "y", "yhat", labels=[1, 0], wide=True)
    assert wide.drop("actual").rows() == [(7, 3), (2, 8)]
    sk = skm.confusion_matrix(df["y"], df["yhat"], labels=[1, 0])
    assert sk.tolist() == [[7, 3], [2, 8]]
    assert df.filter(pl.col("yhat") == 1)["score"].min() == 0.55  # P09, the last flagged


def test_triage_is_the_seed_matrix():
    df = datasets.triage()
    enum = pl.Enum(CLASSES)
    assert df.schema == pl.Schema({"y": enum, "yhat": enum})
    assert df.height == 200
    assert df["y"].cast(pl.String).to_list() == TRIAGE.y
    assert df["yhat"].cast(pl.String).to_list() == TRIAGE.yhat
    sk = skm.confusion_matrix(df["y"].cast(pl.String), df["yhat"].cast(pl.String), labels=CLASSES)
    assert sk.tolist() == [[110, 9, 1], [8, 46, 6], [2, 8, 10]]
    # the Enum order (not the alphabet) gives the seed's report, low first
    assert str(ce.report(df, "y", "yhat", digits=3)) == TRIAGE_REPORT


@pytest.mark.parametrize("make", [datasets.predictions, datasets.predictions_multiclass])
def test_generated_data_is_deterministic(make):
    first = make(500, seed=7)
    assert_frame_equal(first, make(500, seed=7))
    assert not first.equals(make(500, seed=8))
    assert first.height == 1000
    assert first.null_count().sum_horizontal().item() == 0


def test_predictions_schema_and_shape():
    df = datasets.predictions(2000, seed=0)
    assert df.schema == pl.Schema(
        {
            "model": pl.String,
            "id": pl.Int64,
            "region": pl.String,
            "y": pl.Int64,
            "score": pl.Float64,
            "yhat": pl.Int64,
        }
    )
    assert df.group_by("model").len().sort("model").rows() == [
        ("boosted", 2000),
        ("logistic", 2000),
    ]
    assert sorted(df["region"].unique()) == ["north", "south", "west"]
    assert df["score"].is_between(0, 1).all()
    assert (df["yhat"] == (df["score"] >= 0.5).cast(pl.Int64)).all()
    # both models score the same cases: same region and label per id
    per_id = df.group_by("id").agg(pl.col("y", "region").n_unique(), pl.len())
    assert (
        per_id.select((pl.col("y") == 1) & (pl.col("region") == 1) & (pl.col("len") == 2))
        .to_series()
        .all()
    )


def test_predictions_are_realistic():
    df = datasets.predictions()
    cases = df.filter(pl.col("model") == "logistic")
    assert cases.height == 20_000
    assert 0.27 < cases["y"].mean() < 0.35  # about 30% positive
    shares = cases["region"].value_counts(normalize=True).sort("region")["proportion"]
    assert shares.to_list() == pytest.approx([0.5, 0.3, 0.2], abs=0.02)
    auc = {}
    for model in ("logistic", "boosted"):
        part = df.filter(pl.col("model") == model)
        auc[model] = skm.roc_auc_score(part["y"], part["score"])
        # calibrated-ish: the mean score is close to the share of positives
        assert abs(part["score"].mean() - part["y"].mean()) < 0.03
        assert part["score"].n_unique() < part.height  # rounded scores tie, as real ones do
    assert 0.75 < auc["logistic"] < auc["boosted"] < 0.9


def test_predictions_multiclass():
    df = datasets.predictions_multiclass(3000, seed=1)
    enum = pl.Enum(CLASSES)
    cols = ["p_low", "p_medium", "p_high"]
    assert df.schema == pl.Schema(
        {
            "model": pl.String,
            "id": pl.Int64,
            "region": pl.String,
            "y": enum,
            **dict.fromkeys(cols, pl.Float64),
            "yhat": enum,
        }
    )
    total = df.select(pl.sum_horizontal(cols).alias("t"))["t"]
    assert (total - 1).abs().max() < 1e-12
    assert df.select(pl.min_horizontal(cols).min()).item() > 0
    argmax = df.select(pl.concat_list(cols).list.arg_max().alias("i"))["i"]
    assert df["yhat"].to_physical().cast(pl.Int64).to_list() == argmax.cast(pl.Int64).to_list()
    shares = (
        df.filter(pl.col("model") == "boosted")["y"]
        .value_counts(normalize=True)
        .sort("y")["proportion"]
        .to_list()
    )
    assert shares[0] > shares[1] > shares[2] > 0.05  # low > medium > high, high not empty


def test_bad_sizes_raise():
    with pytest.raises(ValueError, match="n must be a positive integer"):
        datasets.predictions(0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        datasets.predictions_multiclass(10, seed=1.5)  # type: ignore[arg-type]
