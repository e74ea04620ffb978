"""Every capability on every engine gives the same frame, and that frame is scikit-learn's.

One fixture, ``engine``, parametrizes the five engines: Polars eager (a DataFrame in),
Polars lazy (a LazyFrame in, ``collect()``), Polars streaming (``collect(engine=
"streaming")``), the DuckDB macros (``clfeval.sql``) and the portable SQL of
``clfeval.sql.query`` run on DuckDB. An engine is a callable ``run(capability, frame,
**args) -> pl.DataFrame``. A registry of capabilities says how each engine computes one tidy
frame (confusion matrix, counts, metrics, report table, curves, areas, calibration, and the
aggregate metrics: the ``clf_*`` aggregate macros against the ``ce.*`` expressions) and how
scikit-learn computes it for one group.

On Hypothesis data (scores on a k/8 grid, so ties; integer weights 0-5; int or string labels;
two group columns with null values) every engine's frame must equal the Polars-eager frame,
dtypes included (rows sorted by the group columns, then in the engine's own order, which is
the documented class or threshold order); the Polars-eager frame must equal scikit-learn per
group to 1e-9 (curves: the same points in the same order); and the generated SQL must equal
the DuckDB macros, so the two SQL implementations cannot drift apart.

A combination an engine deliberately lacks is not generated (the registry says why); nothing
is skipped inside a test.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

import clfeval as ce
from clfeval import sql

BY = ["g1", "g2"]
TOL = {"abs_tol": 1e-9, "rel_tol": 1e-9}
ENGINES = ("polars-eager", "polars-lazy", "polars-streaming", "duckdb", "sqlgen-duckdb")
NO_SQLGEN = ENGINES[:4]
INT_CLASSES = (-2, 0, 1, 3, 10)
STR_CLASSES = ("Bee", "ant", "c'at", 'd"og', "ñu")  # quotes; byte order is not case-folded
LABEL_COLUMNS = ("label", "actual", "predicted")
AVERAGES = ("binary", "micro", "macro", "weighted")
ZERO_DIVISION = st.sampled_from([0.0, 1.0, None])

Frame = pl.DataFrame | pl.LazyFrame


# --- data -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A frame ``g1, g2, y, yhat, s, w``, its possible classes (sorted) and pos_label."""

    df: pl.DataFrame
    classes: tuple[Any, ...]
    pos: Any
    weight: str | None  # "w" or None (the column is always there, used only when named)


G1 = ("a", "b", None)
G2 = (7, None)


@st.composite
def cases(draw: st.DrawFn, *, max_classes: int) -> Case:
    """2 to ``max_classes`` classes; groups with nulls; scores on a k/8 grid (ties)."""
    pool = STR_CLASSES if draw(st.booleans()) else INT_CLASSES
    k = draw(st.integers(2, max_classes))
    classes = sorted(draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k, unique=True)))
    pos = draw(st.sampled_from(classes))
    # one integer per row, read as mixed-radix digits: drawing 6 values per row would make
    # data generation the slowest part of the file
    radix = (len(G1), len(G2), k, k, 9, 6)
    codes = draw(st.lists(st.integers(0, int(np.prod(radix)) - 1), min_size=1, max_size=30))
    digits = []
    for code in codes:
        row = []
        for base in radix:
            code, digit = divmod(code, base)
            row.append(digit)
        digits.append(row)
    g1, g2, y, yhat, s, w = (list(col) for col in zip(*digits))
    if pos not in {classes[i] for i in y}:  # the front door refuses a pos_label absent from y
        y[draw(st.integers(0, len(y) - 1))] = classes.index(pos)
    dtype = pl.String if isinstance(pos, str) else pl.Int64
    df = pl.DataFrame(
        [
            pl.Series("g1", [G1[i] for i in g1], pl.String),
            pl.Series("g2", [G2[i] for i in g2], pl.Int64),
            pl.Series("y", [classes[i] for i in y], dtype),
            pl.Series("yhat", [classes[i] for i in yhat], dtype),
            pl.Series("s", s, pl.Float64) / 8,
            pl.Series("w", w, pl.Int64),
        ]
    )
    return Case(df, tuple(classes), pos, "w" if draw(st.booleans()) else None)


@st.composite
def labels_option(draw: st.DrawFn, case: Case) -> list[Any]:
    """Some classes in a random order (a subset or all, maybe one absent from the rows); one
    occurs in the rows (the front door refuses labels that match nothing)."""
    seen = set(case.df["y"]) | set(case.df["yhat"])
    labels = draw(st.lists(st.sampled_from(case.classes), min_size=1, unique=True))
    if not seen & set(labels):
        labels.append(draw(st.sampled_from(sorted(seen))))
    return labels


def options(**strategies: Any) -> Callable[[Case], st.SearchStrategy[dict[str, Any]]]:
    """Options drawn for a case; a value may be a function of the case giving a strategy."""

    def draw(case: Case) -> st.SearchStrategy[dict[str, Any]]:
        return st.fixed_dictionaries(
            {k: v(case) if callable(v) else v for k, v in strategies.items()}
        )

    return draw


NO_OPTIONS = options()


