"""A snapshot's shared facts (games/snapshot.py) read with statements built once.

Every socket at a table is told to refresh when a game ends and when the next one is
dealt, and a process reads the table's facts once per such notice; a connect and a
resync read them too. Through the ORM, the seats with their players' profiles, the
series' results and the recent chat were compiled anew each time: at 100 tables the
facts were 29 % of the web processes' GIL samples (py-spy ``--gil``; ``python -m
tests.load play``), most of it Django building SQL, and every move of every table
waited behind them at the wave of game ends. Here those statements, and the socket's
read of its table with the owner, are built once from the models' metadata; the
instances they make are the ORM's, related rows included where ``select_related``
would put them (tests/games/test_fact_rows.py compares the two).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, models

from accounts.models import Profile
from games.models import ChatMessage, Game, GameResult, Seat, Series, Table
from games.services import rows
from games.services.prepared import QueryString, Statement, is_row_id, run
from games.services.rows import Columns

Result = tuple[int, int, str, GameResult]  # a game's id, number, status and result


@dataclass(frozen=True)
class FactRows:
    """The rows of a table's snapshot facts (games/snapshot.py): the table with its owner,
    its latest series (with the roster) and that series' latest game, its seats, that
    series' played-out games' results and the newest shown chat lines."""

    table: Table
    series: Series | None
    game: Game | None
    seats: list[Seat]
    results: list[Result]
    chat: list[ChatMessage]


def _attach(instance: models.Model, name: str, related: models.Model | None) -> None:
    """Cache ``related`` as ``instance.<name>`` as ``select_related`` does: a forward
    foreign key, or a reverse one-to-one (whose other side points back; a missing row is
    cached as None, so reading it raises ``DoesNotExist`` as after the ORM's join)."""
    field = instance._meta.get_field(name)
    field.set_cached_value(instance, related)  # type: ignore[union-attr]
    if related is not None and field.one_to_one and not field.concrete:
        field.remote_field.set_cached_value(related, instance)  # type: ignore[union-attr]


class FactReads:
    """The statements: a table with its owner; a table's seats with user and profile;
    a series' played-out games' results; a table's latest shown chat lines with user
    and profile."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        user_model = get_user_model()
        self.table_columns = Columns(Table, "t")
        self.seat_columns = Columns(Seat, "a")
        self.chat_columns = Columns(ChatMessage, "c")
        self.user_columns = Columns(user_model, "u")
        self.profile_columns = Columns(Profile, "p")
        self.result_columns = Columns(GameResult, "r")

        def table(model: type[models.Model]) -> str:
            return quote(model._meta.db_table)

        def col(model: type[models.Model], name: str) -> str:
            return quote(model._meta.get_field(name).column)

        user_pk = col(user_model, "id")
        person = f"{self.user_columns.select}, {self.profile_columns.select}"
        people = f"LEFT JOIN {table(Profile)} p ON p.{col(Profile, 'user')} = u.{user_pk}"
        self.table_sql = (
            f"SELECT {self.table_columns.select}, {self.user_columns.select} "
            f"FROM {table(Table)} t JOIN {table(user_model)} u "
            f"ON u.{user_pk} = t.{col(Table, 'owner')} WHERE t.{col(Table, 'id')} = %s")
        self.seats_sql = (
            f"SELECT {self.seat_columns.select}, {person} "
            f"FROM {table(Seat)} a LEFT JOIN {table(user_model)} u "
            f"ON u.{user_pk} = a.{col(Seat, 'user')} {people} "
            f"WHERE a.{col(Seat, 'table')} = %s ORDER BY a.{col(Seat, 'position')}")
        self.results_sql = (
            f"SELECT g.{col(Game, 'id')}, g.{col(Game, 'number')}, g.{col(Game, 'status')}, "
            f"{self.result_columns.select} FROM {table(Game)} g "
            f"JOIN {table(GameResult)} r ON r.{col(GameResult, 'game')} = g.{col(Game, 'id')} "
            f"WHERE g.{col(Game, 'series')} = %s AND g.{col(Game, 'status')} IN (%s, %s) "
            f"ORDER BY g.{col(Game, 'number')}")
        self.chat_sql = (
            f"SELECT {self.chat_columns.select}, {person} "
            f"FROM {table(ChatMessage)} c JOIN {table(user_model)} u "
            f"ON u.{user_pk} = c.{col(ChatMessage, 'user')} {people} "
            f"WHERE c.{col(ChatMessage, 'table')} = %s AND NOT c.{col(ChatMessage, 'hidden')} "
            f"ORDER BY c.{col(ChatMessage, 'created_at')} DESC LIMIT %s")

        # On PostgreSQL all of a table's facts in one query string, one round trip
        # instead of five (the fuzzer's resyncs read them ~15 times a second per web
        # process, and each statement's own round trip was most of its cost: py-spy,
        # python -m tests.load fuzz, issue 15). The latest series and game come last:
        # their roster may be read again. The results name their series, which a commit
        # between two statements could have made an older one than the latest.
        self.together = connection.vendor == "postgresql"
        playing = rows.playing_read()
        self.results_of_latest_sql = self.results_sql.replace(
            "SELECT ", f"SELECT g.{col(Game, 'series')}, ", 1).replace(
            f"g.{col(Game, 'series')} = %s",
            f"g.{col(Game, 'series')} = ({playing.latest_series_sql})")
        self.all_statements = [Statement(sql) for sql in (
            self.table_sql, self.seats_sql, self.chat_sql, self.results_of_latest_sql)
        ] + playing.latest_statements

    def all(self, table_id: int, chat_limit: int) -> FactRows | None:
        """A table's :class:`FactRows`: one round trip on PostgreSQL (a second only when
        a series began between the statements), else one statement each."""
        if not self.together:
            table = self.table(table_id)
            return None if table is None else self.of_table(table, chat_limit)
        params = [table_id, table_id, table_id, chat_limit, table_id, Game.Status.FINISHED,
                  Game.Status.VOIDED, *rows.playing_read().latest_params(table_id)]
        with connection.cursor() as cursor:
            run(cursor, QueryString(self.all_statements), params)
            table = self._table_from(cursor.fetchone())
            if table is None:
                return None
            cursor.nextset()
            seats = self._people_from(cursor.fetchall(), self.seat_columns)
            cursor.nextset()
            chat = self._people_from(cursor.fetchall(), self.chat_columns)
            cursor.nextset()
            results = cursor.fetchall()
            cursor.nextset()
            series, game = rows.playing_read().latest_from(cursor, table)
        return FactRows(table, series, game, seats,
                        self.results_of(series, results), chat)

    def of_table(self, table: Table, chat_limit: int) -> FactRows:
        """``table``'s :class:`FactRows`, one statement each."""
        series, game = rows.latest_series_and_game(table)
        return FactRows(table, series, game, self.seats(table.pk),
                        self.results(series.pk) if series is not None else [],
                        self.chat(table.pk, chat_limit))

    def results_of(self, series: Series | None, found: list[Any]) -> list[Result]:
        """The results of ``series`` from rows of ``results_of_latest_sql``; read again
        by the series' id when they belong to another series (none: none)."""
        if series is None:
            return []
        if any(row[0] != series.pk for row in found):
            return self.results(series.pk)
        return [self._result(row[1:]) for row in found]

    def _result(self, row: Any) -> Result:
        return row[0], row[1], row[2], self.result_columns.build(row[3:])

    def _person(self, values: list[Any]) -> Any:
        """The user from a row's tail, their profile attached (None for an empty LEFT
        JOIN)."""
        n_user = len(self.user_columns.fields)
        if values[0] is None:
            return None
        user = self.user_columns.build(values[:n_user])
        profile_values = values[n_user:]
        _attach(user, "profile",
                None if profile_values[0] is None else self.profile_columns.build(profile_values))
        return user

    def _with_person(self, sql: str, params: list[Any], head: Columns[Any]) -> list[Any]:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return self._people_from(cursor.fetchall(), head)

    def _people_from(self, found: list[Any], head: Columns[Any]) -> list[Any]:
        """Instances of ``head`` from rows that end with a person (user and profile)."""
        n_head = len(head.fields)
        made = []
        for row in found:
            instance = head.build(row[:n_head])
            _attach(instance, "user", self._person(list(row[n_head:])))
            made.append(instance)
        return made

    def table(self, table_id: int) -> Table | None:
        with connection.cursor() as cursor:
            cursor.execute(self.table_sql, [table_id])
            return self._table_from(cursor.fetchone())

    def _table_from(self, row: Any) -> Table | None:
        if row is None:
            return None
        n_table = len(self.table_columns.fields)
        table = self.table_columns.build(row[:n_table])
        _attach(table, "owner", self.user_columns.build(row[n_table:]))
        return table

    def seats(self, table_id: int) -> list[Seat]:
        return self._with_person(self.seats_sql, [table_id], self.seat_columns)

    def chat(self, table_id: int, limit: int) -> list[ChatMessage]:
        return self._with_person(self.chat_sql, [table_id, limit], self.chat_columns)

    def results(self, series_id: int) -> list[Result]:
        with connection.cursor() as cursor:
            cursor.execute(self.results_sql, [series_id, Game.Status.FINISHED,
                                              Game.Status.VOIDED])
            return [self._result(row) for row in cursor.fetchall()]


