"""Clubs, their members, tournaments, entries, rounds, matches and the audit log.

A match is one series at an ordinary table (games.models.Table/Series), created at the
round's start through the games services; the series' roster (SeriesSeat) stays the one
record of who plays a seat. A match's sides (MatchSide) say which *entries* it paired:
one per side in a pairs event, two per side in an individual one.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.countries import COUNTRY_CHOICES
from games.models import CLOCKS, BotLevel, Series, Table


def new_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbits(62)


# The longest description, rules text or prize list of an event.
DETAILS_MAX = 4000
# The longest announcement a director sends.
ANNOUNCEMENT_MAX = 1000

# The longest reason a director or a club owner may give (it is stored with the act).
REASON_MAX = 200

class Club(models.Model):
    """A club: its members play its tournaments; its owner appoints directors."""

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("Open: anyone can join")
        REQUEST = "request", _("By request: a director approves")
        INVITE = "invite", _("By invite link only")

    name = models.CharField(max_length=60)
    slug = models.SlugField(max_length=40, unique=True)
    description = models.TextField(max_length=2000, blank=True)
    country = models.CharField(max_length=2, blank=True, choices=COUNTRY_CHOICES)
    language = models.CharField(max_length=10, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    join_policy = models.CharField(max_length=10, choices=JoinPolicy.choices,
                                   default=JoinPolicy.OPEN)
    # The club's wall clock: a recurring event keeps its local hour across DST changes.
    time_zone = models.CharField(max_length=64, default="UTC")
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="owned_clubs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        permissions = [("moderate_clubs", "Moderate every club and tournament")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A person's place in a club: a role while active, or a pending request, or a ban."""

    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        DIRECTOR = "director", _("Director")
        MEMBER = "member", _("Member")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Member")
        REQUESTED = "requested", _("Asked to join")
        BANNED = "banned", _("Banned")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="club_memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    reason = models.CharField(max_length=REASON_MAX, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["club", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once"),
            models.UniqueConstraint(fields=["club"], condition=Q(role="owner"),
                                    name="membership_one_owner"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role}, {self.status})"


