"""The benchmark script runs end to end and every candidate agrees with scikit-learn.

No timing is asserted here: speed is measured by ``benchmarks/bench.py`` itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"
ENGINES = BENCH.with_name("engines.py")


@pytest.fixture(scope="module")
def summary() -> dict:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--json"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_quick_run_checks_every_candidate(summary: dict) -> None:
    assert summary["ok"] is True
    results = summary["results"]
    bad = [r for r in results if r["status"] not in ("ok", "ref", "n/a")]
    assert bad == []
    # every workload has the scikit-learn reference, a floor, and the clfeval candidates,
    # each checked (status "ok") and timed
    by_workload: dict[str, dict[str, dict]] = {}
    for r in results:
        by_workload.setdefault(r["workload"], {})[r["candidate"]] = r
    assert len(by_workload) >= 15
    for workload, cands in by_workload.items():
        assert cands["sklearn"]["status"] == "ref", workload
        assert cands["floor"]["status"] == "n/a", workload
        assert cands["clfeval"]["status"] == "ok", workload
        assert cands["stream"]["status"] == "ok", workload
        for name, r in cands.items():
            assert r["median_s"] is not None, (workload, name)
            assert r["median_s"] > 0, (workload, name)
            if name not in ("sklearn", "floor"):
                assert r["status"] == "ok", (workload, name)
    assert sum("duckdb" in c for c in by_workload.values()) >= 14
    assert sum("pds" in c for c in by_workload.values()) >= 8


@pytest.mark.slow
def test_quick_run_measures_one_memory_probe(summary: dict) -> None:
    probed = [r for r in summary["results"] if r["memory"] is not None]
    assert len(probed) == 1
    memory = probed[0]["memory"]
    assert memory["peak_mb"] >= memory["loaded_mb"] >= memory["base_mb"] > 0
    assert summary["targets"], "the targets are evaluated even in quick mode"


@pytest.mark.slow
@pytest.mark.spark
def test_engines_script_agrees_across_engines(tmp_path: Path) -> None:
    """engines.py on a small file: Polars, DuckDB macros, generated SQL and (with Java) local
    Spark give the same report and AUROC; the script exits 1 on any disagreement."""
    args = [sys.executable, str(ENGINES), "--rows", "20000", "--repeat", "1"]
    if shutil.which("java") is None:
        if os.environ.get("CI"):  # .ci/spark-setup.sh installs Java: missing there is a failure
            pytest.fail("java is not installed: .ci/spark-setup.sh should have done it")
        args.append("--no-spark")
    out = tmp_path / "ENGINES.md"
    done = subprocess.run(
        [*args, "--out", str(out)], capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = out.read_text().splitlines()
    checked = [line for line in lines if "| ✓ |" in line or "| ✗ |" in line]
    engines = 4 if "--no-spark" not in args else 3
    assert len(checked) == 4 * engines  # four workloads
    assert not [line for line in checked if "| ✗ |" in line]


@pytest.mark.slow
def test_lazy_parquet_script_checks_then_times_every_call() -> None:
    """lazy_parquet.py on 60,000 rows: the streamed AUROC per model equals the expression's and
    the area under the streamed curve (it exits non-zero otherwise), then one timed row per
    call, each from a fresh process."""
    script = BENCH.with_name("lazy_parquet.py")
    done = subprocess.run(
        [sys.executable, str(script), "60000", "--repeat", "1"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [
        "ce.report(lf, by=model)",
        "ce.metrics(lf, auroc, by=model)",
        "ce.roc_curve(lf, by=model)",
        "lf.group_by(model).agg(ce.auroc)",
        "floor: group_by(model, s) positives and count",
    ]
    for row in rows:
        best, median, peak = (float(x) for x in row.split("|")[2:5])
        assert 0 < best <= median
        assert peak > 0


@pytest.mark.slow
def test_rewriting_results_keeps_the_notes_and_the_later_sections(tmp_path: Path) -> None:
    """A full run rewrites its own part of RESULTS.md only: the notes between the markers and
    the sections other benchmark scripts keep after its end marker survive, word for word."""
    out = tmp_path / "RESULTS.md"
    old = (
        "# old\n\n<!-- notes:start -->\nmy notes, kept (<!-- bench.py:end -->)\n"
        "<!-- notes:end -->\n\nold table, replaced\n"
        "<!-- bench.py:end -->\n\n## Aggregate ranking macros (SQL)\n\nkept too\n"
    )
    out.write_text(old, encoding="utf-8")
    args = [sys.executable, str(BENCH), "--quick", "--no-memory", "--workloads", "confusion_int"]
    done = subprocess.run(
        [*args, "--out", str(out)], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    text = out.read_text(encoding="utf-8")
    assert (
        "<!-- notes:start -->\nmy notes, kept (<!-- bench.py:end -->)\n<!-- notes:end -->" in text
    )
    assert text.endswith("<!-- bench.py:end -->\n\n## Aggregate ranking macros (SQL)\n\nkept too\n")
    assert "old table, replaced" not in text
    assert "| confusion matrix, 10 classes, int labels" in text
    # a second rewrite keeps the same sections once
    done = subprocess.run(
        [*args, "--out", str(out)], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    again = out.read_text(encoding="utf-8")
    assert again.count("kept too") == 1
    assert again.count("my notes, kept") == 1
