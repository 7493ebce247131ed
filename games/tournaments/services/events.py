"""Tournaments before and around play: create, register, confirm, withdraw, bot entries.

Locks: the Tournament row first (``lock_tournament``), so registration never races a
round being paired.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import signals
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.events import after_commit, send_event_on_commit, send_events_on_commit
from games.models import BotLevel
from games.tournaments import pairing, permissions, publish
from games.tournaments.models import Club, Entry, Round, Tournament
from games.tournaments.services import audit
from games.tournaments.services.clubs import require_verified, user_by_name
from games.tournaments.services.texts import EventDetails, clean_details
from kozel_site import names

# Up to an hour: the empty-table sweep leaves a round's tables alone until the check-in
# deadline (selectors.tables_in_checkin, a games.policy table hold).
MIN_CHECKIN, MAX_CHECKIN = 5, 3600
MIN_ROUND, MAX_ROUND = 30, 36000
MAX_BREAK = 3600
MAX_ABSENT_ROUNDS = 30
FORMATS = {"swiss": Tournament.Kind.PAIRS, "round_robin": Tournament.Kind.PAIRS,
           "rotation": Tournament.Kind.INDIVIDUAL, "whist": Tournament.Kind.INDIVIDUAL,
           "duplicate": Tournament.Kind.PAIRS}
MAX_BOARDS = 8


@dataclass(frozen=True)
class EventSettings:
    name: str
    format: str
    rounds: int = 3
    target: int = 12
    turn_seconds: int | None = None
    starts_at: datetime | None = None
    checkin_seconds: int = 300
    round_seconds: int = 3600
    rated: bool = False
    bots_allowed: bool = False
    break_seconds: int = 60
    games_limit: int | None = None
    details: EventDetails = EventDetails()
    absent_policy: str = "forfeit"
    absent_withdraw_after: int = 2
    seed_by_rating: bool = False
    # Duplicate only (games/tournaments/duplicate.py).
    boards_per_round: int | None = None
    duplicate_scoring: str = Tournament.Scoring.MATCHPOINTS
    duplicate_basis: str = Tournament.Basis.CARD


def _int_in(value: object, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRequestError(_("%(what)s is a whole number from %(low)s to %(high)s.") % {
            "what": what, "low": low, "high": high})
    return value


def validate(s: EventSettings) -> EventSettings:
    name = " ".join(str(s.name or "").split())
    if not 2 <= len(name) <= 80:
        raise InvalidRequestError(_("A tournament's name has 2 to 80 characters."))
    if names.hidden_characters(name):
        raise InvalidRequestError(
            _("A name cannot contain invisible or text-direction characters."))
    if s.format not in FORMATS:
        raise InvalidRequestError(_("Choose Swiss, round robin, duplicate, individual "
                                    "rounds or whist."))
    rounds = _int_in(s.rounds, 1, 30, _("The number of rounds"))
    if s.target not in Tournament.TARGETS:
        raise InvalidRequestError(_("A match is played to 6 or 12 loss points (R18)."))
    if s.turn_seconds not in Tournament.CLOCKS:
        raise InvalidRequestError(_("The turn clock is none, 15, 30 or 60 seconds."))
    checkin = _int_in(s.checkin_seconds, MIN_CHECKIN, MAX_CHECKIN,
                      _("The check-in window (seconds)"))
    round_seconds = _int_in(s.round_seconds, MIN_ROUND, MAX_ROUND,
                            _("The round time limit (seconds)"))
    breaks = _int_in(s.break_seconds, 0, MAX_BREAK, _("The pause between rounds (seconds)"))
    games = (None if s.games_limit is None
             else _int_in(s.games_limit, 1, 20, _("A fixed number of games per match")))
    if s.absent_policy not in Tournament.Absence.values:
        raise InvalidRequestError(_("An absent entry either forfeits or gets a bot that "
                                    "plays for it."))
    if s.absent_policy == Tournament.Absence.BOT and not s.bots_allowed:
        raise InvalidRequestError(_("A bot can play for an absent entry only when the "
                                    "event allows bots."))
    if s.seed_by_rating and s.format != "swiss":
        raise InvalidRequestError(_("Seeding by rating is for Swiss events."))
    withdraw_after = _int_in(s.absent_withdraw_after, 0, MAX_ABSENT_ROUNDS,
                             _("The absent rounds before a withdrawal"))
    if checkin >= round_seconds:
        raise InvalidRequestError(_("The check-in window must be shorter than the round."))
    boards = _check_duplicate(s)
    if boards is not None:
        games = boards  # each match is a series of exactly the round's boards
    if s.rated:
        if s.bots_allowed:
            raise InvalidRequestError(_("A rated tournament is for people only: no bots."))
        if s.turn_seconds not in (15, 30):
            raise InvalidRequestError(_("A rated tournament has a 15 or 30 second clock."))
        if s.target != 12:
            raise InvalidRequestError(_("A rated tournament's matches are played to 12."))
    if s.starts_at is not None:
        if timezone.is_naive(s.starts_at):
            raise InvalidRequestError(_("Give the start time with its time zone (UTC)."))
        if s.starts_at > timezone.now() + timedelta(days=366):
            raise InvalidRequestError(_("A tournament starts within a year."))
    return EventSettings(name, s.format, rounds, s.target, s.turn_seconds, s.starts_at,
                         checkin, round_seconds, bool(s.rated), bool(s.bots_allowed), breaks,
                         games, clean_details(s.details), s.absent_policy, withdraw_after,
                         bool(s.seed_by_rating), boards, s.duplicate_scoring,
                         s.duplicate_basis)


def _check_duplicate(s: EventSettings) -> int | None:
    """A duplicate event's boards per round (1–8), scoring and basis; None for any other
    format, which must leave the boards empty."""
    if s.format != "duplicate":
        if s.boards_per_round is not None:
            raise InvalidRequestError(_("Boards per round are for duplicate events."))
        return None
    if s.boards_per_round is None:
        raise InvalidRequestError(_("A duplicate event needs its number of boards per "
                                    "round (1 to %(max)s).") % {"max": MAX_BOARDS})
    boards = _int_in(s.boards_per_round, 1, MAX_BOARDS, _("The number of boards per round"))
    if s.duplicate_scoring not in Tournament.Scoring.values:
        raise InvalidRequestError(_("A duplicate board is scored by matchpoints or by the "
                                    "difference in loss points."))
    if s.duplicate_basis not in Tournament.Basis.values:
        raise InvalidRequestError(_("Matchpoints compare card points or loss points."))
    if s.games_limit is not None and s.games_limit != boards:
        raise InvalidRequestError(_("A duplicate match plays exactly its round's boards: "
                                    "leave the fixed number of games empty."))
    if s.rated:
        raise InvalidRequestError(_("A duplicate event is not rated: its boards stand "
                                    "alone, with no series to 12 (R18)."))
    return boards


def create_tournament(club_id: int, user: User | None,
                      s: EventSettings) -> Tournament:
    """A director creates a tournament; registration opens at once."""
    user = require_verified(user, "create a tournament")
    clean = validate(s)
    club = Club.objects.filter(pk=club_id).first() if isinstance(club_id, int) else None
    if club is None:
        raise NotFoundError(_("No such club."))
    if not permissions.can_direct(club, user):
        raise PermissionDeniedError(_("Only the club's owner and directors run tournaments."))
    with transaction.atomic():
        t = Tournament.objects.create(
            club=club, name=clean.name, kind=FORMATS[clean.format], format=clean.format,
            rounds=clean.rounds, target=clean.target, turn_seconds=clean.turn_seconds,
            starts_at=clean.starts_at, checkin_seconds=clean.checkin_seconds,
            round_seconds=clean.round_seconds, break_seconds=clean.break_seconds,
            rated=clean.rated, bots_allowed=clean.bots_allowed, created_by=user,
            games_limit=clean.games_limit, description=clean.details.description,
            rules_text=clean.details.rules_text, prizes=clean.details.prizes,
            absent_policy=clean.absent_policy,
            absent_withdraw_after=clean.absent_withdraw_after,
            seed_by_rating=clean.seed_by_rating, boards_per_round=clean.boards_per_round,
            duplicate_scoring=clean.duplicate_scoring, duplicate_basis=clean.duplicate_basis)
        duplicate_details: dict[str, Any] = ({
            "boards_per_round": t.boards_per_round, "scoring": t.duplicate_scoring,
            "basis": t.duplicate_basis} if t.is_duplicate else {})
        audit.record(club, user, "tournament.create", tournament=t, format=t.format,
                     rounds=t.rounds, rated=t.rated, bots_allowed=t.bots_allowed,
                     absent=t.absent_policy, withdraw_after_absent=t.absent_withdraw_after,
                     break_seconds=t.break_seconds, seed_by_rating=t.seed_by_rating,
                     **duplicate_details)
    return t


def lock_tournament(tournament_id: object) -> Tournament:
    """Lock the tournament row: first in the tournament's lock order."""
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int):
        raise NotFoundError(_("No such tournament."))
    t = (Tournament.objects.select_for_update(of=("self",)).select_related("club")
         .filter(pk=tournament_id).first())
    if t is None:
        raise NotFoundError(_("No such tournament."))
    return t


