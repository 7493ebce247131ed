"""The casual quick match against the database: join, leave, pairs, bots, the matcher."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.models import Seat, Series, Table
from games.queue import casual, services
from games.queue.models import PairInvite, QueueEntry
from games.ratings.models import Rating
from games.services import tables
from tests.ratings.factories import make_user, make_users

BOTS = casual.Preferences(allow_bots=True, bot_wait_seconds=30)


@pytest.fixture
def eight(db):
    return make_users("k", 8)


def seated(table_id: int) -> dict[int, int | None]:
    return dict(Seat.objects.filter(table_id=table_id).values_list("position", "user_id"))


def test_four_queued_people_are_seated_together_at_a_started_casual_table(eight):
    for user in eight[:4]:
        casual.join_casual(user)
    (table_id,) = casual.match_casual_queue()
    table = Table.objects.get(pk=table_id)
    assert table.kind == "casual" and table.visibility == "public"
    assert table.status == Table.Status.PLAYING
    assert table.turn_seconds == 30 and table.series_target == 12
    assert set(seated(table_id).values()) == {u.pk for u in eight[:4]}
    series = Series.objects.get(table=table)
    assert not series.ranked, "no rating at stake"
    assert all(e.status == "matched" and e.table_id == table_id
               for e in QueueEntry.objects.all())
    assert casual.match_casual_queue() == [], "nobody is seated twice"


def test_preferences_become_the_tables_settings(eight):
    prefs = casual.parse_preferences("none", "18", None, None)
    for user in eight[:4]:
        casual.join_casual(user, prefs)
    (table_id,) = casual.match_casual_queue()
    table = Table.objects.get(pk=table_id)
    assert table.turn_seconds is None and table.series_target == 18


def test_bad_preferences_are_refused_and_change_nothing(eight):
    for args in (("45",), (None, "7"), (None, None, "maybe"), (None, None, None, "5"),
                 (True,), ("15.5",)):
        with pytest.raises(InvalidRequestError):
            casual.join_casual(eight[0], casual.parse_preferences(*args))
    assert not QueueEntry.objects.exists()
    with pytest.raises(PermissionDeniedError):
        casual.join_casual(None)


def test_three_people_get_a_bot_of_their_level_after_the_wait(eight):
    for user in eight[:3]:
        Rating.objects.create(user=user, mu=35.0, sigma=2.0)  # shown 1725: strong
        casual.join_casual(user, BOTS)
    assert casual.match_casual_queue() == [], "not before the wait"
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=31))
    (table_id,) = casual.match_casual_queue()
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    assert sorted(s.user_id for s in seats if s.user_id) == sorted(u.pk for u in eight[:3])
    (bot,) = [s for s in seats if s.is_bot]
    assert bot.bot_level == "strong"
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING


def test_newcomers_get_a_beginner_bot_and_people_who_refuse_bots_keep_waiting(eight):
    a, b, c = eight[:3]
    casual.join_casual(a, BOTS)
    casual.join_casual(b, BOTS)
    casual.join_casual(c)  # no bots for c
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=31))
    (table_id,) = casual.match_casual_queue()
    people = {uid for uid in seated(table_id).values() if uid}
    assert people == {a.pk, b.pk}
    assert sorted(Seat.objects.filter(table_id=table_id, user=None)
                  .values_list("bot_level", flat=True)) == ["beginner", "beginner"]
    assert QueueEntry.objects.get(user=c).status == "waiting"


def test_leaving_works_and_the_matcher_then_skips_you(eight):
    for user in eight[:4]:
        casual.join_casual(user)
    assert services.leave_queue(eight[0]) is True
    assert not QueueEntry.objects.filter(user=eight[0]).exists()
    assert casual.match_casual_queue() == []
    assert services.leave_queue(eight[0]) is False


def test_someone_playing_a_live_series_is_told_to_return_to_their_game(eight):
    alice = eight[0]
    tables.start_with_bots(alice)
    with pytest.raises(TableStateError, match="return to your game"):
        casual.join_casual(alice)
    assert not QueueEntry.objects.filter(user=alice).exists()


def test_a_queued_person_who_starts_a_game_elsewhere_is_dropped(eight):
    for user in eight[:4]:
        casual.join_casual(user)
    tables.start_with_bots(eight[0])
    assert casual.match_casual_queue() == []
    assert not QueueEntry.objects.filter(user=eight[0]).exists()


def test_ranked_and_casual_queues_never_mix(eight):
    for user in eight[:2]:
        services.join_queue(user)
    for user in eight[2:4]:
        casual.join_casual(user)
    assert services.match_queue() == [] and casual.match_casual_queue() == []
    with pytest.raises(TableStateError):
        services.join_queue(eight[2])
    with pytest.raises(TableStateError):
        casual.join_casual(eight[0])


def test_partners_queue_as_a_pair_and_sit_opposite(eight):
    a, b, c, d = eight[:4]
    invite = casual.invite_casual_partner(a, "K1")
    assert invite.kind == "casual" and invite.to_user == b
    with pytest.raises(NotFoundError):
        services.accept_invite(b, invite.pk)  # not a ranked invite
    casual.accept_casual_invite(b, invite.pk)
    assert QueueEntry.objects.get(user=a).partner == b
    assert not PairInvite.objects.exists()
    casual.join_casual(c)
    casual.join_casual(d)
    (table_id,) = casual.match_casual_queue()
    positions = {uid: pos for pos, uid in seated(table_id).items()}
    assert positions[a.pk] % 2 == positions[b.pk] % 2, "partners sit opposite (R1)"
    # A pair leaves together.
    e, f = eight[4:6]
    casual.accept_casual_invite(f, casual.invite_casual_partner(e, "k5").pk)
    services.leave_queue(f)
    assert not QueueEntry.objects.filter(user__in=[e, f]).exists()


def test_casual_invites_are_checked(eight):
    a = eight[0]
    with pytest.raises(NotFoundError):
        casual.invite_casual_partner(a, "nobody")
    with pytest.raises(InvalidRequestError):
        casual.invite_casual_partner(a, "k0")
    with pytest.raises(InvalidRequestError):
        casual.invite_casual_partner(a, "x" * 200)
    invite = casual.invite_casual_partner(a, "k1")
    with pytest.raises(NotFoundError):
        casual.accept_casual_invite(eight[2], invite.pk)
    with pytest.raises(NotFoundError):
        casual.accept_casual_invite(eight[1], str(invite.pk))
    assert services.decline_invite(eight[1], invite.pk) is True


@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_and_two_matchers_never_seat_anyone_twice():
    if connection.vendor != "postgresql":
        pytest.skip("row locks: the race is real on PostgreSQL")
    people = make_users("r", 12)
    make_user("spare")
    barrier = threading.Barrier(len(people) + 2)
    errors: list[BaseException] = []
    made: list[int] = []
    done = threading.Event()

    def join(user) -> None:
        try:
            barrier.wait()
            casual.join_casual(user)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    def match() -> None:
        try:
            barrier.wait()
            while not done.is_set():
                made.extend(casual.match_casual_queue())
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    joiners = [threading.Thread(target=join, args=(u,)) for u in people]
    matchers = [threading.Thread(target=match) for _ in range(2)]
    for t in joiners + matchers:
        t.start()
    for t in joiners:
        t.join()
    done.set()
    for t in matchers:
        t.join()
    made.extend(casual.match_casual_queue())
    assert not errors, errors
    assert len(made) == len(set(made)) == 3
    seats = list(Seat.objects.filter(table_id__in=made).values_list("user_id", flat=True))
    assert sorted(seats) == sorted(u.pk for u in people), "each person exactly once"
    assert Seat.objects.filter(user__in=people).count() == 12, "and at no other table"


def test_a_lone_person_gets_three_bots_once_the_wait_is_over(eight):
    alone = eight[0]
    casual.join_casual(alone, BOTS)
    assert casual.match_casual_queue() == [], "not before the wait"
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=31))
    (table_id,) = casual.match_casual_queue()
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    assert [s.user_id for s in seats if s.user_id] == [alone.pk]
    assert [s.bot_level for s in seats if s.is_bot] == ["beginner"] * 3
    assert QueueEntry.objects.get(user=alone).table_id == table_id


def test_a_site_that_asks_for_two_people_keeps_a_lone_person_waiting(eight, settings):
    settings.KOZEL_QUEUE = {"CASUAL_MIN_PEOPLE": 2}
    casual.join_casual(eight[0], BOTS)
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=300))
    assert casual.match_casual_queue() == []
    assert QueueEntry.objects.get(user=eight[0]).status == "waiting"


def test_play_with_bots_now_seats_you_at_once_with_your_preferences(eight):
    alone = eight[0]
    with pytest.raises(TableStateError, match="not waiting"):
        casual.play_with_bots_now(alone)
    casual.join_casual(alone, casual.Preferences(turn_seconds=60, target=6))  # no bots asked
    table = casual.play_with_bots_now(alone)
    assert (table.kind, table.turn_seconds, table.series_target) == ("casual", 60, 6)
    seats = seated(table.pk)
    assert [uid for uid in seats.values() if uid] == [alone.pk]
    assert Seat.objects.filter(table=table, user=None).count() == 3
    assert Series.objects.get(table=table).status == Series.Status.PLAYING
    entry = QueueEntry.objects.get(user=alone)
    assert (entry.status, entry.table_id) == ("matched", table.pk)
    with pytest.raises(TableStateError):
        casual.play_with_bots_now(alone)  # once
    assert casual.match_casual_queue() == []


def test_play_with_bots_now_keeps_partners_together_opposite(eight):
    a, b = eight[:2]
    casual.accept_casual_invite(b, casual.invite_casual_partner(a, "k1").pk)
    table = casual.play_with_bots_now(b)
    positions = {uid: pos for pos, uid in seated(table.pk).items() if uid}
    assert set(positions) == {a.pk, b.pk}
    assert (positions[a.pk] - positions[b.pk]) % 4 == 2, "partners sit opposite (R1)"
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {"matched"}
