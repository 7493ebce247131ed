"""Who is asking: anonymous, or the person a personal access token belongs to
(``Authorization: Bearer <token>``, accounts/tokens.py), and the rate limits that go
with each.

A request without the header is anonymous and spends its client address's budget. A
request with a token the site does not know is refused with 401, never read as
anonymous (a client whose token was revoked must be told), and spends the address's
budget too, so that guessing tokens is as slow as anything else. A known token spends
its own budget. A suspended account's token is refused with 403, as its pages are.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from ninja.errors import AuthenticationError, HttpError
from ninja.security.http import HttpBearer

from accounts import tokens
from accounts.moderation import selectors as moderation_selectors
from kozel_site.api import limits


def client_address(request: HttpRequest) -> str:
    """The client's address as the site's other limits see it (trusted proxies
    honoured: allauth's adapter)."""
    try:
        return str(get_adapter(request).get_client_ip(request))
    except PermissionDenied:  # no usable address: all such clients share one budget
        return "unknown"


class TokenOrAnonymous(HttpBearer):
    """Ninja's bearer scheme (so the schema documents it), with anonymous access."""

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get(self.header)
        if not header:
            self._spend_address(request)
            return AnonymousUser()
        scheme, _space, token = header.partition(" ")
        if scheme.lower() != self.openapi_scheme:
            self._spend_address(request)
            raise AuthenticationError(401, "Send the token as 'Authorization: Bearer <token>'.")
        return self.authenticate(request, token.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = tokens.user_for_token(token)
        if user is None:
            self._spend_address(request)
            raise AuthenticationError(401, "Unknown or revoked token.")
        limits.spend(f"token:{tokens.hash_token(token)}",
                     settings.KOZEL_API_REQUESTS_PER_MINUTE_PER_TOKEN)
        if moderation_selectors.suspension_of(user) is not None:
            raise HttpError(403, "This account is suspended.")
        return user

    @staticmethod
    def _spend_address(request: HttpRequest) -> None:
        limits.spend(f"addr:{client_address(request)}",
                     settings.KOZEL_API_REQUESTS_PER_MINUTE_PER_ADDRESS)
