"""A move's rows: what a move stores, what a refused act leaves alone, and the lock order
Table → Series → Game its transaction takes on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.forms.models import model_to_dict

from games import engine, signals
from games.errors import (
    GameOverError,
    IllegalMoveError,
    NotFoundError,
    NotYourSeatError,
    StaleVersionError,
)
from games.models import Game, Move, Series, Table
from games.services import play
from games.services import series as series_service
from games.snapshot import read_table_facts
from tests.games.helpers import (
    current_game,
    first_legal,
    state_of,
    up_to_the_last_move,
    users_by_position,
)
from tests.waiting import wait_for


@pytest.fixture
def playing(cast, full_table) -> Series:
    return series_service.start_series(full_table.pk, cast.alice)


def test_a_move_stores_the_move_and_the_new_game_state(playing, full_table):
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    before = Game.objects.get(pk=game.pk).updated_at
    action = first_legal(state, state.turn)
    assert play.submit_table_action(full_table.pk, users[state.turn], action.to_dict(), 0) == 1
    move = Move.objects.get(game=game)
    assert model_to_dict(move, exclude=["id"]) == {
        "game": game.pk, "seq": 1, "seat": state.turn, "kind": action.kind,
        "cards": [c.code for c in action.cards], "source": "player"}
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 1 and stored.updated_at > before
    assert stored.state == engine.apply(state, state.turn, action).to_dict()
    assert stored.turn_seat == state_of(stored).turn


def _stored(game: Game) -> tuple[Any, ...]:
    stored = Game.objects.get(pk=game.pk)
    return (stored.version, stored.state, stored.turn_seat, stored.turn_deadline,
            Move.objects.filter(game=game).count())


def test_a_refused_act_changes_nothing(playing, full_table):
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn).to_dict()
    other = next(seat for seat in users if seat != state.turn)
    before = _stored(game)
    with pytest.raises(StaleVersionError) as stale:
        play.submit_table_action(full_table.pk, users[state.turn], action, 3)
    assert stale.value.current_version == 0
    with pytest.raises(NotYourSeatError):
        play.submit_table_action(full_table.pk, None, action, 0)
    with pytest.raises(IllegalMoveError):
        play.submit_table_action(full_table.pk, users[other], action, 0)
    assert _stored(game) == before


@pytest.mark.django_db(transaction=True)
def test_the_move_that_ends_a_series_stores_the_result_and_ends_it(cast, full_table):
    """The last move of a game also stores the game's result, scores the series and ends
    it with its table (R14–R18); every end hook runs after the commit."""
    Table.objects.filter(pk=full_table.pk).update(series_target=1)  # a game decides it
    playing = series_service.start_series(full_table.pk, cast.alice)
    users = users_by_position(playing)
    game, action = up_to_the_last_move(playing, users, decided=True)
    seat = state_of(game).turn
    ended: list[tuple[str, int]] = []

    def note(sender, **kwargs):
        ended.append((kwargs.get("termination", "game"), kwargs["series_id"]))

    signals.game_finished.connect(note, dispatch_uid="test-rows-game")
    signals.series_finished.connect(note, dispatch_uid="test-rows-series")
    try:
        play.submit_table_action(full_table.pk, users[seat], action.to_dict(), game.version)
    finally:
        signals.game_finished.disconnect(dispatch_uid="test-rows-game")
        signals.series_finished.disconnect(dispatch_uid="test-rows-series")
    assert ended == [("game", playing.pk), ("completed", playing.pk)]
    stored = Game.objects.select_related("result").get(pk=game.pk)
    result = engine.outcome(state_of(stored))
    assert stored.status == Game.Status.FINISHED and stored.termination == "completed"
    assert (stored.result.loss_points_a, stored.result.loss_points_b) == (
        result.loss_points["A"], result.loss_points["B"])
    series = Series.objects.get(pk=playing.pk)
    assert series.status == Series.Status.FINISHED and series.winner == result.winner
    assert series.loss_points_a + series.loss_points_b > 0
    assert Table.objects.get(pk=full_table.pk).status == Table.Status.FINISHED
    assert Move.objects.filter(game=game).count() == stored.version


def test_an_act_naming_an_ended_game_changes_nothing(playing, full_table):
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    with pytest.raises(GameOverError):
        play.submit_table_action(full_table.pk, users[state.turn],
                                 first_legal(state, state.turn).to_dict(), 0, game.pk)
    assert not Move.objects.filter(game=game).exists()


def test_an_act_at_a_table_id_no_table_can_have_is_not_found(cast, playing):
    """A URL's /ws/table/<30 digits>/ reaches the service as such an id."""
    for table_id in (10 ** 9, 2 ** 63, 10 ** 30):
        with pytest.raises(NotFoundError):
            play.submit_table_action(table_id, cast.alice, {"kind": "lead", "cards": ["6C"]}, 0)
        assert read_table_facts(table_id) is None


