"""Standalone, offline HTML pages: headings, text, tables and interactive charts in one file.

The Vega, Vega-Lite and vega-embed JavaScript comes from vl-convert and is inlined
once per page; each chart is one ``vegaEmbed`` call. Nothing is fetched when the page
opens (a Content-Security-Policy forbids it). Every user string is escaped: text with
``html.escape``, chart JSON for a ``<script>`` context (``<``, ``>``, ``&``, U+2028 and
U+2029 as ``\\u`` escapes), so a label such as ``</script><script>alert(1)</script>``
shows as text. PNG and SVG export go through vl-convert, with no browser.
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from clfeval.charts._render import spec_of, vl_version
from clfeval.pages._style import EMBED, STYLE

__all__ = [
    "HTML",
    "Card",
    "Section",
    "chart_notes",
    "frame_table",
    "render_html",
    "render_page",
    "script_json",
    "vega_bundle",
    "write_html",
]

_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_CSP = (
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:"
)  # vega compiles its expressions with Function(), hence 'unsafe-eval'


class HTML(str):
    """Markup that is already safe (escaped by its maker): put in a page unchanged.

    Plain ``str`` content is always escaped; wrap only markup you built yourself from
    escaped parts, such as ``frame_table`` output.
    """

    __slots__ = ()


def script_json(value: Any) -> str:
    """JSON for a ``<script>`` element: ``<``, ``>``, ``&``, U+2028, U+2029 as ``\\u`` escapes.

    Those characters occur only inside JSON strings, where the escapes mean the same,
    so the text cannot end the script element or open a comment. NaN and infinity
    become ``null`` (JSON has neither).

    Examples
    --------
    >>> script_json({"a": "</script>"})
    '{"a":"\\\\u003c/script\\\\u003e"}'
    """
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError:
        text = json.dumps(
            _nulled(value), separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    for char, escaped in _SCRIPT_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def _nulled(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: _nulled(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nulled(v) for v in value]
    return value


def frame_table(
    frame: pl.DataFrame,
    *,
    digits: int = 4,
    caption: str | None = None,
    classes: Sequence[str] = (),
) -> HTML:
    """An HTML table of ``frame``: headers and cells escaped, floats to ``digits`` decimals,
    integers with thousands separators, nulls empty, numbers right-aligned; ``classes``
    gives each body row a CSS class ("" for none).

    Examples
    --------
    >>> print(frame_table(pl.DataFrame({"<b>": ["&"], "n": [1.5]})))
    <table class="clf"><thead><tr><th scope="col">&lt;b&gt;</th><th scope="col" class="num">n</th></tr></thead><tbody><tr><td>&amp;</td><td class="num">1.5000</td></tr></tbody></table>
    """
    numeric = [t.is_numeric() for t in frame.schema.values()]
    head = "".join(
        f'<th scope="col"{_num(n)}>{html.escape(c)}</th>'
        for c, n in zip(frame.columns, numeric, strict=True)
    )
    body = []
    for i, row in enumerate(frame.iter_rows()):
        kind = classes[i] if i < len(classes) and classes[i] else ""
        cells = "".join(
            f"<td{_num(n)}>{cell(v, digits)}</td>" for v, n in zip(row, numeric, strict=True)
        )
        body.append(
            f'<tr class="{html.escape(kind)}">{cells}</tr>' if kind else f"<tr>{cells}</tr>"
        )
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return HTML(
        f'<table class="clf">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    )


def _num(is_number: bool) -> str:
    return ' class="num"' if is_number else ""


def cell(value: Any, digits: int = 4) -> str:
    """A table cell's text, escaped: floats to ``digits`` decimals, integers with thousands
    separators, null empty.

    Examples
    --------
    >>> cell(12345), cell(0.12345, 3), cell(None), cell("<b>")
    ('12,345', '0.123', '', '&lt;b&gt;')
    """
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.{digits}f}" if math.isfinite(value) else str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return html.escape(str(value))


def _content(value: Any) -> str:
    """Section content as markup: a frame becomes a table, ``HTML`` stays, text is escaped."""
    if isinstance(value, pl.LazyFrame):
        value = value.collect()
    if isinstance(value, pl.DataFrame):
        return frame_table(value)
    if isinstance(value, HTML):
        return str(value)
    return f'<pre class="clf">{html.escape(str(value))}</pre>'


def chart_notes(chart: Any) -> list[str]:
    """What a clfeval chart says it left out (too many classes or groups), from its
    ``usermeta["clfeval"]["notes"]``: an Altair chart or a Vega-Lite dict; [] for others."""
    meta = chart.get("usermeta") if isinstance(chart, Mapping) else getattr(chart, "usermeta", None)
    notes = meta.get("clfeval", {}).get("notes", []) if isinstance(meta, Mapping) else []
    return [str(n) for n in notes] if isinstance(notes, list) else []


def _unsubtitled(spec: dict[str, Any], notes: Sequence[str]) -> dict[str, Any]:
    """``spec`` without ``notes`` among its title's subtitle lines: the page prints them
    as text above the chart, so the chart need not repeat them."""
    title = spec.get("title")
    if not notes or not isinstance(title, Mapping) or "subtitle" not in title:
        return spec
    lines = title["subtitle"] if isinstance(title["subtitle"], list) else [title["subtitle"]]
    kept = [line for line in lines if line not in notes]
    title = {k: v for k, v in title.items() if not k.startswith("subtitle")}
    if kept:
        title = {**spec["title"], "subtitle": kept}
    return {**spec, "title": title}


def _untitled(spec: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``spec`` without its title, and the title's subtitle lines (how to read the chart):
    the card's heading says the title, and the lines go to the card as text."""
    title = spec.get("title")
    lines: list[str] = []
    if isinstance(title, Mapping):
        sub = title.get("subtitle") or []
        lines = [str(s) for s in (sub if isinstance(sub, list) else [sub])]
    return {k: v for k, v in spec.items() if k != "title"}, lines


