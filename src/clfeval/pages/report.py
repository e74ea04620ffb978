"""The standalone HTML report: the text report, the baselines and every relevant chart."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import polars as pl

from clfeval._frames import as_polars
from clfeval._report import report
from clfeval._validate import Frame, prepare, score_columns
from clfeval.charts._plot import PlotNamespace
from clfeval.exceptions import InputError
from clfeval.pages._html import HTML, chart_notes, render_html


def report_html(
    data: Frame,
    y: str,
    yhat: str,
    *,
    score: Any = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = 1,
    digits: int = 2,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
    path: str | Path | None = None,
    title: str | None = None,
) -> str:
    """One offline HTML page: the report, its baselines and the charts; written to ``path``.

    Always: the classification report (scikit-learn's text and a table) and the confusion
    matrix. With a binary ``score``: ROC, PR, metrics by threshold, calibration, score
    distributions, gain, and the interactive threshold explorer (ungrouped input only).
    The Vega JavaScript is inlined, so the file opens with the network off; every user string
    is escaped. Returns the HTML text.

    The page grows linearly with the classes and groups: the report and its table list
    every class and group, while a chart draws at most the 20 most frequent classes (the
    rest pooled as "other") and the 20 largest groups, and says so above it.

    Examples
    --------
    >>> import clfeval as ce
    >>> page = report_html(ce.datasets.patients(), "y", "yhat", score="score")
    >>> page.startswith("<!DOCTYPE html>") and "Classification report" in page
    True
    """
    if title is not None and not isinstance(title, str):
        raise InputError(
            f"title={title!r} is not a string",
            role="title",
            rule="option",
            hint="pass the page's title as text, or leave title=None",
        )
    data = as_polars(data)
    frame = data.collect() if isinstance(data, pl.LazyFrame) else data
    rep = report(
        frame,
        y,
        yhat,
        score=score,
        labels=labels,
        pos_label=pos_label,
        digits=digits,
        by=by,
        weight=weight,
        missing=missing,
        nonfinite=nonfinite,
    )
    if missing == "drop" or nonfinite == "drop":  # the charts show the rows the report kept
        kept = prepare(
            frame,
            y=y,
            yhat=yhat,
            score=score_columns(score, labels),
            weight=weight,
            by=by,
            labels=labels,
            missing=missing,
            nonfinite=nonfinite,
            classes=False,
        )
        frame = kept.frame.collect()
    tables: list[tuple[str, Any]] = [
        ("Classification report", str(rep)),
        ("Report table", HTML(rep._repr_html_())),
    ]
    plot = PlotNamespace(frame)
    charts: list[tuple[str, Any]] = [
        ("Confusion matrix", plot.confusion_matrix(y, yhat, labels=labels, by=by, weight=weight)),
        (
            "Confusion matrix, normalized by actual class",
            plot.confusion_matrix(y, yhat, labels=labels, normalize="true", by=by, weight=weight),
        ),
    ]
    binary = isinstance(score, str) and not isinstance(frame.schema.get(score), pl.List | pl.Array)
    if binary:  # one score column; per-class scores get the report's lines, not its charts
        kw = {"pos_label": pos_label, "by": by, "weight": weight}
        charts += [
            ("ROC curve", plot.roc(y, score, **kw)),
            ("Precision–recall curve", plot.pr(y, score, **kw)),
            ("Metrics by threshold", plot.thresholds(y, score, **kw)),
            ("Calibration", plot.calibration(y, score, **kw)),
            (
                "Score distributions",
                plot.scores(y, score, by=by, weight=weight, missing=missing, nonfinite=nonfinite),
            ),
            ("Cumulative gain", plot.gain(y, score, **kw)),
        ]
        if by is None:
            charts.append(
                ("Threshold explorer", plot.explorer(y, score, pos_label=pos_label, weight=weight))
            )
    every = "The report above lists every class" + (" and group." if by is not None else ".")
    noted = [(h, c, every if chart_notes(c) else None) for h, c in charts]
    page = render_html(title or f"clfeval report: {y} vs {yhat}", tables, noted)
    if path is not None:
        Path(path).write_text(page, encoding="utf-8")
    return page
