"""Ratings and player records.

- :class:`Rating`: one OpenSkill rating per player, plus the counters the leaderboard
  filters on (kept here so the leaderboard is one indexed query, not an aggregate).
- :class:`RatingChange`: one row per player per rated series, with the stored values
  before and after, so a voided series can be rolled back exactly.
- :class:`RatedSeries`: the exactly-once marker of a processed series (its primary key
  is the series), written in the same transaction as the changes.
- :class:`SeriesRecord`: one row per person per finished series (ranked or casual), the
  source of profile statistics.
- :class:`RatingContact`: how many rated series a player had with another as partner
  and as opponent (the "different partners / opponents" rules).
- :class:`MonthlyStats`: this month's boards (series won, clean games, goats) as
  counters, so the boards stay one indexed query at any size.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Series


def epoch_days(moment: datetime) -> float:
    """``moment`` as days since the Unix epoch (stored so SQL can inflate sigma)."""
    return moment.timestamp() / 86400.0


def month_start(moment: datetime) -> date:
    """The first day of ``moment``'s calendar month in UTC (the key of :class:`MonthlyStats`)."""
    utc = moment.astimezone(UTC)
    return date(utc.year, utc.month, 1)


class Rating(models.Model):
    """A player's OpenSkill rating as last stored (inactivity is applied on read)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True,
                                on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    # Series that moved this rating (a leaver's partner's series does not count).
    series_rated = models.PositiveIntegerField(default=0)
    series_won = models.PositiveIntegerField(default=0)
    partners = models.PositiveIntegerField(default=0, help_text="different partners")
    opponents = models.PositiveIntegerField(default=0, help_text="different opponents")
    # When the last rated series finished: activity rule and inactivity growth. The
    # same instant as days since the Unix epoch, so SQL can inflate sigma portably.
    last_played_at = models.DateTimeField(null=True, blank=True)
    last_played_day = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["last_played_at", "series_rated"], name="rating_active_idx"),
        ]
        constraints = [models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_pos")]

    def __str__(self) -> str:
        return f"{self.user_id}: mu={self.mu:.2f} sigma={self.sigma:.2f}"


class RatedSeries(models.Model):
    """The series was processed (records written, rated if ranked); exactly once."""

    series = models.OneToOneField(Series, primary_key=True, on_delete=models.CASCADE,
                                  related_name="rated_marker")
    rated = models.BooleanField(help_text="ranked and rated (casual series are only recorded)")
    processed_at = models.DateTimeField(auto_now_add=True)
    rolled_back_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"series {self.series_id} processed"


class RatingChange(models.Model):
    """One player's rating change from one ranked series (applied at the series' end)."""

    class Kind(models.TextChoices):
        RATED = "rated", "Rated from the games"
        LEAVER = "leaver", "Left: rated as having lost the series"
        EXCUSED = "excused", "Partner of a leaver: no change"

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.RATED)
    won = models.BooleanField()
    # The stored row before (raw, before inactivity growth) and after, for exact rollback.
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    last_played_at_before = models.DateTimeField(null=True, blank=True)
    last_played_day_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    created_at = models.DateTimeField()
    rolled_back_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "user"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="rating_change_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.display_before}->{self.display_after} ({self.series_id})"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before


class RatingContact(models.Model):
    """Rated series ``user`` played with ``other`` as partner and as opponent."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    other = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    as_partner = models.PositiveIntegerField(default=0)
    as_opponent = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "other"], name="rating_contact_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}~{self.other_id} p{self.as_partner} o{self.as_opponent}"


class SeriesRecord(models.Model):
    """What one person did in one finished series (R16–R18), for profiles and boards."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="records")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="series_records")
    position = models.PositiveSmallIntegerField()
    team = models.CharField(max_length=1)
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    ranked = models.BooleanField()
    won = models.BooleanField()
    goat = models.BooleanField()
    goat_with_eggs = models.BooleanField(default=False)
    left = models.BooleanField(default=False, help_text="abandoned the seat (a bot took it)")
    games_played = models.PositiveSmallIntegerField(
        default=0, help_text="games the person played themselves")
    games_by_substitute = models.PositiveSmallIntegerField(
        default=0, help_text="games a substitute bot played for them while they were away")
    games_won = models.PositiveSmallIntegerField(default=0)
    games_lost = models.PositiveSmallIntegerField(default=0)
    clean_games_won = models.PositiveSmallIntegerField(
        default=0, help_text="games won without losing a trick")
    eggs = models.PositiveSmallIntegerField(default=0, help_text="60–60 games (R17)")
    first_game_id = models.BigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField()
    voided = models.BooleanField(default=False)

    class Meta:
        ordering = ["-finished_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "user"], name="series_record_once"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="series_record_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in series {self.series_id}: {'won' if self.won else 'lost'}"


class MonthlyStats(models.Model):
    """A player's ranked counters for one calendar month (UTC): the fun boards."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    month = models.DateField(help_text="the first day of the month")
    series_won = models.PositiveIntegerField(default=0)
    clean_games_won = models.PositiveIntegerField(default=0)
    goats = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "month"], name="monthly_stats_once"),
        ]
        indexes = [
            models.Index(fields=["month", "-series_won"], name="monthly_series_won_idx"),
            models.Index(fields=["month", "-clean_games_won"], name="monthly_clean_idx"),
            models.Index(fields=["month", "-goats"], name="monthly_goats_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.month:%Y-%m}"
