"""Charts: Vega-Lite validity, the encodings that matter, rendered pixels, size at scale.

Until clfeval's curve functions exist, the input frames are built here from scikit-learn
(``roc_curve``, ``precision_recall_curve``, ``det_curve``, ``confusion_matrix``,
``calibration_curve``) or from a Polars group-by, shaped exactly as the API documents them
(``threshold, fpr, tpr`` ... with ``by``/``label`` columns first).
"""

from __future__ import annotations

import itertools
import json
import struct
import zlib
from functools import cache

import altair as alt
import jsonschema
import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

import clfeval
from clfeval import charts
from clfeval.charts import _data as chart_data
from clfeval.charts import _plot, _thin
from clfeval.charts._render import to_png, to_svg
from clfeval.exceptions import InputError

# --- frames shaped like clfeval's, from scikit-learn -------------------------------------


def _data(n=3000, seed=0, groups=("a", "b")):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(3)  # rounding makes ties
    g = rng.choice(list(groups), n)
    return pl.DataFrame({"model": g, "y": y, "s": s})


def roc_frame(y, s):
    fpr, tpr, thr = skm.roc_curve(y, s)
    return pl.DataFrame({"threshold": thr, "fpr": fpr, "tpr": tpr})


def pr_frame(y, s):
    p, r, thr = skm.precision_recall_curve(y, s)
    return pl.DataFrame({"threshold": [*thr, None], "precision": p, "recall": r})


def det_frame(y, s):
    fpr, fnr, thr = skm.det_curve(y, s)
    return pl.DataFrame({"threshold": thr, "fpr": fpr, "fnr": fnr})


def thresholds_frame(y, s):
    """``thresholds()``: one row per distinct score, highest first, rule score >= threshold."""
    df = pl.DataFrame({"y": y, "s": s})
    pos, neg = int(np.sum(y)), int(len(y) - np.sum(y))
    g = df.group_by("s").agg(p=pl.col("y").sum(), n=pl.len()).sort("s", descending=True)
    g = g.with_columns(
        tp=pl.col("p").cum_sum().cast(pl.Int64),
        fp=(pl.col("n") - pl.col("p")).cum_sum().cast(pl.Int64),
    )
    tp, fp = pl.col("tp").cast(pl.Float64), pl.col("fp").cast(pl.Float64)
    fn, tn = pos - tp, neg - fp
    return g.select(
        threshold="s",
        tp="tp",
        fp="fp",
        fn=(pos - pl.col("tp")),
        tn=(neg - pl.col("fp")),
        precision=tp / (tp + fp),
        recall=tp / pos,
        specificity=tn / neg,
        fpr=fp / neg,
        npv=pl.when(tn + fn > 0).then(tn / (tn + fn)).otherwise(0.0),
        f1=2 * tp / (2 * tp + fp + fn),
        accuracy=(tp + tn) / len(y),
        balanced_accuracy=(tp / pos + tn / neg) / 2,
        mcc=pl.when((tp + fp) * (tn + fn) > 0)
        .then((tp * tn - fp * fn) / ((tp + fp) * pos * neg * (tn + fn)).sqrt())
        .otherwise(0.0),
        youden_j=tp / pos + tn / neg - 1,
    )


def gain_frame(y, s):
    df = (
        pl.DataFrame({"y": y, "s": s})
        .group_by("s")
        .agg(p=pl.col("y").sum(), n=pl.len())
        .sort("s", descending=True)
    )
    out = df.select(
        fraction_targeted=pl.col("n").cum_sum() / len(y),
        gain=pl.col("p").cum_sum() / int(np.sum(y)),
    )
    return pl.concat([pl.DataFrame({"fraction_targeted": [0.0], "gain": [0.0]}), out])


def lift_frame(y, s):
    g = gain_frame(y, s).slice(1)
    return g.select("fraction_targeted", lift=pl.col("gain") / pl.col("fraction_targeted"))


def calibration_frame(y, p, n_bins=10):
    frac, mean = calibration_curve(y, p, n_bins=n_bins)
    bins = np.linspace(0, 1, n_bins + 1)
    ids = np.searchsorted(bins[1:-1], p)
    counts = np.bincount(ids, minlength=n_bins)
    return pl.DataFrame(
        {
            "bin": np.nonzero(counts)[0],
            "mean_predicted": mean,
            "fraction_positive": frac,
            "count": counts[counts > 0],
        }
    )


def confusion_frame(y, yhat, labels):
    cm = skm.confusion_matrix(y, yhat, labels=labels)
    rows = [(a, b, int(cm[i, j])) for i, a in enumerate(labels) for j, b in enumerate(labels)]
    return pl.DataFrame(rows, schema=["actual", "predicted", "count"], orient="row")


def grouped(frame_fn, df, key="model"):
    parts = []
    for (name,), part in df.group_by(key, maintain_order=True):
        parts.append(
            frame_fn(part["y"].to_numpy(), part["s"].to_numpy()).select(
                pl.lit(name).alias(key), pl.all()
            )
        )
    return pl.concat(parts).sort(key, maintain_order=True)


