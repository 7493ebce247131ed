"""Template context for every page: the sanctions in force for the signed-in player."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.moderation import selectors


def sanctions(request: HttpRequest) -> dict[str, Any]:
    """``sanction_notices``: what base.html tells a sanctioned player on every page
    (one indexed query for signed-in people, none otherwise)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    notices = getattr(request, "sanction_notices", None)
    if notices is None:  # a request that did not pass the middleware (a test client view)
        notices = selectors.notices_for(user)
    # The "Moderation" link of the account menu (one query; perms would cost two).
    context: dict[str, Any] = {"is_moderator": selectors.is_moderator(user)}
    if notices:
        context["sanction_notices"] = notices
    return context
