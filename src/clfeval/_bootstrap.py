"""Intervals for every metric by the Poisson bootstrap on counts, never on rows.

In the Poisson bootstrap each row gets a Poisson(1) weight; n rows of one cell of a count
table then weigh a Poisson(n) in total, so a replicate is one Poisson draw per cell
(:mod:`clfeval._draws`, the same draws in DuckDB). Label metrics are replicated from the
``(by, y, yhat, n)`` table of the count layer, ranking and probability metrics from the
``(by, score, positive, n)`` table of distinct scores: every metric of a replicate is the
metric's own formula on the replicate's counts, over the classes of the data (a class drawn
zero times stays, with no support, as ``labels=`` keeps it).

Decisions, each written down in the README (section *Uncertainty*):

* intervals are percentile intervals: the α/2 and 1 − α/2 quantiles of the replicates,
  linearly interpolated (NumPy's default; DuckDB's ``quantile_cont``);
* a replicate whose value is null (AUROC of a one-class replicate, a ratio with
  ``zero_division=None``) is left out of the interval and counted in ``<metric>_n_undefined``;
  with the default ``zero_division=0.0`` a ratio is 0 there, as the metric itself;
* weights are frequencies, as everywhere in clfeval (integer weights equal repeated rows): a
  cell of total weight W draws Poisson(W), so ``weight="n"`` on a pre-aggregated table gives
  the very draws of its expanded rows; a fractional weight counts as a fractional row (a
  cell of weight 2.5 draws Poisson(2.5)), right for rescaled or averaged counts, not a
  design-based variance for survey or importance weights;
* label and score metrics are drawn from their own tables (score cells are numbered from
  2⁴⁶), so within each family a replicate is joint, across the families independent;
* cost: cells × replicates; the label tables are small, a score table has one cell per
  distinct score and class, as many as the rows for continuous scores: replicates are then
  evaluated in batches of at most :data:`BUDGET` cells (memory stays bounded, time grows
  with rows × n_boot). For the AUROC of continuous scores, DeLong's interval
  (:func:`clfeval.auroc_ci`) costs one sort.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import polars as pl

from clfeval import _draws, _options, _score
from clfeval._counts import POLARS, N, group_eval
from clfeval._curves import POS, S, W, binary_long, counts_frame
from clfeval._draws import CELL, DRAW, LAM, REP
from clfeval._metrics import Counts, binary_formulas
from clfeval._prob import EPS
from clfeval._validate import Prepared

__all__ = ["check", "intervals", "roc_band", "run"]

BUDGET = 1 << 22  # replicate cells (cells × replicates) evaluated at once
SCORE_OFFSET = 1 << 46  # score cells are numbered from here: no uniform is shared
REPLICATE = "replicate"


# --- count tables with their cells numbered -------------------------------------------------


def numbered(counts: pl.LazyFrame, keys: list[str], offset: int) -> pl.LazyFrame:
    """``counts`` (``keys`` and ``__clf_n``) sorted by ``keys`` (nulls last, as DuckDB
    orders the group struct), each row a cell numbered from ``offset`` whose Poisson mean
    ``__clf_lam`` is its count (or total weight)."""
    out = counts.sort(keys, nulls_last=True, maintain_order=True).with_row_index(CELL)
    return out.with_columns(
        (pl.col(CELL).cast(pl.UInt64) + pl.lit(offset, pl.UInt64)).alias(CELL),
        pl.col(N).cast(pl.Float64).alias(LAM),
    )


def label_cells(prep: Prepared, pairs: pl.LazyFrame, labels: Sequence[str]) -> pl.LazyFrame:
    """The cells of the ``(by, *labels, n)`` pairs frame of the count layer."""
    keys = [*prep.by, *labels]
    return numbered(pairs.select(*keys, N), keys, 0)


def score_cells(
    prep: Prepared, y: str, score: str, pos_label: Any, weight: str | None
) -> pl.LazyFrame:
    """The cells of the ``(by, score, positive)`` table (one per distinct score and class)."""
    long = binary_long(prep, y, score, pos_label, weight)
    keys = [*prep.by, S, POS]
    n = pl.len().cast(pl.Int64) if weight is None else pl.col(W).sum()
    return numbered(long.group_by(keys).agg(n.alias(N)), keys, SCORE_OFFSET)


# --- replicates -----------------------------------------------------------------------------


def replicate_counts(
    cells: pl.LazyFrame, reps: pl.LazyFrame, seed: int, keys: Sequence[str]
) -> pl.LazyFrame:
    """``(*keys, __clf_rep, __clf_n)``: each cell's draw in each replicate."""
    drawn = _draws.draw(cells.select(*keys, CELL, LAM), reps, seed)
    return drawn.select(*keys, pl.col(REP).cast(pl.Int64), pl.col(DRAW).alias(N))


