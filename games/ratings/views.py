"""The leaderboard page. Views parse, call selectors and render."""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.guests import is_guest
from games.ratings import provisional, selectors
from games.ratings.conf import rating_settings
from kozel_site import ids


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """``/leaderboard/?page=N``: the rated players, your rank (or your provisional place
    and what you still need), and this month's boards. While few players qualify, the
    best provisional players are listed too, marked."""
    try:
        page = ids.parse_id(request.GET.get("page", "1"))
    except BadRequest:
        page = 1  # a page number out of range shows the first page
    board = selectors.leaderboard(page, request.user)
    conf = rating_settings
    young = provisional.is_young(board.total)
    viewer = request.user
    standing = (provisional.standing_of(viewer)
                if viewer.is_authenticated and not is_guest(viewer) and not board.your_rank
                else None)
    return render(request, "leaderboard.html", {
        "board": board,
        "young": young,
        "provisional_rows": provisional.provisional_rows(viewer=viewer) if young else [],
        "standing": standing,
        "boards": selectors.monthly_boards(),
        "rules": {"sigma": conf.LEADERBOARD_MAX_SIGMA, "series": conf.LEADERBOARD_MIN_SERIES,
                  "partners": conf.LEADERBOARD_MIN_PARTNERS,
                  "opponents": conf.LEADERBOARD_MIN_OPPONENTS,
                  "days": conf.LEADERBOARD_ACTIVE_DAYS,
                  "young_below": conf.LEADERBOARD_YOUNG_BELOW},
    })
