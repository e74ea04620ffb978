"""The look of every clfeval page: one style sheet (light, dark, print) and the script that
draws each chart, sizes it to its card and keeps it sized.

The script reads ``usermeta.clfeval.fit`` of a chart (:func:`clfeval.charts._base.fitted`):
the views whose width follows the card, how many sit side by side, the height they keep in
proportion, the largest width that still reads well. It draws the chart once at a guessed
width, measures what the axes, legends and headers take, and draws it again at the width
that fills the card; on a resize (or a change of the colour scheme) it draws it again,
keeping the slider where the reader left it. Charts without ``fit`` keep their own size.
"""

from __future__ import annotations

STYLE = """
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --card: #ffffff; --ink: #1f2328; --muted: #59636e; --faint: #8c959f;
  --line: #d8dee4; --line-soft: #eaeef2; --zebra: #f6f8fa; --accent: #4c78a8;
  --good: #1a7f37; --bad: #cf222e; --chip: #eef2f6; --shadow: 0 1px 2px rgba(31,35,40,.06);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --card: #161b22; --ink: #e6edf3; --muted: #9198a1; --faint: #6e7681;
    --line: #30363d; --line-soft: #21262d; --zebra: #1b2129; --accent: #79a6d6;
    --good: #3fb950; --bad: #f85149; --chip: #21262d; --shadow: none;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); }
body { margin: 0; color: var(--ink); background: var(--bg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.clf-wrap { max-width: 78rem; margin: 0 auto; padding: 0 1.25rem; }
header.clf-head { background: var(--card); border-bottom: 1px solid var(--line); padding: 1.4rem 0 1.2rem; }
.clf-eyebrow { color: var(--muted); font-size: .78rem; letter-spacing: .06em; text-transform: uppercase; margin: 0; }
h1 { font-size: 1.55rem; line-height: 1.25; margin: .2rem 0 .35rem; overflow-wrap: anywhere; }
h2 { font-size: 1.12rem; margin: 2rem 0 .8rem; }
h3 { font-size: .98rem; margin: 0; overflow-wrap: anywhere; }
.clf-lede { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.clf-chips { display: flex; flex-wrap: wrap; gap: .45rem .5rem; margin: .9rem 0 0; padding: 0; list-style: none; }
.clf-chips li { background: var(--chip); border-radius: 999px; padding: .2rem .7rem; font-size: .85rem; }
.clf-chips b { font-variant-numeric: tabular-nums; font-weight: 600; }
.clf-balance { margin: 1rem 0 0; display: grid; gap: .35rem; max-width: 46rem; }
.clf-balance-row { display: grid; grid-template-columns: minmax(4rem, 9rem) 1fr; gap: .6rem; align-items: center; font-size: .82rem; }
.clf-balance-row > span { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.clf-bar { display: flex; height: .85rem; border-radius: 4px; overflow: hidden; background: var(--line-soft); }
.clf-bar i { display: block; height: 100%; min-width: 1px; }
.clf-keys { display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .8rem; color: var(--muted); margin-top: .2rem; }
.clf-keys i { display: inline-block; width: .7rem; height: .7rem; border-radius: 2px; margin-right: .3rem; vertical-align: -1px; }
main { padding-bottom: 2rem; }
.clf-note, p.clf-note, p.clf-how { color: var(--muted); font-size: .85rem; margin: .3rem 0 .5rem; max-width: 52rem; }
p.clf-note { color: var(--ink); }
p.clf-how + p.clf-how { margin-top: -.35rem; }
.clf-kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(11.5rem, 1fr)); gap: .8rem; }
.clf-kpi { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .75rem .9rem .7rem; box-shadow: var(--shadow); }
.clf-kpi h3 { font-size: .8rem; font-weight: 600; color: var(--muted); }
.clf-kpi .v { font-size: 1.6rem; font-weight: 600; font-variant-numeric: tabular-nums; margin: .1rem 0 .15rem; }
.clf-kpi .b { font-size: .8rem; color: var(--muted); font-variant-numeric: tabular-nums; }
.clf-kpi .d { font-weight: 600; }
.up { color: var(--good); } .down { color: var(--bad); } .flat { color: var(--muted); }
.clf-track { position: relative; height: .35rem; background: var(--line-soft); border-radius: 3px; margin-top: .45rem; }
.clf-track > i { position: absolute; left: 0; top: 0; bottom: 0; background: var(--accent); border-radius: 3px; }
.clf-track > b { position: absolute; top: -.2rem; bottom: -.2rem; width: 2px; background: var(--ink); opacity: .65; }
.clf-grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem; }
.clf-card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.1rem .9rem; min-width: 0; box-shadow: var(--shadow); }
.clf-card.full { grid-column: 1 / -1; }
.clf-card > p { color: var(--muted); font-size: .85rem; margin: .25rem 0 .6rem; }
.clf-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 21rem), 1fr)); gap: .6rem 1.2rem; }
.clf-panel { min-width: 0; }
h4.clf-panel-head { font-size: .88rem; margin: .4rem 0 .2rem; overflow-wrap: anywhere; }
.clf-chart { min-height: 2rem; overflow-x: auto; overflow-y: hidden; }
.clf-chart svg { max-width: 100%; height: auto; }
.clf-chart[data-rendered="pending"] { visibility: hidden; }
.clf-error { color: var(--bad); }
.clf-scroll { overflow-x: auto; }
table.clf, table.clfeval { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .88rem; margin: .2rem 0 .6rem; }
table.clf caption { text-align: left; color: var(--muted); font-size: .82rem; padding: 0 0 .35rem; caption-side: top; }
table.clf th, table.clf td, table.clfeval th, table.clfeval td { padding: .36rem .8rem; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
table.clf thead th, table.clfeval thead th { border-bottom: 2px solid var(--faint); font-weight: 600; vertical-align: bottom; }
table.clf tbody tr:nth-child(even), table.clfeval tbody tr:nth-child(even) { background: var(--zebra); }
table.clf .num, table.clfeval td:not(:first-child), table.clfeval th:not(:first-child) { text-align: right; }
table.clf tr.clf-group th { background: var(--chip); font-weight: 600; border-bottom: 1px solid var(--line); }
table.clf tr.clf-avg td { color: var(--muted); }
table.clf tr.clf-first td { border-top: 2px solid var(--line); }
table.clf td.best { font-weight: 700; }
table.clf tbody th { font-weight: 500; }
.clf-scroll table.clf tbody th[scope=row], .clf-scroll table.clf thead th:first-child { position: sticky; left: 0; background: var(--card); }
.clf-scroll table.clf tbody tr:nth-child(even) th[scope=row] { background: var(--zebra); }
table.clf .base { color: var(--muted); font-size: .8rem; margin-left: .35rem; }
details.clf { margin: .6rem 0; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
details.clf > summary { cursor: pointer; padding: .55rem .8rem; font-weight: 600; font-size: .9rem; }
details.clf > *:not(summary) { margin: 0 .8rem .8rem; }
pre.clf { background: var(--zebra); border: 1px solid var(--line-soft); padding: .8rem 1rem; overflow-x: auto; font-size: .8rem; line-height: 1.35; border-radius: 6px; }
.clf-chart .chart-wrapper { display: flex; flex-direction: column; }
.clf-chart .vega-bindings:empty { display: none; }
.clf-chart .vega-bindings { order: -1; margin: 0 0 .6rem; padding: .5rem .7rem; background: var(--zebra); border: 1px solid var(--line-soft); border-radius: 8px; }
.vega-bind { margin: .4rem 0 .2rem; font-size: .9rem; }
.vega-bind label { display: inline-flex; align-items: center; gap: .5rem; flex-wrap: wrap; }
.vega-bind-name { font-weight: 600; }
.vega-bind input[type=range] { width: min(28rem, 70vw); accent-color: var(--accent); }
.vega-bind input:focus-visible, summary:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.vega-bind-range-value, .vega-bind span:last-child { font-variant-numeric: tabular-nums; min-width: 4.5em; }
footer { color: var(--muted); font-size: .8rem; border-top: 1px solid var(--line); padding: 1rem 0 2rem; }
a { color: var(--accent); }
@media (max-width: 900px) { .clf-grid { grid-template-columns: minmax(0, 1fr); } body { font-size: 14px; } }
@media (max-width: 520px) { .clf-card { padding: .8rem .7rem; } .clf-wrap { padding: 0 .7rem; } .clf-kpis { grid-template-columns: repeat(2, minmax(0, 1fr)); } .clf-kpi .v { font-size: 1.35rem; } }
@media print {
  :root { --bg: #ffffff; --card: #ffffff; --ink: #000000; --muted: #444444; --line: #bbbbbb; --zebra: #f3f3f3; --chip: #f0f0f0; --shadow: none; }
  html, body { background: #ffffff; }
  header.clf-head { border: 0; padding-top: 0; }
  .clf-wrap { max-width: none; padding: 0; }
  .clf-card, .clf-kpi, table.clf tr, details.clf { break-inside: avoid; }
  .clf-card { border-color: #cccccc; }
  .vega-actions, .vega-embed summary { display: none !important; }
  details.clf:not([open]) > :not(summary) { display: block; }
  h2 { break-after: avoid; }
  @page { margin: 12mm; }
}
"""

