"""The matcher's plan (pure): pairing by rating, widening, one seat per person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.queue.conf import queue_settings
from games.queue.matching import Waiting, plan_matches

pytestmark = pytest.mark.django_db(databases=[])
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
HEADS = lambda: True  # noqa: E731  (team X takes seats 0+2)


def solo(uid: int, mu: float, waited: float = 0.0, clock: int = 30) -> Waiting:
    return Waiting(uid, mu, NOW - timedelta(seconds=waited), clock)


def test_four_close_players_make_one_table_strongest_with_weakest():
    plan = plan_matches([solo(1, 25), solo(2, 26), solo(3, 24.5), solo(4, 25.5)], NOW, HEADS)
    assert len(plan) == 1
    (m,) = plan
    # strongest (2) + weakest (3) at 0+2 against 4 + 1 at 1+3.
    assert m.positions == (2, 4, 3, 1) and m.turn_seconds == 30


def test_pairs_by_rating_out_of_eight():
    low = [solo(i, 10 + i * 0.1) for i in range(1, 5)]
    high = [solo(i, 40 + i * 0.1) for i in range(5, 9)]
    plan = plan_matches(low + high, NOW, HEADS)
    tables = sorted(sorted(m.positions) for m in plan)
    assert tables == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_too_far_apart_waits_then_the_range_widens():
    people = [solo(1, 20, 0), solo(2, 22, 0), solo(3, 24, 0), solo(4, 26, 0)]
    assert plan_matches(people, NOW) == [], "a spread of 6 mu is too wide at first"
    needed = (6 - queue_settings.BASE_RANGE) / queue_settings.WIDEN_PER_SECOND
    later = NOW + timedelta(seconds=needed + 1)
    assert len(plan_matches(people, later)) == 1


def test_everyone_must_accept_the_spread_not_only_the_longest_waiter():
    old = [solo(1, 20, 600), solo(2, 26, 600), solo(3, 23, 600)]
    assert plan_matches([*old, solo(4, 21, 0)], NOW) == [], "the newcomer's range is ±2"
    assert len(plan_matches([*old, solo(4, 21, 60)], NOW)) == 1


def test_nobody_is_used_twice_and_the_longest_waiter_goes_first():
    people = [solo(i, 25 + i * 0.01, waited=100 - i) for i in range(1, 8)]
    plan = plan_matches(people, NOW)
    assert len(plan) == 1
    seated = [u for m in plan for u in m.positions]
    assert len(seated) == len(set(seated)) == 4
    assert 1 in seated


def test_clocks_are_not_mixed():
    people = [solo(1, 25, clock=15), solo(2, 25), solo(3, 25), solo(4, 25)]
    assert plan_matches(people, NOW) == []
    people.append(solo(5, 25, clock=30))
    (m,) = plan_matches(people, NOW)
    assert 1 not in m.positions and m.turn_seconds == 30


def pair(a: int, b: int, mu_a: float, mu_b: float, waited: float = 0) -> list[Waiting]:
    at = NOW - timedelta(seconds=waited)
    return [Waiting(a, mu_a, at, 30, b), Waiting(b, mu_b, at, 30, a)]


def test_pair_against_pair_partners_sit_opposite():
    plan = plan_matches(pair(1, 2, 25, 27) + pair(3, 4, 26, 26), NOW, HEADS)
    (m,) = plan
    assert m.positions == (1, 3, 2, 4)
    assert {m.positions[0], m.positions[2]} in ({1, 2}, {3, 4})


def test_pairs_never_meet_solos_and_half_a_pair_is_not_matched():
    people = pair(1, 2, 25, 25) + [solo(3, 25), solo(4, 25)]
    assert plan_matches(people, NOW) == []
    lonely = [Waiting(1, 25, NOW, 30, 2)] + pair(3, 4, 25, 25)
    assert plan_matches(lonely, NOW) == []


def test_far_pairs_wait_for_the_range():
    people = pair(1, 2, 20, 20) + pair(3, 4, 30, 30)
    assert plan_matches(people, NOW) == []
    assert len(plan_matches(people, NOW + timedelta(seconds=200))) == 1