def multiclass_roc(n=1500, seed=3):
    """One-vs-rest curves with a ``label`` column right after the group columns."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    parts = []
    for k in range(3):
        s = np.clip(rng.normal(0.4 + 0.25 * (y == k), 0.2), 0, 1)
        parts.append(
            roc_frame((y == k).astype(int), s).select(pl.lit(f"class {k}").alias("label"), pl.all())
        )
    return pl.concat(parts)


DF = _data()
Y, S = DF["y"].to_numpy(), DF["s"].to_numpy()


@cache
def builders():
    """Every chart, binary and grouped, from frames shaped like clfeval's."""
    cm = confusion_frame(Y, (S >= 0.5).astype(int), [0, 1])
    cm_by = pl.concat([cm.select(pl.lit(m).alias("model"), pl.all()) for m in "ab"])
    metric_rows = (
        DF.group_by("model")
        .agg(
            accuracy=((pl.col("s") >= 0.5).cast(pl.Int64) == pl.col("y")).mean(),
            recall=((pl.col("s") >= 0.5) & (pl.col("y") == 1)).sum() / (pl.col("y") == 1).sum(),
            mcc=pl.lit(0.4),
        )
        .sort("model")
    )
    return {
        "roc": lambda: charts.roc(roc_frame(Y, S), threshold=0.5),
        "roc_by": lambda: charts.roc(grouped(roc_frame, DF)),
        "roc_multiclass": lambda: charts.roc(multiclass_roc()),
        "pr": lambda: charts.pr(pr_frame(Y, S), threshold=0.5),
        "pr_by": lambda: charts.pr(grouped(pr_frame, DF)),
        "det": lambda: charts.det(det_frame(Y, S)),
        "det_by": lambda: charts.det(grouped(det_frame, DF)),
        "gain": lambda: charts.gain(gain_frame(Y, S)),
        "lift": lambda: charts.lift(grouped(lift_frame, DF)),
        "confusion_matrix": lambda: charts.confusion_matrix(cm),
        "confusion_matrix_by": lambda: charts.confusion_matrix(cm_by),
        "thresholds": lambda: charts.thresholds(thresholds_frame(Y, S), threshold=0.5),
        "thresholds_by": lambda: charts.thresholds(
            grouped(thresholds_frame, DF), metrics=["f1", "mcc"]
        ),
        "calibration": lambda: charts.calibration(calibration_frame(Y, S)),
        "scores": lambda: charts.scores(charts.score_histogram(DF, "y", "s"), threshold=0.5),
        "scores_by": lambda: charts.scores(charts.score_histogram(DF, "y", "s", by="model")),
        "compare": lambda: charts.compare(metric_rows),
        "explorer": lambda: charts.explorer(thresholds_frame(Y, S), threshold=0.45),
        "explorer_by": lambda: charts.explorer(grouped(thresholds_frame, DF)),
    }


@cache
def spec(name):
    return builders()[name]().to_dict()


@cache
def vegalite_schema():
    return jsonschema.Draft7Validator(alt.vegalite.v6.schema.load_schema())