def test_a_move_inside_a_callers_transaction_is_undone_with_it(postgresql, playing,
                                                              full_table):
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn)
    with pytest.raises(RuntimeError), transaction.atomic():
        play.submit_table_action(full_table.pk, users[state.turn], action.to_dict(), 0)
        raise RuntimeError("the caller fails after the move")
    assert Game.objects.get(pk=game.pk).version == 0
    assert not Move.objects.filter(game=game).exists()


# --- the lock order on PostgreSQL ------------------------------------------------------

ROWS = {"table": "games_table", "series": "games_series", "game": "games_game"}


@contextmanager
def _other_connection() -> Iterator[Any]:
    other = connections.create_connection("default")
    try:
        other.set_autocommit(False)
        yield other
    finally:
        other.rollback()
        other.close()


def _free(probe: Any, row: str, pk: int) -> bool:
    """Whether ``probe`` (another session) can lock the row at once."""
    try:
        with probe.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {ROWS[row]} WHERE id = %s FOR UPDATE NOWAIT", [pk])
        return True
    except OperationalError:
        return False
    finally:
        probe.rollback()


def _in_a_thread(body: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        try:
            body()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _waiting_for_a_lock(probe: Any) -> bool:
    with probe.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                       "current_database() AND wait_event_type = 'Lock'")
        waiting = cursor.fetchone()[0] == 1
    probe.rollback()
    return waiting


def test_a_moves_transaction_holds_its_table_series_and_game(postgresql, playing,
                                                            full_table):
    """Until a move commits, no other session can lock its table, series or game."""
    game = current_game(playing)
    state = state_of(game)
    user = users_by_position(playing)[state.turn]
    action = first_legal(state, state.turn).to_dict()
    moved, release = threading.Event(), threading.Event()

    def move_and_hold() -> None:
        with transaction.atomic():
            play.submit_table_action(full_table.pk, user, action, 0)
            moved.set()
            release.wait(10)

    mover = _in_a_thread(move_and_hold)
    try:
        assert moved.wait(10)
        with _other_connection() as probe:
            ids = {"table": full_table.pk, "series": playing.pk, "game": game.pk}
            assert [row for row in ROWS if _free(probe, row, ids[row])] == []
            release.set()
            mover.join(10)
            assert [row for row in ROWS if _free(probe, row, ids[row])] == list(ROWS)
    finally:
        release.set()
        mover.join(10)
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_move_locks_table_series_game_in_that_order(postgresql, playing, full_table):
    """While another session holds the series row, a move waits there holding the table
    (a third session cannot take it) and not yet the game (a third session can)."""
    game = current_game(playing)
    state = state_of(game)
    user = users_by_position(playing)[state.turn]
    action = first_legal(state, state.turn).to_dict()
    result: dict[str, int] = {}
    with _other_connection() as holder, _other_connection() as probe:
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_series WHERE id = %s FOR UPDATE", [playing.pk])
        mover = _in_a_thread(lambda: result.update(
            version=play.submit_table_action(full_table.pk, user, action, 0)))
        try:
            wait_for(lambda: _waiting_for_a_lock(probe), timeout=10,
                     what="the move waiting for the series")
            assert not _free(probe, "table", full_table.pk)
            assert _free(probe, "game", game.pk)
        finally:
            holder.rollback()
            mover.join(10)
    assert result == {"version": 1}
