"""The player's public profile, one per user.

The user row is never deleted: games, moves and ratings point at it, and a finished
game must still say who sat where. Deleting an account anonymises the user and marks
the profile deleted instead (``accounts.services.delete_account``).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop

from accounts.avatars import avatar_svg
from accounts.countries import COUNTRY_CHOICES, country_name

DELETED_PLAYER_NAME = gettext_noop("deleted player")  # shown in the page's language
# Every guest's username starts with this (accounts/guests.py); no account may take it
# (accounts/adapter.py), and signing up replaces it with the chosen name.
GUEST_USERNAME_PREFIX = "guest-"


def guest_name(username: str) -> str | None:
    """The name a guest is shown by, "Guest 4821", in the active language; None when
    ``username`` is no guest's. Four digits read as a name at a table; the username's
    random hex ("guest-9f3a0c1e") reads as a database key."""
    if not username.startswith(GUEST_USERNAME_PREFIX):
        return None
    try:
        number = int(username[len(GUEST_USERNAME_PREFIX):], 16) % 10000
    except ValueError:
        return None
    return gettext("Guest %(number)s") % {"number": f"{number:04d}"}
DISPLAY_NAME_MAX_LENGTH = 40
BIO_MAX_LENGTH = 280
TOKEN_NAME_MAX_LENGTH = 60


class Profile(models.Model):
    """What other players see about a user: name, avatar, a short bio, a country."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Blank means "show the username": most players never set one.
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX_LENGTH, blank=True)
    bio = models.CharField(max_length=BIO_MAX_LENGTH, blank=True)
    country = models.CharField(max_length=2, blank=True, choices=COUNTRY_CHOICES)
    preferred_language = models.CharField(
        max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    is_deleted = models.BooleanField(default=False, db_index=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # An anonymised profile keeps nothing its owner wrote.
            models.CheckConstraint(
                condition=Q(is_deleted=False) | (Q(display_name="") & Q(bio="") & Q(country="")),
                name="accounts_profile_deleted_is_blank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_name} (#{self.user_id})"

    @property
    def public_name(self) -> str:
        """The name every other page prints: display name, else "Guest 4821" for a
        guest, else username; never a deleted account's old name."""
        if self.is_deleted:
            return gettext(DELETED_PLAYER_NAME)
        username = self.user.get_username()
        return self.display_name or guest_name(username) or username

    @property
    def date_joined(self) -> datetime:
        """When the account was created (kept on the user row by Django)."""
        return self.user.date_joined

    @property
    def country_name(self) -> str:
        """The country's name in the active language, or '' when none is set."""
        return country_name(self.country)

    def avatar(self, size: int = 40) -> SafeString:
        """The initials avatar as inline SVG (see ``accounts.avatars``)."""
        return avatar_svg(
            name=self.public_name,
            username=self.user.get_username(),
            size=size,
            deleted=self.is_deleted,
        )


class Guest(models.Model):
    """Marks a user created for a visitor who played without signing up.

    A guest is an ordinary user signed in on one browser session (so a seat and the
    table socket treat it exactly like an account, R19 included) with no password and
    no email. Signing up from that session turns the same row into the account, so its
    games stay its own; the row here is then deleted (``accounts.guests.claim_guest``).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="guest")
    created_at = models.DateTimeField(db_index=True)
    # Set by the clean-up when the guest played: its games refer to the row, so it stays
    # (as history, never signed in again) and later runs skip it.
    kept = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"guest #{self.user_id}"


class AccessToken(models.Model):
    """A personal access token for the public API (``/api/``), named by its owner.

    Only the SHA-256 of the token is stored: the token itself is shown once, when it is
    made (``accounts.tokens.create_token``), so a leaked database cannot be replayed
    against the API. Revoking deletes the row.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="access_tokens")
    name = models.CharField(max_length=TOKEN_NAME_MAX_LENGTH)
    # Hex SHA-256 of the whole token: what a request's bearer token is looked up by.
    token_hash = models.CharField(max_length=64, unique=True)
    # The token's first characters, kept to tell one's tokens apart on the account page.
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of #{self.user_id}"
