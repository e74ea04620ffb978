"""Altair charts drawn from the tidy frames clfeval returns.

Each function takes the frame a clfeval function returned (``roc_curve``,
``pr_curve``, ``confusion_matrix``, ...) and returns the Altair object for the caller
to restyle, show or save (no ``.show()``, no global ``configure``). Group columns
(``by=``) and the one-vs-rest ``label`` column come first in those frames; each
combination of their values is one series, and the i-th series has the i-th palette
colour in every chart.

Chart data stays small whatever the input size: curves are thinned to ``max_points``
per curve (collinear points first, then those whose removal changes the drawn line
least), histograms are binned by Polars, and the data is embedded inline, so
Altair's 5,000-row guard never has to step in. ``inf`` and NaN reach the JSON as null.

Many groups or classes do not multiply the data either: a chart draws at most
``MAX_SERIES`` (20) series, the largest (by a ``_size`` column when the frame has one,
else by its own counts, else the first ones), and a confusion matrix or score histogram
at most ``MAX_CLASSES`` (20) classes, the most frequent, the others pooled into one
"other" class. The chart's subtitle says what was left out, and so does its
``usermeta["clfeval"]["notes"]``, which ``clfeval``'s HTML page prints beside it.
"""

from __future__ import annotations

from clfeval._chart_data import MAX_CLASSES, MAX_POINTS, MAX_SERIES, score_histogram
from clfeval.charts._base import PALETTE, TITLES
from clfeval.charts._curves import det, gain, lift, pr, roc
from clfeval.charts._explorer import explorer
from clfeval.charts._intervals import differences, forest
from clfeval.charts._summaries import calibration, compare, scores, thresholds
from clfeval.charts._tables import confusion_matrix

__all__ = [
    "MAX_CLASSES",
    "MAX_POINTS",
    "MAX_SERIES",
    "PALETTE",
    "TITLES",
    "calibration",
    "compare",
    "confusion_matrix",
    "det",
    "differences",
    "explorer",
    "forest",
    "gain",
    "lift",
    "pr",
    "roc",
    "score_histogram",
    "scores",
    "thresholds",
]
