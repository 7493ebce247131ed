"""Invitations to your table by username, with accept and decline.

- :func:`invite` — from the friends list or by any username: to the table you own and
  sit at whose series has not started and that has a free seat (``table_id``), or, when
  you have none, a new private casual table with you at seat 0. Refused across a block
  (either way, accounts/moderation), and when the invitee accepts invitations from
  friends only and does not follow you. The invitee gets a notification, live.
- :func:`accept` — sit down at a free seat (the one opposite the inviter first: you
  came to play together) through the table services; while you hold a seat in a live
  series elsewhere you are asked to return to it or leave it to a bot first.
- :func:`decline` — the inviter is told; :func:`withdraw` — the inviter takes it back.

However it is answered, the invitation's notification counts as read and the invitee's
badge drops on their open pages.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.social import notify
from accounts.social.models import Notification, TableInvite
from accounts.social.selectors import (
    blocks_between,
    follows,
    open_table_of,
    settings_of,
)
from accounts.social.services import person_named, require_user
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    SeatTakenError,
    TableStateError,
)
from games.events import send_events_on_commit
from games.models import Seat, Table
from games.services import elsewhere
from games.services import tables as table_service

SEATABLE = (Table.Status.OPEN, Table.Status.FINISHED)


def _name(user: Any) -> str:
    return getattr(getattr(user, "profile", None), "public_name", None) or user.get_username()


def _own_table(user: User, table_id: Any) -> Table:
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise InvalidRequestError(_("Choose one of your tables."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.owner_id != user.pk \
            or not Seat.objects.filter(table=table, user=user).exists():
        raise NotFoundError(_("You can invite people only to a table you own and sit at."))
    return table


def _new_table(user: User) -> Table:
    table = table_service.create_table(user, table_service.TableSettings(
        name=(_("%(name)s's table") % {"name": user.get_username()})[:60],
        visibility=Table.Visibility.PRIVATE))
    table_service.take_seat(table.pk, user, 0)
    return table


def check_may_invite(user: User, other: Any) -> None:
    """Raise unless ``user`` may invite ``other`` to a table (blocks, friends only)."""
    if other.pk == user.pk:
        raise InvalidRequestError(_("Invite someone else: you are at the table already."))
    if blocks_between(user.pk, other.pk):
        raise PermissionDeniedError(_("You cannot invite this player."))
    if settings_of(other).invites_from_friends_only and not follows(other.pk, user.pk):
        raise PermissionDeniedError(
            _("%(name)s accepts invitations from their friends only.") % {"name": _name(other)})


def invite(user: User | None, username: Any, table_id: Any = None) -> TableInvite:
    """Invite ``username`` to your table (see the module docstring)."""
    user = require_user(user)
    other = person_named(username)
    check_may_invite(user, other)
    with transaction.atomic():
        if table_id in (None, ""):
            table = open_table_of(user) or _new_table(user)
        else:
            table = _own_table(user, table_id)
        table = table_service.lock_table(table.pk)
        if table.status not in SEATABLE:
            raise TableStateError(_("The series has started: seats can no longer change."))
        seats = list(Seat.objects.filter(table=table))
        if any(seat.user_id == other.pk for seat in seats):
            raise InvalidRequestError(_("%(name)s already sits at this table.")
                                      % {"name": _name(other)})
        if not any(seat.is_empty for seat in seats):
            raise TableStateError(_("Your table has no free seat."))
        existing = (TableInvite.objects.select_for_update()
                    .filter(to_user=other, table=table, status=TableInvite.Status.PENDING)
                    .first())
        if existing is not None:
            return existing
        created = TableInvite.objects.create(from_user=user, to_user=other, table=table)
        notify.notify(other, Notification.Kind.INVITE,
                      {"name": _name(user), "table": table.name},
                      reverse("social:notifications"), invite=created)
    return created


def _pending_for(user: User, invite_id: Any, *, sent: bool = False) -> TableInvite:
    if isinstance(invite_id, bool) or not isinstance(invite_id, int):
        raise NotFoundError(_("That invitation is no longer open."))
    who = {"from_user": user} if sent else {"to_user": user}
    found = (TableInvite.objects.select_for_update().select_related("table", "from_user")
             .filter(pk=invite_id, status=TableInvite.Status.PENDING, **who).first())
    if found is None:
        raise NotFoundError(_("That invitation is no longer open."))
    return found


def _answer(found: TableInvite, status: str) -> None:
    """Close the invitation; its notification is dealt with, so the invitee's badge
    drops on every open page of theirs (after commit), whoever closed it."""
    found.status = status
    found.answered_at = timezone.now()
    found.save(update_fields=["status", "answered_at"])
    if Notification.objects.filter(invite=found, read_at__isnull=True).update(
            read_at=timezone.now()):
        to_user = found.to_user_id
        send_events_on_commit(lambda: [notify.page_frame(
            to_user, {"type": "notifications.read", "unread": _unread_of(to_user)})])


def accept(user: User | None, invite_id: Any, leave_current: Any = None) -> Table:
    """Accept: you sit down at the table (opposite the inviter when that seat is free).
    While you play at another table you are asked first; ``leave_current`` naming it
    leaves it to a bot and accepts (games/services/elsewhere.py)."""
    user = require_user(user)
    with transaction.atomic():
        peek = TableInvite.objects.filter(
            pk=invite_id if isinstance(invite_id, int) and not isinstance(invite_id, bool)
            else -1, to_user=user, status=TableInvite.Status.PENDING,
        ).values_list("table_id", flat=True).first()
        if peek is None:
            raise NotFoundError(_("That invitation is no longer open."))
        # Leaving the old game locks its table: before this one, and rolled back with
        # the rest if accepting fails further on.
        elsewhere.require_free(user, leave_current, here=peek)
        # The lock order: the table first (as every table service), then the invite.
        table = table_service.lock_table(peek)
        found = _pending_for(user, invite_id)
        if blocks_between(user.pk, found.from_user_id):
            raise PermissionDeniedError(_("You cannot join this table."))
        if table.status not in SEATABLE:
            _answer(found, TableInvite.Status.GONE)
            raise TableStateError(_("The series has started: seats can no longer change."))
        seats = {s.position: s for s in Seat.objects.filter(table=table)}
        inviter = next((p for p, s in seats.items() if s.user_id == found.from_user_id), None)
        order = sorted(seats, key=lambda p: (inviter is None or p != (inviter + 2) % 4, p))
        for position in order:
            if seats[position].user_id == user.pk:
                break  # already seated there
            if seats[position].is_empty:
                try:
                    with transaction.atomic():
                        table_service.take_seat(table.pk, user, position)
                    break
                except SeatTakenError:
                    continue
        else:
            raise TableStateError(_("The table is full."))
        _answer(found, TableInvite.Status.ACCEPTED)
    return table


def _unread_of(user_id: int) -> int:
    """The invitee's unread count (selectors.unread_count, by id: the answer may be the
    inviter's, who holds no user object of theirs)."""
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def decline(user: User | None, invite_id: Any) -> TableInvite:
    """Decline: the inviter gets a notification."""
    user = require_user(user)
    with transaction.atomic():
        found = _pending_for(user, invite_id)
        _answer(found, TableInvite.Status.DECLINED)
        notify.notify(found.from_user, Notification.Kind.DECLINED, {"name": _name(user)},
                      reverse("games:table", args=[found.table_id]))
    return found


def withdraw(user: User | None, invite_id: Any) -> TableInvite:
    """The inviter takes an invitation back before it is answered."""
    user = require_user(user)
    with transaction.atomic():
        found = _pending_for(user, invite_id, sent=True)
        _answer(found, TableInvite.Status.GONE)
    return found
