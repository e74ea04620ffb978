"""clfeval.sqlgen: portable SQL, checked on DuckDB against scikit-learn, parsed in every dialect."""

from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pytest
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    brier_score_loss,
    classification_report,
    confusion_matrix,
    confusion_matrix_at_thresholds,
    det_curve,
    f1_score,
    log_loss,
    matthews_corrcoef,
    metric_at_thresholds,
    multilabel_confusion_matrix,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

from clfeval import InputError
from clfeval.sqlgen import CAPABILITIES, DIALECTS, query

GOLDEN = Path(__file__).parent / "golden" / "sqlgen"
UPDATE_GOLDEN = os.environ.get("CLFEVAL_UPDATE_GOLDEN") == "1"
EXAMPLES = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
GROUPS = ["g1", "g2"]
SCORE_CAPS = ("roc_curve", "pr_curve", "det_curve", "auroc", "average_precision")
PROB_CAPS = ("log_loss", "brier", "calibration")


# --------------------------------------------------------------------------- data


class Case:
    """Rows for one example: two group columns (with nulls), labels, a k/8 score, weights."""

    def __init__(self, rows, *, classes, pos_label, weighted):
        self.g1 = [r[0] for r in rows]
        self.g2 = [r[1] for r in rows]
        self.y = np.array([classes[r[2]] for r in rows])
        self.yhat = np.array([classes[r[3]] for r in rows])
        self.s = np.array([r[4] / 8 for r in rows])
        self.w = np.array([float(r[5]) for r in rows])
        self.classes = classes
        self.pos_label = pos_label
        self.weighted = weighted
        self.label_type = pa.string() if isinstance(classes[0], str) else pa.int64()
        self.con: duckdb.DuckDBPyConnection | None = None

    def arrow(self) -> pa.Table:
        return pa.table(
            {
                "g1": pa.array(self.g1, pa.string()),
                "g2": pa.array(self.g2, pa.int64()),
                "y": pa.array(self.y.tolist(), self.label_type),
                "yhat": pa.array(self.yhat.tolist(), self.label_type),
                "s": pa.array(self.s, pa.float64()),
                "w": pa.array(self.w, pa.float64()),
            }
        )

    def groups(self, mask=None):
        """(key, index array) per group, keys sorted with nulls last."""
        keys = sorted(
            {(a, b) for k, (a, b) in enumerate(zip(self.g1, self.g2)) if mask is None or mask[k]},
            key=lambda k: tuple((v is None, v if v is not None else 0) for v in k),
        )
        out = []
        for key in keys:
            idx = [
                k
                for k, gk in enumerate(zip(self.g1, self.g2))
                if gk == key and (mask is None or mask[k])
            ]
            out.append((key, np.array(idx, dtype=int)))
        return out

    def sw(self, idx):
        return self.w[idx] if self.weighted else None

    def args(self, metric: str, **kw) -> dict:
        """query() arguments for the case's table ``preds`` (kw overrides)."""
        base = {
            "table": "preds",
            "y": "y",
            "group_cols": GROUPS,
            "weight": "w" if self.weighted else None,
            "pos_label": self.pos_label,
        }
        role = {"metrics": "yhat", **dict.fromkeys(PROB_CAPS, "proba")}.get(metric, "score")
        if metric in ("counts", "confusion", "report"):
            role = "yhat"
        return base | {role: {"yhat": "yhat"}.get(role, "s")} | kw

    def dead(self, idx) -> bool:
        """All weights zero: scikit-learn refuses such weights, so the group is checked apart."""
        return self.weighted and not self.w[idx].any()

    def yb(self, idx):
        return (self.y[idx] == self.pos_label).astype(int)


@st.composite
def cases(draw, *, binary=False):
    strings = draw(st.booleans())
    k = 2 if binary else draw(st.integers(2, 4))
    classes = ["ant", "bee", "cat", "dog"][:k] if strings else [0, 1, 2, 3][:k]
    row = st.tuples(
        st.sampled_from(["a", "b", None]),
        st.sampled_from([0, 1, None]),
        st.integers(0, k - 1),
        st.integers(0, k - 1),
        st.integers(0, 8),
        st.integers(0, 5),
    )
    rows = draw(st.lists(row, min_size=1, max_size=40))
    pos_label = classes[1] if binary else draw(st.sampled_from(classes))
    return Case(rows, classes=classes, pos_label=pos_label, weighted=draw(st.booleans()))


