"""Any input frame -> a Polars frame: the one place that decides what data can be.

Polars DataFrames and LazyFrames pass through. Anything that speaks the Arrow PyCapsule stream
interface (``__arrow_c_stream__``: a PyArrow Table or RecordBatchReader, a pandas DataFrame
(pandas >= 2.2), a DuckDB relation, Arrow-backed frames of other libraries) is read into a
Polars DataFrame through that interface, with no copy where Arrow allows. Anything else is an
:class:`InputError` naming the argument.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from clfeval.exceptions import InputError

Frame = pl.DataFrame | pl.LazyFrame


def as_polars(data: Any, role: str = "data") -> Frame:
    """``data`` as a Polars DataFrame or LazyFrame (see the module docstring)."""
    if isinstance(data, pl.DataFrame | pl.LazyFrame):
        return data
    if hasattr(data, "__arrow_c_stream__") and not isinstance(data, type):
        try:
            return pl.DataFrame(data)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as err:  # a stream Polars cannot hold (a panic is a BaseException)
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise InputError(
                f"{role} could not be read through the Arrow stream interface: {first}",
                role=role,
                rule="data_type",
                hint="cast the columns clfeval reads to numbers, strings or booleans first",
            ) from err
    raise InputError(
        f"{role} must be a data frame, got {type(data).__name__}",
        role=role,
        rule="data_type",
        hint="pass a Polars DataFrame or LazyFrame, or anything with the Arrow stream "
        "interface (a PyArrow table, a pandas DataFrame, a DuckDB relation)",
    )