@lru_cache(maxsize=2)
def _reads(vendor: str) -> FactReads:
    return FactReads()


def table(table_id: int) -> Table | None:
    """``Table.objects.select_related("owner").filter(pk=table_id).first()``: the socket
    reads it at every connect and resync."""
    return _reads(connection.vendor).table(table_id)


def seats(table_id: int) -> list[Seat]:
    """``Seat.objects.filter(table=...).select_related("user__profile")
    .order_by("position")``."""
    return _reads(connection.vendor).seats(table_id)


def all_facts(table_id: int, chat_limit: int) -> FactRows | None:
    """A table's snapshot rows (:class:`FactRows`), None for no such table: one round
    trip on PostgreSQL."""
    if not is_row_id(table_id):
        return None
    return _reads(connection.vendor).all(table_id, chat_limit)


def facts_of(table: Table, chat_limit: int) -> FactRows:
    """The snapshot rows of ``table``, already read: one statement each."""
    return _reads(connection.vendor).of_table(table, chat_limit)


def results(series_id: int) -> list[Result]:
    """The series' finished and voided games that have a result, in number order: each
    game's id, number and status with its ``GameResult``."""
    return _reads(connection.vendor).results(series_id)


def recent_chat(table_id: int, limit: int) -> list[ChatMessage]:
    """The table's newest ``limit`` shown chat lines, newest first, with user and
    profile (``select_related("user__profile")``)."""
    return _reads(connection.vendor).chat(table_id, limit)
