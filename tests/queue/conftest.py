"""Queue tests play fixed deals, like tests/games (tests/conftest.py ``deal_seeds``)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fixed_deals(deal_seeds):
    """Every test here plays the same deals on every run."""
    return deal_seeds
