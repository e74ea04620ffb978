"""The standalone HTML report: ``clfeval.report_html`` and the :class:`ReportPage` it returns."""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import polars as pl

from clfeval import _options, _spark_reduce
from clfeval._frames import as_polars
from clfeval._report import Report, report
from clfeval._spark import is_spark, refusal
from clfeval._validate import Frame, prepare, score_columns
from clfeval.charts._classes import per_class
from clfeval.charts._data import check_threshold
from clfeval.charts._plot import PlotNamespace
from clfeval.exceptions import InputError
from clfeval.pages._html import (
    HTML,
    Card,
    Section,
    cell,
    chart_notes,
    frame_table,
    render_page,
)
from clfeval.pages._summary import (
    AVERAGES,
    Group,
    comparison_html,
    cost_options,
    decision_chips,
    facts_html,
    group_names,
    groups_of,
    headline,
    kpis_html,
    mapping_of,
    preview_html,
    yhat_rule,
)

MAX_PANELS = 6  # groups drawn as one panel each (one-vs-rest curves of grouped multiclass data)


class ReportPage:
    """An offline HTML page made by :func:`report_html`: ``save`` it, or read ``to_html()``.

    In a notebook it shows as a short summary (the headline metrics beside a constant
    predictor's, and a link to the file once saved), never as the page's megabyte of text.
    ``path`` is where it was last saved (None before), ``size`` its length in bytes.
    """

    def __init__(self, text: str, *, title: str, charts: int, preview: str) -> None:
        self._text = text
        self.title = title
        self.charts = charts
        self._preview = preview
        self.path: Path | None = None

    @property
    def size(self) -> int:
        """The page's size in bytes (UTF-8)."""
        return len(self._text.encode("utf-8"))

    def to_html(self) -> str:
        """The page's text: one HTML document with everything inlined."""
        return self._text

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the page to ``path`` (UTF-8, through a temporary file, so a failure leaves any
        old file whole), like Altair's ``Chart.save``; returns the path."""
        target = Path(path)
        partial = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            partial.write_text(self._text, encoding="utf-8")
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
        self.path = target
        return target

    def _where(self) -> tuple[str | None, str]:
        """A link target relative to the working directory (None outside it), and words."""
        if self.path is None:
            return None, "not saved yet: call .save('report.html')"
        try:
            relative = self.path.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            return None, f"saved to {self.path}"
        return relative.as_posix(), f"saved to {relative.as_posix()}"

    def __repr__(self) -> str:
        saved = f", saved to {str(self.path)!r}" if self.path is not None else ", not saved"
        return f"ReportPage({self.title!r}, {_size(self.size)}, {self.charts} charts{saved})"

    def _repr_html_(self) -> str:
        esc = html.escape
        href, said = self._where()
        link = f'<a href="{esc(href)}" target="_blank">{esc(said)}</a>' if href else esc(said)
        return (
            '<div style="border:1px solid rgba(128,128,128,.45);border-radius:8px;'
            'padding:10px 14px;max-width:52rem">'
            f'<div style="font-weight:600">{esc(self.title)}</div>'
            f'<div style="opacity:.75;font-size:90%;margin:2px 0 8px">'
            f"clfeval report page · {_size(self.size)} · {self.charts} charts · opens offline"
            f" · {link}</div>{self._preview}</div>"
        )


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


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
    threshold: float | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
    path: str | os.PathLike[str] | None = None,
    title: str | None = None,
    prevalence: float | None = None,
    cost_fp: float | None = None,
    cost_fn: float | None = None,
    benefit_tp: float = 0.0,
    benefit_tn: float = 0.0,
) -> ReportPage:
    """One offline HTML page of the evaluation: a :class:`ReportPage` (``.save(path)``,
    ``.to_html()``), saved to ``path`` when given.

    The page opens with the data (rows, groups, classes, class balance) and the headline
    metrics, each beside what a constant predictor scores on the same rows. Then the
    charts, each sized to its card: the confusion matrix, and with a binary ``score`` the
    ROC and precision-recall curves, score distributions, metrics by threshold, the
    interactive threshold explorer, calibration and gain; with per-class probabilities the
    one-vs-rest curves and the calibration of each class; with ``by`` a comparison of the
    groups, each group in the same colour in every chart. Then the classification report as
    a table, scikit-learn's text and every constant predictor in folded sections.

    ``threshold`` is the operating threshold the charts mark and the explorer starts at;
    by default the one ``yhat`` follows (``score >= t`` on every row), else 0.5, and the
    page says which. Two classes: ``prevalence`` (a target share of ``pos_label``) adds
    precision and NPV against the prevalence and re-expresses the threshold chart at it;
    ``cost_fp`` and ``cost_fn`` (optional ``benefit_tp``, ``benefit_tn``, per row) add the
    expected cost of ``yhat`` to the header, the cost curve to the threshold chart and the
    expected cost at the slider to the explorer. The Vega JavaScript is inlined, so the
    file opens with the network off; every user string is escaped. A chart draws at most the 20 most frequent classes
    and the 20 largest groups, and says so; the tables list them all.

    ``data`` may be a Spark DataFrame: the report and its checks run inside Spark, and the
    charts are drawn from the table Spark reduces the rows to (the row count and weight of
    each distinct group, ``y``, ``yhat`` and ``score``); the page is the one the rows give.

    Examples
    --------
    >>> import clfeval as ce
    >>> page = report_html(ce.datasets.patients(), "y", "yhat", score="score")
    >>> page.to_html().startswith("<!DOCTYPE html>"), page.charts
    (True, 8)
    """
    if title is not None and not isinstance(title, str):
        raise InputError(
            f"title={title!r} is not a string",
            role="title",
            rule="option",
            hint="pass the page's title as text, or leave title=None",
        )
    threshold = check_threshold(threshold)
    target = _options.prevalence(prevalence, column=False, mapping=False)
    costs = _options.costs(cost_fp, cost_fn, benefit_tp, benefit_tn)
    options: dict[str, Any] = {
        "score": score, "labels": labels, "pos_label": pos_label, "by": by, "weight": weight,
        "missing": missing, "nonfinite": nonfinite,
    }  # fmt: skip
    counted, rows = weight, None  # the weight column of the frame the charts read, its rows
    if is_spark(data):  # the report inside Spark; the charts from its reduced rows
        schema = _spark_reduce.schema_of(data)
        why = _spark_reduce.per_class("report_html", {"score": score}, schema)
        if why is not None:
            raise refusal("report_html", f"{why}; ce.metrics(df, y, score={{...}}) "
                                        "computes per-class scores inside Spark")  # fmt: skip
        rep = report(data, y, yhat, digits=digits, **options)
        columns = [*rep.by, y, yhat, *([score] if score is not None else [])]
        frame, counted, rows = _spark_reduce.reduced_rows(data, schema, columns, weight)
    else:
        frame = as_polars(data)
        frame = frame.collect() if isinstance(frame, pl.LazyFrame) else frame
        rep = report(frame, y, yhat, digits=digits, **options)
    if missing == "drop" or nonfinite == "drop":  # the charts show the rows the report kept
        kept = prepare(
            frame,
            y=y,
            yhat=yhat,
            score=score_columns(score, labels),
            weight=counted,
            by=by,
            labels=labels,
            missing=missing,
            nonfinite=nonfinite,
            classes=False,
        )
        frame = kept.frame.collect()
    keys = list(rep.by)
    groups = groups_of(rep.table, keys)
    classes = list(dict.fromkeys(c for g in groups for c, _ in g.classes))
    binary_score = isinstance(score, str) and not isinstance(
        frame.schema.get(score), pl.List | pl.Array
    )
    binary = len(classes) <= 2
    if (target is not None or costs is not None) and not binary:
        raise InputError(
            f"prevalence= and the costs of the page are for two classes; y and yhat have "
            f"{len(classes)}",
            role="prevalence" if target is not None else "cost_fp",
            rule="multiclass_binary",
            hint="leave them out, or call clfeval.expected_cost(costs={actual: {predicted: "
            "cost}}) for a cost matrix",
        )
    decision = {"prevalence": target, **cost_options(costs)}
    rule, start = None, threshold
    if binary_score:
        rule, start = yhat_rule(frame, y, yhat, score, pos_label, keys, threshold, rows)
    mapping = mapping_of(score, labels)
    head = headline(
        frame,
        y,
        yhat,
        score=score,
        binary_score=binary_score,
        classes=list(mapping) if mapping else _classes(frame, y, labels),
        pos_label=pos_label,
        labels=labels,
        by=keys,
        weight=counted,
    )
    excluded = rep.n_excluded
    n_excluded = (
        int(excluded["n_excluded"].sum()) if isinstance(excluded, pl.DataFrame) else excluded
    )
    header = facts_html(
        groups,
        keys=keys,
        weighted=weight is not None,
        pos_label=pos_label,
        binary=binary,
        excluded=n_excluded,
        rule=rule,
        decision=decision_chips(frame, y, yhat, pos_label, counted, target, costs),
    )
    summary = kpis_html(head, groups) if not keys else comparison_html(head, groups, keys)
    plot = PlotNamespace(frame)
    kw: dict[str, Any] = {"by": by, "weight": counted}
    cards = [*_label_cards(plot, rep, y, yhat, labels, kw, binary, keys)]
    if binary_score:
        curves = _binary_cards(plot, y, score, pos_label, start, rule, kw, keys, decision)
        cards = [*curves[:2], *cards, *curves[2:]]
    elif score is not None:  # per-class scores, two classes or more
        curves = _class_cards(frame, y, score, labels, groups, keys, counted)
        cards = [*curves[:2], cards[0], curves[2], *cards[1:]]
    if target is not None:
        cards.append(
            Card(
                "Precision and NPV by prevalence",
                plot.prevalence(y, yhat, pos_label=pos_label, **kw),
                "Precision and NPV of the predicted labels if positives were as common as on "
                "the x axis (recall and specificity do not move with it); the rule marks the "
                f"measured prevalence. The target is {target:.2%}.",
            )
        )
    if keys:
        cards.append(_compare_card(plot, y, yhat, score if binary_score else None, pos_label, kw))
    every = "The tables below list every class" + (" and group." if keys else ".")
    cards = [
        Card(
            c.heading,
            c.body,
            c.lede,
            (*c.notes, *((every,) if _leaves_out(c) else ())),
            c.wide,
            untitled=True,
        )
        for c in cards
    ]
    scored = f", score: {_score_words(score)}" if score is not None else ""
    page_title = title or f"clfeval report: {y} vs {yhat}"
    sections = [
        Section("Headline metrics", (summary,), grid=False),
        Section("Charts", tuple(cards)),
        Section("Tables", _tables(rep, keys, digits), grid=False),
    ]
    text = render_page(
        page_title,
        sections,
        lede=f"y (actual): {y} · yhat (predicted): {yhat}{scored}"
        + (f" · by {' · '.join(keys)}" if keys else "")
        + (f" · weight: {weight}" if weight else ""),
        header=header,
        eyebrow="clfeval · classification report",
        footer="Made with clfeval. Opens offline: the charting code is in this file. "
        "Every number comes from clfeval's functions, which give scikit-learn's.",
    )
    page = ReportPage(
        text, title=page_title, charts=len(cards), preview=preview_html(head, groups, keys)
    )
    if path is not None:
        page.save(path)
    return page


