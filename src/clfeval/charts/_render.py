"""Charts out of Python: Vega-Lite specs, PNG and SVG through vl-convert (no browser)."""

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
