"""Every conformance scenario, through the protocol as a real subprocess (and,
for coverage, through the in-process request handler)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.engine.protocol import Session

from .conformance import ProtocolProcess, load_scenarios, run_scenario, scenarios_path

SCENARIOS = load_scenarios()
pytestmark = pytest.mark.skipif(
    not SCENARIOS, reason=f"conformance scenarios not found at {scenarios_path()}"
)
IDS = [s["id"] for s in SCENARIOS] or ["none"]


@pytest.fixture(scope="module")
def protocol() -> Iterator[ProtocolProcess]:
    proc = ProtocolProcess()
    yield proc
    assert proc.close() == 0


@pytest.mark.parametrize("scenario", SCENARIOS or [None], ids=IDS)
def test_scenario_subprocess(protocol: ProtocolProcess, scenario: dict[str, Any]) -> None:
    run_scenario(protocol, scenario)


@pytest.mark.parametrize("scenario", SCENARIOS or [None], ids=IDS)
def test_scenario_in_process(scenario: dict[str, Any]) -> None:
    session = Session()
    run_scenario(session.handle, scenario)


def test_all_scenarios_are_known_types() -> None:
    assert {s["type"] for s in SCENARIOS} <= {"play", "card_order", "beat_set", "scoring", "series"}
