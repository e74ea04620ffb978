"""The report page's content: what report_html returns, the yhat rule it finds, the headline
metrics beside a constant predictor's, and what each kind of data gets drawn.

How the page looks in a browser is tests/test_browser.py's; escaping and sizes are
tests/test_html.py's and tests/test_html_limits.py's.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm
from test_html import EVIL, count, parse
from test_html_limits import specs_of

import clfeval as ce
from clfeval.pages import _summary

GENERATOR = '<meta name="generator" content="clfeval">'
PROBA = {"low": "p_low", "medium": "p_medium", "high": "p_high"}


@pytest.fixture(scope="module")
def binary() -> pl.DataFrame:
    return ce.datasets.predictions(n=3000, seed=2).filter(pl.col("model") == "boosted")


def text_of(page: str) -> str:
    """The page's text as a reader sees it: one space between words and between elements."""
    return html.unescape(" ".join(" ".join(parse(page).text).split()))


# --- ReportPage: a small object, saved like an Altair chart ------------------------------------


def test_report_html_returns_a_small_page_object(binary, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = ce.report_html(binary, "y", "yhat", score="score")
    assert isinstance(page, ce.ReportPage)
    text = page.to_html()
    assert text.startswith("<!DOCTYPE html>")
    assert page.size == len(text.encode("utf-8")) > 500_000  # the Vega bundle is inlined
    assert page.path is None
    assert len(repr(page)) < 200
    assert "not saved" in repr(page)
    before = page._repr_html_()
    assert len(before) < 10_000  # a notebook shows a summary, never the page's megabytes
    assert "not saved yet" in before
    assert "AUROC" in before  # the headline metrics, beside the constant predictor's
    saved = page.save("report.html")
    assert saved == page.path
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == text
    assert GENERATOR in text
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no partial file left
    link = page._repr_html_()
    assert '<a href="report.html" target="_blank">saved to report.html</a>' in link
    assert "saved to 'report.html'" in repr(page)


def test_path_saves_at_once_and_replaces_the_old_file(binary, tmp_path):
    target = tmp_path / "r.html"
    target.write_text("old", encoding="utf-8")
    page = ce.report_html(binary, "y", "yhat", path=target)
    assert page.path == target
    assert target.read_text(encoding="utf-8") == page.to_html()
    outside = ce.report_html(binary, "y", "yhat")
    outside.save(tmp_path / "elsewhere.html")
    assert "saved to" in outside._repr_html_()


# --- the rule yhat follows: the operating threshold ---------------------------------------------


def explorer_start(page: ce.ReportPage) -> float:
    (spec,) = [s for s in specs_of(page.to_html()) if "params" in s]
    return spec["params"][0]["value"]


def test_yhat_rule_found_and_used(binary):
    at_half = ce.report_html(binary, "y", "yhat", score="score")
    assert "yhat is score ≥ 0.5 on every row" in text_of(at_half.to_html())
    assert explorer_start(at_half) == 0.5
    cut = binary.with_columns(yhat=(pl.col("score") >= 0.3).cast(pl.Int64))
    page = ce.report_html(cut, "y", "yhat", score="score")
    assert "yhat is score ≥ 0.3 on every row" in text_of(page.to_html())
    assert explorer_start(page) == 0.3
    # the roundest threshold between the highest negative and the lowest positive score
    odd = binary.with_columns(yhat=(pl.col("score") >= 0.4137).cast(pl.Int64))
    lo = odd.filter(pl.col("yhat") == 0)["score"].max()
    hi = odd.filter(pl.col("yhat") == 1)["score"].min()
    page = ce.report_html(odd, "y", "yhat", score="score")
    start = explorer_start(page)
    assert lo < start <= hi
    assert f"yhat is score ≥ {start:g} on every row" in text_of(page.to_html())


def test_a_yhat_that_is_no_threshold_is_said_with_its_count(binary):
    flipped = binary.with_columns(
        yhat=pl.when(pl.int_range(pl.len()) < 7).then(1 - pl.col("yhat")).otherwise("yhat")
    )
    page = ce.report_html(flipped, "y", "yhat", score="score")
    assert "yhat differs from score ≥ 0.5 on 7 rows" in text_of(page.to_html())
    given = ce.report_html(flipped, "y", "yhat", score="score", threshold=0.42)
    assert explorer_start(given) == 0.42
    differ = int(((flipped["score"] >= 0.42) != (flipped["yhat"] == 1)).sum())
    assert f"yhat differs from score ≥ 0.42 on {differ:,} rows" in text_of(given.to_html())


def test_threshold_must_be_a_finite_number(binary):
    for bad in ("0.5", float("nan"), True):
        with pytest.raises(ce.InputError, match="threshold"):
            ce.report_html(binary, "y", "yhat", score="score", threshold=bad)


# --- the headline: each metric beside a constant predictor's -------------------------------------


def test_headline_binary_against_scikit_learn_and_the_dummy(binary):
    y, yhat, s = (binary[c].to_numpy() for c in ("y", "yhat", "score"))
    head = _summary.headline(
        binary, "y", "yhat", score="score", binary_score=True, classes=[0, 1],
        pos_label=1, labels=None, by=[], weight=None,
    )  # fmt: skip
    got, base = head.values["all"], head.baselines["all"]
    assert got["accuracy"] == pytest.approx(skm.accuracy_score(y, yhat), abs=1e-12)
    assert got["mcc"] == pytest.approx(skm.matthews_corrcoef(y, yhat), abs=1e-12)
    assert got["auroc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    majority = np.full_like(y, np.bincount(y).argmax())  # DummyClassifier("most_frequent")
    assert base["accuracy"] == pytest.approx(skm.accuracy_score(y, majority), abs=1e-12)
    assert base["f1"] == pytest.approx(skm.f1_score(y, majority, zero_division=0), abs=1e-12)
    assert base["auroc"] == 0.5
    assert base["average_precision"] == pytest.approx(y.mean(), abs=1e-12)
    prior = np.full(len(y), y.mean())  # DummyClassifier("prior"): the class shares
    assert base["log_loss"] == pytest.approx(skm.log_loss(y, prior), abs=1e-12)
    assert base["brier"] == pytest.approx(skm.brier_score_loss(y, prior), abs=1e-12)


def test_headline_multiclass_uses_macro_averages_and_the_priors():
    mc = ce.datasets.predictions_multiclass(n=1500).filter(pl.col("model") == "boosted")
    y = mc["y"].cast(pl.String).to_numpy()
    p = mc.select("p_high", "p_low", "p_medium").to_numpy()  # scikit-learn's sorted classes
    head = _summary.headline(
        mc, "y", "yhat", score=PROBA, binary_score=False, classes=list(PROBA),
        pos_label=1, labels=None, by=[], weight=None,
    )  # fmt: skip
    got, base = head.values["all"], head.baselines["all"]
    assert head.title("f1") == "F1 score (macro)"
    order = ["high", "low", "medium"]
    assert got["auroc"] == pytest.approx(skm.roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)
    shares = np.array([np.mean(y == c) for c in order])
    prior = np.tile(shares, (len(y), 1))
    assert base["log_loss"] == pytest.approx(skm.log_loss(y, prior, labels=order), abs=1e-12)
    assert base["auroc"] == pytest.approx(0.5, abs=1e-12)
    assert base["balanced_accuracy"] == pytest.approx(1 / 3, abs=1e-12)


def test_grouped_headline_gives_the_constant_once_when_it_is_the_same():
    df = ce.datasets.predictions(n=2000)
    same = ce.report_html(df, "y", "yhat", score="score", by="model").to_html()
    assert '<th scope="col" class="num">constant predictor</th>' in same  # one column
    assert '<span class="base">vs' not in same  # both models scored the same rows
    regions = ce.report_html(df, "y", "yhat", score="score", by="region").to_html()
    assert "constant predictor</th>" not in regions
    assert regions.count('<span class="base">vs') == 3 * 10  # beside each region's value


def test_every_group_keeps_its_colour_in_every_chart():
    df = ce.datasets.predictions(n=2000)
    page = ce.report_html(df, "y", "yhat", score="score", by="model").to_html()
    seen = set()
    for spec in specs_of(page):
        for node in _walk(spec):
            scale = node.get("scale") if node.get("field") == "series" else None
            if isinstance(scale, dict) and "range" in scale:
                names = [d.split(" (")[0] for d in scale["domain"]]
                seen.add(tuple(zip(names, scale["range"], strict=True)))
    assert seen == {(("boosted", "#4c78a8"), ("logistic", "#f58518"))}


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


# --- what each kind of data gets ----------------------------------------------------------------


def chart_kinds(page: str) -> list[str]:
    return re.findall(r'<section class="clf-card[^"]*"><h3>([^<]*)</h3>', page)


def test_binary_page_has_every_chart_and_one_table_per_thing(binary):
    page = ce.report_html(binary, "y", "yhat", score="score").to_html()
    assert chart_kinds(page) == [
        "ROC curve", "Precision-recall curve", "Confusion matrix", "Score distributions",
        "Metrics by threshold", "Threshold explorer", "Calibration", "Cumulative gain",
    ]  # fmt: skip
    parsed = parse(page)
    assert count(parsed, "table") == 2  # the report, and every constant predictor (folded)
    assert page.count("<details") == 2
    text = text_of(page)
    assert text.count("macro avg") == 2  # the table and scikit-learn's text, folded: once each
    assert count(parsed, "script") == 2


def test_multiclass_page_draws_one_vs_rest_curves_and_each_class():
    mc = ce.datasets.predictions_multiclass(n=1500).filter(pl.col("model") == "boosted")
    page = ce.report_html(mc, "y", "yhat", score=PROBA).to_html()
    assert chart_kinds(page)[:5] == [
        "ROC, one class against the rest", "Precision-recall, one class against the rest",
        "Confusion matrix", "Calibration of each class", "Per-class precision, recall and F1",
    ]  # fmt: skip
    specs = specs_of(page)
    roc = json.dumps(specs[0])
    for label in ("low", "medium", "high"):
        got = re.search(rf'"{label} \(AUROC (0\.\d+)\)"', roc)
        want = skm.roc_auc_score(mc["y"].cast(pl.String) == label, mc[PROBA[label]])
        assert float(got.group(1)) == pytest.approx(want, abs=5e-4)
    calibration = {r.get("series") for rows in specs[3]["datasets"].values() for r in rows}
    assert {s.split(" (")[0] for s in calibration if s} == {"low", "medium", "high"}


def test_grouped_multiclass_draws_one_panel_per_group():
    mc = ce.datasets.predictions_multiclass(n=1500)
    page = ce.report_html(mc, "y", "yhat", score=PROBA, by="model").to_html()
    heads = re.findall(r'<h4 class="clf-panel-head">([^<]*)</h4>', page)
    assert heads == ["boosted", "logistic"] * 3  # ROC, PR, calibration: a panel per model


def test_text_labels_without_a_positive_class_get_macro_headlines():
    df = pl.DataFrame(
        {"y": ["no", "yes", "yes", "no"] * 25, "yhat": ["no", "yes", "no", "no"] * 25}
    )
    text = text_of(ce.report_html(df, "y", "yhat").to_html())
    assert "F1 score (macro)" in text
    f1 = float(re.search(r"F1 score \(macro\) (\d\.\d{3})", text).group(1))
    assert f1 == pytest.approx(skm.f1_score(df["y"], df["yhat"], average="macro"), abs=5e-4)


def test_hostile_title_labels_and_groups_stay_text():
    df = ce.datasets.predictions(n=600).with_columns(
        pl.col("model").replace({"boosted": EVIL}),
        pl.col("y").replace_strict({0: "<!--", 1: EVIL}, return_dtype=pl.String).alias(EVIL),
        pl.col("yhat").replace_strict({0: "<!--", 1: EVIL}, return_dtype=pl.String).alias("p"),
    )
    page = ce.report_html(df, EVIL, "p", score="score", by="model", pos_label=EVIL, title=EVIL)
    parsed = parse(page.to_html())
    assert count(parsed, "script") == 2
    assert count(parsed, "img") == 0
    assert "</" not in parsed.scripts[1]
    text = "".join(parsed.text)
    assert text.count(EVIL) >= 6  # title, heading, lede, chips, headline table, tables
    assert html.escape(EVIL) in page._repr_html_()  # the title, escaped
    assert "<script>alert" not in page._repr_html_()


def test_per_class_scores_of_two_classes_and_a_list_column_get_their_curves():
    df = ce.datasets.patients().with_columns(p0=1 - pl.col("score"), p1=pl.col("score"))
    page = ce.report_html(df, "y", "yhat", score={0: "p0", 1: "p1"}).to_html()
    assert chart_kinds(page)[:2] == [
        "ROC, one class against the rest", "Precision-recall, one class against the rest",
    ]  # fmt: skip
    assert "Average precision (one-vs-rest, macro)" in text_of(page)
    mc = ce.datasets.predictions_multiclass(n=600).with_columns(
        p=pl.concat_list("p_low", "p_medium", "p_high")
    )
    listed = ce.report_html(mc, "y", "yhat", score="p", labels=["low", "medium", "high"])
    assert "Calibration of each class" in chart_kinds(listed.to_html())
