"""Poisson draws for the bootstrap, identical in Polars and in DuckDB.

A replicate of a count-table cell is one Poisson draw (the Poisson bootstrap: each row gets a
Poisson(1) weight, and n of them add up to a Poisson(n)). Draws are *counter-based*: draw
number ``replicate`` of cell ``cell`` is a pure function of ``(seed, cell, replicate)``, so
every draw of every cell is computed at once, in any order, in any engine, and the same seed
gives the same draws in Polars and in SQL (``_clf_uniform``, ``_clf_poisson_cdf``,
``_clf_poisson_cf`` in ``sql/70_uncertainty.sql``):

1. the uniform: SplitMix64 (Steele, Lea & Flood 2014) at position ``cell · 2¹⁷ + replicate +
   1`` of the stream seeded with ``mix64(seed)``, its top 52 bits as ``(k + ½) / 2⁵²``, which
   lies strictly inside (0, 1); integer arithmetic modulo 2⁶⁴, exact in both engines;
2. the count, for a cell of mean λ: below λ = 100 (:data:`SMALL`), the exact inverse of the
   Poisson CDF, by a lookup of u in F(0), F(1), … (built once per distinct λ by the
   recurrence p(k) = p(k − 1) · (λ / k), summed left to right); from λ = 100 on, the
   Cornish–Fisher expansion of the Poisson quantile to order 1/λ with its continuity
   correction, rounded: k = ⌈x − ½⌉ with x = λ + √λ·z + (z² − 1)/6 − (z³ + 2z)/(72√λ)
   + (3z⁴ + 7z² − 16)/(810λ), z = Φ⁻¹(u). Its draws differ from exact Poisson draws with
   probability below 1.5e-5 at λ = 100, 5e-7 at λ = 1,000 and 2e-8 above 10,000 (measured
   against the exact CDF), far below any bootstrap's Monte Carlo error.

Only the C library's ``exp``, ``log`` and ``sqrt`` (through Polars) and IEEE arithmetic are
used, so both engines compute the same doubles; a draw could differ only if u fell within a
rounding error of a CDF step.
"""

from __future__ import annotations

import polars as pl

from clfeval._normal import ndtri_columns
from clfeval.exceptions import InputError

__all__ = ["MAX_BOOT", "MAX_MEAN", "SMALL", "check_means", "draw", "mix64", "uniform_columns"]

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
REP_BITS = 17  # replicates per cell: n_boot <= MAX_BOOT < 2**17
MAX_BOOT = 100_000
MAX_SEED = 2**63 - 1  # a BIGINT in SQL
SMALL = 100.0
MAX_MEAN = 2.0**53  # doubles hold every whole number up to here: the largest cell drawn
TOO_HEAVY = (
    "a cell of the count table weighs more than 2^53 (its summed weights): the bootstrap "
    "draws whole Poisson counts, exact in a double only up to 2^53"
)
CELL, REP, LAM, DRAW = "__clf_cell", "__clf_rep", "__clf_lam", "__clf_draw"
_U64 = pl.UInt64


def mix64(x: int) -> int:
    """SplitMix64's output function on a 64-bit integer."""
    x &= MASK
    x = ((x ^ (x >> 30)) * M1) & MASK
    x = ((x ^ (x >> 27)) * M2) & MASK
    return x ^ (x >> 31)


