"""``clfeval report --engine spark`` and ``clfeval sql --metric ... --engine spark``: the same
output as the Polars engine, computed inside Spark (the test's session is reused: in-process)."""

from __future__ import annotations

import builtins
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from test_cli import assert_one_error, run  # tests/ is on sys.path (conftest)

import clfeval as ce
from clfeval import datasets

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Binary predictions with a score and weights, grouped by model, as Parquet and CSV."""
    d = tmp_path_factory.mktemp("cli_spark")
    df = datasets.predictions(400, seed=5).with_columns(
        w=(pl.int_range(pl.len()) % 4).cast(pl.Float64)
    )
    paths = {"parquet": d / "preds.parquet", "csv": d / "preds.csv"}
    df.write_parquet(paths["parquet"])
    df.write_csv(paths["csv"])
    bad = pl.DataFrame(
        {
            "y": ["0", "1", "1", "0"],
            "yhat": ["0", "1", "0", "0"],
            "yi": [0, 1, 0, 0],
            "w": [1.0, -1.0, 1.0, 2.0],
        }
    )
    paths["bad"] = d / "bad.parquet"
    bad.write_parquet(paths["bad"])
    return paths


def close(got: object, want: object, where: str = "") -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        assert list(got) == list(want), where
        for k in want:
            close(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list), where
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            close(g, w, f"{where}[{i}]")
    elif isinstance(want, float) and isinstance(got, float):
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), where
    else:
        assert (type(got), got) == (type(want), want), where


def same_output(got: str, want: str, fmt: str) -> None:
    """Text is identical; JSON and CSV print full-precision floats, which Spark sums in
    another order: the same keys, labels and counts, and numbers within 1e-12."""
    if fmt == "text":
        assert got == want
        return
    if fmt == "json":
        close(json.loads(got), json.loads(want))
        return
    g = pl.read_csv(got.encode(), infer_schema=False)
    w = pl.read_csv(want.encode(), infer_schema=False)
    assert g.drop("value").equals(w.drop("value"))
    gv, wv = g["value"].cast(pl.Float64), w["value"].cast(pl.Float64)
    assert gv.is_null().equals(wv.is_null())
    assert ((gv - wv).abs() <= 1e-12 * (1 + wv.abs())).fill_null(True).all()


def both(capsys, *argv: str | Path) -> tuple[str, str]:
    """The output of the Polars engine and of the Spark engine (each must succeed)."""
    code, want, err = run(capsys, *argv)
    assert (code, err) == (0, ""), err
    code, got, err = run(capsys, *argv, "--engine", "spark")
    assert (code, err) == (0, ""), err
    return want, got


COLUMNS = ("--y", "y", "--yhat", "yhat")
CASES = {  # name: (columns, the formats compared)
    "binary_score": ((*COLUMNS, "--score", "score"), ("text", "json")),
    "grouped": ((*COLUMNS, "--score", "score", "--by", "model"), ("text", "csv")),
    "weighted": ((*COLUMNS, "--weight", "w", "--by", "model"), ("text", "json")),
}


@pytest.mark.parametrize("case", CASES)
def test_report_equals_polars(spark, capsys, files, case):
    columns, formats = CASES[case]
    for fmt in formats:
        argv = ("report", files["parquet"], *columns, "--digits", "4", "--format", fmt)
        want, got = both(capsys, *argv)
        same_output(got, want, fmt)


def test_report_csv_input_and_average(spark, capsys, files):
    columns = (*CASES["grouped"][0], "--average", "macro")
    want, got = both(capsys, "report", files["csv"], *columns, "--format", "json")
    same_output(got, want, "json")
    want, got = both(capsys, "report", files["csv"], *COLUMNS, "--pos-label", "0")
    assert got == want


def test_report_of_a_catalog_table(spark, capsys, files):
    spark.read.parquet(str(files["parquet"])).createOrReplaceTempView("cli_preds")
    code, want, _ = run(capsys, "report", files["parquet"], *CASES["grouped"][0], "--format", "csv")
    code, got, err = run(
        capsys, "report", "--table", "cli_preds", "--engine", "spark", *CASES["grouped"][0],
        "--format", "csv",
    )  # fmt: skip
    assert (code, err) == (0, "")
    same_output(got, want, "csv")


def test_sql_metric_runs_on_spark(spark, capsys, files):
    args = ("sql", "--metric", "roc_curve", "--table", files["parquet"], "--y", "y")
    code, out, err = run(capsys, *args, "--score", "score", "--group-cols", "model", "--engine", "spark")  # fmt: skip
    assert (code, err) == (0, "")
    got = pl.read_csv(out.encode(), schema_overrides={"model": pl.String})
    want = ce.roc_curve(pl.read_parquet(files["parquet"]), "y", "score", by="model")
    assert got.columns == want.columns
    key = ["model", "threshold"]
    got, want = got.sort(key, descending=[False, True]), want.sort(key, descending=[False, True])
    assert got["model"].to_list() == want["model"].to_list()
    for c in ("fpr", "tpr"):
        assert (got[c] - want[c]).abs().max() < 1e-12, c
    code, out, err = run(capsys, *args, "--yhat", "yhat", "--engine", "spark", "--metric", "counts")
    assert (code, err) == (0, "")
    want = ce.counts(pl.read_parquet(files["parquet"]), "y", "yhat")
    assert pl.read_csv(out.encode()).equals(want)


@pytest.mark.parametrize(
    "argv",
    [
        (*COLUMNS, "--score", "scroe"),  # a missing column
        ("--y", "y", "--yhat", "yhat", "--pos-label", "yes"),  # not an integer
        ("--y", "y", "--yhat", "yhat", "--pos-label", "7"),  # not a class
    ],
)
def test_errors_equal_polars(spark, capsys, files, argv):
    code, _, polars_err = run(capsys, "report", files["parquet"], *argv)
    want = assert_one_error(code, polars_err)
    code, out, err = run(capsys, "report", files["parquet"], *argv, "--engine", "spark")
    assert out == ""
    assert assert_one_error(code, err) == want


def test_data_errors_equal_polars(spark, capsys, files):
    for argv in (
        ("--y", "y", "--yhat", "yhat", "--weight", "w"),  # a negative weight
        ("--y", "y", "--yhat", "yi", "--pos-label", "1"),  # text against numbers
        ("--y", "yi", "--yhat", "yhat", "--format", "json"),  # numbers against text
    ):
        code, _, polars_err = run(capsys, "report", files["bad"], *argv)
        want = assert_one_error(code, polars_err).split(" (rows")[0]
        code, out, err = run(capsys, "report", files["bad"], *argv, "--engine", "spark")
        assert (out, assert_one_error(code, err).split(" (rows")[0]) == ("", want)


def test_refused_options(spark, capsys, files, tmp_path):
    for extra, needle in (
        (("--schema", "y=int"), "--schema does not go with --engine spark"),
        (("--query", "SELECT 1"), "--query does not go with --engine spark"),
    ):
        code, out, err = run(
            capsys, "report", files["parquet"], *COLUMNS, "--engine", "spark", *extra
        )
        assert out == ""
        assert_one_error(code, err, needle)
    code, _, err = run(capsys, "report", "--table", "no_such_table", *COLUMNS, "--engine", "spark")
    assert_one_error(code, err, "Spark cannot read table 'no_such_table'")


def test_pyspark_missing_is_one_line(capsys, files, monkeypatch):
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name == "pyspark" or name.startswith("pyspark."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    code, out, err = run(capsys, "report", files["parquet"], *COLUMNS, "--engine", "spark")
    assert out == ""
    assert_one_error(code, err, "--engine spark needs pyspark", "pip install pyspark")
    code, out, err = run(
        capsys, "sql", "--metric", "counts", "--table", "t", *COLUMNS, "--engine", "spark"
    )
    assert_one_error(code, err, "--engine spark needs pyspark")


def test_a_new_session_in_a_subprocess(files, tmp_path):
    """Without an active session the command starts one (local[*], or $SPARK_MASTER)."""
    if shutil.which("java") is None:
        if os.environ.get("CI"):  # .ci/spark-setup.sh installs Java: missing there is a failure
            pytest.fail("java is not installed: .ci/spark-setup.sh should have done it")
        pytest.skip("Spark needs Java 17: run .ci/spark-setup.sh")
    submit = (
        "--driver-java-options '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' --conf "
        "spark.ui.enabled=false --conf spark.sql.shuffle.partitions=2 --conf "
        "spark.sql.adaptive.enabled=false --conf spark.sql.codegen.wholeStage=false pyspark-shell"
    )
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_MASTER": "local[2]"}
    env["PYSPARK_SUBMIT_ARGS"] = submit
    argv = ["report", str(files["parquet"]), *COLUMNS, "--by", "model"]
    done = subprocess.run(
        [sys.executable, "-m", "clfeval", *argv, "--engine", "spark"],
        capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    want = subprocess.run(
        [sys.executable, "-m", "clfeval", *argv], capture_output=True, text=True, timeout=60
    )
    same_output(done.stdout, want.stdout, "text")


def test_report_html_equals_polars(spark, capsys, files, tmp_path):
    """``--html`` with ``--engine spark``: the report computed inside Spark, the charts from
    the rows Spark reduces; the page the Polars engine writes."""
    from test_spark_reduce import same_page

    argv = ("report", files["parquet"], *CASES["grouped"][0], "--weight", "w")
    pages = {}
    for engine in ("polars", "spark"):
        out = tmp_path / f"{engine}.html"
        extra = ("--engine", "spark") if engine == "spark" else ()
        code, _, err = run(capsys, *argv, "--html", out, *extra)
        assert code == 0, err
        assert f"wrote {out}" in err
        pages[engine] = out.read_text()
    same_page(pages["spark"], pages["polars"])
