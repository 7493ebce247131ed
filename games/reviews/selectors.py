"""What the pages read of reviews, and who may read them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, Q

from games import policy
from games.models import Game, SeriesSeat, Table
from games.policy import record_is_public

from .models import Review


def may_see_reviews(game: Game, user: AbstractBaseUser | None) -> bool:
    """Everyone on a public table's games (or a private one's that an app published to
    all, a policy record release); on a private one, the people who played it; nobody
    while an app holds the game's record (a duplicate board, R19)."""
    if not record_is_public(game.pk):
        return False
    if not game.series.table.is_private or policy.released_records([game.pk]):
        return True
    if user is None or not user.is_authenticated:
        return False
    return SeriesSeat.objects.filter(Q(user=user) | Q(away_user=user),
                                     series_id=game.series_id).exists()


def reviews_of(game: Game) -> dict[int, Review]:
    """The game's reviews by seat."""
    return {r.seat: r for r in Review.objects.filter(game=game)}


def review_dict(review: Review) -> dict[str, Any]:
    """A review as the replay page's script reads it (decisions only once made)."""
    done = review.status == Review.Status.DONE
    return {
        "game": review.game_id, "seat": review.seat, "status": review.status,
        "status_text": str(review.get_status_display()),
        "decisions": review.decisions if done else [],
        "summary": review.summary if done else {},
    }


def profile_summary(user: AbstractBaseUser, include_private: bool = False
                    ) -> dict[str, Any] | None:
    """Over the reviews of the seats ``user`` played: how many, the mean cost of a
    decision, and the blunders and mistakes per game; None without any. Private tables'
    games count only for the player's own eyes (``include_private``)."""
    # One filter() call: the roster row of the reviewed seat is the user's own.
    mine = Review.objects.filter(status=Review.Status.DONE, game__series__roster__user=user,
                                 game__series__roster__position=F("seat"))
    if not include_private:
        mine = mine.exclude(game__series__table__visibility=Table.Visibility.PRIVATE)
    rows = list(mine.values_list("summary", flat=True))
    if not rows:
        return None
    decisions = sum(r.get("decisions", 0) for r in rows)
    cost = sum(r.get("mean_cost", 0.0) * r.get("decisions", 0) for r in rows)
    blunders = sum(r.get("grades", {}).get("blunder", 0) for r in rows)
    mistakes = sum(r.get("grades", {}).get("mistake", 0) for r in rows)
    return {"games": len(rows), "mean_cost": round(cost / decisions, 2) if decisions else 0.0,
            "blunders_per_game": round(blunders / len(rows), 2),
            "mistakes_per_game": round(mistakes / len(rows), 2)}
