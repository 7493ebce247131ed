"""Access rules about accounts, for later features (ranked play, clubs).

Use ``verified_email_required`` on function views and ``VerifiedEmailRequiredMixin`` on
class-based views. Both are allauth's own check: an anonymous visitor is sent to sign
in; a signed-in user without a verified address is sent a fresh verification email and
shown ``account/verified_email_required.html``. Sign-up already requires verification
(``ACCOUNT_EMAIL_VERIFICATION = "mandatory"``), so this matters for accounts whose
address was changed, or was created by an admin.
"""

from __future__ import annotations

from typing import Any

from allauth.account.decorators import verified_email_required
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import method_decorator

__all__ = ["VerifiedEmailRequiredMixin", "has_verified_email", "verified_email_required"]


def has_verified_email(user: User | AnonymousUser) -> bool:
    """True when ``user`` is signed in and owns at least one verified email address."""
    if not user.is_authenticated:
        return False
    return EmailAddress.objects.filter(user=user, verified=True).exists()


class VerifiedEmailRequiredMixin:
    """Class-based-view form of ``verified_email_required``."""

    @method_decorator(verified_email_required)
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # A mixin: dispatch comes from the view class it is mixed into.
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
