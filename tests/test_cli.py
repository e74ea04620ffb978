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
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import clfeval as ce
from clfeval import datasets, sqlgen
from clfeval import sql as clf_sql
from clfeval._cli import _sql_literal, main

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


def test_csv_is_the_report_table(capsys, files, patients):
    code, out, _ = run(
        capsys, "report", files["ndjson"], "--y", "y", "--yhat", "yhat", "--format", "csv"
    )
    assert code == 0
    table = ce.report(patients, "y", "yhat").table
    got = pl.read_csv(io.StringIO(out), schema=table.schema)
    assert_frame_equal(got, table)


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
    code, out, _ = run(
        capsys, "report", path, "--y", "y", "--yhat", "yhat", "--by", "region", "--format", "csv"
    )
    assert code == 0
    table = ce.report(df, "y", "yhat", by="region").table
    assert_frame_equal(pl.read_csv(io.StringIO(out), schema=table.schema), table)


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


def test_late_text_in_a_label_column(capsys, tmp_path):
    rows = ["y,yhat"] + ["1,0"] * 150 + ["x,0"]
    path = write(tmp_path, "late.csv", "\n".join(rows) + "\n")
    code, _, err = run(capsys, "report", path, "--y", "y", "--yhat", "yhat")
    assert_one_error(code, err, "'y'", "'yhat'", "different kinds of labels")


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
            "not both",
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