def walk(node):
    """Every dict in a nested spec."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def units(d):
    """Unit specs (those with a mark) anywhere in the spec."""
    return [n for n in walk(d) if "mark" in n and "encoding" in n]


def rows(d):
    return sum(len(v) for v in d.get("datasets", {}).values())


ALL = list(builders())


# --- schema and JSON -------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_spec_is_valid_vega_lite(name):
    d = spec(name)  # altair validated it already; check again with jsonschema
    errors = list(vegalite_schema().iter_errors(d))
    assert errors == [], errors[:1]
    assert d["$schema"].endswith(f"{alt.SCHEMA_VERSION}.json")


@pytest.mark.parametrize("name", ALL)
def test_spec_is_strict_json_without_inf_or_nan(name):
    def reject(token):
        raise ValueError(token)

    text = builders()[name]().to_json()
    assert json.loads(text, parse_constant=reject)


@pytest.mark.parametrize("name", ALL)
def test_encodings_are_typed_and_titled(name):
    for unit in units(spec(name)):
        for channel, enc in unit["encoding"].items():
            if isinstance(enc, dict) and "field" in enc and channel not in {"x2", "y2"}:
                assert enc.get("type") in {"quantitative", "nominal", "ordinal"}, (channel, enc)
                if channel in {"x", "y"} and enc.get("title", "") is not None:
                    assert enc.get("title", "") != enc["field"] or enc["field"] in {"value"}, (
                        channel,
                        enc,
                    )


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in ALL
        if n.split("_")[0] in {"roc", "pr", "det", "gain", "lift", "thresholds", "explorer"}
    ],
)
def test_curves_have_an_order_channel(name):
    lines = [
        u
        for u in units(spec(name))
        if (u["mark"] if isinstance(u["mark"], str) else u["mark"]["type"]) == "line"
        and u["encoding"].get("color", {}).get("field")
        in {"series", "metric"} | ({None} if "by" not in name else set())
    ]
    assert lines
    assert all(
        u["encoding"]["order"]["field"] == "order"
        for u in lines
        if "strokeDash" not in (u["mark"] if isinstance(u["mark"], dict) else {})
    )


# --- encodings that matter -----------------------------------------------------------------


def _axis(d, channel, field):
    return [
        u["encoding"][channel]
        for u in units(d)
        if u["encoding"].get(channel, {}).get("field") == field
    ]


@pytest.mark.parametrize(
    ("name", "x", "y", "x_title", "y_title"),
    [
        ("roc", "fpr", "tpr", "False positive rate", "True positive rate"),
        ("pr", "recall", "precision", "Recall", "Precision"),
        (
            "gain",
            "fraction_targeted",
            "gain",
            "Fraction targeted (highest scores first)",
            "Share of positives found",
        ),
        (
            "calibration",
            "mean_predicted",
            "fraction_positive",
            "Mean predicted probability",
            "Fraction of positives",
        ),
    ],
)
def test_rate_axes_are_worded_and_span_zero_to_one(name, x, y, x_title, y_title):
    d = spec(name)
    for channel, field, title in (("x", x, x_title), ("y", y, y_title)):
        encodings = _axis(d, channel, field)
        assert encodings
        assert {e["title"] for e in encodings} == {title}
        assert all(e["scale"]["domain"] == [0, 1] for e in encodings)


def test_roc_line_per_group_and_auroc_in_legend():
    d = spec("roc_by")
    color = next(
        u["encoding"]["color"]
        for u in units(d)
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    want = {m: skm.roc_auc_score(p["y"], p["s"]) for (m,), p in DF.group_by("model")}
    assert color["scale"]["domain"] == [f"{m} (AUROC {want[m]:.3f})" for m in ("a", "b")]
    assert color["scale"]["range"] == list(charts.PALETTE[:2])
    assert color["title"] == "model"


def test_roc_legend_area_is_sklearn_auroc():
    raw, _ = chart_data.prepare(roc_frame(Y, S), ("threshold", "fpr", "tpr"), "roc_curve")
    area = (
        (pl.col("fpr") - pl.col("fpr").shift(1)) * (pl.col("tpr") + pl.col("tpr").shift(1))
    ).sum() / 2
    assert chart_data.per_series(raw, area)["all"] == pytest.approx(
        skm.roc_auc_score(Y, S), abs=1e-12
    )


def test_pr_legend_is_sklearn_average_precision_and_baseline_is_prevalence():
    d = spec("pr_by")
    color = next(
        u["encoding"]["color"]
        for u in units(d)
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    want = {m: skm.average_precision_score(p["y"], p["s"]) for (m,), p in DF.group_by("model")}
    assert color["scale"]["domain"] == [f"{m} (AP {want[m]:.3f})" for m in ("a", "b")]
    rule = next(u for u in units(d) if u["mark"]["type"] == "rule")
    baseline = d["datasets"][rule["data"]["name"]]
    prevalence = {m: p["y"].mean() for (m,), p in DF.group_by("model")}
    assert [r["precision"] for r in baseline] == pytest.approx(
        [prevalence["a"], prevalence["b"]], abs=1e-6
    )


def test_given_metric_replaces_computed_one():
    frame = pl.DataFrame({"model": ["a", "b"], "auroc": [0.25, None]})
    d = charts.roc(grouped(roc_frame, DF), auroc=frame).to_dict()
    domain = next(
        u["encoding"]["color"]["scale"]["domain"]
        for u in units(d)
        if "color" in u["encoding"] and "scale" in u["encoding"]["color"]
    )
    assert domain == ["a (AUROC 0.250)", "b (AUROC undefined)"]
    single = charts.roc(roc_frame(Y, S), auroc=0.5).to_dict()
    assert "AUROC 0.500" in json.dumps(single)


def test_same_group_same_colour_in_every_chart():
    domains = []
    for name in ("roc_by", "pr_by", "det_by"):
        color = next(
            u["encoding"]["color"]
            for u in units(spec(name))
            if u["encoding"].get("color", {}).get("field") == "series"
        )
        domains.append(
            (
                tuple(s.split(" (")[0] for s in color["scale"]["domain"]),
                tuple(color["scale"]["range"]),
            )
        )
    assert len(set(domains)) == 1


def test_multiclass_one_line_per_label():
    d = spec("roc_multiclass")
    color = next(
        u["encoding"]["color"]
        for u in units(d)
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    assert [s.split(" (")[0] for s in color["scale"]["domain"]] == ["class 0", "class 1", "class 2"]
    assert color["title"] == "class"
    assert color["scale"]["range"] == list(charts.CLASS_PALETTE[:3])  # never the groups' colours


def operating_points(d):
    """The marked operating points: the small dataset whose rows have a threshold."""
    return [
        r
        for rows_ in d["datasets"].values()
        if len(rows_) <= 20 and all("threshold" in r and "fpr" in r for r in rows_)
        for r in rows_
    ]


def test_operating_point_is_the_rule_score_at_least_threshold():
    d = spec("roc")
    (row,) = operating_points(d)
    predicted = S >= 0.5
    assert row["fpr"] == pytest.approx(np.mean(predicted[Y == 0]), abs=1e-6)
    assert row["tpr"] == pytest.approx(np.mean(predicted[Y == 1]), abs=1e-6)
    assert row["threshold"] == S[S >= 0.5].min()
    said = d["title"]["subtitle"][0]  # in words above the plot, never a label over the curve
    assert said == (
        f"● the operating point score ≥ 0.5: True positive rate {row['tpr']:.3f}, "
        f"False positive rate {row['fpr']:.3f}"
    )
    assert not [u for u in units(d) if u["mark"]["type"] == "text"]


def test_infinite_threshold_becomes_null():
    d = spec("roc")
    curve = max(d["datasets"].values(), key=len)
    assert curve[0]["fpr"] == 0
    assert "threshold" not in curve[0]  # +inf start row: no threshold
    assert "Infinity" not in json.dumps(d)
    assert "NaN" not in json.dumps(d)


def test_tooltips_carry_threshold_and_counts():
    tips = next(
        u["encoding"]["tooltip"] for u in units(spec("thresholds")) if "tooltip" in u["encoding"]
    )
    fields = {t["field"] for t in tips}
    assert {"threshold", "tp", "fp", "fn", "tn"} <= fields
    roc_tips = next(
        u["encoding"]["tooltip"] for u in units(spec("roc")) if "tooltip" in u["encoding"]
    )
    assert [t["field"] for t in roc_tips][:3] == ["threshold", "fpr", "tpr"]


def test_confusion_matrix_follows_label_order():
    labels = [10, 2, 1]  # neither numeric nor string sort
    rng = np.random.default_rng(1)
    y = rng.choice(labels, 300)
    yhat = np.where(rng.random(300) < 0.7, y, rng.choice(labels, 300))
    d = charts.confusion_matrix(confusion_frame(y, yhat, labels)).to_dict()
    rect = units(d)[0]["encoding"]
    assert rect["x"]["sort"] == rect["y"]["sort"] == ["10", "2", "1"]
    assert (rect["x"]["field"], rect["y"]["field"]) == ("predicted", "actual")
    cells = {(r["actual"], r["predicted"]): r["count"] for r in next(iter(d["datasets"].values()))}
    assert cells[("10", "2")] == int(np.sum((y == 10) & (yhat == 2)))


@pytest.mark.parametrize("n_classes", [2, 30, 60])
def test_confusion_matrix_is_readable_from_2_to_many_classes(n_classes):
    labels = [f"class {i}" for i in range(n_classes)]
    rng = np.random.default_rng(n_classes)
    y = rng.choice(labels, 5000)
    yhat = np.where(rng.random(5000) < 0.6, y, rng.choice(labels, 5000))
    chart = charts.confusion_matrix(confusion_frame(y, yhat, labels))
    d = chart.to_dict()
    step = d["width"]["step"]
    shown = units(d)[0]["encoding"]["x"]["sort"]
    assert len(shown) == min(n_classes, charts.MAX_CLASSES + 1)  # the rest pooled as "other"
    assert len(shown) * step <= 720
    has_text = any(u["mark"]["type"] == "text" for u in units(d))
    assert has_text == (step >= 20)
    assert image_stats(to_png(chart, scale=1))[0] > 0.02


def test_normalized_confusion_matrix_shows_percent():
    frame = confusion_frame(Y, (S >= 0.5).astype(int), [0, 1])
    frame = frame.with_columns(value=pl.col("count") / pl.col("count").sum().over("actual")).drop(
        "count"
    )
    d = charts.confusion_matrix(frame).to_dict()
    text = next(u for u in units(d) if u["mark"]["type"] == "text")
    assert text["encoding"]["text"] == {"field": "value", "type": "quantitative", "format": ".1%"}
    assert units(d)[0]["encoding"]["color"]["scale"]["domain"] == [0, 1]


def test_calibration_title_has_ece():
    frame = calibration_frame(Y, S)
    c = frame["count"].to_numpy()
    ece = (
        np.sum(
            c * np.abs(frame["fraction_positive"].to_numpy() - frame["mean_predicted"].to_numpy())
        )
        / c.sum()
    )
    title = spec("calibration")["title"]
    assert title["text"] == "Reliability diagram"
    assert title["subtitle"][0] == f"Expected calibration error (ECE) {ece:.3f}"


def test_thresholds_marks_the_best_f1():
    d = spec("thresholds")
    best = [r for r in max(d["datasets"].values(), key=len) if r.get("part") == "best"]
    table = thresholds_frame(Y, S)
    top = table.row(table["f1"].arg_max(), named=True)
    assert [(r["metric"], r["threshold"]) for r in best] == [("F1 score", top["threshold"])]


def test_thresholds_without_trade_off_metrics_marks_nothing():
    d = charts.thresholds(thresholds_frame(Y, S), metrics=["precision", "recall"]).to_dict()
    data = max(d["datasets"].values(), key=len)
    assert not [r for r in data if r.get("part") == "best"]
    assert {"precision", "f1"}.isdisjoint(data[0])  # only the drawn metrics travel
    assert {"Precision", "Recall", "tp", "fp", "fn", "tn", "threshold"} <= set(data[0])


def test_compare_rows_are_metrics_and_colours_are_groups():
    d = spec("compare")
    dots = next(u for u in units(d) if u["mark"]["type"] == "point")
    assert dots["encoding"]["y"]["sort"] == ["Accuracy", "Recall", "Matthews correlation"]
    assert dots["encoding"]["color"]["scale"]["domain"] == ["a", "b"]


def test_scores_histogram_is_binned_by_polars():
    d = spec("scores")
    bars = next(u for u in units(d) if u["mark"]["type"] == "bar")
    assert "bin" not in bars["encoding"]["x"]  # no Vega binning: the data is the histogram
    assert rows(d) <= 2 * 40 + 1


def test_errors_name_the_missing_column():
    with pytest.raises(InputError, match=r"the roc_curve chart needs the columns \['tpr'\]") as err:
        charts.roc(pl.DataFrame({"threshold": [1.0], "fpr": [0.0]}))
    assert err.value.column == "tpr"
    assert "Hint: the frame has ['threshold', 'fpr']" in str(err.value)
    with pytest.raises(InputError, match="needs a polars DataFrame"):
        charts.pr({"threshold": [1.0]})


def test_lazy_frames_are_accepted():
    assert charts.roc(roc_frame(Y, S).lazy()).to_dict() == charts.roc(roc_frame(Y, S)).to_dict()


# --- the explorer ----------------------------------------------------------------------------


def explorer_grid(d):
    """The explorer's slider (first, step, last) and its exact counts per series and grid
    index: ``{series: {k: (tp, fp, fn, tn)}}`` for every k, runs of equal counts filled in."""
    (param,) = d["params"]
    bind = param["bind"]
    first, step, last = bind["min"], bind["step"], bind["max"]
    n = round((last - first) / step) + 1
    stored = [r for rows_ in d["datasets"].values() for r in rows_ if "k" in r]
    counts: dict = {}
    for r in sorted(stored, key=lambda r: (r["series"], r["k"])):
        counts.setdefault(r["series"], {})[r["k"]] = (r["tp"], r["fp"], r["fn"], r["tn"])
    for got in counts.values():
        now = got[0]
        for k in range(n):
            now = got.get(k, now)
            got[k] = now
    return (first, step, last), counts


def test_explorer_binds_a_threshold_slider_on_one_round_grid():
    d = spec("explorer")
    (param,) = d["params"]
    assert param["name"] == "threshold"
    assert param["bind"]["input"] == "range"
    (first, step, last), _ = explorer_grid(d)
    assert first <= S.min()  # every score is covered
    assert last >= S.max()
    assert step == 0.001
    assert round((last - first) / step) + 1 <= 1001
    assert param["value"] == 0.45  # the threshold asked for, exactly on the grid
    filters = [t["filter"] for n in walk(d) for t in n.get("transform", []) if "filter" in t]
    assert f"datum.k <= round((threshold - {first!r}) / {step!r})" in filters


def test_explorer_counts_are_exact_at_every_grid_threshold():
    """At every slider position the counts are those of the rule score >= threshold."""
    d = spec("explorer")
    (first, step, _), counts = explorer_grid(d)
    (got,) = counts.values()
    for k in range(0, len(got), 7):
        t = round(first + k * step, 3)
        predicted = np.greater_equal(S, t)
        want = (
            int(np.sum(predicted & (Y == 1))),
            int(np.sum(predicted & (Y == 0))),
            int(np.sum(~predicted & (Y == 1))),
            int(np.sum(~predicted & (Y == 0))),
        )
        assert got[k] == want, (k, t)
    curve = [r for r in max(d["datasets"].values(), key=len) if "order" in r]
    assert (curve[0]["fpr"], curve[0]["tpr"], curve[0]["precision"]) == (0, 0, 1)  # nothing flagged


def test_explorer_keeps_every_group_over_the_whole_range():
    """A group whose scores stop early keeps its counts up to the top of the shared grid."""
    low = DF.with_columns(
        s=pl.when(pl.col("model") == "b").then(pl.col("s") * 0.5).otherwise(pl.col("s"))
    )
    d = low.clf.plot.explorer("y", "s", by="model", threshold=0.5).to_dict()
    (first, step, last), counts = explorer_grid(d)
    assert set(counts) == {"a", "b"}
    b = low.filter(pl.col("model") == "b")
    for k in (0, round((0.5 - first) / step), round((last - first) / step)):
        t = round(first + k * step, 3)
        predicted = b["s"].to_numpy() >= t
        yy = b["y"].to_numpy()
        assert counts["b"][k][:2] == (
            int(np.sum(predicted & (yy == 1))),
            int(np.sum(predicted & (yy == 0))),
        )
    assert counts["b"][round((last - first) / step)][:2] == (0, 0)  # above its scores: none


def test_explorer_metrics_panel_lists_the_metrics():
    text = json.dumps(spec("explorer"))
    for name in (
        "Precision",
        "Recall",
        "Specificity",
        "F1 score",
        "Accuracy",
        "Matthews correlation",
    ):
        assert name in text


# --- thinning and scale ---------------------------------------------------------------------


def _segment_distance(points, line):
    """Largest distance from ``points`` to the polyline ``line`` (both n x 2)."""
    a, b = line[:-1], line[1:]
    ab = b - a
    worst = 0.0
    for p in points:
        t = np.clip(
            np.sum((p - a) * ab, axis=1) / np.maximum(np.sum(ab * ab, axis=1), 1e-300), 0, 1
        )
        worst = max(worst, float(np.min(np.linalg.norm(a + t[:, None] * ab - p, axis=1))))
    return worst


def test_collinear_points_go_first_and_change_nothing():
    x = np.concatenate([np.linspace(0, 0.5, 400), np.full(300, 0.5), np.linspace(0.5, 1, 300)])
    y = np.concatenate([np.linspace(0, 0.9, 400), np.linspace(0.9, 0.95, 300), np.full(300, 1.0)])
    frame = chart_data.with_series(pl.DataFrame({"x": x, "y": y}), [])
    out = _thin.thin(frame, [("x", "y")], max_points=1000)
    assert out.height == 4  # the three corners and nothing else
    kept = out.select("x", "y").to_numpy()
    assert _segment_distance(np.column_stack([x, y])[::37], kept) < 1e-12


def test_thinning_keeps_the_shape_within_the_budget():
    rng = np.random.default_rng(5)
    y = rng.random(200_000) < 0.3
    s = rng.normal(y * 1.2, 1.0)
    curve = roc_frame(y, s)
    out = _thin.thin(chart_data.with_series(curve, []), [("fpr", "tpr")], max_points=500)
    assert out.height <= 500
    full, kept = curve.select("fpr", "tpr").to_numpy(), out.select("fpr", "tpr").to_numpy()
    assert np.array_equal(kept[0], full[0])
    assert np.array_equal(kept[-1], full[-1])
    assert np.all(np.diff(out["order"].to_numpy()) > 0)  # order kept
    assert _segment_distance(full[:: max(1, len(full) // 2000)], kept) < 0.01
    area = np.sum(np.diff(kept[:, 0]) * (kept[1:, 1] + kept[:-1, 1]) / 2)
    assert area == pytest.approx(skm.roc_auc_score(y, s), abs=2e-3)


def test_many_groups_share_the_row_budget_and_never_hit_altair_max_rows():
    rng = np.random.default_rng(2)
    parts = []
    for k in range(30):
        y = rng.integers(0, 2, 20_000)
        s = rng.normal(y, 1.0)
        parts.append(roc_frame(y, s).select(pl.lit(f"fold {k:02d}").alias("fold"), pl.all()))
    curve = pl.concat(parts)
    assert alt.data_transformers.active == "default"
    d = charts.roc(curve).to_dict()  # would raise MaxRowsError if Altair saw > 5000 rows
    assert 5000 < rows(d) <= chart_data.MAX_ROWS + 10
    assert len(json.dumps(d)) < 2_000_000


@pytest.mark.slow
def test_ten_million_rows_give_a_spec_under_one_megabyte():
    """10M input rows. The ROC frame comes from clfeval.roc_curve when it exists, else from
    a Polars group-by over the 10M rows (every distinct score, no drop_intermediate)."""
    rng = np.random.default_rng(10)
    n = 10_000_000
    y = rng.random(n) < 0.3
    df = pl.DataFrame({"y": y.astype(np.int8), "s": rng.normal(y * 1.0, 1.0)})
    del y
    if hasattr(clfeval, "roc_curve"):
        curve = clfeval.roc_curve(df, "y", "s")
    else:
        pos = int(df["y"].sum())
        neg = n - pos
        hits = pl.col("y").cast(pl.Int64)
        ranked = df.sort("s", descending=True).select(
            "s", tp=hits.cum_sum(), fp=(1 - hits).cum_sum()
        )
        last = ranked.filter(
            pl.col("s") != pl.col("s").shift(-1).fill_null(float("nan"))
        )  # per distinct score
        curve = pl.concat(
            [
                pl.DataFrame({"threshold": [float("inf")], "fpr": [0.0], "tpr": [0.0]}),
                last.select(threshold="s", fpr=pl.col("fp") / neg, tpr=pl.col("tp") / pos),
            ]
        )
    assert curve.height > 1_000_000
    text = charts.roc(curve, threshold=0.5).to_json(indent=None)
    assert len(text.encode()) < 1_000_000
    # explorer over a thresholds table of the same 10M rows (scores to 4 decimals), from
    # clfeval.thresholds when it exists, else from a Polars group-by
    rounded = df.with_columns(pl.col("s").round(4))
    del df
    if hasattr(clfeval, "thresholds"):
        table = clfeval.thresholds(rounded, "y", "s")
    else:
        table = thresholds_frame(rounded["y"].to_numpy(), rounded["s"].to_numpy())
    assert table.height > 50_000
    text = charts.explorer(table).to_json(indent=None)
    assert len(text.encode()) < 1_000_000


# --- data helpers ---------------------------------------------------------------------------


def test_score_histogram_matches_numpy_and_is_lazy_in_lazy_out():
    rng = np.random.default_rng(4)
    y, s = rng.integers(0, 2, 5000), rng.normal(size=5000)  # continuous: no score on an edge
    df = pl.DataFrame({"y": y, "s": s})
    out = charts.score_histogram(df, "y", "s", n_bins=20)
    edges = np.linspace(s.min(), s.max(), 21)
    for cls in (0, 1):
        want, _ = np.histogram(s[y == cls], bins=edges)
        part = out.filter(pl.col("actual") == cls)
        got = np.zeros(20, dtype=int)
        got[part["bin"].to_numpy()] = part["count"].to_numpy()
        assert got.tolist() == want.tolist()
        assert part["fraction"].sum() == pytest.approx(1.0)
        assert np.allclose(part["bin_start"], edges[part["bin"]], atol=1e-12)
    assert isinstance(charts.score_histogram(df.lazy(), "y", "s"), pl.LazyFrame)
    weighted = charts.score_histogram(
        df.with_columns(w=pl.lit(2.0)), "y", "s", n_bins=20, weight="w"
    )
    assert weighted["count"].to_list() == [2 * c for c in out["count"].to_list()]


def test_score_histogram_counts_agree_with_its_own_edges():
    """Scores in steps of 0.001 fall on bin edges; each must be counted in the bin whose
    reported [bin_start, bin_end) holds it (the last bin also holds the maximum)."""
    out = charts.score_histogram(DF, "y", "s", n_bins=20)
    edges = out.select("bin", "bin_start", "bin_end").unique().sort("bin")
    assert edges["bin"].to_list() == list(range(20))
    starts, ends = edges["bin_start"].to_numpy(), edges["bin_end"].to_numpy()
    assert np.array_equal(starts[1:], ends[:-1])
    scores, truth = S, Y
    where = np.searchsorted(starts, scores, side="right") - 1
    assert np.all((scores >= starts[where]) & ((scores < ends[where]) | (where == 19)))
    for row in out.iter_rows(named=True):
        in_bin = (where == row["bin"]) & (truth == row["actual"])
        assert row["count"] == np.sum(in_bin)


def test_score_histogram_leaves_out_nulls_and_nan():
    df = pl.DataFrame({"y": [1, 0, None, 1, 0], "s": [0.9, 0.1, 0.5, float("nan"), None]})
    out = charts.score_histogram(df, "y", "s", n_bins=2)
    assert out.select("actual", "count").rows() == [(0, 1), (1, 1)]
    for bad in (0, 1001, 2.5, True):  # the one n_bins rule: an integer from 1 to 1,000
        with pytest.raises(InputError, match=r"n_bins=.* is not an integer from 1 to 1,000"):
            charts.score_histogram(df, "y", "s", n_bins=bad)


def test_probit_matches_the_normal_quantile():
    from scipy.stats import norm

    p = np.concatenate(
        [np.logspace(-6, -1, 60), np.linspace(0.02, 0.98, 97), 1 - np.logspace(-6, -1, 60)]
    )
    got = pl.select(_thin.probit(pl.Series(p))).to_series().to_numpy()
    assert np.allclose(got, norm.ppf(p), rtol=2e-9, atol=1e-9)
    ends = pl.select(_thin.probit(pl.Series([0.0, 1.0]))).to_series().to_list()
    assert ends == pytest.approx([-5.0, 5.0], abs=1e-6)


# --- rendered pixels ------------------------------------------------------------------------


def png_pixels(png):
    """RGBA pixels of a non-interlaced 8-bit RGB/RGBA PNG (what vl-convert writes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8
    assert interlace == 0
    assert color in (2, 6)
    bpp = 4 if color == 6 else 3
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    prev = np.zeros(width * bpp, dtype=np.int32)
    for r in range(height):
        kind, line = raw[r, 0], raw[r, 1:].astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 1:  # Sub: a running sum per channel (what vl-convert writes)
            cur = np.cumsum(line.reshape(width, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:
            cur = (line + prev) % 256
        else:  # Average and Paeth depend on the decoded left pixel: byte by byte
            cur = np.zeros_like(line)
            for i in range(len(line)):
                left = cur[i - bpp] if i >= bpp else 0
                up, ul = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 3:
                    pred = (left + up) // 2
                else:
                    p = left + up - ul
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                    pred = left if pa <= pb and pa <= pc else up if pb <= pc else ul
                cur[i] = (line[i] + pred) % 256
        out[r], prev = cur, cur
    return out.reshape(height, width, bpp)


def image_stats(png):
    """(share of pixels not background, spread of grey levels, share of coloured pixels).

    Axes, grid lines and text are grey; only drawn data (lines, points, cells, bars) is
    coloured, so the last number says the marks were drawn, not just the frame."""
    px = png_pixels(png)
    rgb = px[..., :3].astype(float)
    if px.shape[2] == 4:  # transparent background counts as white
        alpha = px[..., 3:4] / 255
        rgb = rgb * alpha + 255 * (1 - alpha)
    grey = rgb.mean(axis=2)
    coloured = rgb.max(axis=2) - rgb.min(axis=2) > 40
    return float(np.mean(grey < 245)), float(grey.std()), float(np.mean(coloured))


@pytest.mark.parametrize("name", ALL)
def test_every_chart_renders_a_non_blank_png(name):
    inked, spread, coloured = image_stats(to_png(builders()[name](), scale=1))
    assert inked > 0.02
    assert spread > 10
    assert coloured > 0.003


def test_svg_export_has_the_axis_titles():
    svg = to_svg(builders()["roc"]())
    assert svg.startswith("<svg")
    assert "False positive rate" in svg
    assert "True positive rate" in svg


# --- through df.clf.plot ----------------------------------------------------------------------


def test_plot_namespace_confusion_matrix_and_scores():
    plot = _plot.PlotNamespace(DF.with_columns(yhat=(pl.col("s") >= 0.5).cast(pl.Int64)))
    d = plot.confusion_matrix("y", "yhat", by="model").to_dict()
    data = next(iter(d["datasets"].values()))
    mask = DF["model"].to_numpy() == "a"
    cm = skm.confusion_matrix(Y[mask], (S[mask] >= 0.5).astype(int))
    got = {(r["actual"], r["predicted"]): r["count"] for r in data if r["series"] == "a"}
    assert got == {(str(i), str(j)): int(cm[i, j]) for i in range(2) for j in range(2)}
    layers = plot.scores("y", "s", threshold=0.4).to_dict()["layer"]
    assert [u["mark"]["type"] for u in layers] == ["rect", "bar", "bar", "rule"]


def test_plot_namespace_compare():
    df = DF.with_columns(yhat=(pl.col("s") >= 0.5).cast(pl.Int64))
    d = (
        _plot.PlotNamespace(df)
        .compare("y", "yhat", by="model", metrics=["accuracy", "f1"])
        .to_dict()
    )
    dots = next(u for u in units(d) if u["mark"]["type"] == "point")
    values = {(r["series"], r["metric"]): r["value"] for r in d["datasets"][dots["data"]["name"]]}
    part = df.filter(pl.col("model") == "b")
    assert values[("b", "Accuracy")] == pytest.approx(
        skm.accuracy_score(part["y"], part["yhat"]), abs=1e-6
    )


@pytest.mark.parametrize("method", ["roc", "pr", "det", "thresholds", "gain", "lift", "explorer"])
def test_plot_namespace_curves(method):
    chart = getattr(DF.clf.plot, method)("y", "s", by="model")
    d = chart.to_dict()
    assert not list(vegalite_schema().iter_errors(d))
    assert image_stats(to_png(chart, scale=1))[0] > 0.02


def test_plot_namespace_roc_legend_uses_clfeval_auroc():
    d = DF.clf.plot.roc("y", "s", by="model", threshold=0.5).to_dict()
    color = next(
        u["encoding"]["color"]
        for u in units(d)
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    want = {m: skm.roc_auc_score(p["y"], p["s"]) for (m,), p in DF.group_by("model")}
    assert color["scale"]["domain"] == [f"{m} (AUROC {want[m]:.3f})" for m in ("a", "b")]
    point = operating_points(d)
    part = DF.filter(pl.col("model") == "a")
    predicted = part["s"].to_numpy() >= 0.5
    assert point[0]["tpr"] == pytest.approx(predicted[part["y"].to_numpy() == 1].mean(), abs=1e-6)


def test_plot_namespace_pr_and_calibration_use_clfeval_metrics():
    d = DF.clf.plot.pr("y", "s").to_dict()
    assert f"AP {skm.average_precision_score(Y, S):.3f}" in json.dumps(d)
    ece = DF.select(clfeval.ece("y", "s", n_bins=10)).item()
    title = DF.clf.plot.calibration("y", "s").to_dict()["title"]
    assert title["subtitle"][0] == f"Expected calibration error (ECE) {ece:.3f}"


def test_plot_namespace_works_on_lazy_frames_and_multiclass():
    lazy = DF.lazy().clf.plot.roc("y", "s").to_dict()
    assert lazy == DF.clf.plot.roc("y", "s").to_dict()
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 900)
    p = rng.dirichlet([1, 1, 1], 900) * 0.5 + np.eye(3)[y] * 0.5
    df = pl.DataFrame({"y": y, "p0": p[:, 0], "p1": p[:, 1], "p2": p[:, 2]})
    d = df.clf.plot.roc("y", {0: "p0", 1: "p1", 2: "p2"}).to_dict()
    color = next(
        u["encoding"]["color"]
        for u in units(d)
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    want = [skm.roc_auc_score(y == k, p[:, k]) for k in range(3)]
    assert color["scale"]["domain"] == [f"{k} (AUROC {want[k]:.3f})" for k in range(3)]
    assert color["title"] == "class"


def test_plot_namespace_explorer_counts_match_sklearn():
    d = DF.clf.plot.explorer("y", "s").to_dict()
    (first, step, _), counts = explorer_grid(d)
    (got,) = counts.values()
    for k in range(0, len(got), 50):
        at = np.greater_equal(S, round(first + k * step, 3))
        cm = skm.confusion_matrix(Y, at.astype(int), labels=[0, 1])
        tp, fp, fn, tn = got[k]
        assert (tn, fp, fn, tp) == tuple(int(v) for v in cm.ravel())


def test_a_small_group_is_drawn_in_steps_over_its_own_scores():
    """Each metric of each group holds from one distinct score to the next: consecutive points
    of a line share their threshold or their value, never both changing (a slanted segment
    once joined a small group's points); its points stop at its own highest score."""
    df = DF.with_columns(
        model=pl.when(pl.col("model") == "b").then(pl.lit("big")).otherwise(pl.lit("big2"))
    )
    small = DF.head(60).with_columns(model=pl.lit("small"), s=pl.col("s") * 0.78)
    d = pl.concat([df, small]).clf.plot.thresholds("y", "s", by="model").to_dict()
    rows = [r for r in max(d["datasets"].values(), key=len) if r.get("part") == "line"]
    mine = sorted((r for r in rows if r["series"] == "small"), key=lambda r: r["order"])
    assert mine
    for metric in ("Precision", "Recall", "F1 score"):
        for a, b in itertools.pairwise(mine):
            assert a["threshold"] == b["threshold"] or a[metric] == b[metric], (metric, a, b)
    assert max(r["threshold"] for r in mine) == pytest.approx(small["s"].max())


def test_a_run_of_one_recall_does_not_eat_the_point_budget():
    """A rare class's PR curve has thousands of points at recall 1 (one vertical run); they
    once stayed as undroppable repeats and left too few points to the rest of the curve,
    which was then drawn as long straight segments."""
    mc = clfeval.datasets.predictions_multiclass(n=3000)
    scores = {"low": "p_low", "medium": "p_medium", "high": "p_high"}
    d = mc.clf.plot.pr("y", scores).to_dict()
    rows = [r for r in max(d["datasets"].values(), key=len) if "order" in r]
    drawn = sorted((r for r in rows if r["series"].startswith("high")), key=lambda r: r["order"])
    line = np.array([[r["recall"], r["precision"]] for r in drawn])
    full = clfeval.pr_curve(mc, "y", scores).filter(pl.col("label") == "high")
    points = full.select("recall", "precision").to_numpy()
    assert len(line) <= 1000
    assert _segment_distance(points[:: max(1, len(points) // 1500)], line) < 0.015
