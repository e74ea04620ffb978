"""The metric registry and the front door built on it: ``metrics``, ``report``, ``baseline``.

Label metrics are computed from the small ``(by, y, yhat, n)`` frame of the count layer: every
expression of :mod:`clfeval._label` evaluated with ``weight=n`` on it gives the same number as on
the raw rows (integer weights are repeated rows), so the data is grouped once.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

from clfeval import _label, _metrics, _options
from clfeval._counts import (
    COUNTS_COLUMNS,
    N,
    counts_from_pairs,
    label_text,
    ovr_from_counts,
    pairs_of,
)
from clfeval._frames import as_polars
from clfeval._models import Models, comparable
from clfeval._validate import (
    NOT_GIVEN,
    Frame,
    Prepared,
    check_labels_present,
    check_options,
    check_pos_label,
    check_proba_sums,
    check_score_classes,
    expand_list_scores,
    prepare,
)
from clfeval.exceptions import InputError

LABEL_DEFAULT = _metrics.default_set("label")
SCORE_DEFAULT = _metrics.default_set("score", "proba")
RANKED = ("auroc", "average_precision")  # binary: computed from the threshold counts
AVERAGED = _metrics.names(averaged=True)


def _label_metric(name: str, y: str, yhat: str, opts: dict[str, Any]) -> pl.Expr:
    """One label metric as an expression over raw rows (used where no counts frame fits)."""
    weight = opts["weight"]
    if name == "accuracy":
        return _label.accuracy(y, yhat, weight=weight)
    if name == "balanced_accuracy":
        return _label.balanced_accuracy(y, yhat, weight=weight)
    if name == "mcc":
        return _label.mcc(y, yhat, weight=weight)
    if name == "cohen_kappa":
        return _label.cohen_kappa(
            y, yhat, weights=opts.get("kappa_weights"), labels=opts["labels"], weight=weight
        )
    kw = {k: opts[k] for k in ("average", "pos_label", "labels", "zero_division")}
    if name == "fbeta":
        return _label.fbeta(y, yhat, beta=opts["beta"], weight=weight, **kw)
    return getattr(_label, name)(y, yhat, weight=weight, **kw)


def _ratio(name: str, beta: float) -> _label.Ratio:
    if name == "fbeta":
        return _label.fbeta_ratio(beta)
    if name == "f1":
        return _label.fbeta_ratio(1.0)
    return _label.RATIOS[name]


def _from_counts(name: str, opts: dict[str, Any]) -> pl.Expr | None:
    """A label metric as an aggregation over a counts frame's rows (one group's classes).

    ``None`` for a metric that needs more than one-vs-rest counts (weighted kappa, labels).
    """
    every = ovr_from_counts()
    if name == "accuracy":
        return _label.divide(every.tp.sum(), every.total.first(), None)
    if name == "balanced_accuracy":
        return _label.balanced_from(every, adjusted=False)
    if name == "mcc":
        return _label.mcc_from(every)
    if name in AVERAGED:
        ratio, average, z = _ratio(name, opts["beta"]), opts["average"], opts["zero_division"]
        if average == "binary":
            return ratio(ovr_from_counts(opts["pos_label"], binary=True), z)
        return _label.average_ratio(ratio, every, average, z)
    return None


LABEL_METRICS = (
    *LABEL_DEFAULT,
    *(n for n in _metrics.names(family="label", in_metrics=True) if n not in LABEL_DEFAULT),
)


def _score_metric(name: str, y: str, score: Any, opts: dict[str, Any]) -> pl.Expr:
    from clfeval import _prob, _score

    weight, pos_label = opts["weight"], opts["pos_label"]
    per_class = {} if isinstance(score, str) else {"average": opts.get("score_average", "macro")}
    if name == "auroc":
        if per_class:
            per_class["multi_class"] = opts.get("multi_class", "ovr")
        return _score.auroc(
            y, score, pos_label=pos_label, weight=weight, labels=opts["labels"], **per_class
        )
    if name == "average_precision":
        return _score.average_precision(
            y, score, pos_label=pos_label, weight=weight, labels=opts["labels"], **per_class
        )
    if name == "log_loss":
        return _prob.log_loss(y, score, pos_label=pos_label, weight=weight, labels=opts["labels"])
    if name == "brier":
        return _prob.brier(y, score, pos_label=pos_label, weight=weight, labels=opts["labels"])
    raise AssertionError(name)


def _group_eval(frame: pl.LazyFrame, by: list[str], exprs: list[pl.Expr]) -> pl.LazyFrame:
    if not by:
        return frame.select(exprs)
    return frame.group_by(by).agg(exprs)


def _join_by(left: pl.LazyFrame, right: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    if not by:
        return pl.concat([left, right], how="horizontal")
    return left.join(right, on=by, how="left", nulls_equal=True)


def _check_binary(
    prep: Prepared, y: str, average: Any, pos_label: Any, labels: Sequence[Any] | None
) -> None:
    if prep.classes is not None:
        dtype = prep.frame.collect_schema()[y]
        check_labels_present(prep.classes, labels, y)
        check_pos_label(prep.classes, pos_label, average=average, labels=labels, y=y, dtype=dtype)


@comparable("yhat", "score")
def metrics(
    data: Frame,
    y: str,
    yhat: str | None = None,
    *,
    score: Any = None,
    metrics: Sequence[str] | None = None,
    average: _label.Average = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: _label.ZeroDivision = 0.0,
    beta: float = 1.0,
    multi_class: Literal["ovr", "ovo"] = "ovr",
    kappa_weights: Literal["linear", "quadratic"] | None = None,
    models: Models = None,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Frame:
    """One row per group, one column per metric (with ``average=None``: one row per class).

    Default metrics: accuracy, balanced_accuracy, precision, recall, f1, mcc from ``yhat``; plus
    auroc, average_precision, log_loss, brier when ``score`` is given. Label metrics are computed
    from one group-by on ``(by, y, yhat)``. With ``missing="drop"`` an ``n_excluded`` column
    follows the group columns.

    Options as the expressions': ``beta`` (fbeta), ``kappa_weights`` (cohen_kappa's
    ``weights``: None, ``"linear"``, ``"quadratic"``), and for per-class scores
    ``multi_class`` (``"ovr"``, ``"ovo"``) with ``average`` for AUROC and average precision
    (macro, as scikit-learn, when ``average="binary"``).

    ``models=`` (instead of ``yhat``/``score``) compares the prediction columns of a
    wide frame: a list, ``{name: column}``, or ``{name: {"yhat": ..., "score": ...}}``;
    one row per model, with a ``model`` column first.

    See Also
    --------
    clf_metrics : the SQL twin.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> metrics(df, "y", "yhat", metrics=["accuracy", "recall"]).row(0)
    (0.75, 0.6666666666666666)
    """
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(average=average, labels=labels, zero_division=zero_division)
    beta = _options.beta(beta)
    _options.choice(
        "multi_class",
        multi_class,
        ("ovr", "ovo"),
        "'ovr' is one-vs-rest, 'ovo' is Hand & Till's one-vs-one",
    )
    _options.choice(
        "kappa_weights",
        kappa_weights,
        (None, "linear", "quadratic"),
        "cohen_kappa's weights: how far apart two classes are in the class order",
    )
    if yhat is None and score is None:
        raise InputError(
            "metrics needs yhat= or score=",
            role="yhat",
            rule="missing_argument",
            hint="pass the predicted-class column, the score column, or both",
        )
    known = (*LABEL_METRICS, *SCORE_DEFAULT) if average is not None else (*AVERAGED, "support")
    if metrics is None:
        if average is None:
            names = ["precision", "recall", "f1", "support"]
        else:
            names = [
                *(LABEL_DEFAULT if yhat else ()),
                *(SCORE_DEFAULT if score is not None else ()),
            ]
    else:
        names = _options.metric_names(metrics, known)
    for name in names:
        if name in LABEL_METRICS and yhat is None:
            raise InputError(
                f"metric {name!r} needs yhat=",
                role="yhat",
                rule="missing_argument",
                hint="pass the predicted-class column",
            )
        if name in SCORE_DEFAULT and score is None:
            raise InputError(
                f"metric {name!r} needs score=",
                role="score",
                rule="missing_argument",
                hint="pass the score/probability column",
            )
    data, scores = expand_list_scores(data, score, labels)
    binary_score = isinstance(scores, str) and any(n in SCORE_DEFAULT for n in names)
    # binary label metrics on eager data check pos_label against the classes found (after
    # the multiclass check, in scikit-learn's order); lazy data and scores check its kind
    # on the schema, before any comparison runs
    binary_labels = average == "binary" and any(n in AVERAGED for n in names)
    uses_pos = binary_score or (binary_labels and not isinstance(data, pl.DataFrame))
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        score=scores,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        nonfinite=nonfinite,
        classes=False,
        probability=any(n in ("log_loss", "brier") for n in names),
        pos_label=pos_label if uses_pos else NOT_GIVEN,
        pos_in_y=binary_score,
        outputs=[*names, "n_excluded", *COUNTS_COLUMNS],
    )
    if isinstance(scores, dict):
        check_score_classes(prep, scores, y)
        if any(n in ("log_loss", "brier") for n in names):
            check_proba_sums(prep, scores)
    by_cols = prep.by
    label_names = [n for n in names if n in LABEL_METRICS or n == "support"]
    opts = {
        "average": average,
        "pos_label": pos_label,
        "labels": labels,
        "zero_division": zero_division,
        "weight": N,
        "beta": beta,
        "kappa_weights": kappa_weights,
        "multi_class": multi_class,
        "score_average": "macro" if average == "binary" else average,
    }
    parts: list[pl.LazyFrame] = []
    if label_names:
        assert yhat is not None
        prep, pairs, yhat = pairs_of(prep, y, yhat, weight, labels)
        if any(n in AVERAGED for n in label_names):
            _check_binary(prep, y, average, pos_label, labels)
        if average is None:
            out = _per_class(pairs, prep.by, y, yhat, label_names, opts)
            return prep.finish(_with_excluded(out, prep))
        parts += _label_parts(pairs, by_cols, y, yhat, label_names, opts)
    score_names = [n for n in names if n in SCORE_DEFAULT]
    ranked = [n for n in score_names if n in RANKED] if isinstance(scores, str) else []
    part = _ranked_part(prep, y, scores, ranked, pos_label, weight) if ranked else None
    if part is not None:
        parts.append(part)
    expressed = [n for n in score_names if n not in ranked or part is None]
    if expressed:
        sopts = {**opts, "weight": weight}
        parts.append(
            _group_eval(
                prep.frame, by_cols, [_score_metric(n, y, scores, sopts) for n in expressed]
            )
        )
    out = parts[0]
    for part in parts[1:]:
        out = _join_by(out, part, by_cols)
    out = out.select(*by_cols, *names)
    if by_cols:
        out = out.sort(by_cols, nulls_last=True)
    return prep.finish(_with_excluded(out, prep))


def _ranked_part(
    prep: Prepared, y: str, score: str, names: list[str], pos_label: Any, weight: str | None
) -> pl.LazyFrame | None:
    """Binary AUROC and average precision per group from the threshold counts, or None
    where the expressions are faster: groups of mostly distinct scores (a sort per group
    inside ``agg`` beats one sort by group and score with windows over 10,000 groups).

    The counts come from one group-by over distinct scores or one sort, whichever the data
    suits (:func:`clfeval._curves.choose_plan`). Zero-weight rows stay in, so a group whose
    weights are all 0 gets a null.
    """
    from clfeval import _curves, _score

    long = _curves.binary_long(prep, y, score, pos_label, weight)
    plan = _curves.PLAN if _curves.PLAN != "auto" else _curves.choose_plan(prep, long)
    if prep.by and plan == "sort" and _curves.PLAN == "auto":
        return None
    table = _curves.counts_frame(
        long, prep.by, weight is not None, plan, drop_zero=False, totals=False
    )
    tps, fps = pl.col(_curves.TP).cast(pl.Float64), pl.col(_curves.FP).cast(pl.Float64)
    stats = {"auroc": _score.auroc_stat(None), "average_precision": _score.ap_stat}
    return _group_eval(table, prep.by, [stats[n](tps, fps).alias(n) for n in names])


def _label_parts(
    pairs: pl.LazyFrame, by: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> list[pl.LazyFrame]:
    """Label metrics per group: from the counts of every class, of the listed classes (the
    averaged ratios under ``labels=``), and from the pairs themselves (kappa)."""
    labels = opts["labels"]
    every = counts_from_pairs(pairs, by, y, yhat, None)
    listed_names = [
        n for n in names if n in AVERAGED and labels is not None and opts["average"] != "binary"
    ]
    pair_names = [n for n in names if n == "cohen_kappa"]
    every_names = [n for n in names if n not in listed_names and n not in pair_names]
    parts = []
    if every_names:
        parts.append(_group_eval(every, by, [_from_counts(n, opts).alias(n) for n in every_names]))
    if listed_names:
        listed = counts_from_pairs(pairs, by, y, yhat, labels)
        parts.append(
            _group_eval(listed, by, [_from_counts(n, opts).alias(n) for n in listed_names])
        )
    if pair_names:
        parts.append(_group_eval(pairs, by, [_label_metric(n, y, yhat, opts) for n in pair_names]))
    return parts


def _with_excluded(out: pl.LazyFrame, prep: Prepared) -> pl.LazyFrame:
    if prep.n_excluded is None:
        return out
    if not prep.by:
        return out.with_columns(
            pl.lit(prep.n_excluded.item(), pl.Int64).alias("n_excluded")
        ).select("n_excluded", pl.exclude("n_excluded"))
    joined = out.join(
        prep.n_excluded.lazy(), on=prep.by, how="left", nulls_equal=True, maintain_order="left"
    )
    return joined.select(*prep.by, "n_excluded", pl.exclude([*prep.by, "n_excluded"]))


def _per_class(
    pairs: pl.LazyFrame, by: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> pl.LazyFrame:
    """``average=None``: by..., label, then the per-class metrics (support from the counts)."""
    counts = counts_from_pairs(pairs, by, y, yhat, opts["labels"])
    c, z = ovr_from_counts(), opts["zero_division"]
    exprs = [
        pl.col("support") if name == "support" else _ratio(name, opts["beta"])(c, z).alias(name)
        for name in names
    ]
    return counts.select(*by, "label", *exprs)


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
    # scikit-learn prints supports as floats when weighted, and (a quirk of its bincount) when
    # no row of the group is predicted correctly; group key -> float formatting
    float_support: dict[tuple[Any, ...], bool] = field(default_factory=dict)

    def _blocks(self) -> list[tuple[tuple[Any, ...], pl.DataFrame]]:
        if not self.by:
            return [((), self.table)]
        parts = self.table.partition_by(self.by, maintain_order=True, as_dict=True)
        return list(parts.items())

    def _text(self, table: pl.DataFrame, key: tuple[Any, ...] = ()) -> str:
        """scikit-learn's layout, character for character."""
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

    def _extra_text(self, key: tuple[Any, ...]) -> str:
        lines: list[str] = []
        width = len("average_precision")
        for frame, kind in ((self.extras, "score"), (self.baselines, "baseline")):
            if frame is None:
                continue
            part = frame
            for col_name, value in zip(self.by, key):
                part = part.filter(pl.col(col_name).eq_missing(value))
            part = part.drop(self.by)
            if kind == "score":
                for name, value in part.row(0, named=True).items():
                    lines.append(f"{name:>{width}s} {_fmt(value, self.digits + 2):>9s}")
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
        from clfeval._html import HTML, render_html

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
            parts.append(html_table(table.drop(self.by), self.digits))
        for frame, heading in (
            (self.extras, "Score metrics"),
            (self.baselines, "Baselines (constant predictors)"),
        ):
            if frame is not None:
                parts.append(f"<h4>{heading}</h4>")
                parts.append(html_table(frame, self.digits + 2))
        return "\n".join(parts)


