"""The load harness's latency targets (tests/load/measure.py): p99 <= 50 ms
and <= 3 x the echo floor's p99, judged for `play` and for the live tables beside the
fuzzer against the floor measured during the attack alone (tests/load/fuzz.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from tests.load.clients import FloorRoom
from tests.load.fuzz import _during_the_attack
from tests.load.measure import latency_targets, ratio_to_floor


def test_the_ratio_is_the_moves_p99_over_the_floors_and_none_without_samples():
    assert ratio_to_floor({"p99": 30.0}, {"p99": 12.0}) == 2.5
    assert ratio_to_floor({"p99": 30.0}, {"n": 0}) is None
    assert ratio_to_floor({"n": 0}, {"p99": 12.0}) is None


def test_each_target_is_met_only_within_its_limit_and_a_missing_figure_misses():
    assert latency_targets(50.0, 3.0) == {"p99_le_50ms": True, "p99_le_3x_floor": True}
    assert latency_targets(50.01, 3.01) == {"p99_le_50ms": False, "p99_le_3x_floor": False}
    assert latency_targets(None, None) == {"p99_le_50ms": False, "p99_le_3x_floor": False}


def room(samples: list[tuple[float, float]]) -> FloorRoom:
    floor = FloorRoom("r0", [1], 0, 0.5, asyncio.Event())
    floor.samples = samples
    return floor


def test_the_attacks_floor_counts_only_the_samples_sent_while_it_ran():
    quiet_and_slow = [(5.0, 0.500)] * 10  # before the attack: 500 ms each
    during = [(20.0 + i, 0.010) for i in range(100)]  # 10 ms each
    run = SimpleNamespace(floors=[room(quiet_and_slow + during), room([(200.0, 0.9)])])
    out = _during_the_attack(run, {"p99": 35.0}, began=20.0, ended=150.0)
    assert out["floor_during_fuzz_ms"]["n"] == 100 and out["floor_during_fuzz_ms"]["p99"] == 10.0
    assert out["ratio_during_fuzz_p99_to_floor"] == 3.5
    assert out["targets_during_fuzz"] == {"p99_le_50ms": True, "p99_le_3x_floor": False}


def test_no_floor_during_the_attack_gives_no_ratio_and_no_verdict():
    run = SimpleNamespace(floors=[room([(5.0, 0.010)])])
    out = _during_the_attack(run, {"p99": 35.0}, began=20.0, ended=150.0)
    assert out == {"floor_during_fuzz_ms": {"n": 0}}
