"""``/api/players/…``: a player's profile and ratings (the page ``/@/<username>``) and
the series and games they played (``/@/<username>/games``)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from accounts import history
from accounts import selectors as account_selectors
from games.models import Game
from games.ratings import selectors as rating_selectors
from kozel_site.api import params, schemas

router = Router(tags=["players"])

PAGE_SIZE = 30  # as the history page


def _player(username: str) -> Any:
    user = account_selectors.user_by_username(username)
    if user is None:
        raise HttpError(404, "No player with that name.")
    return user


@router.get("/{username}", response={200: schemas.Player, **schemas.NOT_FOUND},
            summary="A player's profile, rating and record")
def player(request: HttpRequest, username: params.Username) -> dict[str, Any]:
    """Public to everyone, as the profile page is. A deleted account keeps its games and
    numbers under "deleted player", and nothing it wrote."""
    user = _player(username)
    profile = account_selectors.profile_for(user)
    panel = rating_selectors.profile_panel(user)
    stats = account_selectors.profile_stats(user)
    rating = panel.rating
    return {
        "username": user.get_username(), "name": profile.public_name,
        "deleted": profile.is_deleted, "country": profile.country, "bio": profile.bio,
        "joined": user.date_joined,
        "rating": {"display": rating.display, "provisional": rating.provisional,
                   "series_rated": rating.series_rated, "series_won": rating.series_won},
        "totals": {name: getattr(stats, name) for name in schemas.Totals.model_fields},
        "rating_history": [{"at": p.at, "rating": p.display, "change": p.delta}
                           for p in panel.history],
    }


def _game_line(game: Game) -> dict[str, Any]:
    result = getattr(game, "result", None) if game.played_out else None
    return {"id": game.pk, "number": game.number, "status": game.status,
            "loss_points": (None if result is None
                            else {"A": result.loss_points_a, "B": result.loss_points_b}),
            "record": f"/api/games/{game.pk}" if game.played_out else None}


@router.get("/{username}/games",
            response={200: schemas.SeriesPage, **schemas.NOT_FOUND},
            summary="The series and games a player took part in, newest first")
def games(request: HttpRequest, username: params.Username, page: params.Page = 1,
          kind: params.Kind = None, partner: params.OptionalUsername = None,
          against: params.OptionalUsername = None) -> dict[str, Any]:
    """Paged, :data:`PAGE_SIZE` series a page. Series at private tables are listed only
    to the player themself (with their token), as on their history page. A page past
    the last is empty."""
    user = _player(username)
    names: dict[str, Any] = {}
    for field, name in (("partner", partner), ("against", against)):
        name = (name or "").strip()
        names[field] = account_selectors.user_by_username(name) if name else None
        if name and names[field] is None:
            raise HttpError(400, f"No player named {name!r} ({field}).")
    viewer = request.auth  # type: ignore[attr-defined]
    rows = history.series_of(user, viewer, history.HistoryFilter(kind=kind or "", **names))
    paginator = Paginator(rows, PAGE_SIZE, allow_empty_first_page=True)
    items = []
    if page <= paginator.num_pages:
        for series in paginator.page(page):
            line = history.line_for(series, viewer)
            items.append({
                "id": series.pk, "table": series.table_id, "ranked": series.ranked,
                "tournament": hasattr(series, "tournament_match"),
                "status": series.status, "started_at": series.started_at,
                "position": series.my_position,  # type: ignore[attr-defined]
                "team": line.team, "partner": line.partner, "opponents": line.opponents,
                "result": line.result,
                "loss_points": {"A": series.loss_points_a, "B": series.loss_points_b},
                "games": [_game_line(g) for g in series.games.all()],
            })
    return {"count": paginator.count, "page": page, "pages": paginator.num_pages,
            "items": items}
