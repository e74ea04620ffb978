"""Multiclass probabilities are said one way on every surface (issue 20).

One argument, ``score`` (``proba`` where SPEC names the probability metrics' positional
argument), accepts the same three forms everywhere: a mapping ``{label: column}``, a list of
columns with ``labels=``, and one List/Array column with ``labels=``. Each form, on each
surface, gives scikit-learn's ``roc_auc_score(..., multi_class="ovr")`` and ``log_loss``;
the CLI spells it ``--score`` (``--proba`` is the same option); ``clfeval.sql``, whose DuckDB
macros score two classes, says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm

import clfeval as ce
from clfeval.cli import main

CLASSES = ["low", "medium", "high"]
COLUMNS = ["p_low", "p_medium", "p_high"]


@pytest.fixture(scope="module")
def three() -> pl.DataFrame:
    """One model's three-class predictions with string labels, plus List and Array forms."""
    df = ce.datasets.predictions_multiclass(300).filter(pl.col("model") == "logistic")
    return df.with_columns(
        pl.col("y", "yhat").cast(pl.String),
        pl.concat_list(COLUMNS).alias("p_list"),
        pl.concat_list(COLUMNS).list.to_array(3).alias("p_array"),
    )


@pytest.fixture(scope="module")
def reference(three: pl.DataFrame) -> dict[str, float]:
    # scikit-learn wants the labels sorted; the columns follow
    order = sorted(CLASSES)
    y = three["y"].to_numpy()
    p = three.select(COLUMNS[CLASSES.index(c)] for c in order).to_numpy()
    return {
        "auroc": skm.roc_auc_score(y, p, multi_class="ovr", labels=order),
        "auroc_weighted": skm.roc_auc_score(
            y, p, multi_class="ovr", labels=order, average="weighted"
        ),
        "auroc_ovo": skm.roc_auc_score(y, p, multi_class="ovo", labels=order),
        "log_loss": skm.log_loss(y, p, labels=order),
        "brier": skm.brier_score_loss(y, p, labels=order),
    }


FORMS: dict[str, dict[str, Any]] = {
    "mapping": {"score": dict(zip(CLASSES, COLUMNS))},
    "list": {"score": COLUMNS, "labels": CLASSES},
    "list-column": {"score": "p_list", "labels": CLASSES},
    "array-column": {"score": "p_array", "labels": CLASSES},
}


@pytest.mark.parametrize("form", FORMS)
def test_expressions(three: pl.DataFrame, reference: dict[str, float], form: str) -> None:
    kw = dict(FORMS[form])
    score = kw.pop("score")
    got = three.select(
        ce.auroc("y", score, multi_class="ovr", **kw).alias("auroc"),
        ce.auroc("y", score, multi_class="ovr", average="weighted", **kw).alias("auroc_weighted"),
        ce.auroc("y", score, multi_class="ovo", **kw).alias("auroc_ovo"),
        ce.log_loss("y", score, **kw),
        ce.brier("y", score, **kw),
    ).row(0, named=True)
    assert got == pytest.approx(reference, abs=1e-9)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_frame_functions_and_clf(
    three: pl.DataFrame, reference: dict[str, float], form: str, lazy: bool
) -> None:
    data = three.lazy() if lazy else three
    wanted = ["auroc", "log_loss", "brier"]
    for out in (
        ce.metrics(data, "y", metrics=wanted, **FORMS[form]),
        data.clf.metrics("y", metrics=wanted, **FORMS[form]),
    ):
        row = (out.collect() if lazy else out).row(0, named=True)
        assert row == pytest.approx({k: reference[k] for k in wanted}, abs=1e-9)


