"""Tasks called directly (no eager mode): bad arguments refused, stale versions no-ops."""

from __future__ import annotations

import pytest

from games.models import Move
from games.tasks import bot_turn_task, disconnect_check_task, next_game_task, turn_timeout_task
from tests.games.helpers import current_game, start_with_bots, state_of


@pytest.mark.parametrize("task", [bot_turn_task, turn_timeout_task, disconnect_check_task,
                                  next_game_task])
@pytest.mark.parametrize("args", [("1", 0), (1, "0"), (-1, 0), (True, 0), (None, None)])
def test_bad_task_arguments_are_refused(db, task, args, caplog):
    task(*args)
    assert "refused" in caplog.text


def test_bot_turn_task_plays_once_and_ignores_a_stale_version(cast, deal_seeds):
    deal_seeds.first_dealer = 0  # R4: seat 1, a bot, leads
    series = start_with_bots(cast.alice, ("random",) * 3)
    game = current_game(series)
    assert state_of(game).turn == 1
    bot_turn_task(game.pk, 0)
    bot_turn_task(game.pk, 0)  # delivered twice
    assert Move.objects.filter(game=game, source="bot").count() == 1
    game.refresh_from_db()
    assert game.version == 1


def test_r18_a_bot_turn_shows_the_bot_the_series_score(cast, monkeypatch, deal_seeds):
    import games.bots
    from games.models import Series

    casual = games.bots.POLICIES["casual"]
    seen = []

    def watching_casual(view, rng):  # the real casual bot, noting what it was shown
        seen.append(view.series)
        return casual(view, rng)

    monkeypatch.setitem(games.bots.POLICIES, "casual", watching_casual)
    deal_seeds.first_dealer = 0  # R4: seat 1, a bot, leads
    series = start_with_bots(cast.alice, ("casual",) * 3, target=18)
    Series.objects.filter(pk=series.pk).update(loss_points_a=4, loss_points_b=2)
    game = current_game(series)
    assert state_of(game).turn == 1
    bot_turn_task(game.pk, 0)
    assert seen and seen[-1] == {"loss_points": {"A": 4, "B": 2}, "target": 18}
