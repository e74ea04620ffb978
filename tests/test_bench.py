"""The benchmark script runs end to end and every candidate agrees with scikit-learn.

No timing is asserted here: speed is measured by ``benchmarks/bench.py`` itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"


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