def read_tournament(tournament_id: object) -> Tournament:
    """The tournament row without a lock (a step that takes the lock itself later)."""
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int):
        raise NotFoundError(_("No such tournament."))
    t = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if t is None:
        raise NotFoundError(_("No such tournament."))
    return t


def rounds_started(t: Tournament) -> int:
    return t.round_set.exclude(status=Round.Status.PAIRED).count()


def next_unpaired_round(t: Tournament) -> int:
    """The first round a late entry can still be paired in: a round already paired (even
    if not started) was paired without it."""
    return t.round_set.count() + 1


def late_join_open(t: Tournament) -> bool:
    """Late join: until half the rounds have started (fixed schedules take no late join)."""
    if t.status in (Tournament.Status.REGISTRATION,):
        return True
    if t.status != Tournament.Status.RUNNING or t.format in ("round_robin", "whist",
                                                               "duplicate"):
        return False
    return 2 * rounds_started(t) < t.rounds


def entered(t: Tournament, user_id: int) -> Entry | None:
    """``user_id``'s entry in ``t`` (as either player) whatever its status, if any."""
    return t.entries.filter(Q(player1_id=user_id) | Q(player2_id=user_id)).first()


def display_name(user: User) -> str:
    """A person's name in an entry's name: their public name, else their username."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "public_name", None) or user.get_username()


_name = display_name


def _require_member(t: Tournament, user: User, who: str = "You") -> None:
    if not permissions.is_member(t.club, user):
        message = (_("You must be a member of %(club)s to play.") if who == "You"
                   else _("Your partner must be a member of %(club)s to play."))
        raise PermissionDeniedError(message % {"club": t.club.name})


def register(tournament_id: int, user: User | None, partner: str = "", *,
             email_opt_in: bool = False) -> Entry:
    """A member enters: alone (individual) or with a partner who must confirm (pairs)."""
    user = require_verified(user, "register")
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        _require_member(t, user)
        if not late_join_open(t):
            raise TableStateError(_("Registration is closed.") if t.status != "running" else
                                  _("Late entries close when half the rounds have started."))
        if entered(t, user.pk) is not None:
            raise InvalidRequestError(_("You are already entered in this tournament."))
        first_round = next_unpaired_round(t) if t.status == Tournament.Status.RUNNING else 1
        if t.is_pairs:
            mate = user_by_name(partner)
            if mate.pk == user.pk:
                raise InvalidRequestError(_("Your partner is someone else."))
            require_verified(mate, "play")  # their address must be verified too
            _require_member(t, mate, "Your partner")
            if entered(t, mate.pk) is not None:
                raise InvalidRequestError(_("%(name)s is already entered.") % {
                    "name": mate.get_username()})
            if (t.format == "round_robin" and t.entries.exclude(
                    status=Entry.Status.WITHDRAWN).count() >= pairing.MAX_ROUND_ROBIN):
                raise TableStateError(_("A round robin takes at most 10 pairs."))
            entry = Entry.objects.create(tournament=t, player1=user, player2=mate,
                                         name=f"{_name(user)} & {_name(mate)}"[:80],
                                         status=Entry.Status.PENDING,
                                         email_opt_in=bool(email_opt_in),
                                         first_round=first_round)
            send_events_on_commit(partial(publish.banners, [mate.pk]))
            after_commit(partial(signals.partner_invited.send, sender=Entry,
                                 tournament_id=t.pk, tournament_name=t.name,
                                 inviter_name=_name(user), user_id=mate.pk))
        else:
            if str(partner or "").strip():
                raise InvalidRequestError(_("Individual events take no partner: you get a new "
                                          "one every round."))
            entry = Entry.objects.create(tournament=t, player1=user, name=_name(user)[:80],
                                         email_opt_in=bool(email_opt_in),
                                         first_round=first_round)
        send_event_on_commit(*publish.changed(t.pk))
    return entry


def confirm_partner(tournament_id: int, user: User | None, entry_id: int,
                    accept: bool = True) -> Entry | None:
    """The invited partner confirms (the pair is entered) or declines (it is removed)."""
    user = require_verified(user, "confirm")
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        entry = t.entries.filter(pk=entry_id, player2=user,
                                 status=Entry.Status.PENDING).first()
        if entry is None:
            raise NotFoundError(_("There is no entry waiting for you to confirm."))
        if not accept:
            entry.delete()
            send_event_on_commit(*publish.changed(t.pk))
            return None
        if not late_join_open(t):
            raise TableStateError(_("Registration is closed."))
        _require_member(t, user)
        entry.status = Entry.Status.ACTIVE
        if t.status == Tournament.Status.RUNNING:
            entry.first_round = next_unpaired_round(t)
        entry.save(update_fields=["status", "first_round"])
        send_event_on_commit(*publish.changed(t.pk))
    return entry


def add_bot_entry(t: Tournament, actor: User | None, level: str) -> Entry:
    """A director enters a bot (labelled; never in the prize places). Caller locks."""
    if not t.bots_allowed:
        raise PermissionDeniedError(_("This tournament does not allow bots."))
    if level not in BotLevel.values:
        raise InvalidRequestError(_("Unknown bot level; choose one of %(levels)s.") % {
            "levels": ", ".join(BotLevel.values)})
    if not late_join_open(t):
        raise TableStateError(_("Registration is closed."))
    if (t.format == "round_robin" and t.entries.exclude(
            status=Entry.Status.WITHDRAWN).count() >= pairing.MAX_ROUND_ROBIN):
        raise TableStateError(_("A round robin takes at most 10 pairs."))
    number = t.entries.exclude(bot_level="").count() + 1
    label = BotLevel(level).label
    first_round = next_unpaired_round(t) if t.status == Tournament.Status.RUNNING else 1
    entry = Entry.objects.create(tournament=t, bot_level=level,
                                 name=f"Bot {label} #{number}" + (" pair" if t.is_pairs else ""),
                                 first_round=first_round)
    audit.record(t.club, actor, "entry.bot", tournament=t, entry=entry.name, level=level)
    send_event_on_commit(*publish.changed(t.pk))
    return entry


def fill_with_bots_locked(t: Tournament, number: int, count: int) -> list[Entry]:
    """Individual rounds with bots allowed: ``count`` Casual bot entries (labelled,
    never in the prize places, like a director's bot entries) so that the players make
    whole tables instead of some sitting out with a bye. Entered from round ``number``
    on and paired like everyone from then on. Caller holds the tournament's lock."""
    made = []
    taken = t.entries.exclude(bot_level="").count()
    label = BotLevel(BotLevel.CASUAL).label
    for i in range(count):
        entry = Entry.objects.create(tournament=t, bot_level=BotLevel.CASUAL,
                                     name=f"Bot {label} #{taken + i + 1}", first_round=number)
        audit.record(t.club, None, "entry.bot", tournament=t, entry=entry.name,
                     level=BotLevel.CASUAL, round=number, reason="fills the last table")
        made.append(entry)
    return made
