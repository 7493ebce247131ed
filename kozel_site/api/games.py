"""``/api/games/<id>``: a played-out game's full record, for third-party tools to replay
with the engine protocol (docs/api.md, games/engine/PROTOCOL.md).

The same rule as the replay page and its download (``selectors.record_access``): a
private table's game only for whom the table lets in (403), and nothing of a game before
it is over (404, R19): no hand, no discard, no seed.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from accounts import selectors as account_selectors
from games import selectors
from games.models import Game
from games.reviews import selectors as review_selectors
from games.reviews.models import Review
from kozel_site.api import params, schemas

router = Router(tags=["games"])


def _seat(seat: Any) -> dict[str, Any]:
    person = seat.user or seat.away_user
    if person is None:
        return {"position": seat.position, "username": None, "name": seat.name,
                "bot": seat.bot_level or None}
    return {"position": seat.position, "username": person.get_username(),
            "name": account_selectors.profile_for(person).public_name,
            "bot": seat.bot_level or None}


@router.get("/{game_id}",
            response={200: schemas.GameRecord, **schemas.NOT_FOUND},
            summary="A played-out game's full record")
def game(request: HttpRequest, game_id: params.GameId) -> dict[str, Any]:
    """Seed, deal algorithm, dealer, every starting hand, the stock, every action with
    its seat (discards included) and the result, once the game is over. A voided
    series' games stay readable and say ``void``."""
    row = (Game.objects.select_related("series__table").filter(pk=game_id).first())
    if row is None:
        raise HttpError(404, "No game with that id.")
    access = selectors.record_access(row, request.auth, set())  # type: ignore[attr-defined]
    if access is selectors.RecordAccess.PRIVATE:
        raise HttpError(403, "This game was played at a private table.")
    if access is selectors.RecordAccess.NOT_OVER:
        raise HttpError(404, "The record opens when the game is over.")
    if access is selectors.RecordAccess.HELD:
        raise HttpError(404, "The record of a duplicate board opens once every table "
                             "has played it.")
    roster = (row.series.roster.select_related("user__profile", "away_user__profile")
              .order_by("position"))
    return {"id": row.pk, "series": row.series_id, "table": row.series.table_id,
            "number": row.number, "status": row.status, "void": row.is_void,
            "finished_at": row.finished_at, "seats": [_seat(s) for s in roster],
            "record": selectors.game_record(row)}


@router.get("/{game_id}/reviews/{seat}",
            response={200: schemas.GameReview, **schemas.NOT_FOUND},
            summary="The strong bot's review of one seat of a finished game")
def review(request: HttpRequest, game_id: params.GameId, seat: params.SeatNumber
           ) -> dict[str, Any]:
    """The review as the replay page shows it (``/game/<id>/review/<seat>/``): its status,
    then each decision of the seat with its grade, the action played, the better one and
    every choice's value. Public tables' reviews for everyone, a private table's for the
    people who played there; 404 when there is none (ask for it on the replay page)."""
    row = Game.objects.select_related("series__table").filter(pk=game_id).first()
    if row is None or not review_selectors.may_see_reviews(row, request.auth):  # type: ignore[attr-defined]
        raise HttpError(404, "There is no such review.")
    found = Review.objects.filter(game=row, seat=seat).first()
    if found is None:
        raise HttpError(404, "There is no such review.")
    return review_selectors.review_dict(found)