def run(case: Case, metric: str, **kw) -> list[tuple]:
    """The DuckDB result of `metric` on the case, grouped by g1, g2."""
    if case.con is None:
        case.con = duckdb.connect()
        case.con.register("arrow_preds", case.arrow())
        case.con.execute("CREATE TABLE preds AS SELECT * FROM arrow_preds")
    return case.con.execute(query(metric, **case.args(metric, **kw))).fetchall()


def quiet(fn, *args, **kw):
    """scikit-learn warns on one-class groups and zero divisions; the numbers are checked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def close(a, b) -> bool:
    if isinstance(b, float) and math.isnan(b):
        return a is None
    if b is None or isinstance(b, str) or a is None or isinstance(a, str):
        return a == b
    if math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def assert_rows(actual: list[tuple], expected: list[tuple], what: str = "") -> None:
    assert len(actual) == len(expected), f"{what}: {actual} != {expected}"
    for a, e in zip(actual, expected):
        assert len(a) == len(e)
        assert all(close(x, z) for x, z in zip(a, e)), f"{what}: {a} != {e}\n{actual}\n{expected}"


def check(rows: list[tuple], expected: dict, what: str) -> None:
    """Groups sorted (nulls last) and equal to `expected`; None entries are not compared."""
    keys = [tuple(r[:2]) for r in rows]
    assert keys == sorted(keys, key=lambda k: tuple((v is None, v or 0) for v in k)), what
    got: dict[tuple, list[tuple]] = {}
    for r in rows:
        got.setdefault(tuple(r[:2]), []).append(tuple(r[2:]))
    assert list(got) == list(expected), f"{what}: groups {list(got)} != {list(expected)}"
    for key, exp_rows in expected.items():
        if exp_rows is not None:
            assert_rows(got[key], exp_rows, f"{what} {key}")


# --------------------------------------------------------------------------- scikit-learn side


def _label_rows(case: Case, metric: str, idx, labels, average, zero_division):
    y, yhat, sw = case.y[idx], case.yhat[idx], case.sw(idx)
    zd = np.nan if zero_division is None else zero_division
    if case.dead(idx):  # scikit-learn refuses all-zero weights
        if metric == "counts":
            return [(lab, 0, 0, 0, 0, 0) for lab in labels]
        if metric == "confusion":
            return [(a, p, 0) for a in labels for p in labels]
        return None
    if metric == "counts":
        mcm = quiet(multilabel_confusion_matrix, y, yhat, labels=labels, sample_weight=sw)
        return [
            (lab, m[1, 1], m[0, 1], m[1, 0], m[0, 0], m[1, 1] + m[1, 0])
            for lab, m in zip(labels, mcm)
        ]
    if metric == "confusion":
        cm = quiet(confusion_matrix, y, yhat, labels=labels, sample_weight=sw)
        return [(a, p, cm[i, j]) for i, a in enumerate(labels) for j, p in enumerate(labels)]
    if metric == "report":
        rep = quiet(
            classification_report, y, yhat, sample_weight=sw, output_dict=True, zero_division=zd
        )
        total = float(np.sum(sw)) if sw is not None else len(idx)
        keys = ("precision", "recall", "f1-score")
        rows = [(str(lab), *(rep[str(lab)][k] for k in (*keys, "support"))) for lab in labels]
        rows.append(("accuracy", None, None, rep["accuracy"], total))
        rows += [
            (avg, *(rep[avg][k] for k in keys), total) for avg in ("macro avg", "weighted avg")
        ]
        return rows
    extra = {"pos_label": case.pos_label} if average == "binary" else {}
    kw = {"average": average, "sample_weight": sw, "zero_division": zd, **extra}
    return [
        (
            quiet(accuracy_score, y, yhat, sample_weight=sw),
            quiet(balanced_accuracy_score, y, yhat, sample_weight=sw),
            quiet(precision_score, y, yhat, **kw),
            quiet(recall_score, y, yhat, **kw),
            quiet(f1_score, y, yhat, **kw),
            quiet(matthews_corrcoef, y, yhat, sample_weight=sw),
        )
    ]


def _spec(yt, yp, **kw):
    return recall_score(yt, yp, pos_label=0, zero_division=0.0, **kw)


def _fpr(yt, yp, sample_weight=None):
    neg = yt == 0
    total = neg.sum() if sample_weight is None else sample_weight[neg].sum()
    return 1.0 - _spec(yt, yp, sample_weight=sample_weight) if total > 0 else 0.0


def _npv(yt, yp, **kw):
    return precision_score(yt, yp, pos_label=0, zero_division=0.0, **kw)


def _youden(yt, yp, **kw):
    return recall_score(yt, yp, zero_division=0.0, **kw) + _spec(yt, yp, **kw) - 1.0


# scikit-learn's number for each metric of the thresholds table, in the registry's order
THRESHOLD_METRICS = [
    lambda yt, yp, **kw: precision_score(yt, yp, zero_division=0.0, **kw),
    lambda yt, yp, **kw: recall_score(yt, yp, zero_division=0.0, **kw),
    _spec,
    _fpr,
    _npv,
    lambda yt, yp, **kw: f1_score(yt, yp, zero_division=0.0, **kw),
    lambda yt, yp, **kw: f1_score(yt, yp, zero_division=0.0, **kw),  # fbeta, beta = 1
    accuracy_score,
    balanced_accuracy_score,
    matthews_corrcoef,
    _youden,
]


def _score_rows(case: Case, metric: str, idx, drop):
    yb, s, sw = case.yb(idx), case.s[idx], case.sw(idx)
    if metric == "roc_curve":
        fpr, tpr, thr = quiet(roc_curve, yb, s, sample_weight=sw, drop_intermediate=drop)
        return list(zip(thr, fpr, tpr))
    if metric == "pr_curve":
        prec, rec, thr = quiet(
            precision_recall_curve, yb, s, sample_weight=sw, drop_intermediate=drop
        )
        return [*zip(thr, prec, rec), (None, prec[-1], rec[-1])]
    if metric == "det_curve":
        if len(set(yb.tolist())) < 2:
            return None  # scikit-learn raises; the SQL rates are null (checked separately)
        fpr, fnr, thr = quiet(det_curve, yb, s, sample_weight=sw, drop_intermediate=drop)
        return list(zip(thr, fpr, fnr))
    if metric == "auroc":
        return [(quiet(roc_auc_score, yb, s, sample_weight=sw),)]
    if metric == "average_precision":  # null without positives (scikit-learn: 0.0)
        has_pos = yb.any() if sw is None else (sw[yb == 1] > 0).any()
        return [(quiet(average_precision_score, yb, s, sample_weight=sw) if has_pos else None,)]
    tns, fps, fns, tps, thr = quiet(confusion_matrix_at_thresholds, yb, s, sample_weight=sw)
    cols = [quiet(metric_at_thresholds, yb, s, f, sample_weight=sw)[0] for f in THRESHOLD_METRICS]
    return [
        (thr[k], tps[k], fps[k], fns[k], tns[k], *(c[k] for c in cols)) for k in range(len(thr))
    ]


def _prob_rows(case: Case, metric: str, idx, n_bins):
    yb, p, sw = case.yb(idx), case.s[idx], case.sw(idx)
    if metric in ("log_loss", "brier"):
        if case.dead(idx):
            return [(None,)]
        if metric == "log_loss":
            return [(quiet(log_loss, yb, p, labels=[0, 1], sample_weight=sw),)]
        return [(quiet(brier_score_loss, yb, p, pos_label=1, sample_weight=sw),)]
    reps = sw.astype(int) if sw is not None else np.ones(len(idx), dtype=int)
    if not reps.any():
        return []  # all weights zero: no calibration bin
    ry, rp = np.repeat(yb, reps), np.repeat(p, reps)  # integer weights = repeated rows
    frac, mean = quiet(calibration_curve, ry, rp, n_bins=n_bins, pos_label=1)
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], rp), minlength=n_bins)
    return list(zip(np.flatnonzero(counts), mean, frac, counts[counts > 0]))


def reference(
    case: Case,
    metric: str,
    *,
    drop_intermediate=None,
    n_bins=10,
    average="macro",
    zero_division=0.0,
    **_,
):
    """scikit-learn's rows per group, in the groups the SQL must return (None: not compared)."""
    out: dict[tuple, list[tuple] | None] = {}
    if metric in ("counts", "confusion", "report", "metrics"):
        for key, idx in case.groups():
            labels = sorted(set(case.y[idx].tolist()) | set(case.yhat[idx].tolist()))
            out[key] = _label_rows(case, metric, idx, labels, average, zero_division)
    elif metric in ("log_loss", "brier", "calibration"):
        for key, idx in case.groups():
            rows = _prob_rows(case, metric, idx, n_bins)
            if rows:  # a group whose weights are all zero has no calibration bin
                out[key] = rows
    else:  # scikit-learn's curves drop zero-weight rows first
        drop = drop_intermediate if drop_intermediate is not None else metric == "roc_curve"
        for key, idx in case.groups(mask=case.w != 0 if case.weighted else None):
            out[key] = _score_rows(case, metric, idx, drop)
        if metric in ("auroc", "average_precision"):
            # an area keeps a group whose weights are all 0, as one null row (as the macros)
            for key, _ in case.groups():
                out.setdefault(key, [(None,)])
            out = {k: out[k] for k, _ in case.groups()}
    return out


