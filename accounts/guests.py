"""Guests: a visitor plays at once, without an account, as a user bound to the session.

A guest is a real user row (no password, no email) marked by a ``Guest`` row and
signed in on the visitor's session, so every seat check and the table socket's
authentication work for guests exactly as for accounts (R19 included). Guests play
casual tables only; ranked play, clubs, tournaments and chat ask them to sign up
(``refusal`` gives the words). Signing up from the session keeps the same user row
(``claim_guest``); guests never used again are removed by ``purge_unused_guests``.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import GUEST_USERNAME_PREFIX, Guest, Profile

__all__ = ["GUEST_USERNAME_PREFIX", "GuestLimitError", "claim_guest", "create_guest",
           "is_guest", "purge_unused_guests", "refusal"]
# Marks the answer of ``is_guest`` on the user object: asked once per request, not per use.
_CACHED = "_kozel_is_guest"


class GuestLimitError(Exception):
    """Too many guests were created from one address lately; the message says so."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def is_guest(user: Any) -> bool:
    """True when ``user`` is a signed-in guest (not an account, not anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    cached = getattr(user, _CACHED, None)
    if cached is None:
        # Every guest's name has the prefix, which no account may take: an account's
        # pages need no query to know it is not a guest.
        cached = (user.get_username().startswith(GUEST_USERNAME_PREFIX)
                  and Guest.objects.filter(user_id=user.pk).exists())
        setattr(user, _CACHED, cached)
    return bool(cached)


def refusal(doing: str) -> str:
    """What a guest is told when refused ``doing``: one sentence, and the way forward."""
    messages = {
        "chat": _("Guests cannot chat with other players. Sign up (free) to chat."),
        "ranked": _("Guests play casual tables only. Sign up (free) to play ranked."),
        "club": _("Guests cannot join or create clubs. Sign up (free) to join a club."),
        "tournament": _("Guests cannot play tournaments. Sign up (free) to play tournaments."),
    }
    return messages.get(doing, _("Sign up (free) to do that."))


def _rate_key(client: str) -> str:
    return f"guest-created:{client}"


def create_guest(client: str, language: str = "") -> User:
    """Create a guest user for a visitor at address ``client``; the caller signs it in.

    Its profile speaks ``language``, the page's language when the visitor clicked
    (a signed-in user's pages follow the profile, so a guest must not fall back to
    English).

    At most ``KOZEL_GUEST_CREATIONS_PER_HOUR`` guests per address in an hour: a
    script must not fill the user table. Raises ``GuestLimitError`` and creates nothing
    past the limit.
    """
    limit = settings.KOZEL_GUEST_CREATIONS_PER_HOUR
    key = _rate_key(client or "unknown")
    cache.add(key, 0, 3600)
    if cache.incr(key) > limit:
        raise GuestLimitError(
            _(
                "Too many guest games were started from your network in the last hour. "
                "Sign up (free) or sign in to play now, or try again later."
            )
        )
    user_model = get_user_model()
    for _attempt in range(5):
        username = f"{GUEST_USERNAME_PREFIX}{secrets.token_hex(4)}"
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(username=username)  # no password
                Profile.objects.create(
                    user=user,
                    preferred_language=(
                        language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
                    ),
                )
                Guest.objects.create(user=user, created_at=timezone.now())
        except IntegrityError:  # the random name was taken: draw another
            continue
        setattr(user, _CACHED, True)
        return user
    raise GuestLimitError(_("Could not start a guest game. Please try again."))


def claim_guest(user: User) -> bool:
    """Turn the guest ``user`` into an ordinary account (its games stay its own).

    Called when the guest signs up: the sign-up form has just saved its username,
    email and password onto this very row. Returns False when it was no guest.
    """
    deleted, _kinds = Guest.objects.filter(user_id=user.pk).delete()
    if hasattr(user, _CACHED):
        setattr(user, _CACHED, False)
    return bool(deleted)


def purge_unused_guests(now: datetime | None = None, limit: int = 500) -> int:
    """Delete guests older than ``KOZEL_GUEST_MAX_AGE_DAYS`` that nothing refers to.

    "Unused" is decided by the database itself: a guest who owns a table or sat in a
    series is protected by those foreign keys (``on_delete=PROTECT``), so its history
    stays; anyone else is deleted with its profile. Returns how many
    were deleted; at most ``limit`` per call, the periodic task comes back for the rest.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.KOZEL_GUEST_MAX_AGE_DAYS)
    candidates = (
        Guest.objects.filter(created_at__lt=cutoff, kept=False)
        .filter(Q(user__last_login__isnull=True) | Q(user__last_login__lt=cutoff))
        .values_list("user_id", flat=True)[:limit]
    )
    deleted = 0
    user_model = get_user_model()
    for user_id in list(candidates):
        try:
            with transaction.atomic():
                user_model.objects.filter(pk=user_id, guest__isnull=False).delete()
        except (ProtectedError, RestrictedError):
            # Played or owns a table: its games need the row, so it stays as history
            # and the next runs skip it.
            Guest.objects.filter(user_id=user_id).update(kept=True)
            continue
        deleted += 1
    return deleted
