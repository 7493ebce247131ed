"""The leaderboard page. Views parse, call selectors and render."""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.ratings import selectors
from games.ratings.conf import rating_settings
from kozel_site import ids


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """``/leaderboard/?page=N``: the rated players, your rank, and this month's boards."""
    try:
        page = ids.parse_id(request.GET.get("page", "1"))
    except BadRequest:
        page = 1  # a page number out of range shows the first page
    board = selectors.leaderboard(page, request.user)
    conf = rating_settings
    return render(request, "leaderboard.html", {
        "board": board,
        "boards": selectors.monthly_boards(),
        "rules": {"sigma": conf.LEADERBOARD_MAX_SIGMA, "series": conf.LEADERBOARD_MIN_SERIES,
                  "partners": conf.LEADERBOARD_MIN_PARTNERS,
                  "opponents": conf.LEADERBOARD_MIN_OPPONENTS,
                  "days": conf.LEADERBOARD_ACTIVE_DAYS},
    })
