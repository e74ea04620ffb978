"""Hostile input for every option of the command line: each run returns an exit code and, on
error, prints exactly one line, ``clfeval: error: <message> (hint: <fix>)``, that names the
culprit: no traceback, no raw Polars or DuckDB text on a line of its own, nothing on stdout.

Cases marked LIBRARY come from the library's checks, whose messages are being reworked
elsewhere; here they only have to keep the one-line contract.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import clfeval as ce
from clfeval import datasets
from clfeval.cli import main

ERROR_LINE = re.compile(r"^clfeval: error: \S.*")
HOSTILE = '"; DROP TABLE preds; --'
QUOTED = '"' + HOSTILE.replace('"', '""') + '"'  # as an SQL identifier
RAW = (
    "Traceback",
    "polars.exceptions",
    "_duckdb.",
    "You might want to try",
    "Original error",
    "PlRefPath",
    "internal error",
)


@pytest.fixture(scope="module")
def d(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of hostile inputs next to good ones."""
    d = tmp_path_factory.mktemp("hostile")
    df = datasets.patients()
    df.write_parquet(d / "p.parquet")
    df.write_csv(d / "p.csv")
    df.write_ndjson(d / "p.ndjson")
    df.head(0).write_parquet(d / "zero.parquet")
    (d / "header.csv").write_text("y,yhat,score\n", encoding="utf-8")
    for name in ("empty.csv", "empty.parquet", "empty.ndjson"):
        (d / name).write_bytes(b"")
    (d / "dir.csv").mkdir()
    (d / "nothing").mkdir()
    (d / "garbage.parquet").write_bytes(bytes(range(256)) * 4)
    (d / "latin1.csv").write_bytes(b"y,yhat\n\xe9t\xe9,\xe9t\xe9\nb,b\n")
    (d / "ragged.csv").write_text("y,yhat\n1,1,3\n0\n", encoding="utf-8")
    (d / "bad.ndjson").write_text('{"y": 1, "yhat": 1}\n{"y": 1, yhat\n', encoding="utf-8")
    mixed = [{"y": "1", "yhat": "1"}, {"y": 1, "yhat": "0"}]
    (d / "mixed.ndjson").write_text("".join(json.dumps(r) + "\n" for r in mixed), "utf-8")
    odd = df.rename({"y": "my y", "yhat": 'ya"hat', "score": "</script>"})
    odd.write_parquet(d / "odd.parquet")
    odd.write_csv(d / "odd.csv")
    (d / "text.csv").write_text(
        "y,yhat,s\n</script>,</script>,0.5\n<b>x</b>,</script>,0.2\nкот,犬,0.1\n", "utf-8"
    )
    (d / "esc.csv").write_text("y,yhat\n1,1\n0,1\n", encoding="utf-8")
    (d / "notes.html").write_text("<p>mine</p>", encoding="utf-8")
    with duckdb.connect(str(d / "p.duckdb")) as con:
        con.register("frame", df.to_arrow())
        con.execute("CREATE TABLE preds AS SELECT * FROM frame")
    return d


