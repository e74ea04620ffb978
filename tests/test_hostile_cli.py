"""Hostile DATA through the command line (``tests/test_cli_hostile.py`` covers the options
and the files): every bad input is exit code 2, nothing on stdout and one stderr line
``clfeval: error: ...`` carrying the library's own message for the same input (the same
text on every Python surface), never Polars' or DuckDB's text.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
import sklearn.metrics as skm
from hostile_surfaces import INF, NAN, base, close, expect_error, set_row

import clfeval as ce
from clfeval.cli import main

RAW_TEXT = (
    "Traceback",
    "more than one occurrence",
    "duplicate output name",
    "polars.exceptions",
    "_duckdb",
    "Binder Error",
    "Resolved plan",
)


def cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, out: str, err: str) -> str:
    assert code == 2, (code, err)
    assert out == "", out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("clfeval: error: "), lines[0]
    for raw in RAW_TEXT:
        assert raw not in lines[0], lines[0]
    return lines[0]


def _proba(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(p0=1 - pl.col("s"), p1=(pl.col("s") + 0.1).clip(0, 1))


# id -> (frame, extra argv, the library call on the same frame, what the line names)
CASES: dict[str, tuple[Callable[[], pl.DataFrame], list[str], Callable[[pl.DataFrame], Any], str]]
CASES = {
    "weight-negative": (
        lambda: set_row(base(), "w", -1.0), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "weight-nan": (
        lambda: set_row(base(), "w", NAN), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "weight-inf": (
        lambda: set_row(base(), "w", INF), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "weight-null": (
        lambda: set_row(base(), "w", None), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "weight-all-zero": (
        lambda: base().with_columns(w=pl.lit(0.0)), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "weight-overflow": (
        lambda: base().with_columns(w=pl.lit(1e308)), ["--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", weight="w"), "'w' (weight)"),
    "score-nan": (
        lambda: set_row(base(), "s", NAN), ["--score", "s"],
        lambda d: ce.report(d, "y", "yhat", score="s"), "'s' (score)"),
    "score-inf": (
        lambda: set_row(base(), "s", -INF), ["--score", "s"],
        lambda d: ce.report(d, "y", "yhat", score="s"), "'s' (score)"),
    "score-above-1": (
        lambda: set_row(base(), "s", 1.5), ["--score", "s"],
        lambda d: ce.report(d, "y", "yhat", score="s"), "'s' (score)"),
    "score-below-0": (
        lambda: set_row(base(), "s", -0.2), ["--score", "s"],
        lambda d: ce.report(d, "y", "yhat", score="s"), "'s' (score)"),
    "score-struct": (
        lambda: base().with_columns(pl.struct("s").alias("s")), ["--score", "s"],
        lambda d: ce.report(d, "y", "yhat", score="s"), "'s' (score)"),
    "y-null": (
        lambda: set_row(base(), "y", None), [],
        lambda d: ce.report(d, "y", "yhat"), "'y' (y)"),
    "y-fraction": (
        lambda: set_row(base(), "y", 0.7), [],
        lambda d: ce.report(d, "y", "yhat"), "'y' (y)"),
    "y-inf": (
        lambda: set_row(base(), "y", INF), [],
        lambda d: ce.report(d, "y", "yhat"), "'y' (y)"),
    "y-date": (
        lambda: base().with_columns(pl.col("y").cast(pl.Date)), [],
        lambda d: ce.report(d, "y", "yhat"), "'y' (y)"),
    "int-vs-text": (
        lambda: base().with_columns(pl.col("yhat").cast(pl.String)), [],
        lambda d: ce.report(d, "y", "yhat"), "'yhat'"),
    "enum-vs-enum": (
        lambda: base().with_columns(
            pl.col("y").cast(pl.String).cast(pl.Enum(["0", "1"])),
            pl.col("yhat").cast(pl.String).cast(pl.Enum(["1", "0"]))), [],
        lambda d: ce.report(d, "y", "yhat"), "'yhat'"),
    "zero-rows-after-drop": (
        lambda: base().with_columns(y=pl.lit(None, pl.Int64)), ["--missing", "drop"],
        lambda d: ce.report(d, "y", "yhat", missing="drop"), "no rows"),
    "proba-not-summing-to-1": (
        lambda: _proba(base()), ["--proba", "p0,p1", "--labels", "0,1"],
        lambda d: ce.report(d, "y", "yhat", score={0: "p0", 1: "p1"}), "'p0'"),
    "by-is-weight": (
        lambda: base(), ["--by", "w", "--weight", "w"],
        lambda d: ce.report(d, "y", "yhat", by="w", weight="w"), "'w'"),
    "yhat-named-__clf_n": (
        lambda: base().rename({"yhat": "__clf_n"}), ["--yhat", "__clf_n"],
        lambda d: ce.report(d, "y", "__clf_n"), "'__clf_n'"),
    **{
        f"by-named-{name}": (
            lambda name=name: base().rename({"g": name}), ["--by", name],
            lambda d, name=name: ce.report(d, "y", "yhat", by=name), repr(name))
        for name in ("tp", "fp", "fn", "tn", "support", "label", "n_excluded", "precision")
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def d(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile_cli")


def _argv(path: Path, extra: list[str]) -> list[str]:
    argv = ["report", str(path), "--y", "y", "--yhat", "yhat", "--format", "json"]
    if "--yhat" in extra:
        i = argv.index("--yhat")
        argv[i + 1] = extra[extra.index("--yhat") + 1]
        extra = [e for j, e in enumerate(extra) if j not in (extra.index("--yhat"),
                                                              extra.index("--yhat") + 1)]  # fmt: skip
    return argv + extra


@pytest.mark.parametrize("case", list(CASES))
def test_bad_data_is_one_line_with_the_librarys_message(
    capsys: pytest.CaptureFixture[str], d: Path, case: str
) -> None:
    make, extra, library, names = CASES[case]
    df = make()
    path = d / f"{case}.parquet"
    df.write_parquet(path)
    line = one_line(*cli(capsys, _argv(path, extra)))
    assert names in line, line
    err = expect_error(lambda: library(df))
    assert err.message in line, (err.message, line)


CSV_CASES = {
    "csv-weight-negative": ("y,yhat,w\n0,0,-1\n1,1,1\n1,0,1\n", ["--weight", "w"], "'w' (weight)"),
    "csv-weight-nan": ("y,yhat,w\n0,0,nan\n1,1,1\n1,0,1\n", ["--weight", "w"], "'w' (weight)"),
    "csv-score-inf": ("y,yhat,s\n0,0,inf\n1,1,0.5\n1,0,0.2\n", ["--score", "s"], "'s' (score)"),
    "csv-score-NaN": ("y,yhat,s\n0,0,NaN\n1,1,0.5\n1,0,0.2\n", ["--score", "s"], "'s' (score)"),
    "csv-score-1.5": ("y,yhat,s\n0,0,1.5\n1,1,0.5\n1,0,0.2\n", ["--score", "s"], "'s' (score)"),
    "csv-score-text": ("y,yhat,s\n0,0,high\n1,1,0.5\n1,0,0.2\n", ["--score", "s"], "'s'"),
    "csv-weight-text": ("y,yhat,w\n0,0,heavy\n1,1,1\n1,0,1\n", ["--weight", "w"], "'w'"),
}


@pytest.mark.parametrize("case", list(CSV_CASES))
def test_bad_csv_values(capsys: pytest.CaptureFixture[str], d: Path, case: str) -> None:
    text, extra, names = CSV_CASES[case]
    path = d / f"{case}.csv"
    path.write_text(text, encoding="utf-8")
    line = one_line(*cli(capsys, _argv(path, extra)))
    assert names in line, line


DB_VIEWS = {
    "db-negative-weight": ("SELECT y, yhat, -1.0 AS w FROM t", ["--weight", "w"], "'w' (weight)"),
    "db-varchar-vs-int": ("SELECT y::VARCHAR AS y, yhat FROM t", [], "'yhat'"),
    "db-zero-rows": ("SELECT * FROM t WHERE false", [], "no rows"),
    "db-nan-score": ("SELECT y, yhat, 'NaN'::DOUBLE AS s FROM t", ["--score", "s"], "'s' (score)"),
    "db-interval-score": ("SELECT y, yhat, INTERVAL 1 DAY AS s FROM t", ["--score", "s"], "'s'"),
    "db-union-label": (
        "SELECT y::INTEGER::UNION(i INTEGER, v VARCHAR) AS y, yhat FROM t",
        [],
        "'y'",
    ),
}


@pytest.mark.parametrize("case", list(DB_VIEWS))
def test_bad_data_in_a_duckdb_table(capsys: pytest.CaptureFixture[str], d: Path, case: str) -> None:
    sql, extra, names = DB_VIEWS[case]
    db = d / f"{case}.duckdb"
    with duckdb.connect(str(db)) as con:
        con.register("src", base().to_arrow())
        con.execute("CREATE TABLE t AS SELECT * FROM src")
        con.execute(f"CREATE TABLE v AS {sql}")
    argv = ["report", "--db", str(db), "--table", "v", "--y", "y", "--yhat", "yhat", *extra]
    line = one_line(*cli(capsys, argv))
    assert names in line, line


def test_drops_are_counted_and_never_checked(capsys: pytest.CaptureFixture[str], d: Path) -> None:
    """The dropped rows hold a negative weight and a probability of 1.7: never reported."""
    df = set_row(set_row(set_row(base(), "s", NAN, 0), "w", -5.0, 0), "y", None, 1)
    df = set_row(df, "s", 1.7, 1)
    path = d / "drops.parquet"
    df.write_parquet(path)
    argv = _argv(path, ["--score", "s", "--weight", "w", "--missing", "drop",
                        "--nonfinite", "drop"])  # fmt: skip
    code, out, err = cli(capsys, argv)
    assert code == 0, err
    assert "2 row(s)" in err, err
    got = json.loads(out)
    kept = df.slice(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auroc = skm.roc_auc_score(kept["y"], kept["s"], sample_weight=kept["w"])
    assert close(got["metrics"]["auroc"], auroc), got.get("metrics")


def test_huge_weights_keep_the_numbers(capsys: pytest.CaptureFixture[str], d: Path) -> None:
    df = base().with_columns(pl.col("w") * 1e300)
    path = d / "huge.parquet"
    df.write_parquet(path)
    code, out, err = cli(capsys, _argv(path, ["--weight", "w", "--score", "s"]))
    assert code == 0, err
    got = json.loads(out)
    b = base()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f1 = skm.f1_score(b["y"], b["yhat"], sample_weight=b["w"])
        auroc = skm.roc_auc_score(b["y"], b["s"], sample_weight=b["w"])
        mcc = skm.matthews_corrcoef(b["y"], b["yhat"], sample_weight=b["w"])
    assert close(got["report"]["1"]["f1-score"], f1)
    assert close(got["metrics"]["mcc"], mcc), got["metrics"]
    assert close(got["metrics"]["auroc"], auroc), got.get("metrics")


def test_int8_against_uint64_max(capsys: pytest.CaptureFixture[str], d: Path) -> None:
    df = pl.DataFrame(
        {
            "y": pl.Series([127, 0, 127, 0], dtype=pl.Int8),
            "yhat": pl.Series([2**64 - 1, 0, 127, 0], dtype=pl.UInt64),
        }
    )
    path = d / "wide.parquet"
    df.write_parquet(path)
    code, out, err = cli(capsys, ["report", str(path), "--y", "y", "--yhat", "yhat"])
    assert code == 0, err
    assert str(2**64 - 1) in out
