"""``Prepared``: a validated lazy frame and what a front door needs to finish the job (the
result of :func:`clfeval._validate.prepare`), and the frame type aliases."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal

import polars as pl

__all__ = ["KEYS", "ROWS_ELSEWHERE", "Frame", "Missing", "Prepared"]

Frame = pl.DataFrame | pl.LazyFrame
Missing = Literal["raise", "drop"]
KEYS = ("label", "actual", "predicted", "threshold", "bin", "strategy", "replicate")  # never nulled
_BAD = "__clf_bad"
# Set while a frame function runs on the reduced table of rows that live in another engine
# (a Spark DataFrame, :mod:`clfeval._spark_reduce`): the data checks of ``prepare`` and the
# whole-weight count are then run on those rows by that engine, with the same messages.
ROWS_ELSEWHERE: ContextVar[Any] = ContextVar("clfeval_rows_elsewhere", default=None)


@dataclass(frozen=True)
class Prepared:
    """A validated lazy frame and what the caller needs to finish the job."""

    frame: pl.LazyFrame
    by: list[str]
    eager: bool
    classes: list[Any] | None = None  # sorted present classes (eager input only)
    n_excluded: pl.DataFrame | None = None  # by columns + n_excluded, with a drop option
    roles: dict[str, str] = field(default_factory=dict)
    n_rows: int | None = None  # rows of the input (eager input only)
    bad: pl.Expr | None = None  # lazy input: a row that makes its group's numbers meaningless

    def finish(self, out: pl.LazyFrame) -> Frame:
        """Collect ``out`` when the input was eager; lazy in, lazy out.

        Lazy input follows the expression rule: the values of a group holding a negative,
        NaN or infinite weight, or a probability outside [0, 1], are null (key columns such
        as ``label`` or ``threshold`` stay).
        """
        if self.eager:
            return out.collect()
        if self.bad is None:
            return out
        flag = self.bad.any().alias(_BAD)
        flags = self.frame.group_by(self.by).agg(flag) if self.by else self.frame.select(flag)
        if self.by:
            out = out.join(flags, on=self.by, how="left", nulls_equal=True, maintain_order="left")
        else:
            out = out.join(flags, how="cross", maintain_order="left")
        values = [c for c in out.collect_schema() if c not in (*self.by, *KEYS, _BAD)]
        nulled = [pl.when(pl.col(_BAD)).then(None).otherwise(pl.col(c)).alias(c) for c in values]
        return out.with_columns(nulled).drop(_BAD)
