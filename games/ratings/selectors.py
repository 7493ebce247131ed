"""Reads of the ratings app: the leaderboard, the monthly boards, a player's rating,
history and record. No writes (inactivity is applied on read, never stored here).

Every function runs a fixed number of queries whatever the size of the data (tested
with ``django_assert_num_queries`` on 1,000 players and 5,000 series): the leaderboard
filters and orders on indexed columns of :class:`Rating`, the boards read
:class:`MonthlyStats` counters, and a profile reads the player's own rows by index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, FloatField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Least, Sqrt
from django.utils import timezone

from games.models import Series, SeriesSeat, Table
from games.ratings.charts import HistoryPoint, history_svg
from games.ratings.conf import rating_settings
from games.ratings.models import (
    MonthlyStats,
    RatedSeries,
    Rating,
    RatingChange,
    SeriesRecord,
    epoch_days,
    month_start,
)


@dataclass(frozen=True)
class RatingView:
    """A rating as people see it, with inactivity applied at ``now``."""

    display: int
    mu: float
    sigma: float
    provisional: bool
    series_rated: int = 0
    series_won: int = 0

    @property
    def win_percent(self) -> int | None:
        if not self.series_rated:
            return None
        return round(100 * self.series_won / self.series_rated)


def rating_view(rating: Rating | None, now: datetime | None = None) -> RatingView:
    """``rating`` (or the prior for a player never rated) with sigma grown for idle days."""
    conf = rating_settings
    if rating is None:
        return RatingView(conf.display(conf.MU, conf.SIGMA), conf.MU, conf.SIGMA, True)
    sigma = rating.sigma
    if rating.last_played_day is not None:
        idle = epoch_days(now or timezone.now()) - rating.last_played_day
        sigma = conf.inflated_sigma(rating.sigma, idle)
    return RatingView(conf.display(rating.mu, sigma), rating.mu, sigma,
                      sigma > conf.PROVISIONAL_SIGMA, rating.series_rated, rating.series_won)


def rating_of(user: AbstractBaseUser) -> RatingView:
    """The player's rating now (one query)."""
    return rating_view(Rating.objects.filter(user_id=user.pk).first())


# --- The leaderboard ----------------------------------------------------------------------

def _variance(now: datetime) -> Any:
    """SQL: sigma² grown by the idle days since the last rated series, capped at the prior."""
    conf = rating_settings
    idle = Value(epoch_days(now), output_field=FloatField()) - F("last_played_day")
    grown = F("sigma") * F("sigma") + Value(conf.IDLE_VARIANCE_PER_DAY) * idle
    return Least(grown, Value(conf.SIGMA * conf.SIGMA, output_field=FloatField()))


def eligible(now: datetime | None = None) -> QuerySet[Rating]:
    """Ratings on the leaderboard, best first, annotated with ``score`` (mu − 3σ).

    Rules: sigma ≤ 4.5 after inactivity, at least 20 rated series, at least 5
    different partners and 8 different opponents, and a rated series in the last 14 days.
    """
    conf = rating_settings
    now = now or timezone.now()
    return (Rating.objects
            .filter(last_played_at__gte=now - timedelta(days=conf.LEADERBOARD_ACTIVE_DAYS),
                    series_rated__gte=conf.LEADERBOARD_MIN_SERIES,
                    partners__gte=conf.LEADERBOARD_MIN_PARTNERS,
                    opponents__gte=conf.LEADERBOARD_MIN_OPPONENTS)
            .alias(variance=_variance(now))
            .filter(variance__lte=conf.LEADERBOARD_MAX_SIGMA ** 2)
            .annotate(score=F("mu") - Value(conf.DISPLAY_SIGMAS) * Sqrt(F("variance")))
            .order_by("-score", "-mu", "user_id"))


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    user: Any
    display: int
    series_rated: int
    win_percent: int
    trend: int
    is_you: bool


@dataclass(frozen=True)
class LeaderboardPage:
    rows: list[LeaderRow]
    page: int
    pages: int
    total: int
    your_rank: int | None = None
    your_page: int | None = None
    page_numbers: list[int] = field(default_factory=list)


def _display_of_score(score: float) -> int:
    conf = rating_settings
    return max(0, round(conf.DISPLAY_BASE + conf.DISPLAY_SCALE * score))