def _classes(frame: pl.DataFrame, y: str, labels: Sequence[Any] | None) -> list[Any]:
    if labels is not None:
        return list(labels)
    return frame.get_column(y).drop_nulls().unique(maintain_order=True).sort().to_list()


def _score_words(score: Any) -> str:
    if isinstance(score, str):
        return score
    if isinstance(score, dict):
        return ", ".join(f"{k}={v}" for k, v in score.items())
    return ", ".join(map(str, score))


def _leaves_out(card: Card) -> bool:
    panels = card.body if isinstance(card.body, list) else [("", card.body)]
    return card.chart and any(chart_notes(chart) for _, chart in panels)


def _label_cards(
    plot: PlotNamespace,
    rep: Report,
    y: str,
    yhat: str,
    labels: Sequence[Any] | None,
    kw: dict[str, Any],
    binary: bool,
    keys: Sequence[str],
) -> list[Card]:
    """The confusion matrix; more than two classes: the per-class metrics too."""
    matrix = plot.confusion_matrix(y, yhat, labels=labels, **kw)
    many = rep.table.filter(~pl.col("label").is_in(["accuracy", "micro avg", *AVERAGES])).height
    cards = [
        Card(
            "Confusion matrix",
            matrix,
            "Counts of yhat (columns) for each actual class (rows); the colour is the share of "
            "the row, so the mistakes of a rare class show as clearly as a common one's.",
            wide=bool(keys) or many > 8 * max(1, len(keys)),
        )
    ]
    if not binary:
        cards.append(
            Card(
                "Per-class precision, recall and F1",
                per_class(rep.table),
                "One row per class"
                + (
                    ", one colour per group"
                    if keys
                    else ", in the colours of the one-vs-rest charts"
                )
                + ": a class the model gets wrong stands out, however many there are.",
                wide=True,
            )
        )
    return cards


