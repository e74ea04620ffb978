"""Every fenced code block of README.md, run as written (or classified, with a reason).

The blocks are parsed from README.md; ``HANDLED`` says how each one is run, and
``test_every_block_is_covered`` fails on a block it does not name. Each block runs in a separate
process in a temporary directory, with ``PATH`` starting at this interpreter's ``bin`` (so
``clfeval``, ``python`` and ``duckdb``, the duckdb-cli of the test extra, are this venv's).
Bash blocks run command by command (a command is a line, with its here-document) under
``bash -euo pipefail``, in order, in one directory; a comment on a command states what it prints.
Inputs a block reads are made by the test first: ``preds`` is the bundled predictions renamed to
the README's SQL and Scaling names (``label``, ``pred``, ``score``, ``model``) plus a ``day``;
``preds/*.parquet`` is that frame, one file per model; ``sql/`` is a link to the repository's
``sql/``, so ``cat sql/*.sql`` works as written. Preludes, for names a block uses but does not
define: the Scaling Polars block gets the Python section's imports (``pl``, ``ce``), the Spark
block ``SPARK_PRELUDE`` (``spark``, a local[2] session configured like tests/test_spark.py).
The two inline commands of the closed-pipe sentence are run too (test_closed_pipe_commands).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest
import sqlglot
from sklearn import metrics as skm

import clfeval as ce

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
TOL = 1e-9
GENERATOR = '<meta name="generator" content="clfeval">'  # on every page clfeval writes

# block key -> (the test that runs or classifies it, how)
HANDLED = {
    "quick-start/bash-1": (
        "test_quick_start_is_run_by_ci",
        "not run here: .ci/run runs it as written; tests/test_packaging.py checks it does",
    ),
    "quick-start/bash-2": (
        "test_quick_start_is_run_by_ci",
        "not run here: it is the command that runs this suite (.ci/run, tests/test_packaging.py)",
    ),
    "python/python-1": ("test_python_block", "as a script; the report equals scikit-learn's"),
    "python/python-2": ("test_multiclass_block", "with the first block's df; scikit-learn's text"),
    "python/python-3": ("test_comparing_block", "with the first block's df; one row per model"),
    "python/python-4": ("test_any_frame_block", "with the first block's df; DuckDB's curve"),
    "uncertainty/python-1": (
        "test_uncertainty_block",
        "with the first block's df; intervals, DeLong and McNemar as the functions give them",
    ),
    "uncertainty/sql-1": (
        "test_uncertainty_sql_block",
        "its comment's command, then the duckdb CLI; the numbers of clfeval.sql and Polars",
    ),
    "sql-duckdb/sql-1": (
        "test_sql_block",
        "macros loaded by each route of its comment and by --install, queries by the duckdb CLI",
    ),
    "from-scores-to-decisions/python-1": (
        "test_decisions_block",
        "as a script; the cost-optimal thresholds it prints equal a NumPy search",
    ),
    "from-scores-to-decisions/sql-1": (
        "test_decisions_sql_block",
        "each statement in DuckDB (macros loaded) equals its Polars twin on the same rows",
    ),
    "command-line/bash-1": ("test_example_files", "the fixture cli_dir runs it in an empty dir"),
    "command-line/bash-2": ("test_cli_commands", "command by command in cli_dir, then numbers"),
    "command-line/text-1": ("test_error_transcript", "the $ command; stderr is the shown line"),
    "scaling/python-1": ("test_scaling_polars", "with the Python section's imports"),
    "scaling/sql-1": ("test_scaling_duckdb", "its comment's command, then the duckdb CLI"),
    "scaling/python-2": (
        "test_scaling_spark_frame",
        "with SPARK_PRELUDE, on a local Spark; the printed frame and report are Polars'",
    ),
    "scaling/python-3": ("test_scaling_spark", "with SPARK_PRELUDE, on a local Spark"),
    "scaling/bash-1": ("test_scaling_bash", "in an empty directory"),
    "scaling/python-4": (
        "test_scaling_run",
        "PGHOST at the suite's PostgreSQL server (a warehouse database with preds), and a local "
        "Spark session with a preds view (SPARK_PRELUDE)",
    ),
}

SPARK_PRELUDE = """\
import os
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
from pyspark.sql import SparkSession
spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.sql.codegen.wholeStage", "false")
    .config("spark.sql.adaptive.enabled", "false")
    .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
