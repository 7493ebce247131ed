"""Template context for every page: the notification badge."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.social.selectors import unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: the badge's number. One indexed count for signed-in
    people, nothing otherwise."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
