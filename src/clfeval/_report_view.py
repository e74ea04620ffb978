"""The ``Report`` that :func:`clfeval.report` returns, and how it shows: scikit-learn's
text (with intervals, score metrics, baselines and folds when present), a dict and HTML."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

import polars as pl

__all__ = ["AVG_ROWS", "REPORT_COLUMNS", "Report", "html_table"]

# --- Report ---------------------------------------------------------------------------------

AVG_ROWS = ("macro avg", "weighted avg")
REPORT_COLUMNS = ("label", "precision", "recall", "f1", "support")


@dataclass
class Report:
    """A classification report: per-class precision, recall, F1 and support, then averages.

    ``str(report)`` is scikit-learn's ``classification_report`` text for the same inputs and
    ``digits``; ``table`` is the same content as a DataFrame (``label, precision, recall, f1,
    support``, group columns first); ``extras`` holds score metrics and baselines when a score
    was given.
    """

    table: pl.DataFrame
    by: list[str]
    digits: int
    weighted: bool
    extras: pl.DataFrame | None = None
    baselines: pl.DataFrame | None = None
    n_excluded: int | pl.DataFrame | None = None
    title: str = "Classification report"
    # the measured and target prevalence (prevalence=); the cross-validated metrics (fold=)
    context: pl.DataFrame | None = None
    folds: pl.DataFrame | None = None
    # scikit-learn prints supports as floats when weighted, and (a quirk of its bincount) when
    # no row of the group is predicted correctly; group key -> float formatting
    float_support: dict[tuple[Any, ...], bool] = field(default_factory=dict)
    # with ci: the level, replicates and seed of the percentile intervals in the table
    ci: float | None = None
    n_boot: int | None = None
    seed: int | None = None

    def _blocks(self) -> list[tuple[tuple[Any, ...], pl.DataFrame]]:
        if not self.by:
            return [((), self.table)]
        parts = self.table.partition_by(self.by, maintain_order=True, as_dict=True)
        return list(parts.items())

    def _text(self, table: pl.DataFrame, key: tuple[Any, ...] = ()) -> str:
        """scikit-learn's layout, character for character (with ``ci``: intervals added)."""
        if self.ci is not None:
            return self._ci_text(table, key)
        digits = self.digits
        rows = table.select("label", "precision", "recall", "f1", "support").rows()
        class_rows, tail = rows[:-3], rows[-3:]  # per class, then micro, macro, weighted
        width = max(max((len(r[0]) for r in class_rows), default=0), len("weighted avg"), digits)
        head = "{:>{width}s} " + " {:>9}" * 4
        out = head.format("", "precision", "recall", "f1-score", "support", width=width) + "\n\n"
        fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"

        def num(v: Any) -> float:
            return math.nan if v is None else v

        as_float = self.weighted or self.float_support.get(key, False)

        def sup(v: Any) -> Any:
            return float(v) if as_float else v

        for name, p, r, f, s in class_rows:
            out += fmt.format(name, num(p), num(r), num(f), sup(s), width=width, digits=digits)
        out += "\n"
        for name, p, r, f, s in tail:
            if name == "accuracy":
                acc = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
                out += acc.format(name, "", "", num(f), sup(s), width=width, digits=digits)
            else:
                out += fmt.format(name, num(p), num(r), num(f), sup(s), width=width, digits=digits)
        return out

    def _ci_text(self, table: pl.DataFrame, key: tuple[Any, ...]) -> str:
        """scikit-learn's layout with each score followed by its interval: 0.84 [0.81, 0.87]."""
        d = self.digits
        as_float = self.weighted or self.float_support.get(key, False)
        measures = ("precision", "recall", "f1")
        rows = []
        last = table.height - 3  # the accuracy (or micro avg), macro and weighted rows
        for i, row in enumerate(table.iter_rows(named=True)):
            cells = [_interval(row, m, d) for m in measures]
            if i == last and row["label"] == "accuracy":  # scikit-learn leaves these blank
                cells[:2] = ["", ""]
            support = float(row["support"]) if as_float else row["support"]
            rows.append((row["label"], cells, str(support)))
        width = max(max(len(r[0]) for r in rows), len("weighted avg"), d)
        cw = max(9, *(len(c) for r in rows for c in r[1]))
        head = (
            f"{'':>{width}s} "
            + "".join(f" {h:>{cw}}" for h in ("precision", "recall", "f1-score"))
            + f" {'support':>9}"
        )
        lines = [head, ""]
        for i, (name, cells, support) in enumerate(rows):
            if i == len(rows) - 3:
                lines.append("")
            lines.append(
                f"{name:>{width}s} " + "".join(f" {c:>{cw}}" for c in cells) + f" {support:>9}"
            )
        pct = f"{100 * self.ci:g}%"
        lines += [
            "",
            f"[{pct} percentile bootstrap intervals: {self.n_boot} Poisson replicates of "
            f"the counts, seed {self.seed}]",
        ]
        return "\n".join(lines) + "\n"

    def _extra_text(self, key: tuple[Any, ...]) -> str:
        lines: list[str] = []
        width = len("average_precision")
        parts = [(self.context, "score"), (self.extras, "score"), (self.baselines, "baseline")]
        for frame, kind in [*parts, (self.folds, "folds")]:
            if frame is None:
                continue
            part = frame
            for col_name, value in zip(self.by, key):
                part = part.filter(pl.col(col_name).eq_missing(value))
            part = part.drop(self.by)
            if kind == "score":
                row = part.row(0, named=True)
                for name, value in row.items():
                    if self.ci is not None and name.endswith(("_lo", "_hi", "_n_undefined")):
                        continue
                    shown = _fmt(value, self.digits + 2)
                    if self.ci is not None:
                        shown = _interval(row, name, self.digits + 2)
                    lines.append(f"{name:>{width}s} {shown:>9s}")
            elif kind == "folds":
                lines += _folds_text(part, self.digits + 2)
            else:
                header = ["strategy", *[c for c in part.columns if c != "strategy"]]
                widths = [max(len(h), 13 if h == "strategy" else 8) for h in header]
                lines += ["", "baselines (constant predictors)"]
                lines.append("  ".join(f"{h:>{w}s}" for h, w in zip(header, widths)))
                for row in part.select(header).rows():
                    cells = [row[0], *(_fmt(v, self.digits + 2) for v in row[1:])]
                    lines.append("  ".join(f"{c:>{w}s}" for c, w in zip(cells, widths)))
        return ("\n" + "\n".join(lines) + "\n") if lines else ""

    def __str__(self) -> str:
        blocks = []
        for key, table in self._blocks():
            text = self._text(table.drop(self.by), key) + self._extra_text(key)
            if self.by:
                head = ", ".join(f"{c}={_show(v)}" for c, v in zip(self.by, key))
                text = f"{head}\n{text}"
            blocks.append(text)
        return "\n".join(blocks)

    def __repr__(self) -> str:
        return str(self)

    def to_dict(self) -> dict[Any, Any]:
        """scikit-learn's ``output_dict`` form; with ``by``, one such dict per group key."""
        result: dict[Any, Any] = {}
        for key, table in self._blocks():
            d: dict[str, Any] = {}
            for name, p, r, f, s in table.select(
                "label", "precision", "recall", "f1", "support"
            ).rows():
                if name == "accuracy":
                    d[name] = f
                else:
                    d[name] = {"precision": p, "recall": r, "f1-score": f, "support": s}
            if not self.by:
                return d
            result[key[0] if len(key) == 1 else key] = d
        return result

    def to_html(self, path: str | None = None) -> str:
        """A standalone HTML page of this report (text and tables); written to ``path``.

        For the page with charts, see :func:`clfeval.report_html`.
        """
        from clfeval.pages._html import HTML, render_html

        page = render_html(
            self.title, [(self.title, str(self)), ("Table", HTML(self._repr_html_()))]
        )
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page

    def _repr_html_(self) -> str:
        parts = [f"<h3>{html.escape(self.title)}</h3>"]
        for key, table in self._blocks():
            if self.by:
                head = ", ".join(f"{c}={_show(v)}" for c, v in zip(self.by, key))
                parts.append(f"<h4>{html.escape(head)}</h4>")
            parts.append(html_table(_merged(table.drop(self.by), self.digits), self.digits))
        if self.ci is not None:
            parts.append(
                f"<p>{100 * self.ci:g}% percentile bootstrap intervals: {self.n_boot} Poisson "
                f"replicates of the counts, seed {self.seed}.</p>"
            )
        for frame, heading in (
            (self.context, "Prevalence (measured and target)"),
            (
                self.extras if self.extras is None else _merged(self.extras, self.digits + 2),
                "Score metrics",
            ),
            (self.baselines, "Baselines (constant predictors)"),
            (self.folds, "Cross-validation (pooled over rows; mean and sd over folds)"),
        ):
            if frame is not None:
                parts.append(f"<h4>{heading}</h4>")
                parts.append(html_table(frame, self.digits + 2))
        return "\n".join(parts)