def _binary_cards(
    plot: PlotNamespace,
    y: str,
    score: str,
    pos_label: Any,
    start: float | None,
    rule: str | None,
    kw: dict[str, Any],
    keys: Sequence[str],
    decision: dict[str, Any],
) -> list[Card]:
    curve = {"pos_label": pos_label, **kw}
    costs = {k: v for k, v in decision.items() if k != "prevalence"}
    return [
        Card(
            "ROC curve",
            plot.roc(y, score, threshold=start, **curve),
            "True against false positive rate as the threshold falls; the nearer the top "
            "left, the better.",
        ),
        Card(
            "Precision-recall curve",
            plot.pr(y, score, threshold=start, **curve),
            "Precision at each recall: how many of the flagged rows are positive, as more of "
            "the positives are found.",
        ),
        Card(
            "Score distributions",
            plot.scores(y, score, threshold=start, pos_label=pos_label, **kw),
            "How the scores of each actual class spread: the less they overlap, the better the "
            "score separates the classes.",
            wide=bool(keys),
        ),
        Card(
            "Metrics by threshold",
            plot.thresholds(y, score, threshold=start, **decision, **curve),
            "Precision, recall and F1 at every threshold: each metric has its own dash, each "
            "group its colour."
            + (" Below, the expected cost per row, its minimum marked." if costs else "")
            + (
                f" At the target prevalence, {decision['prevalence']:.2%}."
                if decision["prevalence"] is not None
                else ""
            ),
            wide=True,
        ),
        Card(
            "Threshold explorer",
            plot.explorer(
                y, score, threshold=start, prevalence=decision["prevalence"], **costs, **curve
            ),
            "Drag the slider, or focus it and press the arrow keys: the operating points, the "
            "confusion matrices and the metrics follow, with the exact counts at each "
            f"threshold. It starts where {rule or 'score ≥ 0.5'}."
            + (" The panel adds the expected cost per row at the slider." if costs else ""),
            wide=True,
        ),
        Card(
            "Calibration",
            plot.calibration(y, score, **curve),
            "Mean predicted probability against the share of positives per bin; a calibrated "
            "model sits on the diagonal.",
        ),
        Card(
            "Cumulative gain",
            plot.gain(y, score, **curve),
            "The share of all positives found when acting on the highest scores first.",
        ),
    ]


