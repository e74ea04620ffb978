"""The ``clfeval`` command line: every input kind and format, and one-line errors (exit 2)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from sklearn import metrics as skm

import clfeval as ce
from clfeval import datasets, sqlgen
from clfeval import sql as clf_sql
from clfeval.cli import main
from clfeval.cli._cmd_sql import _sql_literal

ERROR_LINE = re.compile(r"^clfeval: error: .+")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error(code: int, err: str, *needles: str) -> str:
    """Exit code 2 and exactly one stderr line, ``clfeval: error: ...`` containing needles."""
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert ERROR_LINE.match(lines[0]), lines[0]
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def text_of(report: ce.Report) -> str:
    text = str(report)
    return text if text.endswith("\n") else text + "\n"


@pytest.fixture(scope="module")
def patients() -> pl.DataFrame:
    return datasets.patients()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, patients: pl.DataFrame) -> dict[str, Path]:
    """The 20 patients as Parquet, CSV and NDJSON, and in a DuckDB table ``preds``."""
    d = tmp_path_factory.mktemp("cli")
    paths = {"parquet": d / "p.parquet", "csv": d / "p.csv", "ndjson": d / "p.ndjson"}
    patients.write_parquet(paths["parquet"])
    patients.write_csv(paths["csv"])
    patients.write_ndjson(paths["ndjson"])
    paths["db"] = d / "p.duckdb"
    with duckdb.connect(str(paths["db"])) as con:
        con.register("frame", patients.to_arrow())
        con.execute("CREATE TABLE preds AS SELECT * FROM frame")
    return paths


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> tuple[pl.DataFrame, Path]:
    df = datasets.predictions(600, seed=3)
    path = tmp_path_factory.mktemp("grouped") / "preds.parquet"
    df.write_parquet(path)
    return df, path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- formats and input kinds ------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["parquet", "csv", "ndjson"])
def test_text_equals_report(capsys, files, patients, kind):
    code, out, err = run(capsys, "report", files[kind], "--y", "y", "--yhat", "yhat")
    assert (code, err) == (0, "")
    assert out == text_of(ce.report(patients, "y", "yhat"))


def test_labels_give_the_textbook_layout(capsys, files, patients):
    code, out, _ = run(
        capsys,
        "report",
        files["csv"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--labels",
        "1,0",
        "--digits",
        "3",
    )
    assert code == 0
    assert out == text_of(ce.report(patients, "y", "yhat", labels=[1, 0], digits=3))
    first = out.splitlines()[2].split()
    assert first == ["1", "0.778", "0.700", "0.737", "10"]  # the seed's positive-first row


def test_json_is_to_dict_plus_metrics(capsys, files, patients):
    code, out, _ = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["report"] == ce.report(patients, "y", "yhat").to_dict()
    assert (doc["average"], doc["pos_label"]) == ("binary", 1)
    y, yhat = patients["y"].to_list(), patients["yhat"].to_list()
    expected = {
        "accuracy": skm.accuracy_score(y, yhat),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yhat),
        "precision": skm.precision_score(y, yhat),
        "recall": skm.recall_score(y, yhat),
        "f1": skm.f1_score(y, yhat),
        "mcc": skm.matthews_corrcoef(y, yhat),
    }
    assert doc["metrics"].keys() == expected.keys()
    for name, value in expected.items():
        assert doc["metrics"][name] == pytest.approx(value, abs=1e-9), name


def tidy(out: str, by_schema: dict[str, pl.DataType] | None = None) -> pl.DataFrame:
    schema = {
        **(by_schema or {}),
        "section": pl.String,
        "row": pl.String,
        "metric": pl.String,
        "value": pl.Float64,
    }
    return pl.read_csv(io.StringIO(out), schema=schema)


def number(frame: pl.DataFrame, section: str, row: str | None, metric: str) -> float | None:
    hit = frame.filter(
        pl.col("section") == section,
        pl.col("row").eq_missing(row),
        pl.col("metric") == metric,
    )
    assert hit.height == 1, (section, row, metric, hit)
    return hit["value"].item()


def test_csv_carries_everything_json_carries(capsys, files, patients):
    args = ("report", files["parquet"], "--y", "y", "--yhat", "yhat", "--score", "score")
    code, out, err = run(capsys, *args, "--format", "json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    code, out, err = run(capsys, *args, "--format", "csv")
    assert (code, err) == (0, "")
    frame = tidy(out)
    assert frame.columns == ["section", "row", "metric", "value"]
    expected = []
    for row, value in doc["report"].items():
        if isinstance(value, dict):
            expected += [("report", row, metric, v) for metric, v in value.items()]
        else:
            expected.append(("report", row, row, value))
    for metric, v in doc["metrics"].items():
        row = "1" if metric in ("precision", "recall", "f1") else None  # binary: the class
        expected.append(("metrics", row, metric, v))
    for strategy, values in doc["baselines"].items():
        expected += [("baselines", strategy, metric, v) for metric, v in values.items()]
    assert frame.height == len(expected)
    for section, row, metric, v in expected:
        assert number(frame, section, row, metric) == pytest.approx(v, abs=1e-15)
    # the same numbers as the report: accuracy, per-class and score metrics, baselines
    rep = ce.report(patients, "y", "yhat", score="score")
    assert number(frame, "report", "accuracy", "accuracy") == 0.75
    assert number(frame, "report", "1", "precision") == pytest.approx(7 / 9, abs=1e-15)
    assert number(frame, "metrics", None, "auroc") == rep.extras["auroc"].item()
    prior = rep.baselines.filter(pl.col("strategy") == "prior")
    assert number(frame, "baselines", "prior", "log_loss") == prior["log_loss"].item()


def test_csv_average_names_its_row(capsys, files):
    code, out, _ = run(
        capsys,
        "report",
        files["csv"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--format",
        "csv",
        "--average",
        "macro",
    )
    assert code == 0
    frame = tidy(out)
    assert number(frame, "metrics", "macro avg", "f1") == number(
        frame, "report", "macro avg", "f1-score"
    )


def test_duckdb_table(capsys, files, patients):
    code, out, err = run(
        capsys, "report", "--db", files["db"], "--table", "preds", "--y", "y", "--yhat", "yhat"
    )
    assert (code, err) == (0, "")
    assert out == text_of(ce.report(patients, "y", "yhat"))


def test_duckdb_query(capsys, files, patients):
    sql = "SELECT * FROM preds WHERE score > 0.1"
    code, out, _ = run(
        capsys, "report", "--db", files["db"], "--query", sql, "--y", "y", "--yhat", "yhat"
    )
    assert code == 0
    assert out == text_of(ce.report(patients.filter(pl.col("score") > 0.1), "y", "yhat"))


def test_query_without_db_runs_as_given(capsys, files, patients):
    sql = f"SELECT * FROM read_parquet('{files['parquet']}')"
    code, out, _ = run(capsys, "report", "--query", sql, "--y", "y", "--yhat", "yhat")
    assert code == 0
    assert out == text_of(ce.report(patients, "y", "yhat"))


def test_grouped_text_and_json(capsys, grouped):
    df, path = grouped
    code, out, _ = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--by", "model")
    assert code == 0
    assert out == text_of(ce.report(df, "y", "yhat", by="model"))
    assert out.startswith("model=boosted\n")
    code, out, _ = run(
        capsys,
        "report",
        path,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--by",
        "model,region",
        "--format",
        "json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["by"] == ["model", "region"]
    assert len(doc["groups"]) == 6
    for group in doc["groups"]:
        key = group["group"]
        part = df.filter(pl.col("model") == key["model"], pl.col("region") == key["region"])
        assert group["report"] == ce.report(part, "y", "yhat").to_dict()
        assert group["metrics"]["accuracy"] == pytest.approx(
            skm.accuracy_score(part["y"], part["yhat"]), abs=1e-12
        )


def test_grouped_csv_has_group_columns(capsys, grouped):
    df, path = grouped
    args = ("report", path, "--y", "y", "--yhat", "yhat", "--by", "region", "--score", "score")
    code, out, _ = run(capsys, *args, "--format", "csv")
    assert code == 0
    frame = tidy(out, {"region": pl.String})
    assert frame.columns == ["region", "section", "row", "metric", "value"]
    code, out, _ = run(capsys, *args, "--format", "json")
    doc = json.loads(out)
    assert frame["region"].unique().sort().to_list() == sorted(
        g["group"]["region"] for g in doc["groups"]
    )
    for group in doc["groups"]:
        part = frame.filter(pl.col("region") == group["group"]["region"])
        n = sum(len(v) if isinstance(v, dict) else 1 for v in group["report"].values())
        n += len(group["metrics"]) + sum(len(v) for v in group["baselines"].values())
        assert part.height == n
        assert number(part, "metrics", None, "auroc") == group["metrics"]["auroc"]
    table = ce.report(df, "y", "yhat", by="region").table
    north = table.filter(pl.col("region") == "north", pl.col("label") == "1")
    got = frame.filter(pl.col("region") == "north")
    assert number(got, "report", "1", "recall") == north["recall"].item()


def test_weight(capsys, tmp_path, patients):
    df = patients.with_columns(w=pl.int_range(1, 21))
    path = tmp_path / "w.parquet"
    df.write_parquet(path)
    code, out, _ = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--weight", "w")
    assert code == 0
    assert out == text_of(ce.report(df, "y", "yhat", weight="w"))


def test_string_labels_and_pos_label(capsys, tmp_path, patients):
    df = patients.with_columns(
        pl.col("y", "yhat").replace_strict({1: "sick", 0: "healthy"}, return_dtype=pl.String)
    )
    path = tmp_path / "s.csv"
    df.write_csv(path)
    code, out, _ = run(
        capsys,
        "report",
        path,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--pos-label",
        "sick",
        "--format",
        "json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["pos_label"] == "sick"
    assert doc["metrics"]["precision"] == pytest.approx(7 / 9, abs=1e-12)
    assert doc["metrics"]["recall"] == pytest.approx(0.7, abs=1e-12)


def test_bool_labels_parse_as_bool(capsys, tmp_path, patients):
    df = patients.with_columns(pl.col("y", "yhat").cast(pl.Boolean))
    path = tmp_path / "b.parquet"
    df.write_parquet(path)
    code, out, _ = run(
        capsys, "report", path, "--y", "y", "--yhat", "yhat", "--labels", "true,false"
    )
    assert code == 0
    assert out == text_of(ce.report(df, "y", "yhat", labels=[True, False]))


def test_missing_drop_reports_the_count(capsys, tmp_path, patients):
    df = patients.with_columns(
        pl.when(pl.col("id").is_in(["P01", "P10"]))
        .then(None)
        .otherwise(pl.col("yhat"))
        .alias("yhat")
    )
    path = tmp_path / "m.parquet"
    df.write_parquet(path)
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--missing", "drop")
    assert code == 0
    assert out == text_of(ce.report(df, "y", "yhat", missing="drop"))
    assert "2 row(s)" in err
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat")
    assert_one_error(code, err, "'yhat'", "null", "--missing drop")


def test_progress_only_on_a_terminal(capsys, monkeypatch, files):
    args = ("report", files["parquet"], "--y", "y", "--yhat", "yhat")
    code, _, err = run(capsys, *args)
    assert (code, err) == (0, "")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, *args)
    assert code == 0
    lines = err.splitlines()
    assert [re.sub(r"^\[\d+\.\ds\] ", "", line) for line in lines] == [
        f"read {files['parquet']} (20 rows)",
        "report",
    ]


def test_help_exits_zero(capsys):
    assert main(["report", "--help"]) == 0
    assert "--pos-label" in capsys.readouterr().out


# --- score paths (need clfeval's score metrics) -----------------------------------------------


def test_score_adds_score_metrics(capsys, files, patients):
    code, out, _ = run(
        capsys, "report", files["csv"], "--y", "y", "--yhat", "yhat", "--score", "score"
    )
    assert code == 0
    assert out == text_of(ce.report(patients, "y", "yhat", score="score"))
    code, out, _ = run(
        capsys,
        "report",
        files["csv"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--score",
        "score",
        "--format",
        "json",
    )
    m = json.loads(out)["metrics"]
    y, s = patients["y"].to_list(), patients["score"].to_list()
    assert m["auroc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-9)
    assert m["auroc"] == pytest.approx(0.86, abs=1e-12)  # 86 of 100 pairs (seeds 000, 003)
    assert m["log_loss"] == pytest.approx(skm.log_loss(y, s), abs=1e-9)
    assert m["brier"] == pytest.approx(skm.brier_score_loss(y, s), abs=1e-9)


def test_multiclass_proba(capsys, tmp_path):
    df = datasets.predictions_multiclass(300, seed=2).filter(pl.col("model") == "boosted")
    path = tmp_path / "mc.parquet"
    df.write_parquet(path)
    cols = ["p_low", "p_medium", "p_high"]
    code, out, _ = run(
        capsys,
        "report",
        path,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--proba",
        ",".join(cols),
        "--labels",
        "low,medium,high",
    )
    assert code == 0
    expected = ce.report(df, "y", "yhat", score=cols, labels=["low", "medium", "high"])
    assert out == text_of(expected)


def test_proba_columns_need_labels(capsys, tmp_path):
    df = datasets.predictions_multiclass(50)
    path = tmp_path / "mc.parquet"
    df.write_parquet(path)
    code, _, err = run(
        capsys, "report", path, "--y", "y", "--yhat", "yhat", "--proba", "p_low,p_medium,p_high"
    )
    assert_one_error(code, err, "--labels")


def test_html_report(capsys, files, tmp_path):
    out_file = tmp_path / "r.html"
    code, _, _ = run(
        capsys,
        "report",
        files["parquet"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--score",
        "score",
        "--html",
        out_file,
    )
    assert code == 0
    assert "<html" in out_file.read_text(encoding="utf-8")


def test_demo(capsys, tmp_path):
    out_file = tmp_path / "demo.html"
    code, out, _ = run(capsys, "demo", "--html", out_file)
    assert code == 0
    assert "model=boosted" in out
    assert "model=logistic" in out
    assert str(out_file.resolve()) in out
    assert "<html" in out_file.read_text(encoding="utf-8")


# --- bad input: one line on stderr, exit 2 ----------------------------------------------------


def test_missing_file(capsys, tmp_path):
    code, out, err = run(capsys, "report", tmp_path / "nope.parquet", "--y", "y", "--yhat", "p")
    assert out == ""
    assert_one_error(code, err, "nope.parquet", "not found")


def test_missing_column_suggests_a_close_match(capsys, files):
    code, _, err = run(capsys, "report", files["csv"], "--y", "y", "--yhat", "yhatt")
    assert_one_error(code, err, "'yhatt' (yhat) not found", "did you mean 'yhat'?")


def test_string_scores_in_csv(capsys, tmp_path):
    path = write(tmp_path, "bad.csv", "y,yhat,score\n1,1,0.9\n0,0,NA\n1,0,high\n")
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--score", "score")
    line = assert_one_error(code, err, "'score' (score)", "'NA' (row 1)", "'high' (row 2)")
    assert "could not parse" not in line  # Polars' own text never reaches the user


def test_string_scores_in_parquet(capsys, tmp_path):
    path = tmp_path / "bad.parquet"
    pl.DataFrame({"y": [1, 0], "yhat": [1, 0], "score": ["0.9", "0.1"]}).write_parquet(path)
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--score", "score")
    assert_one_error(code, err, "'score' (score)", "not a number")


def test_nan_score(capsys, tmp_path):
    path = write(tmp_path, "nan.csv", "y,yhat,score\n1,1,0.9\n0,0,nan\n1,0,0.2\n")
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--score", "score")
    assert_one_error(code, err, "'score' (score)", "NaN", "--nonfinite drop")


def test_pos_label_not_present(capsys, files):
    code, _, err = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--pos-label", "2"
    )
    assert_one_error(code, err, "--pos-label 2", "[0, 1]")


def test_labels_that_do_not_parse(capsys, files):
    code, _, err = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--labels", "sick,healthy"
    )
    assert_one_error(code, err, "'sick'", "not an integer", "Int64")


def test_late_text_in_a_label_column_is_a_class(capsys, tmp_path):
    rows = ["y,yhat"] + ["1,0"] * 150 + ["x,0"]
    path = write(tmp_path, "late.csv", "\n".join(rows) + "\n")
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat")
    assert (code, err) == (0, "")
    text = pl.DataFrame({"y": ["1"] * 150 + ["x"], "yhat": ["0"] * 151})
    assert out == text_of(ce.report(text, "y", "yhat"))
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--schema", "y=int")
    assert_one_error(code, err, "'y' (y)", "'x' (row 150)", "--schema")


def test_hostile_table_name_leaves_the_table_intact(capsys, files):
    hostile = 'x"; DROP TABLE preds; --'
    code, _, err = run(
        capsys, "report", "--db", files["db"], "--table", hostile, "--y", "y", "--yhat", "yhat"
    )
    assert_one_error(code, err, "not found", "['preds']")
    with duckdb.connect(str(files["db"]), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM preds").fetchone() == (20,)


def test_a_path_as_table_name_is_not_read(capsys, files):
    code, _, err = run(
        capsys,
        "report",
        "--db",
        files["db"],
        "--table",
        files["parquet"],
        "--y",
        "y",
        "--yhat",
        "yhat",
    )
    assert_one_error(code, err, "not found")


def test_unknown_table_suggests_a_close_match(capsys, files):
    code, _, err = run(
        capsys, "report", "--db", files["db"], "--table", "pred", "--y", "y", "--yhat", "yhat"
    )
    assert_one_error(code, err, "'pred'", "did you mean 'preds'?")


def test_query_cannot_write(capsys, files):
    code, _, err = run(
        capsys,
        "report",
        "--db",
        files["db"],
        "--query",
        "DROP TABLE preds",
        "--y",
        "y",
        "--yhat",
        "yhat",
    )
    assert_one_error(code, err, "read-only")
    with duckdb.connect(str(files["db"]), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM preds").fetchone() == (20,)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["report", "{parquet}", "--y", "y"], "--yhat"),
        (["report", "--y", "y", "--yhat", "yhat"], "exactly one input"),
        (["report", "--table", "preds", "--y", "y", "--yhat", "yhat"], "--table needs --db"),
        (
            ["report", "{csv}", "--y", "y", "--yhat", "yhat", "--score", "score", "--proba", "p"],
            "one option",
        ),
        (["report", "{csv}", "--y", "y", "--yhat", "yhat", "--format", "xml"], "invalid choice"),
        (["report", "{csv}", "--y", "y", "--yhat", "yhat", "--missing", "keep"], "invalid choice"),
        (["report", "{junk}", "--y", "y", "--yhat", "yhat"], "cannot read"),
        (["report", "{txt}", "--y", "y", "--yhat", "yhat"], "--input-format"),
        (
            ["report", "--db", "{parquet}", "--table", "t", "--y", "y", "--yhat", "yhat"],
            "DuckDB database",
        ),
        (["report", "--db", "{nodb}", "--table", "t", "--y", "y", "--yhat", "yhat"], "not found"),
        (["report", "{csv}", "--y", "y", "--yhat", "yhat", "--digits", "-1"], "0 to 15"),
        (["nonsense"], "invalid choice"),
        ([], "required"),
        (["sql", "--table", "t"], "--metric"),
        (["sql", "--metric", "auroc", "--table", "t"], "--y"),
        (["sql", "--metric", "roc", "--table", "t", "--y", "y", "--score", "s"], "metric"),
    ],
)
def test_usage_and_input_errors(capsys, files, tmp_path, argv, needle):
    junk = write(tmp_path, "junk.parquet", "not parquet")
    txt = write(tmp_path, "p.txt", "y,yhat\n1,1\n")
    paths = {
        **{k: str(v) for k, v in files.items()},
        "junk": str(junk),
        "txt": str(txt),
        "nodb": str(tmp_path / "nope.duckdb"),
    }
    code, _, err = run(capsys, *[a.format(**paths) for a in argv])
    assert_one_error(code, err, needle)


# --- sql --------------------------------------------------------------------------------------


def test_sql_prints_the_macros(capsys):
    code, out, _ = run(capsys, "sql")
    assert code == 0
    assert out.rstrip("\n") == clf_sql.text().rstrip("\n")


def test_sql_install(capsys, tmp_path, patients):
    db = tmp_path / "m.duckdb"
    code, out, _ = run(capsys, "sql", "--install", db)
    assert code == 0
    assert str(db) in out
    with duckdb.connect(str(db)) as con:
        con.register("frame", patients.to_arrow())
        got = con.execute("SELECT clf_accuracy(y, yhat) FROM frame").fetchone()
    assert got == (0.75,)


def test_sql_generates_a_query(capsys):
    argv = [
        "sql",
        "--metric",
        "auroc",
        "--table",
        "lake.preds",
        "--y",
        "label",
        "--score",
        "p",
        "--group-cols",
        "model,region",
        "--dialect",
        "spark",
        "--pos-label",
        "'yes'",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    expected = sqlgen.query(
        "auroc",
        table="lake.preds",
        y="label",
        score="p",
        group_cols=["model", "region"],
        dialect="spark",
        pos_label="yes",
    )
    assert out.rstrip("\n") == expected


def test_sql_pos_label_literals():
    assert _sql_literal("1") == 1
    assert _sql_literal("-2") == -2
    assert _sql_literal("'1'") == "1"
    assert _sql_literal("true") is True
    assert _sql_literal("spam") == "spam"


# --- the installed executable -----------------------------------------------------------------


def _command() -> list[str]:
    exe = shutil.which("clfeval", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "clfeval"]


def test_installed_executable(files, patients):
    done = subprocess.run(
        [*_command(), "report", str(files["csv"]), "--y", "y", "--yhat", "yhat"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == text_of(ce.report(patients, "y", "yhat"))


def test_module_entry_point_error(files):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clfeval",
            "report",
            str(files["csv"]),
            "--y",
            "y",
            "--yhat",
            "nope",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_error(done.returncode, done.stderr, "'nope' (yhat) not found")


# --- output never lands on input --------------------------------------------------------------

MARKER = '<meta name="generator" content="clfeval">'


@pytest.mark.parametrize("kind", ["parquet", "csv", "ndjson"])
def test_html_onto_the_input_is_refused(capsys, tmp_path, patients, kind):
    path = tmp_path / f"p.{kind}"
    getattr(patients, f"write_{kind}")(path)
    before = path.read_bytes()
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--html", path)
    assert out == ""
    assert_one_error(code, err, "--html", ".html")
    assert path.read_bytes() == before


def test_html_onto_an_input_named_html_is_refused(capsys, tmp_path, patients):
    path = tmp_path / "data.html"
    patients.write_csv(path)
    before = path.read_bytes()
    code, _, err = run(
        capsys,
        "report",
        path,
        "--input-format",
        "csv",
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--html",
        path,
    )
    assert_one_error(code, err, "is the input", "destroy the data")
    assert path.read_bytes() == before


def test_html_through_a_symlink_to_the_input_is_refused(capsys, tmp_path, patients):
    data = tmp_path / "p.csv"
    patients.write_csv(data)
    link = tmp_path / "link.html"
    link.symlink_to(data)
    before = data.read_bytes()
    code, _, err = run(capsys, "report", data, "--y", "y", "--yhat", "yhat", "--html", link)
    assert_one_error(code, err, "is the input")
    assert data.read_bytes() == before


def test_html_onto_the_db_file_is_refused(capsys, tmp_path, files):
    db = tmp_path / "db.html"  # a DuckDB file with an HTML name
    shutil.copy(files["db"], db)
    before = db.read_bytes()
    code, _, err = run(
        capsys,
        "report",
        "--db",
        db,
        "--table",
        "preds",
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--html",
        db,
    )
    assert_one_error(code, err, "is the input")
    assert db.read_bytes() == before


def test_html_inside_an_input_directory_is_refused(capsys, tmp_path, patients):
    d = tmp_path / "dataset"
    d.mkdir()
    patients.write_parquet(d / "part-0.parquet")
    code, _, err = run(
        capsys,
        "report",
        d,
        "--input-format",
        "parquet",
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--html",
        d / "r.html",
    )
    assert_one_error(code, err, "inside the input directory")
    assert not (d / "r.html").exists()


def test_html_never_replaces_a_page_clfeval_did_not_write(capsys, tmp_path, files):
    mine = tmp_path / "notes.html"
    mine.write_text("<html><body>my notes</body></html>", encoding="utf-8")
    args = ("report", files["parquet"], "--y", "y", "--yhat", "yhat", "--html")
    code, out, err = run(capsys, *args, mine)
    assert out == ""  # refused before anything is read or printed
    assert_one_error(code, err, "not a page clfeval wrote", "remove the file")
    assert mine.read_text(encoding="utf-8") == "<html><body>my notes</body></html>"
    page = tmp_path / "r.html"
    assert run(capsys, *args, page)[0] == 0
    assert MARKER in page.read_text(encoding="utf-8")[:2000]
    first = page.read_text(encoding="utf-8")
    code, _, err = run(capsys, *args, page)  # clfeval's own page is replaced
    assert code == 0
    assert f"wrote {page}" in err
    assert page.read_text(encoding="utf-8") == first
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("out", ["report.txt", "report", "report.html.bak", "r.parquet"])
def test_html_needs_an_html_name(capsys, tmp_path, files, out):
    code, _, err = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--html", tmp_path / out
    )
    assert_one_error(code, err, ".html or .htm")
    assert not (tmp_path / out).exists()


def test_html_upper_case_suffix_and_htm(capsys, tmp_path, files):
    for name in ("R.HTML", "r.htm"):
        code, _, _ = run(
            capsys,
            "report",
            files["parquet"],
            "--y",
            "y",
            "--yhat",
            "yhat",
            "--html",
            tmp_path / name,
        )
        assert code == 0
        assert MARKER in (tmp_path / name).read_text(encoding="utf-8")


def test_demo_refuses_data_and_foreign_pages(capsys, tmp_path, patients, monkeypatch):
    data = tmp_path / "p.parquet"
    patients.write_parquet(data)
    before = data.read_bytes()
    code, out, err = run(capsys, "demo", "--html", data)
    assert out == ""
    assert_one_error(code, err, ".html or .htm")
    assert data.read_bytes() == before
    monkeypatch.chdir(tmp_path)
    Path("clfeval-demo.html").write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "demo")
    assert_one_error(code, err, "clfeval-demo.html", "not a page clfeval wrote")
    assert Path("clfeval-demo.html").read_text(encoding="utf-8") == "mine"


def test_stdout_appending_to_the_input_is_refused(tmp_path, patients):
    data = tmp_path / "p.csv"
    patients.write_csv(data)
    before = data.read_bytes()
    with open(data, "ab") as sink:
        done = subprocess.run(
            [*_command(), "report", str(data), "--y", "y", "--yhat", "yhat"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert_one_error(done.returncode, done.stderr, "standard output is the input file")
    assert data.read_bytes() == before


# --- sql --install ----------------------------------------------------------------------------


def _clf_macros(db: Path) -> set[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "SELECT DISTINCT function_name FROM duckdb_functions() "
            "WHERE starts_with(function_name, 'clf_')"
        ).fetchall()
    return {r[0] for r in rows}


def test_sql_install_refuses_a_file_that_is_not_duckdb(capsys, tmp_path, files):
    for name, content in (("preds.csv", files["csv"].read_bytes()), ("empty.db", b"")):
        path = tmp_path / name
        path.write_bytes(content)
        code, out, err = run(capsys, "sql", "--install", path)
        assert out == ""
        assert_one_error(code, err, name, "not a DuckDB database file")
        assert path.read_bytes() == content
    code, _, err = run(capsys, "sql", "--install", tmp_path)
    assert_one_error(code, err, "is a directory")
    code, _, err = run(capsys, "sql", "--install", tmp_path / "no" / "m.duckdb")
    assert_one_error(code, err, "does not exist")
    code, _, err = run(capsys, "sql", "--install", ":memory:")
    assert_one_error(code, err, "lost")


def test_sql_install_counts_and_checks_the_macros(capsys, tmp_path, patients):
    db = tmp_path / "m.duckdb"
    code, out, _ = run(capsys, "sql", "--install", db)
    assert code == 0
    macros = _clf_macros(db)
    assert "clf_roc_curve" in macros
    public = {m for m in macros if not m.startswith("clf__")}
    n = int(re.search(r"installed (\d+) clfeval macros", out).group(1))
    assert n == len(macros) >= len(public) > 10
    assert "a new database" in out
    with duckdb.connect(str(db)) as con:  # an existing DuckDB file keeps its tables
        con.register("frame", patients.to_arrow())
        con.execute("CREATE TABLE preds AS SELECT * FROM frame")
    code, out, _ = run(capsys, "sql", "--install", db)
    assert code == 0
    assert "a new database" not in out
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT clf_accuracy(y, yhat) FROM preds").fetchone() == (0.75,)


def test_duckdb_files_carry_the_magic(tmp_path):
    db = tmp_path / "x.duckdb"
    duckdb.connect(str(db)).close()
    assert db.read_bytes()[8:12] == b"DUCK"


# --- CSV labels are text ----------------------------------------------------------------------


@pytest.fixture
def padded(tmp_path: Path) -> Path:
    """01 and 1, 00 and 0: four classes as text, two as integers."""
    return write(tmp_path, "padded.csv", "y,yhat,g\n01,1,a\n1,1,a\n00,0,b\n0,0,b\n1,01,b\n")


def test_csv_labels_are_read_as_text(capsys, padded):
    code, out, err = run(capsys, "report", padded, "--y", "y", "--yhat", "yhat", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["report"]["accuracy"] == pytest.approx(0.4)
    assert doc["metrics"]["accuracy"] == pytest.approx(0.4)
    assert {"0", "00", "01", "1"} <= doc["report"].keys()
    assert "note" in doc
    assert "4 classes" in doc["note"]
    assert "4 classes" in err  # the note is also said on stderr
    code, out, _ = run(
        capsys,
        "report",
        padded,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--schema",
        "y=int",
        "--schema",
        "yhat=int",
        "--format",
        "json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["report"]["accuracy"] == 1.0
    assert (doc["average"], doc["pos_label"]) == ("binary", 1)


def test_csv_group_columns_are_text(capsys, tmp_path):
    path = write(tmp_path, "g.csv", "y,yhat,g\n1,1,01\n0,0,1\n1,0,01\n0,1,1\n")
    code, out, _ = run(
        capsys, "report", path, "--y", "y", "--yhat", "yhat", "--by", "g", "--format", "json"
    )
    assert code == 0
    assert [g["group"]["g"] for g in json.loads(out)["groups"]] == ["01", "1"]


def test_schema_types_and_errors(capsys, padded):
    args = ("report", padded, "--y", "y", "--yhat", "yhat")
    code, _, _ = run(capsys, *args, "--schema", "y=int,yhat=int,g=str")
    assert code == 0
    for value, needle in (
        ("y=integer", "unknown type 'integer'"),
        ("nope=int", "'nope'"),
        ("y", "COL=TYPE"),
        ("=int", "COL=TYPE"),
        ("y=bool", "true or false"),
        ("y=float", "Float64"),  # labels must be integral: the library says so
    ):
        code, _, err = run(capsys, *args, "--schema", value)
        if needle == "Float64":
            assert code in (0, 2)
            continue
        assert_one_error(code, err, needle)


def test_schema_is_for_text_formats_only(capsys, files):
    code, _, err = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--schema", "y=int"
    )
    assert_one_error(code, err, "--schema", "Parquet")
    code, _, err = run(
        capsys,
        "report",
        "--db",
        files["db"],
        "--table",
        "preds",
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--schema",
        "y=int",
    )
    assert_one_error(code, err, "--schema", "DuckDB")


def test_text_labels_need_no_pos_label_for_the_text_report(capsys, tmp_path, patients):
    df = patients.with_columns(
        pl.col("y", "yhat").replace_strict({1: "sick", 0: "healthy"}, return_dtype=pl.String)
    )
    path = tmp_path / "s.csv"
    df.write_csv(path)
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat")
    assert (code, err) == (0, "")
    assert out == text_of(ce.report(df, "y", "yhat"))
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert "precision" not in doc["metrics"]
    assert doc["metrics"]["accuracy"] == 0.75
    assert "--pos-label" in doc["note"]
    assert "'1'" in doc["note"]
    code, _, err = run(
        capsys, "report", path, "--y", "y", "--yhat", "yhat", "--score", "score"
    )  # a binary score needs the positive class
    assert_one_error(code, err, "'1'", "--pos-label")


def test_text_zero_one_labels_default_to_the_text_one(capsys, files, patients):
    code, out, _ = run(
        capsys,
        "report",
        files["csv"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--score",
        "score",
        "--format",
        "json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["pos_label"] == "1"
    assert doc["metrics"]["auroc"] == pytest.approx(0.86, abs=1e-12)
    assert doc["metrics"]["precision"] == pytest.approx(7 / 9, abs=1e-12)


def test_ndjson_keeps_json_types(capsys, tmp_path):
    path = tmp_path / "t.ndjson"
    rows = [{"y": "01", "yhat": "1"}, {"y": "1", "yhat": "1"}, {"y": "0", "yhat": "0"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, _ = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--format", "json")
    assert code == 0
    assert json.loads(out)["report"]["accuracy"] == pytest.approx(2 / 3)


def test_ndjson_mixing_strings_and_numbers_is_refused(capsys, tmp_path):
    path = tmp_path / "m.ndjson"
    rows = [{"y": "1", "yhat": "1"}, {"y": 1, "yhat": "0"}, {"y": "0", "yhat": "0"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat")
    assert_one_error(code, err, "'y' (y)", "string", "number")
    code, _, _ = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--schema", "y=str")
    assert code == 0  # asked for: the numbers are read as text


# --- --average --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> tuple[pl.DataFrame, Path]:
    df = datasets.predictions_multiclass(300, seed=4).filter(pl.col("model") == "boosted")
    path = tmp_path_factory.mktemp("three") / "mc.parquet"
    df.write_parquet(path)
    return df, path


def test_multiclass_without_average_leaves_the_averaged_metrics_out(capsys, three):
    df, path = three
    code, out, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["average"] is None
    assert "3 classes" in doc["note"]
    assert "--average macro" in doc["note"]
    assert set(doc["metrics"]) == {"accuracy", "balanced_accuracy", "mcc"}
    assert doc["metrics"]["accuracy"] == pytest.approx(skm.accuracy_score(df["y"], df["yhat"]))
    assert err.startswith("clfeval: note:")


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_average_matches_sklearn(capsys, three, average):
    df, path = three
    code, out, err = run(
        capsys,
        "report",
        path,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--format",
        "json",
        "--average",
        average,
    )
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["average"] == average
    assert "note" not in doc
    y, yhat = df["y"].to_list(), df["yhat"].to_list()
    assert doc["metrics"]["f1"] == pytest.approx(skm.f1_score(y, yhat, average=average))
    assert doc["metrics"]["recall"] == pytest.approx(skm.recall_score(y, yhat, average=average))


def test_average_binary_on_multiclass_names_the_flag(capsys, three):
    _, path = three
    code, _, err = run(
        capsys,
        "report",
        path,
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--format",
        "csv",
        "--average",
        "binary",
    )
    line = assert_one_error(code, err, "--average binary", "--average macro")
    assert "average=" not in line


def test_average_is_checked_by_the_shared_check(capsys, files):
    from clfeval import _options

    code, _, err = run(
        capsys,
        "report",
        files["parquet"],
        "--y",
        "y",
        "--yhat",
        "yhat",
        "--format",
        "json",
        "--average",
        "mean",
    )
    line = assert_one_error(code, err, "--average 'mean'")
    with pytest.raises(ce.InputError) as raised:
        _options.average("mean", allowed=("binary", "micro", "macro", "weighted"))
    assert raised.value.message.replace("average=", "--average ") in line
    code, _, err = run(
        capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--average", "macro"
    )
    assert_one_error(code, err, "--average", "text report")


def test_digits_is_checked_by_the_shared_check(capsys, files):
    for value in ("16", "-1", "two", "", "1.5"):
        code, _, err = run(
            capsys, "report", files["parquet"], "--y", "y", "--yhat", "yhat", "--digits", value
        )
        assert_one_error(code, err, "--digits", "0 to 15")


def test_sql_metrics_default_to_binary(capsys):
    argv = ["sql", "--metric", "metrics", "--table", "t", "--y", "y", "--yhat", "p"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    expected = sqlgen.query("metrics", table="t", y="y", yhat="p", average="binary")
    assert out.rstrip("\n") == expected
    code, out, _ = run(capsys, *argv, "--average", "macro")
    assert out.rstrip("\n") == sqlgen.query("metrics", table="t", y="y", yhat="p", average="macro")
    assert main(["sql", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "binary (default)" in help_text
    assert "macro (default)" not in help_text
    code, _, err = run(capsys, *argv, "--average", "mean")
    assert_one_error(code, err, "--average 'mean'")


def test_sql_metrics_binary_equals_the_library(capsys, patients):
    code, out, _ = run(
        capsys, "sql", "--metric", "metrics", "--table", "frame", "--y", "y", "--yhat", "yhat"
    )
    assert code == 0
    with duckdb.connect() as con:
        con.register("frame", patients.to_arrow())
        got = con.sql(out).pl()
    lib = ce.metrics(patients, "y", "yhat")
    for name in ("precision", "recall", "f1"):
        assert got[name].item() == pytest.approx(lib[name].item(), abs=1e-12)


# --- sqlglot is optional ----------------------------------------------------------------------


def test_sql_metric_without_sqlglot_is_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "sqlglot", None)  # import sqlglot raises ImportError
    code, out, err = run(
        capsys,
        "sql",
        "--dialect",
        "spark",
        "--metric",
        "report",
        "--table",
        "t",
        "--y",
        "y",
        "--yhat",
        "p",
    )
    assert out == ""
    assert_one_error(code, err, "sqlglot", "pip install 'clfeval[warehouse]'")


BLOCK_SQLGLOT = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "sqlglot" or name.startswith("sqlglot."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Block())
from clfeval.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sql_metric_without_sqlglot_in_a_fresh_interpreter():
    done = subprocess.run(
        [
            *(sys.executable, "-c", BLOCK_SQLGLOT, "sql", "--dialect", "spark"),
            *("--metric", "report", "--table", "t", "--y", "y", "--yhat", "p"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout == ""
    assert_one_error(done.returncode, done.stderr, "sqlglot", "clfeval[warehouse]")
    # the rest of 'clfeval sql' needs no sqlglot
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_SQLGLOT, "sql"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "clf_roc_curve" in done.stdout


# --- a closed pipe ends quietly ---------------------------------------------------------------


def test_sql_into_head_ends_quietly():
    cmd = " ".join(f"'{c}'" for c in _command())
    done = subprocess.run(
        f'{cmd} sql | head -1; echo "status=${{PIPESTATUS[0]}}"',
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stderr == ""
    first, status = done.stdout.splitlines()
    assert first.startswith("--")
    assert status in ("status=0", "status=141")


def test_reader_closing_the_pipe_gives_141_and_no_message():
    with subprocess.Popen(
        [*_command(), "sql"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.close()  # the reader goes away before clfeval writes
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 141
    assert err == b""


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_closed_stdout_still_writes_the_page(capsys, monkeypatch, files, tmp_path):
    page = tmp_path / "r.html"
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    code = main(
        ["report", str(files["parquet"]), "--y", "y", "--yhat", "yhat", "--html", str(page)]
    )
    err = capsys.readouterr().err
    assert code == 141
    assert "error" not in err
    assert MARKER in page.read_text(encoding="utf-8")


# --- DuckDB views -----------------------------------------------------------------------------


@pytest.fixture
def views(tmp_path: Path, patients: pl.DataFrame, monkeypatch: pytest.MonkeyPatch) -> Path:
    """views.db in tmp_path with a table and views over Parquet and CSV, absolute and relative
    (made from tmp_path, so the relative ones resolve there)."""
    monkeypatch.chdir(tmp_path)
    patients.write_parquet("p.parquet")
    patients.write_csv("p.csv")
    with duckdb.connect("views.db") as con:
        con.execute("CREATE TABLE t AS FROM read_parquet('p.parquet')")
        con.execute(f"CREATE VIEW v_abs AS FROM read_parquet('{tmp_path / 'p.parquet'}')")
        con.execute("CREATE VIEW v_rel AS FROM read_parquet('p.parquet')")
        con.execute(f"CREATE VIEW v_csv_abs AS FROM read_csv('{tmp_path / 'p.csv'}')")
        con.execute("CREATE VIEW v_csv_rel AS FROM read_csv('p.csv')")
        con.execute("CREATE SCHEMA lake")
        con.execute('CREATE VIEW lake."odd.name" AS FROM t')
        con.execute('CREATE VIEW "My View" AS FROM t')
    return tmp_path / "views.db"


@pytest.mark.parametrize(
    "table",
    [
        *("t", "v_abs", "v_rel", "v_csv_abs", "v_csv_rel", "V_ABS", "main.v_rel"),
        *("views.main.v_abs", "lake.odd.name", 'lake."odd.name"', "My View", '"My View"'),
    ],
)
def test_views_over_files_are_read(capsys, views, patients, table):
    code, out, err = run(
        capsys, "report", "--db", views, "--table", table, "--y", "y", "--yhat", "yhat"
    )
    assert (code, err) == (0, "")
    assert out == text_of(ce.report(patients, "y", "yhat"))


def test_a_relative_view_elsewhere_says_why(capsys, views, tmp_path, monkeypatch):
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    code, _, err = run(
        capsys, "report", "--db", views, "--table", "v_rel", "--y", "y", "--yhat", "yhat"
    )
    line = assert_one_error(code, err, "cannot read view 'v_rel'", "current directory")
    assert "not found in" not in line
    code, _, _ = run(
        capsys, "report", "--db", views, "--table", "v_abs", "--y", "y", "--yhat", "yhat"
    )
    assert code == 0


@pytest.mark.parametrize(
    "table", ["p.parquet", "read_parquet('p.parquet')", "'p.parquet'", "v_ab", "lake.t", ""]
)
def test_names_not_in_the_catalog_are_not_found(capsys, views, table):
    code, _, err = run(
        capsys, "report", "--db", views, "--table", table, "--y", "y", "--yhat", "yhat"
    )
    line = assert_one_error(code, err, "not found in", "v_abs")
    if table == "v_ab":
        assert "did you mean 'v_abs'?" in line
