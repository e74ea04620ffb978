"""The SQL macros' own checks: bad input raises a DuckDB error starting with ``clfeval:``.

Everything here runs the macros straight from SQL on a plain DuckDB connection (``sql.load``),
as a user of ``cat sql/*.sql | duckdb`` would, never through the Python wrappers. Each family
of bad input is parametrized over every macro it applies to, the list being read from the SQL
files (and checked against ``clfeval.sql.AGGREGATE_MACROS`` / ``TABLE_MACROS``), so a new
macro cannot be forgotten. The good cases are checked against scikit-learn, and equal-kind
label types (INTEGER vs BIGINT, DOUBLE labels, BOOLEAN vs INTEGER) against the INTEGER result.
The last tests run the files and a few queries in the DuckDB command-line client
(``pip install duckdb-cli``), which is older than the Python package.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve

from clfeval import sql

# --- the macros, from the SQL text --------------------------------------------------------

_CREATED = re.findall(r"CREATE OR REPLACE MACRO (clf_\w+)\((.*?)\) AS( TABLE)?", sql.text(), re.S)
TABLES = sorted(name for name, _, table in _CREATED if table)
AGGREGATE = "/aggregate"  # the key of an aggregate macro named like a table macro (clf_auroc)


def _key(name: str, table: str) -> str:
    return name if table or name not in TABLES else name + AGGREGATE


def macro(key: str) -> str:
    """The macro's SQL name from its key here."""
    return key.removesuffix(AGGREGATE)


AGGREGATES = sorted(_key(name, table) for name, _, table in _CREATED if not table)
PARAMS = {
    _key(name, table): re.findall(r"(\w+)\s*(?::=|,|$)", params.strip())
    for name, params, table in _CREATED
}


def test_the_macro_lists_are_complete():
    assert AGGREGATES
    assert TABLES
    assert {macro(k) for k in AGGREGATES} == set(sql.AGGREGATE_MACROS)
    assert set(TABLES) == set(sql.TABLE_MACROS)
    assert any(k.endswith(AGGREGATE) for k in AGGREGATES)  # clf_auroc: both forms


def spec(name: str) -> sql.Macro:
    return sql.TABLE_MACROS.get(name) or sql.AGGREGATE_MACROS[macro(name)]


# multiclass aggregates: their pos_label := NULL only raises when given (tested in
# test_sql_label_multiclass), so here they take none
NO_POS = {"clf_mcc", "clf_balanced_accuracy", "clf_cohen_kappa"}


def takes(name: str, option: str) -> bool:
    if option == "pos_label" and name in NO_POS:
        return False
    return option in PARAMS[name]


def is_label(name: str) -> bool:
    return spec(name).roles[1:2] == ("yhat",)


# the macros over per-class score columns (a list, not one column) have their own guard tests
# (tests/test_sql_table_multiclass.py), and so have the paired ones over two prediction
# columns (tests/test_uncertainty_sql.py); the families here call (table, y, column)
ONE_COLUMN = [
    m for m in TABLES if not sql.TABLE_MACROS[m].multiclass and not sql.TABLE_MACROS[m].paired
]
WITH_YHAT = [m for m in AGGREGATES + ONE_COLUMN if is_label(m)]
WITH_POS = [m for m in AGGREGATES + ONE_COLUMN if takes(m, "pos_label")]
WITH_LABELS = [m for m in ONE_COLUMN if takes(m, "labels")]
WITH_ZD = [m for m in AGGREGATES + ONE_COLUMN if takes(m, "zero_division")]
WITH_BETA = [m for m in AGGREGATES + ONE_COLUMN if takes(m, "beta")]
WITH_PROBA = [m for m in AGGREGATES + ONE_COLUMN if "proba" in spec(m).roles]
WITH_SCORE = [m for m in ONE_COLUMN if "score" in spec(m).roles]
EVERY = AGGREGATES + ONE_COLUMN


@pytest.mark.parametrize(
    "family", [WITH_YHAT, WITH_POS, WITH_LABELS, WITH_ZD, WITH_BETA, WITH_PROBA, WITH_SCORE]
)
def test_every_family_applies_to_some_macro(family):
    assert family


# --- data and calls -----------------------------------------------------------------------

