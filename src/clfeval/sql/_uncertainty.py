"""``clfeval.sql`` twins of the uncertainty functions: bootstrap, intervals, paired tests.

Each checks its options with :mod:`clfeval._options` and its data as the Polars front door
does (a frame through :mod:`clfeval._validate`, a DuckDB table through SQL counts), then runs
the macros of ``sql/70_uncertainty.sql`` and ``sql/75_compare.sql`` with every value bound
as a parameter. The draws of the bootstrap are the Polars ones, so a seed gives the same
replicates in both engines.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import polars as pl

from clfeval import _options, _validate
from clfeval._frames import as_polars
from clfeval.exceptions import InputError
from clfeval.sql import _checks
from clfeval.sql._run import check_values, fetch, session, table_macro
from clfeval.sql._source import By, Data

__all__ = ["auroc_ci", "bootstrap", "compare", "compare_auroc"]

LABEL = ("accuracy", "balanced_accuracy", "precision", "recall", "f1", "mcc")
SCORE = ("auroc", "average_precision", "log_loss", "brier")


def _metric_names(metrics: Any, yhat: Any, score: Any) -> list[str]:
    if yhat is None and score is None:
        raise InputError(
            "bootstrap needs yhat= or score=",
            role="yhat",
            rule="missing_argument",
            hint="pass the predicted-class column, the score column, or both",
        )
    if metrics is None:
        return [*(LABEL if yhat is not None else ()), *(SCORE if score is not None else ())]
    names = _options.metric_names(metrics, [*LABEL, *SCORE])
    for name in names:
        if name in LABEL and yhat is None:
            raise InputError(
                f"metric {name!r} needs yhat=",
                role="yhat",
                rule="missing_argument",
                hint="pass the predicted-class column",
            )
        if name in SCORE and score is None:
            raise InputError(
                f"metric {name!r} needs score=",
                role="score",
                rule="missing_argument",
                hint="pass the score column",
            )
    return names


def bootstrap(
    data: Data,
    y: str,
    yhat: str | None = None,
    *,
    score: str | None = None,
    metrics: Sequence[str] | None = None,
    n_boot: int = 1_000,
    seed: int = 0,
    average: str = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = 0.0,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """bootstrap: Poisson bootstrap replicates, as ``clfeval.bootstrap`` (the same draws).

    Runs ``clf_bootstrap`` (the label metrics of ``clf_metrics``) and, with ``score``,
    ``clf_bootstrap_scores`` (auroc, average_precision, log_loss, brier of ``pos_label``);
    returns the group columns, ``replicate``, then the chosen metrics.
    """
    names = _metric_names(metrics, yhat, score)
    n_boot, seed = _options.n_boot(n_boot), _options.seed(seed)
    by_cols = _options.group_columns(by)
    keys = [*by_cols, "replicate"]
    parts = []
    if yhat is not None and any(n in LABEL for n in names):
        parts.append(table_macro(
            "clf_bootstrap", data, y, yhat, con=con, missing=missing, nonfinite=nonfinite,
            group_cols=by, weight_col=weight, n_boot=n_boot, seed=seed, average=average,
            pos_label=pos_label, labels=labels, zero_division=zero_division,
        ))  # fmt: skip
    if score is not None and any(n in SCORE for n in names):
        probability = any(n in ("log_loss", "brier") for n in names)
        parts.append(table_macro(
            "clf_bootstrap_scores", data, y, score, con=con, missing=missing,
            nonfinite=nonfinite, group_cols=by, weight_col=weight, n_boot=n_boot, seed=seed,
            pos_label=pos_label, check_probability=probability,
        ))  # fmt: skip
    out = parts[0]
    for part in parts[1:]:
        out = out.join(part, on=keys, how="inner", nulls_equal=True, maintain_order="left")
    return out.select(*keys, *names)


def auroc_ci(
    data: Data,
    y: str,
    score: str,
    *,
    level: float = 0.95,
    pos_label: Any = 1,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """auroc_ci: AUROC with DeLong's interval (``clf_auroc_ci``), as ``clfeval.auroc_ci``.

    Returns the group columns, then ``auroc, auroc_lo, auroc_hi, se``.
    """
    level = _options.level("level", level)
    return table_macro(
        "clf_auroc_ci", data, y, score, con=con, missing=missing, nonfinite=nonfinite,
        group_cols=by, weight_col=weight, level=level, pos_label=pos_label,
    )  # fmt: skip


@contextmanager
def _paired_source(
    con: duckdb.DuckDBPyConnection,
    data: Data,
    roles: dict[str, str],
    by: list[str],
    *,
    missing: str,
    nonfinite: str,
    pos_label: Any,
    outputs: Sequence[str],
) -> Iterator[tuple[str, pl.DataFrame | None]]:
    """Check the columns of a paired comparison as the front door does; yield the name of a
    relation holding them (and the rows left out per group, with a drop option)."""
    if isinstance(data, str):
        if missing == "drop" or nonfinite == "drop":
            raise InputError(
                "missing='drop' and nonfinite='drop' take a Polars frame in the paired tests",
                role="missing",
                rule="option",
                hint="filter the table in SQL first, or pass a frame",
            )
        schema = _checks.table_schema(con, data)
        by = _options.group_columns(by, roles=roles, outputs=outputs)
        cast = _validate.check_schema(schema, roles, by, labels=None, pos_label=pos_label)
        plan = _validate.plan(
            schema, roles, cast=cast, missing="raise", nonfinite="raise", probability=False,
            grouped=bool(by), pos_label=pos_label,
        )  # fmt: skip
        _checks.scan(con, data, schema, plan)
        yield data, None
        return
    frame = as_polars(data)
    scores = [c for r, c in roles.items() if r.startswith("score")]
    yhats = [c for r, c in roles.items() if r.startswith("yhat")]
    kept: pl.DataFrame | pl.LazyFrame = frame
    excluded = None
    if scores:
        prep = _validate.prepare(
            frame, y=roles["y"], score=scores[0], more_scores=scores[1:],
            weight=roles.get("weight"), by=by, missing=missing, nonfinite=nonfinite,
            classes=False, pos_label=pos_label, pos_in_y=True, scan_lazy=True, outputs=outputs,
        )  # fmt: skip
        kept, excluded = prep.frame, prep.n_excluded
    else:
        for c in yhats:
            prep = _validate.prepare(
                frame, y=roles["y"], yhat=c, weight=roles.get("weight"), by=by,
                missing=missing, classes=False, scan_lazy=True, outputs=outputs,
            )  # fmt: skip
        if missing == "drop":  # the rows every compared column can use, counted per group
            used = [roles["y"], *yhats, *([roles["weight"]] if "weight" in roles else [])]
            null = pl.any_horizontal(pl.col(used).is_null())
            kept = frame.lazy().filter(~null)
            n = null.cast(pl.Int64).sum().alias("n_excluded")
            lf = frame.lazy()
            excluded = (
                lf.group_by(by).agg(n).sort(by, nulls_last=True) if by else lf.select(n)
            ).collect()
    used = list(dict.fromkeys([*roles.values(), *by]))
    name = f"__clf_input_{secrets.token_hex(6)}"
    con.register(name, kept.lazy().select(used))
    try:
        yield name, excluded
    finally:
        con.unregister(name)


def _run(
    con: duckdb.DuckDBPyConnection, macro: str, table: str, columns: list[str], **params: Any
) -> pl.DataFrame:
    binds: dict[str, Any] = {"tbl": table, **{f"c{i}": c for i, c in enumerate(columns)}}
    binds.update({f"p_{k}": v for k, v in params.items()})
    args = ["$tbl", *(f"$c{i}" for i in range(len(columns)))]
    args += [f"{k} := $p_{k}" for k in params]
    # only fixed identifiers (the macro and parameter names) reach the text
    return fetch(con, f"SELECT * FROM {macro}({', '.join(args)})", binds, macro)


def _stack(parts: list[pl.DataFrame], by: list[str], excluded: pl.DataFrame | None) -> pl.DataFrame:
    out = pl.concat(parts, how="vertical_relaxed")
    if by:
        out = out.sort(by, nulls_last=True, maintain_order=True)
    if excluded is not None:
        n = excluded.with_columns(pl.col("n_excluded").cast(pl.Int64))
        out = (
            out.join(n, on=by, how="left", nulls_equal=True, maintain_order="left")
            if by
            else out.with_columns(pl.lit(n.item(), pl.Int64).alias("n_excluded"))
        )
        out = out.select(*by, "n_excluded", pl.exclude([*by, "n_excluded"]))
    return out


def compare_auroc(
    data: Data,
    y: str,
    score: Sequence[str],
    *,
    level: float = 0.95,
    pos_label: Any = 1,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
    nonfinite: str = "raise",
) -> pl.DataFrame:
    """compare_auroc: DeLong's paired test (``clf_compare_auroc``), as
    ``clfeval.compare_auroc``: each score after the first against the first."""
    level = _options.level("level", level)
    names = _options.compared("score", score, y)
    by_cols = _options.group_columns(by)
    _options.class_value("pos_label", pos_label)
    roles = {
        "y": y,
        "score": names[0],
        **{f"score_{chr(98 + i)}": c for i, c in enumerate(names[1:])},
    }
    if weight is not None:
        roles["weight"] = weight
    outputs = [
        "model_a",
        "model_b",
        "auroc_a",
        "auroc_b",
        "diff",
        "diff_lo",
        "diff_hi",
        "se",
        "z",
        "p_value",
    ]
    with session(con) as c, _paired_source(
        c, data, roles, by_cols, missing=missing, nonfinite=nonfinite, pos_label=pos_label,
        outputs=outputs,
    ) as (table, excluded):  # fmt: skip
        parts = []
        for other in names[1:]:
            out = _run(c, "clf_compare_auroc", table, [y, names[0], other], level=level,
                       group_cols=by_cols, weight_col=weight, pos_label=pos_label)  # fmt: skip
            out = out.with_columns(
                pl.lit(names[0]).alias("model_a"), pl.lit(other).alias("model_b")
            )
            parts.append(out.select(*by_cols, *outputs))
        return _stack(parts, by_cols, excluded)


def compare(
    data: Data,
    y: str,
    yhat: Sequence[str],
    *,
    metrics: Sequence[str] | None = None,
    level: float = 0.95,
    n_boot: int = 1_000,
    seed: int = 0,
    average: str = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: float | None = 0.0,
    by: By = None,
    weight: str | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    missing: str = "raise",
) -> pl.DataFrame:
    """compare: McNemar and bootstrap differences (``clf_compare``), as ``clfeval.compare``
    (the same draws): each column of ``yhat`` after the first against the first; metrics
    among accuracy, balanced_accuracy, precision, recall, f1, mcc."""
    names = _options.compared("yhat", yhat, y)
    chosen = list(LABEL) if metrics is None else _options.metric_names(metrics, LABEL)
    level = _options.level("level", level)
    n_boot, seed = _options.n_boot(n_boot), _options.seed(seed)
    params = check_values(
        {"average": average, "labels": labels, "zero_division": zero_division,
         "pos_label": pos_label},
    )  # fmt: skip
    by_cols = _options.group_columns(by)
    roles = {
        "y": y,
        "yhat": names[0],
        **{f"yhat_{chr(98 + i)}": c for i, c in enumerate(names[1:])},
    }
    if weight is not None:
        roles["weight"] = weight
    mcnemar = ["n_a_only", "n_b_only", "mcnemar_statistic", "mcnemar_p_value", "mcnemar_method"]
    values = [f"{m}{s}" for m in chosen for s in ("_a", "_b", "_diff", "_diff_lo", "_diff_hi")]
    outputs = ["model_a", "model_b", *mcnemar, *values]
    with session(con) as c, _paired_source(
        c, data, roles, by_cols, missing=missing, nonfinite="raise", pos_label=_validate.NOT_GIVEN,
        outputs=outputs,
    ) as (table, excluded):  # fmt: skip
        parts = []
        for other in names[1:]:
            out = _run(c, "clf_compare", table, [y, names[0], other], level=level, n_boot=n_boot,
                       seed=seed, group_cols=by_cols, weight_col=weight, **params)  # fmt: skip
            out = out.with_columns(
                pl.lit(names[0]).alias("model_a"), pl.lit(other).alias("model_b")
            )
            parts.append(out.select(*by_cols, *outputs, *[f"{m}_diff_n_undefined" for m in chosen]))
        return _stack(parts, by_cols, excluded)
