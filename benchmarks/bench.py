"""clfeval benchmark: clfeval (Polars eager, lazy streaming, DuckDB) against scikit-learn,
polars-ds and a bare engine floor, on the same deterministic synthetic data in one process.

Protocol, per workload: every candidate runs once and is checked against scikit-learn
(numbers to 1e-9, curves point for point) before any timing; a wrong or failing candidate is
marked and left out of the targets. Then a warm-up run (skipped when the check run already
took over 2 s), then ``--repeat`` timed runs interleaved across the candidates (round robin, so
load drift on a shared machine hits every candidate alike); the median is reported. Peak memory
is measured per candidate in a fresh process (``--one WORKLOAD CANDIDATE``), from the kernel's
peak resident set size (VmHWM) minus the resident size after imports.

    python benchmarks/bench.py --rows 10000000       # the full run, writes benchmarks/RESULTS.md
    python benchmarks/bench.py --quick               # about a minute, writes nothing
    python benchmarks/bench.py --quick --json        # a JSON summary on stdout (for the tests)

Data: numpy ``Generator`` with a fixed seed, written once to Parquet under ``benchmarks/data/``
(gitignored) and read back, so every candidate sees the same values.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gc
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
import polars_ds as pds
import sklearn
from sklearn.calibration import calibration_curve
from sklearn.metrics import (
    average_precision_score,
    brier_score_loss,
    classification_report,
    confusion_matrix,
    confusion_matrix_at_thresholds,
    log_loss,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

import clfeval as ce
import clfeval.sql as cesql

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE / "data"
DEFAULT_OUT = HERE / "RESULTS.md"
SEED = 20240607
ATOL = 1e-9
WARM_SECONDS = 2.0  # a check run longer than this is warm-up enough
SLOW_SECONDS = 30.0  # a check run longer than this is the only timed run (and no memory probe)
NOTES_START, NOTES_END = "<!-- notes:start -->", "<!-- notes:end -->"
GENERATED_END = "<!-- bench.py:end -->"
ANIMALS = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "owl", "yak"]
N_PROBA = 5
PROBA = [f"p{k}" for k in range(N_PROBA)]
CANDIDATES = ["clfeval", "expr", "stream", "duckdb", "sklearn", "pds", "floor"]
TITLES = {
    "clfeval": "clfeval, Polars eager",
    "expr": "clfeval expression in select",
    "stream": "clfeval, lazy Parquet + streaming",
    "duckdb": "clfeval, DuckDB macros",
    "sklearn": "scikit-learn",
    "pds": "polars-ds",
}
POLARS = ("clfeval", "expr", "stream")
LABEL_WORKLOADS = ("report_int", "report_str", "confusion_int", "confusion_str", "grouped_report")


def api(name: str) -> Callable[..., Any]:
    """``clfeval.<name>``, or the private module defining it while ``__init__`` catches up."""
    if hasattr(ce, name):
        return getattr(ce, name)
    from clfeval import _curves, _prob, _score

    for module in (_score, _curves, _prob):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"clfeval has no {name}")


# --- data -----------------------------------------------------------------------------------


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def make_frames(rows: int, groups: int, seed: int) -> dict[str, pl.DataFrame]:
    """The four synthetic datasets (deterministic for ``rows``, ``groups`` and ``seed``)."""
    rng = np.random.default_rng(seed)
    # binary: continuous scores (all distinct) and the same rounded to 3 decimals (ties)
    y = (rng.random(rows) < 0.3).astype(np.int64)
    s = _sigmoid(rng.normal(size=rows) + 1.2 * y - 0.8)
    binary = pl.DataFrame({"y": y, "s_cont": s, "s_tie": np.round(s, 3)})
    # 10 classes, 70 % right, as integers and as strings
    yk = rng.integers(0, 10, rows)
    right = rng.random(rows) < 0.7
    yhk = np.where(right, yk, rng.integers(0, 10, rows))
    names = np.array(ANIMALS)
    labels = pl.DataFrame(
        {"y_int": yk, "yhat_int": yhk, "y_str": names[yk], "yhat_str": names[yhk]}
    )
    # groups x (rows / groups) rows, shuffled; each group has its own signal strength
    per = rows // groups
    g = rng.permutation(np.repeat(np.arange(groups, dtype=np.int64), per))
    strength = (1.0 + 0.5 * rng.normal(size=groups))[g]
    gy = (rng.random(groups * per) < 0.3).astype(np.int64)
    gs = _sigmoid(rng.normal(size=groups * per) + strength * gy - 0.8)
    grouped = pl.DataFrame({"g": g, "y": gy, "s": gs, "yhat": (gs >= 0.5).astype(np.int64)})
    # 5-class probabilities (softmax rows sum to 1), the true class favoured
    py = rng.integers(0, N_PROBA, rows)
    logits = rng.normal(size=(rows, N_PROBA))
    logits[np.arange(rows), py] += 1.5
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    proba = pl.DataFrame({"y": py, **{c: p[:, k] for k, c in enumerate(PROBA)}})
    return {"binary": binary, "labels": labels, "grouped": grouped, "proba": proba}


def data_paths(rows: int, groups: int, seed: int) -> dict[str, Path]:
    tag = f"{rows}-s{seed}"
    return {
        "binary": DATA_DIR / f"binary-{tag}.parquet",
        "labels": DATA_DIR / f"labels-{tag}.parquet",
        "grouped": DATA_DIR / f"grouped-{tag}-g{groups}.parquet",
        "proba": DATA_DIR / f"proba-{tag}.parquet",
    }


def ensure_data(rows: int, groups: int, seed: int) -> dict[str, Path]:
    """Write the Parquet files once (atomically); later runs read them back."""
    paths = data_paths(rows, groups, seed)
    if all(p.exists() for p in paths.values()):
        return paths
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for name, frame in make_frames(rows, groups, seed).items():
        if paths[name].exists():
            continue
        tmp = paths[name].with_suffix(f".{os.getpid()}.tmp")
        frame.write_parquet(tmp)
        tmp.replace(paths[name])
    gc.collect()
    return paths


class Ctx:
    """Lazily loaded inputs: Polars frames, NumPy arrays, Parquet scans, DuckDB tables.

    With ``columns`` (the ``--one`` memory mode) only those columns are loaded, so the resident
    input is what the workload reads.
    """

    def __init__(self, paths: dict[str, Path], columns: list[str] | None = None) -> None:
        self.paths = paths
        self.columns = columns
        self._frames: dict[str, pl.DataFrame] = {}
        self._np: dict[tuple[str, str], np.ndarray] = {}
        self._con: duckdb.DuckDBPyConnection | None = None
        self._tables: set[str] = set()

    def frame(self, ds: str) -> pl.DataFrame:
        if ds not in self._frames:
            self._frames[ds] = pl.read_parquet(self.paths[ds], columns=self.columns)
        return self._frames[ds]

    def scan(self, ds: str) -> pl.LazyFrame:
        return pl.scan_parquet(self.paths[ds])

    def np(self, ds: str, column: str) -> np.ndarray:
        key = (ds, column)
        if key not in self._np:
            if ds in self._frames:
                series = self._frames[ds][column]
            else:
                series = pl.read_parquet(self.paths[ds], columns=[column])[column]
            self._np[key] = series.to_numpy()
        return self._np[key]

    def duck(self, ds: str) -> tuple[duckdb.DuckDBPyConnection, str]:
        """A connection with the clfeval macros and the dataset as a native DuckDB table."""
        if self._con is None:
            self._con = cesql.connect()
        table = f"bench_{ds}"
        if ds not in self._tables:
            cols = "*" if self.columns is None else ", ".join(f'"{c}"' for c in self.columns)
            # our own fixed table/column names; the path is a bound parameter
            self._con.execute(
                f"CREATE TABLE {table} AS SELECT {cols} FROM read_parquet($p)",
                {"p": str(self.paths[ds])},
            )
            self._tables.add(ds)
        return self._con, table

    def release_arrays(self) -> None:
        self._np.clear()

    def close(self) -> None:
        self._frames.clear()
        self._np.clear()
        if self._con is not None:
            self._con.close()
            self._con = None
        gc.collect()


# --- canonical results and the check -------------------------------------------------------

Canon = dict[str, Any]


def arr(x: Any) -> np.ndarray:
    if isinstance(x, pl.Series):
        return x.cast(pl.Float64).to_numpy()
    return np.asarray(x, dtype=np.float64)


def compare(ref: Canon, got: Canon) -> tuple[bool, str]:
    """Same keys, same labels, same shapes, numbers within 1e-9 (inf and NaN must match)."""
    if set(ref) != set(got):
        return False, f"keys {sorted(got)} != {sorted(ref)}"
    worst = 0.0
    for key, want in ref.items():
        have = got[key]
        if isinstance(want, list):
            if [str(v) for v in have] != [str(v) for v in want]:
                return False, f"{key}: {list(have)[:5]}... != {want[:5]}..."
            continue
        a, b = np.atleast_1d(arr(want)), np.atleast_1d(arr(have))
        if a.shape != b.shape:
            return False, f"{key}: {b.shape[0]} points, scikit-learn has {a.shape[0]}"
        same = np.isclose(a, b, rtol=0.0, atol=ATOL, equal_nan=True)
        if not same.all():
            i = int(np.flatnonzero(~same)[0])
            return False, f"{key}[{i}]: {b[i]!r} != {a[i]!r}"
        finite = np.isfinite(a) & np.isfinite(b)
        if finite.any():
            worst = max(worst, float(np.max(np.abs(a[finite] - b[finite]))))
    return True, f"max diff {worst:.1e}"


SUMMARY = ("accuracy", "micro avg", "macro avg", "weighted avg")


def canon_report_table(table: pl.DataFrame, by: str | None = None) -> Canon:
    """A report table (clfeval or the DuckDB twin) as labels + flat per-class/summary arrays."""
    if by is not None:
        table = table.sort(by, maintain_order=True)
    label = pl.col("label").cast(pl.String)
    cls = table.filter(~label.is_in(SUMMARY))
    acc = table.filter(label == "accuracy")
    macro = table.filter(label == "macro avg")
    weighted = table.filter(label == "weighted avg")
    return {
        "labels": cls["label"].cast(pl.String).to_list(),
        "precision": arr(cls["precision"]),
        "recall": arr(cls["recall"]),
        "f1": arr(cls["f1"]),
        "support": arr(cls["support"]),
        "accuracy": arr(acc["f1"]),
        "macro": arr(macro.select("precision", "recall", "f1").to_numpy().ravel()),
        "weighted": arr(weighted.select("precision", "recall", "f1").to_numpy().ravel()),
    }


def canon_sk_reports(reports: list[dict[str, Any]]) -> Canon:
    """scikit-learn ``classification_report(output_dict=True)`` dicts, in group order."""
    out: dict[str, list[Any]] = {k: [] for k in ("labels", "precision", "recall", "f1")}
    out.update(support=[], accuracy=[], macro=[], weighted=[])
    for rep in reports:
        for name, row in rep.items():
            if name in SUMMARY:
                continue
            out["labels"].append(name)
            out["precision"].append(row["precision"])
            out["recall"].append(row["recall"])
            out["f1"].append(row["f1-score"])
            out["support"].append(row["support"])
        out["accuracy"].append(rep["accuracy"])
        for key, name in (("macro", "macro avg"), ("weighted", "weighted avg")):
            out[key].extend(rep[name][m] for m in ("precision", "recall", "f1-score"))
    return {k: (v if k == "labels" else arr(v)) for k, v in out.items()}


def canon_confusion(long: pl.DataFrame) -> Canon:
    long = long.sort("actual", "predicted")
    return {
        "labels": long["actual"].unique(maintain_order=True).cast(pl.String).to_list(),
        "matrix": arr(long["count"]),
    }


def canon_roc(frame: pl.DataFrame) -> Canon:
    return {k: arr(frame[k]) for k in ("threshold", "fpr", "tpr")}


def canon_pr(frame: pl.DataFrame) -> Canon:
    # clfeval/SQL: thresholds increasing, then the end point (precision 1, recall 0, null)
    return {
        "threshold": arr(frame["threshold"][:-1]),
        "precision": arr(frame["precision"]),
        "recall": arr(frame["recall"]),
    }


THRESHOLD_KEYS = ("threshold", "tp", "fp", "fn", "tn", "precision", "recall", "f1")


def canon_thresholds(frame: pl.DataFrame) -> Canon:
    return {k: arr(frame[k]) for k in THRESHOLD_KEYS}


def canon_calibration(frame: pl.DataFrame) -> Canon:
    return {k: arr(frame[k]) for k in ("fraction_positive", "mean_predicted")}


def canon_grouped(frame: pl.DataFrame, value: str) -> Canon:
    frame = frame.sort("g")
    return {"g": arr(frame["g"]), "value": arr(frame[value])}


def scalar(x: Any) -> Canon:
    return {"value": float(x)}


# --- workloads and candidates ----------------------------------------------------------------

Run = Callable[[], Any]


@dataclass
class Candidate:
    prepare: Callable[[Ctx], Run]  # loads what it needs (untimed), returns the timed call
    canon: Callable[[Any], Canon] | None = None  # None: not checked (the floor)
    note: str = ""
    # a different scikit-learn reference (untimed), e.g. all ROC points for polars-ds
    reference: Callable[[Ctx], Canon] | None = None


@dataclass
class Workload:
    name: str
    title: str
    dataset: str
    columns: list[str]
    candidates: dict[str, Candidate]
    floor_note: str = ""


def _sk_thresholds(y: np.ndarray, s: np.ndarray) -> dict[str, np.ndarray]:
    """scikit-learn's counts at every threshold, then the metrics of clfeval's table."""
    tn, fp, fn, tp, thr = confusion_matrix_at_thresholds(y, s)
    with np.errstate(divide="ignore", invalid="ignore"):
        pp, p, n = tp + fp, tp + fn, tn + fp
        out = {"threshold": thr, "tp": tp, "fp": fp, "fn": fn, "tn": tn}
        out["precision"] = np.where(pp > 0, tp / pp, 0.0)
        out["recall"] = tp / p
        out["specificity"] = tn / n
        out["fpr"] = fp / n
        out["npv"] = np.where(tn + fn > 0, tn / (tn + fn), 0.0)
        out["f1"] = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
        out["accuracy"] = (tp + tn) / (p + n)
        out["balanced_accuracy"] = (out["recall"] + out["specificity"]) / 2
        den = np.sqrt(pp * p * n * (tn + fn))
        out["mcc"] = np.where(den > 0, (tp * tn - fp * fn) / den, 0.0)
        out["youden_j"] = out["recall"] + out["specificity"] - 1
    return out


def _sk_group_loop(g: np.ndarray, *cols: np.ndarray) -> list[tuple[int, list[np.ndarray]]]:
    order = np.argsort(g, kind="stable")
    keys = g[order]
    cuts = np.flatnonzero(np.diff(keys)) + 1
    starts = np.concatenate([[0], cuts])
    return [(int(keys[a]), [c[idx] for c in cols]) for a, idx in zip(starts, np.split(order, cuts))]


def label_workloads() -> list[Workload]:
    out = []
    for kind in ("int", "str"):
        y, yhat = f"y_{kind}", f"yhat_{kind}"
        label_list = [str(v) for v in (ANIMALS if kind == "str" else range(10))]
        out.append(
            Workload(
                f"report_{kind}",
                f"classification report, 10 classes, {kind} labels",
                "labels",
                [y, yhat],
                {
                    "clfeval": Candidate(
                        lambda c, y=y, yh=yhat: lambda: ce.report(c.frame("labels"), y, yh),
                        lambda r: canon_report_table(r.table),
                    ),
                    "stream": Candidate(
                        lambda c, y=y, yh=yhat: lambda: ce.report(c.scan("labels"), y, yh),
                        lambda r: canon_report_table(r.table),
                        note="ce.report streams a LazyFrame (eager result)",
                    ),
                    "duckdb": Candidate(
                        lambda c, y=y, yh=yhat: _duck(c, "labels", cesql.report, y, yh),
                        canon_report_table,
                    ),
                    "sklearn": Candidate(
                        lambda c, y=y, yh=yhat: _sk(
                            c,
                            "labels",
                            (y, yh),
                            lambda a, b: classification_report(a, b, output_dict=True),
                        ),
                        lambda r: canon_sk_reports([r]),
                    ),
                    "floor": Candidate(
                        lambda c, y=y, yh=yhat: (
                            lambda: c.frame("labels").lazy().group_by(y, yh).len().collect()
                        )
                    ),
                },
                "group_by(y, yhat).len() (lazy)",
            )
        )
        out.append(
            Workload(
                f"confusion_{kind}",
                f"confusion matrix, 10 classes, {kind} labels",
                "labels",
                [y, yhat],
                {
                    "clfeval": Candidate(
                        lambda c, y=y, yh=yhat: (
                            lambda: ce.confusion_matrix(c.frame("labels"), y, yh)
                        ),
                        canon_confusion,
                    ),
                    "stream": Candidate(
                        lambda c, y=y, yh=yhat: (
                            lambda: ce.confusion_matrix(c.scan("labels"), y, yh).collect(
                                engine="streaming"
                            )
                        ),
                        canon_confusion,
                    ),
                    "duckdb": Candidate(
                        lambda c, y=y, yh=yhat: _duck(c, "labels", cesql.confusion_matrix, y, yh),
                        canon_confusion,
                    ),
                    "sklearn": Candidate(
                        lambda c, y=y, yh=yhat: _sk(c, "labels", (y, yh), confusion_matrix),
                        lambda m, ls=label_list: {"labels": ls, "matrix": arr(m.ravel())},
                    ),
                    "floor": Candidate(
                        lambda c, y=y, yh=yhat: (
                            lambda: c.frame("labels").lazy().group_by(y, yh).len().collect()
                        )
                    ),
                },
                "group_by(y, yhat).len() (lazy)",
            )
        )
    return out


def _sk(ctx: Ctx, ds: str, cols: tuple[str, ...], fn: Callable[..., Any]) -> Run:
    arrays = [ctx.np(ds, c) for c in cols]
    return lambda: fn(*arrays)


def _duck(ctx: Ctx, ds: str, fn: Callable[..., Any], *cols: str, **kw: Any) -> Run:
    con, table = ctx.duck(ds)
    return lambda: fn(table, *cols, con=con, **kw)


def _ranked(data: pl.DataFrame | pl.LazyFrame, score: str, metric: str) -> float:
    """A binary ranking metric through the front door (threshold counts, adaptive plan)."""
    out = ce.metrics(data, "y", score=score, metrics=[metric])
    if isinstance(out, pl.LazyFrame):
        out = out.collect(engine="streaming")
    return out[metric].item()


def _floor_rank(score: str) -> Candidate:
    if score == "s_cont":
        return Candidate(lambda c: lambda: c.frame("binary")[score].arg_sort())
    return Candidate(lambda c: lambda: c.frame("binary").lazy().group_by(score).len().collect())


def _pds_roc(frame: pl.DataFrame, score: str) -> pl.DataFrame:
    return frame.select(pds.query_tpr_fpr("y", score).alias("r")).unnest("r")


def ranking_workloads() -> list[Workload]:
    out = []
    for kind, score in (("cont", "s_cont"), ("ties", "s_tie")):
        floor_note = "Series.arg_sort()" if kind == "cont" else "group_by(score).len() (lazy)"
        what = "continuous scores" if kind == "cont" else "tied scores (3 decimals)"
        cols = ["y", score]
        out.append(
            Workload(
                f"auroc_{kind}",
                f"AUROC, {what}",
                "binary",
                cols,
                {
                    "clfeval": Candidate(
                        lambda c, s=score: lambda: _ranked(c.frame("binary"), s, "auroc"),
                        scalar,
                        note="ce.metrics(df, y, score=s, metrics=['auroc'])",
                    ),
                    "expr": Candidate(
                        lambda c, s=score: (
                            lambda: c.frame("binary").select(api("auroc")("y", s)).item()
                        ),
                        scalar,
                    ),
                    "stream": Candidate(
                        lambda c, s=score: lambda: _ranked(c.scan("binary"), s, "auroc"),
                        scalar,
                        note="ce.metrics(scan, ...).collect(engine='streaming')",
                    ),
                    "duckdb": Candidate(
                        lambda c, s=score: _duck(c, "binary", cesql.auroc, "y", s),
                        lambda r: scalar(r["auroc"].item()),
                    ),
                    "sklearn": Candidate(
                        lambda c, s=score: _sk(c, "binary", ("y", s), roc_auc_score), scalar
                    ),
                    "pds": Candidate(
                        lambda c, s=score: (
                            lambda: c.frame("binary").select(pds.query_roc_auc("y", s)).item()
                        ),
                        scalar,
                    ),
                    "floor": _floor_rank(score),
                },
                floor_note,
            )
        )
        out.append(
            Workload(
                f"roc_{kind}",
                f"ROC curve, {what}",
                "binary",
                cols,
                {
                    "clfeval": Candidate(
                        lambda c, s=score: lambda: api("roc_curve")(c.frame("binary"), "y", s),
                        canon_roc,
                    ),
                    "stream": Candidate(
                        lambda c, s=score: (
                            lambda: api("roc_curve")(c.scan("binary"), "y", s).collect(
                                engine="streaming"
                            )
                        ),
                        canon_roc,
                    ),
                    "duckdb": Candidate(
                        lambda c, s=score: _duck(c, "binary", cesql.roc_curve, "y", s), canon_roc
                    ),
                    "sklearn": Candidate(
                        lambda c, s=score: _sk(c, "binary", ("y", s), roc_curve),
                        lambda r: {"threshold": r[2], "fpr": r[0], "tpr": r[1]},
                    ),
                    "pds": Candidate(
                        lambda c, s=score: lambda: _pds_roc(c.frame("binary"), s),
                        lambda f: canon_roc(f.reverse()),
                        note="every point (= drop_intermediate=False), checked against that",
                        reference=lambda c, s=score: _sk_roc_all(c, s),
                    ),
                    "floor": _floor_rank(score),
                },
                floor_note,
            )
        )
        out.append(
            Workload(
                f"pr_{kind}",
                f"precision-recall curve, {what}",
                "binary",
                cols,
                {
                    "clfeval": Candidate(
                        lambda c, s=score: lambda: api("pr_curve")(c.frame("binary"), "y", s),
                        canon_pr,
                    ),
                    "stream": Candidate(
                        lambda c, s=score: (
                            lambda: api("pr_curve")(c.scan("binary"), "y", s).collect(
                                engine="streaming"
                            )
                        ),
                        canon_pr,
                    ),
                    "duckdb": Candidate(
                        lambda c, s=score: _duck(c, "binary", cesql.pr_curve, "y", s), canon_pr
                    ),
                    "sklearn": Candidate(
                        lambda c, s=score: _sk(c, "binary", ("y", s), precision_recall_curve),
                        lambda r: {"threshold": r[2], "precision": r[0], "recall": r[1]},
                    ),
                    "floor": _floor_rank(score),
                },
                floor_note,
            )
        )
        out.append(
            Workload(
                f"ap_{kind}",
                f"average precision, {what}",
                "binary",
                cols,
                {
                    "clfeval": Candidate(
                        lambda c, s=score: (
                            lambda: _ranked(c.frame("binary"), s, "average_precision")
                        ),
                        scalar,
                        note="ce.metrics(df, y, score=s, metrics=['average_precision'])",
                    ),
                    "expr": Candidate(
                        lambda c, s=score: (
                            lambda: (
                                c.frame("binary").select(api("average_precision")("y", s)).item()
                            )
                        ),
                        scalar,
                    ),
                    "stream": Candidate(
                        lambda c, s=score: (
                            lambda: _ranked(c.scan("binary"), s, "average_precision")
                        ),
                        scalar,
                        note="ce.metrics(scan, ...).collect(engine='streaming')",
                    ),
                    "duckdb": Candidate(
                        lambda c, s=score: _duck(c, "binary", cesql.average_precision, "y", s),
                        lambda r: scalar(r["average_precision"].item()),
                    ),
                    "sklearn": Candidate(
                        lambda c, s=score: _sk(c, "binary", ("y", s), average_precision_score),
                        scalar,
                    ),
                    "pds": Candidate(
                        lambda c, s=score: (
                            lambda: (
                                c.frame("binary")
                                .select(
                                    pds.query_binary_metrics("y", s).struct.field("avg_precision")
                                )
                                .item()
                            )
                        ),
                        scalar,
                        note="query_binary_metrics (also computes AUROC, P, R, F)",
                    ),
                    "floor": _floor_rank(score),
                },
                floor_note,
            )
        )
    out.append(
        Workload(
            "thresholds_ties",
            "thresholds table, tied scores (3 decimals)",
            "binary",
            ["y", "s_tie"],
            {
                "clfeval": Candidate(
                    lambda c: lambda: api("thresholds")(c.frame("binary"), "y", "s_tie"),
                    canon_thresholds,
                ),
                "stream": Candidate(
                    lambda c: (
                        lambda: api("thresholds")(c.scan("binary"), "y", "s_tie").collect(
                            engine="streaming"
                        )
                    ),
                    canon_thresholds,
                ),
                "duckdb": Candidate(
                    lambda c: _duck(c, "binary", cesql.thresholds, "y", "s_tie"),
                    canon_thresholds,
                ),
                "sklearn": Candidate(
                    lambda c: _sk(c, "binary", ("y", "s_tie"), _sk_thresholds),
                    lambda r: {k: r[k] for k in THRESHOLD_KEYS},
                    note="confusion_matrix_at_thresholds + the same metrics in NumPy",
                ),
                "floor": _floor_rank("s_tie"),
            },
            "group_by(score).len() (lazy)",
        )
    )
    return out


def _sk_roc_all(ctx: Ctx, score: str) -> Canon:
    fpr, tpr, thr = roc_curve(
        ctx.np("binary", "y"), ctx.np("binary", score), drop_intermediate=False
    )
    return {"threshold": thr, "fpr": fpr, "tpr": tpr}


def _loss_sql(ctx: Ctx) -> Run:
    con, table = ctx.duck("binary")
    # fixed identifiers only (our own table and column names)
    query = (
        f"SELECT clf_log_loss(y, s_cont) AS log_loss, clf_brier(y, s_cont) AS brier FROM {table}"
    )
    return lambda: con.sql(query).fetchall()


def _losses(frame: pl.DataFrame) -> tuple[float, float]:
    """Log loss and Brier through the front door (checks probabilities are in [0, 1])."""
    out = ce.metrics(frame, "y", score="s_cont", metrics=["log_loss", "brier"])
    return out.row(0)


def _sk_loss(ctx: Ctx) -> Run:
    y, p = ctx.np("binary", "y"), ctx.np("binary", "s_cont")
    return lambda: (log_loss(y, p), brier_score_loss(y, p))


def prob_workloads() -> list[Workload]:
    losses = [api("log_loss")("y", "s_cont"), api("brier")("y", "s_cont")]

    def two(row: Any) -> Canon:
        return {"log_loss": float(row[0]), "brier": float(row[1])}

    return [
        Workload(
            "logloss_brier",
            "log loss + Brier score",
            "binary",
            ["y", "s_cont"],
            {
                "clfeval": Candidate(
                    lambda c: lambda: _losses(c.frame("binary")),
                    two,
                    note="ce.metrics(df, y, score=p, metrics=['log_loss', 'brier'])",
                ),
                "expr": Candidate(lambda c: lambda: c.frame("binary").select(losses).row(0), two),
                "stream": Candidate(
                    lambda c: (
                        lambda: c.scan("binary").select(losses).collect(engine="streaming").row(0)
                    ),
                    two,
                ),
                "duckdb": Candidate(_loss_sql, lambda r: two(r[0])),
                "sklearn": Candidate(_sk_loss, two),
                "pds": Candidate(
                    lambda c: (
                        lambda: (
                            c.frame("binary")
                            .select(
                                pds.query_log_loss("y", "s_cont").alias("log_loss"),
                                pds.query_l2("y", "s_cont").alias("brier"),
                            )
                            .row(0)
                        )
                    ),
                    two,
                    note="query_log_loss + query_l2",
                ),
                "floor": Candidate(
                    lambda c: lambda: c.frame("binary").select(pl.col("s_cont").log().sum())
                ),
            },
            "select(log(p).sum())",
        ),
        Workload(
            "calibration",
            "calibration curve, 10 uniform bins",
            "binary",
            ["y", "s_cont"],
            {
                "clfeval": Candidate(
                    lambda c: lambda: api("calibration")(c.frame("binary"), "y", "s_cont"),
                    canon_calibration,
                ),
                "stream": Candidate(
                    lambda c: (
                        lambda: api("calibration")(c.scan("binary"), "y", "s_cont").collect(
                            engine="streaming"
                        )
                    ),
                    canon_calibration,
                ),
                "duckdb": Candidate(
                    lambda c: _duck(c, "binary", cesql.calibration, "y", "s_cont"),
                    canon_calibration,
                ),
                "sklearn": Candidate(
                    lambda c: _sk(
                        c,
                        "binary",
                        ("y", "s_cont"),
                        lambda a, b: calibration_curve(a, b, n_bins=10),
                    ),
                    lambda r: {"fraction_positive": r[0], "mean_predicted": r[1]},
                ),
                "floor": Candidate(
                    lambda c: (
                        lambda: (
                            c.frame("binary")
                            .lazy()
                            .group_by((pl.col("s_cont") * 10).floor())
                            .len()
                            .collect()
                        )
                    )
                ),
            },
            "group_by(floor(10 p)).len() (lazy)",
        ),
    ]


def _sk_grouped_auroc(ctx: Ctx) -> Run:
    g, y, s = (ctx.np("grouped", c) for c in ("g", "y", "s"))
    return lambda: [(key, roc_auc_score(a, b)) for key, (a, b) in _sk_group_loop(g, y, s)]


def _sk_grouped_report(ctx: Ctx) -> Run:
    g, y, yhat = (ctx.np("grouped", c) for c in ("g", "y", "yhat"))
    return lambda: [
        (key, classification_report(a, b, output_dict=True))
        for key, (a, b) in _sk_group_loop(g, y, yhat)
    ]


def _sk_ovr(ctx: Ctx) -> Run:
    y = ctx.np("proba", "y")
    p = np.column_stack([ctx.np("proba", c) for c in PROBA])
    return lambda: roc_auc_score(y, p, multi_class="ovr")


def grouped_workloads(groups: int) -> list[Workload]:
    auroc = api("auroc")("y", "s")
    ovr = api("auroc")("y", dict(enumerate(PROBA)))
    return [
        Workload(
            "grouped_auroc",
            f"AUROC per group, {groups:,} groups",
            "grouped",
            ["g", "y", "s"],
            {
                "clfeval": Candidate(
                    lambda c: (
                        lambda: ce.metrics(
                            c.frame("grouped"), "y", score="s", metrics=["auroc"], by="g"
                        )
                    ),
                    lambda f: canon_grouped(f, "auroc"),
                    note="ce.metrics(df, y, score=s, metrics=['auroc'], by='g')",
                ),
                "expr": Candidate(
                    lambda c: lambda: c.frame("grouped").group_by("g").agg(auroc),
                    lambda f: canon_grouped(f, "auroc"),
                    note="df.group_by('g').agg(ce.auroc(y, s)), the expression in agg",
                ),
                "stream": Candidate(
                    lambda c: (
                        lambda: (
                            c.scan("grouped").group_by("g").agg(auroc).collect(engine="streaming")
                        )
                    ),
                    lambda f: canon_grouped(f, "auroc"),
                ),
                "duckdb": Candidate(
                    lambda c: _duck(c, "grouped", cesql.auroc, "y", "s", by="g"),
                    lambda f: canon_grouped(f, "auroc"),
                ),
                "sklearn": Candidate(
                    _sk_grouped_auroc,
                    lambda r: {"g": arr([k for k, _ in r]), "value": arr([v for _, v in r])},
                    note="a Python loop over groups",
                ),
                "pds": Candidate(
                    lambda c: (
                        lambda: (
                            c.frame("grouped")
                            .group_by("g")
                            .agg(pds.query_roc_auc("y", "s").alias("auroc"))
                        )
                    ),
                    lambda f: canon_grouped(f, "auroc"),
                ),
                "floor": Candidate(
                    lambda c: lambda: c.frame("grouped").lazy().group_by("g", "s").len().collect()
                ),
            },
            "group_by(g, s).len() (lazy)",
        ),
        Workload(
            "grouped_report",
            f"classification report per group, {groups:,} groups",
            "grouped",
            ["g", "y", "yhat"],
            {
                "clfeval": Candidate(
                    lambda c: lambda: ce.report(c.frame("grouped"), "y", "yhat", by="g"),
                    lambda r: canon_report_table(r.table, "g"),
                ),
                "stream": Candidate(
                    lambda c: lambda: ce.report(c.scan("grouped"), "y", "yhat", by="g"),
                    lambda r: canon_report_table(r.table, "g"),
                    note="ce.report streams a LazyFrame (eager result)",
                ),
                "duckdb": Candidate(
                    lambda c: _duck(c, "grouped", cesql.report, "y", "yhat", by="g"),
                    lambda t: canon_report_table(t, "g"),
                ),
                "sklearn": Candidate(
                    _sk_grouped_report,
                    lambda r: canon_sk_reports([rep for _, rep in r]),
                    note="a Python loop over groups",
                ),
                "floor": Candidate(
                    lambda c: (
                        lambda: c.frame("grouped").lazy().group_by("g", "y", "yhat").len().collect()
                    )
                ),
            },
            "group_by(g, y, yhat).len() (lazy)",
        ),
        Workload(
            "ovr_auroc",
            f"multiclass AUROC, one-vs-rest macro, {N_PROBA} classes",
            "proba",
            ["y", *PROBA],
            {
                "clfeval": Candidate(
                    lambda c: (
                        lambda: ce.metrics(
                            c.frame("proba"), "y", score=dict(enumerate(PROBA)), metrics=["auroc"]
                        ).item()
                    ),
                    scalar,
                    note="ce.metrics(df, y, score={k: p_k}, metrics=['auroc'])",
                ),
                "expr": Candidate(
                    lambda c: lambda: c.frame("proba").select(ovr).item(),
                    scalar,
                    note="df.select(ce.auroc(y, {k: p_k})), the expression in select",
                ),
                "stream": Candidate(
                    lambda c: (
                        lambda: c.scan("proba").select(ovr).collect(engine="streaming").item()
                    ),
                    scalar,
                ),
                "sklearn": Candidate(_sk_ovr, scalar),
                "pds": Candidate(
                    lambda c: (
                        lambda: (
                            c.frame("proba")
                            .select(
                                pds.query_multi_roc_auc(
                                    "y", pl.concat_list(PROBA), N_PROBA, strategy="macro"
                                )
                            )
                            .item()
                        )
                    ),
                    scalar,
                    note="query_multi_roc_auc over concat_list(p0..p4)",
                ),
                "floor": Candidate(
                    lambda c: lambda: c.frame("proba").select(pl.col(p).arg_sort() for p in PROBA)
                ),
            },
            f"{N_PROBA} × arg_sort()",
        ),
    ]


def all_workloads(groups: int) -> list[Workload]:
    return [
        *label_workloads(),
        *ranking_workloads(),
        *prob_workloads(),
        *grouped_workloads(groups),
    ]


# --- measuring ----------------------------------------------------------------------------------


@dataclass
class Result:
    workload: str
    candidate: str
    status: str  # ref | ok | mismatch | error | n/a
    detail: str = ""
    times: list[float] = field(default_factory=list)
    first: float | None = None  # the check run, seconds
    memory: dict[str, float] | None = None
    memory_small: dict[str, float] | None = None  # streaming at rows / 10

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def usable(self) -> bool:
        return self.status in ("ref", "ok", "n/a") and self.median is not None


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def measure(w: Workload, ctx: Ctx, names: list[str], repeat: int, quick: bool) -> dict[str, Result]:
    """Check every candidate against scikit-learn, then time them round robin."""
    results: dict[str, Result] = {}
    timed: dict[str, Run] = {}
    ref: Canon | None = None
    order = sorted(names, key=lambda n: n != "sklearn")  # the reference first
    for name in order:
        cand = w.candidates[name]
        res = results[name] = Result(w.name, name, "n/a", cand.note)
        try:
            run = cand.prepare(ctx)
            t0 = time.perf_counter()
            out = run()
            res.first = time.perf_counter() - t0
            got = cand.canon(out) if cand.canon is not None else None
            del out
        except Exception as err:
            res.status, res.detail = "error", f"{type(err).__name__}: {err}".splitlines()[0]
            log(f"  {w.name} / {name}: ERROR {res.detail}")
            continue
        if name == "sklearn":
            ref, res.status = got, "ref"
        elif got is not None:
            want = cand.reference(ctx) if cand.reference is not None else ref
            if want is None:
                res.status, res.detail = "error", "no scikit-learn reference"
            else:
                ok, detail = compare(want, got)
                res.status = "ok" if ok else "mismatch"
                res.detail = "; ".join(d for d in (cand.note, detail) if d)
        log(f"  {w.name} / {name}: {res.status} ({res.first:.3f} s) {res.detail}")
        timed[name] = run
    for name, run in timed.items():  # warm-up, unless the check run was long enough
        first = results[name].first
        if not quick and first is not None and first < WARM_SECONDS:
            run()
    # a candidate slower than SLOW_SECONDS (the scikit-learn loops over 10,000 groups) is
    # timed once: its check run is the measurement
    runs = dict.fromkeys(timed, repeat)
    for name in timed:
        first = results[name].first
        if first is not None and first > SLOW_SECONDS:
            results[name].times.append(first)
            runs[name] = 0
    for i in range(repeat):
        for name, run in timed.items():
            if i >= runs[name]:
                continue
            gc.collect()
            t0 = time.perf_counter()
            out = run()
            results[name].times.append(time.perf_counter() - t0)
            del out
    return results


def rss_kb(field_name: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field_name} not in /proc/self/status")


def run_one(args: argparse.Namespace) -> int:
    """``--one WORKLOAD CANDIDATE``: run once in this fresh process, print memory as JSON."""
    wname, cname = args.one
    work = {w.name: w for w in all_workloads(args.groups)}[wname]
    cand = work.candidates[cname]
    paths = data_paths(args.rows, args.groups, args.seed)
    ctx = Ctx(paths, columns=work.columns)
    gc.collect()
    base = rss_kb("VmRSS")
    if cname in ("clfeval", "expr", "pds", "floor"):
        ctx.frame(work.dataset)  # these read the Polars frame inside the timed call
    run = cand.prepare(ctx)
    gc.collect()
    reset = False
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current RSS (Linux >= 4.0)
        reset = True
    loaded = rss_kb("VmRSS")
    t0 = time.perf_counter()
    out = run()
    seconds = time.perf_counter() - t0
    peak = rss_kb("VmHWM")
    del out
    print(
        json.dumps(
            {
                "base_mb": base / 1e3 * 1.024,
                "loaded_mb": loaded / 1e3 * 1.024,
                "peak_mb": peak / 1e3 * 1.024,
                "seconds": seconds,
                "reset": reset,
            }
        )
    )
    return 0


def memory_of(w: str, c: str, rows: int, groups: int, seed: int) -> dict[str, float] | None:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", w, c]
    cmd += ["--rows", str(rows), "--groups", str(groups), "--seed", str(seed)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False)
    except subprocess.TimeoutExpired:
        log(f"  memory {w} / {c}: timeout")
        return None
    if done.returncode != 0:
        log(f"  memory {w} / {c}: failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    m = json.loads(done.stdout.strip().splitlines()[-1])
    m["over_base_mb"] = m["peak_mb"] - m["base_mb"]
    m["working_mb"] = m["peak_mb"] - m["loaded_mb"]
    return m


def footprint(memory: dict[str, float], candidate: str, input_mb: float) -> float:
    """What a candidate needs: the input it holds in memory (not when streaming) + working memory.

    The resident growth from loading the input is not used: it includes the Parquet reader's
    buffers kept by the allocator, which are not the candidate's doing.
    """
    held = 0.0 if candidate == "stream" else input_mb
    return held + memory["working_mb"]


# --- report ------------------------------------------------------------------------------


def fmt_s(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:.3g}" if x >= 0.001 else f"{x:.1e}"


def fmt_x(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "—"
    return f"{x:.0f}×" if x >= 100 else f"{x:.3g}×"


def check_mark(r: Result) -> str:
    return {"ref": "ref", "ok": "✓", "n/a": "—"}.get(r.status, "✗")


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b is not None and b > 0 else None


def results_table(
    works: list[Workload], res: dict[tuple[str, str], Result], inputs: dict[str, float]
) -> str:
    head = (
        "| workload (input MB) | candidate | check | median s | speed-up vs sklearn "
        "| × floor time | peak MB | working MB | footprint / input |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for w in works:
        sk = res.get((w.name, "sklearn"))
        fl = res.get((w.name, "floor"))
        first = True
        for c in CANDIDATES:
            r = res.get((w.name, c))
            if r is None:
                continue
            label = f"{w.title} ({inputs[w.name]:.0f} MB)" if first else ""
            first = False
            title = TITLES.get(c, f"floor: `{w.floor_note}`")
            speed = ratio(sk.median, r.median) if sk and sk.usable and r.usable else None
            vs_floor = ratio(r.median, fl.median) if fl and fl.usable and r.usable else None
            mem = r.memory["over_base_mb"] if r.memory else None
            work = r.memory["working_mb"] if r.memory else None
            foot = footprint(r.memory, c, inputs[w.name]) if r.memory else None
            lines.append(
                f"| {label} | {title} | {check_mark(r)} | {fmt_s(r.median)} | "
                f"{fmt_x(speed) if c != 'sklearn' else '1×'} | {fmt_x(vs_floor)} | "
                f"{fmt_s(mem)} | {fmt_s(work)} | {fmt_x(ratio(foot, inputs[w.name]))} |"
            )
    notes = [
        f"- {w.name} / {TITLES.get(c, 'floor')}: {r.detail}"
        for w in works
        for c in CANDIDATES
        if (r := res.get((w.name, c))) is not None
        and r.detail
        and (w.candidates[c].note or r.status in ("mismatch", "error"))
    ]
    tail = "\nCandidate notes and failures:\n\n" + "\n".join(notes) + "\n" if notes else ""
    return head + "\n".join(lines) + "\n" + tail


def failures(res: dict[tuple[str, str], Result]) -> list[Result]:
    return [r for r in res.values() if r.status in ("mismatch", "error")]


@dataclass
class Target:
    text: str
    measured: str
    ok: bool | None
    note: str = ""


def targets(
    res: dict[tuple[str, str], Result], inputs: dict[str, float], rows: int
) -> list[Target]:
    out: list[Target] = []

    def t(w: str, c: str) -> float | None:
        r = res.get((w, c))
        return r.median if r is not None and r.usable else None

    def speed(text: str, w: str, against: str, goal: float) -> None:
        s = ratio(t(w, against), t(w, "clfeval"))
        if s is None:
            return
        out.append(
            Target(
                text,
                f"{w}: {fmt_x(s)} ({fmt_s(t(w, against))} s vs {fmt_s(t(w, 'clfeval'))} s)",
                s >= goal,
            )
        )

    def slower(
        text: str, c: str, base: str, goal: float, works: tuple[str, ...] | None = None
    ) -> None:
        for w in works or sorted({w for w, x in res if x == c}):
            s = ratio(t(w, c), t(w, base))
            if s is not None:
                out.append(
                    Target(
                        text,
                        f"{w}: {fmt_x(s)} ({fmt_s(t(w, c))} s vs {fmt_s(t(w, base))} s)",
                        s <= goal,
                    )
                )

    speed("report ≥ 50× faster than scikit-learn, string labels", "report_str", "sklearn", 50)
    speed("report ≥ 15× faster than scikit-learn, int labels", "report_int", "sklearn", 15)
    for w in ("report_int", "report_str", "confusion_int", "confusion_str"):
        f = ratio(t(w, "clfeval"), t(w, "floor"))
        if f is None:
            continue
        out.append(
            Target(
                "label metrics within 3× of the group-by floor",
                f"{w}: {fmt_x(f)} ({fmt_s(t(w, 'clfeval'))} s vs {fmt_s(t(w, 'floor'))} s)",
                f <= 3,
            )
        )
    # issue 17's targets (they supersede the first bench's ≥ 6×, ≥ 40×, 1.5× and 2.5×)
    speed("exact AUROC ≥ 12× faster than scikit-learn, continuous", "auroc_cont", "sklearn", 12)
    for w in ("roc_cont", "pr_cont", "ap_cont"):
        speed("ROC, PR, AP ≥ 8× faster than scikit-learn, continuous", w, "sklearn", 8)
    for w in ("auroc_cont", "roc_cont", "ap_cont"):
        speed("exact AUROC / curves ≥ 2.5× faster than polars-ds, continuous", w, "pds", 2.5)
    for w in ("auroc_ties", "roc_ties", "pr_ties", "ap_ties", "thresholds_ties"):
        speed("tied scores ≥ 50× faster than scikit-learn", w, "sklearn", 50)
    speed("grouped AUROC ≥ 20× faster than a scikit-learn loop", "grouped_auroc", "sklearn", 20)
    speed("grouped AUROC ≥ 10× faster than polars-ds", "grouped_auroc", "pds", 10)
    speed("multiclass AUROC OvR ≥ 10× faster than scikit-learn", "ovr_auroc", "sklearn", 10)
    slower(
        "AUROC / AP expression in select or group_by().agg() ≤ 1.2× the front door",
        "expr",
        "clfeval",
        1.2,
        ("auroc_cont", "ap_cont", "auroc_ties", "ap_ties", "grouped_auroc", "ovr_auroc"),
    )
    slower(
        "LazyFrame tied scores (streaming) ≤ 1.5× eager",
        "stream",
        "clfeval",
        1.5,
        ("auroc_ties", "roc_ties", "pr_ties", "ap_ties", "thresholds_ties"),
    )
    slower("calibration ≤ 2× its floor", "clfeval", "floor", 2, ("calibration",))
    for w in sorted({w for w, c in res if c == "duckdb"}):
        d = ratio(t(w, "duckdb"), t(w, "clfeval"))
        if d is None:
            continue
        goal = 1.5 if w in LABEL_WORKLOADS else 2.0
        out.append(
            Target(
                f"DuckDB macros within {goal:g}× of the Polars path"
                + (" (label workloads)" if goal == 1.5 else ""),
                f"{w}: {fmt_x(d)} ({fmt_s(t(w, 'duckdb'))} s vs {fmt_s(t(w, 'clfeval'))} s)",
                d <= goal,
            )
        )
    for w in sorted({w for w, _ in res}):
        for engine, names, goal in (("Polars", POLARS, 3.0), ("DuckDB", ("duckdb",), 4.0)):
            worst = None
            for c in names:
                r = res.get((w, c))
                if r is None or r.memory is None:
                    continue
                foot = footprint(r.memory, c, inputs[w])
                q = foot / inputs[w]
                if worst is None or q > worst[0]:
                    worst = (q, c, foot)
            if worst is not None:
                out.append(
                    Target(
                        f"footprint of every {engine} candidate ≤ {goal:g}× the input",
                        f"{w}: worst {fmt_x(worst[0])} ({TITLES[worst[1]]}, {worst[2]:.0f} MB "
                        f"vs {inputs[w]:.0f} MB)",
                        worst[0] <= goal,
                    )
                )
    for w in sorted({w for w, _ in res}):
        r = res.get((w, "stream"))
        if r is None or r.memory is None or r.memory_small is None:
            continue
        big, small = r.memory["working_mb"], r.memory_small["working_mb"]
        q = big / inputs[w]
        out.append(
            Target(
                "streaming from Parquet stays ≤ 2.5× the input as the input grows 10×",
                f"{w}: {small:.0f} MB at {rows // 10:,} rows → {big:.0f} MB at {rows:,} "
                f"(growth {big / small:.1f}×; {fmt_x(q)} the input)",
                q <= 2.5,
            )
        )
    return out


def targets_md(ts: list[Target]) -> str:
    rows = [
        f"| {x.text} | {x.measured} | {'—' if x.ok is None else ('✓' if x.ok else '✗')} |"
        for x in ts
    ]
    return "| target | measured | met |\n|---|---|---|\n" + "\n".join(rows) + "\n"


def machine() -> dict[str, str]:
    model = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = "unknown"
    with contextlib.suppress(OSError), open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024**2:.1f} GiB"
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": model,
        "cores": str(cores),
        "ram": mem,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "os": platform.platform(),
    }


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "clfeval": getattr(ce, "__version__", "?"),
        "polars": pl.__version__,
        "duckdb": duckdb.__version__,
        "scikit-learn": sklearn.__version__,
        "polars-ds": getattr(pds, "__version__", "?"),
        "numpy": np.__version__,
    }


def write_markdown(
    path: Path,
    args: argparse.Namespace,
    table: str,
    ts: list[Target],
    info: dict[str, Any],
) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    found = re.search(re.escape(NOTES_START) + r".*?" + re.escape(NOTES_END), old, re.S)
    notes = found.group(0) if found else f"{NOTES_START}\n{NOTES_END}"
    # the sections other benchmark scripts write after this script's end marker
    rest = old[found.end() :] if found else old
    kept = rest.split(GENERATED_END, 1)[1] if GENERATED_END in rest else ""
    m, v = info["machine"], info["versions"]
    met = sum(1 for x in ts if x.ok)
    missed = sum(1 for x in ts if x.ok is False)
    text = f"""# clfeval benchmark results

