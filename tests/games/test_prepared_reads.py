"""The move's and the snapshot's reads prepared once per PostgreSQL session
(games/services/prepared.py, issue 15): prepared in the first read's own query string,
never twice in one session, asked again after an error, and sent as text when turned
off. What they read is held to the ORM's in test_move_rows.py and test_fact_rows.py."""

from __future__ import annotations

import psycopg
import pytest
from django.db import OperationalError, ProgrammingError, connection, connections, transaction
from django.test import override_settings

from games.models import Series
from games.services import fact_rows, prepared, rows
from games.services import series as series_service
from tests.games.pg_trace import prepared_for, queries_sent

ASK = "SELECT name FROM pg_prepared_statements"


@pytest.fixture
def playing(cast, full_table) -> Series:
    return series_service.start_series(full_table.pk, cast.alice)


def _names_in_session() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def _lock(table_id: int) -> rows.Locked | None:
    with transaction.atomic():
        return rows.lock_playing(table_id)


def test_a_new_session_prepares_the_moves_read_in_that_reads_own_query_string(
        postgresql, playing, full_table):
    """One question to a new session (which statements it has), then the PREPAREs ride
    in front of the read's own BEGIN and EXECUTEs; the next read is one round trip with
    no PREPARE, and the session holds both statements."""
    connection.close()
    statements = rows.playing_read().lock_statements
    with queries_sent() as sent:
        locked = _lock(full_table.pk)
    assert locked is not None and locked.series.pk == playing.pk
    assert len(sent) == 3 and sent[0].startswith(ASK) and sent[2] == "COMMIT", sent
    first = sent[1].split("; ")
    assert [part.split()[0] for part in first] == [
        "PREPARE", "PREPARE", "BEGIN", "EXECUTE", "EXECUTE"], first
    assert first[0].startswith(f"PREPARE {statements[0].name} AS SELECT")
    assert "FOR UPDATE OF t, s, g" in first[0]
    with queries_sent() as sent:
        again = _lock(full_table.pk)
    assert [q.split()[:2] for q in sent] == [["BEGIN;", "EXECUTE"], ["COMMIT"]], sent
    assert again is not None and again.game.pk == locked.game.pk
    assert {s.name for s in statements} <= _names_in_session()


def test_after_an_error_the_session_is_asked_again_and_nothing_is_prepared_twice(
        postgresql, playing, full_table):
    """A read that fails (here: a lock timeout while another session holds the table)
    leaves what its string prepared unknown here: the next read asks the session again
    and, finding its statements there, sends no PREPARE (which would fail: 42P05)."""
    prepared_for(full_table.pk)
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE",
                           [full_table.pk])
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '100ms'")
        with pytest.raises(OperationalError):
            _lock(full_table.pk)
        holder.rollback()
        with queries_sent() as sent:
            locked = _lock(full_table.pk)
        assert locked is not None and locked.series.pk == playing.pk
        assert sent[0].startswith(ASK) and "PREPARE" not in " ".join(sent), sent
        assert sent[1].startswith("BEGIN; EXECUTE"), sent
    finally:
        holder.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def test_a_session_that_lost_its_statements_fails_one_read_then_prepares_them_again(
        postgresql, playing, full_table):
    """Statements deallocated behind this process's back (DISCARD ALL, DEALLOCATE): the
    next read fails (26000: no such prepared statement), and the one after it asks the
    session, prepares them again and reads."""
    prepared_for(full_table.pk)
    connection.connection.execute("DEALLOCATE ALL")
    with pytest.raises(ProgrammingError) as failed:
        _lock(full_table.pk)
    assert isinstance(failed.value.__cause__, psycopg.errors.InvalidSqlStatementName)
    with queries_sent() as sent:
        locked = _lock(full_table.pk)
    assert locked is not None and locked.series.pk == playing.pk
    assert sent[0].startswith(ASK) and sent[1].startswith("PREPARE"), sent


