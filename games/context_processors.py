"""Template context for every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games import selectors


def live_game(request: HttpRequest) -> dict[str, Any]:
    """``live_seat``: the seat the signed-in person holds in a series being played, so
    every page can say "Your game is on — return to table X" (UX: never wonder where
    your game went). One indexed query per page for signed-in people, none otherwise."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    seat = selectors.live_seat_of(user)
    if seat is None:
        return {}
    table = seat.series.table
    match = getattr(request, "resolver_match", None)
    here = bool(match and match.url_name == "table"
                and match.kwargs.get("table_id") == table.pk)
    return {"live_seat": seat, "live_table": table, "live_table_is_here": here}
