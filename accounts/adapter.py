"""allauth glue: every signed-up user gets a profile; reserved usernames are refused;
signing up with a taken address emails its owner (ACCOUNT_PREVENT_ENUMERATION)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import DELETED_PLAYER_NAME
from accounts.services import DELETED_USERNAME_PREFIX, ensure_profile, update_profile
from kozel_site import names

# The allauth release whose private ``_get_login_attempts_cache_key`` the adapter
# overrides (the system check kozel.E011 refuses another: kozel_site/checks.py).
TESTED_ALLAUTH_VERSION = "65.22.1"


def _taken_by_a_look_alike(username: str, shapes: frozenset[str]) -> bool:
    """Whether another account's name shares a skeleton with ``shapes``. Skeletons are
    not stored, so this reads every username: sign-ups are rare, and only they ask."""
    others = User.objects.exclude(username=username).values_list("username", flat=True)
    return any(not shapes.isdisjoint(names.skeletons(other))
               for other in others.iterator(chunk_size=2000))


class AccountAdapter(DefaultAccountAdapter):
    """The site's account adapter (``ACCOUNT_ADAPTER``)."""

    def save_user(
        self, request: HttpRequest, user: User, form: BaseForm, commit: bool = True
    ) -> User:
        """Save the new user, then give it a profile in the language it signed up in.

        allauth runs sign-up in a transaction, so user and profile commit together.
        """
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            ensure_profile(user)
            language = getattr(request, "LANGUAGE_CODE", "")
            if language in dict(settings.LANGUAGES):
                update_profile(user, preferred_language=language)
        return user

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """Refuse names with hidden characters, names that would pass for an anonymised
        account, and names that look like someone else's (compared by their confusables
        skeletons, kozel_site/names.py: ``аlice`` with a Cyrillic а is ``alice``)."""
        if names.hidden_characters(username):
            raise ValidationError(gettext(
                "A username cannot contain invisible or text-direction characters."))
        shapes = names.skeletons(username)
        reserved = names.skeletons(DELETED_USERNAME_PREFIX)
        if any(shape.startswith(prefix) for shape in shapes for prefix in reserved) or \
                names.look_alike(username, DELETED_PLAYER_NAME):
            raise ValidationError(gettext(
                "Usernames starting with “deleted-” are reserved. Please choose another."
            ))
        clean = str(super().clean_username(username, shallow=shallow))
        if not shallow and _taken_by_a_look_alike(clean, shapes):
            raise ValidationError(gettext(
                "That username looks too much like someone else's. Please choose another."))
        return clean

    # Sign-in lockout: failures are counted per client *and* account together,
    # so a stranger who types someone's name with wrong passwords only locks themselves
    # out; the owner signs in from their own device as usual (ACCOUNT_RATE_LIMITS).
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": (
            "Too many failed sign-ins for this account from this device or network. "
            "Wait five minutes and try again, or reset your password (that lifts the "
            "limit). Nobody else is locked out of the account by this."),
    }

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """The "key" of the login_failed limit: the login name and the client's address,
        so the per-key limit counts one client's failures on one account.

        allauth keys it by the login alone, so a stranger's wrong guesses lock the owner
        out too. The method is private; allauth's maintainer suggested overriding it for
        this (pennersr/django-allauth#3584, closed as fixed by #3592), yet in the pinned
        release (``TESTED_ALLAUTH_VERSION``) the per-key limit still counts every
        client's failures together. tests/site/test_patched_libraries.py fails if the
        method moves, tests/moderation/test_security_settings.py if it stops counting."""
        login = super()._get_login_attempts_cache_key(request, **credentials)
        try:
            client = self.get_client_ip(request)
        except Exception:  # noqa: BLE001 - no address: the per-IP part refuses anyway
            client = "unknown"
        return f"{login}|{client}"

    def format_email_subject(self, subject: str) -> str:
        """Prefix every email subject with the site's name, not the request's host."""
        return f"[Kozel] {subject}"

    def send_account_already_exists_mail(self, email: str) -> None:
        """Tell the owner of ``email`` that it already has an account.

        allauth calls this instead of creating a second account when someone signs up
        with a taken address; the screen still says "check your email", so the form
        never reveals who is registered. Our message also links the sign-in page.
        """
        request = context.request
        self.send_mail("account/email/account_already_exists", email, {
            "login_url": request.build_absolute_uri(reverse("account_login")),
            "password_reset_url": request.build_absolute_uri(
                reverse("account_reset_password")),
            "signup_url": request.build_absolute_uri(reverse("account_signup")),
        })
