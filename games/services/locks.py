"""The one lock order of live play: **Table → Series → Game**.

Every transaction that locks more than one of a table, its series and a game takes its
locks through this module, one ``select_for_update`` read each in that order, so two
paths can never wait on each other in a cycle (a move finishing a series writes the
table; the empty-table sweep and a vote start from the table or the series). Each row is
read *under* its lock: callers work on the returned objects and never write a row from a
copy read before the lock.

On PostgreSQL these are ``SELECT ... FOR UPDATE`` row locks; on SQLite the IMMEDIATE
transaction already serialises every writer and the locks are no-ops. Call everything
here inside ``transaction.atomic``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.errors import InvalidRequestError, NotFoundError
from games.models import Game, Series, Table


@dataclass
class Locked:
    """A table, its series and one of its games, each locked, in the lock order."""

    table: Table
    series: Series
    game: Game


def _valid_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise NotFoundError(_("No such game."))
    return value


def lock_table(table_id: Any) -> Table:
    """Lock and return the table row (first in the order)."""
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise NotFoundError(_("No such table."))
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFoundError(_("No such table."))
    return table


def _lock_series_row(series_id: int, table: Table) -> Series:
    series = Series.objects.select_for_update().get(pk=series_id)
    series.table = table
    return series


def _lock_game_row(game_id: int, series: Series) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    game.series = series
    return game


def lock_game(game_id: Any) -> Locked:
    """Lock the game's table, its series, then the game itself.

    The ids are read first without a lock: they never change for a game, so the
    locks that follow are taken on the right rows in the right order.
    """
    ids = (Game.objects.filter(pk=_valid_id(game_id))
           .values_list("series_id", "series__table_id").first())
    if ids is None:
        raise NotFoundError(_("No such game."))
    series_id, table_id = ids
    return _lock_in_order(table_id, series_id, game_id)


def _lock_in_order(table_id: int, series_id: int, game_id: int) -> Locked:
    """Lock a game's table, series and game rows (ids that never change for a game)."""
    table = lock_table(table_id)
    series = _lock_series_row(series_id, table)
    return Locked(table, series, _lock_game_row(game_id, series))


def lock_series(series_id: Any) -> tuple[Table, Series]:
    """Lock a series' table, then the series."""
    if isinstance(series_id, bool) or not isinstance(series_id, int):
        raise NotFoundError(_("No such series."))
    table_id = Series.objects.filter(pk=series_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFoundError(_("No such series."))
    table = lock_table(table_id)
    return table, _lock_series_row(series_id, table)


def lock_current(table: Table) -> tuple[Series | None, Game | None]:
    """With ``table`` already locked: lock its playing series and that series' live game.

    Returns ``(None, None)`` when no series is being played.
    """
    # Nobody can start another series or deal another game meanwhile: that needs the
    # table lock we hold.
    series = (Series.objects.select_for_update().filter(table=table,
                                                         status=Series.Status.PLAYING)
              .order_by("-number").first())
    if series is None:
        return None, None
    series.table = table
    game = Game.objects.select_for_update().filter(series=series).order_by("-number").first()
    if game is not None:
        game.series = series
    return series, game


def lock_playing(table_id: Any) -> tuple[Table, Series, Game | None]:
    """Lock a table, the series being played there and its current game (if dealt).

    Raises InvalidRequestError when no series is being played at the table.
    """
    table = lock_table(table_id)
    series, game = lock_current(table)
    if series is None:
        raise InvalidRequestError(_("No series is being played at this table."))
    return table, series, game


@dataclass
class MovedOn:
    """What a delayed task found instead of its version: the game's current rows (read
    without a lock, or under the locks)."""

    game: Game
    series: Series


def lock_for_task(game_id: int, expected_version: int) -> Locked | MovedOn | None:
    """The compare-and-set start of every delayed task (bot turn, timeout, absence).

    Returns the locked rows when the game is still live at ``expected_version``;
    :class:`MovedOn` when it has moved on (the caller queues what the current version
    waits for: schedule.lock_for_task); None when it is gone.

    A task that moved on is told so by one read without a lock: at tables with a clock
    nearly every timeout comes due after the game moved on, and must not wait in line
    with the players' moves for the table's lock. A task that looks current is checked
    again under the locks.
    """
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return None
    current = (Game.objects.select_related("series").filter(pk=game_id)
               .only("version", "status", "paused", "turn_deadline", "number",
                     "series__status", "series__table_id").first())
    if current is None:  # deleted (a test flush): nothing to do
        return None
    if _moved_on(current, expected_version):
        return MovedOn(current, current.series)
    try:
        locked = _lock_in_order(current.series.table_id, current.series_id, game_id)
    except NotFoundError:  # deleted meanwhile
        return None
    if _moved_on(locked.game, expected_version):
        return MovedOn(locked.game, locked.series)
    return locked


def _moved_on(game: Game, expected_version: int) -> bool:
    return game.version != expected_version or game.status != Game.Status.PLAYING
