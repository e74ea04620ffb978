"""Altair charts drawn from the tidy frames clfeval returns.

Each function takes the frame a clfeval function returned (``roc_curve``,
``pr_curve``, ``confusion_matrix``, ...) and returns the Altair object for the caller
to restyle, show or save (no ``.show()``, no global ``configure``). Group columns
(``by=``) and the one-vs-rest ``label`` column come first in those frames; each
combination of their values is one series, and the i-th series has the i-th colour of
``PALETTE`` in every chart (of ``CLASS_PALETTE`` when the series are the classes, so a
class never takes a group's colour). Metrics drawn together are told apart by their dash
or shape, never by a group's colour. What a chart marks (the operating point of
``threshold=``, a maximum, what a dashed line is) is said in its subtitle, never written
over the plot. A chart carries ``usermeta["clfeval"]["fit"]``: how a page may size it to
its container.

Chart data stays small whatever the input size: curves are thinned to ``max_points``
per curve (collinear points first, then wiggles under a pixel, then those whose removal
changes the drawn line least), histograms are binned by Polars, the explorer's counts sit
on one grid of at most 1,001 thresholds, and the data is embedded inline, so Altair's
5,000-row guard never has to step in. ``inf`` and NaN reach the JSON as null.

Many groups or classes do not multiply the data either: a chart draws at most
``MAX_SERIES`` (20) series, the largest (by a ``_size`` column when the frame has one,
else by its own counts, else the first ones), and a confusion matrix or score histogram
at most ``MAX_CLASSES`` (20) classes, the most frequent, the others pooled into one
"other" class. The chart's subtitle says what was left out, and so does its
``usermeta["clfeval"]["notes"]``, which ``clfeval``'s HTML page prints beside it.

In a notebook, ``alt.renderers.enable("clfeval")`` shows every chart as Vega-Lite and as
an SVG image for viewers that do not draw Vega-Lite, with no network (``_render``).
"""

from __future__ import annotations

import sys

from clfeval.charts._base import CLASS_PALETTE, PALETTE, TITLES
from clfeval.charts._calibration import calibration
from clfeval.charts._classes import per_class
from clfeval.charts._compare import compare
from clfeval.charts._confusion import confusion_matrix
from clfeval.charts._curves import det, gain, lift, pr, roc
from clfeval.charts._data import MAX_CLASSES, MAX_POINTS, MAX_SERIES
from clfeval.charts._decide import cost, decision_curve, prevalence
from clfeval.charts._explorer import explorer
from clfeval.charts._intervals import differences, forest
from clfeval.charts._scores import score_histogram, scores
from clfeval.charts._thresholds import thresholds

__all__ = [
    "CLASS_PALETTE",
    "MAX_CLASSES",
    "MAX_POINTS",
    "MAX_SERIES",
    "PALETTE",
    "TITLES",
    "calibration",
    "compare",
    "confusion_matrix",
    "cost",
    "decision_curve",
    "det",
    "differences",
    "explorer",
    "forest",
    "gain",
    "lift",
    "per_class",
    "pr",
    "prevalence",
    "roc",
    "score_histogram",
    "scores",
    "thresholds",
]

if "altair" in sys.modules:  # a notebook that imported Altair first: enable("clfeval") works
    from clfeval.charts._render import register as _register_renderer

    _register_renderer()