@pytest.mark.parametrize("form", FORMS)
def test_report_and_curves(three: pl.DataFrame, reference: dict[str, float], form: str) -> None:
    text = str(ce.report(three, "y", "yhat", **FORMS[form]))
    for name in ("auroc", "log_loss", "brier"):
        shown = re.search(rf"^\s*{name}\s+(\S+)$", text, re.MULTILINE)
        assert shown, text
        assert float(shown.group(1)) == pytest.approx(reference[name], abs=1e-4)
    curve = ce.roc_curve(three, "y", **FORMS[form])
    for label, column in zip(CLASSES, COLUMNS):
        fpr, tpr, _ = skm.roc_curve(three["y"].to_numpy() == label, three[column].to_numpy())
        mine = curve.filter(pl.col("label") == label)
        np.testing.assert_allclose(mine["fpr"].to_numpy(), fpr, atol=1e-12)
        np.testing.assert_allclose(mine["tpr"].to_numpy(), tpr, atol=1e-12)


@pytest.mark.parametrize("form", FORMS)
def test_charts_and_html(three: pl.DataFrame, form: str) -> None:
    spec = three.clf.plot.roc("y", **FORMS[form]).to_dict()
    series = {
        row["series"] for rows in spec["datasets"].values() for row in rows if "series" in row
    }
    assert {s.split(" (AUROC")[0] for s in series} == set(CLASSES)
    page = ce.report_html(three, "y", "yhat", **FORMS[form]).to_html()
    assert re.search(r"auroc\s+0\.\d{4}", page), "the page's report has the AUROC line"


def _ece_reference(p: np.ndarray, y: np.ndarray, n_bins: int) -> float:
    """Top-label ECE (Guo et al. 2017; torchmetrics' ``MulticlassCalibrationError``, l1)."""
    confidence, correct = p.max(axis=1), (p.argmax(axis=1) == y).astype(float)
    bins = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], confidence, side="left")
    gaps = [abs((correct - confidence)[bins == b].sum()) for b in range(n_bins)]
    return float(np.sum(gaps) / len(y))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("n_bins", [1, 5, 15])
def test_ece_takes_labels(three: pl.DataFrame, form: str, n_bins: int) -> None:
    kw = dict(FORMS[form])
    score = kw.pop("score")
    got = three.select(ce.ece("y", score, n_bins=n_bins, **kw)).item()
    codes = three["y"].replace_strict(CLASSES, [0, 1, 2]).to_numpy()
    expected = _ece_reference(three.select(COLUMNS).to_numpy(), codes, n_bins)
    assert got == pytest.approx(expected, abs=1e-12)


def test_ece_ties_go_to_the_first_label() -> None:
    df = pl.DataFrame({"y": ["b", "a"], "pa": [0.5, 0.5], "pb": [0.5, 0.5]})
    # both rows predict "a" (the first label) with confidence 0.5: one right, one wrong
    assert df.select(ce.ece("y", {"a": "pa", "b": "pb"}, n_bins=2)).item() == 0.0
    assert df.select(ce.ece("y", {"b": "pb", "a": "pa"}, n_bins=2)).item() == 0.0
    one = pl.DataFrame({"y": ["b"], "pa": [0.6], "pb": [0.4]})
    assert one.select(ce.ece("y", {"a": "pa", "b": "pb"})).item() == pytest.approx(0.6)


@pytest.mark.parametrize(
    "call",
    [
        lambda df: ce.sql.calibration(df, "y", dict(zip(CLASSES, COLUMNS))),
        lambda df: ce.sql.det_curve(df, "y", dict(zip(CLASSES, COLUMNS))),
    ],
    ids=["calibration", "det_curve"],
)
def test_sql_says_binary(three: pl.DataFrame, call: Callable[[pl.DataFrame], Any]) -> None:
    with pytest.raises(ce.InputError, match="per-class columns") as info:
        call(three)
    assert "ce.auroc" in str(info.value)


