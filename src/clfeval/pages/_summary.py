"""The top of the report page: what the data is, and the headline metrics each beside what a
constant predictor scores on the same rows (the seeds' rule: a score without a reference
point is not a result).

The constant predictor depends on the metric: a label metric is compared with always
predicting the majority class (scikit-learn's ``DummyClassifier(strategy="most_frequent")``,
:func:`clfeval.baseline`), a ranking metric (AUROC, average precision) with a constant score
(0.5 and the prevalence), a probability metric (log loss, Brier) with the class shares as
probabilities. Each is computed by clfeval's own functions on the same rows and weights.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from clfeval._baseline import baseline
from clfeval._decide import expected_cost
from clfeval._metric_table import metrics as metric_table
from clfeval.charts._base import CLASS_PALETTE, PALETTE, TITLES
from clfeval.pages._html import HTML, cell

LABEL = ("accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc")
SCORED = ("auroc", "average_precision", "log_loss", "brier")
LOWER_BETTER = {"log_loss", "brier"}
UNBOUNDED = {"log_loss"}
BASE_WORDS = {
    **dict.fromkeys(LABEL, "always predicting the majority class"),
    "auroc": "the same score for every row",
    "average_precision": "the same score for every row",
    "log_loss": "the class shares as probabilities",
    "brier": "the class shares as probabilities",
}
BASE_SHORT = {
    **dict.fromkeys(LABEL, "majority class"),
    "auroc": "constant score",
    "average_precision": "constant score",
    "log_loss": "class shares",
    "brier": "class shares",
}


@dataclass(frozen=True)
class Group:
    """One group of the page (the whole data when there is no ``by``)."""

    name: str  # the group keys as one text, "all" without by
    rows: float  # rows, or total weight
    classes: list[tuple[str, float]]  # class (as text) and its support, in class order


@dataclass(frozen=True)
class Headline:
    """The headline metrics (columns ``metrics``) and their constant predictor's, per group."""

    metrics: list[str]
    values: dict[str, dict[str, float | None]]  # group -> metric -> value
    baselines: dict[str, dict[str, float | None]]
    average: str  # of the label metrics
    scored_average: str = "binary"  # of the score metrics: "macro" for per-class scores

    def title(self, name: str) -> str:
        base = TITLES.get(name, name)
        if self.average != "binary" and name in ("precision", "recall", "f1"):
            return f"{base} ({self.average})"
        if self.scored_average != "binary" and name in ("auroc", "average_precision"):
            return f"{base} (one-vs-rest, {self.scored_average})"
        return base


def group_names(frame: pl.DataFrame, keys: Sequence[str]) -> pl.Series:
    """The groups' names as charts show them: key values joined by " · ", null as "null"."""
    if not keys:
        return pl.Series("series", ["all"] * frame.height)
    parts = [pl.col(k).cast(pl.String).fill_null("null") for k in keys]
    return frame.select(pl.concat_str(parts, separator=" · ").alias("series")).to_series()


def groups_of(table: pl.DataFrame, keys: Sequence[str]) -> list[Group]:
    """Each group's rows and class supports, from a report table (classes, then summaries)."""
    named = table.with_columns(group_names(table, keys))
    out = []
    for (name,), part in named.partition_by("series", as_dict=True, maintain_order=True).items():
        summary = part.filter(pl.col("label").is_in(["accuracy", "micro avg"]))
        classes = part.filter(~pl.col("label").is_in(["accuracy", "micro avg", *AVERAGES]))
        total = summary["support"].item() if summary.height else classes["support"].sum()
        out.append(
            Group(
                str(name),
                float(total),
                [(str(c), float(s)) for c, s in classes.select("label", "support").rows()],
            )
        )
    return out


AVERAGES = ("macro avg", "weighted avg")