# --- scikit-learn, one group at a time ------------------------------------------------------


def sk(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call scikit-learn with its undefined-metric warnings silenced (they are not under test)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)


@dataclass(frozen=True)
class Rows:
    """One group's rows as scikit-learn takes them."""

    y: np.ndarray
    yhat: np.ndarray
    s: np.ndarray
    w: np.ndarray | None  # None when unweighted

    @property
    def total(self) -> float:
        return float(len(self.y) if self.w is None else self.w.sum())

    @property
    def sw(self) -> np.ndarray | None:
        """sample_weight for scikit-learn, which refuses all-zero weights: then none."""
        return None if self.w is None or self.total == 0 else self.w

    @property
    def scale(self) -> float:
        """What a count computed with ``sw`` is worth: 0 when every weight is 0."""
        return 0.0 if self.total == 0 else 1.0

    def weight_of(self, mask: np.ndarray) -> float:
        return float(mask.sum() if self.w is None else self.w[mask].sum())


def nan_as(zero_division: float | None) -> float:
    """clfeval's zero_division in scikit-learn's spelling (None is NaN there)."""
    return np.nan if zero_division is None else zero_division


def ratio(num: float, den: float, zero_division: float | None) -> float:
    return nan_as(zero_division) if den == 0 else num / den


class Nulls(dict):
    """scikit-learn has no number here (it raises): these columns of the group are null."""

    def __init__(self, *columns: str) -> None:
        super().__init__()
        self.columns = columns


# What a reference returns for one group: its columns; None when the group has no rows in
# the result; Nulls(...) when scikit-learn raises. All-zero weights are refused by
# scikit-learn; a label frame is then checked with its counts at 0 and ratios at 0/0.
Reference = Callable[["Rows", Case, dict[str, Any]], dict[str, list] | None]


def classes_of(rows: Rows, labels: list | None) -> list:
    """scikit-learn's class list: labels as given, else the sorted values of y and yhat."""
    return list(labels) if labels is not None else sorted(set(rows.y) | set(rows.yhat))


