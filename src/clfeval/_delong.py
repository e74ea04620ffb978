"""DeLong's interval for AUROC and his paired test of two AUROCs on the same rows.

DeLong, DeLong & Clarke-Pearson (1988), computed as Sun & Xu (2014) do, from ranks in
O(n log n): each positive's placement V₁₀ is the share of negatives scored below it (ties
count half), each negative's V₀₁ the share of positives scored above it (ties half). Then
AUROC = mean V₁₀ = mean V₀₁, and

    Var(AUROC) = S₁₀ / m + S₀₁ / n,  S₁₀ = Σ (V₁₀ − A)² / (m − 1),  S₀₁ = Σ (V₀₁ − A)² / (n − 1)

for m positives and n negatives; for two scores on the same rows the covariances of the
placements give Var(A_b − A_a). A placement is a mid-rank difference (rank among all rows
minus rank among the own class), computed here from the cumulative class totals at each
distinct score, so ties are exact. Intervals are Wald intervals A ± z·se with
z = Φ⁻¹((1 + level)/2) (:mod:`clfeval._normal`), clipped to [0, 1] (AUROC) or [−1, 1] (a
difference); the test is z = (A_b − A_a) / se, two-sided.

Weights are frequency weights: a row of weight k counts as k rows, exactly DeLong on the
repeated rows, so they must be whole numbers (an eager frame with another weight raises; a
LazyFrame group gets nulls). Survey or importance weights have no DeLong variance: use the
bootstrap (``clfeval.metrics(..., ci=)``), whose draws follow any non-negative weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from clfeval import _curves, _options
from clfeval._curves import NN, NP, POS, S, W, binary_long, counts_frame, over
from clfeval._frames import frame_input
from clfeval._metric_table import group_eval
from clfeval._normal import ndtri, p_value
from clfeval._prepared import ROWS_ELSEWHERE
from clfeval._validate import Frame, Prepared, prepare
from clfeval.exceptions import InputError

__all__ = ["auroc_ci", "compare_auroc"]

CI_COLUMNS = ("auroc", "auroc_lo", "auroc_hi", "se")
COMPARE_COLUMNS = (
    "model_a", "model_b", "auroc_a", "auroc_b", "diff", "diff_lo", "diff_hi", "se", "z",
    "p_value",
)  # fmt: skip
FRACTION = "__clf_frac"  # a group holds a weight that is not a whole number


def check_whole_weights(prep: Prepared, weight: str | None, method: str) -> None:
    """Frequency weights only (eager input): raise when a weight is not a whole number."""
    if weight is None or not prep.eager:
        return
    elsewhere = ROWS_ELSEWHERE.get()
    if elsewhere is not None:  # the rows are in another engine, reduced to summed weights
        n_bad = elsewhere.fractional(weight)
    else:
        w = pl.col(weight).cast(pl.Float64)
        n_bad = prep.frame.select((w != w.round()).sum()).collect().item()
    if n_bad:
        raise InputError(
            f"column {weight!r} (weight) has {n_bad} non-integral value(s); {method} counts "
            "rows, so weights must be whole numbers (frequency weights)",
            column=weight,
            role="weight",
            rule="frequency_weight",
            hint="round them to repetitions, or use the bootstrap intervals (ci=), whose "
            "draws follow any non-negative weights",
        )


def _fractional(weight: str | None) -> list[pl.Expr]:
    if weight is None:
        return []
    w = pl.col(weight).cast(pl.Float64)
    return [(w != w.round()).any().alias(FRACTION)]


def _null_fractional(out: pl.LazyFrame, frac: pl.LazyFrame | None, by: list[str]) -> pl.LazyFrame:
    """Lazy input with non-integral weights: the group's numbers are null."""
    if frac is None:
        return out
    if by:
        out = out.join(frac, on=by, how="left", nulls_equal=True, maintain_order="left")
    else:
        out = out.join(frac, how="cross", maintain_order="left")
    values = [
        c for c in out.collect_schema().names() if c not in (*by, FRACTION, "model_a", "model_b")
    ]
    return out.with_columns(
        pl.when(pl.col(FRACTION)).then(None).otherwise(pl.col(c)).alias(c) for c in values
    ).drop(FRACTION)


