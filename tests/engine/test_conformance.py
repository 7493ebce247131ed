"""Every conformance scenario, through the protocol as a real subprocess (and,
for coverage, through the in-process request handler).

The scenarios are shared with the other implementations (``../shared`` beside the
checkout, or ``KOZEL_SHARED_DIR``). Outside CI a checkout without them skips these
tests; under CI (``CI`` set and not false) a missing file fails the run, so a broken
checkout can never pass by skipping.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.engine.protocol import Session
from tests.ci import running_in_ci

from .conformance import REPO_ROOT, ProtocolProcess, load_scenarios, run_scenario, scenarios_path

SCENARIOS = load_scenarios()
MISSING = f"conformance scenarios not found at {scenarios_path()}"
CASES = [pytest.param(s, id=s["id"]) for s in SCENARIOS] or [
    pytest.param(None, id="no-scenario-file")]


def present(scenario: dict[str, Any] | None) -> dict[str, Any]:
    """The scenario, or a failure under CI / a skip elsewhere when the file is missing."""
    if scenario is None:
        if running_in_ci():
            pytest.fail(f"{MISSING}; CI must run the shared conformance scenarios")
        pytest.skip(MISSING)
    return scenario


@pytest.fixture(scope="module")
def protocol() -> Iterator[ProtocolProcess]:
    proc = ProtocolProcess()
    yield proc
    assert proc.close() == 0


@pytest.mark.parametrize("scenario", CASES)
def test_scenario_subprocess(protocol: ProtocolProcess, scenario: dict[str, Any] | None) -> None:
    run_scenario(protocol, present(scenario))


@pytest.mark.parametrize("scenario", CASES)
def test_scenario_in_process(scenario: dict[str, Any] | None) -> None:
    session = Session()
    run_scenario(session.handle, present(scenario))


def test_all_scenarios_are_known_types() -> None:
    present(SCENARIOS[0] if SCENARIOS else None)
    assert {s["type"] for s in SCENARIOS} <= {"play", "card_order", "beat_set", "scoring", "series"}


@pytest.mark.parametrize("ci, code, outcome", [("true", 1, "failed"), ("", 0, "skipped")])
def test_missing_scenarios_fail_under_ci_and_skip_outside(tmp_path: Path, ci: str, code: int,
                                                          outcome: str) -> None:
    env = {**os.environ, "KOZEL_SHARED_DIR": str(tmp_path), "CI": ci}
    # The engine needs no Django: without pytest-django the child starts in seconds.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:django",
         "-q", "-rfs",
         f"{Path(__file__).relative_to(REPO_ROOT)}", "-k", "not missing_scenarios"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == code, run.stdout + run.stderr
    assert f"3 {outcome}" in run.stdout and str(tmp_path) in run.stdout, run.stdout
