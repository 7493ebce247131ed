"""The leaderboard page. Views parse, call selectors and render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.ratings import selectors
from games.ratings.conf import rating_settings


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """``/leaderboard/?page=N``: the rated players, your rank, and this month's boards."""
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
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