def one_error(code: int, out: str, err: str, *needles: str) -> str:
    assert code == 2, (code, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert ERROR_LINE.match(line), line
    for raw in RAW:
        assert raw not in line, line
    for needle in needles:
        assert needle in line, line
    return line


@pytest.fixture(autouse=True)
def _in_d(d: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(d)  # relative names below are files of d


def run(capsys: pytest.CaptureFixture[str], d: Path, argv: list[str]) -> tuple[int, str, str]:
    assert Path.cwd() == d
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


REPORT = ["report", "p.parquet", "--y", "y", "--yhat", "yhat"]
CSV = ["report", "p.csv", "--y", "y", "--yhat", "yhat"]
DB = ["report", "--db", "p.duckdb", "--y", "y", "--yhat", "yhat"]
METRIC = ["sql", "--metric", "auroc", "--table", "t", "--y", "y", "--score", "s"]

CASES = [
    # --digits: wrong type, empty, huge, NaN, negative
    ("digits-text", [*REPORT, "--digits", "two"], ["--digits 'two'", "0 to 15"]),
    ("digits-empty", [*REPORT, "--digits", ""], ["--digits ''"]),
    ("digits-huge", [*REPORT, "--digits", "9" * 300], ["--digits 999", "0 to 15"]),
    ("digits-nan", [*REPORT, "--digits", "nan"], ["--digits 'nan'"]),
    ("digits-negative", [*REPORT, "--digits", "-3"], ["--digits -3"]),
    ("digits-float", [*REPORT, "--digits", "2.5"], ["--digits '2.5'"]),
    ("demo-digits", ["demo", "--digits", "x", "--html", "demo.html"], ["--digits 'x'"]),
    # columns: empty, hostile, unicode, missing
    (
        "y-empty",
        ["report", "p.parquet", "--y", "", "--yhat", "yhat"],
        ["''", "y must be a column name"],
    ),
    ("yhat-hostile", ["report", "p.parquet", "--y", "y", "--yhat", HOSTILE], [HOSTILE[:8]]),
    ("yhat-script", ["report", "p.parquet", "--y", "y", "--yhat", "</script>"], ["</script>"]),
    ("y-unicode", ["report", "p.parquet", "--y", "ÿ", "--yhat", "yhat"], ["'ÿ' (y)"]),
    ("score-missing", [*REPORT, "--score", "nope"], ["'nope' (score) not found"]),
    ("score-text", [*REPORT, "--score", "id"], ["'id' (score)"]),
    ("weight-empty", [*REPORT, "--weight", ""], ["''", "weight must be a column name"]),
    ("weight-text", [*REPORT, "--weight", "id"], ["'id' (weight)"]),
    ("by-empty", [*REPORT, "--by", ""], ["--by", "names nothing"]),
    ("by-commas", [*REPORT, "--by", " , ,"], ["--by", "names nothing"]),
    ("by-missing", [*REPORT, "--by", "region"], ["'region' (by) not found"]),
    (
        "by-csv-name",
        [*REPORT, "--by", "id", "--by", "value", "--format", "csv"],
        ["'value'", "--format csv"],
    ),
    # LIBRARY: a group column that is also y gives Polars' duplicate-name text
    ("by-is-y", [*REPORT, "--by", "y"], ["'y'"]),
    ("proba-empty", [*REPORT, "--proba", ""], ["--proba", "names nothing"]),
    ("proba-no-labels", [*REPORT, "--proba", "score,score"], ["--labels"]),
    ("score-and-proba", [*REPORT, "--score", "score", "--proba", "score"], ["one option"]),
    # --labels and --pos-label: parsed in y's type
    ("labels-empty", [*REPORT, "--labels", ""], ["--labels", "names nothing"]),
    ("labels-twice", [*REPORT, "--labels", "1,1"], ["1 twice"]),
    ("labels-absent", [*REPORT, "--labels", "5"], ["[5]"]),
    ("labels-text", [*REPORT, "--labels", "</script>"], ["'</script>'", "not an integer"]),
    ("pos-empty", [*REPORT, "--pos-label", ""], ["--pos-label ''", "not an integer"]),
    ("pos-nan", [*REPORT, "--pos-label", "nan"], ["--pos-label 'nan'"]),
    ("pos-huge", [*REPORT, "--pos-label", "9" * 40], ["--pos-label 999", "[0, 1]"]),
    ("pos-hostile", [*REPORT, "--pos-label", HOSTILE], ["--pos-label", "DROP TABLE"]),
    ("pos-text-absent", [*CSV, "--pos-label", "yes"], ["--pos-label 'yes'", "['0', '1']"]),
    # --average: the shared check; only with json/csv
    ("average-unknown", [*REPORT, "--format", "json", "--average", "mean"], ["--average 'mean'"]),
    ("average-empty", [*REPORT, "--format", "json", "--average", ""], ["--average ''"]),
    ("average-none", [*REPORT, "--format", "csv", "--average", "None"], ["--average 'None'"]),
    ("average-text", [*REPORT, "--average", "macro"], ["--average", "text report"]),
    # --schema
    ("schema-empty", [*CSV, "--schema", ""], ["--schema", "names nothing"]),
    ("schema-no-type", [*CSV, "--schema", "y"], ["COL=TYPE"]),
    ("schema-no-column", [*CSV, "--schema", "=int"], ["COL=TYPE"]),
    ("schema-type", [*CSV, "--schema", "y=int64"], ["unknown type 'int64'", "int, float"]),
    ("schema-column", [*CSV, "--schema", "yy=int"], ["'yy'", "did you mean 'y'?"]),
    ("schema-twice", [*CSV, "--schema", "y=int", "--schema", "y=str"], ["two types"]),
    ("schema-bool", [*CSV, "--schema", "y=bool"], ["'y' (y)", "true or false", "--schema"]),
    (
        "schema-int",
        ["report", "text.csv", "--y", "y", "--yhat", "yhat", "--schema", "y=int"],
        ["'y' (y)", "'</script>' (row 0)"],
    ),
    ("schema-parquet", [*REPORT, "--schema", "y=int"], ["--schema", "Parquet"]),
    # choices
    ("format", [*REPORT, "--format", "xml"], ["invalid choice"]),
    ("missing", [*REPORT, "--missing", "keep"], ["invalid choice"]),
    ("nonfinite", [*REPORT, "--nonfinite", ""], ["invalid choice"]),
    ("input-format", [*REPORT, "--input-format", "xlsx"], ["invalid choice"]),
    ("unknown-option", [*REPORT, "--colour", "red"], ["--colour"]),
    ("no-command", [], ["required"]),
    # PATH: empty, a directory, empty files, no rows, garbage
    ("path-empty", ["report", "", "--y", "y", "--yhat", "yhat"], ["PATH is empty"]),
    ("path-dot", ["report", ".", "--y", "y", "--yhat", "yhat"], ["'.'", "--input-format"]),
    ("path-dir", ["report", "dir.csv", "--y", "y", "--yhat", "yhat"], ["'dir.csv'", "directory"]),
    (
        "path-empty-dir",
        ["report", "nothing", "--input-format", "parquet", "--y", "y", "--yhat", "yhat"],
        ["'nothing'", "no files"],
    ),
    (
        "path-glob",
        ["report", "nothing/*.parquet", "--y", "y", "--yhat", "yhat"],
        ["no file matches"],
    ),
    ("path-missing", ["report", "nope.csv", "--y", "y", "--yhat", "yhat"], ["'nope.csv'"]),
    ("empty-csv", ["report", "empty.csv", "--y", "y", "--yhat", "yhat"], ["'empty.csv' is empty"]),
    (
        "empty-parquet",
        ["report", "empty.parquet", "--y", "y", "--yhat", "yhat"],
        ["'empty.parquet' is empty"],
    ),
    (
        "empty-ndjson",
        ["report", "empty.ndjson", "--y", "y", "--yhat", "yhat"],
        ["'empty.ndjson' is empty"],
    ),
    # LIBRARY: no row says "no rows to evaluate" without naming the file
    ("header-only", ["report", "header.csv", "--y", "y", "--yhat", "yhat"], ["no rows"]),
    ("zero-rows", ["report", "zero.parquet", "--y", "y", "--yhat", "yhat"], ["no rows"]),
    (
        "garbage",
        ["report", "garbage.parquet", "--y", "y", "--yhat", "yhat"],
        ["cannot read 'garbage.parquet'"],
    ),
    ("parquet-as-csv", [*REPORT, "--input-format", "csv"], ["'y' (y) not found", "\\x"]),
    ("latin1", ["report", "latin1.csv", "--y", "y", "--yhat", "yhat"], ["'latin1.csv'", "utf-8"]),
    ("ragged", ["report", "ragged.csv", "--y", "y", "--yhat", "yhat"], ["'ragged.csv'"]),
    ("bad-ndjson", ["report", "bad.ndjson", "--y", "y", "--yhat", "yhat"], ["'bad.ndjson'"]),
    (
        "mixed-ndjson",
        ["report", "mixed.ndjson", "--y", "y", "--yhat", "yhat"],
        ["'y' (y)", "string", "number"],
    ),
    (
        "text-score",
        ["report", "text.csv", "--y", "y", "--yhat", "yhat", "--score", "y"],
        ["'y' (score)", "not numbers"],
    ),
    # --html: never onto input, only .html, only clfeval's own pages
    ("html-empty", [*REPORT, "--html", ""], ["--html is empty"]),
    ("html-input", [*REPORT, "--html", "p.parquet"], [".html or .htm"]),
    ("html-dir", [*REPORT, "--html", "dir.csv"], [".html or .htm"]),
    ("html-foreign", [*REPORT, "--html", "notes.html"], ["not a page clfeval wrote"]),
    ("html-no-dir", [*REPORT, "--html", "no/such/r.html"], ["'no/such'", "does not exist"]),
    ("html-long", [*REPORT, "--html", "a" * 300 + ".html"], ["cannot write --html", "too long"]),
    ("html-db", [*DB, "--table", "preds", "--html", "p.duckdb"], [".html or .htm"]),
    ("demo-html", ["demo", "--html", "p.csv"], [".html or .htm"]),
    ("demo-foreign", ["demo", "--html", "notes.html"], ["not a page clfeval wrote"]),
    # DuckDB: --db, --table, --query
    ("db-alone", DB, ["--db needs --table"]),
    (
        "db-empty",
        ["report", "--db", "", "--table", "t", "--y", "y", "--yhat", "yhat"],
        ["--db is empty"],
    ),
    (
        "db-missing",
        ["report", "--db", "no.duckdb", "--table", "t", "--y", "y", "--yhat", "yhat"],
        ["'no.duckdb' not found"],
    ),
    (
        "db-csv",
        ["report", "--db", "p.csv", "--table", "t", "--y", "y", "--yhat", "yhat"],
        ["'p.csv' is not a DuckDB database file"],
    ),
    (
        "db-dir",
        ["report", "--db", "dir.csv", "--table", "t", "--y", "y", "--yhat", "yhat"],
        ["not a DuckDB database file"],
    ),
    (
        "db-with-path",
        ["report", "p.csv", "--db", "p.duckdb", "--y", "y", "--yhat", "yhat"],
        ["--db goes with"],
    ),
    ("table-empty", [*DB, "--table", ""], ["table '' not found", "['preds']"]),
    ("table-hostile", [*DB, "--table", HOSTILE], ["not found", "['preds']"]),
    ("table-path", [*DB, "--table", "p.parquet"], ["'p.parquet' not found"]),
    ("table-function", [*DB, "--table", "read_csv('p.csv')"], ["not found"]),
    ("table-quote", [*DB, "--table", '"preds'], ["not found"]),
    ("table-no-db", ["report", "--table", "t", "--y", "y", "--yhat", "yhat"], ["--db"]),
    ("query-empty", [*DB, "--query", ""], ["--query returned no result set"]),
    ("query-syntax", [*DB, "--query", "SELEC 1"], ["--query failed", "SELEC"]),
    ("query-write", [*DB, "--query", "DROP TABLE preds"], ["--query failed", "read-only"]),
    ("query-two", [*DB, "--query", "FROM preds; DROP TABLE preds"], ["read-only"]),
    (
        "query-no-y",
        ["report", "--query", "SELECT 1 AS x", "--y", "y", "--yhat", "yhat"],
        ["'y' (y) not found"],
    ),
    (
        "query-inf",
        [
            "report",
            "--query",
            "SELECT 1 AS y, 1 AS yhat, 'inf'::DOUBLE AS s",
            "--y",
            "y",
            "--yhat",
            "yhat",
            "--score",
            "s",
        ],
        ["'s' (score)", "infinite"],
    ),
    (
        "query-negative-weight",
        [
            "report",
            "--query",
            "SELECT 1 AS y, 1 AS yhat, -1.0 AS w",
            "--y",
            "y",
            "--yhat",
            "yhat",
            "--weight",
            "w",
        ],
        ["'w' (weight)", "negative"],
    ),
    (
        "query-list",
        ["report", "--query", "SELECT [1] AS y, [1] AS yhat", "--y", "y", "--yhat", "yhat"],
        ["'y' (y)", "List"],
    ),
    # sql
    ("sql-metric-empty", ["sql", "--metric", "", "--table", "t", "--y", "y"], ["metric", "''"]),
    ("sql-metric-unknown", ["sql", "--metric", "roc", "--table", "t", "--y", "y"], ["'roc'"]),
    (
        "sql-table-empty",
        ["sql", "--metric", "auroc", "--table", "", "--y", "y", "--score", "s"],
        ["table", "''"],
    ),
    (
        "sql-table-parts",
        ["sql", "--metric", "auroc", "--table", "a.b.c.d", "--y", "y", "--score", "s"],
        ["'a.b.c.d'"],
    ),
    (
        "sql-y-empty",
        ["sql", "--metric", "auroc", "--table", "t", "--y", "", "--score", "s"],
        ["y", "''"],
    ),
    ("sql-dialect", [*METRIC, "--dialect", "oracle"], ["'oracle'"]),
    ("sql-group-empty", [*METRIC, "--group-cols", ""], ["--group-cols", "names nothing"]),
    ("sql-average", [*METRIC, "--average", "macro"], ["--average goes with --metric metrics"]),
    (
        "sql-average-bad",
        [
            "sql",
            "--metric",
            "metrics",
            "--table",
            "t",
            "--y",
            "y",
            "--yhat",
            "p",
            "--average",
            "nan",
        ],
        ["--average 'nan'"],
    ),
    ("sql-no-metric", ["sql", "--table", "t"], ["--metric"]),
    ("sql-install-empty", ["sql", "--install", ""], ["--install ''"]),
    ("sql-install-memory", ["sql", "--install", ":memory:"], ["':memory:'"]),
    ("sql-install-csv", ["sql", "--install", "p.csv"], ["'p.csv'", "not a DuckDB"]),
    ("sql-install-empty-file", ["sql", "--install", "empty.csv"], ["not a DuckDB"]),
    ("sql-install-dir", ["sql", "--install", "dir.csv"], ["directory"]),
    (
        "sql-install-metric",
        ["sql", "--install", "m.duckdb", "--metric", "auroc"],
        ["separate uses"],
    ),
]


@pytest.mark.parametrize(("argv", "needles"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_one_line_naming_the_culprit(capsys, d, argv, needles):
    before = {p.name: p.stat().st_mtime_ns for p in d.iterdir() if p.is_file()}
    code, out, err = run(capsys, d, argv)
    one_error(code, out, err, *needles)
    after = {p.name: p.stat().st_mtime_ns for p in d.iterdir() if p.is_file()}
    assert after == before  # a refused command leaves every file as it was


def test_the_database_survives(capsys, d):
    for table in (HOSTILE, "preds; DROP TABLE preds"):
        run(capsys, d, [*DB, "--table", table])
    run(capsys, d, [*DB, "--query", "DROP TABLE preds"])
    with duckdb.connect(str(d / "p.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM preds").fetchone() == (20,)


def test_control_characters_in_names_are_escaped(capsys, d):
    code, out, err = run(capsys, d, [*REPORT, "--yhat", "\x1b[2Jyhat\x07"])
    line = one_error(code, out, err, "\\x1b[2Jyhat\\x07")
    assert "\x1b" not in line
    assert "\x07" not in line


def test_a_long_message_is_cut(capsys, d):
    code, out, err = run(capsys, d, [*REPORT, "--yhat", "x" * 5000])
    line = one_error(code, out, err)
    assert len(line) < 1200


# --- hostile names and values that must work ----------------------------------------------------


def test_odd_column_names(capsys, d):
    df = datasets.patients()
    expected = ce.report(df, "y", "yhat", score="score")
    for path in ("odd.parquet", "odd.csv"):
        argv = ["report", path, "--y", "my y", "--yhat", 'ya"hat', "--score", "</script>"]
        code, out, err = run(capsys, d, argv)
        assert (code, err) == (0, ""), err
        assert out.splitlines()[:8] == str(expected).splitlines()[:8]


def test_odd_column_names_through_duckdb(capsys, d, tmp_path):
    db = tmp_path / "odd.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(f"CREATE TABLE {QUOTED} AS FROM read_parquet('{d / 'odd.parquet'}')")
    argv = ["report", "--db", str(db), "--table", HOSTILE, "--y", "my y", "--yhat", 'ya"hat']
    code, out, err = run(capsys, d, argv)
    assert (code, err) == (0, ""), err
    assert "accuracy" in out


def test_markup_and_unicode_labels_are_escaped_in_the_page(capsys, d, tmp_path):
    page = tmp_path / "text.html"
    argv = ["report", "text.csv", "--y", "y", "--yhat", "yhat", "--html", str(page)]
    code, out, err = run(capsys, d, argv)
    assert code == 0, err
    assert "</script>" in out
    assert "кот" in out
    assert "犬" in out
    html = page.read_text(encoding="utf-8")
    assert "&lt;/script&gt;" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<b>x</b>" not in html
    for fmt in ("json", "csv"):
        code, out, err = run(capsys, d, [*argv[:6], "--format", fmt])
        assert code == 0, err
        assert "кот" in (json.loads(out)["report"] if fmt == "json" else out)


def test_hostile_pos_label_in_generated_sql_is_a_literal(capsys, d):
    code, out, err = run(capsys, d, [*METRIC, "--pos-label", HOSTILE, "--table", HOSTILE])
    assert (code, err) == (0, "")
    assert "'\"; DROP TABLE preds; --'" in out  # a string literal
    assert '"""; DROP TABLE preds; --"' in out  # a quoted identifier
    with duckdb.connect() as con:
        con.execute(f"CREATE TABLE {QUOTED} (y VARCHAR, s DOUBLE)")
        con.execute(out)  # runs: nothing is spliced


def test_huge_labels_list(capsys, d):
    labels = ",".join(str(i) for i in range(2000))
    code, out, err = run(capsys, d, [*REPORT, "--labels", labels])
    assert code == 0, err
    assert out.count("\n") > 2000


# --- the installed entry point ------------------------------------------------------------------


def _command() -> list[str]:
    exe = shutil.which("clfeval", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "clfeval"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["report", "dir.csv", "--y", "y", "--yhat", "yhat"], "directory"),
        (["report", "empty.csv", "--y", "y", "--yhat", "yhat"], "is empty"),
        ([*DB, "--table", HOSTILE], "not found"),
        ([*REPORT, "--html", "p.parquet"], ".html or .htm"),
        (["sql", "--install", "p.csv"], "not a DuckDB"),
        ([*REPORT, "--digits", "nan"], "--digits"),
    ],
)
def test_entry_point(d, argv, needle):
    done = subprocess.run(
        [*_command(), *argv],
        cwd=d,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    one_error(done.returncode, done.stdout, done.stderr, needle)


def test_entry_point_help_into_a_closed_pipe(d):
    with subprocess.Popen(
        [*_command(), "report", "--help"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read()
        code = proc.wait(timeout=120)
    assert err == b""
    assert code in (0, 141)


def test_ctrl_c_is_one_line(capsys, d, monkeypatch):
    from clfeval.cli import _cmd_sql

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_cmd_sql, "run", interrupted)
    code, out, err = run(capsys, d, ["sql"])
    assert (code, out, err) == (130, "", "clfeval: interrupted\n")


def test_an_unexpected_failure_is_one_line(capsys, d, monkeypatch):
    from clfeval.cli import _cmd_sql

    def broken(args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(_cmd_sql, "run", broken)
    monkeypatch.delenv("CLFEVAL_DEBUG", raising=False)
    code, out, err = run(capsys, d, ["sql"])
    assert code == 2
    assert out == ""
    assert err == (
        "clfeval: error: internal error: RuntimeError: boom (hint: this is a bug in clfeval; "
        "rerun with CLFEVAL_DEBUG=1 for the traceback and report it)\n"
    )
    monkeypatch.setenv("CLFEVAL_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main(["sql"])


def test_json_is_strict(capsys, d):
    code, out, _ = run(capsys, d, [*REPORT, "--score", "score", "--format", "json"])
    assert code == 0
    doc = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert doc["metrics"]["auroc"] == pytest.approx(0.86)