@functools.cache
def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "clfeval"


@functools.cache
def vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script (about 0.9 MB), from vl-convert.

    vl-convert builds the bundle on each first call in a process (seconds), so it is kept in
    the user's cache folder, keyed by the vl-convert and Vega-Lite versions.
    """
    import vl_convert as vlc

    version = vl_version()
    cache = _cache_dir() / f"vega-{vlc.__version__}-{version}.js"
    try:
        bundle = cache.read_text(encoding="utf-8")
    except OSError:
        bundle = vlc.javascript_bundle(vl_version=version)
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(bundle, encoding="utf-8")
            partial.replace(cache)
        except OSError:  # a read-only home: build it again next time
            pass
    lowered = bundle.lower()
    if "</script" in lowered or "<!--" in lowered:  # would end or confuse the script element
        msg = "the vl-convert JavaScript bundle contains '</script' or '<!--'"
        raise RuntimeError(msg)
    return bundle


@dataclass(frozen=True)
class Card:
    """One card of a page: a heading, a line saying how to read it, then a chart (an Altair
    chart or a Vega-Lite dict) or content (see :func:`render_html`); ``notes`` are printed
    above the chart, ``wide`` cards span the page's two columns."""

    heading: str
    body: Any
    lede: str | None = None
    notes: tuple[str, ...] = ()
    wide: bool = False
    chart: bool = True
    untitled: bool = False  # the heading replaces the chart's title; its subtitle goes to notes


@dataclass(frozen=True)
class Section:
    """A titled group of cards (or trusted ``HTML`` blocks) on a page."""

    heading: str | None
    items: tuple[Card | HTML, ...]
    grid: bool = True


def render_page(
    title: str,
    sections: Sequence[Section],
    *,
    lede: str | None = None,
    header: HTML | None = None,
    eyebrow: str = "clfeval",
    footer: str = "Made with clfeval. Opens offline: the charting code is in this file.",
) -> str:
    """A standalone HTML page of ``sections``, working offline: the title, ``lede`` and
    ``header`` (trusted markup) on top, then each section's cards in a two-column grid
    that becomes one column on a narrow screen. Charts are drawn as SVG by one
    ``vegaEmbed`` call each and sized to their card; the JavaScript is inlined once, only
    when there are charts. A chart that fails to draw shows the error in its place. What a
    chart leaves out (:func:`chart_notes`) is said above it, with the card's notes."""
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="generator" content="clfeval">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(_CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        '<header class="clf-head"><div class="clf-wrap">',
        f'<p class="clf-eyebrow">{esc(eyebrow)}</p><h1>{esc(title)}</h1>',
        f'<p class="clf-lede">{esc(lede)}</p>' if lede else "",
        str(header) if header is not None else "",
        '</div></header><main class="clf-wrap">',
    ]
    specs: list[dict[str, Any]] = []
    for section in sections:
        head = f"<h2>{esc(section.heading)}</h2>" if section.heading else ""
        items = "".join(
            item if isinstance(item, HTML) else _card(item, specs) for item in section.items
        )
        wrap = '<div class="clf-grid">' if section.grid else "<div>"
        parts.append(f"<section>{head}{wrap}{items}</div></section>")
    parts.append(f'</main><footer><div class="clf-wrap">{esc(footer)}</div></footer>')
    if specs:
        options = {
            "renderer": "svg",
            "actions": {"export": True, "source": False, "compiled": False, "editor": False},
        }
        parts.append(f"<script>{vega_bundle()}</script>")
        parts.append(
            EMBED.replace("SPECS", script_json(specs)).replace("OPTIONS", script_json(options))
        )
    parts.append("</body></html>")
    return "\n".join(p for p in parts if p)


