"""Larger than memory: clfeval on a LazyFrame over Parquet files, streaming.

    python benchmarks/lazy_parquet.py [rows] [--repeat N]

Writes ``rows`` rows (default 60,000,000) in six Parquet files under ``benchmarks/data/``: 4
models, a binary label ``yb``, a prediction ``yhat`` and a score ``s`` rounded to 3 decimals (tied scores, as real
scores are). Each candidate runs in a fresh process on ``pl.scan_parquet`` and is timed (best
of ``--repeat``, default 3); its peak memory is the process's peak resident memory minus its
resident memory after imports. The floor is the streaming group-by that holds everything an
exact curve needs: ``group_by(model, s)`` with the positive and total counts.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

import clfeval as ce

DATA = Path(__file__).parent / "data"
FILES = 6
MODELS = ["a", "b", "c", "d"]


def files(rows: int) -> str:
    """Write the six files once; return their glob."""
    folder = DATA / f"lazy-{rows}"
    if not (folder / f"part-{FILES - 1}.parquet").exists():
        folder.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(20261203)
        per = rows // FILES
        for k in range(FILES):
            y = rng.random(per) < 0.3
            s = np.clip(np.round(rng.normal(0.4 + 0.2 * y, 0.2), 3), 0.0, 1.0)
            pl.DataFrame(
                {
                    "model": pl.Series(rng.choice(MODELS, per)).cast(pl.Categorical),
                    "yb": y.astype(np.int8),
                    "yhat": (s >= 0.5).astype(np.int8),
                    "s": s,
                }
            ).write_parquet(folder / f"part-{k}.parquet")
    return str(folder / "part-*.parquet")


def candidates(glob: str) -> dict[str, object]:
    def scan() -> pl.LazyFrame:
        return pl.scan_parquet(glob)

    def streamed(lf: pl.LazyFrame) -> pl.DataFrame:
        return lf.collect(engine="streaming")

    pos = (pl.col("yb") == 1).cast(pl.UInt32)
    return {
        "ce.report(lf, by=model)": lambda: ce.report(scan(), "yb", "yhat", by="model"),
        "ce.metrics(lf, auroc, by=model)": lambda: streamed(
            ce.metrics(scan(), "yb", score="s", metrics=["auroc"], by="model")
        ),
        "ce.roc_curve(lf, by=model)": lambda: streamed(ce.roc_curve(scan(), "yb", "s", by="model")),
        "lf.group_by(model).agg(ce.auroc)": lambda: streamed(
            scan().group_by("model").agg(ce.auroc("yb", "s"))
        ),
        "floor: group_by(model, s) positives and count": lambda: streamed(
            scan().group_by("model", "s").agg(pos.sum().alias("p"), pl.len().alias("n"))
        ),
    }


def check(glob: str) -> None:
    """Before timing: the streamed AUROC per model equals the expression's (a sort plan) and
    the area under the streamed ROC curve; the curve has one point per distinct score."""
    lf = pl.scan_parquet(glob)
    front = ce.metrics(lf, "yb", score="s", metrics=["auroc"], by="model")
    expr = lf.group_by("model").agg(ce.auroc("yb", "s"))
    every = ce.roc_curve(lf, "yb", "s", by="model", drop_intermediate=False)
    curve = every.collect(engine="streaming")
    area = curve.group_by("model").agg(
        ((pl.col("fpr").diff() * (pl.col("tpr") + pl.col("tpr").shift(1))).sum() / 2).alias("a")
    )
    got = front.collect(engine="streaming").join(expr.collect(), on="model", suffix="_e")
    got = got.join(area, on="model")
    points = lf.group_by("model").agg(pl.col("s").n_unique().alias("k")).collect()
    sizes = curve.group_by("model").len().join(points, on="model")
    assert (got["auroc"] - got["auroc_e"]).abs().max() < 1e-12, got  # type: ignore[operator]
    assert (got["auroc"] - got["a"]).abs().max() < 1e-9, got  # type: ignore[operator]
    assert (sizes["len"] == sizes["k"] + 1).all(), sizes


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_one(glob: str, name: str, repeat: int) -> None:
    """In a fresh process: best time of ``repeat`` runs and the peak memory over imports."""
    fn = candidates(glob)[name]
    base = rss_mb()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"best": min(times), "median": sorted(times)[len(times) // 2],
                      "peak_mb": peak - base}))  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("rows", nargs="?", type=int, default=60_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    glob = files(args.rows)
    if args.one:
        run_one(glob, args.one, args.repeat)
        return
    check(glob)
    print(f"{args.rows:,} rows in {FILES} Parquet files, polars {pl.__version__}")
    print("| call (streaming) | best s | median s | peak MB over imports |")
    print("|---|---|---|---|")
    for name in candidates(glob):
        cmd = [
            sys.executable,
            __file__,
            str(args.rows),
            "--repeat",
            str(args.repeat),
            "--one",
            name,
        ]
        out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        print(f"| `{name}` | {out['best']:.3f} | {out['median']:.3f} | {out['peak_mb']:.0f} |")


if __name__ == "__main__":
    main()