def leaderboard(page: int = 1, viewer: AbstractBaseUser | None = None,
                now: datetime | None = None) -> LeaderboardPage:
    """One page of the leaderboard and the viewer's own rank (at most 6 queries)."""
    conf = rating_settings
    now = now or timezone.now()
    size = conf.LEADERBOARD_PAGE_SIZE
    board = eligible(now)
    total = board.count()
    pages = max(1, -(-total // size))
    page = min(max(1, page), pages)
    start = (page - 1) * size
    # Page rows first, then their users by primary key: joining users and profiles into
    # the sorted scan made SQLite join every eligible row, not only the page's.
    ratings = list(board[start:start + size])
    users = (get_user_model().objects.select_related("profile")
             .in_bulk([r.user_id for r in ratings]) if ratings else {})
    trends = dict(
        RatingChange.objects.filter(user_id__in=[r.user_id for r in ratings],
                                    rolled_back_at__isnull=True,
                                    created_at__gte=now - timedelta(days=conf.TREND_DAYS))
        .values("user_id").annotate(t=Sum(F("display_after") - F("display_before")))
        .values_list("user_id", "t")) if ratings else {}
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) \
        else None
    rows = [LeaderRow(rank=start + i + 1, user=users[r.user_id], display=_display_of_score(r.score),
                      series_rated=r.series_rated,
                      win_percent=round(100 * r.series_won / max(1, r.series_rated)),
                      trend=int(trends.get(r.user_id) or 0), is_you=r.user_id == viewer_id)
            for i, r in enumerate(ratings)]
    your_rank = your_page = None
    if viewer_id is not None:
        mine = board.filter(user_id=viewer_id).values_list("score", flat=True).first()
        if mine is not None:
            your_rank = board.filter(score__gt=mine).count() + 1
            your_page = -(-your_rank // size)
    numbers = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    return LeaderboardPage(rows, page, pages, total, your_rank, your_page, numbers)


# --- This month's boards ---------------------------------------------------------------------

@dataclass(frozen=True)
class BoardRow:
    rank: int
    user: Any
    count: int


def _board(month: date, column: str, limit: int) -> list[BoardRow]:
    rows = (MonthlyStats.objects.filter(month=month, **{f"{column}__gt": 0})
            .select_related("user__profile").order_by(f"-{column}", "user_id")[:limit])
    return [BoardRow(i + 1, r.user, getattr(r, column)) for i, r in enumerate(rows)]


def monthly_boards(now: datetime | None = None, limit: int = 10) -> dict[str, Any]:
    """Ranked series won, games won without losing a trick, goats: this month (3 queries)."""
    month = month_start(now or timezone.now())
    return {"month": month,
            "series_won": _board(month, "series_won", limit),
            "clean_games_won": _board(month, "clean_games_won", limit),
            "goats": _board(month, "goats", limit)}


# --- A player's profile ------------------------------------------------------------------------

def rating_history(user: AbstractBaseUser) -> list[HistoryPoint]:
    """The latest rating changes, oldest first, for the profile chart (one query)."""
    rows = list(RatingChange.objects.filter(user_id=user.pk, rolled_back_at__isnull=True)
                .exclude(kind=RatingChange.Kind.EXCUSED)
                .order_by("-created_at", "-id")
                .values_list("created_at", "display_before", "display_after")
                [:rating_settings.HISTORY_POINTS])
    return [HistoryPoint(at, after, after - before) for at, before, after in reversed(rows)]


@dataclass(frozen=True)
class Totals:
    series_played: int = 0
    series_won: int = 0
    series_lost: int = 0
    games_played: int = 0
    games_won: int = 0
    games_lost: int = 0
    goats: int = 0
    goats_with_eggs: int = 0
    eggs: int = 0


def totals(user: AbstractBaseUser) -> Totals:
    """Series and games won and lost, goats, goats with eggs, eggs (one query)."""
    agg = SeriesRecord.objects.filter(user_id=user.pk, voided=False).aggregate(
        series_played=Count("id"), series_won=Count("id", filter=Q(won=True)),
        games_played=Coalesce(Sum("games_played"), 0),
        games_won=Coalesce(Sum("games_won"), 0), games_lost=Coalesce(Sum("games_lost"), 0),
        goats=Count("id", filter=Q(goat=True)),
        goats_with_eggs=Count("id", filter=Q(goat_with_eggs=True)),
        eggs=Coalesce(Sum("eggs"), 0))
    return Totals(series_lost=agg["series_played"] - agg["series_won"], **agg)


@dataclass(frozen=True)
class Partner:
    user: Any
    series: int
    won: int


def favourite_partner(user: AbstractBaseUser) -> Partner | None:
    """The person this player partnered most often (ties: the most wins) (two queries)."""
    row = (SeriesRecord.objects.filter(user_id=user.pk, voided=False, partner__isnull=False)
           .values("partner_id").annotate(n=Count("id"), w=Count("id", filter=Q(won=True)))
           .order_by("-n", "-w", "partner_id").first())
    if row is None:
        return None
    partner = (get_user_model().objects.select_related("profile")
               .filter(pk=row["partner_id"]).first())
    return Partner(partner, row["n"], row["w"]) if partner else None


def series_rating_changes(series_id: int) -> dict[str, Any]:
    """What a finished series did to its players' displayed ratings, as stored by
    ``services.rate_series`` (two queries): "pending" until the rating task has run,
    "unrated" when it decided not to rate (a casual series, a tie, a bot seat), else
    "rated" with each player's displayed rating before and after. Ratings are public
    (the leaderboard), so every reader of the table may see all four."""
    marker = RatedSeries.objects.filter(series_id=series_id).first()
    if marker is None:
        return {"status": "pending", "changes": []}
    if not marker.rated or marker.rolled_back_at is not None:
        return {"status": "unrated", "changes": []}
    changes = [{"position": c.position, "before": c.display_before,
                "after": c.display_after, "delta": c.delta}
               for c in RatingChange.objects.filter(series_id=series_id,
                                                    rolled_back_at__isnull=True)
               .order_by("position")]
    return {"status": "rated", "changes": changes}


def recent_series(user: AbstractBaseUser, limit: int = 10) -> list[SeriesRecord]:
    """The player's latest finished series, with partner, for the profile (one query)."""
    return list(SeriesRecord.objects.filter(user_id=user.pk, voided=False)
                .select_related("partner__profile", "series")
                .defer("series__state")
                .order_by("-finished_at", "-id")[:limit])


@dataclass(frozen=True)
class ProfileRatings:
    rating: RatingView
    history: list[HistoryPoint]
    partner: Partner | None
    recent: list[SeriesRecord]

    @property
    def chart(self) -> str:
        """The rating-history chart as inline SVG ("" before the first rated series)."""
        return history_svg(self.history)


def profile_panel(user: AbstractBaseUser) -> ProfileRatings:
    """Everything the profile shows from this app (a fixed number of queries)."""
    return ProfileRatings(rating_of(user), rating_history(user), favourite_partner(user),
                          recent_series(user))


# How a bot level compares with people's ratings when choosing tables worth watching:
# roughly where each level would sit on the board (games/bots/ARENA.md's ladder).
BOT_WATCH_VALUE = {"strong": 1600, "club": 1450, "casual": 1250, "beginner": 1050,
                   "random": 900}


@dataclass(frozen=True)
class WatchedTable:
    """A live public table and why it is worth watching."""

    table: Any
    strength: int
    names: list[str]
    people: tuple[int | None, ...] = ()  # each name's person (None: a bot), for privacy
    series: Any = None  # the live series: its loss points and target make the score

    @property
    def team_a(self) -> str:
        """The names of seats 0 and 2, partners (R1), as "x & y"."""
        return " & ".join(self.names[0::2])

    @property
    def team_b(self) -> str:
        """The names of seats 1 and 3 (R1)."""
        return " & ".join(self.names[1::2])


def tables_worth_watching(limit: int = 6) -> list[WatchedTable]:
    """Live public tables, strongest first: the best seat's displayed rating, or the
    bot level's place on the ladder (the home page's "Live now"). Never a private table:
    its players chose not to be watched. Three queries whatever the number of tables."""
    live = list(Series.objects.filter(status=Series.Status.PLAYING,
                                      table__visibility=Table.Visibility.PUBLIC)
                .select_related("table").defer("state").order_by("-started_at")[:100])
    seats = list(SeriesSeat.objects.filter(series__in=live).select_related("user"))
    people = {s.user_id for s in seats if s.user_id}
    shown = {r.user_id: rating_view(r).display for r in Rating.objects.filter(user_id__in=people)}
    conf = rating_settings
    by_series: dict[int, list[Any]] = {}
    for seat in seats:
        by_series.setdefault(seat.series_id, []).append(seat)
    watched = []
    for series in live:
        roster = sorted(by_series.get(series.pk, []), key=lambda s: s.position)
        strength = max((shown.get(s.user_id, conf.display(conf.MU, conf.SIGMA)) if s.user_id
                        else BOT_WATCH_VALUE.get(s.bot_level, 0) for s in roster), default=0)
        watched.append(WatchedTable(series.table, strength, [s.name for s in roster],
                                    tuple(s.user_id for s in roster), series))
    watched.sort(key=lambda w: -w.strength)
    return watched[:limit]