def check_case(case: Case, metric: str, rows: list[tuple], **kw) -> None:
    expected = reference(case, metric, **kw)
    check(rows, expected, metric)
    if metric == "det_curve":
        assert all(r[3] is None or r[4] is None for r in rows if expected[tuple(r[:2])] is None)
    if metric == "metrics":
        assert all(r[2] is None for r in rows if expected[tuple(r[:2])] is None)


# --------------------------------------------------------------------------- parity on DuckDB


@EXAMPLES
@given(cases())
def test_counts_confusion_report_match_sklearn(case: Case) -> None:
    for metric in ("counts", "confusion", "report"):
        check_case(case, metric, run(case, metric))


@EXAMPLES
@given(cases(), st.sampled_from(["micro", "macro", "weighted"]), st.sampled_from([0.0, 1.0, None]))
def test_label_metrics_match_sklearn(case: Case, average: str, zero_division) -> None:
    kw = {"average": average, "zero_division": zero_division}
    check_case(case, "metrics", run(case, "metrics", **kw), **kw)
    check_case(
        case,
        "report",
        run(case, "report", zero_division=zero_division),
        zero_division=zero_division,
    )


@EXAMPLES
@given(cases(binary=True))
def test_binary_metrics_and_micro_identity(case: Case) -> None:
    check_case(case, "metrics", run(case, "metrics", average="binary"), average="binary")
    for acc, _, p, r, f, _ in (row[2:] for row in run(case, "metrics", average="micro")):
        if acc is not None:  # micro precision = recall = f1 = accuracy for single-label data
            assert math.isclose(p, acc)
            assert math.isclose(r, acc)
            assert math.isclose(f, acc)


