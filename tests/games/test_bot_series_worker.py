"""A real Celery worker drives a table of four random bots through a whole series."""

from __future__ import annotations

import time

import pytest

from games.models import Game, Move, Series
from games.services import series as series_service
from games.services import tables
from tests.games.helpers import assert_games_verified


@pytest.mark.worker
@pytest.mark.broker
@pytest.mark.slow
def test_four_random_bots_play_a_whole_series_on_a_real_worker(cast, celery_worker):
    table = tables.create_table(cast.alice, tables.TableSettings(name="bots", series_target=12))
    for position in range(4):
        tables.add_bot(table.pk, cast.alice, position, "random")
    series = series_service.start_series(table.pk, cast.alice)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        series.refresh_from_db()
        if series.status == Series.Status.FINISHED:
            break
        time.sleep(0.5)
    assert series.status == Series.Status.FINISHED, "the bots did not finish the series"
    assert max(series.loss_points_a, series.loss_points_b) >= 12
    assert series.goat in ("A", "B")
    games = list(series.games.all())
    assert all(g.status == Game.Status.FINISHED for g in games)
    for game in games:
        assert game.result.points_a + game.result.points_b == 120
        assert Move.objects.filter(game=game, source="bot").count() == game.version
    # Every game replays from its seed and moves and agrees with what was stored.
    assert_games_verified()
