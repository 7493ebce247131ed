"""The move's rows through fixed statements (games/services/rows.py, issue 15).

The live table's hot path reads and writes its rows without the ORM's compiler: these
tests hold it to the ORM's own results (the same field values, both ways), to the lock
order Table → Series → Game inside its one locking statement (PostgreSQL), and to the
statement count that made it worth having.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import psycopg
import pytest
from django.db import OperationalError, connection, connections, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine, signals
from games.models import Game, Move, Series, SeriesSeat, Table
from games.services import play, rows
from games.services import series as series_service
from games.services.errors import StaleVersionError
from tests.games.helpers import (
    current_game,
    first_legal,
    state_of,
    up_to_the_last_move,
    users_by_position,
)
from tests.games.pg_trace import prepared_for, queries_sent
from tests.waiting import wait_for


def fields_of(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def playing(cast, full_table) -> Series:
    return series_service.start_series(full_table.pk, cast.alice)


def test_lock_playing_reads_exactly_what_the_orm_reads(playing, full_table):
    game = current_game(playing)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() + timedelta(seconds=30))
    with transaction.atomic():
        locked = rows.lock_playing(full_table.pk)
    assert locked is not None
    assert fields_of(locked.table) == fields_of(Table.objects.get(pk=full_table.pk))
    assert fields_of(locked.series) == fields_of(Series.objects.get(pk=playing.pk))
    assert fields_of(locked.game) == fields_of(Game.objects.get(pk=game.pk))
    assert isinstance(locked.game.state, dict) and locked.game.state["format"]  # JSON decoded
    assert locked.game.turn_deadline.tzinfo is not None
    orm_roster = SeriesSeat.objects.filter(series=playing).order_by("position")
    assert [fields_of(s) for s in locked.series.__dict__["_roster"]] == [
        fields_of(s) for s in orm_roster]
    assert locked.series.table is locked.table and locked.game.series is locked.series


def test_peek_playing_reads_the_locked_rows_while_another_transaction_holds_them(
        postgresql, playing, full_table):
    """The live table's unlocked refusals (play.refuse_unlocked, clock.refuse_reclaim)
    read the rows a move locks, as lock_playing reads them, without waiting for a move
    that holds them (issue 15)."""
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [full_table.pk])
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '1s'")  # a lock taken would raise
            peeked = rows.peek_playing(full_table.pk)
        holder.rollback()
        with transaction.atomic():
            locked = rows.lock_playing(full_table.pk)
        assert peeked is not None and locked is not None
        for part in ("table", "series", "game"):
            assert fields_of(getattr(peeked, part)) == fields_of(getattr(locked, part))
        assert [fields_of(s) for s in peeked.series.__dict__["_roster"]] == [
            fields_of(s) for s in locked.series.__dict__["_roster"]]
        assert rows.peek_playing(10**9) is None and rows.peek_playing("1") is None
    finally:
        holder.close()


def test_lock_playing_finds_nothing_without_a_playing_game(cast, table):
    with transaction.atomic():
        assert rows.lock_playing(table.pk) is None  # no series yet
        assert rows.lock_playing(10**9) is None  # no such table


def test_a_move_is_written_as_the_orm_would_write_it(playing, full_table):
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
    assert move.created_at is not None and move.created_at.tzinfo is not None
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 1 and stored.updated_at > before  # auto_now as the ORM sets it
    assert stored.state == state_of(stored).to_dict()
    assert stored.turn_seat == state_of(stored).turn


def test_a_move_takes_two_round_trips(postgresql, playing, full_table):
    """The BEGIN, the locking read and the roster after it; the Move and the Game with
    the COMMIT (was five: psycopg's BEGIN, the roster and the COMMIT apart, issue 15).
    The block's own COMMIT then sends nothing, and the move is stored."""
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn)
    prepared_for(full_table.pk)
    with queries_sent() as sent:
        version = play.submit_table_action(full_table.pk, users[state.turn],
                                           action.to_dict(), 0)
    assert [q.split()[:2] for q in sent] == [["BEGIN;", "EXECUTE"], ["WITH", "i0"]], sent
    assert rows.playing_read().lock_statements[0].name in sent[0]
    assert sent[1].endswith("; COMMIT")
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert connection.connection.autocommit and connection.get_autocommit()
    assert Game.objects.get(pk=game.pk).version == version == 1
    assert Move.objects.filter(game=game).count() == 1


def test_an_act_refused_under_the_lock_rolls_back_the_transaction_its_read_opened(
        postgresql, playing, full_table):
    """A stale act is refused after the locking read opened the transaction: the block's
    ROLLBACK ends it, nothing is stored, and the connection is left as Django expects
    outside a block, so the next move again takes its two round trips (issue 15)."""
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn).to_dict()
    prepared_for(full_table.pk)
    with queries_sent() as sent, pytest.raises(StaleVersionError):
        play.submit_table_action(full_table.pk, users[state.turn], action, 3)
    assert [q.split()[0] for q in sent] == ["BEGIN;", "ROLLBACK"], sent
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert connection.get_autocommit() and not connection.in_atomic_block
    assert Game.objects.get(pk=game.pk).version == 0
    with queries_sent() as sent:
        play.submit_table_action(full_table.pk, users[state.turn], action, 0)
    assert [q.split()[0] for q in sent] == ["BEGIN;", "WITH"], sent
    assert Move.objects.filter(game=game).count() == 1


