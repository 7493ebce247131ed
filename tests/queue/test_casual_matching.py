"""The casual matcher's plan (pure): four people at once, preferences, bots after the wait."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.queue.matching import Waiting, bot_level_near, plan_casual

pytestmark = pytest.mark.django_db(databases=[])
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
HEADS = lambda: True  # noqa: E731  (the first team takes seats 0+2)


def w(uid: int, waited: float = 0.0, *, clock: int | None = None, target: int | None = None,
      bots: bool = False, bot_wait: float = 30, partner: int | None = None,
      mu: float = 25.0) -> Waiting:
    return Waiting(uid, mu, NOW - timedelta(seconds=waited), clock, partner, target, bots,
                   bot_wait)


def plan(entries, **kw):
    return plan_casual(entries, NOW, default_clock=30, default_target=12, coin=HEADS, **kw)


def test_four_people_are_seated_at_once_whatever_their_ratings():
    (m,) = plan([w(1, mu=5), w(2, mu=45), w(3, mu=25), w(4, mu=30)])
    assert sorted(m.people) == [1, 2, 3, 4] and None not in m.positions
    assert m.turn_seconds == 30 and m.target == 12, "nobody chose: the defaults"
    # strongest (2) + weakest (1) at 0+2 against the middle two.
    assert m.positions == (2, 4, 1, 3)


def test_three_people_wait_for_a_fourth_and_nobody_is_used_twice():
    assert plan([w(1, 100), w(2, 100), w(3, 100)]) == []
    matches = plan([w(i, 10 - i) for i in range(1, 10)])
    assert len(matches) == 2
    seated = [p for m in matches for p in m.people]
    assert sorted(seated) == [1, 2, 3, 4, 5, 6, 7, 8], "longest waiting first, once each"


def test_preferences_must_agree_and_open_ones_take_the_fixed_value():
    entries = [w(1, 9, clock=15), w(2, 8, clock=60), w(3, 7), w(4, 6, target=18), w(5, 5)]
    (m,) = plan(entries)
    assert sorted(m.people) == [1, 3, 4, 5]
    assert m.turn_seconds == 15 and m.target == 18
    (none,) = plan([w(1, clock=0), w(2), w(3), w(4)])
    assert none.turn_seconds is None, "0 means no clock"


def test_bots_fill_the_table_after_the_wait_only_for_people_who_allow_them():
    three = [w(1, 29, bots=True), w(2, 20, bots=True), w(3, 10, bots=True)]
    assert plan(three) == [], "not before the first person's wait is over"
    later = [w(1, 31, bots=True), w(2, 20, bots=True), w(3, 10, bots=True)]
    (m,) = plan(later)
    assert sorted(m.people) == [1, 2, 3] and m.positions.count(None) == 1
    bot = m.positions.index(None)
    assert m.positions[(bot + 2) % 4] is not None, "a bot partners a person"
    # Someone who does not allow bots is never seated with one.
    (m,) = plan([w(1, 31, bots=True), w(2, 20), w(3, 10, bots=True)])
    assert sorted(m.people) == [1, 3] and 2 not in m.people
    # A lone person is seated with three bots once their wait is over (R1: a bot partners
    # them); a site that asks for two people keeps them waiting.
    assert plan([w(1, 29, bots=True)]) == []
    (m,) = plan([w(1, 31, bots=True)])
    assert m.people == [1] and m.positions.count(None) == 3
    assert plan([w(1, 300, bots=True)], min_people=2) == []


def test_full_tables_come_before_bot_tables():
    entries = [w(1, 100, bots=True), w(2, 90), w(3, 80), w(4, 70), w(5, 60, bots=True)]
    matches = plan(entries)
    # 1 allows bots but four people make a table; 5, left alone after the wait, gets bots.
    assert [sorted(m.people) for m in matches] == [[1, 2, 3, 4], [5]]
    assert matches[1].positions.count(None) == 3


def test_pairs_sit_opposite_and_mix_with_solos():
    pair = [w(1, 50, partner=2), w(2, 50, partner=1)]
    (m,) = plan(pair + [w(3, 10), w(4, 5)])
    assert {m.positions[0], m.positions[2]} == {1, 2}
    (m,) = plan(pair + [w(3, 10, partner=4), w(4, 10, partner=3)])
    assert {m.positions[1], m.positions[3]} == {3, 4}
    # Half a pair (the partner left a moment ago) is not matchable.
    assert plan([w(1, partner=2), w(3), w(4), w(5)]) == []
    # A pair and a solo, bots allowed, after the wait: the pair together, a bot opposite.
    (m,) = plan([w(1, 40, partner=2, bots=True), w(2, 40, partner=1, bots=True),
                 w(3, 5, bots=True)])
    assert {m.positions[0], m.positions[2]} == {1, 2} and m.positions[3] is None


def test_the_bot_level_is_the_nearest_on_the_ladder():
    ladder = {"beginner": 1050, "casual": 1250, "club": 1450, "strong": 1600}
    assert bot_level_near(1000, ladder) == "beginner"
    assert bot_level_near(1300, ladder) == "casual"
    assert bot_level_near(1550, ladder) == "strong"
    assert bot_level_near(9999, ladder) == "strong"
