"""Clocks, timeouts and abandonment (issue 6): no table ever hangs.

- The seat to act gets ``turn_started_at`` and, at a table with a clock, a
  ``turn_deadline`` stored in the Game row; a ``turn_timeout_task(game_id, version)`` is
  scheduled on commit and the beat sweep finds any deadline a lost task missed.
- When time runs out the server plays for the player with the Casual bot and records a
  timeout (Conduct). Two timeouts in a row, or 60 s disconnected on one's own turn,
  and a Casual bot takes the seat for the rest of the series; the player may reclaim it
  at a casual table.
- The molodka has no clock (R11 is optional): only the seat on turn is timed.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games import engine
from games.conf import game_settings
from games.models import Conduct, Game, Move, Seat, Series, Table
from games.services import publish, schedule
from games.services.errors import InvalidRequestError, NotFoundError, PermissionDeniedError

TIMEOUTS_BEFORE_ABANDON = 2
DISCONNECT_GRACE_SECONDS = 60
TAKEOVER_LEVEL = "casual"
# A timeout task may fire a little early (clock skew between hosts); it re-arms itself.
EARLY_TOLERANCE = timedelta(milliseconds=250)


def human_positions(series: Series) -> set[int]:
    return {int(e["position"]) for e in series.seats if e.get("user_id") and not e.get("bot_level")}


def arm_turn_clock_locked(game: Game, state: engine.GameState, table: Table) -> None:
    """Start the turn of ``state.turn``. The caller holds the game's row lock and saves it.

    A bot's turn has no deadline (the bot task drives it); a human's has one when the
    table has a clock. ``turn_started_at`` is kept either way: the disconnect countdown
    runs from it.
    """
    now = timezone.now()
    seat = state.turn
    game.turn_started_at = now if seat is not None else None
    game.turn_deadline = None
    seconds = game_settings.turn_seconds(table.turn_seconds)
    if (seat is None or game.paused or seconds is None
            or seat not in human_positions(game.series)):
        return
    game.turn_deadline = now + timedelta(seconds=seconds)
    schedule.on_commit_turn_timeout(game.pk, game.version, seconds)


def _casual_choice(state: engine.GameState, seat: int, rng: random.Random) -> engine.Action:
    from games.services.play import choose_bot_action

    choice = choose_bot_action(state, seat, TAKEOVER_LEVEL, rng)
    if choice is None or choice.kind == "molodka" and state.turn != seat:
        choice = engine.legal_actions(state, seat)[0]
    return choice


def play_timeout(game_id: int, expected_version: int) -> int | None:
    """The clock ran out on ``expected_version``: play for the seat on turn.

    Compare-and-set: a late or duplicated task (the version moved on, the deadline was
    cleared) does nothing and returns None.
    """
    from games.services.play import apply_locked, lock_game

    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except NotFoundError:  # the game was deleted (voided, a test flush): nothing to do
            return None
        if (game.status != Game.Status.PLAYING or game.version != expected_version
                or game.turn_deadline is None or game.paused):
            return None
        remaining = (game.turn_deadline - timezone.now()).total_seconds()
        if remaining > EARLY_TOLERANCE.total_seconds():
            schedule.on_commit_turn_timeout(game.pk, game.version, remaining)
            return None
        state = engine.GameState.from_dict(game.state)
        seat = state.turn
        if seat is None or seat not in human_positions(game.series):
            return None
        user_id = _user_at(game.series, seat)
        action = _casual_choice(state, seat, random.Random(f"{game.seed}:{game.version}:t"))
        version = apply_locked(game, state, seat, action, Move.Source.TIMEOUT)
        name = _entry(game.series, seat).get("name", "A player")
        publish.on_commit_notice(game.series.table_id,
                                 f"{name}'s time ran out: the server played for them.")
        series = Series.objects.select_for_update().get(pk=game.series_id)
        Conduct.objects.create(user_id=user_id, series=series, game=game, position=seat,
                               kind=Conduct.Kind.TIMEOUT, reason=Conduct.Reason.CLOCK)
        entry = _entry(series, seat)
        entry["timeouts_in_row"] = int(entry.get("timeouts_in_row", 0)) + 1
        if entry["timeouts_in_row"] >= TIMEOUTS_BEFORE_ABANDON:
            _take_over_locked(series, seat, game, Conduct.Reason.TIMEOUTS)
        series.save(update_fields=["seats"])
        return version


def note_player_acted_locked(series: Series, seat: int) -> None:
    """A person acted themselves: their run of timeouts is over."""
    entry = _entry(series, seat)
    if entry.get("timeouts_in_row"):
        entry["timeouts_in_row"] = 0
        Series.objects.filter(pk=series.pk).update(seats=series.seats)


def _entry(series: Series, position: int) -> dict[str, Any]:
    for entry in series.seats:
        if int(entry["position"]) == position:
            return entry
    raise InvalidRequestError("No such seat in this series.")


def _user_at(series: Series, position: int) -> int | None:
    return _entry(series, position).get("user_id")


def _take_over_locked(series: Series, position: int, game: Game | None, reason: str) -> None:
    """A Casual bot takes ``position`` for the rest of the series. Caller saves series."""
    entry = _entry(series, position)
    user_id = entry.get("user_id")
    if not user_id:
        return
    entry["away_user_id"] = user_id
    entry["user_id"] = None
    entry["bot_level"] = TAKEOVER_LEVEL
    entry["timeouts_in_row"] = 0
    Conduct.objects.create(user_id=user_id, series=series, game=game, position=position,
                           kind=Conduct.Kind.ABANDON, reason=reason)
    publish.on_commit_table_changed(series.table_id)
    publish.on_commit_notice(series.table_id,
                             f"{entry.get('name', 'A player')} left the table; a Casual bot "
                             "plays their seat.")
    if game is not None and game.status == Game.Status.PLAYING:
        schedule.on_commit_after_change(game.pk, game.version)


def abandon_if_disconnected(game_id: int, expected_version: int) -> bool:
    """60 s disconnected on one's own turn: a bot takes the seat (no-op otherwise)."""
    from games.services.play import lock_game

    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except NotFoundError:
            return False
        if game.status != Game.Status.PLAYING or game.version != expected_version or game.paused:
            return False
        state = engine.GameState.from_dict(game.state)
        seat_position = state.turn
        if seat_position is None or seat_position not in human_positions(game.series):
            return False
        seat = Seat.objects.filter(table_id=game.series.table_id, position=seat_position).first()
        if seat is None or seat.connections > 0 or seat.disconnected_at is None:
            return False
        absent_since = max(seat.disconnected_at, game.turn_started_at or seat.disconnected_at)
        if timezone.now() - absent_since < timedelta(seconds=DISCONNECT_GRACE_SECONDS):
            return False
        series = Series.objects.select_for_update().get(pk=game.series_id)
        _take_over_locked(series, seat_position, game, Conduct.Reason.DISCONNECT)
        series.save(update_fields=["seats"])
        game.turn_deadline = None
        game.save(update_fields=["turn_deadline"])
        return True