class Tournament(models.Model):
    """One event of a club: pairs (Swiss or round robin) or individual."""

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("Pairs (fixed partnerships)")
        INDIVIDUAL = "individual", _("Individual (a new partner every round)")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        ROTATION = "rotation", _("Individual rounds")
        WHIST = "whist", _("Whist schedule (everybody partners everybody once)")
        # Pairs only: every table of a round plays the same boards (duplicate.py).
        DUPLICATE = "duplicate", _("Duplicate (the same boards at every table)")

    class Scoring(models.TextChoices):
        """How a duplicate event scores a board (games/tournaments/duplicate.py)."""

        MATCHPOINTS = "matchpoints", _("Matchpoints (2 better, 1 equal, 0 worse)")
        DIFFERENCE = "difference", _("Difference in loss points (two tables)")

    class Basis(models.TextChoices):
        """What "better" means to duplicate matchpoints (R16–R17)."""

        CARD = "card", _("Card points (fewer loss points, then more card points)")
        LOSS = "loss", _("Loss points only")

    class Absence(models.TextChoices):
        FORFEIT = "forfeit", _("The absent entry loses by forfeit")
        BOT = "bot", _("A bot plays for it; it still loses by forfeit")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        CLOSED = "closed", _("Registration closed")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    TARGETS = (6, 12)
    CLOCKS = CLOCKS  # a table's choices (games/models/tables.py)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    format = models.CharField(max_length=12, choices=Format.choices)
    status = models.CharField(max_length=14, choices=Status.choices,
                              default=Status.REGISTRATION)
    target = models.PositiveSmallIntegerField(default=12, help_text=_("loss points (R18)"))
    # A match of a fixed number of games instead (decided by fewer loss points; a team
    # reaching the table's target, 18 or 12 when rated, still ends it earlier).
    games_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(default=3)
    starts_at = models.DateTimeField(null=True, blank=True)
    checkin_seconds = models.PositiveIntegerField(default=300)
    round_seconds = models.PositiveIntegerField(default=3600, help_text=_("round time limit"))
    break_seconds = models.PositiveIntegerField(default=60, help_text=_("pause between rounds"))
    rated = models.BooleanField(default=False)
    bots_allowed = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)
    # An entry none of whose players checked in by a round's deadline is absent: it
    # loses that match by forfeit whatever happens at the table; with BOT the table
    # still plays, bots in its seats, for the other players' sake (rounds.py).
    absent_policy = models.CharField(max_length=8, choices=Absence.choices,
                                     default=Absence.FORFEIT)
    # Absent this many rounds in all: withdrawn by the server (0: never).
    absent_withdraw_after = models.PositiveSmallIntegerField(default=2)
    # Round 1 of a Swiss paired by the players' conservative ratings instead of by lot.
    seed_by_rating = models.BooleanField(default=False)
    # Duplicate only (format DUPLICATE): the boards every table of a round plays, and how
    # a board is scored; other formats leave boards_per_round empty.
    boards_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    duplicate_scoring = models.CharField(max_length=12, choices=Scoring.choices,
                                         default=Scoring.MATCHPOINTS)
    duplicate_basis = models.CharField(max_length=4, choices=Basis.choices,
                                       default=Basis.CARD)
    seed = models.BigIntegerField(default=new_seed, help_text=_("the pairer's and the lot's"))
    forbidden_pairs = models.JSONField(default=list, blank=True,
                                       help_text=_("[[entry, entry], ...] never paired"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # What players read before they come (plain text, shown escaped with line breaks).
    description = models.TextField(max_length=DETAILS_MAX, blank=True)
    rules_text = models.TextField(max_length=DETAILS_MAX, blank=True)
    prizes = models.TextField(max_length=DETAILS_MAX, blank=True)
    season = models.ForeignKey("Season", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="events")
    # Every ``recur_weeks`` weeks at the same local hour (the club's time zone); 0: once.
    recur_weeks = models.PositiveSmallIntegerField(default=0)
    recurs_from = models.OneToOneField("self", null=True, blank=True,
                                       on_delete=models.SET_NULL,
                                       related_name="next_occurrence")
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    # Club members with the director's powers for this event only.
    co_directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True,
                                          related_name="co_directed_events")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(target__in=[6, 12]), name="tournament_target"),
            models.CheckConstraint(
                condition=Q(turn_seconds__isnull=True) | Q(turn_seconds__in=[15, 30, 60]),
                name="tournament_clock"),
            models.CheckConstraint(condition=Q(rounds__gte=1) & Q(rounds__lte=30),
                                   name="tournament_rounds_range"),
            models.CheckConstraint(condition=Q(recur_weeks__lte=4),
                                   name="tournament_recur_weeks_range"),
            models.CheckConstraint(condition=Q(absent_withdraw_after__lte=30),
                                   name="tournament_absent_withdraw_range"),
            models.CheckConstraint(condition=Q(absent_policy="forfeit") | Q(bots_allowed=True),
                                   name="tournament_absent_bot_needs_bots"),
            models.CheckConstraint(
                condition=Q(games_limit__isnull=True) | (Q(games_limit__gte=1)
                                                         & Q(games_limit__lte=20)),
                name="tournament_games_limit_range"),
            # A rated event is played at ranked tables: people only, a clock, to 12.
            models.CheckConstraint(
                condition=~Q(rated=True) | (Q(bots_allowed=False) & Q(target=12)
                                            & Q(turn_seconds__in=[15, 30])),
                name="tournament_rated_rules"),
            # A duplicate event is a pairs event with 1 to 8 boards a round, each match
            # a series of exactly those games (games_limit, no series to the target);
            # no other format has boards.
            models.CheckConstraint(
                condition=(Q(format="duplicate", kind="pairs", boards_per_round__gte=1,
                             boards_per_round__lte=8, games_limit=F("boards_per_round"))
                           | (~Q(format="duplicate") & Q(boards_per_round__isnull=True))),
                name="tournament_duplicate_boards"),
            models.CheckConstraint(
                condition=Q(duplicate_scoring__in=["matchpoints", "difference"])
                & Q(duplicate_basis__in=["card", "loss"]),
                name="tournament_duplicate_scoring_values"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pairs(self) -> bool:
        return self.kind == self.Kind.PAIRS

    @property
    def is_duplicate(self) -> bool:
        return self.format == self.Format.DUPLICATE

    @property
    def checkin_minutes(self) -> int | None:
        """The check-in window in minutes when it is a whole number of them (the page
        then says "Check-in 20 min"), else None (it says seconds)."""
        minutes, rest = divmod(self.checkin_seconds, 60)
        return minutes if minutes and not rest else None

    @property
    def round_minutes(self) -> int | None:
        """The round time limit in minutes when a whole number of them (the form asks
        minutes), else None (the page says seconds)."""
        minutes, rest = divmod(self.round_seconds, 60)
        return minutes if minutes and not rest else None


    @property
    def break_minutes(self) -> int | None:
        """The break between rounds in minutes when it is a whole number of them (the
        form asks minutes), else None (the page says seconds)."""
        minutes, rest = divmod(self.break_seconds, 60)
        return minutes if not rest else None


class Entry(models.Model):
    """A pair (pairs events) or a player (individual), or a labelled bot entry."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the partner to confirm")
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player1 = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.PROTECT, related_name="+")
    bot_level = models.CharField(max_length=10, blank=True, choices=BotLevel.choices)
    name = models.CharField(max_length=80)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    email_opt_in = models.BooleanField(default=False)
    # The first round this entry may be paired in (a late join starts later).
    first_round = models.PositiveSmallIntegerField(default=1)
    # Why it was withdrawn or disqualified, shown beside its name (e.g. absent rounds).
    status_reason = models.CharField(max_length=REASON_MAX, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(
                condition=(Q(player1__isnull=False, bot_level="")
                           | (Q(player1__isnull=True, player2__isnull=True) & ~Q(bot_level=""))),
                name="entry_people_xor_bot"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def people_ids(self) -> list[int]:
        return [u for u in (self.player1_id, self.player2_id) if u]


class Round(models.Model):
    """One round: paired, then started (tables made, check-in), then finished."""

    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired, not started")
        CHECKIN = "checkin", _("Check-in")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRED)
    manual_pairs = models.JSONField(default=list, blank=True,
                                    help_text=_("[[entry, entry], ...] set by a director"))
    started_at = models.DateTimeField(null=True, blank=True)
    checkin_deadline = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="round_unique_number")]
        indexes = [models.Index(fields=["status", "checkin_deadline"], name="round_due_idx")]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament_id}"


class Match(models.Model):
    """One table of a round (a series), or a bye."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        CHECKIN = "checkin", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Outcome(models.TextChoices):
        NONE_YET = "", "—"
        A = "A", _("Side A won")
        B = "B", _("Side B won")
        TIE = "tie", _("Tie")
        BYE = "bye", _("Bye")
        DOUBLE_FORFEIT = "none", _("Both sides forfeited")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    series = models.OneToOneField(Series, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="tournament_match")
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True, default="")
    forfeit = models.BooleanField(default=False)
    loss_a = models.PositiveSmallIntegerField(default=0)
    loss_b = models.PositiveSmallIntegerField(default=0)
    termination = models.CharField(max_length=12, blank=True, default="")
    checked_in = models.JSONField(default=list, blank=True, help_text=_("user ids"))
    substitutes = models.JSONField(default=list, blank=True,
                                   help_text=_("positions a bot plays for an absentee"))
    # Entries none of whose players checked in by the deadline: they lose this match
    # by forfeit even when bots played their seats (Tournament.absent_policy).
    absent = models.JSONField(default=list, blank=True, help_text=_("absent entry ids"))
    corrected = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="match_unique_number"),
            models.CheckConstraint(condition=Q(outcome__in=["", "A", "B", "tie", "bye", "none"]),
                                   name="match_outcome_values"),
        ]

    def __str__(self) -> str:
        return f"Match {self.number} of {self.round}"


