"""Joining, leaving, pair invites and the matcher against the database."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.models import Seat, Series, Table
from games.queue import services
from games.queue.models import PairInvite, QueueEntry
from games.ratings.models import Rating
from tests.ratings.factories import make_user, make_users


@pytest.fixture
def eight(db):
    return make_users("q", 8)


def set_mu(user, mu: float) -> None:
    Rating.objects.update_or_create(user=user, defaults={"mu": mu, "sigma": 5.0})


def test_join_needs_a_verified_email(db):
    charlie = make_user("charlie", verified=False)
    with pytest.raises(PermissionDeniedError):
        services.join_queue(charlie)
    assert not QueueEntry.objects.exists()


def test_join_twice_is_one_entry_and_leaving_is_instant(eight):
    alice = eight[0]
    first = services.join_queue(alice, 15)
    again = services.join_queue(alice, 30)
    assert first.pk == again.pk and again.turn_seconds == 15
    assert services.leave_queue(alice) is True
    assert not QueueEntry.objects.exists()
    assert services.leave_queue(alice) is False


def test_bad_clock_is_refused(eight):
    with pytest.raises(InvalidRequestError):
        services.join_queue(eight[0], 60)


def test_four_queued_players_are_seated_at_one_ranked_table(eight):
    for user in eight[:4]:
        services.join_queue(user)
    (table_id,) = services.match_queue()
    table = Table.objects.get(pk=table_id)
    assert table.kind == "ranked" and table.turn_seconds == 30 and not table.bots_allowed
    assert table.status == Table.Status.PLAYING
    seated = set(Seat.objects.filter(table=table).values_list("user_id", flat=True))
    assert seated == {u.pk for u in eight[:4]}
    series = Series.objects.get(table=table)
    assert series.ranked and series.target == 12 and series.games.count() == 1
    assert all(e.status == "matched" and e.table_id == table_id
               for e in QueueEntry.objects.all())
    assert services.match_queue() == [], "nobody is seated twice"


def test_the_matcher_pairs_by_rating(eight):
    for i, user in enumerate(eight):
        set_mu(user, 10.0 if i % 2 else 40.0)
        services.join_queue(user)
    tables = services.match_queue()
    assert len(tables) == 2
    for table_id in tables:
        mus = {Rating.objects.get(user_id=s.user_id).mu
               for s in Seat.objects.filter(table_id=table_id)}
        assert len(mus) == 1, "strong with strong, weak with weak"


def test_the_queue_widens_with_the_wait(eight):
    for user, mu in zip(eight[:4], [20, 22, 24, 26], strict=True):
        set_mu(user, mu)
        services.join_queue(user)
    assert services.match_queue() == []
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=60))
    assert len(services.match_queue()) == 1


def test_someone_at_a_ranked_table_cannot_queue_and_is_dropped_if_they_sit(eight):
    for user in eight[:4]:
        services.join_queue(user)
    services.match_queue()
    with pytest.raises(TableStateError):
        services.join_queue(eight[0])
    # A queued player who sits down at another ranked table leaves the queue.
    for user in eight[4:8]:
        services.join_queue(user)
    from games.services import tables
    other = tables.create_table(eight[4], tables.TableSettings(name="mine", kind="ranked",
                                                               turn_seconds=30))
    tables.take_seat(other.pk, eight[4], 0)
    assert services.match_queue() == []
    assert not QueueEntry.objects.filter(user=eight[4]).exists()


@pytest.mark.django_db(transaction=True)
def test_two_matchers_at_once_never_seat_anyone_twice():
    people = make_users("m", 8)
    for user in people:
        services.join_queue(user)
    barrier = threading.Barrier(2)
    made: list[object] = []

    def run() -> None:
        try:
            barrier.wait()
            made.extend(services.match_queue())
        except Exception as error:
            made.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(t, int) for t in made), made
    assert len(made) == 2
    seats = list(Seat.objects.filter(table_id__in=made).values_list("user_id", flat=True))
    assert sorted(seats) == sorted(u.pk for u in people), "each person exactly once"


def test_pair_invite_accept_and_match_against_another_pair(eight):
    a, b, c, d = eight[:4]
    invite = services.invite_partner(a, "Q1")  # case-insensitive username
    assert invite.to_user == b
    services.join_queue(b)  # b was in the solo queue: accepting moves b to the pair
    services.accept_invite(b, invite.pk)
    assert QueueEntry.objects.get(user=a).partner == b
    assert QueueEntry.objects.get(user=b).partner == a
    assert not PairInvite.objects.exists()
    services.accept_invite(d, services.invite_partner(c, "q3").pk)
    (table_id,) = services.match_queue()
    positions = {s.user_id: s.position for s in Seat.objects.filter(table_id=table_id)}
    assert positions[a.pk] % 2 == positions[b.pk] % 2, "partners sit opposite"
    assert positions[c.pk] % 2 == positions[d.pk] % 2


def test_pair_leaves_together(eight):
    a, b = eight[:2]
    services.accept_invite(b, services.invite_partner(a, "q1").pk)
    services.leave_queue(b)
    assert not QueueEntry.objects.exists()


def test_invites_are_checked(eight):
    a = eight[0]
    make_user("unverified", verified=False)
    with pytest.raises(NotFoundError):
        services.invite_partner(a, "nobody")
    with pytest.raises(InvalidRequestError):
        services.invite_partner(a, "q0")
    with pytest.raises(PermissionDeniedError):
        services.invite_partner(a, "unverified")
    invite = services.invite_partner(a, "q1")
    with pytest.raises(NotFoundError):
        services.accept_invite(eight[2], invite.pk)  # not for you
    assert services.decline_invite(eight[1], invite.pk) is True
    assert not PairInvite.objects.exists()