Latest run: {info["date"]}, `{info["command"]}` ({args.rows:,} rows, {args.groups:,} groups,
median of {args.repeat} after a warm-up, {info["elapsed"]:.0f} s in all).

Machine: {m["cpu"]}, {m["cores"]} cores, {m["ram"]} RAM, {m["os"]}. The machine is shared with
other jobs (load average {m["load"]} at the start, {info["load_end"]} at the end), so absolute
times are noisy; ratios come from one run with the candidates of a workload timed round robin.

Versions: {", ".join(f"{k} {x}" for k, x in v.items())}.

## Results

Check: every candidate's output against scikit-learn's (numbers to 1e-9, curves point for point)
before timing; ✗ marks a wrong or failing candidate, left out of the targets. Timing: a warm-up
run (the check run when it took over {WARM_SECONDS:.0f} s), then the timed runs round robin across
the candidates of the workload; a candidate whose check run took over {SLOW_SECONDS:.0f} s (the
scikit-learn loops over groups) is timed by that single run and gets no memory probe. Speed-up vs
scikit-learn = scikit-learn's median / the candidate's; × floor time = the candidate's median /
the floor's. Peak MB: the peak resident memory of a fresh process running the candidate once,
minus its resident memory after imports (so it includes the input the candidate holds, as
loaded: the Polars frame, the NumPy arrays or the DuckDB table, with the Parquet reader's
retained buffers; nothing for streaming from Parquet); working MB: that peak minus the resident
memory once the input was loaded; footprint = input MB (for the candidates that hold the input)
+ working MB, divided by input MB: the measure used for the memory targets. Input MB:
`DataFrame.estimated_size()` of the columns the workload reads.