def headline(
    frame: pl.DataFrame,
    y: str,
    yhat: str,
    *,
    score: Any,
    binary_score: bool,
    classes: Sequence[Any],
    pos_label: Any,
    labels: Sequence[Any] | None,
    by: Sequence[str],
    weight: str | None,
) -> Headline:
    """The headline metrics of ``yhat`` (and of ``score`` when given) and the constant
    predictors' values of the same metrics, per group."""
    # binary metrics of pos_label when it is a class of two, else macro averages
    binary = len(classes) <= 2 and (labels is None or len(labels) <= 2) and pos_label in classes
    average = "binary" if binary else "macro"
    names = list(LABEL)
    kw: dict[str, Any] = {"labels": labels, "by": list(by) or None, "weight": weight}
    if binary:
        kw["pos_label"] = pos_label
    values = metric_table(frame, y, yhat, metrics=names, average=average, **kw)
    base = baseline(frame, y, metrics=names, average=average, **kw)
    base = base.filter(pl.col("strategy") == "most_frequent").drop("strategy")
    out_values, out_base = _by_group(values, by), _by_group(base, by)
    over = average
    if score is not None:  # per-class scores: one class against the rest, macro averages
        scored, over = list(SCORED), (average if binary_score else "macro")
        got = metric_table(frame, y, None, score=score, metrics=scored, average=over, **kw)
        constant = _constant_scores(frame, y, score, classes, binary_score, pos_label, by, weight)
        against = metric_table(
            constant.frame, y, None, score=constant.score, metrics=scored, average=over, **kw
        )
        for target, source in (
            (out_values, _by_group(got, by)),
            (out_base, _by_group(against, by)),
        ):
            for group, row in source.items():
                target.setdefault(group, {}).update(row)
        names += scored
    return Headline(names, out_values, out_base, average, over)


def _by_group(frame: pl.DataFrame, by: Sequence[str]) -> dict[str, dict[str, float | None]]:
    named = frame.with_columns(group_names(frame, by))
    columns = [c for c in frame.columns if c not in by]
    return {row["series"]: {c: row[c] for c in columns} for row in named.iter_rows(named=True)}


@dataclass(frozen=True)
class _Constant:
    frame: pl.DataFrame
    score: Any


def _constant_scores(
    frame: pl.DataFrame,
    y: str,
    score: Any,
    classes: Sequence[Any],
    binary_score: bool,
    pos_label: Any,
    by: Sequence[str],
    weight: str | None,
) -> _Constant:
    """The data with a constant predictor's scores: each class's share in its group, so the
    ranking is constant (every row ties) and the probabilities are the priors."""

    def share(value: Any) -> pl.Expr:
        is_it = (pl.col(y) == pl.lit(value)).cast(pl.Float64)
        if weight is None:
            hit, total = is_it.sum(), pl.len().cast(pl.Float64)
        else:
            w = pl.col(weight).cast(pl.Float64)
            hit, total = (w * is_it).sum(), w.sum()
        return (hit.over(by) / total.over(by)) if by else hit / total

    taken = set(frame.columns)
    prefix = "constant_predictor"
    while any(c.startswith(prefix) for c in taken):
        prefix += "_"
    if binary_score:
        name = f"{prefix}_p"
        return _Constant(frame.with_columns(share(pos_label).alias(name)), name)
    columns = {c: f"{prefix}_{i}" for i, c in enumerate(classes)}
    shares = [share(c).alias(n) for c, n in columns.items()]
    return _Constant(frame.with_columns(shares), columns)


# --- markup ---------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 3) -> str:
    if value is None or not math.isfinite(value):
        return "undefined"
    return f"{value:.{digits}f}"


def _delta(name: str, value: float | None, base: float | None) -> tuple[str, str]:
    """The difference with the constant predictor's, and whether it is better."""
    if value is None or base is None or not (math.isfinite(value) and math.isfinite(base)):
        return "", "flat"
    diff = value - base
    better = -diff if name in LOWER_BETTER else diff
    kind = "up" if better > 5e-4 else "down" if better < -5e-4 else "flat"
    return f"{diff:+.3f}", kind