def ref_confusion(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    cls = classes_of(rows, args.get("labels"))
    if set(cls) & set(rows.y):
        cm = sk(skm.confusion_matrix, rows.y, rows.yhat, labels=cls, sample_weight=rows.sw)
        cm = cm * rows.scale
    else:  # scikit-learn refuses labels of which none is in y; no row is counted
        cm = np.zeros((len(cls), len(cls)))
    pairs = [(a, p) for a in cls for p in cls]
    return {
        "actual": [a for a, _ in pairs],
        "predicted": [p for _, p in pairs],
        "count": cm.ravel().tolist(),
    }


def ref_counts(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    cls = classes_of(rows, args.get("labels"))
    mcm = sk(skm.multilabel_confusion_matrix, rows.y, rows.yhat, labels=cls, sample_weight=rows.sw)
    tn, fp, fn, tp = (mcm[:, i // 2, i % 2] * rows.scale for i in range(4))
    return {
        "label": cls,
        "tp": tp.tolist(),
        "fp": fp.tolist(),
        "fn": fn.tolist(),
        "tn": tn.tolist(),
        "support": (tp + fn).tolist(),
    }


def ref_metrics(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    zd, avg = args["zero_division"], args["average"]
    if rows.total == 0:  # every count is 0: ratios are 0/0, MCC 0 (a constant marginal)
        undefined = avg in ("macro", "weighted") and zd is None  # null is left out: no class
        prf = None if undefined else zd
        return {
            "accuracy": [None],
            "balanced_accuracy": [None],
            "precision": [prf],
            "recall": [prf],
            "f1": [prf],
            "mcc": [0.0],
        }
    p, r, f, _ = sk(
        skm.precision_recall_fscore_support,
        rows.y,
        rows.yhat,
        average=avg,
        labels=args.get("labels"),
        pos_label=args["pos_label"],
        zero_division=nan_as(zd),
        sample_weight=rows.sw,
    )
    return {
        "accuracy": [sk(skm.accuracy_score, rows.y, rows.yhat, sample_weight=rows.sw)],
        "balanced_accuracy": [
            sk(skm.balanced_accuracy_score, rows.y, rows.yhat, sample_weight=rows.sw)
        ],
        "precision": [p],
        "recall": [r],
        "f1": [f],
        "mcc": [sk(skm.matthews_corrcoef, rows.y, rows.yhat, sample_weight=rows.sw)],
    }


def ref_report(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    cls = classes_of(rows, args.get("labels"))
    zd = args["zero_division"]
    out: dict[str, list] = {k: [] for k in ("label", "precision", "recall", "f1", "support")}

    def add(*values: Any) -> None:
        for key, value in zip(out, values):
            out[key].append(value)

    if rows.total == 0:  # every count is 0: each ratio is 0/0, the averages too
        micro = not set(cls) >= set(rows.y) | set(rows.yhat)  # a present class left out
        for c in cls:
            add(str(c), zd, zd, zd, 0.0)
        add(*(("micro avg", zd, zd, zd) if micro else ("accuracy", None, None, zd)), 0.0)
        add("macro avg", zd, zd, zd, 0.0)
        add("weighted avg", zd, zd, zd, 0.0)
        return out
    rep = sk(
        skm.classification_report,
        rows.y,
        rows.yhat,
        labels=cls,
        output_dict=True,
        zero_division=nan_as(zd),
        sample_weight=rows.sw,
    )
    for c in cls:
        row = rep[str(c)]
        add(str(c), row["precision"], row["recall"], row["f1-score"], row["support"])
    total = sum(rep[str(c)]["support"] for c in cls)
    if "accuracy" in rep:
        add("accuracy", None, None, rep["accuracy"], total)
    for name in ("micro avg", "macro avg", "weighted avg"):
        if name in rep:
            row = rep[name]
            add(name, row["precision"], row["recall"], row["f1-score"], row["support"])
    return out


def ref_roc(rows: Rows, case: Case, args: dict) -> dict[str, list] | None:
    if rows.total == 0:  # scikit-learn drops zero-weight rows: no threshold is left
        return None
    fpr, tpr, thr = sk(
        skm.roc_curve,
        rows.y,
        rows.s,
        pos_label=args["pos_label"],
        sample_weight=rows.w,
        drop_intermediate=args["drop_intermediate"],
    )
    return {"threshold": thr.tolist(), "fpr": fpr.tolist(), "tpr": tpr.tolist()}


def ref_pr(rows: Rows, case: Case, args: dict) -> dict[str, list] | None:
    if rows.total == 0:
        return None
    precision, recall, thr = sk(
        skm.precision_recall_curve,
        rows.y,
        rows.s,
        pos_label=args["pos_label"],
        sample_weight=rows.w,
        drop_intermediate=args["drop_intermediate"],
    )
    return {
        "threshold": [*thr.tolist(), None],  # the end point (recall 0) has no threshold
        "precision": precision.tolist(),
        "recall": recall.tolist(),
    }


def ref_det(rows: Rows, case: Case, args: dict) -> dict[str, list] | None:
    if rows.total == 0:
        return None
    positive = rows.y == args["pos_label"]
    if rows.weight_of(~positive) == 0:  # scikit-learn raises with one class
        return Nulls("fpr")
    if rows.weight_of(positive) == 0:
        return Nulls("fnr")
    fpr, fnr, thr = sk(
        skm.det_curve,
        rows.y,
        rows.s,
        pos_label=args["pos_label"],
        sample_weight=rows.w,
        drop_intermediate=args["drop_intermediate"],
    )
    return {"threshold": thr.tolist(), "fpr": fpr.tolist(), "fnr": fnr.tolist()}


def mcc(tn: float, fp: float, fn: float, tp: float) -> float:
    """matthews_corrcoef from scikit-learn's counts: 0 when a marginal is 0, as it does."""
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return 0.0 if den == 0 else (tp * tn - fp * fn) / np.sqrt(den)


THRESHOLD_RATES = ("precision", "recall", "specificity", "fpr", "npv", "f1", "fbeta")
THRESHOLD_RATES += ("accuracy", "balanced_accuracy", "mcc", "youden_j")


def ref_thresholds(rows: Rows, case: Case, args: dict) -> dict[str, list] | None:
    if rows.total == 0:
        return None
    pos, zd = args["pos_label"], args["zero_division"]
    tns, fps, fns, tps, thr = sk(
        skm.confusion_matrix_at_thresholds, rows.y, rows.s, pos_label=pos, sample_weight=rows.w
    )
    out: dict[str, list] = {"threshold": thr.tolist(), "tp": tps.tolist(), "fp": fps.tolist()}
    out |= {"fn": fns.tolist(), "tn": tns.tolist(), **{name: [] for name in THRESHOLD_RATES}}
    truth = rows.y == pos
    for t, tn, fp, fn, tp in zip(thr, tns, fps, fns, tps):
        said = rows.s >= t
        # one call for both classes: index 0 is the negative class, 1 the positive
        p, r, fb, _ = sk(
            skm.precision_recall_fscore_support,
            truth,
            said,
            beta=args["beta"],
            labels=[False, True],
            average=None,
            zero_division=nan_as(zd),
            sample_weight=rows.w,
        )
        present = [n > 0 for n in (tn + fp, tp + fn)]  # classes present in y
        values = {
            "precision": p[1],
            "recall": r[1],
            "specificity": r[0],
            "fpr": ratio(fp, fp + tn, zd),
            "npv": p[0],
            "f1": ratio(2 * tp, 2 * tp + fp + fn, zd),  # scikit-learn's f1 from its counts
            "fbeta": fb[1],
            "accuracy": (tp + tn) / (tp + tn + fp + fn),
            "balanced_accuracy": np.mean([x for x, ok in zip(r, present) if ok]),
            "mcc": mcc(tn, fp, fn, tp),
            "youden_j": r[1] + r[0] - 1,
        }
        for name in THRESHOLD_RATES:
            out[name].append(values[name])
    return out


def ref_auroc(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    positive = rows.y == args["pos_label"]
    if rows.weight_of(positive) == 0 or rows.weight_of(~positive) == 0:
        return {"auroc": [None]}  # one class: undefined (scikit-learn raises or gives NaN)
    return {"auroc": [sk(skm.roc_auc_score, positive, rows.s, sample_weight=rows.w)]}


def ref_average_precision(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    positive = rows.y == args["pos_label"]
    if rows.weight_of(positive) == 0:
        # documented: null without positives (scikit-learn returns 0.0 with a warning)
        return {"average_precision": [None]}
    value = sk(skm.average_precision_score, positive, rows.s, sample_weight=rows.w)
    return {"average_precision": [value]}


def ref_calibration(rows: Rows, case: Case, args: dict) -> dict[str, list] | None:
    # calibration_curve takes no weights: an integer weight repeats its row
    reps = np.ones(len(rows.y), int) if rows.w is None else rows.w.astype(int)
    y, s = np.repeat(rows.y, reps), np.repeat(rows.s, reps)
    if len(y) == 0:
        return None
    n_bins = args["n_bins"]
    truth, predicted = sk(
        calibration_curve, y, s, pos_label=args["pos_label"], n_bins=n_bins, strategy="uniform"
    )
    ids = np.searchsorted(np.linspace(0.0, 1.0, n_bins + 1)[1:-1], s)  # scikit-learn's bins
    count = np.bincount(ids, minlength=n_bins)
    return {
        "bin": np.flatnonzero(count).tolist(),
        "mean_predicted": predicted.tolist(),
        "fraction_positive": truth.tolist(),
        "count": count[count > 0].tolist(),
    }


RATIO_AGGREGATES = ("precision", "recall", "f1", "specificity", "npv", "fpr", "fnr", "jaccard")
MEAN_AGGREGATES = ("accuracy", "prevalence", "log_loss", "brier")
AGGREGATES = (*RATIO_AGGREGATES, *MEAN_AGGREGATES)


def ref_aggregates(rows: Rows, case: Case, args: dict) -> dict[str, list]:
    pos, zd = args["pos_label"], args["zero_division"]
    if rows.total == 0:  # every count is 0: a ratio is 0/0, a mean has no weight
        return {name: [zd if name in RATIO_AGGREGATES else None] for name in AGGREGATES}
    neg = next(c for c in case.classes if c != pos)
    both = {"labels": [neg, pos], "sample_weight": rows.sw}
    tn, fp, fn, tp = sk(skm.confusion_matrix, rows.y, rows.yhat, **both).ravel().tolist()
    p, r, f, _ = sk(
        skm.precision_recall_fscore_support,
        rows.y,
        rows.yhat,
        average=None,
        zero_division=nan_as(zd),
        **both,
    )
    # jaccard_score takes no NaN zero_division: 0/0 is handled here
    jaccard = sk(skm.jaccard_score, rows.y, rows.yhat, average=None, zero_division=0, **both)
    truth = rows.y == pos
    values = {
        "precision": p[1],
        "recall": r[1],
        "f1": f[1],
        "specificity": r[0],
        "npv": p[0],
        "fpr": ratio(fp, fp + tn, zd),
        "fnr": ratio(fn, fn + tp, zd),
        "jaccard": jaccard[1] if tp + fp + fn else nan_as(zd),
        "accuracy": sk(skm.accuracy_score, rows.y, rows.yhat, sample_weight=rows.sw),
        "prevalence": float(np.average(truth, weights=rows.sw)),
        "log_loss": sk(skm.log_loss, truth, rows.s, labels=[False, True], sample_weight=rows.sw),
        "brier": sk(skm.brier_score_loss, truth, rows.s, pos_label=True, sample_weight=rows.sw),
    }
    return {name: [values[name]] for name in AGGREGATES}


def ref_aggregate(name: str) -> Reference:
    """One column of ``ref_aggregates``."""

    def reference(rows: Rows, case: Case, args: dict) -> dict[str, list]:
        return {name: ref_aggregates(rows, case, {"zero_division": 0.0, **args})[name]}

    return reference


# --- how each engine computes a capability --------------------------------------------------


def frame_fn(fn: Callable[..., Any], *cols: str, label: bool = False) -> Callable[..., Any]:
    """``fn(data, *cols, by=BY, **args)``: a Polars frame function or a DuckDB wrapper.
    The label frames (``label``) take no pos_label; labels=None is left out."""

    def run(data: Any, **args: Any) -> Any:
        if label:
            args.pop("pos_label")
        if args.get("labels", 0) is None:
            args.pop("labels")
        return fn(data, *cols, by=BY, **args)

    return run


def polars_report(data: Frame, *cols: str, **args: Any) -> pl.DataFrame:
    return ce.report(data, *cols, **args).table


def polars_score(name: str) -> Callable[..., Frame]:
    def run(data: Frame, *, weight: str | None, pos_label: Any) -> Frame:
        expr = getattr(ce, name)("y", "s", pos_label=pos_label, weight=weight)
        return data.group_by(BY).agg(expr.alias(name))

    return run


def polars_aggregates(data: Frame, *, weight: str | None, pos_label: Any, zero_division):
    ratios = {"pos_label": pos_label, "zero_division": zero_division, "weight": weight}
    exprs = [getattr(ce, name)("y", "yhat", **ratios).alias(name) for name in RATIO_AGGREGATES]
    exprs += [
        ce.accuracy("y", "yhat", weight=weight).alias("accuracy"),
        ce.prevalence("y", pos_label=pos_label, weight=weight).alias("prevalence"),
        ce.log_loss("y", "s", pos_label=pos_label, weight=weight).alias("log_loss"),
        ce.brier("y", "s", pos_label=pos_label, weight=weight).alias("brier"),
    ]
    return data.group_by(BY).agg(exprs)


def duckdb_aggregates(
    data: pl.DataFrame, *, con: duckdb.DuckDBPyConnection, weight: str | None, **params: Any
) -> pl.DataFrame:
    """The aggregate macros under the analyst's own GROUP BY, as SPEC §5 shows them."""
    w = "" if weight is None else ", weight := w"  # fixed test text, no user string
    ratio_args = f"pos_label := $pos_label, zero_division := $zero_division{w}"
    calls = [f"clf_{name}(y, yhat, {ratio_args}) AS {name}" for name in RATIO_AGGREGATES]
    calls += [
        f"clf_accuracy(y, yhat{w}) AS accuracy",
        f"clf_prevalence(y, pos_label := $pos_label{w}) AS prevalence",
        f"clf_log_loss(y, s, pos_label := $pos_label{w}) AS log_loss",
        f"clf_brier(y, s, pos_label := $pos_label{w}) AS brier",
    ]
    con.register("engines_preds", data)
    try:
        text = f"SELECT g1, g2, {', '.join(calls)} FROM engines_preds GROUP BY g1, g2"
        return con.sql(text, params=params).pl()
    finally:
        con.unregister("engines_preds")


def duckdb_aggregate(name: str) -> Callable[..., pl.DataFrame]:
    """One aggregate macro through ``clfeval.sql.aggregate``."""

    def run(data: pl.DataFrame, **args: Any) -> pl.DataFrame:
        return sql.aggregate(f"clf_{name}", data, "y", "s", by=BY, **args)

    return run


def sqlgen_args(metric: str, **fixed: Any) -> Callable[..., dict[str, Any]]:
    """The ``query`` arguments of a capability, from the engine arguments."""

    def kwargs(**args: Any) -> dict[str, Any]:
        return {"metric": metric, **fixed, **args}

    return kwargs


def sqlgen_label(metric: str) -> Callable[..., dict[str, Any]]:
    def kwargs(*, pos_label: Any, **args: Any) -> dict[str, Any]:
        return {"metric": metric, "yhat": "yhat", **args}

    return kwargs


def sqlgen_thresholds(*, beta: float, **args: Any) -> dict[str, Any]:
    # no beta in the generated SQL: its columns leave out fbeta (compared on the shared ones)
    return {"metric": "thresholds", "score": "s", **args}


# --- the registry ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Capability:
    """One tidy frame, as each engine computes it and as scikit-learn does for one group.

    ``polars(data, **args)`` takes a DataFrame or a LazyFrame; ``duckdb(data, con=,
    **args)`` runs the macros; ``sqlgen(**args)`` gives the ``clfeval.sql.query`` arguments
    (``sqlgen_columns``: the part of its output the other engines share); ``reference(rows,
    case, args)`` gives scikit-learn's frame for one group. ``args`` are ``weight``,
    ``pos_label`` and the ``options`` drawn for the case; ``engines`` lists the engines that
    have every option the capability draws.
    """

    name: str
    max_classes: int
    polars: Callable[..., Frame]
    duckdb: Callable[..., pl.DataFrame]
    reference: Reference
    sqlgen: Callable[..., dict[str, Any]] | None = None
    sqlgen_columns: tuple[str, ...] | None = None
    options: Callable[[Case], st.SearchStrategy[dict[str, Any]]] = NO_OPTIONS
    eager_only: bool = False  # the Polars function always collects (Report)
    engines: tuple[str, ...] = ENGINES

    @property
    def strategy(self) -> st.SearchStrategy[tuple[Case, dict[str, Any]]]:
        @st.composite
        def draw(draw: st.DrawFn) -> tuple[Case, dict[str, Any]]:
            case = draw(cases(max_classes=self.max_classes))
            drawn = draw(self.options(case))
            return case, {"weight": case.weight, "pos_label": case.pos, **drawn}

        return draw()


def registry() -> list[Capability]:
    labels = {"labels": labels_option}
    zd = {"zero_division": ZERO_DIVISION}
    confusion = Capability(
        "confusion_matrix",
        max_classes=4,
        polars=frame_fn(ce.confusion_matrix, "y", "yhat", label=True),
        duckdb=frame_fn(sql.confusion_matrix, "y", "yhat", label=True),
        reference=ref_confusion,
        sqlgen=sqlgen_label("confusion"),
    )
    counts = Capability(
        "counts",
        max_classes=4,
        polars=frame_fn(ce.counts, "y", "yhat", label=True),
        duckdb=frame_fn(sql.counts, "y", "yhat", label=True),
        reference=ref_counts,
        sqlgen=sqlgen_label("counts"),
    )
    report = Capability(
        "report",
        max_classes=4,
        polars=frame_fn(polars_report, "y", "yhat", label=True),
        duckdb=frame_fn(sql.report, "y", "yhat", label=True),
        reference=ref_report,
        sqlgen=sqlgen_label("report"),
        options=options(**zd),
        eager_only=True,
        # Report is always eager (SPEC §4): it collects its own aggregates, so a streaming
        # engine cannot be chosen and would repeat polars-lazy
        engines=tuple(e for e in ENGINES if e != "polars-streaming"),
    )

    def average(case: Case) -> st.SearchStrategy[str]:
        # 'binary' needs two classes (scikit-learn and clfeval refuse it on more)
        return st.sampled_from(AVERAGES if len(case.classes) == 2 else AVERAGES[1:])

    metrics = Capability(
        "metrics",
        max_classes=4,
        polars=frame_fn(ce.metrics, "y", "yhat"),
        duckdb=frame_fn(sql.metrics, "y", "yhat"),
        reference=ref_metrics,
        sqlgen=sqlgen_args("metrics", yhat="yhat"),
        options=options(average=average, **zd),
    )
    # The generated SQL takes labels= for metrics only: the tables of counts, confusion and
    # report always have the group's sorted classes there.
    with_labels = [
        replace(confusion, name="confusion_matrix-labels", options=options(**labels)),
        replace(counts, name="counts-labels", options=options(**labels)),
        replace(report, name="report-labels", options=options(**labels, **zd)),
    ]
    caps = [confusion, counts, report, metrics]
    caps += [
        replace(c, sqlgen=None, engines=tuple(e for e in c.engines if e in NO_SQLGEN))
        for c in with_labels
    ]
    caps.append(
        replace(
            metrics,
            name="metrics-labels",
            options=options(**labels, average=st.sampled_from(AVERAGES[1:]), **zd),
        )
    )

    drop = {"drop_intermediate": st.booleans()}
    for name, ref in (("roc_curve", ref_roc), ("pr_curve", ref_pr), ("det_curve", ref_det)):
        caps.append(
            Capability(
                name,
                max_classes=2,
                polars=frame_fn(getattr(ce, name), "y", "s"),
                duckdb=frame_fn(getattr(sql, name), "y", "s"),
                reference=ref,
                sqlgen=sqlgen_args(name, score="s"),
                options=options(**drop),
            )
        )
    caps.append(
        Capability(
            "thresholds",
            max_classes=2,
            polars=frame_fn(ce.thresholds, "y", "s"),
            duckdb=frame_fn(sql.thresholds, "y", "s"),
            reference=ref_thresholds,
            sqlgen=sqlgen_thresholds,
            sqlgen_columns=(
                *("threshold", "tp", "fp", "fn", "tn", "precision", "recall", "specificity"),
                *("fpr", "f1", "accuracy", "mcc"),
            ),
            options=options(beta=st.sampled_from([0.5, 1.0, 2.0]), **zd),
        )
    )
    for name, ref in (("auroc", ref_auroc), ("average_precision", ref_average_precision)):
        caps.append(
            Capability(
                name,
                max_classes=2,
                polars=polars_score(name),
                duckdb=frame_fn(getattr(sql, name), "y", "s"),
                reference=ref,
                sqlgen=sqlgen_args(name, score="s"),
            )
        )
    caps.append(
        Capability(
            "calibration",
            max_classes=2,
            polars=frame_fn(ce.calibration, "y", "s"),
            duckdb=frame_fn(sql.calibration, "y", "s"),
            reference=ref_calibration,
            sqlgen=sqlgen_args("calibration", proba="s"),
            options=options(n_bins=st.integers(1, 10)),
        )
    )
    for name in ("log_loss", "brier"):  # one macro through sql.aggregate, one query each
        caps.append(
            Capability(
                name,
                max_classes=2,
                polars=polars_score(name),
                duckdb=duckdb_aggregate(name),
                reference=ref_aggregate(name),
                sqlgen=sqlgen_args(name, proba="s"),
            )
        )
    caps.append(
        Capability(
            "aggregates",
            max_classes=2,
            polars=polars_aggregates,
            duckdb=duckdb_aggregates,
            reference=ref_aggregates,
            # the generated SQL's binary metrics with a probability: precision, recall, f1,
            # accuracy, log loss and Brier (it has no specificity, npv, fpr, fnr, jaccard or
            # prevalence)
            sqlgen=sqlgen_args("metrics", yhat="yhat", proba="s", average="binary"),
            sqlgen_columns=("precision", "recall", "f1", "accuracy", "log_loss", "brier"),
            options=options(**zd),
        )
    )
    return caps


CAPABILITIES = registry()


# --- engines --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Engine:
    """``run(capability, frame, **args) -> pl.DataFrame``, with a name."""

    name: str
    run: Callable[..., pl.DataFrame]

    def __call__(self, cap: Capability, frame: pl.DataFrame, **args: Any) -> pl.DataFrame:
        return self.run(cap, frame, **args)


def polars_engine(mode: str) -> Callable[..., pl.DataFrame]:
    def run(cap: Capability, frame: pl.DataFrame, **args: Any) -> pl.DataFrame:
        out = cap.polars(frame if mode == "eager" else frame.lazy(), **args)
        if mode == "eager" or cap.eager_only:
            assert isinstance(out, pl.DataFrame), f"{cap.name}: {type(out)}"
            return out
        assert isinstance(out, pl.LazyFrame), f"{cap.name}: a LazyFrame in, {type(out)} out"
        return out.collect(engine="streaming" if mode == "streaming" else "in-memory")

    return run


@functools.lru_cache(maxsize=1024)
def query_text(items: tuple[tuple[str, Any], ...]) -> str:
    """The generated SQL, cached: building it costs more than running it on tiny frames."""
    kwargs = dict(items)
    return sql.query(kwargs.pop("metric"), **kwargs)


def sqlgen_engine(con: duckdb.DuckDBPyConnection) -> Callable[..., pl.DataFrame]:
    def run(cap: Capability, frame: pl.DataFrame, **args: Any) -> pl.DataFrame:
        assert cap.sqlgen is not None
        kwargs = {"table": "engines_preds", "y": "y", "group_cols": tuple(BY)}
        given = {**kwargs, **cap.sqlgen(**args)}
        hashable = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}
        text = query_text(tuple(sorted(hashable.items())))
        con.register("engines_preds", frame)
        try:
            out = con.sql(text).pl()
        finally:
            con.unregister("engines_preds")
        return out if cap.sqlgen_columns is None else out.select(*BY, *cap.sqlgen_columns)

    return run


def make_engine(name: str, con: duckdb.DuckDBPyConnection) -> Engine:
    if name.startswith("polars-"):
        return Engine(name, polars_engine(name.removeprefix("polars-")))
    if name == "duckdb":
        return Engine(name, lambda cap, frame, **args: cap.duckdb(frame, con=con, **args))
    return Engine(name, sqlgen_engine(con))


@pytest.fixture(scope="module")
def con() -> Iterator[duckdb.DuckDBPyConnection]:
    c = sql.connect()
    c.execute("SET threads = 1")  # tiny frames: starting threads would cost more than the work
    yield c
    c.close()


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest, con: duckdb.DuckDBPyConnection) -> Engine:
    """One of the five engines (the test narrows the list per capability, indirectly)."""
    return make_engine(request.param, con)


# --- comparing ------------------------------------------------------------------------------


def tidy(df: pl.DataFrame) -> pl.DataFrame:
    """Group columns first, rows sorted by them (nulls last), each group in its own order."""
    assert df.columns[:2] == BY, df.columns
    return df.sort(BY, nulls_last=True, maintain_order=True)


def assert_same_frame(got: pl.DataFrame, want: pl.DataFrame, what: str) -> None:
    """``got`` equals ``want`` on ``got``'s columns, dtypes and row order included."""
    missing = [c for c in got.columns if c not in want.columns]
    assert not missing, f"{what}: columns {missing} are not in {want.columns}"
    got, want = tidy(got), tidy(want.select(got.columns))
    try:
        assert_frame_equal(got, want, check_dtypes=True, **TOL)
    except AssertionError as err:
        raise AssertionError(f"{what}: {err}\ngot\n{got}\nexpected\n{want}") from None


def group_rows(case: Case) -> Iterator[tuple[tuple, Rows]]:
    for key, sub in case.df.partition_by(BY, as_dict=True, maintain_order=True).items():
        w = sub["w"].to_numpy().astype(float) if case.weight else None
        yield key, Rows(sub["y"].to_numpy(), sub["yhat"].to_numpy(), sub["s"].to_numpy(), w)


def assert_sklearn(cap: Capability, case: Case, args: dict, got: pl.DataFrame) -> None:
    """The Polars-eager frame equals scikit-learn on each group's rows (NaN there is null)."""
    present = 0
    parts = got.partition_by(BY, as_dict=True, include_key=False)
    for key, rows in group_rows(case):
        expected = cap.reference(rows, case, args)
        mine = parts.get(key, got.clear().drop(BY))
        if expected is None:  # the group has no row in the result
            assert mine.height == 0, (key, mine)
            continue
        present += 1
        if isinstance(expected, Nulls):
            nulls = mine.select(expected.columns).null_count().row(0)
            assert mine.height > 0, key
            assert nulls == (mine.height,) * len(nulls), (key, mine)
            continue
        want = pl.DataFrame([pl.Series(c, v, strict=False) for c, v in expected.items()])
        assert mine.columns == want.columns, (key, mine.columns, want.columns)
        floats = [c for c in mine.columns if c not in LABEL_COLUMNS and mine[c].dtype.is_numeric()]
        fix = {c: pl.col(c).cast(pl.Float64).fill_nan(None) for c in floats}
        fix |= {c: pl.col(c).cast(mine.schema[c]) for c in mine.columns if c not in floats}
        mine, want = mine.with_columns(pl.col(floats).cast(pl.Float64)), want.with_columns(**fix)
        try:
            assert_frame_equal(mine, want, **TOL)
        except AssertionError as err:
            raise AssertionError(
                f"group {key}: {err}\npolars-eager\n{mine}\nscikit-learn\n{want}"
            ) from None
    assert got.select(BY).n_unique() == present, got


def check_dtypes(cap: Capability, case: Case, out: pl.DataFrame) -> None:
    """Group keys and labels keep their dtypes (the report's labels are text); counts are
    Int64 (Float64 with a weight); rates are Float64."""
    counts = {"tp", "fp", "fn", "tn", "support", "count"}
    for name, dtype in out.schema.items():
        if name in BY:
            want = case.df.schema[name]
        elif name in LABEL_COLUMNS:
            want = pl.String if cap.name.startswith("report") else case.df.schema["y"]
        elif name == "bin":
            want = pl.Int64
        elif name in counts:
            want = pl.Float64 if case.weight else pl.Int64
        else:
            want = pl.Float64
        assert dtype == want, f"{cap.name}: column {name!r} is {dtype}, expected {want}"


# --- the tests ------------------------------------------------------------------------------

COMBINATIONS = [
    pytest.param(cap, name, id=f"{cap.name}-{name}") for cap in CAPABILITIES for name in cap.engines
]


@pytest.mark.parametrize(("cap", "engine"), COMBINATIONS, indirect=["engine"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_engine_gives_the_polars_eager_frame_which_is_sklearn(
    cap: Capability, engine: Engine, con: duckdb.DuckDBPyConnection, data: st.DataObject
) -> None:
    case, args = data.draw(cap.strategy, label="case, args")
    note(f"pl.DataFrame({case.df.to_dict(as_series=False)!r})")
    eager = make_engine("polars-eager", con)(cap, case.df, **args)
    if engine.name == "polars-eager":
        check_dtypes(cap, case, eager)
        assert_sklearn(cap, case, args, eager)
        return
    got = engine(cap, case.df, **args)
    if cap.sqlgen_columns is None or engine.name != "sqlgen-duckdb":
        assert got.columns == eager.columns
    assert_same_frame(got, eager, f"{engine.name} vs polars-eager")
    if engine.name == "sqlgen-duckdb":  # the generated SQL and the macros cannot drift apart
        macros = make_engine("duckdb", con)(cap, case.df, **args)
        assert_same_frame(got, macros, "sqlgen-duckdb vs the duckdb macros")


# --- files: a Parquet file through a view, a DuckDB database file ---------------------------


def file_frame() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 120
    return pl.DataFrame(
        {
            "g1": pl.Series(rng.choice(["a", "b", None], n).tolist(), dtype=pl.String),
            "g2": pl.Series(rng.choice([0, 1, None], n).tolist(), dtype=pl.Int64),
            "y": rng.choice(["ham", "spam", "it's"], n, p=[0.5, 0.4, 0.1]).tolist(),
            "yhat": rng.choice(["ham", "spam", "it's"], n).tolist(),
            "s": rng.integers(0, 17, n) / 16,
            "w": rng.integers(0, 4, n),
        }
    )


def on_files(data: Any, con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """A few macros on a table reference (or, for the expected side, a LazyFrame)."""
    lazy = isinstance(data, pl.LazyFrame)
    m = ce if lazy else sql
    kw: dict[str, Any] = {"by": BY} if lazy else {"by": BY, "con": con}
    out = {
        "counts": m.counts(data, "y", "yhat", weight="w", **kw),
        "metrics": m.metrics(data, "y", "yhat", average="weighted", **kw),
        "roc_curve": m.roc_curve(data, "y", "s", pos_label="spam", weight="w", **kw),
        "pr_curve": m.pr_curve(data, "y", "s", pos_label="spam", **kw),
        "calibration": m.calibration(data, "y", "s", pos_label="spam", n_bins=5, **kw),
    }
    if lazy:
        out["log_loss"] = data.group_by(BY).agg(
            ce.log_loss("y", "s", pos_label="spam", weight="w").alias("log_loss")
        )
        return {k: v.collect() for k, v in out.items()}
    out["log_loss"] = sql.aggregate(
        "clf_log_loss", data, "y", "s", pos_label="spam", weight="w", **kw
    )
    return out


def test_macros_on_a_parquet_view_and_a_database_file_equal_scan_parquet(
    tmp_path: Path, con: duckdb.DuckDBPyConnection
) -> None:
    parquet = tmp_path / "preds.parquet"
    file_frame().write_parquet(parquet)
    expected = on_files(pl.scan_parquet(parquet), con)

    con.read_parquet(str(parquet)).create_view("engines_parquet_view", replace=True)
    try:
        for name, got in on_files("engines_parquet_view", con).items():
            assert_same_frame(got, expected[name], f"{name} over a Parquet view")
    finally:
        con.execute("DROP VIEW engines_parquet_view")

    database = tmp_path / "preds.duckdb"
    with duckdb.connect(str(database)) as db:
        db.read_parquet(str(parquet)).create("preds")
    with duckdb.connect(str(database)) as db:  # reopened: the table is in the file
        sql.load(db)
        for name, got in on_files("preds", db).items():
            assert_same_frame(got, expected[name], f"{name} over a database file")
        text = sql.query(
            "roc_curve",
            table="preds",
            y="y",
            score="s",
            pos_label="spam",
            group_cols=BY,
            weight="w",
        )
        assert_same_frame(db.sql(text).pl(), expected["roc_curve"], "generated SQL on the file")
