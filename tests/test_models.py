"""Comparing models on the same rows: ``models=`` on a wide frame is ``by="model"`` on the long
frame, on every frame function, ``.clf`` and the charts (issue 20)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import clfeval as ce

MODELS = {"A": "score_a", "B": "score_b"}


@pytest.fixture(scope="module")
def wide() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 400
    y = rng.integers(0, 2, n)
    a = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    b = np.round(rng.random(n), 2)  # ties
    return pl.DataFrame(
        {
            "y": y,
            "seg": rng.choice(["north", "south"], n),
            "w": rng.integers(1, 4, n).astype(float),
            "score_a": a,
            "score_b": b,
            "yhat_a": (a >= 0.5).astype(np.int64),
            "yhat_b": (b >= 0.5).astype(np.int64),
        }
    )


@pytest.fixture(scope="module")
def long(wide: pl.DataFrame) -> pl.DataFrame:
    """The same predictions as a long frame: one row per (row, model)."""
    parts = [
        wide.select(
            pl.lit(name).alias("model"),
            "y",
            "seg",
            "w",
            pl.col(f"score_{name.lower()}").alias("score"),
            pl.col(f"yhat_{name.lower()}").alias("yhat"),
        )
        for name in MODELS
    ]
    return pl.concat(parts)


SCORED: dict[str, Callable[..., Any]] = {
    "roc_curve": ce.roc_curve,
    "pr_curve": ce.pr_curve,
    "det_curve": ce.det_curve,
    "threshold_counts": ce.threshold_counts,
    "thresholds": ce.thresholds,
    "best_threshold": ce.best_threshold,
    "calibration": ce.calibration,
    "gain_curve": ce.gain_curve,
    "lift_curve": ce.lift_curve,
}


@pytest.mark.parametrize("name", SCORED)
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@pytest.mark.parametrize("by", [None, "seg"])
def test_scored_functions_equal_by_model(
    wide: pl.DataFrame, long: pl.DataFrame, name: str, lazy: bool, by: str | None
) -> None:
    fn = SCORED[name]
    data = wide.lazy() if lazy else wide
    got = fn(data, "y", models=MODELS, by=by, weight="w")
    expected = fn(long, "y", "score", by=["model", *([by] if by else [])], weight="w")
    got = got.collect() if lazy else got
    assert_frame_equal(got, expected, check_exact=False, rel_tol=0, abs_tol=1e-12)


@pytest.mark.parametrize("name", ["counts", "confusion_matrix"])
def test_label_functions_equal_by_model(wide: pl.DataFrame, long: pl.DataFrame, name: str) -> None:
    fn = getattr(ce, name)
    got = fn(wide, "y", models={"A": "yhat_a", "B": "yhat_b"}, by="seg")
    assert_frame_equal(got, fn(long, "y", "yhat", by=["model", "seg"]))


def test_metrics_with_yhat_and_score(wide: pl.DataFrame, long: pl.DataFrame) -> None:
    models = {n: {"yhat": f"yhat_{n.lower()}", "score": f"score_{n.lower()}"} for n in MODELS}
    got = ce.metrics(wide, "y", models=models)
    assert_frame_equal(got, ce.metrics(long, "y", "yhat", score="score", by="model"))
    for name, column in MODELS.items():
        row = got.filter(pl.col("model") == name).row(0, named=True)
        assert row["auroc"] == pytest.approx(skm.roc_auc_score(wide["y"], wide[column]), abs=1e-9)
        yhat = wide[f"yhat_{name.lower()}"]
        assert row["f1"] == pytest.approx(skm.f1_score(wide["y"], yhat), abs=1e-9)


def test_a_list_names_models_by_their_columns(wide: pl.DataFrame) -> None:
    got = ce.metrics(wide, "y", models=["yhat_a", "yhat_b"], metrics=["accuracy"])
    assert got["model"].to_list() == ["yhat_a", "yhat_b"]
    assert got["accuracy"].to_list() == pytest.approx(
        [skm.accuracy_score(wide["y"], wide[c]) for c in ("yhat_a", "yhat_b")], abs=1e-12
    )


def test_clf_namespace(wide: pl.DataFrame) -> None:
    assert_frame_equal(
        wide.clf.roc_curve("y", models=MODELS), ce.roc_curve(wide, "y", models=MODELS)
    )


def _series(chart: Any) -> set[str]:
    spec = chart.to_dict()
    return {r["series"] for rows in spec["datasets"].values() for r in rows if "series" in r}


@pytest.mark.parametrize("chart", ["roc", "pr", "det", "gain", "lift", "calibration"])
def test_charts_overlay_the_models(wide: pl.DataFrame, chart: str) -> None:
    drawn = _series(getattr(wide.clf.plot, chart)("y", models=MODELS))
    assert {s.split(" (")[0] for s in drawn} == set(MODELS)


def test_roc_legend_gives_each_models_auroc(wide: pl.DataFrame) -> None:
    drawn = _series(wide.clf.plot.roc("y", models=MODELS))
    for name, column in MODELS.items():
        auroc = skm.roc_auc_score(wide["y"], wide[column])
        assert f"{name} (AUROC {auroc:.3f})" in drawn


def test_compare_chart_colours_models(wide: pl.DataFrame) -> None:
    models = {n: {"yhat": f"yhat_{n.lower()}", "score": f"score_{n.lower()}"} for n in MODELS}
    spec = wide.clf.plot.compare("y", models=models, by="seg").to_dict()
    rows = [r for rows in spec["datasets"].values() for r in rows if "value" in r]
    assert {r["series"] for r in rows} == {f"{m} · {s}" for m in MODELS for s in ("north", "south")}


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"models": "score_a"}, "list of columns or a mapping"),
        ({"models": []}, "names no model"),
        ({"models": {"": "score_a"}}, "non-empty strings"),
        ({"models": {1: "score_a"}}, "non-empty strings"),
        ({"models": {"A": 3}}, "must name a column"),
        ({"models": {"A": {"yhat": "yhat_a"}}}, "'yhat'"),
        ({"models": MODELS, "score": "score_a"}, "replaces score="),
        ({"models": MODELS, "by": "model"}, "'model' collides"),
        ({"models": ["score_a", "nope"]}, "'nope'"),
        ({}, "needs score= or models="),
    ],
)
def test_bad_models(wide: pl.DataFrame, kwargs: dict[str, Any], needle: str) -> None:
    with pytest.raises(ce.InputError, match=None) as info:
        ce.roc_curve(wide, "y", **kwargs)
    assert needle in str(info.value)


def test_a_bad_column_is_named_with_its_model(wide: pl.DataFrame) -> None:
    bad = wide.with_columns(pl.col("score_b").clip(upper_bound=2.0) * 2)
    with pytest.raises(ce.InputError, match="'score_b'"):
        ce.calibration(bad, "y", models=MODELS)
