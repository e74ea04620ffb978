"""Charts out of Python: Vega-Lite specs, PNG and SVG through vl-convert (no browser), and the
Altair renderer ``"clfeval"`` for notebooks.

``alt.renderers.enable("clfeval")`` makes every chart (clfeval's or not) display as the
Vega-Lite spec, which JupyterLab, VS Code and nteract draw interactively with the Vega they
ship, plus the same chart as an SVG image, drawn here by vl-convert, for every front end and
notebook viewer that does not (GitHub, nbviewer, an exported HTML file). Nothing is fetched
from a network. The renderer is declared as an Altair entry point, and registered when
``clfeval.charts`` is imported after Altair.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def spec_of(chart: Any) -> dict[str, Any]:
    """The Vega-Lite spec of an Altair chart, or a copy of a spec dict."""
    return dict(chart) if isinstance(chart, Mapping) else chart.to_dict()


def vl_version() -> str | None:
    """The Vega-Lite version Altair writes, as vl-convert names it (``"6.4"``), if bundled."""
    import altair as alt
    import vl_convert as vlc

    version = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return version if version in vlc.get_vegalite_versions() else None


def to_png(chart: Any, *, scale: float = 2.0) -> bytes:
    """PNG bytes of an Altair chart or Vega-Lite dict, rendered by vl-convert (no browser)."""
    import vl_convert as vlc

    png: bytes = vlc.vegalite_to_png(spec_of(chart), vl_version=vl_version(), scale=scale)
    return png


def to_svg(chart: Any) -> str:
    """SVG text of an Altair chart or Vega-Lite dict, rendered by vl-convert (no browser)."""
    import vl_convert as vlc

    svg: str = vlc.vegalite_to_svg(spec_of(chart), vl_version=vl_version())
    return svg


# the "+json" spelling JupyterLab's Vega extension registers and nbformat stores as JSON
VEGALITE_MIME = "application/vnd.vegalite.v6+json"


def static(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` without the layers that are only there to be hovered (invisible points that
    carry tooltips): an image has no tooltip, and they would only make it bigger."""

    def visible(layer: Any) -> bool:
        mark = layer.get("mark") if isinstance(layer, Mapping) else None
        return not (isinstance(mark, Mapping) and mark.get("opacity") == 0)

    def walk(node: Any) -> Any:
        if isinstance(node, Mapping):
            out = {k: walk(v) for k, v in node.items()}
            if isinstance(out.get("layer"), list):
                out["layer"] = [layer for layer in out["layer"] if visible(layer)]
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(spec)


def render(spec: dict[str, Any], **metadata: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``"clfeval"`` Altair renderer: a MIME bundle of the Vega-Lite spec, an SVG of it
    (vl-convert, offline) and a line of text; ``metadata`` (embed options) is not used."""
    title = spec.get("title")
    if isinstance(title, Mapping):
        title = title.get("text")
    description = spec.get("description") or title or "chart"
    bundle = {
        VEGALITE_MIME: spec,
        "image/svg+xml": to_svg(static(spec)),
        "text/plain": f"<clfeval chart: {description}>",
    }
    return bundle, {}


def register() -> None:
    """Make ``alt.renderers.enable("clfeval")`` available (harmless when it already is)."""
    import altair as alt

    if "clfeval" not in alt.renderers.names():
        alt.renderers.register("clfeval", render)
