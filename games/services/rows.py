"""A move's rows, read and written with statements built once (issue 15).

Every move of a live table runs the same few statements: lock the table, its playing
series and that series' current game; read the series' roster; store the Move; update
the Game. Through the ORM each of them was compiled anew for every move, on the web
process's one database thread that every other socket's move waits for: ~2.5 ms of a
move's ~6 ms of Python before any database time, and 8 round trips to PostgreSQL
(python -m tests.load play; cProfile of ``submit_table_action``). Here each statement
is built once from the models' metadata and its values go through the same field and
backend conversions the ORM applies, so the rows read and written are exactly the
ORM's; the lock, the roster and the series-and-game read take 2 round trips instead
of 4, and on PostgreSQL one (the roster's statement in the same query string). A
snapshot's facts (games/snapshot.py), read for every table at every game end
and deal, read the table's latest series, game and roster the same way.

The lock order (locks.py) holds within the one locking statement: PostgreSQL locks the
rows of ``FOR UPDATE OF t, s, g`` in that order (tests/games/test_move_rows.py checks
it). On SQLite the IMMEDIATE transaction already serialises every writer and the
clause is left out, as ``select_for_update`` does there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Generic, TypeVar

from django.db import connection, models

from games.models import Game, Series, SeriesSeat, Table
from games.services.locks import Locked
from games.services.prepared import QueryString, Statement, is_row_id, run

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns(Generic[M]):
    """A model's concrete columns in field order, read under a table alias, with the
    converters the backend applies to each value (as the ORM's compiler does)."""

    def __init__(self, model: type[M], alias: str) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.select = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self.converters: list[tuple[Any, list[Converter]]] = []
        for field in self.fields:
            column = field.get_col(alias)
            self.converters.append((column, connection.ops.get_db_converters(column)
                                    + field.get_db_converters(connection)))

    def build(self, values: Sequence[Any]) -> M:
        """A model instance from this model's slice of a row, as ``QuerySet`` makes it."""
        converted = []
        for value, (column, converters) in zip(values, self.converters, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.attnames, converted)


class PlayingRead:
    """The statements of a table's current series and game: the move's, which locks
    the table, its playing series and that series' latest game; the snapshot's, which
    reads the table's latest series (playing or not) and its latest game; and the one
    that reads a series' roster."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        self.table = Columns(Table, "t")
        self.series = Columns(Series, "s")
        self.game = Columns(Game, "g")
        self.seat = Columns(SeriesSeat, "r")
        tables = {model: quote(model._meta.db_table) for model in (Table, Series, Game,
                                                                      SeriesSeat)}

        def col(model: type[models.Model], name: str) -> str:
            return quote(model._meta.get_field(name).column)

        series_pk, game_pk, table_pk = (col(m, "id") for m in (Series, Game, Table))
        latest_game = (f"SELECT y.{game_pk} FROM {tables[Game]} y "
                       f"WHERE y.{col(Game, 'series')} = s.{series_pk} "
                       f"ORDER BY y.{col(Game, 'number')} DESC LIMIT 1")
        # The table's latest series: ``%s`` is the table (a parameter, or the locked
        # row's column), ``{playing}`` the move's "and it is being played".
        latest_series = (f"SELECT x.{series_pk} FROM {tables[Series]} x "
                         f"WHERE x.{col(Series, 'table')} = %s{{playing}} "
                         f"ORDER BY x.{col(Series, 'number')} DESC LIMIT 1")
        self.latest_series_sql = latest_series.format(playing="")  # one parameter: a table
        peek_sql = (
            f"SELECT {self.table.select}, {self.series.select}, {self.game.select} "
            f"FROM {tables[Table]} t "
            f"JOIN {tables[Series]} s ON s.{series_pk} = ("
            + latest_series.replace("%s", f"t.{table_pk}").format(
                playing=f" AND x.{col(Series, 'status')} = %s")
            + f") JOIN {tables[Game]} g ON g.{game_pk} = ({latest_game}) "
            f"WHERE t.{table_pk} = %s")
        lock_sql = peek_sql
        if connection.features.has_select_for_update_of:
            lock_sql += " FOR UPDATE OF t, s, g"
        latest_sql = (
            f"SELECT {self.series.select}, {self.game.select} FROM {tables[Series]} s "
            f"LEFT JOIN {tables[Game]} g ON g.{game_pk} = ({latest_game}) "
            f"WHERE s.{series_pk} = (" + latest_series.format(playing="") + ")")
        roster = (f"SELECT {self.seat.select} FROM {tables[SeriesSeat]} r "
                  f"WHERE r.{col(SeriesSeat, 'series')} = {{series}} "
                  f"ORDER BY r.{col(SeriesSeat, 'position')}")
        self.roster_sql = roster.format(series="%s")
        # Each read's statements, sent in one query string (games/services/prepared.py:
        # prepared once per session on PostgreSQL). There the roster rides in the same
        # string as the read before it (see _read): the same series found again by the
        # same subquery.
        self.lock_statements = [Statement(lock_sql)]
        self.peek_statements = [Statement(peek_sql)]
        self.latest_statements = [Statement(latest_sql)]
        self.together = connection.vendor == "postgresql"
        if self.together:
            playing_roster = Statement(roster.format(series="(" + latest_series.format(
                playing=f" AND x.{col(Series, 'status')} = %s") + ")"))
            self.lock_statements.append(playing_roster)
            self.peek_statements.append(playing_roster)
            self.latest_statements.append(Statement(roster.format(
                series="(" + latest_series.format(playing="") + ")")))

    def lock(self, table_id: int) -> Locked | None:
        return self._read(self.lock_statements, table_id, begin=_begins_here())

    def peek(self, table_id: int) -> Locked | None:
        """The rows :meth:`lock` locks, read without a lock."""
        return self._read(self.peek_statements, table_id)

    def _read(self, statements: list[Statement], table_id: int,
              begin: bool = False) -> Locked | None:
        """``begin``: the query string opens the transaction (``BEGIN`` first)."""
        params: list[Any] = [Series.Status.PLAYING, table_id]
        if self.together:
            params += [table_id, Series.Status.PLAYING]
        with connection.cursor() as cursor:
            run(cursor, QueryString(statements, begin=begin), params)
            row = cursor.fetchone()
            if row is None:
                return None
            n_table = len(self.table.fields)
            table = self.table.build(row[:n_table])
            series, game = self._series_and_game(cursor, row[n_table:])
        assert game is not None  # an inner join
        series.table = table
        return Locked(table, series, game)

    def latest(self, table: Table) -> tuple[Series | None, Game | None]:
        with connection.cursor() as cursor:
            run(cursor, QueryString(self.latest_statements), self.latest_params(table.pk))
            return self.latest_from(cursor, table)

    def latest_params(self, table_id: int) -> list[Any]:
        """The parameters of ``latest_statements`` for ``table_id``."""
        return [table_id, table_id] if self.together else [table_id]

    def latest_from(self, cursor: Any, table: Table) -> tuple[Series | None, Game | None]:
        """The series and game of ``latest_statements``' first result, where ``cursor``
        stands, and their roster (on PostgreSQL the next result; it may read it again, so
        nothing may follow ``latest_statements`` in a query string)."""
        row = cursor.fetchone()
        if row is None:
            return None, None
        series, game = self._series_and_game(cursor, row)
        series.table = table
        return series, game

    def _series_and_game(self, cursor: Any, row: Sequence[Any]) -> tuple[Series,
                                                                          Game | None]:
        """The series and game of a row's tail (no game: its columns are NULL), with
        the series' roster read after them and kept where selectors.roster finds it."""
        n_series = len(self.series.fields)
        series = self.series.build(row[:n_series])
        game_values = row[n_series:]
        game = None if game_values[0] is None else self.game.build(game_values)
        if game is not None:
            game.series = series
        series.__dict__["_roster"] = self._roster(cursor, series.pk)
        return series, game

    def _roster(self, cursor: Any, series_id: int) -> list[SeriesSeat]:
        """The series' seats in position order: on PostgreSQL the query string's next
        result, a statement run after the read before it (so after its locks, with a
        snapshot of its own); read by the series' id where that result is not this
        series' seats (none, or another series' that a commit between the two
        statements made the latest: never under the table's lock, which a new series
        takes first)."""
        if self.together and cursor.nextset():
            seats = [self.seat.build(values) for values in cursor.fetchall()]
            if seats and all(seat.series_id == series_id for seat in seats):
                return seats
        cursor.execute(self.roster_sql, [series_id])
        return [self.seat.build(values) for values in cursor.fetchall()]


@lru_cache(maxsize=2)
def _playing_read(vendor: str) -> PlayingRead:
    return PlayingRead()


def lock_playing(table_id: Any) -> Locked | None:
    """Lock ``table_id``'s row, its playing series and that series' latest game, in the
    lock order, with the series' roster read after the locks; None (nothing locked)
    when the table has no such series and game or does not exist. Call inside
    ``transaction.atomic``."""
    if not is_row_id(table_id):
        return None  # not an id: the caller's ORM path refuses it
    return _playing_read(connection.vendor).lock(table_id)


def peek_playing(table_id: Any) -> Locked | None:
    """The rows :func:`lock_playing` locks, read without a lock (and so possibly older
    by the time they are used): for the refusals the live table's socket gives without
    the lock, which are sure from any committed version of them
    (``play.refuse_unlocked``, ``clock.refuse_reclaim``). Under the fuzzer each of those
    compiled two ORM queries, ~60 a second per web process (issue 15)."""
    if not is_row_id(table_id):
        return None
    return _playing_read(connection.vendor).peek(table_id)


def playing_read() -> PlayingRead:
    """The statements of this connection's database (built once)."""
    return _playing_read(connection.vendor)


def latest_series_and_game(table: Table) -> tuple[Series | None, Game | None]:
    """The table's latest series (playing or not) and that series' latest game, as
    ``selectors.current_series`` and ``current_game`` read them, with the series' roster:
    a snapshot's facts (games/snapshot.py) are read for every table at every game end
    and deal, so their statements are built once too."""
    return _playing_read(connection.vendor).latest(table)


def _insert_sql(obj: models.Model) -> tuple[str, list[Any]]:
    fields = [field for field in obj._meta.concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection)
              for field in fields]
    quote = connection.ops.quote_name
    return (f"INSERT INTO {quote(obj._meta.db_table)} "
            f"({', '.join(quote(field.column) for field in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))})", values)


