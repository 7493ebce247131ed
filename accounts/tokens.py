"""Personal access tokens for the public API: made and revoked on the account page,
looked up by the API for each request.

A token is ``kzt_`` and 43 URL-safe characters (32 random bytes). Only its SHA-256 is
stored (a fast hash is right here: the token is random, not a guessable password), so
it is shown once, when made. Guests have no tokens: a guest's games are only its own
while its browser session lives, and an API client is not that session.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from accounts.models import TOKEN_NAME_MAX_LENGTH, AccessToken

TOKEN_PREFIX = "kzt_"
MAX_TOKENS_PER_USER = 10
# last_used_at is written at most this often per token: a busy client must not turn
# every read of the API into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)
_TOKEN_LENGTH = len(TOKEN_PREFIX) + 43  # token_urlsafe(32) is 43 characters


class TokenError(Exception):
    """A refused token request; ``message`` is translated, for the page."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def hash_token(token: str) -> str:
    """The stored form of ``token``: hex SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def tokens_of(user: AbstractBaseUser) -> list[AccessToken]:
    """The user's tokens, newest first (never the tokens themselves: they are not kept)."""
    return list(AccessToken.objects.filter(user_id=user.pk))


def create_token(user: User, name: str) -> tuple[AccessToken, str]:
    """Make a token named ``name`` for ``user``: the row and the token, to show once.

    Refuses (:class:`TokenError`, nothing stored) an empty or too long name, a guest,
    and a user who already has :data:`MAX_TOKENS_PER_USER` tokens.
    """
    clean = " ".join(str(name).split())
    if not clean:
        raise TokenError(_("Give the token a name, so you know where it is used."))
    if len(clean) > TOKEN_NAME_MAX_LENGTH:
        raise TokenError(_("A token's name has at most %(limit)d characters.")
                         % {"limit": TOKEN_NAME_MAX_LENGTH})
    if guests.is_guest(user) or not user.is_active:
        raise TokenError(_("Sign up to use the API with a token."))
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # The user row's lock makes the count and the insert one step.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if AccessToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
            raise TokenError(_("You have %(limit)d tokens already: revoke one first.")
                             % {"limit": MAX_TOKENS_PER_USER})
        row = AccessToken.objects.create(user=user, name=clean, token_hash=hash_token(token),
                                         prefix=token[:len(TOKEN_PREFIX) + 4])
    return row, token


def revoke_token(user: AbstractBaseUser, token_id: int) -> bool:
    """Delete ``user``'s token ``token_id``; False when they have no such token."""
    deleted, _rows = AccessToken.objects.filter(user_id=user.pk, pk=token_id).delete()
    return bool(deleted)


def user_for_token(token: str) -> User | None:
    """The active user whose token this is, or None; notes when it was last used."""
    if len(token) != _TOKEN_LENGTH or not token.startswith(TOKEN_PREFIX):
        return None
    row = (AccessToken.objects.select_related("user").filter(token_hash=hash_token(token))
           .first())
    if row is None or not row.user.is_active:
        return None
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.user
