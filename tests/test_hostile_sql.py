"""Hostile input to the SQL side: the raw macros, clfeval.sql's connections and table names,
DuckDB-only column types, and the portable SQL of clfeval.sql.query.

Raw macros (no Python in between) guard with DuckDB error(): negative or NaN weights and
probabilities outside [0, 1] raise an error containing ``clfeval:``; labels never compare
across kinds (a VARCHAR y against an INTEGER yhat or pos_label is an error, not a cast).
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl
import pytest
from hostile_surfaces import (
    HOSTILE,
    NAN,
    SQL,
    Surface,
    assert_frames,
    base,
    close,
    expect_error,
    ids,
    outcome,
)

import clfeval as ce
from clfeval import _options

sqlglot = pytest.importorskip("sqlglot")


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    c = duckdb.connect()
    ce.sql.load(c)
    c.register("src", base().to_arrow())
    c.execute("CREATE TABLE t AS SELECT * FROM src")
    c.execute("CREATE TABLE keep AS SELECT 1 AS x")
    c.unregister("src")
    return c


def duck_error(con: duckdb.DuckDBPyConnection, sql: str, *says: str) -> str:
    """Run ``sql``: it must fail inside DuckDB with a text containing every part of says."""
    try:
        rows = con.sql(sql).fetchall()
    except duckdb.Error as err:
        text = str(err)
        for part in says:
            assert part in text, f"{part!r} not in {text!r}"
        return text
    pytest.fail(f"no error; the macro returned {rows[:3]!r}")


# --- raw macros: weights -------------------------------------------------------------------------

AGGREGATES = {
    "clf_accuracy": "clf_accuracy(y, yhat, weight := ww)",
    "clf_precision": "clf_precision(y, yhat, weight := ww)",
    "clf_recall": "clf_recall(y, yhat, weight := ww)",
    "clf_f1": "clf_f1(y, yhat, weight := ww)",
    "clf_fbeta": "clf_fbeta(y, yhat, 2, weight := ww)",
    "clf_specificity": "clf_specificity(y, yhat, weight := ww)",
    "clf_npv": "clf_npv(y, yhat, weight := ww)",
    "clf_fpr": "clf_fpr(y, yhat, weight := ww)",
    "clf_fnr": "clf_fnr(y, yhat, weight := ww)",
    "clf_jaccard": "clf_jaccard(y, yhat, weight := ww)",
    "clf_mcc": "clf_mcc(y, yhat, weight := ww)",
    "clf_balanced_accuracy": "clf_balanced_accuracy(y, yhat, weight := ww)",
    "clf_cohen_kappa": "clf_cohen_kappa(y, yhat, weight := ww)",
    "clf_prevalence": "clf_prevalence(y, weight := ww)",
    "clf_log_loss": "clf_log_loss(y, s, weight := ww)",
    "clf_brier": "clf_brier(y, s, weight := ww)",
}
TABLES = {
    "clf_confusion": "'y', 'yhat'",
    "clf_counts": "'y', 'yhat'",
    "clf_report": "'y', 'yhat'",
    "clf_metrics": "'y', 'yhat'",
    "clf_roc_curve": "'y', 's'",
    "clf_pr_curve": "'y', 's'",
    "clf_det_curve": "'y', 's'",
    "clf_thresholds": "'y', 's'",
    "clf_auroc": "'y', 's'",
    "clf_average_precision": "'y', 's'",
    "clf_calibration": "'y', 's'",
    "clf_gain": "'y', 's'",
}
WEIGHTS = {"negative": "-1.0", "nan": "'NaN'::DOUBLE"}


def _weighted_view(con: duckdb.DuckDBPyConnection, bad: str) -> str:
    name = f"w_{bad.replace('-', '_')}"
    con.execute(
        f"CREATE OR REPLACE VIEW {name} AS SELECT *, CASE WHEN y = 0 AND yhat = 0 "
        f"THEN {WEIGHTS[bad]} ELSE w END AS ww FROM t"
    )
    return name


AGG_CASES = [(m, b) for m in AGGREGATES for b in WEIGHTS]


@pytest.mark.parametrize(("macro", "bad"), AGG_CASES, ids=[f"{m}-{b}" for m, b in AGG_CASES])
def test_aggregate_macro_refuses_bad_weights(con, macro: str, bad: str) -> None:
    view = _weighted_view(con, bad)
    duck_error(con, f"SELECT {AGGREGATES[macro]} FROM {view}", "clfeval:")


@pytest.mark.parametrize(("macro", "bad"), AGG_CASES, ids=[f"{m}-{b}" for m, b in AGG_CASES])
def test_aggregate_macro_refuses_bad_weights_per_group(con, macro: str, bad: str) -> None:
    view = _weighted_view(con, bad)
    duck_error(con, f"SELECT g, {AGGREGATES[macro]} FROM {view} GROUP BY g", "clfeval:")


TABLE_CASES = [(m, b) for m in TABLES for b in WEIGHTS]


@pytest.mark.parametrize(("macro", "bad"), TABLE_CASES, ids=[f"{m}-{b}" for m, b in TABLE_CASES])
def test_table_macro_refuses_bad_weights(con, macro: str, bad: str) -> None:
    view = _weighted_view(con, bad)
    duck_error(con, f"FROM {macro}('{view}', {TABLES[macro]}, weight_col := 'ww')", "clfeval:")


# --- raw macros: probabilities --------------------------------------------------------------------

PROBA = {
    "clf_log_loss": "SELECT clf_log_loss(y, pp) FROM {v}",
    "clf_brier": "SELECT clf_brier(y, pp) FROM {v}",
    "clf_log_loss-grouped": "SELECT g, clf_log_loss(y, pp) FROM {v} GROUP BY g",
    "clf_calibration": "FROM clf_calibration('{v}', 'y', 'pp')",
    "clf_calibration-quantile": "FROM clf_calibration('{v}', 'y', 'pp', strategy := 'quantile')",
}
P_VALUES = {"1.5": "1.5", "-0.2": "-0.2", "1+1e-12": "1.000000000001"}
P_CASES = [(m, p) for m in PROBA for p in P_VALUES]


@pytest.mark.parametrize(("macro", "p"), P_CASES, ids=[f"{m}-{p}" for m, p in P_CASES])
def test_probability_macros_refuse_values_outside_0_1(con, macro: str, p: str) -> None:
    con.execute(
        f"CREATE OR REPLACE VIEW pv AS SELECT *, CASE WHEN y = 0 AND yhat = 0 "
        f"THEN {P_VALUES[p]} ELSE s END AS pp FROM t"
    )
    duck_error(con, PROBA[macro].format(v="pv"), "clfeval:")


# --- raw macros: labels never compare across kinds ------------------------------------------------

MIXED = {
    # a VARCHAR y (or yhat) against INTEGER labels or an INTEGER pos_label
    "accuracy-varchar-vs-int": "SELECT clf_accuracy(ys, yhat) FROM lv",
    "f1-varchar-vs-int": "SELECT clf_f1(ys, yhat) FROM lv",
    "mcc-varchar-vs-int": "SELECT clf_mcc(ys, yhat) FROM lv",
    "kappa-varchar-vs-int": "SELECT clf_cohen_kappa(ys, yhat) FROM lv",
    "f1-varchar-default-pos-label": "SELECT clf_f1(ys, yhats) FROM lv",
    "prevalence-varchar-default-pos-label": "SELECT clf_prevalence(ys) FROM lv",
    "log_loss-varchar-default-pos-label": "SELECT clf_log_loss(ys, s) FROM lv",
    "brier-varchar-default-pos-label": "SELECT clf_brier(ys, s) FROM lv",
    "f1-int-text-pos-label": "SELECT clf_f1(y, yhat, pos_label := '1') FROM lv",
    "precision-int-text-pos-label": "SELECT clf_precision(y, yhat, pos_label := '1') FROM lv",
    "prevalence-int-text-pos-label": "SELECT clf_prevalence(y, pos_label := '1') FROM lv",
    "log_loss-int-text-pos-label": "SELECT clf_log_loss(y, s, pos_label := '1') FROM lv",
    "confusion-varchar-vs-int": "FROM clf_confusion('lv', 'ys', 'yhat')",
    "counts-varchar-vs-int": "FROM clf_counts('lv', 'ys', 'yhat')",
    "report-varchar-vs-int": "FROM clf_report('lv', 'ys', 'yhat')",
    "metrics-varchar-vs-int": "FROM clf_metrics('lv', 'ys', 'yhat')",
    "metrics-int-text-pos-label": "FROM clf_metrics('lv', 'y', 'yhat', pos_label := '1')",
    "confusion-int-text-labels": "FROM clf_confusion('lv', 'y', 'yhat', labels := ['0', '1'])",
    "roc-varchar-default-pos-label": "FROM clf_roc_curve('lv', 'ys', 's')",
    "roc-int-text-pos-label": "FROM clf_roc_curve('lv', 'y', 's', pos_label := '1')",
    "auroc-int-text-pos-label": "FROM clf_auroc('lv', 'y', 's', pos_label := '1')",
    "auroc-varchar-default-pos-label": "FROM clf_auroc('lv', 'ys', 's')",
    "thresholds-varchar-default-pos-label": "FROM clf_thresholds('lv', 'ys', 's')",
    "calibration-int-text-pos-label": "FROM clf_calibration('lv', 'y', 's', pos_label := '1')",
    "gain-varchar-default-pos-label": "FROM clf_gain('lv', 'ys', 's')",
}


@pytest.mark.parametrize("case", list(MIXED))
def test_macros_never_compare_labels_across_kinds(con, case: str) -> None:
    """'1' = 1 would be a silent cast ('01' is not 1): every such call is an error."""
    con.execute(
        "CREATE OR REPLACE VIEW lv AS SELECT *, CAST(y AS VARCHAR) AS ys, "
        "CAST(yhat AS VARCHAR) AS yhats FROM t"
    )
    duck_error(con, MIXED[case])


# --- raw macros: options -------------------------------------------------------------------------

MACRO_OPTIONS = {
    "precision-zero-division-7": "SELECT clf_precision(y, yhat, zero_division := 7) FROM t",
    "f1-zero-division-nan": "SELECT clf_f1(y, yhat, zero_division := 'NaN'::DOUBLE) FROM t",
    "metrics-zero-division-7": "FROM clf_metrics('t', 'y', 'yhat', zero_division := 7)",
    "report-zero-division-7": "FROM clf_report('t', 'y', 'yhat', zero_division := 7)",
    "thresholds-zero-division-7": "FROM clf_thresholds('t', 'y', 's', zero_division := 7)",
    "fbeta-negative-beta": "SELECT clf_fbeta(y, yhat, -1) FROM t",
    "fbeta-nan-beta": "SELECT clf_fbeta(y, yhat, 'NaN'::DOUBLE) FROM t",
    "thresholds-negative-beta": "FROM clf_thresholds('t', 'y', 's', beta := -1)",
    "calibration-n-bins-0": "FROM clf_calibration('t', 'y', 's', n_bins := 0)",
    "calibration-n-bins-over-limit": "FROM clf_calibration('t', 'y', 's', n_bins := 1001)",
    "metrics-average": "FROM clf_metrics('t', 'y', 'yhat', average := 'samples')",
    "calibration-strategy": "FROM clf_calibration('t', 'y', 's', strategy := 'x')",
    "confusion-empty-labels": "FROM clf_confusion('t', 'y', 'yhat', labels := [])",
    "confusion-duplicate-labels": "FROM clf_confusion('t', 'y', 'yhat', labels := [1, 0, 1])",
}


@pytest.mark.parametrize("case", list(MACRO_OPTIONS))
def test_macros_refuse_bad_options(con, case: str) -> None:
    """The Python limits hold in SQL too (MAX_BINS is 'also the SQL macros' limit')."""
    duck_error(con, MACRO_OPTIONS[case], "clfeval:")


# --- raw macros: hostile identifiers and table names --------------------------------------------

ODD_NAMES = [HOSTILE, "a'b", 'a"b', "y y", "</script>", "ÿ名", ".*", "select", "S"]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_table_macros_read_odd_column_names_exactly(con, name: str) -> None:
    """Column names are matched exactly (never as a regex): the same AUROC as 's'."""
    quoted = '"' + name.replace('"', '""') + '"'
    con.execute(f"CREATE OR REPLACE TABLE odd AS SELECT y, s AS {quoted}, s AS sy FROM t")
    got = con.execute("FROM clf_auroc('odd', 'y', ?)", [name]).fetchall()
    assert got == con.execute("FROM clf_auroc('t', 'y', 's')").fetchall()


def test_table_macro_with_an_injected_table_name(con) -> None:
    duck_error(con, "FROM clf_auroc('t; DROP TABLE keep', 'y', 's')")
    assert con.execute("SELECT count(*) FROM keep").fetchall() == [(1,)]


# --- clfeval.sql: connections, table names and DuckDB-only types -----------------------------

FRAMES = [s for s in SQL if s.kind != "y"]


@pytest.mark.parametrize("surface", FRAMES, ids=ids(FRAMES))
def test_a_closed_connection_is_an_input_error(surface: Surface) -> None:
    closed = duckdb.connect()
    closed.close()
    expect_error(lambda: surface.call(base(), "y", _x(surface), con=closed), "con")


def _x(s: Surface) -> str:
    return "yhat" if s.kind == "label" else "s"


TABLE_NAMES = [
    (HOSTILE, "cannot be read"),
    ("t; DROP TABLE keep", "cannot be read"),
    ("", "cannot be read"),
    ("nope", "'nope'"),
    ("/no/such/file.parquet", "cannot be read"),
    ('"t', "cannot be read"),
]
NAME_CASES = [(n, says, s) for n, says in TABLE_NAMES for s in FRAMES]


@pytest.mark.parametrize(
    ("name", "says", "surface"), NAME_CASES, ids=[f"{n!r}-{s.name}" for n, says, s in NAME_CASES]
)
def test_bad_table_names(con, name: str, says: str, surface: Surface) -> None:
    expect_error(lambda: surface.call(name, "y", _x(surface), con=con), says)
    assert con.execute("SELECT count(*) FROM keep").fetchall() == [(1,)]


@pytest.mark.parametrize("surface", FRAMES, ids=ids(FRAMES))
def test_qualified_and_quoted_names(con, surface: Surface) -> None:
    plain = surface.call("t", "y", _x(surface), con=con)
    for name in ("main.t", ce.sql.quote("t"), "memory.main.t"):
        assert_frames(surface.call(name, "y", _x(surface), con=con), plain, name)


DUCK_TYPES = {
    "interval-score": ("SELECT y, yhat, INTERVAL (y) DAY AS s, w FROM t", "'s'"),
    "union-label": ("SELECT y::UNION(i INTEGER, v VARCHAR) AS y, yhat, s, w FROM t", "'y'"),
    "map-label": ("SELECT MAP {'a': y} AS y, yhat, s, w FROM t", "'y'"),
    "timestamp-label": (
        "SELECT TIMESTAMP '2020-01-01' + INTERVAL (y) DAY AS y, "
        "TIMESTAMP '2020-01-01' + INTERVAL (yhat) DAY AS yhat, s, w FROM t",
        "'y'",
    ),
    "blob-label": ("SELECT y::VARCHAR::BLOB AS y, yhat::VARCHAR::BLOB AS yhat, s, w FROM t", "'y'"),
    "null-typed-label": ("SELECT NULL AS y, yhat, s, w FROM t", "'y'"),
    "nan-double-label": (
        "SELECT CASE WHEN y = 0 THEN 'NaN'::DOUBLE ELSE y END AS y, yhat::DOUBLE AS yhat, s, w "
        "FROM t",
        "'y'",
    ),
    "negative-decimal-weight": (
        "SELECT y, yhat, s, (w - 1.5)::DECIMAL(10, 2) AS w FROM t",
        "'w'",
    ),
    "varchar-against-int": ("SELECT y::VARCHAR AS y, yhat, s, w FROM t", "'y'"),
}
TYPE_CASES = [(t, s) for t in DUCK_TYPES for s in FRAMES]


@pytest.mark.parametrize(
    ("case", "surface"), TYPE_CASES, ids=[f"{t}-{s.name}" for t, s in TYPE_CASES]
)
def test_duckdb_only_types(con, case: str, surface: Surface) -> None:
    """Types Polars cannot hold (INTERVAL, UNION) or that are no labels: an InputError
    naming the column, never a PanicException from reading the schema."""
    sql, says = DUCK_TYPES[case]
    view = f"dt_{case.replace('-', '_')}"
    con.execute(f"CREATE OR REPLACE VIEW {view} AS {sql}")
    kw: dict[str, Any] = {"weight": "w"} if "weight" in case else {}
    kind, got = outcome(lambda: surface.call(view, "y", _x(surface), con=con, **kw))
    if case == "negative-decimal-weight" or kind == "error":
        assert kind == "error", got
        assert says in str(got), str(got)


def test_huge_integer_labels_in_duckdb(con) -> None:
    """HUGEINT labels against BIGINT: compared as numbers, and the classes come back."""
    con.execute("CREATE OR REPLACE VIEW hv AS SELECT y::HUGEINT AS y, yhat::BIGINT AS yhat FROM t")
    got = ce.sql.confusion_matrix("hv", "y", "yhat", con=con)
    assert [int(v) for v in got["actual"].to_list()] == [0, 0, 1, 1]
    assert got["count"].to_list() == ce.confusion_matrix(base(), "y", "yhat")["count"].to_list()


# --- clfeval.sql.query: the portable SQL -----------------------------------------------------------

Q = ce.sql.query


def _message(fn: Any) -> str:
    return str(expect_error(fn))


QUERY_TWINS = [
    (
        "zero_division=7",
        lambda: Q("metrics", table="t", y="y", yhat="yhat", zero_division=7),
        lambda: _options.zero_division(7),
    ),
    (
        "zero_division=True",
        lambda: Q("metrics", table="t", y="y", yhat="yhat", zero_division=True),
        lambda: _options.zero_division(True),
    ),
    (
        "n_bins=0",
        lambda: Q("calibration", table="t", y="y", proba="s", n_bins=0),
        lambda: _options.n_bins(0),
    ),
    (
        "n_bins=2.5",
        lambda: Q("calibration", table="t", y="y", proba="s", n_bins=2.5),
        lambda: _options.n_bins(2.5),
    ),
    (
        "average='samples'",
        lambda: Q("metrics", table="t", y="y", yhat="yhat", average="samples"),
        lambda: _options.average("samples", ("binary", "micro", "macro", "weighted")),
    ),
    (
        "pos_label=nan",
        lambda: Q("auroc", table="t", y="y", score="s", pos_label=NAN),
        lambda: _options.class_value("pos_label", NAN),
    ),
    (
        "pos_label=[1]",
        lambda: Q("auroc", table="t", y="y", score="s", pos_label=[1]),
        lambda: _options.class_value("pos_label", [1]),
    ),
    (
        "y=''",
        lambda: Q("auroc", table="t", y="", score="s"),
        lambda: _options.column_name("y", ""),
    ),
    (
        "drop_intermediate=1",
        lambda: Q("roc_curve", table="t", y="y", score="s", drop_intermediate=1),
        lambda: _options.flag("drop_intermediate", 1),
    ),
]


@pytest.mark.parametrize(
    ("case", "query", "check"), QUERY_TWINS, ids=[c for c, _, _ in QUERY_TWINS]
)
def test_generated_sql_gives_the_shared_option_message(case: str, query: Any, check: Any) -> None:
    """_options: 'every surface calls these same functions ... the generated SQL and the
    CLI, so one bad option gets one message wherever it is passed'."""
    assert _message(query) == _message(check)


GROUP_COLLISIONS = [
    ("auroc", {"score": "s"}, "y"),
    ("auroc", {"score": "s"}, "s"),
    ("metrics", {"yhat": "yhat"}, "yhat"),
    ("auroc", {"score": "s", "weight": "w"}, "w"),
]


@pytest.mark.parametrize(
    ("metric", "cols", "group"),
    GROUP_COLLISIONS,
    ids=[f"{m}-by-{g}" for m, _, g in GROUP_COLLISIONS],
)
def test_generated_sql_refuses_a_group_column_that_is_read(
    metric: str, cols: dict, group: str
) -> None:
    expect_error(lambda: Q(metric, table="t", y="y", group_cols=[group], **cols), repr(group))


def test_generated_sql_refuses_too_many_bins_before_building(monkeypatch) -> None:
    """n_bins above the library's limit (MAX_BINS, 1,000) is refused before any SQL is
    built; building 1,001 bins takes about a minute, so the builder here refuses to run."""
    from clfeval import sqlgen

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("n_bins=1001 reached the SQL builder")

    monkeypatch.setattr(sqlgen._Builder, "calibration", never)
    expect_error(
        lambda: Q("calibration", table="t", y="y", proba="s", n_bins=_options.MAX_BINS + 1),
        "n_bins",
    )


CAPS = {
    "confusion": {"yhat": "yhat"},
    "counts": {"yhat": "yhat"},
    "report": {"yhat": "yhat"},
    "metrics": {"yhat": "yhat", "score": "s"},
    "thresholds": {"score": "s"},
    "roc_curve": {"score": "s"},
    "pr_curve": {"score": "s"},
    "det_curve": {"score": "s"},
    "auroc": {"score": "s"},
    "average_precision": {"score": "s"},
    "log_loss": {"proba": "s"},
    "brier": {"proba": "s"},
    "calibration": {"proba": "s"},
}
NAMES = {"y": HOSTILE, "yhat": "</script> 'p'", "s": 'sc"ore; --', "w": "w\tñ", "g": "Y"}


@pytest.mark.parametrize("metric", list(CAPS))
def test_generated_sql_with_hostile_names_gives_the_plain_numbers(con, metric: str) -> None:
    odd = base().rename(NAMES)
    con.register("src_odd", odd.to_arrow())
    con.execute('CREATE OR REPLACE TABLE "odd; DROP TABLE keep" AS SELECT * FROM src_odd')
    con.unregister("src_odd")
    cols = {k: NAMES[v] for k, v in CAPS[metric].items()}
    sql = Q(metric, table="odd; DROP TABLE keep", y=NAMES["y"], group_cols=[NAMES["g"]],
            weight=NAMES["w"], **cols)  # fmt: skip
    got = con.sql(sql).fetchall()
    plain = con.sql(Q(metric, table="t", y="y", group_cols=["g"], weight="w", **CAPS[metric]))
    expected = plain.fetchall()
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert all(close(x, z) for x, z in zip(a, b)), (a, b)
    assert con.execute("SELECT count(*) FROM keep").fetchall() == [(1,)]


def test_generated_sql_injected_table_name_is_one_identifier(con) -> None:
    sql = Q("auroc", table="t; DROP TABLE keep; --", y="y", score="s")
    with pytest.raises(duckdb.CatalogException):
        con.sql(sql).fetchall()
    assert con.execute("SELECT count(*) FROM keep").fetchall() == [(1,)]


def test_generated_sql_pos_label_is_a_literal(con) -> None:
    df = pl.DataFrame({"y": ["a'; DROP TABLE keep; --", "b", "b"], "s": [0.2, 0.7, 0.4]})
    con.register("src_pos", df.to_arrow())
    con.execute("CREATE OR REPLACE TABLE pos AS SELECT * FROM src_pos")
    con.unregister("src_pos")
    sql = Q("auroc", table="pos", y="y", score="s", pos_label="a'; DROP TABLE keep; --")
    assert con.sql(sql).fetchall() == [(0.0,)]
    assert con.execute("SELECT count(*) FROM keep").fetchall() == [(1,)]