def _update_sql(obj: models.Model, field_names: Sequence[str]) -> tuple[str, list[Any]]:
    fields = [obj._meta.get_field(name) for name in field_names]
    values = [field.get_db_prep_save(field.pre_save(obj, False), connection)  # type: ignore[union-attr]
              for field in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)  # type: ignore[union-attr]
    return (f"UPDATE {quote(obj._meta.db_table)} SET {assignments} "
            f"WHERE {quote(obj._meta.pk.column)} = %s", [*values, obj.pk])


class Writes:
    """Row writes gathered during a locked transaction and sent together.

    New rows whose ids nobody reads afterwards (the Move log, a game's result: no
    RETURNING, auto fields filled as the ORM fills them), and updates of rows this
    transaction has locked (``obj.save(update_fields=...)``, ``auto_now`` fields set as
    the ORM sets them when sent; two updates of one object become one).

    On PostgreSQL :meth:`send` is one round trip: the inserts are data-modifying
    ``WITH`` parts of the first update, the other updates follow in the same query
    string (PostgreSQL runs every part; each INSERT's constraints hold as they would
    alone). A move was ~80 % waiting for PostgreSQL on the web process's writing thread
    (py-spy at 100 tables, issue 15), and the move that ends a game wrote five times:
    its round trip was 2.5 times a move's (python -m tests.load play, per kind).
    Elsewhere, one statement each, in order."""

    def __init__(self) -> None:
        self.inserts: list[models.Model] = []
        self.updates: dict[int, tuple[models.Model, list[str]]] = {}

    def insert(self, new: models.Model) -> None:
        self.inserts.append(new)

    def update(self, obj: models.Model, field_names: Sequence[str]) -> None:
        _, fields = self.updates.setdefault(id(obj), (obj, []))
        fields.extend(name for name in field_names if name not in fields)

    def send(self, *, then_commit: bool = False) -> None:
        """Run the writes. ``then_commit``: the caller writes nothing more in its
        transaction and has already registered its ``on_commit`` hooks. Where that
        transaction is the outermost ``atomic`` block on PostgreSQL, the same query
        string then commits it (:func:`_commits_here`): one round trip less again."""
        inserts = [_insert_sql(new) for new in self.inserts]
        updates = [_update_sql(obj, fields) for obj, fields in self.updates.values()]
        self.inserts, self.updates = [], {}
        if connection.vendor != "postgresql" or not updates:
            with connection.cursor() as cursor:
                for sql, params in [*inserts, *updates]:
                    cursor.execute(sql, params)
            return
        parts = [f"i{n} AS ({sql})" for n, (sql, _) in enumerate(inserts)]
        sql = (f"WITH {', '.join(parts)} " if parts else "") + "; ".join(
            sql for sql, _ in updates)
        if then_commit and _commits_here():
            sql += "; COMMIT"
        params = [value for _, values in [*inserts, *updates] for value in values]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def _begins_here() -> bool:
    """Whether the move's locking read may open its transaction itself, ``BEGIN`` in
    front of it in the same query string, and if so make psycopg leave the beginning to
    it. psycopg otherwise sends its ``BEGIN`` alone before a transaction's first
    statement: one round trip of the move's three, each a wait for PostgreSQL on the
    web process's writing thread and for the GIL after it (python -m tests.load, issue
    15).

    Only as the outermost ``atomic`` block on PostgreSQL (:func:`_commits_here`, where
    psycopg would begin the transaction now), with psycopg's plain ``BEGIN`` (no
    isolation level, read-only or deferrable set, which it would add). psycopg's
    autocommit is set for that, as it may be while no transaction is open, and left so
    to the block's end, where Django sets it anyway: every statement after the read
    runs in the transaction the read opened, and the block's COMMIT or ROLLBACK ends it
    (psycopg sends those whenever a transaction is open, whatever its autocommit).
    tests/games/test_move_rows.py holds a move to two round trips and a refused one to
    a clean rollback."""
    if connection.vendor != "postgresql" or not _commits_here():
        return False
    from psycopg.pq import TransactionStatus

    pg = connection.connection
    if (pg.autocommit or pg.info.transaction_status != TransactionStatus.IDLE
            or pg.isolation_level is not None or pg.read_only is not None
            or pg.deferrable is not None):
        return False
    pg.autocommit = True
    return True


def _commits_here() -> bool:
    """Whether a statement may end the current transaction with its own ``COMMIT``:
    it is the outermost ``atomic`` block (not a savepoint, not inside a caller's or a
    test case's transaction, whose rollback must still undo it).

    The block's own exit then finds the transaction committed: psycopg sends no second
    ``COMMIT`` when the server says no transaction is open, and Django runs the
    ``on_commit`` hooks as after any commit. Nothing may raise between the two: a
    rollback then would find nothing to undo (tests/games/test_move_rows.py)."""
    return (connection.in_atomic_block and len(connection.atomic_blocks) == 1
            and not connection.savepoint_ids and not connection.needs_rollback)
