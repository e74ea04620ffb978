"""Bounded output and clean errors in the chart and page layer.

Sizes are asserted, never times: the page and its chart data grow at most linearly with
the classes and groups (charts draw the 20 most frequent classes and the 20 largest
groups and say so beside the chart), and every ``df.clf.plot`` method and
``report_html`` gives a chart or a ``clfeval.InputError`` on hostile input.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import re
import tracemalloc
import warnings

import altair as alt
import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm
from test_html import EVIL, count, parse

import clfeval as ce
from clfeval import charts
from clfeval.charts import _data
from clfeval.charts._data import MAX_CLASSES, MAX_ROWS, MAX_SERIES
from clfeval.charts._plot import PlotNamespace
from clfeval.pages._html import chart_notes, render_html, vega_bundle

HOSTILE = [EVIL, "<!-- x", "a \"quoted\" 'name'", "with space", "ünï ✓ 名前"]
# the most rows one chart may embed: MAX_ROWS points shared by the curves, plus their
# few extra marks (operating points, baselines, best values, the explorer's start rows)
CHART_ROWS = MAX_ROWS + 4 * MAX_SERIES + 100
MATRIX_ROWS = MAX_SERIES * (MAX_CLASSES + 1) ** 2


def specs_of(page: str) -> list[dict]:
    embed = parse(page).scripts[1]
    return json.loads(re.search(r"var specs = (\[.*?\]), options = ", embed, re.S).group(1))


def data_rows(spec: dict) -> int:
    return sum(len(v) for v in spec.get("datasets", {}).values())


def notes_in_page(page: str) -> list[str]:
    """The text of the note paragraphs, unescaped (as a reader sees it)."""
    import html

    found = re.findall(r'<p class="clf-note">(.*?)</p>', page, re.S)
    return [html.unescape(n) for n in found]


def classes_frame(k: int, n: int = 2000, seed: int = 0) -> pl.DataFrame:
    """``n`` rows of ``k`` classes with skewed support, predictions 60% right."""
    rng = np.random.default_rng(seed)
    p = 1 / np.arange(1, k + 1)
    p /= p.sum()
    y = rng.choice(k, n, p=p)
    yhat = np.where(rng.random(n) < 0.6, y, rng.choice(k, n, p=p))
    return pl.DataFrame({"y": [f"class {v}" for v in y], "yhat": [f"class {v}" for v in yhat]})


def groups_frame(g: int, n: int = 20_000, seed: int = 1, key: str = "g") -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(3)
    sizes = rng.zipf(1.5, n) % g  # group i is rarer the larger i: a clear top 20
    return pl.DataFrame(
        {
            "y": y,
            "yhat": (s >= 0.5).astype(np.int64),
            "s": s,
            "w": rng.random(n) + 0.5,
            key: [f"g{v:03d}" for v in sizes],
        }
    )


# --- sizes: linear in classes and groups ---------------------------------------------------


@pytest.fixture(scope="module")
def bundle_size() -> int:
    return len(vega_bundle().encode())


@pytest.mark.parametrize("k", [2, 20, 200, 1000])
def test_report_size_and_memory_grow_at_most_linearly_in_classes(k, bundle_size):
    df = classes_frame(k)
    present = df["y"].append(df["yhat"]).n_unique()
    ce.report(df, "y", "yhat")  # imports and caches out of the measurement
    tracemalloc.start()
    try:
        page = ce.report_html(df, "y", "yhat").to_html()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # the confusion matrix, of at most 21 x 21 cells (before: k^2, 1,000 classes: 1.7M rows),
    # and over two classes the per-class metrics, of at most 40 classes
    rows = [data_rows(s) for s in specs_of(page)]
    assert len(rows) == (1 if present <= 2 else 2)
    assert rows[0] <= (MAX_CLASSES + 1) ** 2
    assert all(r <= 4 * 40 for r in rows[1:])
    # the text report and the table list every class: about 300 bytes a class
    beyond_bundle = len(page.encode()) - bundle_size
    assert beyond_bundle < 110_000 + 300 * present  # 1,000 classes: 229 kB (before: 195 MB)
    assert peak < 20_000_000 + 20_000 * present  # Python's peak; before: 1.5 GB for 1,000
    notes = notes_in_page(page)
    if present > MAX_CLASSES + 1:
        shown = f"Showing the {MAX_CLASSES} most frequent of {present:,} classes"
        assert sum(n.startswith(shown) for n in notes) == 1
        per_class = f"Showing the largest 40 of {present:,} classes"
        assert sum(n.startswith(per_class) for n in notes) == (present > 40)
        assert "The tables below list every class." in notes
        for spec in specs_of(page):  # the page says it; the chart need not repeat it
            assert "title" not in spec
    else:
        assert notes == []
    text = "".join(parse(page).text)
    assert all(v in text for v in df["y"].unique())  # every class in the report


def test_many_groups_page_is_bounded(bundle_size):
    small = ce.report_html(groups_frame(30), "y", "yhat", score="s", by="g").to_html()
    large = ce.report_html(groups_frame(500, n=40_000), "y", "yhat", score="s", by="g").to_html()
    for page in (small, large):
        specs = specs_of(page)
        assert all(data_rows(s) <= CHART_ROWS for s in specs)
        # ROC, PR, the matrices, scores, thresholds, the explorer, calibration, gain, compare
        assert len(specs) == 9
        notes = notes_in_page(page)
        assert sum("Showing the 20 largest of" in n for n in notes) == 9
        assert notes.count("The tables below list every class and group.") == 9
    # the charts' share of a 500-group page is no larger than with 30 groups
    chart_bytes = [sum(len(json.dumps(s)) for s in specs_of(p)) for p in (small, large)]
    assert chart_bytes[1] < 1.5 * chart_bytes[0] < 12_000_000


# --- every plot method: many groups, many classes ----------------------------------------

METHODS = [
    name
    for name, member in inspect.getmembers(PlotNamespace, inspect.isfunction)
    if not name.startswith("_")
]

# how each method is called on (y, yhat, score) columns; report_html goes through the same
CALLS = {
    "confusion_matrix": lambda p, c, **kw: p.confusion_matrix(c["y"], c["yhat"], **kw),
    "roc": lambda p, c, **kw: p.roc(c["y"], c["s"], pos_label=c["pos"], **kw),
    "pr": lambda p, c, **kw: p.pr(c["y"], c["s"], pos_label=c["pos"], **kw),
    "det": lambda p, c, **kw: p.det(c["y"], c["s"], pos_label=c["pos"], **kw),
    "thresholds": lambda p, c, **kw: p.thresholds(c["y"], c["s"], pos_label=c["pos"], **kw),
    "calibration": lambda p, c, **kw: p.calibration(c["y"], c["s"], pos_label=c["pos"], **kw),
    "scores": lambda p, c, **kw: p.scores(c["y"], c["s"], **kw),
    "gain": lambda p, c, **kw: p.gain(c["y"], c["s"], pos_label=c["pos"], **kw),
    "lift": lambda p, c, **kw: p.lift(c["y"], c["s"], pos_label=c["pos"], **kw),
    "compare": lambda p, c, **kw: p.compare(
        c["y"], c["yhat"], pos_label=c["pos"], **{"by": c["by"], **kw}
    ),
    "explorer": lambda p, c, **kw: p.explorer(c["y"], c["s"], pos_label=c["pos"], **kw),
    "prevalence": lambda p, c, **kw: p.prevalence(c["y"], c["yhat"], pos_label=c["pos"], **kw),
    "decision_curve": lambda p, c, **kw: p.decision_curve(c["y"], c["s"], pos_label=c["pos"], **kw),
    "differences": lambda p, c, **kw: second_model(p, c).differences(
        c["y"], [c["yhat"], f"{c['yhat']} b"], pos_label=c["pos"], n_boot=50, **kw
    ),
}


def second_model(p, c):
    """The namespace over its frame plus a model b: a copy of yhat (when yhat exists)."""
    df = p._df
    if c["yhat"] in df.collect_schema():
        df = df.with_columns(pl.col(c["yhat"]).alias(f"{c['yhat']} b"))
    return type(p)(df)


COLUMNS = {"y": "y", "yhat": "yhat", "s": "s", "pos": 1, "by": "g"}


def test_every_plot_method_is_covered():
    assert METHODS  # read from the class: a new method must be added to CALLS
    assert sorted(CALLS) == sorted(METHODS)


@pytest.fixture(scope="module")
def five_hundred_groups():
    return groups_frame(500, n=40_000)


@pytest.mark.parametrize("method", METHODS)
def test_five_hundred_groups_draw_the_twenty_largest(method, five_hundred_groups):
    df = five_hundred_groups
    assert alt.data_transformers.active == "default"  # its 5,000-row guard never fires
    chart = CALLS[method](df.clf.plot, COLUMNS, by="g")
    d = chart.to_dict()
    assert data_rows(d) <= CHART_ROWS
    names = {r["series"] for rows in d["datasets"].values() for r in rows if "series" in r}
    # legends add "(AUROC 0.9)" and the like; differences add " · b − a"
    series = {n.split(" (")[0].split(" · ")[0] for n in names}
    assert len(series) <= MAX_SERIES
    largest = df.group_by("g").len().sort(["len", "g"], descending=[True, False])
    assert series <= set(largest["g"].head(MAX_SERIES))  # the largest groups, by rows
    if method != "scores":  # scores may keep fewer, to fit its bins in the row budget
        assert series == set(largest["g"].head(MAX_SERIES))
    n = df["g"].n_unique()
    (note,) = chart_notes(chart)
    # (the differences chart's series are groups · comparisons: "groups of g · comparison")
    assert note.startswith(f"Showing the {len(series)} largest of {n} groups of g")
    title = d["title"]
    assert note in title["subtitle"]  # the chart itself says it, too (notebooks)


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_many_classes_pool_into_other_with_the_librarys_numbers(normalize):
    df = classes_frame(300, n=6000, seed=3)
    chart = df.clf.plot.confusion_matrix("y", "yhat", normalize=normalize)
    d = chart.to_dict()
    (cells,) = d["datasets"].values()
    value = "count" if normalize is None else "value"
    support = df.group_by("y").len().sort(["len", "y"], descending=[True, False])
    top = set(support["y"].head(MAX_CLASSES))
    n = df["y"].append(df["yhat"]).n_unique()
    other = f"other ({n - MAX_CLASSES} classes)"
    shown = {r["actual"] for r in cells}
    assert shown == top | {other}
    assert len(cells) == (MAX_CLASSES + 1) ** 2
    full = ce.confusion_matrix(df, "y", "yhat", normalize=normalize)
    exact = {(a, p): v for a, p, v in full.iter_rows()}
    got = {(r["actual"], r["predicted"]): r.get(value, 0) for r in cells}
    for (a, p), v in got.items():  # the named cells are the library's own
        if a != other and p != other:
            assert v == pytest.approx(exact[(a, p)], abs=1e-6)
    if normalize is None:
        assert sum(got.values()) == df.height
        pooled = sum(c for (a, _), c in exact.items() if a not in top)
        assert sum(c for (a, _), c in got.items() if a == other) == pooled
    elif normalize == "true":  # the pooled row is the share of all its rows
        row = sum(v for (a, _), v in got.items() if a == other)
        assert row == pytest.approx(1.0, abs=1e-6)
    (note,) = chart_notes(chart)
    assert note == (
        f"Showing the {MAX_CLASSES} most frequent of {n} classes; the other "
        f"{n - MAX_CLASSES} are pooled in the row and column “{other}”."
    )


def test_pooled_class_never_takes_a_shown_name_and_keeps_nulls_dropped():
    df = classes_frame(60, seed=4)
    taken = "other (40 classes)"
    df = df.with_columns(pl.col("y", "yhat").replace({"class 0": taken}))  # the top class
    df = pl.concat([df, pl.DataFrame({"y": [None, "class 1"], "yhat": ["class 1", None]})])
    d = df.clf.plot.confusion_matrix("y", "yhat", missing="drop").to_dict()
    (cells,) = d["datasets"].values()
    assert {r["actual"] for r in cells} >= {taken, taken + "*"}
    assert sum(r["count"] for r in cells) == df.height - 2  # the null rows stay left out


def test_confusion_colours_are_shares_of_each_actual_class():
    """Colour is the share of the row: a pooled "other", often the largest count, cannot wash
    out the named classes, and a rare class's mistakes show as clearly as a common one's."""
    d = classes_frame(300, n=6000).clf.plot.confusion_matrix("y", "yhat").to_dict()
    rect = next(u for u in d["layer"] if u["mark"]["type"] == "rect")
    (cells,) = d["datasets"].values()
    assert rect["encoding"]["color"]["field"] == "share"
    assert rect["encoding"]["color"]["scale"]["domain"] == [0, 1]
    rows: dict[str, float] = {}
    for r in cells:
        rows[r["actual"]] = rows.get(r["actual"], 0.0) + r["share"]
        assert r["share"] == pytest.approx(
            r["count"] / sum(c["count"] for c in cells if c["actual"] == r["actual"]), abs=1e-6
        )
    assert rows == pytest.approx(dict.fromkeys(rows, 1.0), abs=1e-4)  # rounded to 6 digits


def test_charts_layer_folds_frames_computed_elsewhere():
    df = classes_frame(100, n=4000, seed=5)
    full = ce.confusion_matrix(df, "y", "yhat")
    d = charts.confusion_matrix(full).to_dict()
    (cells,) = d["datasets"].values()
    assert len(cells) == (MAX_CLASSES + 1) ** 2
    assert sum(r["count"] for r in cells) == df.height
    shares = ce.confusion_matrix(df, "y", "yhat", normalize="true")
    chart = charts.confusion_matrix(shares)  # no counts: the first classes, others left out
    (cells,) = chart.to_dict()["datasets"].values()
    assert len(cells) == MAX_CLASSES**2
    assert chart_notes(chart)[0].startswith(f"Showing the first {MAX_CLASSES} of")
    hist = charts.score_histogram(
        df.with_columns(s=pl.col("y").str.len_chars() / 10), "y", "s", n_bins=5
    )
    chart = charts.scores(hist)
    rows = next(iter(chart.to_dict()["datasets"].values()))
    actual = {r["actual"] for r in rows if r.get("part") == "bars"}
    assert len(actual) == MAX_CLASSES + 1
    fractions: dict[str, float] = {}
    for r in rows:
        if r.get("part") == "bars":
            fractions[r["actual"]] = fractions.get(r["actual"], 0) + r["fraction"]
    assert all(v == pytest.approx(1.0) for v in fractions.values())


def test_one_vs_rest_curves_keep_the_most_frequent_classes():
    rng = np.random.default_rng(6)
    k, n = 60, 6000
    p = 1 / np.arange(1, k + 1)
    y = rng.choice(k, n, p=p / p.sum())
    proba = rng.dirichlet(np.ones(k), n)
    df = pl.DataFrame({"y": y, **{f"p{i}": proba[:, i] for i in range(k)}})
    chart = df.clf.plot.roc("y", {i: f"p{i}" for i in range(k)})
    d = chart.to_dict()
    color = next(
        u["encoding"]["color"]
        for u in d["layer"][1]["layer"]
        if u["encoding"].get("color", {}).get("field") == "series"
    )
    shown = [int(s.split(" ")[0]) for s in color["scale"]["domain"]]
    support = np.bincount(y, minlength=k)
    assert sorted(shown) == sorted(np.argsort(-support, kind="stable")[:MAX_SERIES].tolist())
    assert chart_notes(chart) == [
        f"Showing the {MAX_SERIES} most frequent of {k} classes; the other {k - MAX_SERIES} "
        "are left out."
    ]
    assert data_rows(d) <= CHART_ROWS


def test_other_user_sizes_are_limited():
    df = groups_frame(3)
    plot = df.clf.plot
    for bad in (0, 1001, 10**6):
        with pytest.raises(ce.InputError, match="n_bins"):
            plot.scores("y", "s", n_bins=bad)
        with pytest.raises(ce.InputError, match="n_bins"):
            plot.calibration("y", "s", n_bins=bad)
    for bad in (0, 1, 10**9, 2.5, "100"):
        with pytest.raises(ce.InputError, match="max_points") as err:
            plot.roc("y", "s", max_points=bad)
        assert err.value.role == "max_points"
    for bad in (float("nan"), float("inf"), "0.5", True):
        with pytest.raises(ce.InputError, match="threshold") as err:
            plot.pr("y", "s", threshold=bad)
        assert err.value.role == "threshold"
    for bad in ([], "f1", [1]):
        with pytest.raises(ce.InputError, match="metrics"):
            plot.thresholds("y", "s", metrics=bad)
    # the largest allowed sizes stay within the row budget, with 20 groups of 1,000 bins
    d = groups_frame(20, n=40_000).clf.plot.scores("y", "s", n_bins=1000, by="g").to_dict()
    assert data_rows(d) <= (MAX_CLASSES + 1) * 1000 + MAX_SERIES
    d = plot.calibration("y", "s", n_bins=1000, by="g").to_dict()
    assert data_rows(d) <= MAX_ROWS
    d = plot.roc("y", "s", max_points=10**6).to_dict()
    assert data_rows(d) <= CHART_ROWS


# --- hostile input: a chart or an InputError, never a raw error -----------------------------


def base_frame(n: int = 300, seed: int = 2) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    return pl.DataFrame(
        {
            "y": y,
            "yhat": (s >= 0.5).astype(np.int64),
            "s": s,
            "w": np.ones(n),
            "g": rng.choice(["a", "b"], n),
        }
    )


ALL = [*METHODS, "report_html"]
LABEL_READERS = (
    "confusion_matrix",
    "compare",
    "differences",
    "prevalence",
)  # they read yhat, not the score


def call(method, data, cols=COLUMNS, **kw):
    if method == "report_html":
        by = kw.pop("by", None)
        return ce.report_html(
            data, cols["y"], cols["yhat"], score=cols["s"], pos_label=cols["pos"], by=by, **kw
        ).to_html()
    return CALLS[method](PlotNamespace(data), cols, **kw)


def drawn(result) -> dict:
    """The spec of a chart (checked by Altair's schema) or of the page's first chart."""
    if isinstance(result, str):
        return specs_of(result)[0]
    return result.to_dict()


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@pytest.mark.parametrize("grouped", [False, True], ids=["plain", "by"])
@pytest.mark.parametrize("method", ALL)
def test_zero_rows_raise_input_error(method, lazy, grouped):
    empty = base_frame().head(0)
    with pytest.raises(ce.InputError) as err:
        call(method, empty.lazy() if lazy else empty, **({"by": "g"} if grouped else {}))
    assert err.value.rule == "empty"
    assert "no rows" in err.value.message


@pytest.mark.parametrize("method", ALL)
def test_all_null_scores_raise_or_draw(method):
    df = base_frame().with_columns(s=pl.lit(None, pl.Float64))
    if method in LABEL_READERS:  # no score read
        drawn(call(method, df))
        return
    with pytest.raises(ce.InputError) as err:
        call(method, df)
    assert err.value.column == "s"
    with pytest.raises(ce.InputError) as err:  # lazy: the null rows are left out, none remain
        call(method, df.lazy())
    # (the report collects a LazyFrame, so it sees the nulls)
    assert err.value.rule == ("null" if method == "report_html" else "empty")


@pytest.mark.parametrize("method", ALL)
def test_missing_column_is_named(method):
    for role in ("y", "yhat", "s"):
        if role == "yhat" and method not in (*LABEL_READERS, "report_html"):
            continue
        if role == "s" and method in LABEL_READERS:
            continue
        cols = {**COLUMNS, role: "nope"}
        for data in (base_frame(), base_frame().lazy()):
            with pytest.raises(ce.InputError) as err:
                call(method, data, cols)
            assert err.value.column == "nope"
            assert err.value.rule == "missing_column"


@pytest.mark.parametrize("method", ALL)
def test_one_row_and_one_class_draw_or_raise_input_error(method):
    df = base_frame()
    for data in (df.head(1), df.filter(pl.col("y") == 1), df.filter(pl.col("y") == 0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined metrics warn
            with contextlib.suppress(ce.InputError):
                drawn(call(method, data))


@pytest.mark.parametrize("method", ALL)
def test_lazy_frames_draw_what_eager_frames_draw(method):
    df = base_frame()
    eager, lazy = call(method, df), call(method, df.lazy())
    if method == "report_html":
        assert specs_of(eager) == specs_of(lazy)
    else:
        assert eager.to_dict() == lazy.to_dict()


@pytest.mark.parametrize("method", ALL)
def test_huge_weights_draw_a_chart(method):
    df = base_frame().with_columns(w=pl.lit(1e300))  # finite, and so are their sums
    if method == "differences":  # bootstrap draws are whole counts: exact up to 2**53
        with pytest.raises(ce.InputError, match="weighs more than 2\\^53"):
            call(method, df, weight="w")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = drawn(call(method, df, weight="w"))
    assert json.loads(json.dumps(d, allow_nan=False))  # strict JSON all the same


def curve_rows(chart) -> list[tuple]:
    rows = max(chart.to_dict()["datasets"].values(), key=len)
    return [(r.get("fpr"), r.get("tpr")) for r in rows]


def test_huge_equal_weights_give_the_unweighted_rates():
    df = base_frame()
    heavy = df.with_columns(w=pl.lit(1e300))
    plain_roc, heavy_roc = df.clf.plot.roc("y", "s"), heavy.clf.plot.roc("y", "s", weight="w")
    assert curve_rows(plain_roc) == curve_rows(heavy_roc)
    plain = df.clf.plot.confusion_matrix("y", "yhat", normalize="true").to_dict()
    weighted = heavy.clf.plot.confusion_matrix("y", "yhat", normalize="true", weight="w")
    cells = [next(iter(d["datasets"].values())) for d in (plain, weighted.to_dict())]
    assert [r["value"] for r in cells[0]] == pytest.approx([r["value"] for r in cells[1]])


def test_huge_equal_weights_give_the_unweighted_auroc_in_the_legend():
    df = base_frame()
    heavy = df.with_columns(w=pl.lit(1e300))
    auroc = f"AUROC {skm.roc_auc_score(df['y'], df['s']):.3f}"
    assert auroc in json.dumps(heavy.clf.plot.roc("y", "s", weight="w").to_dict())


@pytest.mark.parametrize(
    ("method", "lazy"),
    [
        *[(m, False) for m in ALL],
        *[(m, True) for m in ALL],
    ],
)
def test_text_labels_with_the_default_pos_label(method, lazy):
    df = base_frame().with_columns(pl.col("y", "yhat").cast(pl.String))
    data = df.lazy() if lazy else df
    if method in ("confusion_matrix", "scores"):  # no positive class involved
        drawn(call(method, data))
        return
    with pytest.raises(ce.InputError) as err:
        call(method, data, {**COLUMNS, "pos": 1})
    assert err.value.role == "pos_label"


def hostile_frame() -> tuple[pl.DataFrame, dict]:
    """Column names and labels that are HTML, quotes, spaces and unicode."""
    df = base_frame()
    cols = {"y": HOSTILE[0], "yhat": HOSTILE[2], "s": HOSTILE[3], "by": HOSTILE[4]}
    labels = pl.col("y").replace_strict({0: HOSTILE[1], 1: EVIL}, return_dtype=pl.String)
    hat = pl.col("yhat").replace_strict({0: HOSTILE[1], 1: EVIL}, return_dtype=pl.String)
    df = df.select(
        labels.alias(cols["y"]),
        hat.alias(cols["yhat"]),
        pl.col("s").alias(cols["s"]),
        pl.col("g").replace({"a": EVIL}).alias(cols["by"]),
    )
    return df, {**cols, "pos": EVIL}


@pytest.mark.parametrize("grouped", [False, True], ids=["plain", "by"])
@pytest.mark.parametrize("method", ALL)
def test_hostile_names_and_labels_stay_text(method, grouped):
    df, cols = hostile_frame()
    out = call(method, df, cols, **({"by": cols["by"]} if grouped else {}))
    page = out if isinstance(out, str) else render_html(EVIL, charts=[(EVIL, out)])
    parsed = parse(page)
    assert count(parsed, "script") == 2
    embed = parsed.scripts[1]
    assert "</" not in embed
    assert "<!--" not in embed
    if grouped or method in ("confusion_matrix", "scores", "compare", "report_html"):
        specs = json.dumps(specs_of(page), ensure_ascii=False)
        assert EVIL in specs  # the labels or groups arrive intact, as data


def test_missing_column_with_a_hostile_name_is_named_exactly():
    df, cols = hostile_frame()
    with pytest.raises(ce.InputError) as err:
        df.clf.plot.scores(cols["y"], EVIL + " score")
    assert err.value.column == EVIL + " score"


# --- the note: present, escaped, in words beside the chart ---------------------------------


def test_note_with_a_hostile_group_name_is_escaped_text():
    df = groups_frame(40, key=EVIL)
    page = ce.report_html(df, "y", "yhat", score="s", by=EVIL).to_html()
    parsed = parse(page)
    assert count(parsed, "script") == 2
    text = "".join(parsed.text)
    note = f"Showing the 20 largest of 40 groups of {EVIL}; the other 20 are left out."
    assert text.count(note) == 9
    assert page.count("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;; the other") == 9
    for spec in specs_of(page):  # usermeta carries it, escaped for the script context
        assert spec["usermeta"]["clfeval"]["notes"] == [note]
    assert "</" not in parsed.scripts[1]


def test_render_html_prints_chart_notes_and_caller_notes_escaped():
    chart = _data.noted(alt.Chart(alt.InlineData(values=[{"a": 1}])).mark_point(), [EVIL])
    page = render_html("t", charts=[("A", chart, f"caller {EVIL}"), ("B", chart.to_dict())])
    assert notes_in_page(page) == [EVIL, f"caller {EVIL}", EVIL]
    assert count(parse(page), "script") == 2
    assert all("subtitle" not in s["title"] for s in specs_of(page))
    assert chart.to_dict()["title"]["subtitle"] == [EVIL]  # the chart keeps it elsewhere


def test_the_score_histogram_gets_the_checks_of_every_chart():
    df = base_frame()
    nulls = df.with_columns(s=pl.when(pl.col("y") == 1).then(None).otherwise(pl.col("s")))
    with pytest.raises(ce.InputError) as err:
        nulls.clf.plot.scores("y", "s")
    assert (err.value.column, err.value.rule) == ("s", "null")
    kept = nulls.clf.plot.scores("y", "s", missing="drop").to_dict()
    bars = [r for r in next(iter(kept["datasets"].values())) if r.get("part") == "bars"]
    assert {r["actual"] for r in bars} == {"0"}
    with pytest.raises(ce.InputError, match="score must be a column name"):
        df.clf.plot.scores("y", {0: "s"})
    auroc = skm.roc_auc_score(df["y"], df["s"])  # and the chart is still the right one
    assert f"AUROC {auroc:.3f}" in json.dumps(df.clf.plot.roc("y", "s").to_dict())
