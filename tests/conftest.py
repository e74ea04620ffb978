"""Shared fixtures: the Polars engines every frame-level test runs on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `from strategies import ...` in every mode

from strategies import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """``"eager"`` (DataFrame), ``"lazy"`` (LazyFrame, in-memory collect) or ``"streaming"``."""
    return request.param