def facts_html(
    groups: Sequence[Group],
    *,
    keys: Sequence[str],
    weighted: bool,
    pos_label: Any,
    binary: bool,
    excluded: int | None,
    rule: str | None,
    decision: Sequence[str] = (),
) -> HTML:
    """The chips (rows, groups, classes, prevalence, rows left out, the rule of ``yhat``,
    the target prevalence and costs: ``decision``, as text) and the class balance bar of
    each group."""
    esc = html.escape
    unit = "total weight" if weighted else "rows"
    total = sum(g.rows for g in groups)
    classes = list(dict.fromkeys(c for g in groups for c, _ in g.classes))
    chips = [f"<li><b>{cell(_whole(total))}</b> {unit}</li>"]
    if keys:
        chips.append(f"<li><b>{len(groups):,}</b> groups of {esc(' · '.join(keys))}</li>")
    chips.append(f"<li><b>{len(classes):,}</b> classes</li>")
    if binary and str(pos_label) in classes:
        pos = sum(s for g in groups for c, s in g.classes if c == str(pos_label))
        share = pos / total if total else float("nan")
        chips.append(f"<li>positive class <b>{esc(str(pos_label))}</b>: <b>{share:.1%}</b></li>")
    if excluded:
        chips.append(f"<li><b>{excluded:,}</b> rows left out (missing or non-finite)</li>")
    if rule:
        chips.append(f"<li>{esc(rule)}</li>")
    chips.extend(f"<li>{esc(words)}</li>" for words in decision)
    bars = [_balance_row(g, classes, keys) for g in groups[:20]]
    shown = classes[:12]
    legend = "".join(
        f'<span><i style="background:{_class_colour(classes.index(c), len(classes))}"></i>{esc(c)}</span>'
        for c in shown
    ) + (f"<span>… {len(classes) - 12:,} more</span>" if len(classes) > 12 else "")
    more = (
        f'<p class="clf-note">The 20 largest of {len(groups):,} groups are drawn.</p>'
        if len(groups) > 20
        else ""
    )
    return HTML(
        f'<ul class="clf-chips">{"".join(chips)}</ul>'
        f'<div class="clf-balance" aria-label="class balance">{"".join(bars)}'
        f'<div class="clf-keys">{legend}</div>{more}</div>'
    )


def _whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _class_colour(i: int, n: int) -> str:
    """Classes in the balance bar: two in grey-blue shades, more in the colours the charts
    give the classes (never a group's)."""
    if n > 2:
        return CLASS_PALETTE[i % len(CLASS_PALETTE)]
    return ("#5b6b7d", "#a9b6c4")[i % 2]


def _balance_row(group: Group, classes: Sequence[str], keys: Sequence[str]) -> str:
    esc = html.escape
    total = sum(s for _, s in group.classes) or 1.0
    parts = "".join(
        f'<i style="width:{100 * s / total:.3f}%;background:{_class_colour(classes.index(c), len(classes))}" '
        f'title="{esc(c)}: {s / total:.1%}"></i>'
        for c, s in group.classes
    )
    shares = ", ".join(f"{c} {s / total:.1%}" for c, s in group.classes[:4])
    name = group.name if keys else "class balance"
    return (
        f'<div class="clf-balance-row"><span title="{esc(name)}">{esc(name)}</span>'
        f'<div class="clf-bar" role="img" aria-label="{esc(shares)}">{parts}</div></div>'
    )


def kpis_html(head: Headline, groups: Sequence[Group]) -> HTML:
    """Ungrouped: one card per metric, its value, the constant predictor's and the gap, and
    a track from the worst to the best value with the constant predictor's as a tick."""
    esc = html.escape
    group = groups[0].name
    cards = []
    for name in head.metrics:
        value = head.values.get(group, {}).get(name)
        base = head.baselines.get(group, {}).get(name)
        delta, kind = _delta(name, value, base)
        track = ""
        if name not in UNBOUNDED and value is not None and math.isfinite(value):
            low = -1.0 if name == "mcc" else 0.0
            tick = (
                f'<b style="left:{_position(base, low):.1f}%"></b>'
                if base is not None and math.isfinite(base)
                else ""
            )
            width = _position(value, low)
            track = f'<div class="clf-track"><i style="width:{width:.1f}%"></i>{tick}</div>'
        lower = ' <span title="lower is better">↓</span>' if name in LOWER_BETTER else ""
        words = esc(BASE_WORDS.get(name, ""))
        cards.append(
            f'<div class="clf-kpi"><h3>{esc(head.title(name))}{lower}</h3>'
            f'<div class="v">{_fmt(value)}</div>'
            f'<div class="b" title="the constant predictor: {words}">'
            f"{esc(BASE_SHORT.get(name, 'constant'))} {_fmt(base)} "
            f'<span class="d {kind}">{delta}</span></div>{track}</div>'
        )
    note = (
        "Beside each metric, what a constant predictor scores on the same rows: "
        + "; ".join(f"{s}: {BASE_WORDS[m]}" for m, s in _firsts(head.metrics))
        + ". ↓: lower is better."
    )
    return HTML(f'<div class="clf-kpis">{"".join(cards)}</div><p class="clf-how">{esc(note)}</p>')


