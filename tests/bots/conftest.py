"""Bot tests compare decisions for equality, so the CPU-time safety cap must not fire.

The cap (search.py) only guards live play; on a loaded CI machine it can cut a search
short and make two identical calls disagree. Tests of the cap build their own config.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

import games.bots as bots

NO_CAP_SECONDS = 600.0


@pytest.fixture(autouse=True)
def deterministic_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(bots, "CLUB", replace(bots.CLUB, time_cap=NO_CAP_SECONDS))
    monkeypatch.setattr(bots, "STRONG", replace(bots.STRONG, time_cap=NO_CAP_SECONDS))
    yield