{table}
## Targets

{met} met, {missed} missed (of {len(ts)} checks measured in this run). Issue 17's targets
replace the first bench's (≥ 6× and ≥ 40× scikit-learn, DuckDB within 1.5×, memory ≤ 2.5×);
the 60M-row Parquet targets are measured by `benchmarks/lazy_parquet.py`.

{targets_md(ts)}
## Notes and diagnosis

{notes}

## How to reproduce

```bash
/work/venv/bin/python benchmarks/bench.py --rows 10000000      # the full run; rewrites this file
/work/venv/bin/python benchmarks/bench.py --quick              # about a minute; writes nothing
/work/venv/bin/python benchmarks/bench.py --workloads auroc_cont,roc_cont --candidates clfeval,sklearn
```

Data is generated with `numpy.random.default_rng({args.seed})` and cached as Parquet under
`benchmarks/data/` (gitignored). The section between the `notes` markers above, and every
section after this one, are kept when the script rewrites this file.

{GENERATED_END}"""
    path.write_text(text + kept, encoding="utf-8")


# --- main ----------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=None, help="rows per dataset (default 1,000,000)")
    p.add_argument("--groups", type=int, default=None, help="groups (default 10,000; 200 quick)")
    p.add_argument("--repeat", type=int, default=None, help="timed runs (default 5; 1 quick)")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--quick", action="store_true", help="20,000 rows, 1 run, one memory probe")
    p.add_argument("--out", type=Path, default=None, help="Markdown output")
    p.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    p.add_argument("--no-memory", action="store_true", help="skip the memory subprocesses")
    p.add_argument("--workloads", default=None, help="comma-separated workload names")
    p.add_argument("--candidates", default=None, help=f"comma-separated, from {CANDIDATES}")
    p.add_argument("--one", nargs=2, metavar=("WORKLOAD", "CANDIDATE"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.rows is None:
        args.rows = 20_000 if args.quick else 1_000_000
    if args.groups is None:
        args.groups = 200 if args.quick else 10_000
    if args.repeat is None:
        args.repeat = 1 if args.quick else 5
    if args.rows < args.groups * 2:
        p.error("--rows must be at least twice --groups")
    if args.out is None and not args.quick and args.one is None and args.workloads is None:
        args.out = DEFAULT_OUT
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.one is not None:
        return run_one(args)
    start = time.perf_counter()
    info: dict[str, Any] = {
        "date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "command": "python benchmarks/bench.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "machine": machine(),
        "versions": versions(),
    }
    works = all_workloads(args.groups)
    if args.workloads:
        wanted = args.workloads.split(",")
        unknown = set(wanted) - {w.name for w in works}
        if unknown:
            log(f"unknown workloads {sorted(unknown)}; choose from {[w.name for w in works]}")
            return 2
        works = [w for w in works if w.name in wanted]
    chosen = args.candidates.split(",") if args.candidates else CANDIDATES
    log(f"data: {args.rows:,} rows, {args.groups:,} groups, seed {args.seed}")
    paths = ensure_data(args.rows, args.groups, args.seed)
    ctx = Ctx(paths)
    inputs = {w.name: ctx.frame(w.dataset).select(w.columns).estimated_size() / 1e6 for w in works}
    res: dict[tuple[str, str], Result] = {}
    last_ds = None
    for w in works:
        if w.dataset != last_ds:
            ctx.release_arrays()
            last_ds = w.dataset
        log(f"{w.name}: {w.title}")
        names = [c for c in CANDIDATES if c in w.candidates and c in chosen]
        for name, r in measure(w, ctx, names, args.repeat, args.quick).items():
            res[(w.name, name)] = r
    ctx.close()
    del ctx
    if not args.no_memory:
        probes = [(w.name, c) for w in works for c in CANDIDATES if (w.name, c) in res]
        if args.quick:
            probes = [p for p in probes if p == ("auroc_cont", "clfeval")][:1] or probes[:1]
        small = args.rows // 10
        streaming_scale = not args.quick and small >= 2 * args.groups
        if streaming_scale:
            ensure_data(small, args.groups, args.seed)
            gc.collect()
        for w, c in probes:
            r = res[(w, c)]
            if r.status in ("mismatch", "error") or (r.first or 0) > SLOW_SECONDS:
                continue
            log(f"memory: {w} / {c}")
            res[(w, c)].memory = memory_of(w, c, args.rows, args.groups, args.seed)
            if c == "stream" and streaming_scale:
                res[(w, c)].memory_small = memory_of(w, c, small, args.groups, args.seed)
    info["elapsed"] = time.perf_counter() - start
    info["load_end"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    table = results_table(works, res, inputs)
    ts = targets(res, inputs, args.rows)
    bad = failures(res)
    if args.json:
        summary = {
            "rows": args.rows,
            "groups": args.groups,
            "ok": not bad,
            "results": [
                {
                    "workload": r.workload,
                    "candidate": r.candidate,
                    "status": r.status,
                    "detail": r.detail,
                    "median_s": r.median,
                    "memory": r.memory,
                }
                for r in res.values()
            ],
            "targets": [{"target": x.text, "measured": x.measured, "ok": x.ok} for x in ts],
        }
        print(json.dumps(summary))
    else:
        print(table)
        print(targets_md(ts))
    if args.out is not None:
        write_markdown(args.out, args, table, ts, info)
        log(f"wrote {args.out}")
    for r in bad:
        log(f"FAILED CHECK: {r.workload} / {r.candidate}: {r.status} {r.detail}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
