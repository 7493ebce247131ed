"""A real Celery worker runs the casual matcher: four people are seated together, and
three people who allow bots get one after their wait."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat, Series
from games.queue import casual
from games.queue.models import QueueEntry
from games.queue.tasks import match_queue_task
from tests.ratings.factories import make_users
from tests.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def matched(count: int):
    def check():
        entries = list(QueueEntry.objects.filter(status="matched", kind="casual"))
        return entries if len(entries) == count else None
    return check


def test_four_queued_people_are_seated_together_by_the_worker(celery_worker):
    people = make_users("cw", 4)
    for user in people:
        casual.join_casual(user)  # each join kicks the matcher on commit
    entries = wait_for(matched(4), 30, "the worker to match the casual queue")
    (table_id,) = {e.table_id for e in entries}
    assert sorted(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)) \
        == sorted(u.pk for u in people)
    series = Series.objects.get(table_id=table_id)
    assert series.status == Series.Status.PLAYING and not series.ranked


def test_three_people_get_a_bot_from_the_worker_after_the_wait(celery_worker):
    people = make_users("cb", 3)
    for user in people:
        casual.join_casual(user, casual.Preferences(allow_bots=True, bot_wait_seconds=120))
    # (Their waits are not over: the kicks on join seat nobody. Tested without a worker
    # in test_casual_service.py.) Two minutes later:
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=121))
    match_queue_task.delay()  # what the beat does every ~2 s
    entries = wait_for(matched(3), 30, "the worker to fill the table with a bot")
    (table_id,) = {e.table_id for e in entries}
    bots = list(Seat.objects.filter(table_id=table_id, user=None))
    assert len(bots) == 1 and bots[0].bot_level == "beginner", "newcomers' level"
    assert Series.objects.get(table_id=table_id).status == Series.Status.PLAYING


def test_the_worker_never_seats_a_blocked_pair_together(celery_worker):
    """Five people queue, one of whom blocked another: the worker seats four who may sit
    together and leaves one of the blocked pair waiting."""
    from accounts.moderation.services import blocks

    people = make_users("cx", 5)
    blocks.block(people[2], people[0])  # either way is a block
    for user in people:
        casual.join_casual(user)
    entries = wait_for(matched(4), 30, "the worker to match the casual queue")
    (table_id,) = {e.table_id for e in entries}
    seated = set(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True))
    assert not {people[0].pk, people[2].pk} <= seated, "the blocked pair sit apart"
    left = QueueEntry.objects.get(status="waiting", kind="casual")
    assert left.user_id in {people[0].pk, people[2].pk}


def test_a_lone_person_gets_three_bots_from_the_worker_after_the_wait(celery_worker):
    """The promise of "Play with people": alone, bots allowed, seated when the wait ends."""
    (alone,) = make_users("cl", 1)
    casual.join_casual(alone, casual.Preferences(allow_bots=True, bot_wait_seconds=60))
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=61))
    match_queue_task.delay()  # what the beat does every ~2 s (the join's kick comes later)
    (entry,) = wait_for(matched(1), 30, "the worker to seat a lone person with bots")
    seats = list(Seat.objects.filter(table_id=entry.table_id))
    assert [s.user_id for s in seats if s.user_id] == [alone.pk]
    assert sum(1 for s in seats if s.is_bot) == 3
    assert Series.objects.get(table_id=entry.table_id).status == Series.Status.PLAYING