"""


# --- README.md, parsed ---------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    key: str  # "<## section slug>/<language>-<n>", n counting that language in the section
    lang: str  # bash, python, sql, or text for a plain fence
    line: int  # README line of the opening fence
    text: str  # the contents, the fence's indentation removed


@dataclass(frozen=True)
class Command:
    line: int  # README line
    text: str  # as written, with its comment and here-document
    comment: str | None  # the text after `#` on its first line


def readme_blocks() -> list[Block]:
    lines = README.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    section, i = "", 0
    while i < len(lines):
        if lines[i].startswith("## "):
            section = re.sub(r"[^a-z0-9]+", "-", lines[i][3:].lower()).strip("-")
        fence = re.fullmatch(r"( *)```(\w*)\s*", lines[i])
        if fence:
            indent, lang = fence.group(1), fence.group(2) or "text"
            end = next(j for j in range(i + 1, len(lines)) if lines[j] == indent + "```")
            body = [line.removeprefix(indent) for line in lines[i + 1 : end]]
            n = 1 + sum(b.key.startswith(f"{section}/{lang}-") for b in blocks)
            blocks.append(Block(f"{section}/{lang}-{n}", lang, i + 1, "\n".join(body) + "\n"))
            i = end
        i += 1
    return blocks


BLOCKS = {b.key: b for b in readme_blocks()}


def commands(block: Block) -> list[Command]:
    """The commands of a bash block: each line, with the here-document it opens."""
    lines = block.text.splitlines()
    out, i = [], 0
    while i < len(lines):
        start = i
        heredoc = re.search(r"<<-?\s*(['\"]?)(\w+)\1", lines[i])
        if heredoc:
            i = lines.index(heredoc.group(2), i + 1)
        comment = re.search(r"\s#\s+(.+)$", lines[start])
        text = "\n".join(lines[start : i + 1])
        if text.strip():
            out.append(Command(block.line + 1 + start, text, comment and comment.group(1).strip()))
        i += 1
    return out


def sql_statements(block: Block) -> list[str]:
    """The statements of a SQL block, its comment lines left out."""
    code = "\n".join(line for line in block.text.splitlines() if not line.startswith("--"))
    return [s.strip() for s in code.split(";") if s.strip()]


def sql_comment_commands(block: Block) -> list[str]:
    """The shell pipelines a SQL block's comment gives for loading the macros."""
    comment = " ".join(line for line in block.text.splitlines() if line.startswith("--"))
    return re.findall(r"(?:cat|clfeval) [^:()]*?\| duckdb [\w.]+", comment)


# --- running -------------------------------------------------------------------------------


