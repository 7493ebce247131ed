"""Series, games, the append-only move log and per-game results.

A game can always be rebuilt from ``seed`` + ``algorithm`` + its Move rows (R5); the
``state`` JSON is a cache of the engine state for fast reads and must always equal that
replay. ``version`` is the optimistic-concurrency counter every action and every
delayed task carries (docs/architecture.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from games.models.tables import Table

LOSS_POINT_VALUES = [0, 2, 4, 6]  # R16


class Team(models.Model):
    """A pair of players, for pair statistics and tournaments; stored in id order."""

    player_low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")
    player_high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_low", "player_high"], name="team_unique_pair"),
            models.CheckConstraint(condition=Q(player_low__lt=F("player_high")),
                                   name="team_ordered_distinct"),
        ]

    def __str__(self) -> str:
        return f"Team {self.player_low_id}+{self.player_high_id}"


class Termination(models.TextChoices):
    """How a game or a series ended (lila's status): the finisher's one argument."""

    COMPLETED = "completed", _("Played to the end")
    VOTED_END = "voted_end", _("Ended by the players' vote")
    ABANDONED = "abandoned", _("Abandoned (nobody at the table)")
    VOIDED = "voided", _("Voided by a moderator")
    # A tournament round's time limit: decided by fewer loss points, equal is a tie.
    ROUND_TIME = "round_time", _("Decided at the tournament round's time limit")
    # A tournament match of a fixed number of games: decided by fewer loss points.
    GAME_LIMIT = "game_limit", _("Decided after the tournament match's number of games")
    # A tournament director forfeited the match: the match's result says who lost; the
    # series itself decides nothing (no goat, not rated).
    FORFEIT = "forfeit", _("Ended by a tournament director (forfeit)")


class Series(models.Model):
    """Games with the same four seats until a team reaches the target (R18)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        VOIDED = "voided", _("Voided")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveIntegerField()
    team_ns = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", help_text="Team A, seats 0 and 2")
    team_ew = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", help_text="Team B, seats 1 and 3")
    target = models.PositiveSmallIntegerField(default=12)
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # Why the series ended (services/finish.py is the one place that sets it); ratings,
    # tournaments and stats act on it explicitly.
    termination = models.CharField(max_length=10, choices=Termination.choices, blank=True,
                                   default="")
    first_dealer = models.PositiveSmallIntegerField()
    loss_points_a = models.PositiveSmallIntegerField(default=0)
    loss_points_b = models.PositiveSmallIntegerField(default=0)
    eggs = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=1, blank=True, default="")  # "A", "B" or ""
    goat = models.CharField(max_length=1, blank=True, default="")
    state = models.JSONField(help_text="engine Series.to_dict()")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "series"
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="series_unique_number"),
            models.CheckConstraint(condition=Q(first_dealer__gte=0) & Q(first_dealer__lte=3),
                                   name="series_first_dealer_range"),
            models.CheckConstraint(
                condition=Q(winner__in=["", "A", "B"]) & Q(goat__in=["", "A", "B"]),
                name="series_team_letters"),
        ]
        indexes = [models.Index(fields=["status", "-started_at"], name="series_status_idx")]

    def __str__(self) -> str:
        return f"Series {self.number} at table {self.table_id}"

    @property
    def goats_with_eggs(self) -> bool:
        """R17: the goat of a series in which eggs happened."""
        return bool(self.goat) and self.eggs > 0

    @cached_property
    def seats_in_order(self) -> list[SeriesSeat]:
        """The roster rows by position (a ``prefetch_related("roster")`` is used), read
        once per object: a service that locked the series changes and saves the same row
        objects it reads."""
        return sorted(self.roster.all(), key=lambda seat: seat.position)