@EXAMPLES
@given(cases(), st.booleans())
def test_curves_match_sklearn(case: Case, drop: bool) -> None:
    for metric in ("roc_curve", "pr_curve", "det_curve"):
        check_case(case, metric, run(case, metric, drop_intermediate=drop), drop_intermediate=drop)
    for metric in ("auroc", "average_precision"):
        check_case(case, metric, run(case, metric))


@pytest.mark.parametrize(
    "labels_by_score",
    [
        {8: [1], 7: [0], 6: [0, 0], 5: [0], 4: [1]},  # fp bends while tp is flat: kept
        {k: [k % 2] for k in range(9)},
        {8: [1], 7: [1], 6: [1], 5: [0, 1], 3: [0], 2: [0], 1: [0]},  # collinear runs: dropped
    ],
)
def test_curve_defaults_follow_sklearn(labels_by_score) -> None:
    rows = [("a", 0, y, 0, s, 1) for s, ys in labels_by_score.items() for y in ys]
    case = Case(rows, classes=[0, 1], pos_label=1, weighted=False)
    for metric in ("roc_curve", "pr_curve", "det_curve"):
        got = run(case, metric)
        check_case(case, metric, got)  # None: ROC drops intermediate points, PR and DET do not
    assert run(case, "roc_curve")[0][2] == float("inf")
    assert len(run(case, "pr_curve")) == len(labels_by_score) + 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_thresholds_match_sklearn(case: Case) -> None:
    check_case(case, "thresholds", run(case, "thresholds"))


@EXAMPLES
@given(cases(), st.integers(1, 12))
def test_probability_metrics_match_sklearn(case: Case, n_bins: int) -> None:
    for metric in ("log_loss", "brier"):
        check_case(case, metric, run(case, metric))
    check_case(case, "calibration", run(case, "calibration", n_bins=n_bins), n_bins=n_bins)


