"""Never two games at once, and never stuck: the one check every "play here" path makes.

Whoever holds a seat in a series being played (their own, or one a bot keeps warm while
they are away) is refused elsewhere with :class:`PlayingElsewhereError`, and the page
that shows it (``templates/games/_playing_elsewhere.html``) offers both ways out:
"Return" to that table, or "Leave it (a bot plays on)", which asks again with
``leave_current`` naming that table. Then :func:`require_free` leaves it through
``clock.leave_series`` (as "Play now against bots" always did: a bot plays the seat on;
with only bots left the series ends; at a ranked table it is the leaver rule) and the
caller carries on with what the person asked for.

Callers run :func:`require_free` inside their own transaction, before anything else they
lock, so a refusal further on (the invitation withdrawn meanwhile, the seat taken) rolls
the leaving back too: the person keeps their old game unless they get the new one.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import PlayingElsewhereError, TableStateError
from games.models import Seat, Table
from games.selectors import live_seat_of
from games.services import clock
from games.services import tables as table_service


def _table_id(value: Any) -> int | None:
    """``leave_current`` from a form (a string) or a caller (an int); anything else is
    no choice at all, so the person is asked again."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


def require_free(user: AbstractBaseUser, leave_current: Any = None, *,
                 here: int | None = None) -> None:
    """Refuse while ``user`` plays a live series at a table other than ``here``, unless
    ``leave_current`` names that very table: then they leave it (a bot plays on) and
    the caller carries on. A stale or forged ``leave_current`` only asks again."""
    seat = live_seat_of(user)
    if seat is None or seat.series.table_id == here:
        return
    table = seat.series.table
    if _table_id(leave_current) == table.pk:
        clock.leave_series(table.pk, user)  # type: ignore[arg-type]
        return
    raise PlayingElsewhereError(
        _("You are playing at table %(name)s: return to your game.") % {"name": table.name},
        table.pk, table.name, table.kind == Table.Kind.RANKED)


def require_other_free(person: AbstractBaseUser) -> None:
    """Refuse when ``person`` (a partner, an inviter: not the one asking) plays a live
    series: only they may leave it, so this refusal has no way out to offer."""
    seat = live_seat_of(person)
    if seat is not None:
        raise TableStateError(_("%(name)s is playing at table %(table)s right now.")
                              % {"name": person.get_username(),
                                 "table": seat.series.table.name})


def sit(table_id: int, user: User, position: Any, leave_current: Any = None) -> Seat:
    """Sit down at a table (tables.take_seat), never while playing at another one."""
    with transaction.atomic():
        require_free(user, leave_current, here=table_id)
        return table_service.take_seat(table_id, user, position)


def play_with_bots(user: User, level: str, leave_current: Any = None) -> Table:
    """"Play now": a new table with three bots (tables.start_with_bots), after leaving
    the game being played when the person chose to."""
    with transaction.atomic():
        require_free(user, leave_current)
        return table_service.start_with_bots(user, level)