Y = [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0]
YHAT = [1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0]
S = [0.9, 0.1, 0.4, 0.8, 0.7, 0.2, 0.6, 0.3, 0.6, 0.5, 0.05, 0.35, 0.95, 0.25]
W = [1.0, 2.0, 1.0, 0.0, 3.0, 1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 2.0, 1.0, 1.0]


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    sql.load(c)
    rows = [
        (
            "ab"[i % 2],
            y,
            h,
            s,
            w,
            -5.0 if i == 2 else w,
            math.nan if i == 3 else w,
            math.inf if i == 4 else w,
            1.5 if i == 5 else s,
        )
        for i, (y, h, s, w) in enumerate(zip(Y, YHAT, S, W))
    ]
    c.execute(
        "CREATE TABLE base (g VARCHAR, y INTEGER, yhat INTEGER, s DOUBLE, w DOUBLE, "
        "wneg DOUBLE, wnan DOUBLE, winf DOUBLE, pbad DOUBLE)"
    )
    c.executemany("INSERT INTO base VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    c.execute(
        """
        CREATE TABLE t AS SELECT *,
            s AS p,
            round(w) AS wi,
            CAST(y AS VARCHAR) AS ys, CAST(yhat AS VARCHAR) AS yhats,
            CAST(y AS BIGINT) AS yl, CAST(yhat AS BIGINT) AS yhatl,
            CAST(y AS DOUBLE) AS yd, CAST(yhat AS DOUBLE) AS yhatd,
            y = 1 AS yb, yhat = 1 AS yhatb,
            CAST(s AS VARCHAR) AS stext
        FROM base
        """
    )
    c.execute("CREATE TABLE empty AS FROM t LIMIT 0")
    return c


def call(
    name: str,
    *,
    y: str = "y",
    other: str | None = None,
    table: str = "t",
    weight: str | None = None,
    beta: str | None = None,
    **options: str,
) -> str:
    """The SQL of one macro call; option values are SQL text (``labels="[1, 0]"``). Options
    the macro does not take are left out."""
    if beta is not None:
        options["beta"] = beta
    if spec(name).multiclass:  # a LIST of per-class scores (two classes, labels [0, 1])
        options.setdefault("labels", "[0, 1]")
    if macro(name) == "clf_cv_summary":  # a fold column of each test table (two values)
        fold = "'day'" if table == "preds" else "'yhats'" if "group_cols" in options else "'g'"
        options.setdefault("fold", fold)
    options = {k: v for k, v in options.items() if takes(name, k)}
    roles = spec(name).roles
    if other is None:
        other = {"yhat": "yhat", "score": "s", "proba": "p"}.get(roles[-1])
    if spec(name).multiclass:
        other = f"[{other}, {other}]"
    if name in sql.TABLE_MACROS:
        args = [f"'{table}'", f"'{y}'", f"'{other}'"]
        if weight is not None:
            args.append(f"weight_col := '{weight}'")
        args += [f"{k} := {v}" for k, v in options.items()]
        return f"FROM {macro(name)}({', '.join(args)})"
    args = [y] if len(roles) == 1 else [y, other]
    if takes(name, "beta"):  # clf_fbeta: beta is positional
        args.append(options.pop("beta", "2"))
    if weight is not None:
        args.append(f"weight := {weight}")
    args += [f"{k} := {v}" for k, v in options.items()]
    return f"SELECT {macro(name)}({', '.join(args)}) FROM {table}"


def fails(con: duckdb.DuckDBPyConnection, query: str, *fragments: str) -> str:
    """The message of the clfeval error that ``query`` raises; it contains every fragment."""
    with pytest.raises(duckdb.Error) as err:
        con.sql(query).fetchall()
    message = str(err.value)
    assert "clfeval: " in message, message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def rows(con: duckdb.DuckDBPyConnection, query: str) -> list[tuple]:
    return con.sql(query).fetchall()


def close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is None and b is None
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def same_rows(a: list[tuple], b: list[tuple]) -> bool:
    return len(a) == len(b) and all(
        len(r) == len(s) and all(close(x, z) for x, z in zip(r, s)) for r, s in zip(a, b)
    )


# --- weights ------------------------------------------------------------------------------

BAD_WEIGHTS = [
    ("wneg", "has 1 negative value(s) (min -5.0); weights must be finite and >= 0"),
    ("wnan", "has 1 NaN value(s); weights must be finite and >= 0"),
    ("winf", "has 1 infinite value(s); weights must be finite and >= 0"),
]


