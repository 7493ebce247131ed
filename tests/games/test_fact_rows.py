"""A snapshot's facts through statements built once (games/services/fact_rows.py, issue 15).

The seats with their players' profiles, the series' results and the recent chat are
read without the ORM's compiler at every game end, deal, connect and resync; these tests
hold each read to the ORM's own (every field, the related rows where
``select_related`` puts them, the order) and the snapshot built from them to the
statements that made it worth having.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games.models import ChatMessage, Game, GameResult, Seat, Table
from games.selectors import roster
from games.services import chat, fact_rows, rows, tables
from games.services import series as series_service
from games.snapshot import CHAT_FETCH, read_table_facts, table_facts
from tests.games.helpers import current_game, play_out_game, users_by_position


def fields_of(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def person_of(obj) -> tuple | None:
    """An object's user and that user's profile, as cached on it (no query)."""
    user = obj._state.fields_cache["user"]
    if user is None:
        return None
    profile = user._state.fields_cache["profile"]
    return fields_of(user), None if profile is None else fields_of(profile)


@pytest.fixture
def played(cast, full_table):
    """A series whose first game was played out and second voided by hand, with chat."""
    series = series_service.start_series(full_table.pk, cast.alice)
    play_out_game(current_game(series), users_by_position(series))
    Profile.objects.update_or_create(user=cast.bob, defaults={"display_name": "Bobby"})
    Profile.objects.filter(user=cast.dan).delete()  # an account whose profile is gone
    for user, text in [(cast.alice, "hi"), (cast.bob, "hello"), (cast.carol, "gl")]:
        chat.post_message(full_table.pk, user, text)
    ChatMessage.objects.filter(text="hello").update(hidden=True)
    return series


def test_seats_are_the_orms_with_users_and_profiles_r1(played, full_table, cast):
    Seat.objects.filter(table=full_table, position=2).update(user=None)  # an empty seat
    orm = list(Seat.objects.filter(table=full_table).select_related("user__profile")
               .order_by("position"))
    with CaptureQueriesContext(connection) as queries:
        read = fact_rows.seats(full_table.pk)
        people = [person_of(seat) for seat in read]
    assert len(queries) == 1  # users and profiles came in the one statement
    assert [fields_of(s) for s in read] == [fields_of(s) for s in orm]
    assert people == [person_of(seat) for seat in orm]
    assert people[2] is None and people[3][1] is None  # the empty seat, dan's lost profile
    assert read[1].occupant_label == orm[1].occupant_label == "Bobby"


def test_results_are_the_orms_for_finished_and_voided_games_r16(played, full_table):
    first = played.games.get(number=1)
    GameResult.objects.create(game=Game.objects.create(
        series=played, number=99, seed=1, algorithm=1, dealer=0, first_leader=1,
        trump_card="TD", status=Game.Status.VOIDED, state={}),
        points_a=60, points_b=60, tricks_a=4, tricks_b=5, loss_points_a=0,
        loss_points_b=0, eggs=True, last_taker=1)
    orm = list(played.games.filter(status__in=[Game.Status.FINISHED, Game.Status.VOIDED],
                                   result__isnull=False).select_related("result"))
    read = fact_rows.results(played.pk)
    assert [(g, n, s, fields_of(r)) for g, n, s, r in read] == [
        (g.pk, g.number, g.status, fields_of(g.result)) for g in orm]
    assert read[0][0] == first.pk and read[-1][2] == Game.Status.VOIDED
    assert read[-1][3].eggs is True  # a boolean on every backend, as the ORM gives it


def test_recent_chat_is_the_orms_newest_first_without_hidden_lines(played, full_table):
    orm = list(ChatMessage.objects.filter(table=full_table, hidden=False)
               .select_related("user__profile").order_by("-created_at")[:2])
    read = fact_rows.recent_chat(full_table.pk, 2)
    assert [fields_of(m) for m in read] == [fields_of(m) for m in orm]
    assert [person_of(m) for m in read] == [person_of(m) for m in orm]
    assert [m.text for m in read] == ["gl", "hi"]  # "hello" is hidden


def test_a_snapshots_facts_take_few_round_trips_with_chat_and_results(played, full_table):
    """The latest series and game, the roster, the seats, the results, the chat: none
    compiled anew, and no related row read lazily afterwards. Five statements; on
    PostgreSQL the roster rides with the series and game, four round trips."""
    with CaptureQueriesContext(connection) as queries:
        facts = table_facts(full_table)
    together = connection.vendor == "postgresql"
    assert len(queries) == (4 if together else 5), [q["sql"][:60] for q in queries]
    assert [g["number"] for g in facts.games] == [1]
    assert len(facts.recent_chat) == 2 and len(facts.recent_chat) <= CHAT_FETCH
    assert all(line.table is full_table for line in facts.recent_chat)


def test_the_table_is_the_orms_with_its_owner(played, full_table):
    orm = Table.objects.select_related("owner").filter(pk=full_table.pk).first()
    with CaptureQueriesContext(connection) as queries:
        read = fact_rows.table(full_table.pk)
        owner = read._state.fields_cache["owner"]
    assert len(queries) == 1
    assert fields_of(read) == fields_of(orm) and fields_of(owner) == fields_of(orm.owner)
    assert fact_rows.table(10**9) is None


def results_fields(results) -> list[tuple]:
    return [(g, n, s, fields_of(r)) for g, n, s, r in results]


def test_all_of_a_tables_facts_are_the_separate_reads_in_one_round_trip(played, full_table):
    """A live table's socket reads its table's facts at every connect, resync and refresh
    notice (issue 15): on PostgreSQL the six statements (the table, its seats, the chat,
    the results, the latest series and game, the roster) travel in one query string,
    and each gives exactly what it gives on its own."""
    with CaptureQueriesContext(connection) as queries:
        read = fact_rows.all_facts(full_table.pk, CHAT_FETCH)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 6)
    table = fact_rows.table(full_table.pk)
    series, game = rows.latest_series_and_game(table)
    assert fields_of(read.table) == fields_of(table)
    assert fields_of(read.table.owner) == fields_of(table.owner)
    assert fields_of(read.series) == fields_of(series) and read.series.pk == played.pk
    assert fields_of(read.game) == fields_of(game) and read.game.series is read.series
    assert [fields_of(r) for r in roster(read.series)] == [fields_of(r) for r in roster(series)]
    seats = fact_rows.seats(full_table.pk)
    assert [fields_of(s) for s in read.seats] == [fields_of(s) for s in seats]
    assert [person_of(s) for s in read.seats] == [person_of(s) for s in seats]
    assert results_fields(read.results) == results_fields(fact_rows.results(played.pk))
    assert [g for g, *_ in read.results] == [played.games.get(number=1).pk]
    chat_lines = fact_rows.recent_chat(full_table.pk, CHAT_FETCH)
    assert [fields_of(m) for m in read.chat] == [fields_of(m) for m in chat_lines]
    assert [person_of(m) for m in read.chat] == [person_of(m) for m in chat_lines]
    assert fact_rows.all_facts(10 ** 9, CHAT_FETCH) is None
    with CaptureQueriesContext(connection) as queries:
        facts = read_table_facts(full_table.pk)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 6)
    assert facts.games == table_facts(full_table).games and facts.game.pk == game.pk


def test_a_table_with_no_series_yet_has_no_game_and_no_results(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="empty"))
    read = fact_rows.all_facts(table.pk, CHAT_FETCH)
    assert read.table.pk == table.pk and read.series is None and read.game is None
    assert read.results == [] and read.chat == [] and len(read.seats) == 4


def test_results_that_name_another_series_are_read_again_for_the_latest(played):
    """A series begun between the statements of the one query string (its results read
    for the older one): the results are read again by the latest series' id."""
    reads = fact_rows._reads(connection.vendor)
    first = played.games.get(number=1)
    elsewhere = (played.pk + 1, first.pk + 1, 7, "finished")  # another series' row
    again = reads.results_of(played, [elsewhere])
    assert results_fields(again) == results_fields(fact_rows.results(played.pk))
    assert [g for g, *_ in again] == [first.pk]
    assert reads.results_of(None, [elsewhere]) == []