def test_the_move_that_ends_a_series_takes_two_round_trips(postgresql, cast, full_table):
    """The last move of a game also stores the game's result, scores the series and
    ends it with its table (R14–R18): those writes ride in the move's own statement,
    which commits (was nine round trips: the game's, the result's, the series' and the
    table's writes each apart, and the COMMIT; issue 15). Every end hook still runs."""
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
    prepared_for(full_table.pk)
    try:
        with queries_sent() as sent:
            play.submit_table_action(full_table.pk, users[seat], action.to_dict(),
                                     game.version)
    finally:
        signals.game_finished.disconnect(dispatch_uid="test-rows-game")
        signals.series_finished.disconnect(dispatch_uid="test-rows-series")
    assert [q.split()[0] for q in sent[:2]] == ["BEGIN;", "WITH"], sent
    for table in ("games_move", "games_gameresult", "games_game", "games_series",
                  "games_table"):
        assert f'"{table}"' in sent[1], table
    assert sent[1].endswith("; COMMIT")
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


@pytest.mark.django_db(transaction=True)
def test_a_move_reads_and_writes_its_rows_in_few_statements(playing, full_table):
    """Whatever the database: two reads (the lock and the roster), the Move and the
    Game written without the ORM's compiler."""
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn)
    with CaptureQueriesContext(connection) as queries:
        play.submit_table_action(full_table.pk, users[state.turn], action.to_dict(), 0)
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert statements.count("SELECT") <= 2 and len(statements) <= 6, statements


def test_a_move_inside_a_callers_transaction_is_undone_with_it(postgresql, playing,
                                                              full_table):
    """A move commits with its own write only as the outermost transaction: inside a
    caller's, that caller's rollback still undoes it (issue 15)."""
    game = current_game(playing)
    state = state_of(game)
    users = users_by_position(playing)
    action = first_legal(state, state.turn)
    with pytest.raises(RuntimeError), transaction.atomic():
        play.submit_table_action(full_table.pk, users[state.turn], action.to_dict(), 0)
        raise RuntimeError("the caller fails after the move")
    assert Game.objects.get(pk=game.pk).version == 0
    assert not Move.objects.filter(game=game).exists()


def test_the_one_locking_statement_takes_table_series_game_in_that_order(postgresql, cast,
                                                                          full_table):
    """While another transaction holds the series row, the locking statement waits there
    holding the table (a third connection cannot take it) and not yet the game (a third
    connection can): the lock order of games/services/locks.py, in one statement."""
    playing = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(playing)
    lock = rows.playing_read().lock_statements[0].name  # games/services/prepared.py
    holder, probe = connections.create_connection("default"), \
        connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_series WHERE id = %s FOR UPDATE", [playing.pk])
        result: dict = {}
        started = threading.Event()

        def lock_in_another_session() -> None:
            try:
                started.set()
                with transaction.atomic():
                    result["locked"] = rows.lock_playing(full_table.pk)
            finally:
                connection.close()

        waiter = threading.Thread(target=lock_in_another_session)
        waiter.start()
        started.wait(5)

        def waiting_for_series() -> bool:
            with probe.cursor() as cursor:
                # (the statement's text is cut at 1 kB there: its start is its own, the
                # PREPARE in front on that thread's new connection)
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type"
                               " = 'Lock' AND (query LIKE %s OR query LIKE %s)",
                               [f"PREPARE {lock} AS %", f"BEGIN; EXECUTE {lock}(%"])
                return cursor.fetchone()[0] == 1

        wait_for(waiting_for_series, timeout=10, what="the locking statement waiting")
        probe.set_autocommit(False)
        with probe.cursor() as cursor, pytest.raises(OperationalError):
            cursor.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE NOWAIT",
                           [full_table.pk])
        probe.rollback()
        with probe.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE NOWAIT",
                           [game.pk])
        probe.rollback()
        holder.rollback()
        waiter.join(10)
        assert result["locked"].game.pk == game.pk
    finally:
        holder.close()
        probe.close()


def test_the_snapshots_read_of_series_and_game_is_the_orms(cast, table, full_table):
    """games/snapshot.py reads the latest series (playing or not) and its latest game,
    with the roster, through rows.latest_series_and_game: what selectors reads."""
    from games.selectors import current_game as orm_game
    from games.selectors import current_series as orm_series

    assert rows.latest_series_and_game(table) == (None, None)  # no series yet
    playing = series_service.start_series(full_table.pk, cast.alice)
    Series.objects.create(table=full_table, number=playing.number + 1, target=12,
                          first_dealer=0, state=playing.state)  # a newer one, no game
    for expected_series in Series.objects.filter(table=full_table).order_by("-number"):
        series, game = rows.latest_series_and_game(full_table)
        assert fields_of(series) == fields_of(orm_series(full_table))
        assert series.pk == expected_series.pk
        ormg = orm_game(orm_series(full_table))
        assert (game is None and ormg is None) or fields_of(game) == fields_of(ormg)
        assert [fields_of(s) for s in series.__dict__["_roster"]] == [
            fields_of(s) for s in SeriesSeat.objects.filter(series=series)
            .order_by("position")]
        expected_series.delete()
