"""Template context for every page: the round-start banner."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.tournaments import selectors


def round_banner(request: HttpRequest) -> dict[str, Any]:
    """``tournament_match``: the match waiting for the signed-in person to check in;
    ``tournament_socket``: open the banner's socket (they have an entry in an event
    that is running or about to). Two indexed queries for signed-in people only."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    match = selectors.pending_match_of(user)
    return {
        "tournament_match": match,
        "tournament_checked_in": bool(match and user.pk in match.checked_in),
        "tournament_socket": match is not None or selectors.has_live_entry(user),
    }
