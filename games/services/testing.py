"""Test-only hooks, refused unless ``settings.KOZEL_TEST_HOOKS`` (never in production).

``setup_position`` lets a browser test put a known position on a live table (e.g. a
molodka hand) so that a rule can be exercised from the UI deterministically.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import engine, events
from games.conf import game_settings
from games.errors import InvalidRequestError, PermissionDeniedError
from games.models import Game
from games.selectors import bot_seats
from games.services import clock, locks, publish, schedule


def setup_position(table_id: int, position: dict[str, Any]) -> Game:
    """Replace the table's current game state with ``position`` (conformance format).

    The game's move log no longer replays from its seed afterwards, so this exists only
    for tests.
    """
    if not game_settings.TEST_HOOKS:
        raise PermissionDeniedError("Test hooks are disabled.")
    try:
        state = engine.game_from_position(position)
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidRequestError(f"Not a valid position: {exc}") from None
    with transaction.atomic():
        table = locks.lock_table(table_id)
        series, game = locks.lock_current(table)
        if series is None or game is None or game.status != Game.Status.PLAYING:
            raise InvalidRequestError("No game is being played at this table.")
        game.moves.all().delete()
        game.version += 1
        game.state = state.to_dict()
        game.trump_card = state.trump_card.code
        clock.arm_turn_clock_locked(game, state, table)
        game.save(update_fields=["version", "state", "trump_card", "turn_started_at",
                                 "turn_deadline", "turn_seat"])
        events.send_events_on_commit(publish.game_changed(game, state, whole_history=True))
        if bot_seats(game.series):
            schedule.bot_turn(game.pk, game.version)
    return game
