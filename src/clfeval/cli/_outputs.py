"""What ``clfeval report --format json`` and ``--format csv`` print: the report, the metrics
and the baselines of each group, as one JSON document or as one tidy CSV (one row per
number). The text format is ``str(Report)``; the HTML page is ``clfeval.report_html``.
"""

from __future__ import annotations

import json
import math
from typing import Any

import polars as pl

# the default metrics of clfeval.metrics that no average= changes, and its score metrics
UNAVERAGED = ("accuracy", "balanced_accuracy", "mcc")
AVERAGED = ("precision", "recall", "f1")
SCORE_METRICS = ("auroc", "average_precision", "log_loss", "brier")
CSV_COLUMNS = ("section", "row", "metric", "value")  # after the group columns


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def group_parts(
    rep: Any, frame: pl.DataFrame, by: list[str]
) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """(group key, {"report", "metrics", "baselines", "n_excluded"}) per group, in the
    report's order (one group with the key () when ungrouped)."""

    def key_of(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(row[c] for c in by)

    metrics = {
        key_of(r): {k: v for k, v in r.items() if k not in by} for r in frame.iter_rows(named=True)
    }
    baselines: dict[tuple[Any, ...], dict[str, Any]] = {}
    if rep.baselines is not None:
        for r in rep.baselines.iter_rows(named=True):
            baselines.setdefault(key_of(r), {})[r["strategy"]] = {
                k: v for k, v in r.items() if k not in (*by, "strategy")
            }
    excluded: dict[tuple[Any, ...], Any] = {}
    if isinstance(rep.n_excluded, pl.DataFrame):
        excluded = {key_of(r): r["n_excluded"] for r in rep.n_excluded.iter_rows(named=True)}
    elif rep.n_excluded is not None:
        excluded = {(): rep.n_excluded}
    reports = rep.to_dict()
    if not by:
        reports = {(): reports}
    out = []
    for key, d in reports.items():
        kt = key if isinstance(key, tuple) and by else (key,) if by else ()
        part: dict[str, Any] = {"report": d, "metrics": metrics.get(kt, {})}
        if kt in baselines:
            part["baselines"] = baselines[kt]
        if kt in excluded:
            part["n_excluded"] = excluded[kt]
        out.append((kt, part))
    return out


def render_json(
    groups: list[tuple[tuple[Any, ...], dict[str, Any]]], head: dict[str, Any], by: list[str]
) -> str:
    if not by:
        return json.dumps(_jsonable({**head, **groups[0][1]}), indent=2, allow_nan=False)
    parts = [{"group": dict(zip(by, key)), **part} for key, part in groups]
    return json.dumps(_jsonable({**head, "by": by, "groups": parts}), indent=2, allow_nan=False)


def render_csv(
    groups: list[tuple[tuple[Any, ...], dict[str, Any]]],
    head: dict[str, Any],
    by: list[str],
    by_schema: dict[str, pl.DataType],
) -> str:
    """Everything the JSON carries as one tidy CSV: one row per number.

    Columns: the group columns, ``section`` (report, metrics, baselines), ``row``, ``metric``,
    ``value``. ``report``: row is the report's row (a class, accuracy, macro avg, weighted
    avg), metric its column (precision, recall, f1-score, support; accuracy's one number has
    metric accuracy). ``metrics``: precision, recall and f1 have as row the class they are
    about with ``--average binary`` (the positive class), else ``macro avg`` / ``micro avg`` /
    ``weighted avg``; the other metrics (and n_excluded) have an empty row. ``baselines``:
    row is the strategy.
    """
    average = head.get("average")
    averaged_row = None
    if average == "binary":
        averaged_row = str(_jsonable(head.get("pos_label")))
    elif average is not None:
        averaged_row = f"{average} avg"
    rows: list[tuple[Any, ...]] = []

    def add(key: tuple[Any, ...], section: str, row: str | None, metric: str, value: Any) -> None:
        number = None if value is None else float(value)
        if number is not None and not math.isfinite(number):
            number = None
        rows.append((*key, section, row, metric, number))

    for key, part in groups:
        for row, value in part["report"].items():
            if isinstance(value, dict):
                for metric, v in value.items():
                    add(key, "report", str(row), metric, v)
            else:
                add(key, "report", str(row), str(row), value)
        for metric, v in part["metrics"].items():
            add(key, "metrics", averaged_row if metric in AVERAGED else None, metric, v)
        if "n_excluded" in part:
            add(key, "metrics", None, "n_excluded", part["n_excluded"])
        for strategy, values in part.get("baselines", {}).items():
            for metric, v in values.items():
                add(key, "baselines", str(strategy), metric, v)
    kinds = (pl.String(), pl.String(), pl.String(), pl.Float64())
    schema = {**{c: by_schema[c] for c in by}, **dict(zip(CSV_COLUMNS, kinds))}
    return pl.DataFrame(rows, schema=schema, orient="row").write_csv()