def _show(value: Any) -> str:
    return "<null>" if value is None else str(value)


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


def report(
    data: Frame,
    y: str,
    yhat: str,
    *,
    score: Any = None,
    labels: Sequence[Any] | None = None,
    target_names: Sequence[str] | None = None,
    digits: int = 2,
    zero_division: _label.ZeroDivision = 0.0,
    pos_label: Any = 1,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Report:
    """A :class:`Report` whose text is scikit-learn's ``classification_report`` (always eager).

    Per class: precision, recall, F1 and support; then ``accuracy`` (``micro avg`` when
    ``labels`` leaves out a class present in the data), ``macro avg`` and ``weighted avg``.
    With ``score``, the report adds AUROC, average precision, log loss and Brier for the
    ``pos_label`` class and the baselines of constant predictors.

    See Also
    --------
    clf_report : the SQL twin.
    sklearn.metrics.classification_report : the same text.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1], "yhat": [1, 0, 0, 1]})
    >>> print(report(df, "y", "yhat"))  # doctest: +NORMALIZE_WHITESPACE
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       0.50      1.00      0.67         1
               1       1.00      0.67      0.80         3
    <BLANKLINE>
        accuracy                           0.75         4
       macro avg       0.75      0.83      0.73         4
    weighted avg       0.88      0.75      0.77         4
    <BLANKLINE>
    """
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(labels=labels, zero_division=zero_division)
    digits = _options.digits(digits)
    if target_names is not None and (
        isinstance(target_names, str)
        or not isinstance(target_names, Sequence)
        or not all(isinstance(n, str) for n in target_names)
    ):
        raise InputError(
            f"target_names={target_names!r} is not a list of strings",
            role="target_names",
            rule="target_names",
            hint="give one name per class, in the class order",
        )
    data, scores = expand_list_scores(data, score, labels)
    binary_score = isinstance(scores, str)
    prep = prepare(
        data,
        y=y,
        yhat=yhat,
        score=scores,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        nonfinite=nonfinite,
        probability=scores is not None,
        classes=False,
        pos_label=pos_label if binary_score else NOT_GIVEN,
        pos_in_y=binary_score,
        scan_lazy=True,
        outputs=[*REPORT_COLUMNS, *COUNTS_COLUMNS, *SCORE_DEFAULT, "strategy", "n_excluded"],
    )
    if isinstance(scores, dict):
        check_score_classes(prep, scores, y)
        check_proba_sums(prep, scores)
    prep, pairs, yhat = pairs_of(prep, y, yhat, weight, labels)
    assert prep.classes is not None
    if target_names is not None:
        n = len(labels) if labels is not None else len(prep.classes)
        if len(target_names) != n:
            raise InputError(
                f"target_names has {len(target_names)} names for {n} classes",
                role="target_names",
                rule="target_names",
                hint="give one name per class, in the class order (or pass labels=)",
            )
    table = _report_table(pairs, prep, y, yhat, labels, target_names, zero_division)
    extras = baselines = None
    if scores is not None:
        # checked already; eager input is collected so that ranking metrics can sort
        rows = prep.frame.collect() if isinstance(data, pl.DataFrame) else prep.frame
        extras = metrics(
            rows,
            y,
            yhat,
            score=scores,
            metrics=list(SCORE_DEFAULT),
            pos_label=pos_label,
            labels=labels,
            by=by,
            weight=weight,
        )
        extras = extras.collect() if isinstance(extras, pl.LazyFrame) else extras
        baselines = baseline(
            rows,
            y,
            pos_label=pos_label,
            by=by,
            weight=weight,
            metrics=["accuracy", "balanced_accuracy", "f1", "log_loss", "brier"]
            if not isinstance(scores, dict)
            else ["accuracy", "balanced_accuracy"],
        )
        baselines = baselines.collect() if isinstance(baselines, pl.LazyFrame) else baselines
    n_excluded: int | pl.DataFrame | None = None
    if prep.n_excluded is not None:
        n_excluded = prep.n_excluded.item() if not prep.by else prep.n_excluded
    hits = _group_eval(pairs, prep.by, [(pl.col(y) == pl.col(yhat)).any().alias("__hit")])
    no_hit = {tuple(r[:-1]): not r[-1] for r in hits.collect().rows()}
    return Report(
        table,
        prep.by,
        digits,
        weight is not None,
        extras,
        baselines,
        n_excluded,
        float_support=no_hit,
    )


def _report_table(
    pairs: pl.LazyFrame,
    prep: Prepared,
    y: str,
    yhat: str,
    labels: Sequence[Any] | None,
    target_names: Sequence[str] | None,
    zero_division: _label.ZeroDivision,
) -> pl.DataFrame:
    """Per-class rows, then the micro (``accuracy``), macro and weighted rows, per group.

    Per-class ratios are Polars columns; the three average rows are computed from them with
    NumPy's float summation order (:func:`_np_sum`), so the printed digits are scikit-learn's
    even where a sum lands on a rounding boundary. That work is proportional to the report's
    rows, not to the data.
    """
    by, z = prep.by, zero_division
    c = ovr_from_counts()
    names = label_text(pl.col("label"), pairs.collect_schema()[y])
    if target_names is not None:
        position = pl.int_range(pl.len())
        names = pl.lit(pl.Series(list(target_names))).gather(position.over(by) if by else position)
    counts = counts_from_pairs(pairs, by, y, yhat, labels)
    per_class = counts.select(
        *by,
        names.alias("label"),
        _label.RATIOS["precision"](c, z).alias("precision"),
        _label.RATIOS["recall"](c, z).alias("recall"),
        _label.fbeta_ratio(1.0)(c, z).alias("f1"),
        "support",
        "tp",
        (pl.col("tp") + pl.col("fp")).alias("__pred"),
    ).collect()
    # scikit-learn calls the micro row "accuracy" unless labels= leaves out a class present
    if labels is None:
        per_class = per_class.with_columns(pl.lit(True).alias("__complete"))
    else:
        listed = pl.col(y).is_in(list(labels)) & pl.col(yhat).is_in(list(labels))
        done = _group_eval(pairs, by, [listed.all().alias("__complete")]).collect()
        per_class = (
            per_class.join(done, on=by, how="left", nulls_equal=True, maintain_order="left")
            if by
            else per_class.with_columns(pl.lit(done.item()).alias("__complete"))
        )
    group = pl.struct(by).rle_id() if by else pl.lit(0, pl.UInt32)
    rows = per_class.with_row_index("__row").with_columns(group.alias("__gid"))
    averages = _averages(rows, zero_division)
    columns = ["label", "precision", "recall", "f1", "support"]
    dtypes = {"support": per_class["support"].dtype, "label": pl.String}
    keys = rows.group_by("__gid", maintain_order=True).agg(
        pl.col(by).first(), pl.col("__row").max()
    )
    parts = [rows.select(*by, "__row", *columns)]
    for k, row in enumerate(("__micro", "__macro", "__weighted")):
        parts.append(
            keys.join(averages, on="__gid", maintain_order="left").select(
                *by,
                (pl.col("__row") + (k + 1) / 4).alias("__row"),
                *[pl.col(f"{row}_{c}").cast(dtypes.get(c, pl.Float64)).alias(c) for c in columns],
            )
        )
    both = pl.concat(parts, how="vertical_relaxed")
    return both.sort("__row").drop("__row")


def _np_sums(values: pl.DataFrame) -> pl.DataFrame:
    """``(__gid, sum)``: Σ ``v`` per group, added in NumPy's pairwise order.

    Polars' ``sum()`` adds in another order, which can flip the last digit of a printed
    average (0.1875 at two digits). Groups of equal size are stacked into one 2-D array and
    summed along rows, one NumPy call per distinct size (at most the number of classes).
    Rows of a group must be contiguous; a group without values gets no row.
    """
    sized = values.with_columns(pl.len().over("__gid").alias("__n"))
    out = [
        pl.DataFrame(
            {"__gid": pl.Series([], dtype=pl.UInt32), "sum": pl.Series([], dtype=pl.Float64)}
        )
    ]
    for (n,), block in sized.partition_by("__n", as_dict=True, maintain_order=True).items():
        table = block["v"].to_numpy().reshape(-1, n)
        out.append(
            pl.DataFrame({"__gid": block["__gid"].gather_every(n), "sum": table.sum(axis=1)})
        )
    return pl.concat(out)


def _averages(rows: pl.DataFrame, z: _label.ZeroDivision) -> pl.DataFrame:
    """scikit-learn's micro, macro and weighted rows from the per-class rows, per ``__gid``.

    Columns ``__micro_*``, ``__macro_*``, ``__weighted_*`` (label, precision, recall, f1,
    support). Means leave out null per-class values; a weighted mean with zero total weight is
    the plain mean. Every sum is NumPy's (:func:`_np_sums`), as scikit-learn's.
    """
    f64 = pl.Float64
    support = pl.col("support").cast(f64)
    everyone = pl.lit(True)
    terms = {c: (everyone, pl.col(c).cast(f64)) for c in ("tp", "__pred", "support")}
    for m in ("precision", "recall", "f1"):
        present = pl.col(m).is_not_null()
        terms |= {m: (present, pl.col(m)), f"{m}_w": (present, support)}
        terms[f"{m}_vw"] = (present, pl.col(m) * support)
    out = rows.group_by("__gid", maintain_order=True).agg(
        pl.col("__complete").first().alias("__accuracy"),
        pl.col("support").sum().alias("__total"),
        *[pl.col(m).is_not_null().sum().alias(f"{m}_n") for m in ("precision", "recall", "f1")],
    )
    for name, (keep, value) in terms.items():
        sums = _np_sums(rows.filter(keep).select("__gid", value.alias("v")))
        out = out.join(sums.rename({"sum": name}), on="__gid", how="left", maintain_order="left")

    def ratio(num: pl.Expr, den: pl.Expr) -> pl.Expr:
        return (
            pl.when(den == 0)
            .then(pl.lit(None if z is None else float(z), f64))
            .otherwise(num / den)
        )

    t, p, n, accuracy = pl.col("tp"), pl.col("__pred"), pl.col("support"), pl.col("__accuracy")
    columns = [
        pl.when(accuracy)
        .then(pl.lit("accuracy"))
        .otherwise(pl.lit("micro avg"))
        .alias("__micro_label"),
        pl.when(accuracy).then(None).otherwise(ratio(t, p)).alias("__micro_precision"),
        pl.when(accuracy).then(None).otherwise(ratio(t, n)).alias("__micro_recall"),
        ratio(2 * t, n + p).alias("__micro_f1"),
        pl.lit("macro avg").alias("__macro_label"),
        pl.lit("weighted avg").alias("__weighted_label"),
        *[
            pl.col("__total").alias(f"{row}_support")
            for row in ("__micro", "__macro", "__weighted")
        ],
    ]
    for m in ("precision", "recall", "f1"):
        count, weights = pl.col(f"{m}_n"), pl.col(f"{m}_w")
        mean = pl.when(count > 0).then(pl.col(m) / count)
        weighted = (
            pl.when((count == 0) | (weights == 0)).then(mean).otherwise(pl.col(f"{m}_vw") / weights)
        )
        columns += [mean.alias(f"__macro_{m}"), weighted.alias(f"__weighted_{m}")]
    return out.select("__gid", *columns)


# --- Baselines ------------------------------------------------------------------------------

STRATEGIES = ("most_frequent", "prior", "uniform")


def baseline(
    data: Frame,
    y: str,
    *,
    metrics: Sequence[str] | None = None,
    pos_label: Any = 1,
    average: _label.Average = "binary",
    labels: Sequence[Any] | None = None,
    zero_division: _label.ZeroDivision = 0.0,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
) -> Frame:
    """What constant predictors score: ``strategy`` then one column per metric.

    ``most_frequent`` always predicts the majority class (ties: the first in class order) with
    probability 1; ``prior`` predicts the same class but scores with the class shares as
    probabilities; ``uniform`` scores the expected confusion matrix of guessing each class with
    probability 1/k (each actual class split evenly), with probabilities 1/k. Defaults: the
    label metrics of :func:`metrics` plus log_loss and brier (binary only).

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 0, 1]})
    >>> baseline(df, "y", metrics=["accuracy"])["accuracy"].to_list()
    [0.75, 0.75, 0.5]
    """
    data = as_polars(data)
    labels = _options.labels(labels)
    check_options(average=average, labels=labels, zero_division=zero_division)
    binary = average == "binary"
    known = (*LABEL_METRICS, "log_loss", "brier")
    names = (
        _options.metric_names(metrics, known)
        if metrics is not None
        else [*LABEL_DEFAULT, *(("log_loss", "brier") if binary else ())]
    )
    # as in metrics: binary label metrics of eager data check pos_label against the classes
    binary_labels = binary and any(n in AVERAGED for n in names)
    uses_pos = any(n in ("log_loss", "brier") for n in names) or (
        binary_labels and not isinstance(data, pl.DataFrame)
    )
    prep = prepare(
        data,
        y=y,
        weight=weight,
        by=by,
        labels=labels,
        missing=missing,
        pos_label=pos_label if uses_pos else NOT_GIVEN,
        outputs=["strategy", *names, *COUNTS_COLUMNS],
    )
    b = prep.by
    classes = prep.classes
    if classes is not None:
        check_labels_present(classes, labels, y)
    if classes is not None and binary and any(n in AVERAGED for n in names):
        dtype = prep.frame.collect_schema()[y]
        check_pos_label(classes, pos_label, average=average, labels=labels, y=y, dtype=dtype)
    n = pl.len().cast(pl.Float64) if weight is None else pl.col(weight).cast(pl.Float64).sum()
    actual = prep.frame.group_by([*b, y]).agg(n.alias(N))
    # the majority class of each group: largest count, ties to the first in class order
    top = actual.sort([*b, N, y], descending=[*([False] * len(b)), True, False], nulls_last=True)
    mode = (
        top.group_by(b, maintain_order=True).agg(pl.col(y).first().alias("__mode"))
        if b
        else top.select(pl.col(y).first().alias("__mode"))
    )
    with_mode = (
        actual.join(mode, on=b, how="left", nulls_equal=True)
        if b
        else actual.join(mode, how="cross")
    )
    yhat = "__clf_yhat"
    constant = with_mode.select(*b, y, pl.col("__mode").alias(yhat), N)
    # guessing: each actual class's total spread evenly over the group's k classes
    guesses = actual.select(*b, pl.col(y).alias(yhat))
    per_group_k = (
        actual.group_by(b).agg(pl.len().alias("__k")) if b else actual.select(pl.len().alias("__k"))
    )
    uniform = (
        actual.join(guesses, on=b, how="inner", nulls_equal=True)
        if b
        else actual.join(guesses, how="cross")
    )
    uniform = (
        uniform.join(per_group_k, on=b, how="left", nulls_equal=True)
        if b
        else uniform.join(per_group_k, how="cross")
    )
    uniform = uniform.with_columns((pl.col(N) / pl.col("__k")).alias(N)).drop("__k")
    opts = {
        "average": average,
        "pos_label": pos_label,
        "labels": labels,
        "zero_division": zero_division,
        "weight": N,
        "beta": 1.0,
    }
    label_names = [x for x in names if x in LABEL_METRICS]
    frames = []
    for strategy, pairs in (
        ("most_frequent", constant),
        ("prior", constant),
        ("uniform", uniform),
    ):
        parts = _label_parts(pairs, b, y, yhat, label_names, opts) if label_names else []
        prob = _proba_baseline(
            with_mode, strategy, b, y, pos_label, [x for x in names if x in ("log_loss", "brier")]
        )
        if prob is not None:
            parts.append(prob)
        part = parts[0]
        for other in parts[1:]:
            part = _join_by(part, other, b)
        frames.append(part.with_columns(pl.lit(strategy).alias("strategy")))
    out = pl.concat(frames, how="vertical_relaxed").select(*b, "strategy", *names)
    if b:
        out = (
            out.with_columns(pl.col("strategy").replace_strict(STRATEGIES, range(3)).alias("__s"))
            .sort([*b, "__s"], nulls_last=True)
            .drop("__s")
        )
    return prep.finish(out)


def _proba_baseline(
    with_mode: pl.LazyFrame, strategy: str, b: list[str], y: str, pos_label: Any, names: list[str]
) -> pl.LazyFrame | None:
    """Log loss and Brier of a constant probability q for the positive class (binary).

    q is 1 or 0 (``most_frequent``), the positive share (``prior``) or 1/2 (``uniform``); log
    loss clips q to [eps, 1 - eps] like scikit-learn.
    """
    if not names:
        return None
    eps = 2.220446049250313e-16
    w = pl.col(N)
    is_pos = (pl.col(y) == pos_label).cast(pl.Float64)
    if strategy == "most_frequent":
        q = (pl.col("__mode") == pos_label).cast(pl.Float64)
    elif strategy == "prior":
        q = (w * is_pos).sum() / w.sum()
        q = q.over(b) if b else q
    else:
        q = pl.lit(0.5)
    frame = with_mode.with_columns(q.alias("__q"), is_pos.alias("__pos"))
    clipped = pl.col("__q").clip(eps, 1 - eps)
    p_true = pl.when(pl.col("__pos") == 1).then(clipped).otherwise(1 - clipped)
    exprs = []
    if "log_loss" in names:
        exprs.append(((-p_true.log() * w).sum() / w.sum()).alias("log_loss"))
    if "brier" in names:
        exprs.append((((pl.col("__pos") - pl.col("__q")) ** 2 * w).sum() / w.sum()).alias("brier"))
    return _group_eval(frame, b, exprs)
