"""The standalone HTML page: escaping, one inlined bundle, offline, exports."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import polars as pl
import pytest

from clfeval import charts
from clfeval.charts._render import to_png, to_svg
from clfeval.pages._html import (
    HTML,
    frame_table,
    render_html,
    script_json,
    vega_bundle,
    write_html,
)

EVIL = "</script><script>alert(1)</script>"
NASTY = [
    EVIL,
    "<!--",
    "\"quoted\" & 'single'",
    "line\u2028sep\u2029arator",
    "<img src=x onerror=alert(2)>",
]


class Page(HTMLParser):
    """Collects elements, attributes, script bodies and the text outside scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)


def parse(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    parser.close()
    return parser


def count(parsed: Page, tag: str) -> int:
    return sum(1 for t, _ in parsed.tags if t == tag)


def evil_roc():
    """A ROC frame whose group column and values are hostile strings."""
    parts = [
        pl.DataFrame(
            {
                EVIL: [name] * 3,
                "threshold": [float("inf"), 0.6, 0.2],
                "fpr": [0.0, 0.2, 1.0],
                "tpr": [0.0, 0.7, 1.0],
            }
        )
        for name in NASTY
    ]
    return pl.concat(parts)


@pytest.fixture(scope="module")
def page():
    table = pl.DataFrame({EVIL: NASTY, "value": [0.5, 1.25, None, 2.0, float("nan")]})
    confusion = pl.DataFrame(
        {
            "actual": [EVIL, EVIL, "<!--", "<!--"],
            "predicted": [EVIL, "<!--", EVIL, "<!--"],
            "count": [3, 1, 2, 4],
        }
    )
    chart_list = [
        (f"ROC of {EVIL}", charts.roc(evil_roc(), title=EVIL)),
        ("Confusion <matrix>", charts.confusion_matrix(confusion)),
    ]
    tables = [
        (f"Table {EVIL}", table),
        ("Text", f"plain text {EVIL}"),
        ("Markup", HTML("<p class='ok'>kept</p>")),
    ]
    return render_html(EVIL, tables, chart_list, intro=f"intro {EVIL}")


def test_exactly_two_script_elements_and_every_string_is_text(page):
    parsed = parse(page)
    assert count(parsed, "script") == 2  # the bundle and the embed code, nothing injected
    assert count(parsed, "img") == 0
    text = "".join(parsed.text)
    assert text.count(EVIL) >= 5  # title, h1, intro, heading, table header and cell, text block
    assert "<img src=x onerror=alert(2)>" in text
    assert [a for t, a in parsed.tags if t == "p" and a.get("class") == "ok"]  # HTML kept as markup
    title = page[page.index("<title>") + 7 : page.index("</title>")]
    assert title == "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"


def test_chart_json_is_escaped_for_a_script_and_round_trips(page):
    parsed = parse(page)
    embed = parsed.scripts[1]
    for bad in ("</", "<!--", "\u2028", "\u2029"):
        assert bad not in embed
    specs = json.loads(re.search(r"var specs = (\[.*?\]), options = ", embed, re.S).group(1))
    assert len(specs) == 2
    title = specs[0]["title"]
    assert (title["text"] if isinstance(title, dict) else title) == EVIL
    values = json.dumps(specs[0]["datasets"], ensure_ascii=False)
    for nasty in NASTY:  # labels arrive intact, as data (U+2028/9 as spaces: see as_text)
        shown = nasty.replace("\u2028", " ").replace("\u2029", " ")
        assert json.dumps(shown, ensure_ascii=False)[1:-1] in values
    assert specs[1]["layer"][0]["encoding"]["x"]["sort"] == [EVIL, "<!--"]


def test_the_bundle_is_inlined_once_and_nothing_is_fetched(page):
    parsed = parse(page)
    assert page.count("window.vegaEmbed=") == 1
    assert parsed.scripts[0].startswith(vega_bundle()[:200])
    assert [a for _, a in parsed.tags if "src" in a or "href" in a] == []
    csp = [
        a["content"]
        for t, a in parsed.tags
        if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"
    ]
    assert csp
    assert "default-src 'none'" in csp[0]
    assert "connect-src" not in csp[0]
    assert page.count('class="clf-chart"') == 2
    assert page.count("vegaEmbed(el, spec, opts)") == 1  # one call site, run per chart


def test_no_charts_no_javascript():
    parsed = parse(render_html("Only text", [("A", "b")]))
    assert count(parsed, "script") == 0
    assert "".join(parsed.text).count("Only text") == 2


def test_frame_table_escapes_formats_and_aligns():
    table = frame_table(
        pl.DataFrame({"<b>": ["&", None], "n": [1.23456, float("nan")], "k": [1, 2]}), digits=3
    )
    parsed = parse(table)
    assert [t for t, _ in parsed.tags].count("th") == 3
    assert "".join(parsed.text) == "<b>nk&1.2351nan2"
    assert table.count('class="num"') == 6
    assert isinstance(table, HTML)


def test_script_json_escapes_and_nulls_non_finite_numbers():
    value = {"a": "</script>&<!--\u2028\u2029", "b": [float("inf"), float("nan"), 1.5]}
    text = script_json(value)
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == {"a": value["a"], "b": [None, None, 1.5]}


def test_write_html_and_exports(tmp_path):
    chart = charts.roc(evil_roc())
    path = write_html(tmp_path / "r.html", "Report", charts=[("ROC", chart)])
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert to_png(chart)[:8] == b"\x89PNG\r\n\x1a\n"
    svg = to_svg(chart)
    assert svg.startswith("<svg")
    assert "&lt;/script&gt;" in svg
    assert "<script" not in svg


def test_notes_beside_charts_are_escaped_text():
    """A chart that leaves groups out says so above it; the group column's name is text."""
    parts = [
        pl.DataFrame(
            {
                EVIL: [f"{NASTY[i % len(NASTY)]} {i}"] * 3,
                "threshold": [float("inf"), 0.6, 0.2],
                "fpr": [0.0, 0.2, 1.0],
                "tpr": [0.0, 0.7, 1.0],
            }
        )
        for i in range(25)  # more than charts.MAX_SERIES
    ]
    chart = charts.roc(pl.concat(parts))
    note = f"Showing the first 20 of 25 groups of {EVIL} (the frame has no counts to rank them by); the other 5 are left out."
    page = render_html("Notes", charts=[("ROC", chart, f"and mine: {EVIL}")])
    parsed = parse(page)
    assert count(parsed, "script") == 2
    assert count(parsed, "img") == 0
    text = "".join(parsed.text)
    assert note in text
    assert f"and mine: {EVIL}" in text
    notes = [a for t, a in parsed.tags if t == "p" and a.get("class") == "clf-note"]
    assert len(notes) == 2
    embed = parsed.scripts[1]
    for bad in ("</", "<!--"):
        assert bad not in embed
    specs = json.loads(re.search(r"var specs = (\[.*?\]), options = ", embed, re.S).group(1))
    assert specs[0]["usermeta"]["clfeval"]["notes"] == [note]
    assert note not in specs[0]["title"].get("subtitle", [])  # said once, on the page