class SeriesSeat(models.Model):
    """Who occupies one seat of a series: THE roster: every part of live play reads this one.

    A seat is played by a person (``user``) or by a bot (``bot_level``). A bot that took
    over from an absent person keeps that person in ``away_user`` until they come back
    (a casual table) or the series ends. The sweep, the clock, the views, the ratings and
    the stats all read these rows; nothing else records who plays a seat. The lobby's
    :class:`~games.models.Seat` rows say who sits at the *table* between series.
    """

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="roster")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="+")
    bot_level = models.CharField(max_length=10, blank=True, default="")
    away_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.PROTECT, related_name="+",
                                  help_text="the person a substitute bot stands in for")
    name = models.CharField(max_length=80, help_text="the occupant's name at the start")
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # The person chose to leave the series ("leave it and start a new one"): the bot
    # plays on and the seat is no longer theirs to come back to.
    gave_up = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "position"]
        constraints = [
            models.UniqueConstraint(fields=["series", "position"], name="roster_unique_position"),
            models.CheckConstraint(condition=Q(position__gte=0) & Q(position__lte=3),
                                   name="roster_position_range"),
            # Exactly one of: a person plays it, or a bot does.
            models.CheckConstraint(
                condition=(Q(user__isnull=False, bot_level="")
                           | (Q(user__isnull=True) & ~Q(bot_level=""))),
                name="roster_person_xor_bot"),
            models.CheckConstraint(condition=Q(away_user__isnull=True) | ~Q(bot_level=""),
                                   name="roster_away_only_under_bot"),
        ]
        indexes = [
            models.Index(fields=["user", "series"], name="roster_user_idx"),
            models.Index(fields=["away_user", "series"], name="roster_away_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.series_id}:{self.position} {self.bot_level or self.user_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def person_id(self) -> int | None:
        """The person this seat belongs to: the player, or the one a bot replaced."""
        return self.user_id or self.away_user_id


class Game(models.Model):
    """One deal of a series (R4–R16)."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Stopped before the end")
        VOIDED = "voided", _("Voided")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="secret until the game ends (R19)")
    algorithm = models.PositiveSmallIntegerField(help_text="seed-to-deal algorithm version (R5)")
    dealer = models.PositiveSmallIntegerField()
    first_leader = models.PositiveSmallIntegerField()
    trump_card = models.CharField(max_length=2)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    termination = models.CharField(max_length=10, choices=Termination.choices, blank=True,
                                   default="")
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField(help_text="engine GameState.to_dict(), a cache of the replay")
    # The clock: when the seat to act got the turn, and when its time runs out
    # (null without a clock or when a bot is to act). Stored here, not only in a task.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # The seat on turn since turn_started_at (null when nobody is, e.g. the game is
    # over). Kept beside the clock so the sweep can find a person absent on their turn
    # without rebuilding every idle game's state.
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Bit p set: a substitute bot played at least one move of this game for the person
    # of seat p. Their statistics leave such a game out (it was not their own play).
    substitute_seats = models.PositiveSmallIntegerField(default=0)
    paused = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="game_unique_number"),
            models.CheckConstraint(condition=Q(dealer__gte=0) & Q(dealer__lte=3),
                                   name="game_dealer_range"),
            models.CheckConstraint(condition=Q(first_leader__gte=0) & Q(first_leader__lte=3),
                                   name="game_first_leader_range"),
        ]
        indexes = [
            # The clock sweep: playing games whose deadline has passed.
            models.Index(fields=["status", "turn_deadline"], name="game_deadline_idx"),
            models.Index(fields=["status", "updated_at"], name="game_stalled_idx"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of series {self.series_id}"

    @property
    def played_out(self) -> bool:
        """Played to its end (R14), whether it still counts (``finished``) or a moderator
        voided its series afterwards (``voided``, termination ``completed``): its result,
        replay and record stay open either way."""
        return self.status == self.Status.FINISHED or (
            self.status == self.Status.VOIDED and self.termination == Termination.COMPLETED)

    @property
    def is_void(self) -> bool:
        """Its series was voided: the game stays in the record but counts for nothing."""
        return self.status == self.Status.VOIDED


class Move(models.Model):
    """The append-only log a game is rebuilt from; one row per applied action."""

    class Kind(models.TextChoices):
        LEAD = "lead", _("Lead")
        BEAT = "beat", _("Beat")
        DISCARD = "discard", _("Discard")
        MOLODKA = "molodka", _("Molodka")

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        TIMEOUT = "timeout", _("Timeout (played by the server)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    cards = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.CheckConstraint(condition=Q(seat__gte=0) & Q(seat__lte=3),
                                   name="move_seat_range"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="move_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} seat {self.seat} {self.kind} {self.cards}"


class GameResult(models.Model):
    """R16–R17 for one finished game."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="result")
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    tricks_a = models.PositiveSmallIntegerField()
    tricks_b = models.PositiveSmallIntegerField()
    loss_points_a = models.PositiveSmallIntegerField()
    loss_points_b = models.PositiveSmallIntegerField()
    eggs = models.BooleanField(default=False)
    winner = models.CharField(max_length=1, blank=True, default="")
    last_taker = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(points_a__lte=120) & Q(points_b__lte=120),
                                   name="result_points_range"),
            models.CheckConstraint(
                condition=(Q(loss_points_a__in=LOSS_POINT_VALUES)
                           & Q(loss_points_b__in=LOSS_POINT_VALUES)),
                name="result_loss_points_values"),
            models.CheckConstraint(condition=Q(last_taker__gte=0) & Q(last_taker__lte=3),
                                   name="result_last_taker_range"),
            models.CheckConstraint(condition=Q(winner__in=["", "A", "B"]), name="result_winner"),
        ]

    def __str__(self) -> str:
        return f"{self.points_a}-{self.points_b} ({self.game})"


class Conduct(models.Model):
    """Playban-style record of how a player left a game: timeouts and abandonments.

    Written by services/clock.py; ratings (leaver rule) and sanctions read it.
    """

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Turn timed out (the server played)")
        ABANDON = "abandon", _("Abandoned the seat (a bot took over)")
        RECLAIM = "reclaim", _("Came back and reclaimed the seat")

    class Reason(models.TextChoices):
        CLOCK = "clock", _("Turn clock")
        TIMEOUTS = "timeouts", _("Two timeouts in a row")
        DISCONNECT = "disconnect", _("Disconnected on own turn")
        RETURNED = "returned", _("Returned")
        LEFT = "left", _("Left to play elsewhere")
        # A moderator suspended the account: not an abandonment the player chose, so the
        # escalation for repeated abandonment does not count it (accounts/moderation).
        SUSPENDED = "suspended", _("Account suspended by a moderator")
        # A tournament director gave the seat to a bot: not counted either.
        DIRECTOR = "director", _("Substituted by a tournament director")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="conduct")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="conduct")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="conduct")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=12, choices=Reason.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "kind", "-created_at"], name="conduct_user_idx")]
        constraints = [models.CheckConstraint(condition=Q(position__gte=0) & Q(position__lte=3),
                                              name="conduct_position_range")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} ({self.reason}) in series {self.series_id}"


class SeriesVote(models.Model):
    """A seated player's vote to pause, resume or end a casual series (3 of 4 carry it)."""

    class Kind(models.TextChoices):
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        END = "end", _("End the series")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["series", "kind", "user"],
                                               name="vote_once_per_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} votes {self.kind} in {self.series_id}"