@pytest.mark.parametrize(("column", "problem"), BAD_WEIGHTS, ids=["negative", "nan", "inf"])
@pytest.mark.parametrize("name", EVERY)
def test_bad_weights_raise_naming_the_weight(con, name, column, problem):
    if name in sql.TABLE_MACROS:
        fails(con, call(name, weight=column), f"clfeval: column '{column}' (role weight) {problem}")
    else:
        fails(con, call(name, weight=column), f"clfeval: {macro(name)}: weight {problem}")


@pytest.mark.parametrize("name", AGGREGATES)
def test_a_null_weight_leaves_the_row_out(con, name):
    """NaN is an error, NULL is not: the row is left out (aggregate semantics)."""
    kept = "CASE WHEN wnan = wnan THEN w END"  # NULL where wnan is NaN
    con.execute("CREATE OR REPLACE TABLE kept AS FROM t WHERE wnan = wnan")
    assert same_rows(
        rows(con, call(name, weight=kept)), rows(con, call(name, weight="w", table="kept"))
    )


def test_the_briefs_negative_weight_repro(con):
    con.execute(
        "CREATE OR REPLACE TABLE neg AS SELECT * FROM (VALUES (1, 1, 1.0, 0.9), (0, 1, -5.0, 0.4), "
        "(1, 0, 1.0, 0.2), (1, 1, 1.0, 0.7)) v(y, yhat, w, s)"
    )
    fails(con, "SELECT clf_accuracy(y, yhat, weight := w) FROM neg", "clf_accuracy: weight has 1")
    fails(con, "FROM clf_auroc('neg', 'y', 's', weight_col := 'w')", "(min -5.0)")
    fails(con, "FROM clf_report('neg', 'y', 'yhat', weight_col := 'w')", "column 'w'")


# --- labels of different kinds ------------------------------------------------------------


@pytest.mark.parametrize("name", WITH_YHAT)
def test_text_and_number_labels_never_compare(con, name):
    if name in sql.TABLE_MACROS:
        who = "column 'ys' (role y, VARCHAR) and column 'yhat' (role yhat, INTEGER)"
    else:
        who = f"{macro(name)}: y (VARCHAR) and yhat (INTEGER)"
    fails(
        con,
        call(name, y="ys", other="yhat", pos_label="'1'"),
        who,
        "hold different kinds of labels",
        "(text never equals a number)",
    )
    fails(con, call(name, y="y", other="yhats"), "hold different kinds of labels")


@pytest.mark.parametrize("name", [m for m in AGGREGATES if is_label(m)])
def test_aggregate_kind_checks_raise_on_no_rows_too(con, name):
    fails(con, call(name, y="ys", other="yhat", table="empty"), "hold different kinds")


@pytest.mark.parametrize("name", WITH_POS)
def test_pos_label_of_another_kind_than_y_raises(con, name):
    other = "yhats" if is_label(name) else None
    if name in sql.TABLE_MACROS:
        who = "column 'ys' (role y, VARCHAR) and pos_label (INTEGER)"
    else:
        who = f"{macro(name)}: y (VARCHAR) and pos_label (INTEGER)"
    fails(con, call(name, y="ys", other=other), who, "pass pos_label := '1' (text never equals")
    fails(con, call(name, pos_label="'1'"), "and pos_label (VARCHAR)", "pass pos_label := 1")
    fails(con, call(name, pos_label="NULL"), "pos_label is NULL")
    # with pos_label of y's kind, text labels give the numbers of the integer labels
    assert same_rows(
        rows(con, call(name, y="ys", other=other, pos_label="'1'")), rows(con, call(name))
    )


def test_the_briefs_text_label_repro(con):
    con.execute(
        "CREATE OR REPLACE TABLE odd AS SELECT * FROM (VALUES ('1', 0.9), ('01', 0.8), ('0', 0.1), "
        "(' 1', 0.7)) v(y, s)"
    )
    fails(con, "FROM clf_auroc('odd', 'y', 's')", "pass pos_label := '1'")
    assert rows(con, "FROM clf_auroc('odd', 'y', 's', pos_label := '1')") == [(1.0,)]
    fails(con, "SELECT clf_precision(y, y) FROM odd", "y (VARCHAR) and pos_label (INTEGER)")


