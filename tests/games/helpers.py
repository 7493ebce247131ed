"""Helpers for game tests: start a series at a table and drive it through the services."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from games import engine
from games.models import Game, Seat, Series, SeriesSeat
from games.services import series as series_service
from games.services import tables

CARD_CODE = re.compile(r"^[6789TJQKA][CDHS]$")


def start_with_bots(owner, levels=("random", "random", "random"), *, name="Bots",
                    target=12) -> Series:
    """owner sits at 0, bots at 1–3, series started."""
    table = tables.create_table(owner, tables.TableSettings(name=name, series_target=target))
    tables.take_seat(table.pk, owner, 0)
    for position, level in enumerate(levels, start=1):
        tables.add_bot(table.pk, owner, position, level)
    return series_service.start_series(table.pk, owner)


def seated_and_started(cast: Any, name: str, **settings: Any) -> Series:
    """A casual table owned by alice (``settings``: more of its TableSettings), the
    cast seated at 0–3 (alice, bob, carol, dan), its series started by alice."""
    table = tables.create_table(cast.alice, tables.TableSettings(name=name, **settings))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return series_service.start_series(table.pk, cast.alice)


def clocked_game_after_one_move(cast: Any, seconds: int = 15) -> tuple[Series, Game]:
    """A casual table with a ``seconds`` turn clock, the cast seated at 0–3, its series
    started and one move played by the person on turn (the game at version 1)."""
    from games.services import play

    series = seated_and_started(cast, "clock", turn_seconds=seconds)
    game = current_game(series)
    state = state_of(game)
    action = engine.legal_actions(state, state.turn)[0]
    play.submit_action(game.pk, users_by_position(series)[state.turn], action.to_dict(), 0)
    return series, game


def current_game(series: Series) -> Game:
    return series.games.order_by("-number").first()


def state_of(game: Game) -> engine.GameState:
    game.refresh_from_db()
    return engine.GameState.from_dict(game.state)


def users_by_position(series: Series) -> dict[int, Any]:
    from django.contrib.auth import get_user_model

    users = {u.pk: u for u in get_user_model().objects.all()}
    return {seat.position: users[seat.user_id]
            for seat in SeriesSeat.objects.filter(series=series) if seat.user_id}


def roster_entry(series: Series, position: int) -> SeriesSeat:
    """The series' roster row of ``position``, fresh from the database."""
    return SeriesSeat.objects.get(series=series, position=position)


def first_legal(state: engine.GameState, seat: int, kind: str | None = None) -> engine.Action:
    for action in engine.legal_actions(state, seat):
        if kind is None or action.kind == kind:
            return action
    raise AssertionError(f"seat {seat} has no legal {kind or ''} action")


def strings_in(obj: Any) -> Iterator[str]:
    """Every string in a JSON-like value, dictionary keys included."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            yield item


def card_codes_in(obj: Any) -> set[str]:
    """Every string in a JSON-like value that is a card code."""
    return {s for s in strings_in(obj) if CARD_CODE.match(s)}


def seat_positions(table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("position"))


def assert_games_verified() -> None:
    """Every game in the test database replays from its seed and moves and agrees with
    what was stored (``manage.py verify_games --all``); fails with the anomaly lines.
    Integration tests call it at their end."""
    from games import verify

    report = verify.verify(verify.select_games(everything=True))
    assert report.ok, "\n".join([*(str(a) for a in report.anomalies), report.summary()])


def play_out_game(game: Game, users: dict[int, Any]) -> engine.GameState:
    """Play the game to its end through the services: the first legal action for each
    person in ``users`` (by position), a bot turn for every other seat."""
    from games.services import play

    while True:
        game.refresh_from_db()
        state = engine.GameState.from_dict(game.state)
        if game.status != Game.Status.PLAYING:
            return state
        seat = state.turn
        if seat in users:
            play.submit_action(game.pk, users[seat], first_legal(state, seat).to_dict(),
                               game.version)
        else:
            assert play.play_bot_turn(game.pk, game.version) is not None


def up_to_the_last_move(series: Series, users: dict[int, Any], *,
                        decided: bool = False) -> tuple[Game, engine.Action]:
    """Play the series' current game through the services (each seat's first legal
    action that is not a molodka) up to its last move: that game and its last action,
    not yet played. ``decided``: up to the last move of a game with a loser (a game of
    eggs, R16, is played out and the next one dealt)."""
    from games.services import play

    for _ in range(10):
        game = current_game(series)
        state = state_of(game)
        while True:
            action = next(a for a in engine.legal_actions(state, state.turn)
                          if a.kind != "molodka")
            after = engine.apply(state, state.turn, action)
            result = engine.outcome(after)
            if result is not None and (result.winner or not decided):
                return game, action
            play.submit_table_action(series.table_id, users[state.turn], action.to_dict(),
                                     game.version)
            game.version += 1
            if result is not None:
                series_service.start_next_game(series.pk, game.number)
                break
            state = after
    raise AssertionError("ten games of eggs")