def _folds_text(part: pl.DataFrame, digits: int) -> list[str]:
    """The cross-validation block: one line per metric, pooled then mean and sd over folds."""
    k = part["n_folds"].max()
    lines = ["", f"cross-validation ({k} folds): pooled over all rows; mean, sd over folds"]
    header = ["metric", "pooled", "mean", "sd", "n_folds"]
    widths = [max(17, *(len(m) for m in part["metric"])), 9, 9, 9, 8]
    lines.append("  ".join(f"{h:>{w}s}" for h, w in zip(header, widths)))
    for metric, *values, n in part.select(header).rows():
        cells = [metric, *(_fmt(v, digits) for v in values), str(n)]
        lines.append("  ".join(f"{c:>{w}s}" for c, w in zip(cells, widths)))
    return lines


def _show(value: Any) -> str:
    return "<null>" if value is None else str(value)


def _interval(row: dict[str, Any], name: str, digits: int) -> str:
    """``0.84 [0.81, 0.87]``; the value alone where it has no interval (the accuracy row)."""
    value = row[name]
    if value is None:
        return "nan" if name in ("precision", "recall", "f1") else "null"
    lo, hi = row.get(f"{name}_lo"), row.get(f"{name}_hi")
    if lo is None or hi is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _merged(frame: pl.DataFrame, digits: int) -> pl.DataFrame:
    """A frame whose ``<m>_lo``/``<m>_hi`` columns are folded into ``<m>`` as text."""
    names = [c for c in frame.columns if f"{c}_lo" in frame.columns]
    if not names:
        return frame
    rows = frame.to_dicts()
    cells = {
        n: [_interval(r, n, digits) if r[n] is not None else None for r in rows] for n in names
    }
    drop = [f"{n}{suffix}" for n in names for suffix in ("_lo", "_hi", "_n_undefined")]
    out = frame.with_columns(pl.Series(n, v, dtype=pl.String) for n, v in cells.items())
    return out.drop([c for c in drop if c in out.columns])


def _fmt(value: Any, digits: int) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def html_table(frame: pl.DataFrame, digits: int) -> str:
    """An escaped HTML table of a small frame (numbers rounded to ``digits``)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for row in frame.rows():
        cells = "".join(
            f"<td>{html.escape(_fmt(v, digits) if v is not None else '')}</td>" for v in row
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<table class="clfeval"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
