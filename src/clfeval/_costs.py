"""Costs of a binary decision, as formulas over counts (the Polars twin of the SQL columns).

With a cost per false positive c_fp and per false negative c_fn, and optional benefits per
true positive b_tp and per true negative b_tn (all >= 0, in one unit), a decision rule
costs in total ``c_fp·fp + c_fn·fn − b_tp·tp − b_tn·tn``; the expected cost is that total
per row (per unit of weight): it compares groups of any size and is what a decision-maker
minimises. For calibrated probabilities the rule that minimises it flags a row when
p ≥ (c_fp + b_tn) / (c_fp + b_tn + c_fn + b_tp), which is cost_fp / (cost_fp + cost_fn)
without benefits.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clfeval._counts import divide

__all__ = ["EXPECTED", "TOTAL", "bayes_threshold", "cost_columns"]

EXPECTED, TOTAL = "expected_cost", "total_cost"
Costs = tuple[float, float, float, float]  # cost_fp, cost_fn, benefit_tp, benefit_tn


def cost_columns(c: Any, costs: Costs) -> list[pl.Expr]:
    """``expected_cost`` (per row) and ``total_cost`` from a :class:`Counts` ``c``."""
    c_fp, c_fn, b_tp, b_tn = costs
    total = c_fp * c.fp + c_fn * c.fn - b_tp * c.tp - b_tn * c.tn
    return [divide(total, c.total, None).alias(EXPECTED), total.cast(pl.Float64).alias(TOTAL)]


def bayes_threshold(
    costs: Costs, measured: pl.Expr | None = None, target: pl.Expr | None = None
) -> pl.Expr:
    """The cost-optimal threshold for calibrated probabilities, t = (c_fp + b_tn) /
    (c_fp + b_tn + c_fn + b_tp); null when every cost and benefit is 0.

    With a target prevalence π for probabilities calibrated at the measured π̂, the odds of t
    are multiplied by π̂(1 − π) / ((1 − π̂)π) (Bayes' rule on the prior odds)."""
    c_fp, c_fn, b_tp, b_tn = costs
    den = c_fp + b_tn + c_fn + b_tp
    t = pl.lit(None, pl.Float64) if den == 0 else pl.lit((c_fp + b_tn) / den)
    if measured is None or target is None:
        return t
    k = (measured * (1.0 - target)) / ((1.0 - measured) * target)
    return pl.when((measured > 0) & (measured < 1)).then(t * k / (t * k + (1.0 - t)))