@pytest.mark.parametrize("name", ["clf_metrics", "clf_confusion", "clf_counts", "clf_report"])
def test_an_unused_pos_label_does_not_break_text_labels(con, name):
    options = {"average": "'macro'"} if name == "clf_metrics" else {}
    text = rows(con, call(name, y="ys", other="yhats", **options))
    numbers = rows(con, call(name, **options))
    if name == "clf_metrics":
        assert same_rows(text, numbers)
        assert same_rows(
            rows(con, call(name, y="ys", other="yhats", pos_label="NULL", **options)), text
        )
    else:
        assert len(text) == len(numbers)


@pytest.mark.parametrize("name", WITH_LABELS)
def test_labels_of_another_kind_than_y_raise(con, name):
    fails(
        con,
        call(name, labels="['0', '1']"),
        "column 'y' (role y, INTEGER) and labels (VARCHAR[])",
        "(text never equals a number)",
    )
    fails(
        con,
        call(name, y="ys", other="yhats", labels="[0, 1]", pos_label="'1'"),
        "and labels (INTEGER[])",
        "pass labels := ['0', '1']",
    )


# frequency weights only (DeLong's variance): whole numbers
WHOLE_WEIGHTS = {"clf_auroc_ci"}
EQUAL_KINDS = [("yl", "yhat"), ("y", "yhatl"), ("yd", "yhatd"), ("yb", "yhat"), ("y", "yhatb")]
KIND_CASES = [
    (name, y, yhat)
    for name in EVERY
    for y, yhat in EQUAL_KINDS
    if is_label(name) or yhat == "yhat"  # one label column: vary y only
]


@pytest.mark.parametrize(("name", "y", "yhat"), KIND_CASES)
def test_labels_of_one_kind_compare_as_before(con, name, y, yhat):
    """INTEGER vs BIGINT, DOUBLE labels, BOOLEAN vs INTEGER: the numbers of INTEGER labels."""
    w = "wi" if name in WHOLE_WEIGHTS else "w"
    got = rows(con, call(name, y=y, other=yhat if is_label(name) else None, weight=w))
    expected = rows(con, call(name, weight=w))
    # the label columns keep their own type (1, 1.0, true); compare what follows them
    skip = {"clf_confusion": 2, "clf_counts": 1, "clf_report": 1}.get(name, 0)
    assert same_rows([r[skip:] for r in got], [r[skip:] for r in expected]), (got, expected)


# --- labels lists -------------------------------------------------------------------------


@pytest.mark.parametrize("name", WITH_LABELS)
def test_bad_labels_lists_raise(con, name):
    fails(con, call(name, labels="[]"), "labels = [] lists no class")
    fails(con, call(name, labels="[1, 1]"), "labels = [1, 1] lists a class more than once")
    fails(con, call(name, labels="[1, NULL]"), "labels = [1, NULL] lists NULL")
    fails(
        con,
        call(name, labels="[7, 9]"),
        "none of labels = [7, 9] occurs in column 'y' (role y) or column 'yhat' (role yhat)",
    )
    rows(con, call(name, labels="[1, 7]"))  # one listed class present is enough
    # a group without any listed class gets zeros (scikit-learn's rule per call), no error
    con.execute("CREATE OR REPLACE TABLE part AS FROM t WHERE g = 'a' OR y = 0")
    rows(con, call(name, table="part", labels="[1]", group_cols="['g']"))


def test_duplicate_labels_no_longer_double_the_support(con):
    fails(
        con,
        "FROM clf_metrics('t', 'y', 'yhat', average := 'micro', labels := [1, 1])",
        "more than once",
    )


# --- options ------------------------------------------------------------------------------

BAD_ZD = ["7", "-1", "0.5", "'nan'::DOUBLE", "'0'", "true"]


@pytest.mark.parametrize("value", BAD_ZD)
@pytest.mark.parametrize("name", WITH_ZD)
def test_zero_division_must_be_0_1_or_null(con, name, value):
    shown = {"'nan'::DOUBLE": "nan", "true": "true"}.get(value, value)
    who = "" if name in sql.TABLE_MACROS else f"{macro(name)}: "
    fails(
        con,
        call(name, zero_division=value),
        f"clfeval: {who}zero_division = {shown} is not 0.0, 1.0 or NULL",
    )