# Draws every chart of ``specs`` into ``#clf-chart-<i>``; SPECS and OPTIONS are replaced by
# script-safe JSON.
EMBED = """<script>
(function () {
  "use strict";
  var specs = SPECS, options = OPTIONS;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function theme() {
    var d = dark && dark.matches;
    var ink = d ? "#e6edf3" : "#1f2328", muted = d ? "#9198a1" : "#59636e";
    var grid = d ? "#262c34" : "#e8ebef", domain = d ? "#6e7681" : "#8c959f";
    return {
      background: null,
      font: "system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif",
      axis: {labelColor: muted, titleColor: ink, gridColor: grid, domainColor: domain,
             tickColor: domain, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 600,
             labelOverlap: "greedy", labelSeparation: 3},
      legend: {labelColor: ink, titleColor: ink, labelFontSize: 11, titleFontSize: 11},
      header: {labelColor: ink, titleColor: ink, labelFontSize: 12},
      title: {color: ink, subtitleColor: muted, anchor: "start", fontSize: 14, subtitlePadding: 4},
      view: {stroke: d ? "#30363d" : "#d8dee4"},
      text: {color: ink},
      style: {"guide-label": {fill: muted}, "guide-title": {fill: ink}}
    };
  }
  function recolour(value) {  // chart subtitles fixed in grey follow the page's theme
    if (Array.isArray(value)) { return value.map(recolour); }
    if (value && typeof value === "object") {
      var out = {};
      Object.keys(value).forEach(function (k) {
        out[k] = k === "subtitleColor" ? theme().title.subtitleColor : recolour(value[k]);
      });
      return out;
    }
    return value;
  }
  function fitOf(spec) {
    var meta = (spec.usermeta || {}).clfeval || {};
    return meta.fit || null;
  }
  function cellsFor(el, fit) {  // side by side while each still gets fit.least pixels
    var most = Math.max(1, fit.cells || 1);
    var room = Math.floor((el.clientWidth - 60) / ((fit.least || 260) + 70));
    return Math.max(1, Math.min(most, room));
  }
  function step(node, key) {  // an hconcat turned into a vconcat is still found by its path
    if (key === "hconcat" && !node.hconcat && node.vconcat) { return node.vconcat; }
    return node[key];
  }
  function sized(spec, fit, width, cells) {
    var copy = recolour(spec);
    if (cells < (fit.cells || 1)) {
      if (typeof copy.columns === "number") { copy.columns = cells; }
      (fit.wrap || []).forEach(function (path) {
        var node = copy;
        path.forEach(function (key) { node = step(node, key); });
        if (node.hconcat) { node.vconcat = node.hconcat; delete node.hconcat; }
      });
    }
    fit.views.forEach(function (view) {
      var node = copy;
      view.path.forEach(function (key) { node = step(node, key); });
      node.width = width;
      if (view.aspect) { node.height = Math.round(width * view.aspect); }
    });
    return copy;
  }
  function widthFor(el, fit, extra, cells) {
    var w = Math.floor((el.clientWidth - extra - 2) / cells);
    if (fit.largest) { w = Math.min(w, fit.largest); }
    return Math.max(150, w);
  }
  function bound(el) {  // the values of the sliders, to keep across a redraw
    var view = el.clfView, out = {};
    if (!view) { return out; }
    (el.clfSpec.params || []).forEach(function (p) {
      if (p.bind) { try { out[p.name] = view.signal(p.name); } catch (e) { /* absent */ } }
    });
    return out;
  }
  function embed(el, spec, keep) {
    var opts = Object.assign({}, options, {config: theme(),
      tooltip: {theme: dark && dark.matches ? "dark" : "light"}});
    if (el.clfView) { el.clfView.finalize(); el.clfView = null; }
    el.textContent = "";
    return vegaEmbed(el, spec, opts).then(function (result) {
      var names = Object.keys(keep || {});
      names.forEach(function (n) { result.view.signal(n, keep[n]); });
      return (names.length ? result.view.runAsync() : Promise.resolve()).then(function () {
        el.clfView = result.view;
        return result;
      });
    });
  }
  function used(el) {
    var svg = el.querySelector("svg");
    return svg ? svg.getBoundingClientRect().width : 0;
  }
  function draw(el, keep) {
    var spec = el.clfSpec, fit = fitOf(spec);
    if (!fit) { return embed(el, recolour(spec), keep); }
    var cells = cellsFor(el, fit);
    if (el.clfCells !== cells) { el.clfExtra = undefined; }
    el.clfCells = cells;
    var first = widthFor(el, fit, el.clfExtra === undefined ? 90 : el.clfExtra, cells);
    return embed(el, sized(spec, fit, first, cells), keep).then(function () {
      el.clfExtra = Math.max(0, used(el) - cells * first);
      var best = widthFor(el, fit, el.clfExtra, cells);
      el.clfWidth = el.clientWidth;
      if (Math.abs(best - first) < 4) { return; }
      return embed(el, sized(spec, fit, best, cells), bound(el));
    });
  }
  var elements = [];
  specs.forEach(function (spec, i) {
    var el = document.getElementById("clf-chart-" + i);
    el.clfSpec = spec;
    elements.push(el);
    el.setAttribute("data-rendered", "pending");
    draw(el, {}).then(function () {
      el.setAttribute("data-rendered", "true");
    }).catch(function (err) {
      el.className += " clf-error";
      el.textContent = "This chart could not be drawn: " + err;
      el.setAttribute("data-rendered", "error");
      console.error(err);
    });
  });
  function redraw(all) {
    elements.forEach(function (el) {
      if (el.getAttribute("data-rendered") !== "true") { return; }
      if (!all && (!fitOf(el.clfSpec) || Math.abs(el.clientWidth - (el.clfWidth || 0)) < 12)) { return; }
      el.setAttribute("data-rendered", "pending");
      draw(el, bound(el)).then(function () { el.setAttribute("data-rendered", "true"); });
    });
  }
  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { redraw(false); }, 200);
  });
  if (dark && dark.addEventListener) { dark.addEventListener("change", function () { redraw(true); }); }
})();
</script>"""