def test_a_session_handed_over_with_its_statements_does_not_prepare_them_again(
        postgresql, playing, full_table):
    """A pooler in session mode may hand a new connection a server session that already
    has the statements: what this process knows is only what the session says."""
    prepared_for(full_table.pk)
    prepared._known.clear()  # what a new psycopg connection to that session knows
    with queries_sent() as sent:
        locked = _lock(full_table.pk)
    assert locked is not None
    assert sent[0].startswith(ASK) and "PREPARE" not in " ".join(sent), sent


def test_the_snapshots_facts_are_read_through_prepared_statements(postgresql, playing,
                                                                  full_table):
    """A snapshot's six statements, one round trip once prepared; the same rows as
    sent as text."""
    first = fact_rows.all_facts(full_table.pk, 20)
    with queries_sent() as sent:
        facts = fact_rows.all_facts(full_table.pk, 20)
    assert len(sent) == 1 and [p.split()[0] for p in sent[0].split("; ")] == [
        "EXECUTE"] * 6, sent
    with override_settings(KOZEL_DB_PREPARED_STATEMENTS=False):
        as_text = fact_rows.all_facts(full_table.pk, 20)
    for read in (first, facts):
        assert read is not None and as_text is not None
        assert read.series.pk == as_text.series.pk == playing.pk
        assert read.game.pk == as_text.game.pk and read.game.state == as_text.game.state
        assert [s.pk for s in read.seats] == [s.pk for s in as_text.seats]
        assert [s.pk for s in read.series.__dict__["_roster"]] == [
            s.pk for s in as_text.series.__dict__["_roster"]]


@override_settings(KOZEL_DB_PREPARED_STATEMENTS=False)
def test_turned_off_the_reads_are_sent_as_text(postgresql, playing, full_table):
    """Behind a pooler in transaction mode (KOZEL_DB_PREPARED_STATEMENTS=0): no question,
    no PREPARE, the statements' own text; the same rows."""
    with queries_sent() as sent:
        locked = _lock(full_table.pk)
    assert locked is not None and locked.series.pk == playing.pk
    assert [q.split()[:2] for q in sent] == [["BEGIN;", "SELECT"], ["COMMIT"]], sent
    assert "FOR UPDATE OF t, s, g" in sent[0]


def test_a_statement_is_one_statement_with_percent_s_placeholders():
    for bad in ("SELECT 1; SELECT 2", "SELECT $1", "SELECT '%%'"):
        with pytest.raises(ValueError):
            prepared.Statement(bad)
    statement = prepared.Statement("SELECT a FROM b WHERE c = %s AND d = %s")
    assert statement.prepare.endswith("AS SELECT a FROM b WHERE c = $1 AND d = $2")
    assert statement.execute == f"EXECUTE {statement.name}(%s, %s)"
    assert prepared.Statement(statement.sql).name == statement.name
    assert prepared.Statement(statement.sql + " LIMIT 1").name != statement.name


def test_the_session_question_opens_no_transaction(postgresql, playing, full_table):
    """Asked outside a block, in Django's autocommit mode, the question leaves no
    transaction open."""
    connection.close()
    assert rows.peek_playing(full_table.pk) is not None
    assert connection.connection.info.transaction_status == \
        psycopg.pq.TransactionStatus.IDLE


@pytest.mark.parametrize("table_id", [10**30, -(10**30), 2**63])
def test_an_id_out_of_bigints_range_names_no_table(postgresql, playing, full_table,
                                                   table_id):
    """A URL's /ws/table/<30 digits>/: as text such an id matched no row; as a prepared
    statement's bigint parameter it would be an error (python -m tests.load fuzz found
    the 500 under its forbidden handshakes). It names no table, and the session is left
    usable."""
    assert rows.lock_playing(table_id) is None
    assert rows.peek_playing(table_id) is None
    assert fact_rows.all_facts(table_id, 20) is None
    assert _lock(full_table.pk) is not None


def test_the_largest_bigint_is_still_an_id(postgresql, playing, full_table):
    assert prepared.is_row_id(prepared.MAX_ID) and not prepared.is_row_id(True)
    assert rows.peek_playing(prepared.MAX_ID) is None  # read, and no such table