def _class_cards(
    frame: pl.DataFrame,
    y: str,
    score: Any,
    labels: Sequence[Any] | None,
    groups: Sequence[Group],
    keys: Sequence[str],
    weight: str | None,
) -> list[Card]:
    """One-vs-rest ROC and PR curves and the calibration of each class; grouped data: one
    panel per group (the largest ``MAX_PANELS``), each class in its colour in every panel."""
    parts: list[tuple[str, pl.DataFrame]] = [("", frame)]
    notes: tuple[str, ...] = ()
    if keys:
        named = frame.with_columns(group_names(frame, keys).alias("__group"))
        largest = sorted(groups, key=lambda g: -g.rows)[:MAX_PANELS]
        chosen = [g.name for g in groups if g in largest]
        if len(groups) > MAX_PANELS:
            notes = (f"The {MAX_PANELS} largest of {len(groups):,} groups are drawn.",)
        parts = [(g, named.filter(pl.col("__group") == g).drop("__group")) for g in chosen]
    kw = {"labels": labels, "weight": weight}
    plots = [(name, PlotNamespace(part)) for name, part in parts]

    def body(method: str) -> Any:
        drawn = [(name, getattr(plot, method)(y, score, **kw)) for name, plot in plots]
        return drawn if keys else drawn[0][1]

    return [
        Card(
            "ROC, one class against the rest",
            body("roc"),
            "Each class against all the others, one colour per class; the nearer the top "
            "left, the better.",
            notes,
            wide=bool(keys),
        ),
        Card(
            "Precision-recall, one class against the rest",
            body("pr"),
            "Precision at each recall, each class against all the others.",
            notes,
            wide=bool(keys),
        ),
        Card(
            "Calibration of each class",
            body("calibration"),
            "The probability given to a class against how often the row is of that class; "
            "a calibrated model sits on the diagonal.",
            notes,
            wide=bool(keys),
        ),
    ]