def _card(card: Card, specs: list[dict[str, Any]]) -> str:
    """A card's markup; a chart's spec goes to ``specs`` and the card holds its place. A body
    of (name, chart) pairs is drawn as small multiples, one named panel each."""
    esc = html.escape
    notes = list(card.notes)
    how: list[str] = []
    if card.chart:
        panels = card.body if isinstance(card.body, list | tuple) else [("", card.body)]
        said: list[str] = []
        how: list[str] = []
        places = []
        for name, chart in panels:
            spec = spec_of(chart)
            left_out = chart_notes(spec)
            spec = _unsubtitled(spec, left_out)
            spec, lines = _untitled(spec) if card.untitled else (spec, [])
            specs.append(spec)
            said += [n for n in left_out if n not in said]
            how += [n for n in lines if n not in how]
            head = f'<h4 class="clf-panel-head">{esc(name)}</h4>' if name else ""
            places.append(
                f'<div class="clf-panel">{head}<div class="clf-chart" id="clf-chart-{len(specs) - 1}"></div></div>'
            )
        notes = [*said, *notes]
        body = (
            places[0]
            if len(places) == 1 and not panels[0][0]
            else (f'<div class="clf-panels">{"".join(places)}</div>')
        )
    else:
        body = f'<div class="clf-scroll">{_content(card.body)}</div>'
    lede = f"<p>{esc(card.lede)}</p>" if card.lede else ""
    said_html = "".join(f'<p class="clf-how">{esc(str(n))}</p>' for n in how if n)
    said_html += "".join(f'<p class="clf-note">{esc(str(n))}</p>' for n in notes if n)
    wide = " full" if card.wide else ""
    return (
        f'<section class="clf-card{wide}"><h3>{esc(card.heading)}</h3>{lede}{said_html}'
        f"{body}</section>"
    )


def render_html(
    title: str,
    tables: Sequence[tuple[str, Any]] = (),
    charts: Sequence[tuple[str, Any] | tuple[str, Any, str | None]] = (),
    *,
    intro: str | None = None,
) -> str:
    """A standalone HTML page: ``title``, then each (heading, content) of ``tables``, then
    each (heading, chart) of ``charts``, working offline.

    Content is a ``pl.DataFrame`` (drawn as a table), ``HTML`` (trusted markup, kept) or
    any other value (escaped text in a ``<pre>``). Charts are Altair charts or Vega-Lite
    dicts, each on its card (:func:`render_page`); above each chart, in words: what it left
    out (:func:`chart_notes`), then the entry's optional third item, a note of the caller's
    (both escaped). A chart too wide for half the page (several panels, or none that
    follows its card) spans both columns.
    """
    cards = [Card(heading, content, chart=False, wide=True) for heading, content in tables]
    charts_ = [
        Card(e[0], e[1], notes=tuple(n for n in e[2:3] if n), wide=_wide(e[1])) for e in charts
    ]
    sections = [s for s in (Section(None, tuple(cards)), Section(None, tuple(charts_))) if s.items]
    return render_page(title, sections, lede=intro)


def _wide(chart: Any) -> bool:
    """A chart spans the page unless it follows its card in one panel of at most 560 px."""
    fit = ((spec_of(chart).get("usermeta") or {}).get("clfeval") or {}).get("fit")
    return not fit or fit.get("cells", 1) > 1 or (fit.get("largest") or 10_000) > 560


def write_html(
    path: str | Path,
    title: str,
    tables: Sequence[tuple[str, Any]] = (),
    charts: Sequence[tuple[str, Any] | tuple[str, Any, str | None]] = (),
    *,
    intro: str | None = None,
) -> Path:
    """Write ``render_html(title, tables, charts, intro=intro)`` to ``path`` (UTF-8)."""
    path = Path(path)
    path.write_text(render_html(title, tables, charts, intro=intro), encoding="utf-8")
    return path