def sh(command: str, cwd: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """A command in bash (``-euo pipefail`` unless options are given) with this venv first."""
    return subprocess.run(
        ["bash", *(options or ("-euo", "pipefail")), "-c", command],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def failure(where: str, done: subprocess.CompletedProcess[str]) -> str:
    return f"{where}\nexit code {done.returncode}\nstderr (end):\n{done.stderr[-3000:]}"


Runs = dict[Command, subprocess.CompletedProcess[str]]


def run_commands(block: Block, cwd: Path) -> Runs:
    """Each command of a bash block, in order, in one directory."""
    return {command: sh(command.text, cwd) for command in commands(block)}


def assert_ran(runs: Runs) -> None:
    """Each command exited 0 and printed; one with a comment printed the comment; generated
    SQL (``--dialect D``) is one statement that parses in D."""
    problems = []
    for command, done in runs.items():
        where = f"README.md:{command.line}: {command.text}"
        dialect = re.search(r"--dialect (\w+)", command.text)
        if done.returncode != 0:
            problems.append(failure(where, done))
        elif not done.stdout.strip():
            problems.append(f"{where}\nprinted nothing")
        elif command.comment and done.stdout.strip() != command.comment:
            problems.append(f"{where}\nprinted {done.stdout.strip()!r}, not its comment")
        elif dialect and len(sqlglot.parse(done.stdout, read=dialect.group(1))) != 1:
            problems.append(f"{where}\nis not one {dialect.group(1)} statement")
    assert not problems, "\n\n".join(problems)


def one(runs: Runs, needle: str) -> str:
    """The stdout of the one command containing needle, which exited 0."""
    (done,) = [done for command, done in runs.items() if needle in command.text]
    assert done.returncode == 0, failure(needle, done)
    return done.stdout


def run_python(block: Block, cwd: Path, prelude: str = "") -> subprocess.CompletedProcess[str]:
    script = cwd / f"readme_{block.key.replace('/', '_').replace('-', '_')}.py"
    script.write_text(prelude + block.text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, script.name],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, failure(f"README.md:{block.line}: {block.key}", done)
    assert done.stdout.strip(), f"{block.key} printed nothing"
    return done


def require(tool: str, why: str) -> str:
    """The tool's path in this venv or on PATH; a skip without it, a failure under CI."""
    found = shutil.which(tool, path=ENV["PATH"])
    if found is None:
        if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure
            pytest.fail(f"{tool} is not installed: {why}")
        pytest.skip(f"{tool} is not installed: {why}")
    return found


def duckdb_json(cli: str, db: str, statement: str, cwd: Path) -> list[dict]:
    done = subprocess.run(
        [cli, db, "-json", "-c", statement],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, failure(f"duckdb {db}: {statement}", done)
    assert not done.stderr, done.stderr
    return json.loads(done.stdout or "[]")


def query_rows(cli: str, db: str, statements: list[str], cwd: Path) -> dict[str, list[dict]]:
    """Each statement in its own duckdb CLI process; every query returns rows."""
    out = {}
    for statement in statements:
        rows = out[statement] = duckdb_json(cli, db, statement, cwd)
        if re.match(r"(SELECT|FROM|WITH)\b", statement, re.I):
            assert rows, f"no rows: {statement}"
    return out


# --- inputs and references -----------------------------------------------------------------


@pytest.fixture(scope="module")
def preds() -> pl.DataFrame:
    """The bundled predictions with the README's SQL names, and a ``day`` (three dates)."""
    df = ce.datasets.predictions().rename({"y": "label", "yhat": "pred"})
    return df.with_columns(day=pl.lit(date(2025, 1, 1)) + pl.duration(days=pl.col("id") % 3))


def write_preds(folder: Path, preds: pl.DataFrame) -> None:
    """``preds/*.parquet``, one file per model, and ``sql`` linked to the repository's."""
    (folder / "preds").mkdir()
    for (model,), part in preds.partition_by("model", as_dict=True).items():
        part.write_parquet(folder / "preds" / f"{model}.parquet")
    (folder / "sql").symlink_to(ROOT / "sql", target_is_directory=True)


def groups(frame: pl.DataFrame, columns: list[str]) -> dict[tuple[str, ...], pl.DataFrame]:
    """Rows per group, keyed by the group values as text (as DuckDB's JSON prints them)."""
    text = frame.with_columns(pl.col(c).cast(pl.String) for c in columns)
    return {tuple(k): g for k, g in text.partition_by(columns, as_dict=True).items()}


def arrays(frame: pl.DataFrame, *columns: str) -> list[np.ndarray]:
    return [frame[c].to_numpy() for c in columns]


def approx(value: object) -> object:
    return pytest.approx(value, rel=0, abs=TOL)


def sk_metrics(y: np.ndarray, yhat: np.ndarray, average: str) -> dict[str, float]:
    """scikit-learn's numbers for the metrics the CLI's json and csv hold."""
    return {
        "accuracy": skm.accuracy_score(y, yhat),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yhat),
        "precision": skm.precision_score(y, yhat, average=average),
        "recall": skm.recall_score(y, yhat, average=average),
        "f1": skm.f1_score(y, yhat, average=average),
        "mcc": skm.matthews_corrcoef(y, yhat),
    }


def check_report(rows: list[dict], frame: pl.DataFrame) -> None:
    """clf_report rows (group columns, then label) equal classification_report per group."""
    by = list(rows[0])[: list(rows[0]).index("label")]
    expected = {
        key: skm.classification_report(*arrays(g, "label", "pred"), output_dict=True)
        for key, g in groups(frame, by).items()
    }
    assert {tuple(str(r[c]) for c in by) for r in rows} == set(expected)
    for r in rows:
        ref = expected[tuple(str(r[c]) for c in by)][r["label"]]
        if r["label"] == "accuracy":
            assert r["f1"] == approx(ref), r
            continue
        for ours, theirs in [("precision", "precision"), ("recall", "recall"), ("f1", "f1-score")]:
            assert r[ours] == approx(ref[theirs]), r
        assert r["support"] == ref["support"], r


def check_roc_curve(rows: list[dict], frame: pl.DataFrame) -> None:
    """clf_roc_curve rows are scikit-learn's roc_curve points, in order, per group."""
    by = list(rows[0])[: list(rows[0]).index("threshold")]
    for key, g in groups(frame, by).items():
        mine = [r for r in rows if tuple(str(r[c]) for c in by) == key]
        fpr, tpr, thresholds = skm.roc_curve(*arrays(g, "label", "score"))
        got = np.array([[r["fpr"], r["tpr"], r["threshold"]] for r in mine])
        np.testing.assert_allclose(got, np.column_stack([fpr, tpr, thresholds]), rtol=0, atol=TOL)


def check_auroc(rows: list[dict], frame: pl.DataFrame) -> None:
    expected = {
        k: skm.roc_auc_score(*arrays(g, "label", "score"))
        for k, g in groups(frame, ["model"]).items()
    }
    assert {(r["model"],): r["auroc"] for r in rows} == {k: approx(v) for k, v in expected.items()}


# scalar macro -> scikit-learn on one group's rows
SCALAR: dict[str, Callable[[pl.DataFrame], float]] = {
    "clf_precision": lambda g: skm.precision_score(*arrays(g, "label", "pred")),
    "clf_f1": lambda g: skm.f1_score(*arrays(g, "label", "pred")),
    "clf_log_loss": lambda g: skm.log_loss(*arrays(g, "label", "score")),
    "clf_auroc": lambda g: skm.roc_auc_score(*arrays(g, "label", "score")),
}


def check_grouped_scalars(rows: list[dict], frame: pl.DataFrame) -> None:
    """``SELECT model, clf_x(...), ... GROUP BY model``: each value equals scikit-learn's."""
    expected = groups(frame, ["model"])
    assert {(r["model"],) for r in rows} == set(expected)
    for r in rows:
        for column, value in list(r.items())[1:]:
            macro = re.match(r"(clf_\w+)\(", column).group(1)
            assert value == approx(SCALAR[macro](expected[(r["model"],)])), (column, r)


# table macro -> the check of its rows
TABLE: dict[str, Callable[[list[dict], pl.DataFrame], None]] = {
    "clf_report": check_report,
    "clf_roc_curve": check_roc_curve,
    "clf_auroc": check_auroc,
}


def check_statement(statement: str, rows: list[dict], frame: pl.DataFrame) -> None:
    """The numbers a person would check, by the macro the statement calls."""
    table_macro = re.match(r"FROM (clf_\w+)\(", statement)
    if table_macro:
        TABLE[table_macro.group(1)](rows, frame)
    elif statement.startswith("SELECT"):
        check_grouped_scalars(rows, frame)


# --- the blocks ------------------------------------------------------------------------------


def test_every_block_is_covered() -> None:
    """A new README block fails here until a test runs or classifies it."""
    assert set(BLOCKS) == set(HANDLED)
    for test, _ in HANDLED.values():
        assert callable(globals().get(test)), test


def test_quick_start_is_run_by_ci() -> None:
    """The Quick start blocks are .ci/run's own lines (pip installs; not re-run here)."""
    ci = {line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()}
    for key in ("quick-start/bash-1", "quick-start/bash-2"):
        (command,) = commands(BLOCKS[key])
        assert command.text.strip() in ci, (key, command.text)


def test_python_block(tmp_path: Path) -> None:
    block = BLOCKS["python/python-1"]
    done = run_python(block, tmp_path)
    assert done.stderr == ""
    df = ce.datasets.predictions()
    assert done.stdout == skm.classification_report(*arrays(df, "y", "yhat")) + "\n"
    assert GENERATOR in (tmp_path / "report.html").read_text(encoding="utf-8")


def python_prelude() -> str:
    """The first Python block's imports and its ``df``, which the later blocks continue."""
    lines = BLOCKS["python/python-1"].text.splitlines()
    return "".join(f"{x}\n" for x in lines if x.startswith(("import ", "df = ")))


def test_multiclass_block(tmp_path: Path) -> None:
    done = run_python(BLOCKS["python/python-2"], tmp_path, python_prelude())
    assert done.stderr == ""
    mc = ce.datasets.predictions_multiclass()
    for model, rows in groups(mc, ["model"]).items():
        y, p = rows["y"].cast(pl.String).to_numpy(), rows.select("p_high", "p_low", "p_medium")
        assert (
            skm.classification_report(
                y, rows["yhat"].cast(pl.String).to_numpy(), labels=["low", "medium", "high"]
            ).split("\n", 2)[2]
            in done.stdout
        ), model
        auroc = skm.roc_auc_score(y, p.to_numpy(), multi_class="ovr")
        assert re.search(rf"auroc\s+{auroc:.4f}", done.stdout), (model, auroc)


def test_comparing_block(tmp_path: Path) -> None:
    done = run_python(BLOCKS["python/python-3"], tmp_path, python_prelude())
    assert done.stderr == ""
    df = ce.datasets.predictions()
    for model, rows in groups(df, ["model"]).items():
        row = next(x for x in done.stdout.splitlines() if x.startswith(f"│ {model[0]} "))
        auroc = skm.roc_auc_score(*arrays(rows, "y", "score"))
        assert f"{auroc:.6f}".rstrip("0") in row, (model, row)


def test_any_frame_block(tmp_path: Path) -> None:
    done = run_python(BLOCKS["python/python-4"], tmp_path, python_prelude())
    assert done.stderr == ""
    df = ce.datasets.predictions()
    west = ce.roc_curve(df.filter(pl.col("region") == "west"), "y", "score", by="model")
    assert f"shape: ({west.height:_}, 4)" in done.stdout


def test_uncertainty_block(tmp_path: Path) -> None:
    done = run_python(BLOCKS["uncertainty/python-1"], tmp_path, python_prelude())
    assert done.stderr == ""
    df = ce.datasets.predictions()
    report = str(ce.report(df, "y", "yhat", ci=0.95, n_boot=1000, seed=0))
    assert report in done.stdout
    delong = ce.auroc_ci(df, "y", "score", by="model")
    for row in delong.iter_rows(named=True):
        line = next(x for x in done.stdout.splitlines() if x.startswith(f"│ {row['model']} "))
        assert f"{row['auroc_lo']:.6f}".rstrip("0") in line, (row, line)
    assert "n_a_only" in done.stdout
    assert "p_value" in done.stdout


def test_uncertainty_sql_block(tmp_path: Path, preds: pl.DataFrame) -> None:
    """Loaded by its comment's command, each statement in a duckdb CLI process (the oldest
    client clfeval supports): the numbers of the Polars functions, the same draws."""
    cli = require("duckdb", "the test extra's duckdb-cli")
    block = BLOCKS["uncertainty/sql-1"]
    (load,) = sql_comment_commands(block)
    write_preds(tmp_path, preds)
    done = sh(load, tmp_path)
    assert done.returncode == 0, failure(load, done)
    db = load.rsplit(" ", 1)[1]
    duckdb_json(cli, db, "CREATE TABLE preds AS FROM 'preds/*.parquet'", tmp_path)
    got = query_rows(cli, db, sql_statements(block), tmp_path)
    ci, boot, scores, delong = (pl.DataFrame(rows) for rows in got.values())
    want = ce.metrics(preds, "label", "pred", by="model", ci=0.95, n_boot=1000, seed=0)
    for column in ("f1_lo", "mcc_hi", "accuracy_n_undefined"):
        assert ci.sort("model")[column].to_list() == approx(want[column].to_list()), column
    reps = ce.bootstrap(preds, "label", "pred", by="model", n_boot=200, seed=0)
    assert boot.sort("model", "replicate")["recall"].to_list() == approx(reps["recall"].to_list())
    assert scores.height == 400
    want = ce.auroc_ci(preds, "label", "score", by="model")
    assert delong.sort("model")["se"].to_list() == approx(want["se"].to_list())


@pytest.mark.parametrize(
    "loader",
    ["cat sql/*.sql | duckdb", "clfeval sql | duckdb", "clfeval sql --install"],
    ids=["cat-sql", "clfeval-sql-pipe", "install"],
)
def test_sql_block(loader: str, tmp_path: Path, preds: pl.DataFrame) -> None:
    """Macros loaded with no Python (each pipeline of the comment) or by ``--install``, into a
    file with a ``preds`` table made by the duckdb CLI; each statement then runs in another
    duckdb CLI process and its numbers equal scikit-learn's."""
    cli = require("duckdb", "the test extra's duckdb-cli")
    block = BLOCKS["sql-duckdb/sql-1"]
    pipelines = sql_comment_commands(block)
    db = pipelines[0].rsplit(" ", 1)[1]
    (load,) = [c for c in [*pipelines, f"clfeval sql --install {db}"] if c.startswith(loader)]
    write_preds(tmp_path, preds)
    duckdb_json(cli, db, "CREATE TABLE preds AS FROM 'preds/*.parquet'", tmp_path)
    done = sh(load, tmp_path)
    assert done.returncode == 0, failure(load, done)
    assert done.stderr == ""
    for statement, rows in query_rows(cli, db, sql_statements(block), tmp_path).items():
        check_statement(statement, rows, preds)


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty directory, after the Command line section's first block made the example files."""
    folder = tmp_path_factory.mktemp("cli")
    (make,) = commands(BLOCKS["command-line/bash-1"])
    done = sh(make.text, folder)
    assert done.returncode == 0, failure(f"README.md:{make.line}: {make.text}", done)
    return folder


@pytest.fixture(scope="module")
def cli_runs(cli_dir: Path) -> Runs:
    return run_commands(BLOCKS["command-line/bash-2"], cli_dir)


def test_example_files(cli_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The files its comment names exist, and warehouse.db's ``preds`` is a view over Parquet."""
    (make,) = commands(BLOCKS["command-line/bash-1"])
    named = re.findall(r"[\w-]+\.(?:parquet|csv|db)\b", make.comment or "")
    assert len(named) == 3, make.comment
    assert all((cli_dir / name).is_file() for name in named), named
    monkeypatch.chdir(cli_dir)  # the view's relative path resolves against the working directory
    with duckdb.connect("warehouse.db", read_only=True) as con:
        (view,) = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'preds'").fetchone()
        (n,) = con.execute("SELECT count(*) FROM preds").fetchone()
    assert "preds.parquet" in view
    assert n == ce.datasets.predictions().height


def test_cli_commands(cli_runs: Runs) -> None:
    assert_ran(cli_runs)


def test_cli_numbers(cli_runs: Runs, cli_dir: Path) -> None:
    """What a person would check of each report: scikit-learn's numbers and text."""
    df = ce.datasets.predictions()
    y, yhat = arrays(df, "y", "yhat")

    got = json.loads(one(cli_runs, "--format json"))
    expected = skm.classification_report(y, yhat, output_dict=True)
    assert got["report"].keys() == expected.keys()
    for key, ref in expected.items():
        assert got["report"][key] == approx(ref), key
    assert got["metrics"] == approx(sk_metrics(y, yhat, "binary"))

    tidy = pl.read_csv(one(cli_runs, "--format csv").encode()).filter(section="metrics")
    for (region,), rows in tidy.partition_by("region", as_dict=True).items():
        got = dict(zip(rows["metric"], rows["value"]))
        assert got == approx(sk_metrics(*arrays(df.filter(region=region), "y", "yhat"), "macro"))

    text = one(cli_runs, "--db warehouse.db")
    for (model,), g in df.partition_by("model", as_dict=True).items():
        assert f"model={model}\n" + skm.classification_report(*arrays(g, "y", "yhat")) in text
    west = df.filter(region="west")
    assert one(cli_runs, "--query") == skm.classification_report(*arrays(west, "y", "yhat"))

    for page in ("report.html", "demo.html"):
        assert GENERATOR in (cli_dir / page).read_text(encoding="utf-8"), page


def test_error_transcript(cli_dir: Path) -> None:
    """``$ COMMAND`` then the lines it prints on stderr, exit code 2."""
    first, *shown = BLOCKS["command-line/text-1"].text.splitlines()
    assert first.startswith("$ ")
    assert not [line for line in shown if line.startswith("$ ")]
    done = sh(first[2:], cli_dir)
    assert (done.returncode, done.stdout, done.stderr.splitlines()) == (2, "", shown)


def test_closed_pipe_commands(tmp_path: Path) -> None:
    """The two inline commands of the Errors item: a reader that closes early, or is gone."""
    text = README.read_text(encoding="utf-8")
    paragraph = " ".join(text[text.index("A closed pipe ends quietly") :].split("\n\n")[0].split())
    head, status, printed = re.findall(r"`([^`]+)`", paragraph)
    done = sh(head, tmp_path)
    assert (done.returncode, len(done.stdout.splitlines()), done.stderr) == (0, 3, "")
    done = sh(status, tmp_path, "-u")  # no -e: the command reads the status of a failed pipeline
    assert (done.stdout.strip(), done.stderr) == (printed, "")


@pytest.fixture(scope="module")
def scaling_dir(tmp_path_factory: pytest.TempPathFactory, preds: pl.DataFrame) -> Path:
    folder = tmp_path_factory.mktemp("scaling")
    write_preds(folder, preds)
    return folder


def test_scaling_polars(scaling_dir: Path, preds: pl.DataFrame) -> None:
    python = BLOCKS["python/python-1"].text.splitlines()
    imports = "".join(f"{line}\n" for line in python if line.startswith("import "))
    done = run_python(BLOCKS["scaling/python-1"], scaling_dir, imports)
    assert done.stderr == ""
    assert done.stdout == skm.classification_report(*arrays(preds, "label", "pred")) + "\n"


def test_scaling_duckdb(scaling_dir: Path, preds: pl.DataFrame) -> None:
    """Its comment's ``cat sql/*.sql | duckdb DB``, then each statement in a duckdb CLI process."""
    cli = require("duckdb", "the test extra's duckdb-cli")
    block = BLOCKS["scaling/sql-1"]
    (load,) = sql_comment_commands(block)
    done = sh(load, scaling_dir)
    assert done.returncode == 0, failure(load, done)
    assert done.stderr == ""
    db = load.rsplit(" ", 1)[1]
    for statement, rows in query_rows(cli, db, sql_statements(block), scaling_dir).items():
        check_statement(statement, rows, preds)


@pytest.mark.spark
def test_scaling_spark(scaling_dir: Path, preds: pl.DataFrame) -> None:
    """The shown rows are points of scikit-learn's ROC curve of their model (cells that
    ``show()`` cut short, ending in ``...``, are left out)."""
    require("java", "Spark needs Java 17: run .ci/spark-setup.sh")
    done = run_python(BLOCKS["scaling/python-3"], scaling_dir, SPARK_PRELUDE)
    header, *rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in done.stdout.splitlines()
        if line.startswith("|")
    ]
    assert header == ["model", "threshold", "fpr", "tpr"]
    assert rows, done.stdout
    points = {}
    for (model,), g in preds.partition_by("model", as_dict=True).items():
        fpr, tpr, thresholds = skm.roc_curve(*arrays(g, "label", "score"))
        points |= {(model, t): (f, r) for f, r, t in zip(fpr, tpr, thresholds)}
    for model, threshold, *rates in rows:
        expected = points[(model, float(threshold))]
        for cell, value in zip(rates, expected):
            assert cell.endswith("...") or float(cell) == approx(value), (model, threshold)


@pytest.mark.spark
def test_scaling_spark_frame(scaling_dir: Path, preds: pl.DataFrame) -> None:
    """A Spark DataFrame into ce.metrics, ce.report, ce.auroc_ci and ce.report_html: the same
    printout and page as from Polars."""
    from test_spark_reduce import same_page

    require("java", "Spark needs Java 17: run .ci/spark-setup.sh")
    done = run_python(BLOCKS["scaling/python-2"], scaling_dir, SPARK_PRELUDE)
    frame = pl.read_parquet(scaling_dir / "preds" / "*.parquet")
    want = str(ce.metrics(frame, "label", "pred", score="score", by="model").sort("model"))
    want += "\n" + str(ce.report(frame, "label", "pred"))
    want += "\n" + str(ce.auroc_ci(frame, "label", "score", by="model").sort("model")) + "\n"
    assert done.stdout == want
    page = ce.report_html(frame, "label", "pred", score="score").to_html()
    same_page((scaling_dir / "report.html").read_text(), page)


def test_scaling_bash(tmp_path: Path) -> None:
    assert_ran(run_commands(BLOCKS["scaling/bash-1"], tmp_path))


@pytest.mark.spark
def test_scaling_run(scaling_dir: Path, preds: pl.DataFrame, postgres) -> None:
    """clfeval.sql.run on PostgreSQL and Spark, as written: the printed metrics per model are
    the Polars front door's."""
    require("java", "Spark needs Java 17: run .ci/spark-setup.sh")
    table = preds.select("model", "label", "pred", "score")
    with postgres.cursor() as cur:
        cur.execute("DROP DATABASE IF EXISTS warehouse")
        cur.execute("CREATE DATABASE warehouse")
    import psycopg

    with psycopg.connect(host=postgres.info.host, user="postgres", dbname="warehouse") as con:
        con.execute("CREATE TABLE preds (model text, label bigint, pred bigint, score float8)")
        with con.cursor().copy("COPY preds FROM STDIN") as copy:
            for row in table.iter_rows():
                copy.write_row(row)
    prelude = (
        f"import os\nos.environ['PGHOST'] = {postgres.info.host!r}\n"
        "os.environ['PGUSER'] = 'postgres'\n"
        + SPARK_PRELUDE
        + "spark.read.parquet('preds').createOrReplaceTempView('preds')\n"
    )
    done = run_python(BLOCKS["scaling/python-4"], scaling_dir, prelude)
    want = ce.metrics(preds, "label", "pred", by="model").sort("model")
    with pl.Config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=100):
        shown = str(want)
    assert "shape: (" in done.stdout
    assert "│ model" in done.stdout
    for line in shown.splitlines()[-4:-1]:  # the models' rows, exactly as Polars prints them
        assert line in done.stdout, (line, done.stdout)


def test_cli_loads_macros_into_the_command_line_warehouse(cli_dir: Path, tmp_path: Path) -> None:
    """The SQL section's ``cat sql/*.sql | duckdb warehouse.db`` on the warehouse.db that the
    Command line section makes with Python (a copy)."""
    require("duckdb", "the test extra's duckdb-cli")
    shutil.copy(cli_dir / "warehouse.db", tmp_path)
    (tmp_path / "sql").symlink_to(ROOT / "sql", target_is_directory=True)
    load = sql_comment_commands(BLOCKS["sql-duckdb/sql-1"])[0]
    done = sh(load, tmp_path)
    assert done.returncode == 0, failure(load, done)


def test_decisions_block(tmp_path: Path) -> None:
    done = run_python(BLOCKS["from-scores-to-decisions/python-1"], tmp_path)
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    for model, rows in groups(ce.datasets.predictions(), ["model"]).items():
        y, s = arrays(rows, "y", "score")
        cuts = np.unique(s)
        cost = np.array(
            [((s >= t) & (y == 0)).sum() + 10 * ((s < t) & (y == 1)).sum() for t in cuts]
        )
        best = cuts[np.flatnonzero(cost == cost.min())[-1]]  # ties: the highest threshold
        row = next(x for x in lines if x.startswith(f"│ {model[0]} ") and "0.090909" in x)
        assert f"┆ {best} " in row, (model, best, row)
        assert f"{cost.min() / len(y):.6f}".rstrip("0") in row, (model, row)


SQL_METRICS = [
    "accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc", "specificity",
    "fpr", "npv", "fnr", "jaccard", "fbeta", "cohen_kappa",
]  # fmt: skip


def test_decisions_sql_block(preds: pl.DataFrame) -> None:
    statements = [x.strip() for x in BLOCKS["from-scores-to-decisions/sql-1"].text.split(";")]
    statements = [x for x in statements if x]
    con = duckdb.connect()
    ce.sql.load(con)
    con.register("preds", preds)
    twins = [
        # clf_metrics returns every metric of the table (13); ce.metrics the ones asked for
        ce.metrics(preds, "label", "pred", metrics=SQL_METRICS, prevalence=0.02, by="model"),
        ce.thresholds(preds, "label", "score", cost_fp=1, cost_fn=10, by="model"),
        ce.decision_curve(preds, "label", "score", thresholds=[0.1, 0.2, 0.3], by="model"),
        ce.cv_summary(preds, "label", "pred", fold="day", metrics=SQL_METRICS, by="model"),
    ]
    assert len(statements) == len(twins)
    for statement, twin in zip(statements, twins):
        got = con.sql(statement).pl().sort("model", maintain_order=True)
        assert got.columns == twin.columns, statement
        for column in twin.columns:
            a, b = got[column], twin[column]
            if a.dtype.is_float():
                np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=0, atol=TOL)
            else:
                assert a.to_list() == b.to_list(), (statement, column)