def test_log_loss_clips_like_sklearn() -> None:
    rows = [("a", 0, 1, 0, 0, 1), ("a", 0, 0, 0, 8, 1), ("a", 0, 1, 0, 8, 1)]
    case = Case(rows, classes=[0, 1], pos_label=1, weighted=False)
    [(_, _, value)] = run(case, "log_loss")
    assert value == pytest.approx(log_loss([1, 0, 1], [0.0, 1.0, 1.0]), rel=1e-12)
    assert value > 20  # eps = 2.220446049250313e-16, not 1e-15


@EXAMPLES
@given(cases(binary=True))
def test_metrics_with_score_and_proba(case: Case) -> None:
    rows = run(case, "metrics", average="binary", score="s", proba="s")
    check_case(case, "metrics", [r[:8] for r in rows], average="binary")
    for k, metric in enumerate(("auroc", "average_precision", "log_loss", "brier"), start=8):
        ref = reference(case, metric)
        for r in rows:  # a group without scored rows (all weights zero) has null score metrics
            expected = ref[tuple(r[:2])][0][0] if tuple(r[:2]) in ref else None
            assert close(r[k], expected), (metric, r)


# --------------------------------------------------------------------------- null policy


def test_nulls_and_nan_scores_are_left_out() -> None:
    """Aggregate rule: a row with a null in a column the capability reads is left out."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, 1, 0.9, 1.0), (0, 1, 0.4, 2.0), (1, 0, 0.4, 1.0),"
        " (0, 0, 0.1, 1.0), (NULL, 1, 0.5, 1.0), (1, NULL, 0.5, 1.0), (1, 1, NULL, 1.0),"
        " (0, 0, 'NaN'::DOUBLE, 1.0), (1, 1, 0.7, NULL), (0, 1, 0.2, 3.0)) v(y, yhat, s, w)"
    )
    con.execute(
        "CREATE TABLE lab AS FROM t WHERE y IS NOT NULL AND yhat IS NOT NULL AND w IS NOT NULL"
    )
    con.execute(
        "CREATE TABLE sco AS FROM t WHERE y IS NOT NULL AND s IS NOT NULL AND NOT isnan(s) AND w IS NOT NULL"
    )
    assert con.execute("SELECT count(*) FROM lab").fetchone() == (7,)
    assert con.execute("SELECT count(*) FROM sco").fetchone() == (6,)
    for metric in CAPABILITIES:
        if metric == "metrics":
            pairs = [("lab", {"yhat": "yhat"}), ("sco", {"score": "s"}), ("sco", {"proba": "s"})]
        elif metric in ("counts", "confusion", "report"):
            pairs = [("lab", {"yhat": "yhat"})]
        else:
            pairs = [("sco", {"score": "s", "proba": "s"})]
        for clean, kw in pairs:
            dirty = con.execute(query(metric, table="t", y="y", weight="w", **kw)).fetchall()
            cleaned = con.execute(query(metric, table=clean, y="y", weight="w", **kw)).fetchall()
            assert dirty, metric
            assert_rows(dirty, cleaned, metric)


def test_one_class_groups_are_null_and_zero_weight_groups_vanish() -> None:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS FROM (VALUES ('a', 1, 0.3, 1), ('a', 1, 0.6, 2), ('b', 0, 0.2, 1),"
        " ('b', 1, 0.4, 1), ('c', 0, 0.5, 1), ('d', 1, 0.5, 0), ('d', 0, 0.1, 0)) v(g, y, s, w)"
    )
    kw = {"table": "t", "y": "y", "score": "s", "group_cols": "g"}
    rows = con.execute(query("metrics", **kw)).fetchall()  # auroc, ap, then log loss, brier
    assert [r[:3] for r in rows] == [
        ("a", None, 1.0),  # only positives: AUROC undefined, AP = 1
        ("b", 1.0, 1.0),
        ("c", None, None),  # only negatives: both undefined (scikit-learn's AP says 0.0)
        ("d", 1.0, 1.0),
    ]
    weighted = con.execute(query("metrics", weight="w", **kw)).fetchall()
    assert weighted[-1] == ("d", None, None, None, None)  # d's weights are all zero
    roc = con.execute(query("roc_curve", **kw)).fetchall()
    assert [r for r in roc if r[0] == "a"] == [
        ("a", float("inf"), None, 0.0),
        ("a", 0.6, None, 0.5),
        ("a", 0.3, None, 1.0),
    ]


# --------------------------------------------------------------------------- dialects


REPRESENTATIVE = {
    "roc_curve_grouped": (
        "roc_curve",
        {"table": "lake.preds", "y": "label", "score": "score", "group_cols": ["model", "segment"]},
    ),
    "metrics_weighted": (
        "metrics",
        {
            "table": "preds",
            "y": "label",
            "yhat": "pred",
            "score": "score",
            "proba": "p",
            "weight": "n",
            "average": "weighted",
            "group_cols": "model",
        },
    ),
    "report": ("report", {"table": "preds", "y": "label", "yhat": "pred"}),
    "calibration": (
        "calibration",
        {"table": "preds", "y": "label", "proba": "p", "n_bins": 4, "pos_label": "spam"},
    ),
    "confusion_grouped": (
        "confusion",
        {"table": "cat.db.preds", "y": "label", "yhat": "pred", "group_cols": ["model"]},
    ),
    "det_curve": (
        "det_curve",
        {"table": "preds", "y": "label", "score": "score", "drop_intermediate": True},
    ),
    "metrics_per_class": (
        "metrics",
        {
            "table": "preds",
            "y": "label",
            "score": {"a": "p_a", "b": "p_b", "c": "p_c"},
            "multi_class": "ovo",
            "average": "weighted",
            "metrics": ["auroc", "average_precision", "log_loss", "brier"],
            "group_cols": "model",
        },
    ),
    "auroc_partial": (
        "auroc",
        {"table": "preds", "y": "label", "score": "score", "weight": "n", "max_fpr": 0.1},
    ),
}
GOLDEN_DIALECTS = ("bigquery", "snowflake", "trino", "spark", "postgres")


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("metric", CAPABILITIES)
def test_every_dialect_parses_back(metric: str, dialect: str) -> None:
    kw = {"yhat": "pred", "score": "score", "proba": "p", "group_cols": ["model", "seg"]}
    for weight in (None, "n"):
        sql = query(metric, table="lake.preds", y="label", weight=weight, dialect=dialect, **kw)
        statements = sqlglot.parse(sql, read=dialect)
        assert len(statements) == 1
        tree = statements[0]
        assert isinstance(tree, sqlglot.exp.Select)
        assert {t.name for t in tree.find_all(sqlglot.exp.Table) if t.db} == {"preds"}
        assert "/ 0" not in sql


@pytest.mark.parametrize("dialect", GOLDEN_DIALECTS)
@pytest.mark.parametrize("name", sorted(REPRESENTATIVE))
def test_golden_sql(name: str, dialect: str) -> None:
    metric, kw = REPRESENTATIVE[name]
    sql = query(metric, dialect=dialect, **kw) + "\n"
    path = GOLDEN / f"{name}.{dialect}.sql"
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sql, encoding="utf-8")
    assert path.exists(), f"missing {path}; run with CLFEVAL_UPDATE_GOLDEN=1"
    assert sql == path.read_text(encoding="utf-8")


def test_infinity_per_dialect() -> None:
    texts = {d: query("roc_curve", table="t", y="y", score="s", dialect=d) for d in DIALECTS}
    assert "CAST('inf' AS FLOAT64)" in texts["bigquery"]
    assert "INFINITY()" in texts["trino"].upper()
    assert "CAST('inf' AS DOUBLE PRECISION)" in texts["postgres"]
    for d in ("duckdb", "spark", "snowflake"):
        assert "CAST('inf' AS DOUBLE)" in texts[d]
    con = duckdb.connect()
    assert con.execute("SELECT CAST('inf' AS DOUBLE) = 'Infinity'::DOUBLE").fetchone() == (True,)


HOSTILE = [
    "my col",
    'x"; DROP TABLE preds; --',
    "it's",
    "a;b",
    "--c",
    "back`tick",
    "select",
    "Ünïcødé ✓",
    "back\\slash",
    "new\nline",
]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_hostile_identifiers_round_trip(dialect: str) -> None:
    y, s, g = HOSTILE[0], HOSTILE[1], HOSTILE[2:6]
    table = (HOSTILE[6], HOSTILE[7], 'x"; DROP TABLE preds; --')
    for metric in CAPABILITIES:
        sql = query(
            metric,
            table=table,
            y=y,
            yhat=HOSTILE[8],
            score=s,
            proba=s,
            weight=HOSTILE[9],
            group_cols=g,
            pos_label="it's'; --",
            dialect=dialect,
        )
        [tree] = sqlglot.parse(sql, read=dialect)
        names = {i.name for i in tree.find_all(sqlglot.exp.Identifier)}
        used = {y, s, *g} | (
            {HOSTILE[8]} if metric in ("counts", "confusion", "report", "metrics") else set()
        )
        assert used <= names, metric
        tables = {(t.catalog, t.db, t.name) for t in tree.find_all(sqlglot.exp.Table) if t.db}
        assert tables == {table}, metric
        strings = {lit.this for lit in tree.find_all(sqlglot.exp.Literal) if lit.is_string}
        if metric not in ("counts", "confusion", "report"):
            assert "it's'; --" in strings, metric
        assert all(i.quoted for i in tree.find_all(sqlglot.exp.Identifier))


def test_hostile_names_run_on_duckdb() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE preds AS SELECT 1 AS keep_me")
    table = 'x"; DROP TABLE preds; --'
    cols = {"y": HOSTILE[0], "yhat": HOSTILE[2], "s": HOSTILE[4], "g": HOSTILE[6], "w": HOSTILE[7]}
    q = lambda n: '"' + n.replace('"', '""') + '"'  # noqa: E731 - the test's own fixture SQL
    select = ", ".join(f"{c} AS {q(n)}" for c, n in cols.items())
    con.execute(
        f"CREATE TABLE {q(table)} AS SELECT {select} FROM (VALUES (1, 1, 0.9, 'a', 1.0), (0, 1, 0.4, 'a', 2.0),"
        " (1, 0, 0.4, 'b', 1.0), (0, 0, 0.1, 'b', 1.0)) v(y, yhat, s, g, w)"
    )
    con.execute(
        "CREATE TABLE plain AS SELECT * FROM (VALUES (1, 1, 0.9, 'a', 1.0), (0, 1, 0.4, 'a', 2.0),"
        " (1, 0, 0.4, 'b', 1.0), (0, 0, 0.1, 'b', 1.0)) v(y, yhat, s, g, w)"
    )
    for metric in CAPABILITIES:
        hostile = query(
            metric,
            table=table,
            y=cols["y"],
            yhat=cols["yhat"],
            score=cols["s"],
            proba=cols["s"],
            weight=cols["w"],
            group_cols=[cols["g"]],
        )
        plain = query(
            metric,
            table="plain",
            y="y",
            yhat="yhat",
            score="s",
            proba="s",
            weight="w",
            group_cols=["g"],
        )
        result = con.execute(hostile)
        assert result.description[0][0] == cols["g"]
        assert_rows(result.fetchall(), con.execute(plain).fetchall(), metric)
    assert con.execute("SELECT * FROM preds").fetchall() == [(1,)]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kw", "role"),
    [
        ({"metric": "roc"}, "metric"),
        ({"dialect": "mysql"}, "dialect"),
        ({"average": "samples"}, "average"),
        ({"group_cols": ["g", "G"]}, "group_cols"),
        ({"group_cols": ["threshold"]}, "group_cols"),
        ({"group_cols": ["_clf_s"]}, "group_cols"),
        ({"table": "a.b.c.d"}, "table"),
        ({"table": "a..b"}, "table"),
        ({"y": ""}, "y"),
        ({"zero_division": 0.5}, "zero_division"),
        ({"n_bins": 0}, "n_bins"),
        ({"pos_label": None}, "pos_label"),
        ({"score": None}, "score"),
    ],
)
def test_bad_input_raises_input_error(kw: dict, role: str) -> None:
    args = {"metric": "roc_curve", "table": "t", "y": "y", "score": "s"} | kw
    with pytest.raises(InputError) as err:
        query(args.pop("metric"), **args)
    assert err.value.role == role
    assert "\n\nHint: " in str(err.value)
    assert str(err.value)[0].islower()


def test_unknown_metric_suggests_close_match() -> None:
    with pytest.raises(InputError, match="did you mean 'roc_curve'"):
        query("roc_curv", table="t", y="y", score="s")


def test_metrics_needs_a_prediction_column() -> None:
    with pytest.raises(InputError, match="metrics needs yhat, score or proba"):
        query("metrics", table="t", y="y")