@pytest.mark.parametrize("name", WITH_ZD)
def test_zero_division_0_1_and_null_work(con, name):
    for value in ("0", "1", "0.0", "1.0", "NULL"):
        rows(con, call(name, zero_division=value))


def test_zero_division_7_no_longer_inflates_macro_recall(con):
    fails(
        con,
        "FROM clf_metrics('t', 'y', 'yhat', average := 'macro', zero_division := 7)",
        "zero_division = 7",
    )


BAD_BETA = ["-1", "'nan'::DOUBLE", "NULL", "'2'"]


@pytest.mark.parametrize("value", BAD_BETA)
@pytest.mark.parametrize("name", WITH_BETA)
def test_beta_must_be_a_number_at_least_0(con, name, value):
    shown = {"'nan'::DOUBLE": "nan"}.get(value, value)
    who = "" if name in sql.TABLE_MACROS else f"{macro(name)}: "
    fails(con, call(name, beta=value), f"clfeval: {who}beta = {shown} is not a number >= 0")


def test_beta_0_and_inf_are_precision_and_recall(con):
    def one(q: str) -> float:
        return rows(con, q)[0][0]

    assert one("SELECT clf_fbeta(y, yhat, 0) FROM t") == one("SELECT clf_precision(y, yhat) FROM t")
    assert one("SELECT clf_fbeta(y, yhat, 'inf'::DOUBLE) FROM t") == one(
        "SELECT clf_recall(y, yhat) FROM t"
    )
    table = rows(
        con, "SELECT fbeta, precision, recall FROM clf_thresholds('t', 'y', 's', beta := 0)"
    )
    assert all(close(f, p) for f, p, _ in table)


WITH_BINS = [m for m in AGGREGATES + ONE_COLUMN if takes(m, "n_bins")]


@pytest.mark.parametrize("name", WITH_BINS)
@pytest.mark.parametrize("value", ["0", "1001", "100000000", "2.5", "NULL", "'10'", "true"])
def test_n_bins_must_be_an_integer_from_1_to_1000(con, name, value):
    """Every macro with bins (calibration, both ECE forms), text and booleans included: the
    clfeval message, not DuckDB's binder error on the bin arithmetic."""
    start = time.perf_counter()
    fails(con, call(name, n_bins=value), "n_bins = ", "is not an integer from 1 to 1,000")
    assert time.perf_counter() - start < 10


def test_n_bins_1_and_1000_work(con):
    assert len(rows(con, call("clf_calibration", n_bins="1"))) == 1
    assert len(rows(con, call("clf_calibration", n_bins="1000"))) > 1


def test_average_and_strategy_are_still_checked(con):
    fails(con, call("clf_metrics", average="'mean'"), "average = 'mean' is not one of")
    fails(con, call("clf_calibration", strategy="'even'"), "strategy = 'even'")


# --- probabilities and scores -------------------------------------------------------------


@pytest.mark.parametrize("name", WITH_PROBA)
def test_probabilities_outside_the_unit_interval_raise(con, name):
    if name in sql.TABLE_MACROS:
        fails(
            con,
            call(name, other="pbad"),
            "column 'pbad' (role proba) has 1 value(s) outside [0, 1]",
        )
        fails(con, call(name, other="winf"), "outside [0, 1]")
    else:
        fails(
            con,
            call(name, other="pbad"),
            f"clfeval: {macro(name)} got probabilities outside [0, 1]",
            "max 1.5",
        )
        fails(con, call(name, other="-p"), "outside [0, 1]")
        fails(con, call(name, other="winf"), "outside [0, 1]")
    fails(con, call(name, other="stext"), "holds no numbers")


@pytest.mark.parametrize("name", [m for m in WITH_PROBA if m in AGGREGATES])
def test_nan_probabilities_count_as_null_in_aggregates(con, name):
    nan = rows(con, call(name, other="CASE WHEN wnan = wnan THEN p ELSE 'nan'::DOUBLE END"))
    null = rows(con, call(name, other="CASE WHEN wnan = wnan THEN p END"))
    assert same_rows(nan, null)


def test_nan_probabilities_raise_in_calibration(con):
    fails(con, call("clf_calibration", other="wnan"), "NaN value(s)")


@pytest.mark.parametrize("name", WITH_SCORE)
def test_scores_must_be_numbers(con, name):
    fails(con, call(name, other="stext"), "column 'stext' (role score, VARCHAR) holds no numbers")


