"""The series-end card's rating line comes from what the rating task stored: the table's
snapshot says "pending" until it ran, then each player's displayed rating before and
after; a casual series carries none. Rating the series asks every screen at the table to
read its snapshot again."""

from __future__ import annotations

import pytest

from games.models import Series
from games.queue.services import create_ranked_table
from games.ratings import services
from games.ratings.models import RatingChange
from games.snapshot import table_snapshot
from tests.queue.helpers import play_out_series
from tests.ratings.factories import make_users

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def ratings_shown(series: Series, viewer) -> object:  # type: ignore[no-untyped-def]
    return table_snapshot(series.table, viewer)["series"]["ratings"]


def test_a_ranked_series_shows_pending_then_the_stored_changes(
        django_capture_on_commit_callbacks):
    players = make_users("p", 5)
    table = create_ranked_table(players[:4], 30)
    assert ratings_shown(table.series.get(), players[4]) is None  # not over yet
    series = play_out_series(table.series.get().pk, {u.pk: u for u in players})
    assert series.status == Series.Status.FINISHED
    assert ratings_shown(series, players[4]) == {"status": "pending", "changes": []}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert services.rate_series(series.pk)
    assert callbacks, "the tables' screens are asked to read their snapshot again"
    stored = {c.position: c for c in RatingChange.objects.filter(series=series)}
    shown = ratings_shown(series, players[4])
    assert shown["status"] == "rated"
    assert shown["changes"] == [
        {"position": p, "before": stored[p].display_before, "after": stored[p].display_after,
         "delta": stored[p].display_after - stored[p].display_before} for p in range(4)]