class MatchSide(models.Model):
    """An entry in a match: side A plays seats 0+2, side B seats 1+3 (R1).

    In a pairs event a side is one entry (player1 at the lower seat); in an individual
    event it is two entries, ``slot`` 0 at seat 0/1 and slot 1 at seat 2/3.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    side = models.CharField(max_length=1)
    slot = models.PositiveSmallIntegerField(default=0)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="match_sides")

    class Meta:
        ordering = ["match", "side", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side", "slot"], name="side_unique_slot"),
            models.UniqueConstraint(fields=["match", "entry"], name="side_entry_once"),
            models.CheckConstraint(condition=Q(side__in=["A", "B"]) & Q(slot__lte=1),
                                   name="side_values"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} on {self.side}{self.slot} of {self.match_id}"


def new_board_seed() -> int:
    """A board's deal seed: 63 bits from the OS's cryptographic source (R5), like a game's."""
    return secrets.randbits(63)


class Board(models.Model):
    """One deal of a duplicate event, played once at every table of its round (R4–R6).

    ``number`` counts the event's boards from 1; ``position`` is the board's place in
    its round, and so the number of the game that plays it in every table's series
    (game k of a match is board k of the round). The dealer and the first player come
    from ``duplicate.board_dealer(position)``. The seed is **secret** (R19 across
    tables): nothing shows it, nor a hand or a result of the board, until
    ``public_at`` is set, when the board has been played at every table of its round
    or the round is over (services/duplicate.py; every reader of a game's record asks
    ``games.policy.held_records``, answered by ``board_reads.held_games``).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="boards")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(default=new_board_seed, help_text=_("secret until public"))
    dealer = models.PositiveSmallIntegerField()
    first_player = models.PositiveSmallIntegerField()
    public_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="board_unique_number"),
            models.UniqueConstraint(fields=["round", "position"], name="board_unique_position"),
            models.CheckConstraint(condition=Q(dealer__lte=3) & Q(first_player__lte=3)
                                   & Q(position__gte=1) & Q(number__gte=1),
                                   name="board_values"),
        ]

    def __str__(self) -> str:
        return f"Board {self.number} of {self.tournament_id}"


class BoardPlay(models.Model):
    """What one table made of one board (R16–R17): THE stored result a duplicate
    score is computed from.

    Written once, by the tournaments' reaction to a game's end (services/duplicate.py),
    from the finished Game of the match's series that played the board; the Game stays
    the record of the play (its seed is the board's, verify_games replays it). Keeping
    the figures here lets the standings, the traveller and the CSV read one small table
    instead of rebuilding every game's state. ``a_entry`` and ``b_entry`` are the pairs
    that sat in seats 0+2 and 1+3 (R1) at this table.
    """

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="plays")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="board_plays")
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="board_play")
    a_entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    b_entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    loss_a = models.PositiveSmallIntegerField()
    loss_b = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["board", "match"]
        constraints = [
            models.UniqueConstraint(fields=["board", "match"], name="board_play_once"),
            # R3: the card points of a deal add up to 120; R16: at most 6 loss points.
            models.CheckConstraint(condition=Q(points_a__lte=120) & Q(points_b__lte=120)
                                   & Q(loss_a__lte=6) & Q(loss_b__lte=6),
                                   name="board_play_values"),
        ]

    def __str__(self) -> str:
        return f"Board {self.board_id} at match {self.match_id}"


class AuditEntry(models.Model):
    """The append-only log of what owners and directors did (shown to directors).

    Rows are only ever inserted (services/audit.py); ``save`` refuses an update and the
    admin shows them read-only.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit")
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+",
                              help_text=_("empty: the server (a scheduled step)"))
    action = models.CharField(max_length=40)
    reason = models.CharField(max_length=300, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} by {self.actor_id} ({self.created_at:%Y-%m-%d %H:%M})"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("the audit log is append-only")


class Season(models.Model):
    """A named run of a club's events; its table sums each person's place points over
    the finished events in it (games/tournaments/seasons.py)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["club", "name"],
                                               name="season_name_once")]

    def __str__(self) -> str:
        return self.name


class Announcement(models.Model):
    """A director's message to the club's members or to one event's players: shown on
    the club's or the event's page, sent as a notification and an opted-in e-mail."""

    class Audience(models.TextChoices):
        CLUB = "club", _("The club's members")
        PLAYERS = "players", _("The event's players")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="announcements")
    tournament = models.ForeignKey(Tournament, null=True, blank=True,
                                   on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    audience = models.CharField(max_length=8, choices=Audience.choices)
    text = models.TextField(max_length=ANNOUNCEMENT_MAX)
    recipients = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "created_at"], name="announcement_club_idx")]

    def __str__(self) -> str:
        return f"announcement {self.pk} in {self.club_id}"
