"""Template context for every page: the tournament banner."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from games.tournaments import selectors


def round_banner(request: HttpRequest) -> dict[str, Any]:
    """``tournament_banner``: where the signed-in person stands in a running event
    (check in, checked in, playing, waiting for the next round; selectors.banner_of);
    ``tournament_socket``: open the banner's socket (they have an entry in an event
    that is running or about to). Two indexed queries for most signed-in people."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    banner, follow = selectors.banner_of(user)
    if banner is not None and banner.match is not None and banner.match.table_id:
        # Not on the very table it would send them to (the banner's own fetch names the
        # page it is shown on).
        page = str(request.GET.get("path", ""))[:200] or request.path
        if page == reverse("games:table", args=[banner.match.table_id]):
            banner = None
    return {"tournament_banner": banner, "tournament_socket": follow}
