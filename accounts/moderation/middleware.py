"""A suspended account sees only its notice, the appeal form and sign-out.

Checked on every request (one indexed query for signed-in users), so a suspension
takes effect on the very next page of an open session; its sockets are closed by the
sanction service and refused by :mod:`accounts.moderation.asgi`.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from accounts.moderation import selectors

ALLOWED_PREFIXES = ("/static/", "/favicon.ico", "/healthz")


class SuspensionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            # One query: the context processor shows the same rows on the page.
            notices = selectors.notices_for(user)
            request.sanction_notices = notices  # type: ignore[attr-defined]
            suspension = next((s for s in notices if s.kind == s.Kind.SUSPEND), None)
            if suspension is not None:
                request.suspension = suspension  # type: ignore[attr-defined]
                allowed = {reverse("moderation:standing"), reverse("moderation:appeal"),
                           reverse("account_logout")}
                if request.path not in allowed and not request.path.startswith(
                        ALLOWED_PREFIXES):
                    return redirect("moderation:standing")
        return self.get_response(request)
