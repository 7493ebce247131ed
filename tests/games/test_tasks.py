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


def test_bot_turn_task_plays_once_and_ignores_a_stale_version(cast):
    series = start_with_bots(cast.alice, ("random",) * 3)
    game = current_game(series)
    state = state_of(game)
    version = 0
    if state.turn == 0:  # alice is on lead: she plays, then a bot is on turn
        from games.services import play
        from tests.games.helpers import first_legal

        version = play.submit_action(game.pk, cast.alice, first_legal(state, 0).to_dict(), 0)
    bot_turn_task(game.pk, version)
    bot_turn_task(game.pk, version)  # delivered twice
    assert Move.objects.filter(game=game, source="bot").count() == 1
