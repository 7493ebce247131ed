"""A real Celery worker: four queued players end up at one ranked table and get rated."""

from __future__ import annotations

import time

import pytest

from games.models import Seat, Series
from games.queue import services
from games.queue.models import QueueEntry
from games.ratings.models import Rating, RatingChange
from tests.games.helpers import assert_games_verified
from tests.queue.helpers import play_out_series
from tests.ratings.factories import make_users
from tests.ratings.test_rate_series import plackett_luce


def wait_for(check, timeout: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.worker
@pytest.mark.broker
@pytest.mark.slow
def test_four_queued_players_are_matched_seated_and_rated_by_the_worker(celery_worker):
    people = make_users("w", 4)
    for user in people:
        services.join_queue(user)  # each join kicks the matcher on commit

    def matched():
        entries = list(QueueEntry.objects.filter(status="matched"))
        return entries if len(entries) == 4 else None

    entries = wait_for(matched, what="the worker to match the queue")
    assert len({e.table_id for e in entries}) == 1, "one table for all four"
    table_id = entries[0].table_id
    assert sorted(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True)) \
        == sorted(u.pk for u in people)
    series = Series.objects.get(table_id=table_id)
    assert series.ranked

    finished = play_out_series(series.pk, {u.pk: u for u in people})
    assert finished.status == Series.Status.FINISHED
    # series_finished → rate_series_task on the worker.
    wait_for(lambda: RatingChange.objects.filter(series=finished).count() == 4,
             what="the worker to rate the series")
    ratings = {r.user_id: r for r in Rating.objects.all()}
    winners = [g.result.winner for g in finished.games.order_by("number")]
    # Computed by hand from the published update rule, not by the service's own maths.
    expected = plackett_luce(winners)
    for seat in finished.roster.all():
        rating = ratings[seat.user_id]
        assert rating.mu == pytest.approx(expected[seat.position][0])
        assert rating.series_rated == 1
    assert_games_verified()  # every game replays to what was stored (verify_games)