def _replicates(start: int, stop: int) -> pl.LazyFrame:
    return pl.LazyFrame({REP: pl.Series(range(start, stop), dtype=pl.UInt64)})


def run(
    cells: pl.LazyFrame,
    n_boot: int,
    evaluate: Callable[[pl.LazyFrame, pl.LazyFrame], pl.LazyFrame],
    eager: bool,
) -> pl.LazyFrame:
    """``evaluate(cells, replicates)`` for every replicate, in batches of at most
    :data:`BUDGET` cells × replicates; lazy input stays lazy (the batches run when the
    result is collected, on the collected count table)."""

    def batches(table: pl.DataFrame) -> pl.DataFrame:
        _draws.check_means(table)
        per = max(1, BUDGET // max(1, table.height))
        lf = table.lazy()
        parts = [
            evaluate(lf, _replicates(start, min(start + per, n_boot))).collect()
            for start in range(0, n_boot, per)
        ]
        return pl.concat(parts, how="vertical")

    if eager:
        return batches(cells.collect()).lazy()
    schema = evaluate(cells.clear(), _replicates(0, 0)).collect_schema()
    return cells.map_batches(batches, schema=dict(schema), streamable=False)


def binary_replicates(
    reps: pl.LazyFrame, keys: list[str], y: str, yhat: str, names: list[str], opts: dict[str, Any]
) -> pl.LazyFrame:
    """Binary metrics of many groups at once: one group-by for tp, predicted, actual and
    total, then the registry's formulas (:mod:`clfeval._metrics`) as columns (a per-group
    aggregation over millions of replicate groups would cost seconds per metric)."""
    n = pl.col(N).cast(pl.Float64)
    pos = opts["pos_label"]
    is_pos, says = pl.col(y) == pos, pl.col(yhat) == pos
    counts = reps.group_by(keys).agg(
        pl.when(is_pos & says).then(n).otherwise(0.0).sum().alias("__clf_tp"),
        pl.when(says).then(n).otherwise(0.0).sum().alias("__clf_pred"),
        pl.when(is_pos).then(n).otherwise(0.0).sum().alias("__clf_sup"),
        n.sum().alias("__clf_tot"),
    )
    total = pl.col("__clf_tot")
    c = Counts(pl.col("__clf_tp"), pl.col("__clf_pred"), pl.col("__clf_sup"), total)
    values = binary_formulas(POLARS, c, opts["zero_division"], opts["beta"], names)
    exprs = [
        (pl.when(total > 0).then(v) if k == "accuracy" else v).alias(k) for k, v in values.items()
    ]
    return counts.select(*keys, *exprs)


def score_replicates(
    reps: pl.LazyFrame, by: list[str], names: list[str], max_fpr: float | None
) -> pl.LazyFrame:
    """``(*by, __clf_rep, *names)`` from replicated score cells (``__clf_s``, ``__clf_pos``,
    ``__clf_n``): per group and replicate, the counts at each distinct score, their running
    sums from the highest score down (tp, fp), then AUROC Σ (neg/N)·((tp + tp₀)/P)/2 (the
    trapezoids; tp₀ = tp − pos), average precision Σ (pos/P)·tp/(tp + fp), log loss and Brier
    as weighted means: column operations and sums, whatever the number of groups. SQL twin:
    ``clf_bootstrap_scores``."""
    keys = [*by, REP]
    n, s, is_pos = pl.col(N).cast(pl.Float64), pl.col(S), pl.col(POS)
    if max_fpr is not None and max_fpr < 1 and "auroc" in names:  # the partial area
        rows = reps.rename({N: W})
        table = counts_frame(rows, keys, True, "group", drop_zero=False, totals=False)
        stat = _score.auroc_stat(max_fpr)(pl.col("tp"), pl.col("fp")).alias("auroc")
        rest = [m for m in names if m != "auroc"]
        out = group_eval(table, keys, [stat])
        if rest:
            out = out.join(score_replicates(reps, by, rest, None), on=keys, nulls_equal=True)
        return out.select(*keys, *names)
    p_own = pl.when(is_pos).then(s.clip(EPS, 1 - EPS)).otherwise((1 - s).clip(EPS, 1 - EPS))
    gap = is_pos.cast(pl.Float64) - s
    per_score = reps.group_by([*keys, S]).agg(
        pl.when(is_pos).then(n).otherwise(0.0).sum().alias("__clf_p"),
        pl.when(is_pos).then(0.0).otherwise(n).sum().alias("__clf_q"),
        (n * -p_own.log()).sum().alias("__clf_ll"),
        (n * gap * gap).sum().alias("__clf_sq"),
    )
    per_score = per_score.sort([*keys, S], descending=[False] * len(keys) + [True])
    pos, neg = pl.col("__clf_p"), pl.col("__clf_q")
    tp, fp = pos.cum_sum().over(keys), neg.cum_sum().over(keys)
    per_score = per_score.with_columns(
        tp.alias("__clf_tp"),
        fp.alias("__clf_fp"),
        pos.sum().over(keys).alias("__clf_np"),
        neg.sum().over(keys).alias("__clf_nn"),
    )
    tp, fp, m, q = (pl.col(c) for c in ("__clf_tp", "__clf_fp", "__clf_np", "__clf_nn"))
    per_score = per_score.with_columns(
        ((neg / q) * ((tp + (tp - pos)) / m)).alias("__clf_auc"),
        pl.when(pos > 0).then((pos / m) * (tp / (tp + fp))).otherwise(0.0).alias("__clf_ap"),
    )
    sums = per_score.group_by(keys).agg(
        pl.col("__clf_auc", "__clf_ap", "__clf_ll", "__clf_sq").sum(),
        (pos + neg).sum().alias("__clf_w"),
        m.first(),
        q.first(),
    )
    w = pl.col("__clf_w")
    values = {
        "auroc": pl.when((m > 0) & (q > 0)).then(pl.col("__clf_auc") / 2.0),
        "average_precision": pl.when(m > 0).then(pl.col("__clf_ap").clip(lower_bound=0.0)),
        "log_loss": pl.when(w > 0).then(pl.col("__clf_ll") / w),
        "brier": pl.when(w > 0).then(pl.col("__clf_sq") / w),
    }
    return sums.select(*keys, *[values[k].alias(k) for k in names])


def intervals(
    reps: pl.LazyFrame, keys: list[str], names: Sequence[str], level: float
) -> pl.LazyFrame:
    """Per ``keys``: ``<metric>_lo``, ``<metric>_hi`` (percentile interval, nulls left
    out) and ``<metric>_n_undefined`` (the null replicates)."""
    a = (1.0 - level) / 2.0
    exprs = []
    for n in names:
        exprs += [
            pl.col(n).quantile(a, "linear").alias(f"{n}_lo"),
            pl.col(n).quantile(1.0 - a, "linear").alias(f"{n}_hi"),
            pl.col(n).null_count().cast(pl.Int64).alias(f"{n}_n_undefined"),
        ]
    return group_eval(reps, keys, exprs)


def report_intervals(
    table: pl.DataFrame,
    prep: Prepared,
    pairs: pl.LazyFrame,
    y: str,
    yhat: str,
    labels: Sequence[Any] | None,
    target_names: Sequence[str] | None,
    zero_division: float | None,
    level: float,
    n_boot: int,
    seed: int,
    report_table: Callable[..., pl.DataFrame],
) -> pl.DataFrame:
    """``table`` (:func:`clfeval.report`'s) with ``precision_lo``, ``precision_hi``... after
    each score: the report of every replicate of the pairs frame (``report_table``, the
    report's own builder), its percentiles per row."""

    cells = label_cells(prep, pairs, [y, yhat])
    keys = [*prep.by, y, yhat]
    per_rep = replace(prep, by=[*prep.by, REP])

    def reported(c: pl.LazyFrame, r: pl.LazyFrame) -> pl.LazyFrame:
        reps = replicate_counts(c, r, seed, keys)
        return report_table(reps, per_rep, y, yhat, labels, target_names, zero_division).lazy()

    reps = run(cells, n_boot, reported, True)
    names = ["precision", "recall", "f1"]
    ints = intervals(reps, [*prep.by, "label"], names, level).collect()
    out = table.join(
        ints, on=[*prep.by, "label"], how="left", nulls_equal=True, maintain_order="left"
    )
    scores = [c for n in names for c in (n, f"{n}_lo", f"{n}_hi")]
    return out.select(*prep.by, "label", *scores, "support")


def check(ci: Any, n_boot: Any, seed: Any, role: str = "ci") -> tuple[float | None, int, int]:
    """The bootstrap options, canonical: ``(level or None, n_boot, seed)``."""
    level = None if ci is None else _options.level(role, ci)
    return level, _options.n_boot(n_boot), _options.seed(seed)


# --- the ROC band -----------------------------------------------------------------------------

GRID = 51  # false positive rates 0, 0.02, ..., 1 at which the band is drawn
BINS = 200  # quantile bins of the scores the band's replicates are drawn from


def _tpr_at(reps: pl.LazyFrame, keys: list[str], grid: pl.LazyFrame) -> pl.LazyFrame:
    """``(*keys, fpr, tpr)``: each replicate's ROC curve (straight lines between the points
    of its distinct scores, ties joined as scikit-learn draws them) read at the grid."""
    n, is_pos = pl.col(N).cast(pl.Float64), pl.col(POS)
    per_score = reps.group_by([*keys, S]).agg(
        pl.when(is_pos).then(n).otherwise(0.0).sum().alias("__clf_p"),
        pl.when(is_pos).then(0.0).otherwise(n).sum().alias("__clf_q"),
    )
    per_score = per_score.sort([*keys, S], descending=[False] * len(keys) + [True])
    pos, neg = pl.col("__clf_p"), pl.col("__clf_q")
    points = per_score.select(
        *keys,
        (neg.cum_sum().over(keys) / neg.sum().over(keys)).alias("fpr"),
        (pos.cum_sum().over(keys) / pos.sum().over(keys)).alias("tpr"),
    )
    starts = (
        points.select(keys)
        .unique()
        .with_columns(pl.lit(0.0).alias("fpr"), pl.lit(0.0).alias("tpr"))
    )
    curve = pl.concat([starts, points]).filter(
        pl.col("fpr").is_finite() & pl.col("tpr").is_finite()
    )
    curve = curve.sort("fpr", "tpr")
    asked = curve.select(keys).unique().join(grid, how="cross").sort("__clf_x")
    below = asked.join_asof(
        curve, left_on="__clf_x", right_on="fpr", by=keys, strategy="backward",
        check_sortedness=False,
    )  # fmt: skip
    above = asked.join_asof(
        curve.rename({"fpr": "__clf_f1", "tpr": "__clf_t1"}),
        left_on="__clf_x",
        right_on="__clf_f1",
        by=keys,
        strategy="forward",
        allow_exact_matches=False,
        check_sortedness=False,
    )
    both = below.join(above, on=[*keys, "__clf_x"], nulls_equal=True)
    f0, t0, f1, t1, x = (pl.col(c) for c in ("fpr", "tpr", "__clf_f1", "__clf_t1", "__clf_x"))
    tpr = pl.when(f1.is_null()).then(t0).otherwise(t0 + (t1 - t0) * (x - f0) / (f1 - f0))
    return both.select(*keys, x.alias("fpr"), tpr.alias("tpr"))


def roc_band(
    prep: Prepared,
    y: str,
    score: str,
    pos_label: Any,
    weight: str | None,
    level: float,
    n_boot: int,
    seed: int,
) -> pl.DataFrame:
    """``(by..., fpr, tpr_lo, tpr_hi)``: the pointwise percentile band of the ROC curve, the
    TPR of every replicate read at :data:`GRID` false positive rates (vertical averaging);
    a replicate without positives or negatives is left out. The replicates are drawn from
    the scores grouped into :data:`BINS` quantile bins per group (the order kept, ties
    within a bin): chart resolution, at a cost that does not grow with distinct scores."""
    rank = pl.col(score).rank("min")
    size = pl.len()
    if prep.by:
        rank, size = rank.over(prep.by), size.over(prep.by)
    binned = (rank.cast(pl.Float64) * BINS / size.cast(pl.Float64)).floor()
    prep = replace(prep, frame=prep.frame.with_columns(binned.alias(score)))
    cells = score_cells(prep, y, score, pos_label, weight)
    keys = [*prep.by, S, POS]
    grid = pl.LazyFrame({"__clf_x": [i / (GRID - 1) for i in range(GRID)]})

    def read(c: pl.LazyFrame, r: pl.LazyFrame) -> pl.LazyFrame:
        reps = replicate_counts(c, r, seed, keys)
        return _tpr_at(reps, [*prep.by, REP], grid)

    reps = run(cells, n_boot, read, True)
    a = (1.0 - level) / 2.0
    out = reps.group_by([*prep.by, "fpr"]).agg(
        pl.col("tpr").quantile(a, "linear").alias("tpr_lo"),
        pl.col("tpr").quantile(1.0 - a, "linear").alias("tpr_hi"),
    )
    return out.sort([*prep.by, "fpr"], nulls_last=True).collect()
