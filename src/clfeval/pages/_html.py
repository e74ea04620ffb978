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
from pathlib import Path
from typing import Any

import polars as pl

from clfeval.charts._render import spec_of, vl_version

__all__ = [
    "HTML",
    "chart_notes",
    "frame_table",
    "render_html",
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
_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       margin: 2rem auto; max-width: 72rem; padding: 0 1.5rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table.clf { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .9rem; }
table.clf th, table.clf td { padding: .3rem .7rem; border-bottom: 1px solid #e3e3e3; text-align: left; }
table.clf td.num, table.clf th.num { text-align: right; }
table.clf thead th { border-bottom: 2px solid #999; }
table.clf tbody tr:nth-child(even) { background: #f7f7f7; }
pre.clf { background: #f7f7f7; padding: .8rem 1rem; overflow-x: auto; font-size: .85rem; }
.clf-chart { overflow-x: auto; margin: .5rem 0 1rem; min-height: 2rem; }
.clf-error { color: #b00020; }
p.clf-note { color: #555; font-size: .85rem; margin: .25rem 0 .5rem; max-width: 48rem; }
footer { margin-top: 3rem; color: #777; font-size: .8rem; }
"""


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


def frame_table(frame: pl.DataFrame, *, digits: int = 4, caption: str | None = None) -> HTML:
    """An HTML table of ``frame``: headers and cells escaped, floats to ``digits`` decimals,
    nulls empty, numbers right-aligned.

    Examples
    --------
    >>> print(frame_table(pl.DataFrame({"<b>": ["&"], "n": [1.5]})))
    <table class="clf"><thead><tr><th>&lt;b&gt;</th><th class="num">n</th></tr></thead><tbody><tr><td>&amp;</td><td class="num">1.5000</td></tr></tbody></table>
    """
    numeric = [t.is_numeric() for t in frame.schema.values()]

    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:.{digits}f}" if math.isfinite(value) else str(value)
        return html.escape(str(value))

    def attr(is_number: bool) -> str:
        return ' class="num"' if is_number else ""

    head = "".join(
        f"<th{attr(n)}>{html.escape(c)}</th>" for c, n in zip(frame.columns, numeric, strict=True)
    )
    rows = (zip(row, numeric, strict=True) for row in frame.iter_rows())
    body = "".join(
        "<tr>" + "".join(f"<td{attr(n)}>{cell(v)}</td>" for v, n in row) + "</tr>" for row in rows
    )
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return HTML(
        f'<table class="clf">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


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
    dicts, drawn as SVG by one ``vegaEmbed`` call each; the JavaScript is inlined once,
    only when there are charts. A chart that fails to draw shows the error in its place.
    Above each chart, in words: what it left out (:func:`chart_notes`), then the entry's
    optional third item, a note of the caller's (both escaped).
    """
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="generator" content="clfeval">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(_CSP)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
        f"<header><h1>{esc(title)}</h1>"
        + (f"<p>{esc(intro)}</p>" if intro else "")
        + "</header><main>",
    ]
    parts += [
        f"<section><h2>{esc(heading)}</h2>{_content(content)}</section>"
        for heading, content in tables
    ]
    specs = [spec_of(entry[1]) for entry in charts]
    for i, entry in enumerate(charts):
        said_by_chart = chart_notes(specs[i])
        specs[i] = _unsubtitled(specs[i], said_by_chart)
        notes = [*said_by_chart, *(n for n in entry[2:3] if n)]
        said = "".join(f'<p class="clf-note">{esc(str(n))}</p>' for n in notes)
        parts.append(
            f"<section><h2>{esc(entry[0])}</h2>{said}"
            f'<div class="clf-chart" id="clf-chart-{i}"></div></section>'
        )
    parts.append(
        "</main><footer>Made with clfeval. Opens offline: the charting code is in this file.</footer>"
    )
    if specs:
        options = {
            "renderer": "svg",
            "actions": {"export": True, "source": False, "compiled": False, "editor": False},
        }
        parts.append(f"<script>{vega_bundle()}</script>")
        parts.append(
            _EMBED.replace("SPECS", script_json(specs)).replace("OPTIONS", script_json(options))
        )
    parts.append("</body></html>")
    return "\n".join(parts)


_EMBED = """<script>
(function () {
  var specs = SPECS, options = OPTIONS;
  specs.forEach(function (spec, i) {
    var el = document.getElementById("clf-chart-" + i);
    vegaEmbed(el, spec, options).then(function (result) {
      el.setAttribute("data-rendered", "true");
      el.clfView = result.view;
    }).catch(function (err) {
      el.className += " clf-error";
      el.textContent = "This chart could not be drawn: " + err;
      el.setAttribute("data-rendered", "error");
      console.error(err);
    });
  });
})();
</script>"""


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
