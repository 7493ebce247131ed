"""The lobby: a Table with four Seats.

A seat's occupant is either a user or a bot. A bot is *not* a user account: it is a
seat occupied at a level (``bot_level``). That keeps bots out of user lists, ratings
and sign-up rules, and lets any number of tables use the same level at once; the seat
row itself is the bot's identity at that table.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import engine

# Bots get a name by seat so that three bots at one table can be told apart at a glance.
BOT_NAMES = ("Anya", "Boris", "Vera", "Gleb")
# What a table may choose: a casual series' target (R18), a turn's clock in seconds
# (None: no clock), and the clocks a ranked table plays with.
CASUAL_TARGETS = (6, 12, 18)
# The target of a private table whose games are a fixed set of deals (a duplicate event's
# boards: at most 8 × 6 loss points), so that R18's target never ends the series early.
FIXED_DEALS_TARGET = 60
CLOCKS = (None, 15, 30, 60)
RANKED_CLOCKS = (15, 30)


def new_invite_token() -> str:
    """An unguessable token for a private table's invite link."""
    return secrets.token_urlsafe(16)


class BotLevel(models.TextChoices):
    """The bot ladder; ``random`` is the engine's uniform policy."""

    RANDOM = "random", _("Random")
    BEGINNER = "beginner", _("Beginner")
    CASUAL = "casual", _("Casual")
    CLUB = "club", _("Club")
    STRONG = "strong", _("Strong")


class Table(models.Model):
    """A lobby table: who owns it, how it plays, and where it is in its life."""

    class Kind(models.TextChoices):
        CASUAL = "casual", _("Casual")
        RANKED = "ranked", _("Ranked")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private (invite link)")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    TURN_CLOCK_CHOICES = [(None, _("No clock")), (15, _("15 s")), (30, _("30 s")), (60, _("60 s"))]
    SERIES_TARGET_CHOICES = [(6, "6"), (12, "12"), (18, "18")]

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="owned_tables")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CASUAL)
    visibility = models.CharField(max_length=10, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True,
                                                    choices=TURN_CLOCK_CHOICES)
    series_target = models.PositiveSmallIntegerField(default=12, choices=SERIES_TARGET_CHOICES)
    bots_allowed = models.BooleanField(default=True)
    start_when_full = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Presence (who has the table open) is not stored here: it lives in Redis as
    # heartbeats with an expiry (games/presence.py), so that a crash cannot leave it wrong.
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            # The lobby list: public tables by status, most recently active first.
            models.Index(fields=["visibility", "status", "-updated_at"], name="table_lobby_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(turn_seconds__isnull=True) | Q(turn_seconds__in=[15, 30, 60]),
                name="table_turn_seconds_valid"),
            models.CheckConstraint(condition=Q(series_target__gte=1) & Q(series_target__lte=60),
                                   name="table_series_target_range"),
            # Ranked tables are humans only and always have a clock.
            models.CheckConstraint(
                condition=(~Q(kind="ranked")
                           | (Q(bots_allowed=False) & Q(turn_seconds__isnull=False))),
                name="table_ranked_rules"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def is_private(self) -> bool:
        return self.visibility == self.Visibility.PRIVATE


class Seat(models.Model):
    """One of a table's four positions; partners are positions 0+2 and 1+3 (R1)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="seats")
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True, default="")
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "user"], condition=Q(user__isnull=False),
                                    name="seat_unique_player_per_table"),
            models.CheckConstraint(condition=Q(position__gte=0) & Q(position__lte=3),
                                   name="seat_position_range"),
            models.CheckConstraint(condition=Q(user__isnull=True) | Q(bot_level=""),
                                   name="seat_user_or_bot"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.position} {self.occupant_label}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def team(self) -> str:
        """Team letter of this position: "A" (0, 2) or "B" (1, 3) (R1)."""
        return engine.team_of(self.position)

    @property
    def occupant_label(self) -> str:
        if self.bot_level:
            return f"{BOT_NAMES[self.position]} ({self.get_bot_level_display()})"
        if self.user_id is None:
            return "empty"
        profile = getattr(self.user, "profile", None)
        return getattr(profile, "public_name", None) or self.user.username
