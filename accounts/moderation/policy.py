"""Moderation's answers to the hooks games declares (games/policy.py), configured by
``KOZEL_POLICY = "accounts.moderation.policy.ModerationPolicy"``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from accounts.moderation import chatfilter, selectors
from accounts.moderation.services.reports import file_filter_report, record_blocked_chat
from games.errors import InvalidRequestError, PermissionDeniedError
from games.policy import TablePolicy


def until_text(sanction: Any) -> str:
    if sanction.ends_at is None:
        return _("for good")
    return _("until %(moment)s UTC") % {"moment": f"{sanction.ends_at:%Y-%m-%d %H:%M}"}


class ChatMutedError(PermissionDeniedError):
    """The sender is muted in chat."""

    code = "muted"


class ChatFilteredError(InvalidRequestError):
    """The chat filter refused the line."""

    code = "filtered"


class ModerationPolicy(TablePolicy):
    """Sanctions, blocks and the chat filter, read from the database on every call so
    that a sanction applies from the very next frame on every open connection."""

    def check_chat(self, user: Any, table: Any, text: str) -> str:
        mute = selectors.chat_mute_of(user)
        if mute is not None:
            what = (_("You are suspended %(until)s: %(reason)s") if mute.kind == mute.Kind.SUSPEND
                    else _("You are muted in chat %(until)s: %(reason)s"))
            raise ChatMutedError(what % {"until": until_text(mute), "reason": mute.reason})
        verdict = chatfilter.check(text)
        if verdict.blocked:
            if verdict.is_link:
                raise ChatFilteredError(_("Links are not allowed in table chat."))
            raise ChatFilteredError(_("That message was not sent: table chat does not allow "
                                    "that language."))
        return text

    def after_refused_chat(self, user: Any, table_id: int, text: str,
                           refusal: Exception) -> None:
        if isinstance(refusal, ChatFilteredError):
            record_blocked_chat(user, table_id, text)

    def after_chat(self, message: Any) -> None:
        verdict = chatfilter.check(message.text)
        if verdict.flagged:
            file_filter_report(message, verdict.matched)

    def hidden_chat_senders(self, user: Any, table_id: int) -> set[int] | None:
        named = self.hidden_chat_senders_named(user, table_id)
        return None if named is None else set(named)

    def hidden_chat_senders_named(self, user: Any, table_id: int) -> dict[int, str] | None:
        """One query (the blocks and the mute together; the handshake's read)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return {}
        return selectors.chat_filter_of(user, table_id)

    def check_seat(self, user: Any, table: Any) -> None:
        suspension = selectors.suspension_of(user)
        if suspension is not None:
            raise PermissionDeniedError(_("Your account is suspended %(until)s.") % {
                "until": until_text(suspension)})
        if table.is_private and table.owner_id != user.pk and \
                selectors.blocks_between(table.owner_id, user.pk):
            raise PermissionDeniedError(_("You cannot join this private table."))
        if table.kind == table.Kind.RANKED:
            self.check_ranked(user)

    def check_partner(self, user: Any, other: Any) -> None:
        if selectors.blocks_between(user.pk, other.pk):
            raise PermissionDeniedError(_("You cannot play as partners with this player."))

    def blocked_pairs(self, users: Sequence[Any]) -> set[frozenset[int]]:
        """One query for the whole queue, not one per pair (the base class's way)."""
        return selectors.blocks_among(user.pk for user in users)

    def check_ranked(self, user: Any) -> None:
        bar = selectors.ranked_bar_of(user)
        if bar is not None:
            raise PermissionDeniedError(
                _("You cannot play ranked %(until)s: %(reason)s") % {
                    "until": until_text(bar), "reason": bar.reason})
