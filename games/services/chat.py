"""Table chat: validate, rate-limit, store, relay."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import guests
from games import events
from games.conf import game_settings
from games.errors import InvalidRequestError, PermissionDeniedError, ServiceError
from games.models import RANKED_PRESETS, ChatMessage, ChatPreference, Table
from games.policy import policy, user_group
from games.selectors import chat_dict, current_series, seat_of_user
from games.services import publish
from kozel_site import names

RATE_COUNT = 5
RATE_WINDOW_SECONDS = 10


def ranked_preset(text: str) -> str:
    """The preset line for a code ("gl") or a preset's own text, else InvalidRequestError."""
    key = text.strip().rstrip("!.").lower()
    for code, line in RANKED_PRESETS.items():
        if key in (code, line.lower()):
            return line
    presets = ", ".join(f"{c} ({_(t)})" for c, t in RANKED_PRESETS.items())
    raise InvalidRequestError(_("A ranked table has no free chat: send one of %(presets)s.")
                              % {"presets": presets})


class RateLimitedError(ServiceError):
    """Too many messages in a short time."""

    code = "rate_limited"


def check_message(user: User | None, text: Any) -> str:
    """The checks of a chat line that need no database: a signed-in author and a text
    of 1 to ``CHAT_MAX_LENGTH`` characters once its runs of spaces are one. Returns
    that text, or raises PermissionDeniedError or InvalidRequestError. The live table
    runs them before its database call, so a malformed line is answered without one."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to chat."))
    if not isinstance(text, str):
        raise InvalidRequestError(_("A chat message is text."))
    # Bidi controls and zero-width characters are dropped: they reorder or hide what
    # the other players read (emoji keep their zero-width joiners).
    clean = " ".join(names.without_hidden(text).split())
    limit = game_settings.CHAT_MAX_LENGTH
    if not clean:
        raise InvalidRequestError(_("Say something first."))
    if len(clean) > limit:
        raise InvalidRequestError(ngettext("A chat message has at most %(limit)d character.",
                                           "A chat message has at most %(limit)d characters.",
                                           limit) % {"limit": limit})
    return clean


def post_message(table_id: int, user: User | None, text: Any) -> dict[str, Any]:
    """Store and relay a chat line; the text is stored raw and escaped by every renderer."""
    clean = check_message(user, text)
    assert user is not None  # check_message refused anyone not signed in
    if guests.is_guest(user):  # a guest has no account to answer for what it says
        raise PermissionDeniedError(guests.refusal("chat"))
    key = f"chat-rate:{user.pk}"
    cache.add(key, 0, RATE_WINDOW_SECONDS)
    if cache.incr(key) > RATE_COUNT:
        raise RateLimitedError(_("You are sending messages too fast; wait a few seconds."))
    try:
        with transaction.atomic():
            table = Table.objects.filter(pk=table_id).first()
            if table is None:
                raise InvalidRequestError(_("No such table."))
            if table.kind == Table.Kind.RANKED:
                clean = ranked_preset(clean)
            # Moderation's hooks (games/policy.py): a chat mute or the chat filter refuses
            # here; a line the filter flags is stored and filed for review.
            clean = policy().check_chat(user, table, clean)
            message = ChatMessage.objects.create(table=table, user=user, text=clean,
                                                 channel=channel_of(table, user))
            policy().after_chat(message)
            payload = chat_dict(message, ranked=table.kind == Table.Kind.RANKED)
            events.send_event_on_commit(*publish.chat(table_id, payload))
    except ServiceError as refusal:
        # After the rollback: moderation keeps the lines its filter blocked.
        policy().after_refused_chat(user, table_id, clean, refusal)
        raise
    return payload


def post_director_line(table_id: int, author: User, text: str) -> dict[str, Any]:
    """Store and relay a tournament director's line to a table's chat (everyone at the
    table reads it, marked as the director's). The caller (the tournaments' console)
    has checked the author's right and the text with :func:`check_message`; no rate
    limit and no ranked presets: it is an official message, written to the event's
    audit log by the caller, inside the caller's transaction."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise InvalidRequestError(_("No such table."))
    message = ChatMessage.objects.create(table=table, user=author, text=text,
                                         channel=ChatMessage.Channel.DIRECTOR)
    payload = chat_dict(message, ranked=False)
    events.send_event_on_commit(*publish.chat(table_id, payload))
    return payload


def channel_of(table: Table, user: User) -> str:
    """Which chat ``user``'s line belongs to: the players' while they hold a seat of the
    table (of its live series, or of the table between series), else the spectators'."""
    seated = seat_of_user(table, current_series(table), user) is not None
    return ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS


def set_show_spectators(user: User | None, show: Any) -> bool:
    """Remember whether ``user`` reads the spectators' chat while seated, at every table;
    each of their open table sockets reloads at once (a fresh snapshot, joining or
    leaving the spectators' chat). Returns the new choice."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to change your chat settings."))
    if not isinstance(show, bool):
        raise InvalidRequestError(_("Showing the spectators' chat is on or off."))
    with transaction.atomic():
        ChatPreference.objects.update_or_create(user=user, defaults={"show_spectators": show})
        group = user_group(user.pk)
        events.send_event_on_commit(*publish.chat_settings_changed(group))
    return show


def set_hidden(message_ids: list[int], hidden: bool) -> int:
    """A moderator hides (or shows again) chat lines. Hidden lines are withdrawn from
    every open screen at once (a ``chat_hidden`` frame per table, after commit); shown
    lines come back with each screen's next snapshot. Returns how many changed."""
    ids = [i for i in message_ids if isinstance(i, int) and not isinstance(i, bool)]
    with transaction.atomic():
        rows = list(ChatMessage.objects.select_for_update()
                    .filter(pk__in=ids).exclude(hidden=hidden).values_list("pk", "table_id"))
        ChatMessage.objects.filter(pk__in=[pk for pk, _ in rows]).update(hidden=hidden)
        by_table: dict[int, list[int]] = {}
        for pk, table_id in rows:
            by_table.setdefault(table_id, []).append(pk)
        for table_id, changed in by_table.items():
            if hidden:
                events.send_event_on_commit(*publish.chat_hidden(table_id, changed))
            else:
                events.send_events_on_commit(partial(publish.table_changed, table_id))
    return len(rows)