def test_calibration_names_its_probability_column(con):
    fails(
        con,
        call("clf_calibration", other="stext"),
        "column 'stext' (role proba, VARCHAR) holds no numbers; probabilities must be numbers",
    )


@pytest.mark.parametrize("name", [*WITH_SCORE, "clf_calibration"])
def test_score_macros_check_their_arguments_on_an_empty_table_too(con, name):
    fails(con, call(name, y="ys", table="empty"), "and pos_label (INTEGER)")
    fails(con, call(name, table="empty", pos_label="NULL"), "pos_label is NULL")


# --- good cases: scikit-learn's numbers ---------------------------------------------------

_y, _h, _s, _w = (np.array(v) for v in (Y, YHAT, S, W))
EXPECTED = {
    "clf_accuracy": skm.accuracy_score(_y, _h, sample_weight=_w),
    "clf_precision": skm.precision_score(_y, _h, sample_weight=_w),
    "clf_recall": skm.recall_score(_y, _h, sample_weight=_w),
    "clf_f1": skm.f1_score(_y, _h, sample_weight=_w),
    "clf_fbeta": skm.fbeta_score(_y, _h, beta=2, sample_weight=_w),
    "clf_specificity": skm.recall_score(_y, _h, pos_label=0, sample_weight=_w),
    "clf_npv": skm.precision_score(_y, _h, pos_label=0, sample_weight=_w),
    "clf_fpr": 1 - skm.recall_score(_y, _h, pos_label=0, sample_weight=_w),
    "clf_fnr": 1 - skm.recall_score(_y, _h, sample_weight=_w),
    "clf_jaccard": skm.jaccard_score(_y, _h, sample_weight=_w),
    "clf_mcc": skm.matthews_corrcoef(_y, _h, sample_weight=_w),
    "clf_cohen_kappa": skm.cohen_kappa_score(_y, _h, sample_weight=_w),
    "clf_balanced_accuracy": skm.balanced_accuracy_score(_y, _h, sample_weight=_w),
    "clf_prevalence": np.average(_y == 1, weights=_w),
    "clf_log_loss": skm.log_loss(_y, _s, sample_weight=_w),
    "clf_brier": skm.brier_score_loss(_y, _s, sample_weight=_w),
    "clf_auroc": skm.roc_auc_score(_y, _s, sample_weight=_w),
    "clf_average_precision": skm.average_precision_score(_y, _s, sample_weight=_w),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_good_input_gives_scikit_learns_numbers(con, name):
    got = rows(con, call(name, weight="w"))
    assert len(got) == 1
    assert got[0][0] == pytest.approx(EXPECTED[name], rel=1e-12, abs=1e-12)


def test_good_tables_give_scikit_learns_numbers(con):
    report = {
        r[0]: r[1:] for r in rows(con, "FROM clf_report('t', 'y', 'yhat', weight_col := 'w')")
    }
    expected = skm.classification_report(_y, _h, sample_weight=_w, output_dict=True)
    assert report["1"][:3] == pytest.approx(
        [expected["1"]["precision"], expected["1"]["recall"], expected["1"]["f1-score"]]
    )
    fpr, tpr, _ = skm.roc_curve(_y, _s, sample_weight=_w)
    curve = rows(con, "FROM clf_roc_curve('t', 'y', 's', weight_col := 'w')")
    assert [r[1] for r in curve] == pytest.approx(list(fpr))
    assert [r[2] for r in curve] == pytest.approx(list(tpr))
    prob_true, prob_pred = calibration_curve(_y, _s, n_bins=4)
    cal = rows(con, "FROM clf_calibration('t', 'y', 'p', n_bins := 4)")
    assert [r[1] for r in cal] == pytest.approx(list(prob_pred))
    assert [r[2] for r in cal] == pytest.approx(list(prob_true))
    cm = rows(con, "FROM clf_confusion('t', 'y', 'yhat', labels := [1, 0])")
    assert [r[2] for r in cm] == skm.confusion_matrix(_y, _h, labels=[1, 0]).ravel().tolist()


def test_bound_parameters_are_checked_like_literals(con):
    with pytest.raises(duckdb.Error, match="clfeval: zero_division = 7"):
        con.execute("FROM clf_report($t, 'y', 'yhat', zero_division := $z)", {"t": "t", "z": 7})
    with pytest.raises(duckdb.Error, match="pos_label \\(VARCHAR\\)"):
        con.execute("FROM clf_auroc($t, 'y', 's', pos_label := $p)", {"t": "t", "p": "1"})
    with pytest.raises(duckdb.Error, match="pos_label is NULL"):
        con.execute("FROM clf_auroc($t, 'y', 's', pos_label := $p)", {"t": "t", "p": None})
    got = con.execute("FROM clf_auroc($t, 'ys', 's', pos_label := $p)", {"t": "t", "p": "1"})
    assert got.fetchall() == [(pytest.approx(skm.roc_auc_score(_y, _s)),)]


# --- the DuckDB command-line client -------------------------------------------------------


def _cli() -> str | None:
    """The duckdb executable of this environment (pip install duckdb-cli), if any."""
    here = os.path.dirname(sys.executable)
    return shutil.which("duckdb", path=here) or shutil.which("duckdb")


CLI = _cli()
# the test extra installs duckdb-cli: under CI (.ci/run) a missing client fails, never skips
needs_cli = pytest.mark.skipif(
    CLI is None and os.environ.get("CI") != "true",
    reason="no duckdb command-line client (pip install duckdb-cli)",
)


def _run(db: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    assert CLI is not None
    return subprocess.run(
        [CLI, str(db), *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


def _json(db: Path, query: str) -> list[dict]:
    done = _run(db, "-json", "-c", query)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout or "[]")


@pytest.fixture(scope="module")
def cli_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("cli") / "x.db"
    done = _run(db, "-bail", stdin=sql.text())
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == ""
    table = (
        "CREATE TABLE preds AS SELECT CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS model, "
        "CAST(i % 2 AS INTEGER) AS day, CAST((i * 7) % 5 < 2 AS INTEGER) AS label, "
        "CAST((i * 3) % 5 < 2 AS INTEGER) AS pred, ((i * 37) % 101) / 100.0 AS score, "
        "CAST(i % 4 AS DOUBLE) AS w FROM range(200) t(i)"
    )
    done = _run(db, "-c", table)
    assert done.returncode == 0, done.stderr
    return db


@needs_cli
def test_cli_is_a_duckdb_client():
    done = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert re.match(r"v\d+\.\d+", done.stdout.strip()), done.stdout


README = [
    "SELECT model, clf_precision(label, pred) AS p, clf_f1(label, pred) AS f, "
    "clf_log_loss(label, score) AS l FROM preds GROUP BY model ORDER BY model",
    "FROM clf_roc_curve('preds', 'label', 'score', group_cols := ['model'])",
    "FROM clf_report('preds', 'label', 'pred', group_cols := ['model', 'day'])",
    "FROM clf_auroc('preds', 'label', 'score', group_cols := ['model'])",
]


@needs_cli
@pytest.mark.parametrize("name", EVERY)
def test_cli_loads_and_runs_every_macro_like_python(cli_db, name):
    other = {"y": None, "yhat": "pred", "score": "score", "proba": "score"}[spec(name).roles[-1]]
    query = call(name, y="label", other=other, table="preds", weight="w")
    got = _json(cli_db, query)
    with duckdb.connect(str(cli_db), read_only=True) as py:  # the file holds the macros
        expected = py.sql(query).fetchall()
    assert len(got) == len(expected)
    for row, exp in zip(got, expected):
        for value, want in zip(row.values(), exp):
            if isinstance(want, float) and math.isinf(want):
                assert str(value).lower() in ("inf", "infinity"), value
            elif isinstance(want, float):
                assert value == pytest.approx(want, rel=1e-12)
            else:
                assert value == want or str(value) == str(want)


@needs_cli
@pytest.mark.parametrize("query", README)
def test_cli_runs_the_readme_queries(cli_db, query):
    assert _json(cli_db, query)


@needs_cli
def test_cli_raises_the_clfeval_errors(cli_db):
    done = _run(cli_db, "-c", "SELECT clf_accuracy(label, pred, weight := -w) FROM preds")
    assert done.returncode != 0
    assert "clfeval: clf_accuracy: weight has 150 negative value(s)" in done.stdout + done.stderr
    done = _run(cli_db, "-c", "FROM clf_auroc('preds', 'model', 'score')")
    assert (
        "clfeval: column 'model' (role y, VARCHAR) and pos_label (INTEGER)"
        in done.stdout + done.stderr
    )