def _compare_card(
    plot: PlotNamespace, y: str, yhat: str, score: Any, pos_label: Any, kw: dict[str, Any]
) -> Card:
    chosen = ["accuracy", "balanced_accuracy", "f1", "mcc"]
    if score is not None:
        chosen += ["auroc", "average_precision"]
    try:
        chart = plot.compare(y, yhat, score=score, metrics=chosen, pos_label=pos_label, **kw)
    except InputError:  # binary metrics need two classes: compare the multiclass ones
        chosen = ["accuracy", "balanced_accuracy", "mcc"]
        chart = plot.compare(y, yhat, metrics=chosen, **kw)
    return Card(
        "Metrics by group",
        chart,
        "One dot per group and metric, in the group's colour; the grey bar spans the groups.",
        wide=True,
    )


def _tables(rep: Report, keys: Sequence[str], digits: int) -> tuple[HTML, ...]:
    """The classification report as one table, then scikit-learn's text and every constant
    predictor, folded."""
    esc = html.escape
    blocks = [_report_table(rep, keys, digits)]
    text = esc(str(rep))
    blocks.append(
        HTML(
            '<details class="clf"><summary>scikit-learn\'s classification_report text'
            f'</summary><pre class="clf">{text}</pre></details>'
        )
    )
    if rep.baselines is not None:
        base = rep.baselines
        caption = "What each constant predictor scores"
        if keys:
            parts = base.partition_by(keys, maintain_order=True, include_key=False)
            if all(p.equals(parts[0]) for p in parts):
                base, caption = parts[0], caption + " (the same for every group)"
        blocks.append(
            HTML(
                '<details class="clf"><summary>Every constant predictor</summary>'
                f'<div class="clf-scroll">{frame_table(base, digits=digits + 2, caption=caption)}'
                "</div></details>"
            )
        )
    return tuple(blocks)


def _report_table(rep: Report, keys: Sequence[str], digits: int) -> HTML:
    """Per class precision, recall, F1 and support, then the summary rows; one header row
    per group."""
    esc = html.escape
    columns = ["precision", "recall", "f1", "support"]
    heads = "".join(
        f'<th scope="col" class="num">{c}</th>' for c in ["precision", "recall", "F1", "support"]
    )
    table = rep.table.with_columns(group_names(rep.table, keys))
    rows = []
    for (name,), part in table.partition_by("series", as_dict=True, maintain_order=True).items():
        if keys:
            rows.append(
                f'<tr class="clf-group"><th colspan="5" scope="rowgroup">{esc(str(name))}</th></tr>'
            )
        first = True
        for row in part.iter_rows(named=True):
            summary = row["label"] in ("accuracy", "micro avg", *AVERAGES)
            kind = ("clf-avg" + (" clf-first" if first else "")) if summary else ""
            first = first and not summary
            cells = "".join(
                f'<td class="num">{cell(row[c], digits) if row[c] is not None else ""}</td>'
                for c in columns
            )
            attr = f' class="{kind}"' if kind else ""
            rows.append(f"<tr{attr}><td>{esc(str(row['label']))}</td>{cells}</tr>")
    return HTML(
        '<div class="clf-card"><h3>Classification report</h3><p class="clf-how">Per class: '
        "precision, recall and F1 of that class against the rest, and its support (rows "
        "whose actual class it is); then the accuracy and the macro and weighted averages."
        f'</p><div class="clf-scroll"><table class="clf"><thead><tr><th scope="col">class</th>'
        f"{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table></div></div>"
    )


__all__ = ["Group", "ReportPage", "report_html"]
