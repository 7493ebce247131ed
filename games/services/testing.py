"""Test-only hooks, refused unless ``settings.KOZEL_TEST_HOOKS`` (never in production).

``setup_position`` lets a browser test put a known position on a live table (e.g. a
molodka hand) so that a rule can be exercised from the UI deterministically.
``TEAM_A_SHUT_OUT`` is such a position: a game that ends after four tricks with 6 loss
points for team A, so that a test reaches a series' end (its end cards, its rating
change, its tournament result) through the real services after a game or two instead of
a random number of full games.
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

# The last four tricks of a game whose trump is ♠ (the queen, in seat 3's hand). The stock
# is empty and team B (seats 1, 3) holds every trump and the high cards, so team A
# (seats 0, 2) can never beat (R7, R9); as long as B beats (it may discard instead), A
# takes no trick: 6 loss points (R16), the target of a series to 6, half of 12 (R18).
# Seat 3 leads; the other 20 cards (69 card points) are already in B's pile (five tricks).
# Test-only, like ``setup_position``.
TEAM_A_SHUT_OUT: dict[str, Any] = {
    "dealer": 2, "leader": 3, "trump_card": "QS", "stock": [],
    "hands": [["6H", "7H", "8H", "9H"], ["AS", "KS", "TS", "9C"],
              ["6C", "7C", "8C", "6D"], ["QS", "JS", "AC", "TD"]],
    "piles": {"A": [], "B": ["TH", "JH", "QH", "KH", "AH", "7D", "8D", "9D", "JD", "QD",
                             "KD", "AD", "6S", "7S", "8S", "9S", "QC", "KC", "TC", "JC"]},
    "tricks": {"A": 0, "B": 5},
}


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
