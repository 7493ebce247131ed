"""allauth glue: every signed-up user gets a profile; reserved usernames are refused;
signing up with a taken address emails its owner (ACCOUNT_PREVENT_ENUMERATION); a guest
who signs up becomes the account; a new account starts at its first table."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext

from accounts import guests
from accounts.models import DELETED_PLAYER_NAME
from accounts.services import DELETED_USERNAME_PREFIX, ensure_profile, update_profile
from games import selectors as game_selectors
from games.errors import ServiceError
from games.services import tables as table_service
from kozel_site import names
from kozel_site.site_url import site_name

LOGGED_IN_MESSAGE = "account/messages/logged_in.txt"
SIGNED_UP_MESSAGE = "account/messages/signed_up.txt"

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

    def new_user(self, request: HttpRequest) -> AbstractBaseUser:
        """The row the sign-up form fills in: a guest's own, so its games stay its own."""
        if guests.is_guest(request.user):
            return User.objects.get(pk=request.user.pk or 0)
        return super().new_user(request)

    def save_user(
        self, request: HttpRequest, user: User, form: BaseForm, commit: bool = True
    ) -> User:
        """Save the new user, then give it a profile in the language it signed up in.

        allauth runs sign-up in a transaction, so user and profile commit together. A
        guest's row becomes the account; its session is signed out, so the account is
        used only once its email is confirmed, like any other (the confirmation signs
        it in again, on this browser).
        """
        was_guest = user.pk is not None and guests.is_guest(user)
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            ensure_profile(user)
            language = getattr(request, "LANGUAGE_CODE", "")
            if language in dict(settings.LANGUAGES):
                update_profile(user, preferred_language=language)
            if was_guest:
                guests.claim_guest(user)
                logout(request)
        return user

    def get_signup_redirect_url(self, request: HttpRequest) -> str:
        """A new account's first page is a dealt table: its live game if it has one (a
        guest who signed up), else a new one with three bots."""
        user = request.user
        assert isinstance(user, User)  # allauth signed the new account in just now
        live = game_selectors.live_seat_of(user)
        if live is not None:
            return reverse("games:table", args=[live.series.table_id])
        try:
            table = table_service.start_with_bots(user, "casual")
        except ServiceError:
            return str(super().get_signup_redirect_url(request))
        return reverse("games:table", args=[table.pk])

    def post_login(self, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any
                   ) -> HttpResponse:
        """Sign in as allauth does; a sign-in that ends a sign-up is greeted as new."""
        request._kozel_signed_up = bool(kwargs.get("signup"))  # type: ignore[attr-defined]
        return super().post_login(request, user, **kwargs)

    def add_message(self, request: HttpRequest, level: int,
                    message_template: str | None = None,
                    message_context: dict[str, Any] | None = None,
                    extra_tags: str = "", message: str | None = None) -> None:
        """allauth's messages, except that a new account is welcomed, not "welcomed back"."""
        if message_template == LOGGED_IN_MESSAGE and getattr(request, "_kozel_signed_up",
                                                             False):
            message_template = SIGNED_UP_MESSAGE
        super().add_message(request, level, message_template, message_context, extra_tags,
                            message)

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
        if any(shape.startswith(prefix) for shape in shapes
               for prefix in names.skeletons(guests.GUEST_USERNAME_PREFIX)):
            raise ValidationError(gettext(
                "Usernames starting with “guest-” are reserved. Please choose another."
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
        return f"[{site_name()}] {subject}"

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