def reclaim_seat(table_id: int, user: AbstractBaseUser | None) -> int:
    """A player whose seat a bot took comes back to a casual table and sits again."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError("Sign in to reclaim your seat.")
    with transaction.atomic():
        series = (Series.objects.select_for_update()
                  .filter(table_id=table_id, status=Series.Status.PLAYING)
                  .select_related("table").order_by("-number").first())
        if series is None:
            raise InvalidRequestError("No series is being played at this table.")
        if series.ranked:
            raise PermissionDeniedError("A seat left at a ranked table cannot be reclaimed.")
        for entry in series.seats:
            if entry.get("away_user_id") == user.pk:
                entry["user_id"] = user.pk
                entry["bot_level"] = ""
                entry.pop("away_user_id")
                series.save(update_fields=["seats"])
                position = int(entry["position"])
                game = series.games.filter(status=Game.Status.PLAYING).first()
                Conduct.objects.create(user=user, series=series, game=game, position=position,
                                       kind=Conduct.Kind.RECLAIM, reason=Conduct.Reason.RETURNED)
                if game is not None:
                    locked = Game.objects.select_for_update().get(pk=game.pk)
                    state = engine.GameState.from_dict(locked.state)
                    if state.turn == position:
                        arm_turn_clock_locked(locked, state, series.table)
                        locked.save(update_fields=["turn_started_at", "turn_deadline"])
                publish.on_commit_table_changed(table_id)
                return position
        raise InvalidRequestError("You have no seat to reclaim at this table.")
