"""Blocks in both matchers (pure plans): two people of whom one blocked the
other never sit at one table; when that is the only way to fill it, they wait, or a
casual player who allows bots gets them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.queue.matching import Waiting, plan_casual, plan_matches

pytestmark = pytest.mark.django_db(databases=[])
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
HEADS = lambda: True  # noqa: E731


def apart(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def solo(uid: int, mu: float = 25.0, waited: float = 0.0, clock: int | None = 30,
         *, bots: bool = False, partner: int | None = None) -> Waiting:
    return Waiting(uid, mu, NOW - timedelta(seconds=waited), clock, partner, None, bots, 30)


def casual(entries, blocked=()):
    return plan_casual(entries, NOW, default_clock=30, default_target=12, coin=HEADS,
                       blocked=blocked)


def tables(plan) -> list[set[int]]:
    return [set(getattr(m, "people", None) or m.positions) for m in plan]


def never_together(plan, blocked) -> bool:
    return not any(pair <= table for table in tables(plan) for pair in blocked)


# --- ranked (plan_matches) --------------------------------------------------------------

def test_ranked_blocked_pair_among_four_waits():
    four = [solo(1, waited=9), solo(2, waited=8), solo(3), solo(4)]
    assert len(plan_matches(four, NOW, HEADS)) == 1, "without the block: one table"
    assert plan_matches(four, NOW, HEADS, blocked=apart((1, 3))) == []


def test_ranked_fifth_person_takes_the_seat_the_blocked_one_cannot():
    # 1 waited longest and blocked 2, the closest rating: the table is 1, 3, 4, 5.
    people = [solo(1, 25.0, 9), solo(2, 25.1, 8), solo(3, 25.2), solo(4, 25.3), solo(5, 25.4)]
    blocked = apart((2, 1))
    (m,) = plan_matches(people, NOW, HEADS, blocked=blocked)
    assert set(m.positions) == {1, 3, 4, 5}
    assert never_together(plan_matches(people, NOW, HEADS, blocked=blocked), blocked)


def test_ranked_eight_with_blocks_make_two_tables_that_keep_them_apart():
    people = [solo(i, 25 + i * 0.01, 10 - i) for i in range(1, 9)]
    blocked = apart((1, 2), (3, 4), (1, 5))
    plan = plan_matches(people, NOW, HEADS, blocked=blocked)
    assert len(plan) == 2 and never_together(plan, blocked)


def test_ranked_pairs_across_a_block_do_not_meet_and_a_blocked_pair_never_plays():
    pairs = [solo(1, partner=2), solo(2, partner=1), solo(3, partner=4), solo(4, partner=3)]
    assert len(plan_matches(pairs, NOW, HEADS)) == 1
    assert plan_matches(pairs, NOW, HEADS, blocked=apart((2, 3))) == []
    # Partners who blocked each other after pairing are not matched at all.
    six = pairs + [solo(5, partner=6), solo(6, partner=5)]
    (m,) = plan_matches(six, NOW, HEADS, blocked=apart((1, 2)))
    assert set(m.positions) == {3, 4, 5, 6}


# --- casual (plan_casual) ---------------------------------------------------------------

def test_casual_blocked_pair_among_four_waits_without_bots():
    four = [solo(1, waited=99), solo(2, waited=98), solo(3), solo(4)]
    assert len(casual(four)) == 1
    assert casual(four, apart((4, 1))) == [], "only together: they wait"


def test_casual_blocked_pair_get_bots_when_they_allow_them_never_each_other():
    four = [solo(i, waited=60, bots=True) for i in range(1, 5)]
    blocked = apart((1, 2))
    plan = casual(four, blocked)
    assert never_together(plan, blocked)
    seated = sorted(p for m in plan for p in m.people)
    assert 1 in seated and 3 in seated and 4 in seated, "the longest waiting get bots"
    (table,) = [m for m in plan if 1 in m.people]
    assert None in table.positions and 2 not in table.people


def test_casual_the_blocked_one_is_skipped_and_the_next_person_fills_the_table():
    people = [solo(1, waited=9), solo(2, waited=8), solo(3, waited=7), solo(4, waited=6),
              solo(5, waited=5)]
    blocked = apart((3, 1))
    (m,) = casual(people, blocked)
    assert set(m.people) == {1, 2, 4, 5}
    assert never_together([m], blocked)


def test_casual_a_pair_is_never_seated_across_a_block_with_the_solos():
    # 1+2 queue as partners; 3 blocked 2. The pair waits for someone else.
    entries = [solo(1, waited=9, partner=2), solo(2, waited=9, partner=1), solo(3, waited=5),
               solo(4, waited=4), solo(5, waited=3)]
    blocked = apart((3, 2))
    (m,) = casual(entries, blocked)
    assert set(m.people) == {1, 2, 4, 5}
    # Partners who blocked each other after pairing are not seated at all.
    assert casual(entries, apart((1, 2))) == []


def test_casual_many_people_many_blocks_nobody_blocked_shares_a_table():
    people = [solo(i, waited=30 - i) for i in range(1, 17)]
    blocked = apart((1, 2), (1, 3), (4, 5), (6, 9), (10, 11), (12, 1), (14, 15), (2, 16))
    plan = casual(people, blocked)
    assert len(plan) >= 3 and never_together(plan, blocked)
    seated = [p for m in plan for p in m.people]
    assert len(seated) == len(set(seated)), "nobody twice"