def _z(level: float) -> float:
    return ndtri(0.5 + level / 2.0)


@frame_input("auroc_ci")
def auroc_ci(
    data: Frame,
    y: str,
    score: str,
    *,
    level: float = 0.95,
    pos_label: Any = 1,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Frame:
    """AUROC with DeLong's interval: ``auroc, auroc_lo, auroc_hi, se`` per group.

    se² = S₁₀/m + S₀₁/n from the placements of the m positives and n negatives (ties count
    half); the interval is auroc ± Φ⁻¹((1 + level)/2)·se, clipped to [0, 1]. auroc is null
    with one class, se and the interval also with fewer than two rows of a class. Weights
    are frequency weights (whole numbers).

    See Also
    --------
    clf_auroc_ci : the SQL twin.
    clfeval.compare_auroc : DeLong's paired test of two scores.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]})
    >>> auroc_ci(df, "y", "s").select(pl.col("auroc", "se").round(4)).row(0)
    (0.8889, 0.1571)
    """
    level = _options.level("level", level)
    _options.column_name("score", score)
    prep = prepare(
        data, y=y, score=score, weight=weight, by=by, missing=missing, nonfinite=nonfinite,
        classes=False, pos_label=pos_label, pos_in_y=True, outputs=CI_COLUMNS,
    )  # fmt: skip
    check_whole_weights(prep, weight, "DeLong's variance")
    by_cols = prep.by
    long = binary_long(prep, y, score, pos_label, weight)
    plan = _curves.PLAN if _curves.PLAN != "auto" else _curves.choose_plan(prep, long)
    table = counts_frame(long, by_cols, weight is not None, plan, drop_zero=False)
    tp, fp = pl.col("tp").cast(pl.Float64), pl.col("fp").cast(pl.Float64)
    tp0 = over(tp.shift(1).fill_null(0.0), by_cols)
    fp0 = over(fp.shift(1).fill_null(0.0), by_cols)
    m, n = pl.col(NP).cast(pl.Float64), pl.col(NN).cast(pl.Float64)
    pos, neg = tp - tp0, fp - fp0
    table = table.with_columns(
        pos.alias("__clf_p"),
        neg.alias("__clf_n"),
        ((n - fp + 0.5 * neg) / n).alias("__clf_v10"),  # negatives below, ties half
        ((tp0 + 0.5 * pos) / m).alias("__clf_v01"),  # positives above, ties half
    )
    p, q, v10, v01 = (pl.col(c) for c in ("__clf_p", "__clf_n", "__clf_v10", "__clf_v01"))
    mm, nn = m.first(), n.first()
    auc = (p * v10).sum() / mm
    s10 = (p * (v10 - auc) ** 2).sum() / (mm - 1.0)
    s01 = (q * (v01 - auc) ** 2).sum() / (nn - 1.0)
    se = (s10 / mm + s01 / nn).sqrt()
    defined = (mm > 0) & (nn > 0)
    spread = (mm > 1) & (nn > 1)
    z = _z(level)
    stats = [
        pl.when(defined).then(auc).alias("auroc"),
        pl.when(spread).then((auc - z * se).clip(0.0, 1.0)).alias("auroc_lo"),
        pl.when(spread).then((auc + z * se).clip(0.0, 1.0)).alias("auroc_hi"),
        pl.when(spread).then(se).alias("se"),
    ]
    out = group_eval(table, by_cols, stats)
    if by_cols:
        groups = prep.frame.select(by_cols).unique()  # groups whose rows all weigh 0 stay
        out = groups.join(out, on=by_cols, how="left", nulls_equal=True)
        out = out.sort(by_cols, nulls_last=True)
    if weight is not None and not prep.eager:
        out = _null_fractional(out, group_eval(prep.frame, by_cols, _fractional(weight)), by_cols)
    return prep.finish(out.select(*by_cols, *CI_COLUMNS))


def _placements(rows: pl.LazyFrame, by: list[str], score: str, out: str) -> pl.LazyFrame:
    """``rows`` (``__clf_pos``, ``__clf_w``) with ``out``: each row's placement for ``score``
    (a positive: the negatives' weight below it plus half its ties, over all negatives; a
    negative: the positives' weight above it plus half its ties, over all positives), in the
    score's order. One sort: running sums, and the sums before and through each run of tied
    scores filled across the run."""
    pos, w = pl.col(POS), pl.col(W)
    pw = pl.when(pos).then(w).otherwise(0.0)
    nw = pl.when(pos).then(0.0).otherwise(w)
    s = pl.col(score)
    keys = [pl.col(c) for c in by]
    new_run = s != s.shift(1)
    end_run = s != s.shift(-1)
    for k in keys:
        new_run, end_run = (
            new_run | (k.ne_missing(k.shift(1))),
            end_run | (k.ne_missing(k.shift(-1))),
        )
    new_run, end_run = new_run.fill_null(True), end_run.fill_null(True)
    rows = rows.sort([*by, score], nulls_last=True).with_columns(
        over(pw.cum_sum(), by).alias("__clf_cp"),
        over(nw.cum_sum(), by).alias("__clf_cn"),
        over(pw.sum(), by).alias("__clf_m"),
        over(nw.sum(), by).alias("__clf_n"),
    )
    cp, cn = pl.col("__clf_cp"), pl.col("__clf_cn")
    rows = rows.with_columns(
        pl.when(new_run).then(cp - pw).forward_fill().alias("__clf_p0"),  # before the run
        pl.when(new_run).then(cn - nw).forward_fill().alias("__clf_n0"),
        pl.when(end_run).then(cp).backward_fill().alias("__clf_p1"),  # through the run
        pl.when(end_run).then(cn).backward_fill().alias("__clf_n1"),
    )
    p0, n0, p1, n1 = (pl.col(c) for c in ("__clf_p0", "__clf_n0", "__clf_p1", "__clf_n1"))
    m, n = pl.col("__clf_m"), pl.col("__clf_n")
    value = pl.when(pos).then((n0 + 0.5 * (n1 - n0)) / n).otherwise((m - p1 + 0.5 * (p1 - p0)) / m)
    working = [
        "__clf_cp",
        "__clf_cn",
        "__clf_m",
        "__clf_n",
        "__clf_p0",
        "__clf_n0",
        "__clf_p1",
        "__clf_n1",
    ]
    return rows.with_columns(value.alias(out)).drop(working)


def _paired(rows: pl.LazyFrame, by: list[str], a: str, b: str, level: float) -> pl.LazyFrame:
    """DeLong's paired test of placements ``a`` and ``b`` per group, in stages (the class
    totals and mean placements first, then the sums of squared deviations)."""
    pos, w = pl.col(POS), pl.col(W)
    va, vb = pl.col(a), pl.col(b)
    staged = rows.select(
        *by,
        pl.when(pos).then(w).otherwise(0.0).alias("__clf_pw"),
        pl.when(pos).then(0.0).otherwise(w).alias("__clf_nw"),
        va.alias("__clf_va"),
        vb.alias("__clf_vb"),
    )
    pw, nw, va, vb = (pl.col(c) for c in ("__clf_pw", "__clf_nw", "__clf_va", "__clf_vb"))
    staged = staged.with_columns(
        over(pw.sum(), by).alias("__clf_m"),
        over(nw.sum(), by).alias("__clf_n"),
        over((pw * va).sum(), by).alias("__clf_sa"),
        over((pw * vb).sum(), by).alias("__clf_sb"),
        over((nw * va).sum(), by).alias("__clf_ta"),
        over((nw * vb).sum(), by).alias("__clf_tb"),
    )
    m, n = pl.col("__clf_m"), pl.col("__clf_n")
    auc_a, auc_b = pl.col("__clf_sa") / m, pl.col("__clf_sb") / m
    # over the negatives the placements average to the same areas
    na, nb = pl.col("__clf_ta") / n, pl.col("__clf_tb") / n
    d10 = (va - auc_a) - (vb - auc_b)  # V10_a − V10_b, centred: Var(diff) = S_aa + S_bb − 2 S_ab
    d01 = (va - na) - (vb - nb)
    sums = group_eval(
        staged.with_columns(
            (pw * d10 * d10).alias("__clf_q10"), (nw * d01 * d01).alias("__clf_q01")
        ),
        by,
        [
            m.first(),
            n.first(),
            auc_a.first().alias("__clf_a"),
            auc_b.first().alias("__clf_b"),
            pl.col("__clf_q10").sum(),
            pl.col("__clf_q01").sum(),
        ],
    )
    m, n, auc_a, auc_b = (pl.col(c) for c in ("__clf_m", "__clf_n", "__clf_a", "__clf_b"))
    var = pl.col("__clf_q10") / (m - 1.0) / m + pl.col("__clf_q01") / (n - 1.0) / n
    se = var.clip(lower_bound=0.0).sqrt()
    diff = auc_b - auc_a
    defined = (m > 0) & (n > 0)
    spread = (m > 1) & (n > 1)
    zq = _z(level)
    z = pl.when(spread & (se > 0)).then(diff / se)
    return sums.select(
        *by,
        pl.when(defined).then(auc_a).alias("auroc_a"),
        pl.when(defined).then(auc_b).alias("auroc_b"),
        pl.when(defined).then(diff).alias("diff"),
        pl.when(spread).then((diff - zq * se).clip(-1.0, 1.0)).alias("diff_lo"),
        pl.when(spread).then((diff + zq * se).clip(-1.0, 1.0)).alias("diff_hi"),
        pl.when(spread).then(se).alias("se"),
        z.alias("z"),
        p_value(z).alias("p_value"),
    )


@frame_input("compare_auroc")
def compare_auroc(
    data: Frame,
    y: str,
    score: Sequence[str],
    *,
    level: float = 0.95,
    pos_label: Any = 1,
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    missing: Literal["raise", "drop"] = "raise",
    nonfinite: Literal["raise", "drop"] = "raise",
) -> Frame:
    """DeLong's paired test of two AUROCs on the same rows: ``model_a, model_b, auroc_a,
    auroc_b, diff, diff_lo, diff_hi, se, z, p_value``, diff = auroc_b − auroc_a.

    Each score after the first is compared with the first (``model_a``), one row per group
    and pair. se² = Var(V_b − V_a)/m + Var(V'_b − V'_a)/n over the placements of the m
    positives and n negatives (the covariances of DeLong et al. 1988); z = diff / se and the
    p-value is two-sided. z and p_value are null when se is 0 (the same ranking twice);
    every value is null with one class. Weights are frequency weights (whole numbers).

    See Also
    --------
    clf_compare_auroc : the SQL twin.
    clfeval.auroc_ci : DeLong's interval of one AUROC.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7],
    ...                    "b": [0.2, 0.1, 0.6, 0.9, 0.3, 0.8]})
    >>> compare_auroc(df, "y", ["a", "b"]).select(pl.col("diff", "p_value").round(4)).row(0)
    (0.1111, 0.4795)
    """
    level = _options.level("level", level)
    names = _options.compared("score", score, y)
    prep = prepare(
        data, y=y, score=names[0], more_scores=names[1:], weight=weight, by=by,
        missing=missing, nonfinite=nonfinite, classes=False, pos_label=pos_label,
        pos_in_y=True, outputs=COMPARE_COLUMNS,
    )  # fmt: skip
    check_whole_weights(prep, weight, "DeLong's variance")
    by_cols = prep.by
    w = pl.lit(1.0) if weight is None else pl.col(weight).cast(pl.Float64)
    rows = prep.frame.select(
        *by_cols,
        (pl.col(y) == pos_label).alias(POS),
        w.alias(W),
        *[pl.col(c).cast(pl.Float64).alias(f"{S}{i}") for i, c in enumerate(names)],
    )
    for i in range(len(names)):
        rows = _placements(rows, by_cols, f"{S}{i}", f"__clf_v{i}")
    parts = []
    for i, name in enumerate(names[1:], start=1):
        part = _paired(rows, by_cols, "__clf_v0", f"__clf_v{i}", level)
        parts.append(
            part.with_columns(pl.lit(names[0]).alias("model_a"), pl.lit(name).alias("model_b"))
        )
    out = pl.concat(parts, how="vertical")
    if by_cols:
        out = out.sort(by_cols, nulls_last=True, maintain_order=True)
    if weight is not None and not prep.eager:
        out = _null_fractional(out, group_eval(prep.frame, by_cols, _fractional(weight)), by_cols)
    return prep.finish(out.select(*by_cols, *COMPARE_COLUMNS))
