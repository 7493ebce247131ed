"""``/api/leaderboard``: the rated players and this month's boards, as on ``/leaderboard/``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from accounts import selectors as account_selectors
from games.ratings import selectors as rating_selectors
from kozel_site.api import params, schemas

router = Router(tags=["leaderboard"])


@router.get("", response={200: schemas.Leaderboard, **schemas.REFUSALS},
            summary="The leaderboard, one page")
def leaderboard(request: HttpRequest, page: params.Page = 1) -> dict[str, Any]:
    """A page past the last shows the last, as the page does; ``your_rank`` is the
    token owner's place (null when anonymous or not on the board)."""
    board = rating_selectors.leaderboard(page, request.auth)  # type: ignore[attr-defined]
    return {"page": board.page, "pages": board.pages, "total": board.total,
            "your_rank": board.your_rank,
            "rows": [{"rank": r.rank, "username": r.user.get_username(),
                      "name": account_selectors.profile_for(r.user).public_name,
                      "rating": r.display, "series_rated": r.series_rated,
                      "win_percent": r.win_percent, "trend": r.trend} for r in board.rows]}


@router.get("/month", response={200: schemas.MonthlyBoards, **schemas.REFUSALS},
            summary="This month's boards")
def monthly(request: HttpRequest) -> dict[str, Any]:
    """The top ten of the month for ranked series won, games won without losing a trick
    and goats (R18), as beside the leaderboard."""
    boards = rating_selectors.monthly_boards()
    return {"month": boards["month"],
            **{name: [{"rank": r.rank, "username": r.user.get_username(),
                       "name": account_selectors.profile_for(r.user).public_name,
                       "count": r.count} for r in boards[name]]
               for name in ("series_won", "clean_games_won", "goats")}}