def test_sql_per_class_scores_speak_the_polars_vocabulary(three: pl.DataFrame) -> None:
    """auroc and roc_curve take {label: column}, or columns with labels=, as Polars does."""
    mapping = dict(zip(CLASSES, COLUMNS))
    want = three.select(ce.auroc("y", mapping)).item()
    assert ce.sql.auroc(three, "y", mapping)["auroc"].item() == pytest.approx(want, abs=1e-12)
    listed = ce.sql.auroc(three, "y", COLUMNS, labels=CLASSES)["auroc"].item()
    assert listed == pytest.approx(want, abs=1e-12)
    curve = ce.sql.roc_curve(three, "y", mapping)
    assert curve.columns == ce.roc_curve(three, "y", mapping).columns
    with pytest.raises(ce.InputError, match="needs labels= of the same length"):
        ce.sql.roc_curve(three, "y", COLUMNS)


def _cli_json(capsys: pytest.CaptureFixture[str], path: Path, *score: str) -> dict[str, Any]:
    argv = ["report", str(path), "--y", "y", "--yhat", "yhat", *score, "--format", "json"]
    assert main([*argv, "--average", "macro"]) == 0
    return json.loads(capsys.readouterr().out)["metrics"]


@pytest.mark.parametrize(
    "score",
    [
        ["--score", ",".join(COLUMNS), "--labels", ",".join(CLASSES)],
        ["--proba", ",".join(COLUMNS), "--labels", ",".join(CLASSES)],
        ["--score", ",".join(f"{c}={p}" for c, p in zip(CLASSES, COLUMNS))],
        ["--score", "p_list", "--labels", ",".join(CLASSES)],
    ],
    ids=["columns", "proba-spelling", "pairs", "list-column"],
)
def test_cli(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    three: pl.DataFrame,
    reference: dict[str, float],
    score: list[str],
) -> None:
    path = tmp_path / "three.parquet"
    three.drop("p_array").write_parquet(path)
    got = _cli_json(capsys, path, *score)
    assert got["auroc"] == pytest.approx(reference["auroc"], abs=1e-9)
    assert got["log_loss"] == pytest.approx(reference["log_loss"], abs=1e-9)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--score", "low=p_low,p_medium"], "mixes columns"),
        (["--score", "low=p_low"], "names one class"),
        (["--score", "low=p_low,medium=p_medium", "--labels", "low,medium"], "leave --labels"),
        (["--score", "p_low", "--proba", "p_medium"], "one option"),
        (["--proba", "p_low,p_medium"], "--proba has 2 columns"),
    ],
)
def test_cli_errors(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    three: pl.DataFrame,
    argv: list[str],
    needle: str,
) -> None:
    path = tmp_path / "three.parquet"
    three.drop("p_array").write_parquet(path)
    assert main(["report", str(path), "--y", "y", "--yhat", "yhat", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert needle in err, err


@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_metrics_chooses_multi_class_and_average(
    three: pl.DataFrame, multi_class: str, average: str
) -> None:
    order = sorted(CLASSES)
    p = three.select(COLUMNS[CLASSES.index(c)] for c in order).to_numpy()
    expected = skm.roc_auc_score(
        three["y"].to_numpy(), p, multi_class=multi_class, average=average, labels=order
    )
    got = ce.metrics(
        three, "y", "yhat", score=dict(zip(CLASSES, COLUMNS)), metrics=["auroc"],
        average=average, multi_class=multi_class,
    )  # fmt: skip
    assert got.item() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_metrics_takes_kappa_weights(three: pl.DataFrame, weights: str | None) -> None:
    expected = skm.cohen_kappa_score(
        three["y"].to_numpy(), three["yhat"].to_numpy(), weights=weights, labels=CLASSES
    )
    got = three.clf.metrics(
        "y", "yhat", metrics=["cohen_kappa"], labels=CLASSES, kappa_weights=weights
    )
    assert got.item() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("option", "value"), [("multi_class", "ovx"), ("kappa_weights", "w"), ("kappa_weights", 2)]
)
def test_metrics_option_errors(three: pl.DataFrame, option: str, value: object) -> None:
    with pytest.raises(ce.InputError, match=option):
        ce.metrics(three, "y", "yhat", **{option: value})