def _firsts(names: Sequence[str]) -> list[tuple[str, str]]:
    """(metric, short words) for the first metric of each kind of constant predictor."""
    seen: dict[str, str] = {}
    for m in names:
        seen.setdefault(BASE_SHORT[m], m)
    return [(m, s) for s, m in seen.items()]


def _position(value: float, low: float) -> float:
    """Where ``value`` sits on a track from ``low`` to 1, in percent."""
    return max(0.0, min(100.0, 100 * (value - low) / (1 - low)))


def comparison_html(head: Headline, groups: Sequence[Group], keys: Sequence[str]) -> HTML:
    """Grouped: metrics in rows, groups in columns, the best group in bold, the constant
    predictor in its own column when it is the same for every group, else beside each value."""
    esc = html.escape
    names = [g.name for g in groups]
    same = all(
        _same_values([head.baselines.get(g, {}).get(m) for g in names]) for m in head.metrics
    )
    swatch = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(names)}
    heads = "".join(
        f'<th scope="col" class="num"><i style="display:inline-block;width:.6rem;height:.6rem;'
        f'border-radius:50%;background:{swatch[g]};margin-right:.35rem"></i>{esc(g)}</th>'
        for g in names
    )
    if same:
        heads += '<th scope="col" class="num">constant predictor</th>'
    rows = []
    for m in head.metrics:
        values = [head.values.get(g, {}).get(m) for g in names]
        finite = [v for v in values if v is not None and math.isfinite(v)]
        best = (min(finite) if m in LOWER_BETTER else max(finite)) if len(finite) > 1 else None
        cells = []
        for g, v in zip(names, values):
            base = head.baselines.get(g, {}).get(m)
            extra = "" if same else f'<span class="base">vs {_fmt(base)}</span>'
            bold = ' best"' if best is not None and v == best else '"'
            cells.append(f'<td class="num{bold}>{_fmt(v)}{extra}</td>')
        if same:
            cells.append(
                f'<td class="num base">{_fmt(head.baselines.get(names[0], {}).get(m))}</td>'
            )
        label = esc(head.title(m)) + (" ↓" if m in LOWER_BETTER else "")
        rows.append(f'<tr><th scope="row">{label}</th>{"".join(cells)}</tr>')
    what = esc(" · ".join(keys))
    note = (
        "Bold: the best group. ↓: lower is better. The constant predictor: "
        + "; ".join(f"{s}: {BASE_WORDS[m]}" for m, s in _firsts(head.metrics))
        + "."
    )
    return HTML(
        f'<div class="clf-scroll"><table class="clf"><caption>Headline metrics by {what}'
        f'</caption><thead><tr><th scope="col">metric</th>{heads}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></div><p class="clf-how">{esc(note)}</p>'
    )


def _same_values(values: Sequence[float | None]) -> bool:
    first = values[0] if values else None
    return all(
        (v is None and first is None)
        or (v is not None and first is not None and math.isclose(v, first, abs_tol=1e-12))
        for v in values
    )


