"""Fixtures for the model tests; the helpers behind them are in model_fixtures.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from model_fixtures import make_colour_model


@pytest.fixture
def colour_card(tmp_path: Path) -> Path:
    return make_colour_model(tmp_path)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