def _mix_stage(lf: pl.LazyFrame, col: str, shift: int, mult: int | None) -> pl.LazyFrame:
    z = pl.col(col)
    mixed = z ^ (z // (1 << shift))
    if mult is not None:
        mixed = mixed * pl.lit(mult, _U64)  # UInt64 products wrap modulo 2**64
    return lf.with_columns(mixed.alias(col))


def uniform_columns(lf: pl.LazyFrame, seed: int, out: str = "__clf_u") -> pl.LazyFrame:
    """``lf`` (with UInt64 ``__clf_cell`` and ``__clf_rep``) plus ``out``: the uniform of
    each (cell, replicate) in (0, 1). SQL twin: ``_clf_uniform(seed, cell, replicate)``."""
    key = pl.col(CELL).cast(_U64) * pl.lit(1 << REP_BITS, _U64) + pl.col(REP).cast(_U64)
    state = pl.lit(mix64(seed), _U64) + (key + pl.lit(1, _U64)) * pl.lit(GAMMA, _U64)
    lf = lf.with_columns(state.alias("__clf_h"))
    lf = _mix_stage(lf, "__clf_h", 30, M1)
    lf = _mix_stage(lf, "__clf_h", 27, M2)
    lf = _mix_stage(lf, "__clf_h", 31, None)
    top = (pl.col("__clf_h") // (1 << 12)).cast(pl.Float64)
    return lf.with_columns(((top + 0.5) * 2.0**-52).alias(out)).drop("__clf_h")


def cdf_table(lams: pl.LazyFrame) -> pl.LazyFrame:
    """``(__clf_lam, __clf_k, __clf_f)``: F(k) = P(Poisson(λ) <= k) for each distinct λ in
    (0, SMALL), k = 0 … ⌊λ + 10√λ⌋ + 10 (the mass beyond is below 1e-17); of equal F (a
    tail whose steps vanish in rounding), the largest k. SQL twin: ``_clf_poisson_cdf``."""
    lam = pl.col(LAM)
    last = (lam + 10.0 * lam.sqrt()).floor().cast(pl.Int64) + 10
    steps = (
        lams.select(LAM)
        .filter((lam > 0) & (lam < SMALL))
        .unique()
        .with_columns(pl.int_ranges(0, last + 1).alias("__clf_k"))
        .explode("__clf_k")
    )
    k = pl.col("__clf_k")
    ratio = pl.when(k == 0).then((-lam).exp()).otherwise(lam / k.cast(pl.Float64))
    return (
        steps.with_columns(ratio.cum_prod().over(LAM).alias("__clf_p"))
        .with_columns(pl.col("__clf_p").cum_sum().over(LAM).alias("__clf_f"))
        .group_by(LAM, "__clf_f")
        .agg(k.max())
    )


def poisson_columns(lf: pl.LazyFrame) -> pl.LazyFrame:
    """``lf`` (``__clf_u`` in (0, 1), ``__clf_lam`` >= 0) with ``__clf_draw``: the Poisson
    quantile of u (Int64), exact below :data:`SMALL`, Cornish–Fisher from there on. Rows may
    come back in another order. SQL twin: the ``x`` step of ``_clf_boot_draws``."""
    columns = [*lf.collect_schema().names(), DRAW]
    lam = pl.col(LAM)
    small = lf.filter((lam > 0) & (lam < SMALL)).sort("__clf_u")
    table = cdf_table(lf).sort("__clf_f", "__clf_k")
    small = small.join_asof(
        table,
        left_on="__clf_u",
        right_on="__clf_f",
        by=LAM,
        strategy="backward",
        allow_exact_matches=False,
        check_sortedness=False,
    ).with_columns((pl.col("__clf_k") + 1).fill_null(0).alias(DRAW))
    large = ndtri_columns(lf.filter(lam >= SMALL), "__clf_u", "__clf_z")
    z, s = pl.col("__clf_z"), lam.sqrt()
    x = (
        lam
        + s * z
        + (z * z - 1.0) / 6.0
        - (z * z * z + 2.0 * z) / (72.0 * s)
        + (3.0 * (z * z * z * z) + 7.0 * (z * z) - 16.0) / (810.0 * lam)
    )
    large = large.with_columns((x - 0.5).ceil().clip(lower_bound=0.0).cast(pl.Int64).alias(DRAW))
    zero = lf.filter(~(lam > 0)).with_columns(pl.lit(0, pl.Int64).alias(DRAW))
    return pl.concat([part.select(columns) for part in (small, large, zero)], how="vertical")


def check_means(cells: pl.DataFrame) -> None:
    """Raise when a cell's mean is above :data:`MAX_MEAN` (2⁵³): its draws, whole counts,
    are not exact in a double above it (SQL twin: ``_clf_poisson_cf``)."""
    top = cells.get_column(LAM).max()
    if top is not None and top > MAX_MEAN:  # type: ignore[operator]
        raise InputError(
            TOO_HEAVY, role="weight", rule="bootstrap_weight", hint="rescale the weights"
        )


def draw(cells: pl.LazyFrame, reps: pl.LazyFrame, seed: int) -> pl.LazyFrame:
    """Every cell of ``cells`` (``__clf_cell`` UInt64, ``__clf_lam`` Float64, any other
    columns) crossed with ``reps`` (one column ``__clf_rep``), with ``__clf_draw``, the
    cell's Poisson count in that replicate (Int64)."""
    lf = uniform_columns(cells.join(reps, how="cross"), seed)
    return poisson_columns(lf).drop("__clf_u")
