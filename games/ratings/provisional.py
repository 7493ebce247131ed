"""The leaderboard on a young site: provisional players, and what a player lacks.

The board proper (``selectors.eligible``) lists only players whose rating is settled
and well founded. On a new site nobody qualifies for weeks, so a board of those alone
says "nobody plays here". This module reads the rest: rated players who do not qualify
yet ("provisional", ranked by the same mu − 3σ score), a player's place among them and
exactly what each rule still asks of them, and the short top list of the home page.
Reads only, each a fixed number of queries whatever the number of players.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, QuerySet, Value
from django.db.models.functions import Sqrt
from django.utils import timezone

from games.ratings.conf import rating_settings
from games.ratings.models import Rating
from games.ratings.selectors import _display_of_score, _variance, eligible


def provisional(now: datetime | None = None) -> QuerySet[Rating]:
    """Rated players who are not on the board, best first, annotated with ``score``
    (mu − 3σ after inactivity, the board's own order)."""
    conf = rating_settings
    now = now or timezone.now()
    return (Rating.objects.filter(series_rated__gte=1, last_played_day__isnull=False)
            .exclude(user_id__in=eligible(now).values("user_id"))
            .alias(variance=_variance(now))
            .annotate(score=F("mu") - Value(conf.DISPLAY_SIGMAS) * Sqrt(F("variance")))
            .order_by("-score", "-mu", "user_id"))


@dataclass(frozen=True)
class BoardRow:
    """One line of a top list: a qualified player, or a provisional one (marked)."""

    place: int
    user: Any
    display: int
    series_rated: int
    provisional: bool
    is_you: bool = False


def _rows(ratings: list[Rating], *, provisional: bool, first_place: int,
          viewer_id: int | None) -> list[BoardRow]:
    users = (get_user_model().objects.select_related("profile")
             .in_bulk([r.user_id for r in ratings]) if ratings else {})
    return [BoardRow(first_place + i, users[r.user_id], _display_of_score(r.score),  # type: ignore[attr-defined]
                     r.series_rated, provisional, r.user_id == viewer_id)
            for i, r in enumerate(ratings)]


def _viewer_id(viewer: AbstractBaseUser | None) -> int | None:
    return getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None


def provisional_rows(limit: int | None = None, viewer: AbstractBaseUser | None = None,
                     now: datetime | None = None) -> list[BoardRow]:
    """The best provisional players, places counted among them (two queries)."""
    limit = limit or rating_settings.LEADERBOARD_PROVISIONAL_ROWS
    ratings = list(provisional(now)[:limit])
    return _rows(ratings, provisional=True, first_place=1, viewer_id=_viewer_id(viewer))


def is_young(eligible_count: int) -> bool:
    """Too few qualified players for the board to stand alone (``LEADERBOARD_YOUNG_BELOW``)."""
    return eligible_count < rating_settings.LEADERBOARD_YOUNG_BELOW


def top_players(limit: int = 5, now: datetime | None = None) -> list[BoardRow]:
    """The home page's top list: qualified players first; while fewer than ``limit``
    qualify, the best provisional players fill it, marked (at most four queries)."""
    now = now or timezone.now()
    qualified = list(eligible(now)[:limit])
    rows = _rows(qualified, provisional=False, first_place=1, viewer_id=None)
    if len(qualified) < limit:
        rest = list(provisional(now)[:limit - len(qualified)])
        rows += _rows(rest, provisional=True, first_place=1, viewer_id=None)
    return rows


@dataclass(frozen=True)
class Standing:
    """Where a player who is not on the board stands, and what each rule still asks.

    ``place`` is the player's place among the provisional players (None before their
    first rated series). Each ``*_left`` is how many more are needed (0: that rule is
    met); ``settling`` means the rating is still too uncertain (σ above the limit);
    ``inactive`` means no ranked series in the last ``days`` days."""

    place: int | None
    display: int | None
    series_left: int
    partners_left: int
    opponents_left: int
    settling: bool
    inactive: bool
    days: int

    @property
    def counts_left(self) -> bool:
        return bool(self.series_left or self.partners_left or self.opponents_left)


def standing_of(viewer: AbstractBaseUser, now: datetime | None = None) -> Standing | None:
    """``viewer``'s provisional place and what they lack; None when they are on the board
    (then the board shows their rank). At most three queries."""
    conf = rating_settings
    now = now or timezone.now()
    days = conf.LEADERBOARD_ACTIVE_DAYS
    if eligible(now).filter(user_id=viewer.pk).exists():
        return None
    mine = provisional(now).filter(user_id=viewer.pk).first()
    if mine is None:  # never rated: every rule is ahead
        return Standing(None, None, conf.LEADERBOARD_MIN_SERIES, conf.LEADERBOARD_MIN_PARTNERS,
                        conf.LEADERBOARD_MIN_OPPONENTS, True, False, days)
    score: float = mine.score  # type: ignore[attr-defined]
    # Only a better score puts someone ahead: an equal score shares the place.
    ahead = provisional(now).filter(score__gt=score).count()
    sigma = (mine.mu - score) / conf.DISPLAY_SIGMAS  # score = mu − 3σ, σ after inactivity
    recent = (mine.last_played_at is not None
              and mine.last_played_at >= now - timedelta(days=days))
    return Standing(
        place=ahead + 1, display=_display_of_score(score),
        series_left=max(0, conf.LEADERBOARD_MIN_SERIES - mine.series_rated),
        partners_left=max(0, conf.LEADERBOARD_MIN_PARTNERS - mine.partners),
        opponents_left=max(0, conf.LEADERBOARD_MIN_OPPONENTS - mine.opponents),
        settling=sigma > conf.LEADERBOARD_MAX_SIGMA, inactive=not recent, days=days)
