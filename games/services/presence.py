"""Who is connected: counts of open table sockets per seat and per table.

The counters live in the database so that every web process sees the same presence,
and the clock sweep can tell a disconnected player on turn (issue 6). A web process
that crashes leaves its counts behind; the counts heal when the player's next
connection closes, and the empty-table sweep errs on the side of keeping a table open.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from games import engine
from games.models import Game, Seat, Series, Table
from games.services import publish, schedule
from games.services.clock import DISCONNECT_GRACE_SECONDS

logger = logging.getLogger(__name__)


def _is_person(user: AbstractBaseUser | None) -> bool:
    return user is not None and user.is_authenticated


def connected(table_id: int, user: AbstractBaseUser | None) -> None:
    """A socket of ``user`` (or of an anonymous spectator) opened at the table."""
    Table.objects.filter(pk=table_id).update(connections=F("connections") + 1)
    if not _is_person(user):
        return
    with transaction.atomic():
        Table.objects.filter(pk=table_id).update(human_connections=F("human_connections") + 1,
                                                 empty_since=None)
        changed = Seat.objects.filter(table_id=table_id, user=user).update(
            connections=F("connections") + 1, disconnected_at=None)
        if changed:
            publish.on_commit_table_changed(table_id)


def disconnected(table_id: int, user: AbstractBaseUser | None) -> None:
    """A socket of ``user`` closed; on their own turn the 60 s countdown starts.

    Presence is advisory: a failed write is logged, never raised into the consumer's
    disconnect (the next connection event heals the counts).
    """
    try:
        _disconnected(table_id, user)
    except DatabaseError:
        logger.exception("presence: could not record a disconnect at table %s", table_id)


def _disconnected(table_id: int, user: AbstractBaseUser | None) -> None:
    now = timezone.now()
    with transaction.atomic():
        if _is_person(user):
            _person_left_locked(table_id, user, now)
        # Last and in the same transaction, so that a count of 0 means every presence
        # write of this disconnect is committed (tests wait on it before a flush).
        Table.objects.filter(pk=table_id).update(connections=Greatest(F("connections") - 1, 0))


def _person_left_locked(table_id: int, user: AbstractBaseUser, now: Any) -> None:
    Table.objects.filter(pk=table_id).update(
        human_connections=Greatest(F("human_connections") - 1, 0))
    Table.objects.filter(pk=table_id, human_connections=0, empty_since__isnull=True).update(
        empty_since=now)
    seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
    if seat is None:
        return
    seat.connections = max(0, seat.connections - 1)
    if seat.connections == 0:
        seat.disconnected_at = now
    seat.save(update_fields=["connections", "disconnected_at"])
    publish.on_commit_table_changed(table_id)
    if seat.connections == 0:
        _arm_disconnect_check(table_id, seat.position)


def _arm_disconnect_check(table_id: int, position: int) -> None:
    game = (Game.objects.filter(series__table_id=table_id, status=Game.Status.PLAYING,
                                series__status=Series.Status.PLAYING)
            .order_by("-id").first())
    if game is None:
        return
    if engine.GameState.from_dict(game.state).turn == position:
        schedule.on_commit_disconnect_check(game.pk, game.version, DISCONNECT_GRACE_SECONDS)


def connected_positions(table_id: int) -> set[int]:
    """Positions whose player has at least one open socket."""
    return set(Seat.objects.filter(table_id=table_id, connections__gt=0)
               .values_list("position", flat=True))
