"""allauth glue: every signed-up user gets a profile; reserved usernames are refused;
signing up with a taken address emails its owner (ACCOUNT_PREVENT_ENUMERATION)."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest
from django.urls import reverse

from accounts.models import DELETED_PLAYER_NAME
from django.utils.translation import gettext
from accounts.services import DELETED_USERNAME_PREFIX, ensure_profile, update_profile


class AccountAdapter(DefaultAccountAdapter):
    """The site's account adapter (``ACCOUNT_ADAPTER``)."""

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm, commit: bool = True
    ) -> AbstractBaseUser:
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
        """Refuse names that would pass for an anonymised account."""
        lowered = username.casefold()
        if lowered.startswith(DELETED_USERNAME_PREFIX) or lowered == DELETED_PLAYER_NAME:
            raise ValidationError(gettext(
                "Usernames starting with “deleted-” are reserved. Please choose another."
            ))
        return str(super().clean_username(username, shallow=shallow))

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
