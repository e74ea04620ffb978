"""Paired comparison of predicted labels on the same rows: McNemar's test and bootstrap
differences of label metrics.

Both read one joint count table ``(by, y, yhat_a, yhat_b, n)``:

* McNemar's test of the discordant pairs, b rows that only model a gets right and c rows
  that only model b gets right: exact (two-sided binomial, p = min(1, 2·P(X <= min(b, c))),
  X ~ Bin(b + c, ½)) when b + c < 25, else χ² with Edwards' continuity correction,
  (|b − c| − 1)² / (b + c) on one degree of freedom (``statsmodels``' ``mcnemar`` with
  ``exact=True`` and ``exact=False``, the rule of thumb of its documentation);
* the difference b − a of each label metric, with a percentile interval from the Poisson
  bootstrap of the joint table (:mod:`clfeval._bootstrap`): each replicate redraws the joint
  cells, so both models are scored on the same resampled rows (a paired bootstrap).

Weights are frequency weights, as everywhere in clfeval; McNemar counts rows, so here they
must be whole numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _bootstrap, _label, _options
from clfeval._counts import N
from clfeval._delong import check_whole_weights
from clfeval._draws import REP
from clfeval._frames import as_polars, frame_input
from clfeval._metric_table import AVERAGED, LABEL_DEFAULT, LABEL_METRICS, group_eval, label_parts
from clfeval._normal import p_value
from clfeval._schema import check_class_value, label_dtype
from clfeval._validate import Frame, check_pos_label, prepare
from clfeval.exceptions import InputError

__all__ = ["compare"]

EXACT_BELOW = 25  # discordant pairs: the exact test below, chi-square from here on
MCNEMAR = ("n_a_only", "n_b_only", "mcnemar_statistic", "mcnemar_p_value", "mcnemar_method")
# P(X <= k) for X ~ Bin(n, 1/2), n < EXACT_BELOW: exact integer sums, then one division
BINOM = pl.DataFrame(
    {
        "__clf_nd": [n for n in range(EXACT_BELOW) for _ in range(n + 1)],
        "__clf_kd": [k for n in range(EXACT_BELOW) for k in range(n + 1)],
        "__clf_cdf": [
            sum(math.comb(n, i) for i in range(k + 1)) / 2**n
            for n in range(EXACT_BELOW)
            for k in range(n + 1)
        ],
    },
    schema={"__clf_nd": pl.Int64, "__clf_kd": pl.Int64, "__clf_cdf": pl.Float64},
)


def mcnemar(
    cells: pl.LazyFrame, by: list[str], y: str, a: str, b: str, weighted: bool
) -> pl.LazyFrame:
    """``(by..., n_a_only, n_b_only, mcnemar_statistic, mcnemar_p_value, mcnemar_method)``;
    the counts are Int64 (Float64 with a weight)."""
    right_a, right_b = pl.col(a) == pl.col(y), pl.col(b) == pl.col(y)
    n = pl.col(N).cast(pl.Float64)
    counts = group_eval(
        cells,
        by,
        [
            n.filter(right_a & ~right_b).sum().alias("n_a_only"),
            n.filter(~right_a & right_b).sum().alias("n_b_only"),
        ],
    )
    b_, c_ = pl.col("n_a_only"), pl.col("n_b_only")
    shown = pl.Float64 if weighted else pl.Int64
    total = b_ + c_
    exact = total < EXACT_BELOW
    chi2 = ((b_ - c_).abs() - 1.0) ** 2 / total
    out = counts.with_columns(
        total.round().cast(pl.Int64).alias("__clf_nd"),
        pl.min_horizontal(b_, c_).round().cast(pl.Int64).alias("__clf_kd"),
    ).join(BINOM.lazy(), on=["__clf_nd", "__clf_kd"], how="left", maintain_order="left")
    return out.select(
        *by,
        b_.cast(shown),
        c_.cast(shown),
        pl.when(exact).then(pl.min_horizontal(b_, c_)).otherwise(chi2).alias("mcnemar_statistic"),
        pl.when(exact)
        .then((2.0 * pl.col("__clf_cdf")).clip(upper_bound=1.0))
        .otherwise(p_value(chi2.sqrt()))
        .alias("mcnemar_p_value"),
        pl.when(exact).then(pl.lit("exact")).otherwise(pl.lit("chi2")).alias("mcnemar_method"),
    )


def _label_metrics(
    counts: pl.LazyFrame, keys: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> pl.LazyFrame:
    """The label metrics of each ``keys`` group of a joint table, for the column ``yhat``."""
    pairs = counts.group_by([*keys, y, yhat]).agg(pl.col(N).sum())
    parts = label_parts(pairs, keys, y, yhat, names, opts)
    out = parts[0]
    for part in parts[1:]:
        out = out.join(part, on=keys or None, how="left" if keys else "cross", nulls_equal=True)
    return out.select(*keys, *names)


@frame_input("compare")
def compare(
    data: Frame,
    y: str,
    yhat: Sequence[str],
    *,
    metrics: Sequence[str] | None = None,
    level: float = 0.95,
    n_boot: int = 1_000,
    seed: int = 0,
    average: Literal["binary", "micro", "macro", "weighted"] = "binary",
    pos_label: Any = 1,
    labels: Sequence[Any] | None = None,
    zero_division: _label.ZeroDivision = 0.0,
    beta: float = 1.0,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
) -> Frame:
    """Paired tests of predicted labels on the same rows: McNemar, and each metric's
    difference with its bootstrap interval.

    Each column of ``yhat`` after the first is compared with the first (``model_a``), one row
    per group and pair: ``model_a, model_b``, McNemar's ``n_a_only`` (rows only a gets right),
    ``n_b_only``, ``mcnemar_statistic``, ``mcnemar_p_value``, ``mcnemar_method`` (``exact``
    below 25 discordant rows, else ``chi2`` with continuity correction); then per metric
    ``<m>_a``, ``<m>_b``, ``<m>_diff`` (b − a), ``<m>_diff_lo``, ``<m>_diff_hi`` (percentile
    interval of ``n_boot`` paired Poisson replicates) and, last, ``<m>_diff_n_undefined``.
    Weights are frequency weights (whole numbers).

    See Also
    --------
    clf_compare : the SQL twin.
    clfeval.compare_auroc : DeLong's paired test of two scores.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [1, 0, 1, 1, 0, 1], "a": [1, 0, 0, 1, 1, 0],
    ...                    "b": [1, 0, 1, 1, 0, 1]})
    >>> out = compare(df, "y", ["a", "b"], metrics=["accuracy"], n_boot=200)
    >>> out.select("n_a_only", "n_b_only", "mcnemar_p_value", "accuracy_diff").row(0)
    (0, 3, 0.25, 0.5)
    """
    data = as_polars(data)
    names_in = _options.compared("yhat", yhat, y)
    level = _options.level("level", level)
    n_boot, seed = _options.n_boot(n_boot), _options.seed(seed)
    labels = _options.labels(labels)
    _options.average(average, ("binary", "micro", "macro", "weighted"))
    zero_division = _options.zero_division(zero_division)
    beta = _options.beta(beta)
    _options.mode("missing", missing)
    names = (
        list(LABEL_DEFAULT) if metrics is None else _options.metric_names(metrics, LABEL_METRICS)
    )
    outputs = [*MCNEMAR, "model_a", "model_b"]
    outputs += [f"{m}{s}" for m in names for s in ("_a", "_b", "_diff", "_diff_lo", "_diff_hi")]
    lf = data.lazy()
    n_excluded = None
    if missing == "drop":  # the rows every compared column can use: nulls anywhere go
        used = [y, *names_in, *([weight] if weight is not None else [])]
        _options.group_columns(by)
        schema = lf.collect_schema()
        for column in used:
            if column not in schema:
                break
        else:
            null = pl.any_horizontal([pl.col(c).is_null() for c in used])
            for c in [y, *names_in]:
                if schema[c].is_float():
                    null = null | pl.col(c).is_nan()
            if isinstance(data, pl.DataFrame):
                by_cols = _options.group_columns(by)
                n = null.cast(pl.Int64).sum().alias("n_excluded")
                n_excluded = (lf.group_by(by_cols).agg(n) if by_cols else lf.select(n)).collect()
            lf = lf.filter(~null)
    source = lf.collect() if isinstance(data, pl.DataFrame) else lf
    preps = [
        prepare(
            source,
            y=y,
            yhat=c,
            weight=weight,
            by=by,
            labels=labels,
            classes=False,
            outputs=outputs,
            missing="raise",
        )
        for c in names_in
    ]
    prep = preps[0]
    check_whole_weights(prep, weight, "McNemar's test")
    by_cols = prep.by
    schema = prep.frame.collect_schema()
    frame = lf.filter(pl.all_horizontal([pl.col(c).is_not_null() for c in [y, *names_in]]))
    frame = _common_labels(frame, lf.collect_schema(), y, names_in)
    keys = [*by_cols, y, *names_in]
    w = pl.col(weight).cast(pl.Float64) if weight is not None else None
    n = pl.len().cast(pl.Int64) if w is None else w.sum()
    counts = frame.group_by(keys).agg(n.alias(N))
    binary = average == "binary" and any(m in AVERAGED for m in names)
    if binary and not prep.eager:  # its kind, on the schema; eager input checks its classes
        check_class_value(schema[y], pos_label, y, "pos_label")
    if prep.eager:
        counts = counts.collect().lazy()
        if binary:
            classes = (
                pl.concat([counts.select(pl.col(c).alias("__c")) for c in [y, *names_in]])
                .unique()
                .sort("__c")
                .collect()["__c"]
                .to_list()
            )
            check_pos_label(
                classes, pos_label, average=average, labels=labels, y=y, dtype=schema[y]
            )
    opts = {
        "average": average, "pos_label": pos_label, "labels": labels,
        "zero_division": zero_division, "weight": N, "beta": beta, "kappa_weights": None,
    }  # fmt: skip
    cells = _bootstrap.numbered(counts, keys, 0)

    def replicated(c: pl.LazyFrame, r: pl.LazyFrame) -> pl.LazyFrame:
        reps = _bootstrap.replicate_counts(c, r, seed, keys)
        per = [
            _label_metrics(reps, [*by_cols, REP], y, col, names, opts).rename(
                {m: f"{m}__{i}" for m in names}
            )
            for i, col in enumerate(names_in)
        ]
        out = per[0]
        for part in per[1:]:
            out = out.join(part, on=[*by_cols, REP], how="left", nulls_equal=True)
        return out

    reps = _bootstrap.run(cells, n_boot, replicated, prep.eager)
    point = [_label_metrics(counts, by_cols, y, col, names, opts) for col in names_in]
    rows = []
    a = (1.0 - level) / 2.0
    for i, name in enumerate(names_in[1:], start=1):
        diffs = [(pl.col(f"{m}__{i}") - pl.col(f"{m}__0")).alias(m) for m in names]
        d = reps.select(*by_cols, *diffs)
        ints = group_eval(
            d,
            by_cols,
            [
                e
                for m in names
                for e in (
                    pl.col(m).quantile(a, "linear").alias(f"{m}_diff_lo"),
                    pl.col(m).quantile(1.0 - a, "linear").alias(f"{m}_diff_hi"),
                    pl.col(m).null_count().cast(pl.Int64).alias(f"{m}_diff_n_undefined"),
                )
            ],
        )
        both = point[0].rename({m: f"{m}_a" for m in names})
        both = _join(both, point[i].rename({m: f"{m}_b" for m in names}), by_cols)
        both = both.with_columns(
            (pl.col(f"{m}_b") - pl.col(f"{m}_a")).alias(f"{m}_diff") for m in names
        )
        both = _join(both, ints, by_cols)
        both = _join(mcnemar(counts, by_cols, y, names_in[0], name, w is not None), both, by_cols)
        columns = [f"{m}{s}" for m in names for s in ("_a", "_b", "_diff", "_diff_lo", "_diff_hi")]
        rows.append(
            both.select(
                *by_cols,
                pl.lit(names_in[0]).alias("model_a"),
                pl.lit(name).alias("model_b"),
                *MCNEMAR,
                *columns,
                *[f"{m}_diff_n_undefined" for m in names],
            )
        )
    out = pl.concat(rows, how="vertical")
    if by_cols:
        out = out.sort(by_cols, nulls_last=True, maintain_order=True)
    if n_excluded is not None:
        out = _join(out, n_excluded.lazy(), by_cols).select(
            *by_cols, "n_excluded", pl.exclude([*by_cols, "n_excluded"])
        )
    if prep.eager:
        return out.collect()
    return out


def _join(left: pl.LazyFrame, right: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    if not by:
        return left.join(right, how="cross", maintain_order="left")
    return left.join(right, on=by, how="left", nulls_equal=True, maintain_order="left")


def _common_labels(
    frame: pl.LazyFrame, schema: pl.Schema, y: str, yhats: list[str]
) -> pl.LazyFrame:
    """``y`` and every predicted column in one label dtype (the checks of each pair passed,
    so the kinds agree); an Enum or Categorical pair is cast as the front door casts it."""
    casts = [label_dtype(schema, y, c) for c in yhats]
    target = next((c for c in casts if c is not None), None)
    if target is None:
        return frame
    cast_frame = frame.with_columns(pl.col([y, *yhats]).cast(target))
    new = cast_frame.collect_schema()
    if any(label_dtype(new, y, c) is not None for c in yhats):
        raise InputError(
            f"the columns {[y, *yhats]!r} hold labels of different dtypes",
            role="yhat",
            rule="dtype_mismatch",
            hint="cast them to one dtype before comparing",
        )
    return cast_frame
