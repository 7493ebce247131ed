"""Blocks and per-table chat mutes: a player's own choices, effective on open sockets."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.moderation import selectors
from accounts.moderation.models import Block, TableChatMute
from games import selectors as game_selectors
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.events import send_event_on_commit
from games.models import Table
from games.policy import user_group


def _require_player(user: User | None) -> User:
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    return user


def _refresh_sockets(user_id: int) -> None:
    send_event_on_commit(user_group(user_id), {"type": "user.chat_filter"})


def block(user: User | None, other: Any) -> Block:
    """``user`` blocks ``other`` (a user or a username); blocking twice is a no-op."""
    user = _require_player(user)
    target = other if hasattr(other, "pk") else selectors.user_by_name(other)
    if target is None:
        raise NotFoundError(_("There is no such player."))
    if target.pk == user.pk:
        raise InvalidRequestError(_("You cannot block yourself."))
    with transaction.atomic():
        try:
            with transaction.atomic():
                row, _created = Block.objects.get_or_create(blocker=user, blocked=target)
        except IntegrityError:  # a concurrent block won
            row = Block.objects.get(blocker=user, blocked=target)
        _refresh_sockets(user.pk)
    return row


def unblock(user: User | None, other: Any) -> bool:
    user = _require_player(user)
    target = other if hasattr(other, "pk") else selectors.user_by_name(other)
    if target is None:
        return False
    with transaction.atomic():
        deleted, _count = Block.objects.filter(blocker=user, blocked=target).delete()
        _refresh_sockets(user.pk)
    return bool(deleted)


def set_table_mute(user: User | None, table_id: Any, muted: Any,
                   invited: set[int] | None = None) -> bool:
    """Mute (or unmute) a table's chat for oneself; returns the new state."""
    user = _require_player(user)
    if isinstance(table_id, str) and table_id.isdigit():
        table_id = int(table_id)
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise NotFoundError(_("No such table."))
    if not isinstance(muted, bool):
        raise InvalidRequestError(_("Mute is on or off."))
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not game_selectors.may_view_table(table, user, invited or set()):
        raise NotFoundError(_("No such table."))
    with transaction.atomic():
        if muted:
            TableChatMute.objects.get_or_create(user=user, table=table)
        else:
            TableChatMute.objects.filter(user=user, table=table).delete()
        _refresh_sockets(user.pk)
    return muted
