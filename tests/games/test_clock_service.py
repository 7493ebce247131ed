"""Clocks, timeouts, abandonment and reclaiming a seat, through the services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, presence
from games.errors import InvalidRequestError, NotYourSeatError, PermissionDeniedError
from games.models import Conduct, Game, Move, Series
from games.services import absence, clock, locks, play, tables
from games.services import series as series_service
from tests.games.helpers import (
    current_game,
    first_legal,
    roster_entry,
    state_of,
    users_by_position,
)


@pytest.fixture
def clocked(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="clock", turn_seconds=15))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    return table, series, current_game(series)


@pytest.fixture
def clocked_here(clocked):
    """``clocked`` with every player's table open (a socket each): a player who is
    there keeps the whole clock and the two-timeouts rule."""
    table, series, game = clocked
    for position, user in users_by_position(series).items():
        presence.touch(table.pk, f"here-{position}", user.pk)
    return clocked


def expire(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))


def test_the_deadline_is_stored_in_the_database(clocked):
    table, series, game = clocked
    game.refresh_from_db()
    assert game.turn_deadline is not None and game.turn_started_at is not None
    assert 14 <= (game.turn_deadline - game.turn_started_at).total_seconds() <= 15


def test_no_clock_no_deadline(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    assert game.turn_deadline is None and game.turn_started_at is not None


def test_timeout_plays_for_the_player_and_records_a_strike(clocked_here):
    table, series, game = clocked_here
    seat = state_of(game).turn
    expire(game)
    assert play.play_timeout(game.pk, 0) == 1
    move = Move.objects.get(game=game)
    assert (move.seat, move.source) == (seat, "timeout")
    strike = Conduct.objects.get()
    assert (strike.kind, strike.position) == ("timeout", seat)


def test_late_or_duplicate_timeout_changes_nothing(clocked_here):
    table, series, game = clocked_here
    expire(game)
    assert play.play_timeout(game.pk, 0) == 1
    assert play.play_timeout(game.pk, 0) is None  # duplicate: the version moved on
    assert Move.objects.filter(game=game).count() == 1


def test_early_timeout_does_nothing(clocked):
    table, series, game = clocked
    assert play.play_timeout(game.pk, 0) is None
    assert Move.objects.filter(game=game).count() == 0


def test_acting_in_time_clears_the_run_of_timeouts(clocked_here):
    table, series, game = clocked_here
    users = users_by_position(series)
    expire(game)
    play.play_timeout(game.pk, 0)
    state = state_of(game)
    seat = state.turn
    play.submit_action(game.pk, users[seat], first_legal(state, seat).to_dict(), 1)
    assert roster_entry(series, seat).timeouts_in_row == 0


def test_two_timeouts_in_a_row_hand_the_seat_to_a_casual_bot(clocked_here):
    table, series, game = clocked_here
    victim = state_of(game).turn
    # Make the same seat time out twice: after its first timeout, replay until it is
    # on turn again, every other seat acting in time.
    users = users_by_position(series)
    timeouts = 0
    while timeouts < 2:
        game.refresh_from_db()
        state = state_of(game)
        if state.turn == victim:
            expire(game)
            play.play_timeout(game.pk, game.version)
            timeouts += 1
        else:
            play.submit_action(game.pk, users[state.turn],
                               first_legal(state, state.turn).to_dict(), game.version)
    entry = roster_entry(series, victim)
    assert entry.bot_level == "casual" and entry.user_id is None
    assert entry.away_user_id == users[victim].pk
    assert Conduct.objects.filter(kind="abandon", reason="timeouts", position=victim).count() == 1
    game.refresh_from_db()
    with pytest.raises(NotYourSeatError):  # the player no longer holds the seat
        play.submit_action(game.pk, users[victim], {"kind": "lead", "cards": ["6C"]},
                           game.version)


def test_player_reclaims_a_seat_at_a_casual_table(clocked):
    table, series, game = clocked
    victim = state_of(game).turn
    user = users_by_position(series)[victim]
    from django.db import transaction

    with transaction.atomic():
        clock.take_over_locked(locks.lock_game(game.pk), victim, Conduct.Reason.DISCONNECT)
    assert clock.reclaim_seat(table.pk, user) == victim
    entry = roster_entry(series, victim)
    assert entry.user_id == user.pk and entry.bot_level == "" and entry.away_user_id is None
    with pytest.raises(InvalidRequestError, match="no seat to reclaim"):
        clock.reclaim_seat(table.pk, user)


def test_stranger_cannot_reclaim(clocked, cast):
    table, series, game = clocked
    with pytest.raises(InvalidRequestError):
        clock.reclaim_seat(table.pk, cast.charlie)
    with pytest.raises(PermissionDeniedError):
        clock.reclaim_seat(table.pk, None)


def test_disconnected_on_own_turn_for_60_s_a_bot_takes_over(clocked):
    table, series, game = clocked
    seat = state_of(game).turn
    user = users_by_position(series)[seat]
    absence.connected(table.pk, "conn-1", user)
    absence.disconnected(table.pk, "conn-1", user)
    assert clock.abandon_if_disconnected(game.pk, 0) is False  # not 60 s yet
    later = timezone.now() + timedelta(seconds=61)
    assert clock.abandon_if_disconnected(game.pk, 0, now=later) is True
    assert Conduct.objects.filter(kind="abandon", reason="disconnect").count() == 1


def test_disconnect_countdown_runs_only_on_own_turn(clocked):
    """Away for a long time, but the turn only just came: no takeover yet."""
    table, series, game = clocked
    seat = state_of(game).turn
    user = users_by_position(series)[seat]
    absence.connected(table.pk, "conn-1", user)
    absence.disconnected(table.pk, "conn-1", user)
    ten_minutes = timedelta(minutes=10)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() + ten_minutes)
    later = timezone.now() + ten_minutes + timedelta(seconds=30)
    assert clock.abandon_if_disconnected(game.pk, 0, now=later) is False


def test_connected_player_is_never_taken_over(clocked):
    table, series, game = clocked
    seat = state_of(game).turn
    absence.connected(table.pk, "conn-1", users_by_position(series)[seat])
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    assert clock.abandon_if_disconnected(game.pk, 0) is False


def test_r11_molodka_has_no_clock(clocked):
    """Only the seat on turn is timed; the deadline belongs to state.turn."""
    table, series, game = clocked
    game.refresh_from_db()
    state = engine.GameState.from_dict(game.state)
    assert state.turn is not None and game.turn_deadline is not None


def test_tasks_for_a_deleted_game_do_nothing(db):
    assert play.play_timeout(987654, 0) is None
    assert clock.abandon_if_disconnected(987654, 0) is False


def test_a_seat_left_at_a_ranked_table_is_not_reclaimed(clocked):
    """The leaver rule: at a ranked table the substitute keeps the seat."""
    from django.db import transaction

    table, series, game = clocked
    victim = state_of(game).turn
    user = users_by_position(series)[victim]
    with transaction.atomic():
        clock.take_over_locked(locks.lock_game(game.pk), victim, Conduct.Reason.DISCONNECT)
    Series.objects.filter(pk=series.pk).update(ranked=True)
    with pytest.raises(PermissionDeniedError, match="ranked"):
        clock.reclaim_seat(table.pk, user)
    assert roster_entry(series, victim).away_user_id == user.pk


def test_away_players_first_timeout_hands_the_seat_to_a_bot(clocked_here):
    """An absent player costs the others one clock, not two: at their first timeout the
    server plays for them and a Casual bot takes the seat (a connected player keeps the
    two-timeouts rule, above)."""
    table, series, game = clocked_here
    victim = state_of(game).turn
    user = users_by_position(series)[victim]
    presence.drop(table.pk, f"here-{victim}", user.pk)  # their page closed
    expire(game)
    assert play.play_timeout(game.pk, 0) == 1
    entry = roster_entry(series, victim)
    assert (entry.bot_level, entry.user_id, entry.away_user_id) == ("casual", None, user.pk)
    assert Conduct.objects.filter(kind="timeout", position=victim).count() == 1
    assert Conduct.objects.filter(kind="abandon", reason="disconnect",
                                  position=victim).count() == 1


def test_the_takeover_instant_is_the_absent_players_first_timeout(clocked_here):
    """What the others are shown (selectors.takeover_deadline): at a clocked table the
    turn's deadline, when that comes before the 60 s grace; nothing while they are here."""
    from games.selectors import read_takeover

    table, series, game = clocked_here
    game = Game.objects.select_related("series").get(pk=game.pk)
    victim = state_of(game).turn
    assert read_takeover(game, game.series) is None  # everyone is here
    presence.drop(table.pk, f"here-{victim}", users_by_position(series)[victim].pk)
    shown = read_takeover(game, game.series)
    assert shown == {"seat": victim, "at": game.turn_deadline.isoformat()}


def test_without_a_clock_the_takeover_comes_60_s_after_leaving_on_ones_turn(cast, full_table):
    from games.selectors import takeover_deadline

    series = series_service.start_series(full_table.pk, cast.alice)
    game = Game.objects.select_related("series").get(pk=current_game(series).pk)
    victim = state_of(game).turn
    user_id = users_by_position(series)[victim].pk
    started = game.turn_started_at.timestamp()
    # Away since before the turn began: 60 s from the turn's start (the countdown runs
    # only on one's own turn); away since later: 60 s from leaving.
    assert takeover_deadline(game, game.series, {user_id: started - 100}).timestamp() \
        == pytest.approx(started + 60)
    assert takeover_deadline(game, game.series, {user_id: started + 5}).timestamp() \
        == pytest.approx(started + 65)
    assert takeover_deadline(game, game.series, {}) is None
