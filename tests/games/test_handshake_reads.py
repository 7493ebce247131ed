"""What a table socket's handshake reads, and how often.

A handshake reads the table's facts once, for its snapshot, and answers from them who
may view a private table, who plays there and whose seat a substitute keeps warm; the
user, the suspension and the language come with the auth middleware. These tests hold
the answers to what the per-question queries answered, and the handshake to its round
trips."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Seat, SeriesSeat
from games.services import absence, clock, tables
from games.services import series as series_service
from games.snapshot import read_table_facts
from tests.games.helpers import current_game, seated_and_started
from tests.games.test_live_play import take_over
from tests.games.ws import connect, session_cookie

# Database round trips of one signed-in handshake (session, user, suspension; the
# table's facts, a statement each, the tournament match played there among them; the
# reader's blocks and mute; the spectators' chat choice; after the socket joined its
# groups, whether its game moved on or a chat line came meanwhile:
# tests/games/test_handshake_misses_nothing.py).
HANDSHAKE_ROUND_TRIPS = 15


@pytest.mark.django_db
def test_the_facts_answer_who_plays_here_and_whose_seat_is_kept_as_the_queries_do(cast,
                                                                                 full_table):
    """R18's substitute: bob's seat is kept warm while he is away, not once he gave up,
    never at a ranked table; the table's facts say so without a query of their own."""
    series = series_service.start_series(full_table.pk, cast.alice)
    take_over(current_game(series), 1)  # bob away, a substitute keeps his seat
    people = [cast.alice, cast.bob, cast.charlie]

    def answers() -> tuple[dict[str, tuple[bool, bool]], dict[str, tuple[bool, bool]]]:
        facts = read_table_facts(full_table.pk)
        assert facts is not None
        from_facts = {u.username: (facts.plays_here(u.pk), facts.keeps_seat_for(u.pk))
                      for u in people}
        from_queries = {u.username: (absence._plays_here(full_table.pk, u.pk),
                                     clock.seat_kept_for(full_table.pk, u))
                        for u in people}
        return from_facts, from_queries

    from_facts, from_queries = answers()
    assert from_facts == {"alice": (True, False), "bob": (True, True),
                          "charlie": (False, False)}
    assert from_facts == from_queries
    # Off the table's seats, bob still plays here while his series' roster keeps him.
    Seat.objects.filter(table=full_table, user=cast.bob).update(user=None)
    from_facts, from_queries = answers()
    assert from_facts["bob"] == (True, True) and from_facts == from_queries
    SeriesSeat.objects.filter(series=series, position=1).update(gave_up=True)
    from_facts, from_queries = answers()
    assert from_facts["bob"] == (True, False) and from_facts == from_queries
    SeriesSeat.objects.filter(series=series, position=1).update(gave_up=False)
    type(series).objects.filter(pk=series.pk).update(ranked=True)
    from_facts, from_queries = answers()
    assert from_facts["bob"] == (True, False) and from_facts == from_queries


class _Statements(logging.Handler):
    """Every statement Django's database layer logs, from any thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.sql.append(str(getattr(record, "sql", record.getMessage())))


@contextmanager
def statements_logged(settings) -> Iterator[_Statements]:
    """Every round trip to the database while the block runs, on every thread (a
    connection logs its statements while ``DEBUG`` is on)."""
    log = logging.getLogger("django.db.backends")
    handler, level = _Statements(), log.level
    settings.DEBUG = True
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        settings.DEBUG = False


@pytest.mark.django_db(transaction=True)
async def test_a_signed_in_handshake_reads_in_few_round_trips(cast, settings):
    """A seated player and a spectator, each signed in: the handshake up to the
    snapshot reads the table's facts and answers every question from them, instead of
    a query per question (those alone once cost 10-16 round trips)."""
    series = await database_sync_to_async(seated_and_started)(cast, "reads")
    for user in (cast.alice, cast.charlie):
        key = await session_cookie(user)
        with statements_logged(settings) as logged:
            socket = await connect(series.table_id, session=key)
            snap = await socket.receive_type("snapshot")
        assert snap["you"]["position"] == (0 if user is cast.alice else None)
        assert len(logged.sql) <= HANDSHAKE_ROUND_TRIPS, \
            "\n".join(s[:120] for s in logged.sql)
        await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_a_handshake_shows_the_reader_its_own_socket(cast):
    """The facts are read before the socket is counted (a refused one never is); the
    snapshot still shows the player connected and counts the spectator."""
    series = await database_sync_to_async(seated_and_started)(cast, "self")
    alice = await connect(series.table_id, cast.alice)
    seats = (await alice.receive_type("snapshot"))["seats"]
    assert next(s for s in seats if s["user"] == "alice")["connected"] is True
    charlie = await connect(series.table_id, cast.charlie)
    assert (await charlie.receive_type("snapshot"))["table"]["spectators"] == 1
    for socket in (alice, charlie):
        await socket.close()


@pytest.mark.django_db(transaction=True)
async def test_a_private_table_opens_to_its_seated_players_and_invitees_only(cast):
    """Who may view a private table is answered from the facts' seats: a seated player
    who is not the owner and an invitee get in, a stranger does not."""
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="secret", visibility="private"))
    await database_sync_to_async(tables.take_seat)(table.pk, cast.bob, 1)
    bob = await connect(table.pk, cast.bob)
    assert (await bob.receive_type("snapshot"))["you"]["position"] == 1
    with pytest.raises(ConnectionRefusedError):
        await connect(table.pk, cast.charlie)
    invited_key = await database_sync_to_async(_invited_session)(table, cast.charlie)
    charlie = await connect(table.pk, session=invited_key)
    assert (await charlie.receive_type("snapshot"))["you"]["position"] is None
    for socket in (bob, charlie):
        await socket.close()


def _invited_session(table, user) -> str:
    """A session of ``user`` that followed the table's invite link."""
    client = Client()
    client.force_login(user)
    client.get(f"/t/{table.invite_token}/")
    return client.cookies["sessionid"].value
