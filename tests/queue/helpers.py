"""Drive a started series to its end through the services (first legal action)."""

from __future__ import annotations

from typing import Any

from games import engine
from games.models import Game, Series
from games.services import play
from games.services import series as series_service
from games.services.testing import setup_position


def play_out_series(series_id: int, users_by_id: dict[int, Any], max_games: int = 60,
                    position: dict[str, Any] | None = None) -> Series:
    """Play every game of a series as its seated people; deal the next game directly.

    ``start_next_game`` is idempotent, so this is safe next to a worker that deals it
    too. With ``position`` (e.g. ``games.services.testing.TEAM_A_SHUT_OUT``) each game
    is first set to it, so that the series ends after a known, short number of games.
    """
    fixed: set[int] = set()
    for _ in range(max_games):
        series = Series.objects.get(pk=series_id)
        if series.status != Series.Status.PLAYING:
            return series
        game = series.games.order_by("-number").first()
        if game.status != Game.Status.PLAYING:
            series_service.start_next_game(series_id, game.number)
            continue
        if position is not None and game.pk not in fixed:
            fixed.add(game.pk)
            game = setup_position(series.table_id, position)
        people = {seat.position: users_by_id[seat.user_id] for seat in series.roster.all()}
        while True:
            game.refresh_from_db()
            if game.status != Game.Status.PLAYING:
                break
            state = engine.GameState.from_dict(game.state)
            seat = state.turn
            action = engine.legal_actions(state, seat)[0]
            if action.kind == "molodka":
                action = next(a for a in engine.legal_actions(state, seat)
                              if a.kind != "molodka")
            play.submit_action(game.pk, people[seat], action.to_dict(), game.version)
    raise AssertionError("the series did not end")