def preview_html(head: Headline, groups: Sequence[Group], keys: Sequence[str]) -> str:
    """A small table for a notebook (no style sheet there): metric, value per group and the
    constant predictor's, inline styles only."""
    esc = html.escape
    names = [g.name for g in groups][:6]
    th = 'style="text-align:right;padding:2px 10px"'
    heads = "".join(f"<th {th}>{esc(n if keys else 'value')}</th>" for n in names)
    rows = []
    for m in head.metrics:
        vals = "".join(f"<td {th}>{_fmt(head.values.get(n, {}).get(m))}</td>" for n in names)
        base = _fmt(head.baselines.get(names[0], {}).get(m)) if names else ""
        rows.append(
            f'<tr><td style="padding:2px 10px">{esc(head.title(m))}</td>{vals}'
            f'<td {th}><span style="opacity:.7">{base}</span></td></tr>'
        )
    return (
        '<table style="border-collapse:collapse;font-variant-numeric:tabular-nums">'
        f'<thead><tr><th style="text-align:left;padding:2px 10px">metric</th>{heads}'
        f"<th {th}>constant</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def mapping_of(score: Any, labels: Sequence[Any] | None) -> Mapping[Any, str] | None:
    """Per-class score columns as ``{class: column}`` (a list with ``labels``), else None."""
    if isinstance(score, Mapping):
        return dict(score)
    if isinstance(score, list | tuple) and labels is not None:
        return dict(zip(labels, score, strict=False))
    return None


def cost_options(costs: tuple[float, float, float, float] | None) -> dict[str, Any]:
    if costs is None:
        return {}
    return dict(zip(("cost_fp", "cost_fn", "benefit_tp", "benefit_tn"), costs, strict=True))


def decision_chips(
    frame: pl.DataFrame,
    y: str,
    yhat: str,
    pos_label: Any,
    weight: str | None,
    target: float | None,
    costs: tuple[float, float, float, float] | None,
) -> list[str]:
    """The header's words for the target prevalence and the costs (escaped by the caller)."""
    chips = []
    if target is not None:
        chips.append(f"target prevalence {target:.2%}")
    if costs is not None:
        named = zip(("FP", "FN", "TP benefit", "TN benefit"), costs, strict=True)
        given = ", ".join(f"{k} {v:g}" for k, v in named if v or k in ("FP", "FN"))
        table = expected_cost(
            frame, y, yhat, **cost_options(costs), pos_label=pos_label, prevalence=target,
            weight=weight,
        )  # fmt: skip
        value = table.get_column("expected_cost").item()  # type: ignore[union-attr]
        shown = f"{value:,.4g}" if value is not None else "undefined"
        chips.append(f"expected cost of {yhat}: {shown} per row (costs {given})")
    return chips


def yhat_rule(
    frame: pl.DataFrame,
    y: str,
    yhat: str,
    score: str,
    pos_label: Any,
    keys: Sequence[str],
    threshold: float | None,
    rows: str | None = None,
) -> tuple[str, float]:
    """Which rule ``score >= t`` gives ``yhat``, in words, and the threshold to start from:
    ``threshold`` when given; else 0.5 when ``yhat`` follows it; else the roundest ``t``
    that ``yhat`` follows in every group; else 0.5. ``rows``: a column of row counts, when
    each row of ``frame`` stands for several."""
    positive = pl.col(yhat) == pl.lit(pos_label)
    s = pl.col(score).cast(pl.Float64)
    aggs = [s.filter(positive).min().alias("lo"), s.filter(~positive).max().alias("hi")]
    bounds = frame.group_by(keys).agg(aggs) if keys else frame.select(aggs)
    lows = [v for v in bounds["lo"].to_list() if v is not None]
    highs = [v for v in bounds["hi"].to_list() if v is not None]
    top, bottom = (min(lows) if lows else math.inf), (max(highs) if highs else -math.inf)
    follows = bottom < top  # every group: yhat = score >= t for t in (bottom, top]
    t = threshold
    if t is None:
        t = 0.5 if not follows or bottom < 0.5 <= top else roundest(bottom, top)
    if follows and bottom < t <= top:
        return f"yhat is score ≥ {t:g} on every row", t
    n = pl.lit(1) if rows is None else pl.col(rows)
    differ = frame.select(n.filter((s >= t) != positive).sum()).item()
    return (f"yhat differs from score ≥ {t:g} on {differ:,} rows", t)


def roundest(low: float, high: float) -> float:
    """The number with the fewest decimals in ``(low, high]``."""
    if not math.isfinite(low):
        return high
    if not math.isfinite(high):
        return math.floor(low) + 1.0
    for digits in range(13):
        t = math.floor(low * 10**digits + 1) / 10**digits
        if low < t <= high:
            return round(t, digits)
    return high
