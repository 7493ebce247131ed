"""Running a tournament: start a round, check in, presence, score matches, end rounds.

A round's life: **paired** (services/pairings.py; a director may still change it),
**check-in** (tables created through games/services/tables.py with everybody seated;
a match's series starts through games/services/series.py as soon as its people have
checked in), **playing**, **finished**. At the check-in deadline presence decides
(:func:`_settle_checkin_locked`): an entry none of whose people checked in is absent
and loses by forfeit (a bot may play its seats, the match still its forfeit); a pair
missing one partner gets a bot for that seat when bots are allowed, else forfeits.
At the round's time limit every series still playing ends through
games/services/finish.py with the reason ``round_time``: fewer loss points wins, equal
is a tie.

A match's result comes from its series when the series ends (``series_finished`` →
``match_finished_task`` → :func:`match_finished`), whatever the reason:

- ``completed``: the goat loses (R18);
- ``round_time``, ``voted_end``, ``abandoned`` (the same abandonment rules as every
  table): fewer loss points wins, equal is a tie;
- ``voided`` (a moderator): recorded as a double forfeit for a director to correct.

Lock order: Tournament → Round → Match (this app), then Table → Series → Game (the
games' own, games/services/locks.py). Nothing here locks a tournament row while
holding a game lock: the games services fire their hooks after commit.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import timedelta
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    ServiceError,
    TableStateError,
)
from games.events import (
    after_commit,
    send_event_on_commit,
    send_events_on_commit,
    send_task_on_commit,
)
from games.models import FIXED_DEALS_TARGET, Seat, Series, Table, Termination
from games.services import finish, locks
from games.services import series as series_service
from games.services import tables as table_service
from games.signals import round_started
from games.tournaments import emails, pairing, publish
from games.tournaments.models import Entry, Match, Round, Tournament
from games.tournaments.services import audit, events, pairings, recurrence
from games.tournaments.services import duplicate as duplicate_service
from games.tournaments.services.events import lock_tournament

logger = logging.getLogger(__name__)

# The names of the tasks this module queues (games/tournaments/tasks.py declares them
# with these names): sent by name, because the tasks call this module.
CHECKIN_DEADLINE_TASK = "tournaments.checkin_deadline"
ROUND_TIME_TASK = "tournaments.round_time"
START_ROUND_TASK = "tournaments.start_round"

SUBSTITUTE_LEVEL = "casual"
# Entry.status_reason of an entry the server withdrew for its absent rounds.
ABSENT_REASON = "absent"
# A scheduled step may arrive a little early (clock skew between hosts).
EARLY = timedelta(milliseconds=500)


# --- pairing (services/pairings.py; re-exported: the director's tools and tests) ---------

swiss_history = pairings.swiss_history
schedule_entries = pairings.schedule_entries
pair_round_locked = pairings.pair_round_locked
pair_round = pairings.pair_round


def total_rounds(t: Tournament, field: int) -> int:
    if t.format == "round_robin":
        return field - 1 if field % 2 == 0 else field
    if t.format == "whist":
        return len(pairing.whist_schedule(field))
    return t.rounds


# --- starting ------------------------------------------------------------------------------


def open_event_locked(t: Tournament, actor: User | None) -> None:
    """Close registration: the event runs (its number of rounds fixed by the field) and
    round 1 can be paired. Caller holds the tournament's lock."""
    if t.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise TableStateError(_("The tournament has already started."))
    active = list(t.entries.filter(status=Entry.Status.ACTIVE))
    need = 2 if t.is_pairs else 4
    if len(active) < need:
        raise TableStateError((ngettext("At least %(n)s pair must be entered to start.",
                                        "At least %(n)s pairs must be entered to start.", need)
                               if t.is_pairs else
                               ngettext("At least %(n)s player must be entered to start.",
                                        "At least %(n)s players must be entered to start.",
                                        need)) % {"n": need})
    if t.format == "round_robin" and len(active) > pairing.MAX_ROUND_ROBIN:
        raise TableStateError(_("A round robin takes at most 10 pairs."))
    if t.is_duplicate:
        _check_duplicate_field(t, len(active))
    if t.format == "whist" and len(active) not in pairing.WHIST_SIZES:
        raise TableStateError(_("A whist schedule needs 8, 9, 12, 13, 16 or 17 players; "
                                "%(n)s are entered.") % {"n": len(active)})
    t.rounds = total_rounds(t, len(active))
    t.status = Tournament.Status.RUNNING
    t.save(update_fields=["rounds", "status"])
    audit.record(t.club, actor, "tournament.start", tournament=t, entries=len(active),
                 rounds=t.rounds)


def _check_duplicate_field(t: Tournament, pairs: int) -> None:
    """The movement seats every pair at a table each round (duplicate.movement): an
    even number of pairs, at least four; a difference compares exactly two tables."""
    if pairs < 4 or pairs % 2:
        raise TableStateError(_("A duplicate event needs an even number of pairs, at least "
                                "4; %(n)s are entered (a director can add a bot pair).")
                              % {"n": pairs})
    if t.duplicate_scoring == Tournament.Scoring.DIFFERENCE and pairs != 4:
        raise TableStateError(_("Scoring by difference compares two tables: it needs "
                                "exactly 4 pairs; %(n)s are entered.") % {"n": pairs})


def start_tournament_locked(t: Tournament, actor: User | None) -> Round:
    """Close registration and start round 1 in one step, pairing it first unless a
    director paired it already. Caller holds the tournament's lock (the pairing is
    computed under it: :func:`start_event` computes it outside)."""
    if t.status in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED):
        open_event_locked(t, actor)
    elif t.status != Tournament.Status.RUNNING or t.round_set.exclude(
            status=Round.Status.PAIRED).exists():
        raise TableStateError(_("The tournament has already started."))
    round_ = t.round_set.filter(number=1).first() or pair_round_locked(t, 1, actor)
    return start_round_locked(t, round_, actor)


def pair_first_round(tournament_id: int, actor: User | None) -> Round:
    """Close registration and pair round 1 without starting it (a director's "Pair round
    1"; the pairing computed outside the lock). Once the event runs, pairs round 1
    again while it has not started."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED):
            open_event_locked(t, actor)
        elif t.round_set.exclude(number=1).exists() or t.status != Tournament.Status.RUNNING:
            raise TableStateError(_("Round 1 has been played already."))
    round_ = pair_round(tournament_id, 1, actor)
    assert round_ is not None  # only_if_missing is off
    return round_


def start_event(tournament_id: int, actor: User | None) -> Round | None:
    """The scheduled start (and a director's one-step start): close registration, pair
    round 1 outside the lock unless a director paired it, then start it."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if t.status in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED):
            open_event_locked(t, actor)
        elif t.status != Tournament.Status.RUNNING or t.round_set.exclude(
                status=Round.Status.PAIRED).exists():
            raise TableStateError(_("The tournament has already started."))
    pair_round(tournament_id, 1, actor, only_if_missing=True)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        round_ = start_round_locked(t, t.round_set.get(number=1), actor)
    after_round_change(tournament_id)  # every match forfeited at the start
    return round_


def people_by_position(match: Match) -> dict[int, tuple[Entry, int | None]]:
    """Seat → (entry, person id or None for a bot), from the match's sides (R1)."""
    seats: dict[int, tuple[Entry, int | None]] = {}
    for side in match.sides.select_related("entry").all():
        base = 0 if side.side == "A" else 1
        entry = side.entry
        if entry.player2_id and not entry.is_bot:  # a pair: both seats of its side
            seats[base] = (entry, entry.player1_id)
            seats[base + 2] = (entry, entry.player2_id)
        elif entry.is_bot and match.round.tournament.is_pairs:
            seats[base] = (entry, None)
            seats[base + 2] = (entry, None)
        else:
            seats[base + 2 * side.slot] = (entry, entry.player1_id)
    return seats


def start_round_locked(t: Tournament, round_: Round, actor: User | None) -> Round:
    """Create every match's table, seat everybody, open check-in. Caller holds the
    tournament's lock (the round is locked here, then each table through the games
    services, in the lock order)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PAIRED:
        raise TableStateError(_("That round has already started."))
    now = timezone.now()
    round_.status = Round.Status.CHECKIN
    round_.started_at = now
    round_.checkin_deadline = now + timedelta(seconds=t.checkin_seconds)
    round_.ends_at = now + timedelta(seconds=t.round_seconds)
    round_.save()
    # Duplicate: the round's boards exist before any table deals its first game.
    duplicate_service.create_boards_locked(t, round_)
    owner = t.created_by
    people: list[int] = []
    mail: list[emails.RoundMail] = []
    for match in round_.matches.select_for_update().filter(status=Match.Status.PENDING):
        seats = people_by_position(match)
        inactive = {e.pk for e, _ in seats.values() if e.status != Entry.Status.ACTIVE}
        if inactive and not t.bots_allowed:
            _forfeit_locked(match, {p for p, (e, _) in seats.items() if e.pk in inactive})
            continue
        table = table_service.create_table(owner, table_service.TableSettings(
            name=f"{t.name[:40]} · R{round_.number} T{match.number}",
            kind=Table.Kind.RANKED if t.rated else Table.Kind.CASUAL,
            visibility=Table.Visibility.PRIVATE, turn_seconds=t.turn_seconds,
            series_target=table_target(t)))
        substitutes = []
        for position in range(4):
            entry, person = seats[position]
            if entry.pk in inactive:
                person = None  # a withdrawn or disqualified entry: a bot plays its seat
                substitutes.append(position)
            if person is None:
                level = entry.bot_level or SUBSTITUTE_LEVEL
                table_service.add_bot(table.pk, owner, position, level)
            else:
                user = get_user_model().objects.get(pk=person)
                table_service.take_seat(table.pk, user, position)
                people.append(person)
                if entry.email_opt_in and user.email:
                    mail.append(emails.RoundMail(
                        user.get_username(), user.email, user.pk,
                        reverse("tournaments:tournament", args=[t.pk]),
                        reverse("games:table", args=[table.pk])))
        match.table = table
        match.status = Match.Status.CHECKIN
        match.substitutes = substitutes
        match.save(update_fields=["table", "status", "substitutes"])
        if not _absent(match):
            _begin_locked(match)
    audit.record(t.club, actor, "round.start", tournament=t, round=round_.number)
    _after_match_change(t, round_)
    send_events_on_commit(partial(publish.banners, people))
    after_commit(partial(round_started.send, sender=Round, tournament_id=t.pk,
                         tournament_name=t.name, round_number=round_.number,
                         user_ids=list(people),
                         checkin_deadline=round_.checkin_deadline))
    after_commit(partial(emails.send_round_started, t.name, round_.number,
                         round_.checkin_deadline, mail))
    _schedule(round_)
    return round_


def table_target(t: Tournament) -> int:
    """The series target at the event's tables: its target, or with a fixed number of
    games the highest a table allows (18; a ranked table plays to 12), so that the
    games decide and the target only ends a lopsided match early. Duplicate: a target
    no series of boards reaches, so that every board is played."""
    if t.is_duplicate:
        return FIXED_DEALS_TARGET
    if t.games_limit is None:
        return t.target
    return 12 if t.rated else 18


def _schedule(round_: Round) -> None:
    """After commit, queue the check-in deadline and the time limit (the beat tick is
    the backstop). Sent by task name: the tasks call this module."""
    send_task_on_commit(CHECKIN_DEADLINE_TASK, (round_.pk,), eta=round_.checkin_deadline)
    send_task_on_commit(ROUND_TIME_TASK, (round_.pk,), eta=round_.ends_at)


def _persons(match: Match) -> set[int]:
    return {p for _, p in people_by_position(match).values() if p is not None} - {
        p for pos, (_, p) in people_by_position(match).items() if pos in match.substitutes}


def _absent(match: Match) -> set[int]:
    return _persons(match) - set(match.checked_in)


def _reseat_locked(t: Tournament, match: Match, table: Table) -> None:
    """Put the match's assignment back on the table's seats before the start: a player
    may have stood up while waiting, or someone else sat down (caller locks the table)."""
    seats = {s.position: s for s in Seat.objects.filter(table=table)}
    for position, (entry, person) in people_by_position(match).items():
        level = "" if person else (entry.bot_level or SUBSTITUTE_LEVEL)
        if position in match.substitutes:
            person, level = None, SUBSTITUTE_LEVEL
        seat = seats[position]
        if seat.user_id == person and seat.bot_level == level:
            continue
        if not seat.is_empty:
            table_service.kick(table.pk, t.created_by, position)
        if person is None:
            table_service.add_bot(table.pk, t.created_by, position, level)
        else:
            table_service.take_seat(table.pk, get_user_model().objects.get(pk=person),
                                    position)


def _begin_locked(match: Match) -> None:
    """Everybody is here: start the match's series (the match is locked). A series the
    table's owner (the director) started by hand at the table is taken as the match's."""
    table = locks.lock_table(match.table_id)
    series = Series.objects.filter(table=table, status=Series.Status.PLAYING).first()
    if series is None:
        _reseat_locked(match.round.tournament, match, table)
        series = series_service.start_series_locked(table)
    match.series = series
    match.status = Match.Status.PLAYING
    match.save(update_fields=["series", "status"])
    # Its players' banners stop saying "go to your table while the others arrive".
    send_events_on_commit(partial(publish.banners, sorted(_persons(match))))


def check_in(match_id: object, user: User | None) -> int:
    """A player checks in for their match (the banner's button); returns the table id.

    The series starts when the last person of the match has checked in. Checking in
    again, or after the start, just returns the table."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in to check in."))
    if isinstance(match_id, bool) or not isinstance(match_id, int):
        raise NotFoundError(_("No such match."))
    t_id = (Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True)
            .first())
    if t_id is None:
        raise NotFoundError(_("No such match."))
    with transaction.atomic():
        t = lock_tournament(t_id)
        round_ = Round.objects.select_for_update().get(matches__pk=match_id)
        match = Match.objects.select_for_update().get(pk=match_id)
        if user.pk not in _persons(match):
            raise PermissionDeniedError(_("You do not play in this match."))
        if match.table_id is None:
            raise TableStateError(_("This match has no table."))
        if match.status == Match.Status.CHECKIN and user.pk not in match.checked_in:
            match.checked_in = [*match.checked_in, user.pk]
            match.save(update_fields=["checked_in"])
            if not _absent(match):
                _begin_locked(match)
            _after_match_change(t, round_)
            send_events_on_commit(partial(publish.banners, [user.pk]))
        table_id = match.table_id
    after_round_change(t_id)
    return table_id


def _after_match_change(t: Tournament, round_: Round) -> None:
    """Round bookkeeping after a match changed. Caller holds the tournament and round."""
    duplicate_service.settle_round_locked(t, round_)
    statuses = set(round_.matches.values_list("status", flat=True))
    if round_.status == Round.Status.CHECKIN and Match.Status.CHECKIN not in statuses:
        round_.status = Round.Status.PLAYING
        round_.save(update_fields=["status"])
    if statuses <= {Match.Status.FINISHED} and round_.status != Round.Status.FINISHED:
        finish_round_locked(t, round_)
    send_event_on_commit(*publish.changed(t.pk))


def _forfeit_outcome(lost: set[str]) -> str:
    """The outcome when the sides in ``lost`` forfeit: the other side wins; both, or
    nobody to blame (a table closed under an empty check-in): 0 for both."""
    return "none" if lost in ({"A", "B"}, set()) else ("B" if "A" in lost else "A")


def _forfeit_locked(match: Match, absent_positions: set[int]) -> None:
    """The sides with an absent (or inactive) seat lose by forfeit; both: 0 for both."""
    match.outcome = _forfeit_outcome({"A" if p % 2 == 0 else "B" for p in absent_positions})
    match.forfeit = True
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.save(update_fields=["outcome", "forfeit", "status", "finished_at"])


def checkin_deadline(round_id: int, *, force: bool = False, now: Any = None) -> int:
    """The check-in time is up: absentees forfeit or get a bot. Returns matches settled."""
    t_id = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if t_id is None:
        return 0
    with transaction.atomic():
        t = lock_tournament(t_id)
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.CHECKIN:
            return 0
        assert round_.checkin_deadline is not None  # set when the round started
        if not force and (now or timezone.now()) + EARLY < round_.checkin_deadline:
            return 0
        settled = 0
        absentees: list[int] = []
        for match in round_.matches.select_for_update().filter(status=Match.Status.CHECKIN):
            settled += 1
            absentees += _settle_checkin_locked(t, round_, match)
        for entry_id in dict.fromkeys(absentees):
            _withdraw_if_absent_too_often(t, entry_id)
        _after_match_change(t, round_)
    after_round_change(t_id)
    return settled


def _settle_checkin_locked(t: Tournament, round_: Round, match: Match) -> list[int]:
    """One match at the check-in deadline; returns its absent entries.

    An entry none of whose people checked in is **absent**: it loses the match by
    forfeit (Tournament.absent_policy BOT: bots play its seats for the others' sake,
    the match still scored as its forfeit). A pair with one partner missing is not
    absent: a bot plays the missing seat when bots are allowed and the result counts;
    without bots that side loses by forfeit."""
    seats = people_by_position(match)
    missing = _absent(match)
    positions = {p for p, (_, person) in seats.items()
                 if person in missing and p not in match.substitutes}
    absent = _absent_entries(match, seats, missing)
    absent_positions = {p for p, (e, _) in seats.items() if e.pk in absent}
    assert match.table_id is not None  # a started match has its table
    table = Table.objects.get(pk=match.table_id)
    names = _names(seats, positions, absent)
    if not positions and table.status == Table.Status.OPEN:
        _begin_locked(match)  # everybody came (the last check-in raced us)
    elif (table.status == Table.Status.OPEN and t.bots_allowed
          and (not absent or t.absent_policy == Tournament.Absence.BOT)):
        for position in sorted(positions):
            table_service.kick(table.pk, t.created_by, position)
            table_service.add_bot(table.pk, t.created_by, position, SUBSTITUTE_LEVEL)
        match.substitutes = sorted({*match.substitutes, *positions})
        match.absent = absent
        match.save(update_fields=["substitutes", "absent"])
        _begin_locked(match)
        audit.record(t.club, None, "match.substitute_bots", tournament=t,
                     round=round_.number, match=match.number, absent=names["absent"],
                     bot_for=names["missing"],
                     scored="forfeit" if absent else "as played")
    else:
        lost = absent_positions | (set() if t.bots_allowed and absent else positions)
        match.absent = absent
        match.save(update_fields=["absent"])
        _forfeit_locked(match, lost)
        audit.record(t.club, None, "match.forfeit", tournament=t,
                     round=round_.number, match=match.number, absent=names["absent"],
                     missing=names["missing"])
    return absent


def _absent_entries(match: Match, seats: dict[int, tuple[Entry, int | None]],
                    missing: set[int]) -> list[int]:
    """The match's entries none of whose people checked in (bot seats aside)."""
    people: dict[int, set[int]] = {}
    for position, (entry, person) in seats.items():
        if person is not None and position not in match.substitutes:
            people.setdefault(entry.pk, set()).add(person)
    return sorted(e for e, persons in people.items() if persons <= missing)


def _names(seats: dict[int, tuple[Entry, int | None]], positions: set[int],
           absent: list[int]) -> dict[str, list[str]]:
    """Who was missing, by name, for the audit log: the absent entries and the people
    a bot played for (or who were not there)."""
    users = get_user_model().objects.in_bulk([seats[p][1] for p in positions
                                              if seats[p][1] is not None])
    entries = {e.pk: e.name for e, _ in seats.values()}
    return {"absent": [entries[e] for e in absent],
            "missing": [users[seats[p][1]].get_username() for p in sorted(positions)
                        if seats[p][1] in users]}


def absent_rounds(t: Tournament, entry_id: int) -> int:
    """How many rounds ``entry_id`` was absent from (nobody of it checked in).

    Counted here rather than with a JSON ``contains`` lookup, which SQLite (the default
    database of ``make run``) does not support; an event has at most a few hundred matches."""
    lists = Match.objects.filter(round__tournament=t).values_list("absent", flat=True)
    return sum(entry_id in absent for absent in lists)


def _withdraw_if_absent_too_often(t: Tournament, entry_id: int) -> None:
    """Absent ``Tournament.absent_withdraw_after`` rounds: the server withdraws the
    entry (its results stand; it is no longer paired). Caller holds the lock."""
    limit = t.absent_withdraw_after
    entry = t.entries.filter(pk=entry_id, status=Entry.Status.ACTIVE).first()
    if not limit or entry is None:
        return
    count = absent_rounds(t, entry_id)
    if count < limit:
        return
    entry.status_reason = ABSENT_REASON
    entry.save(update_fields=["status_reason"])
    withdraw_locked(t, entry, None, f"absent in {count} rounds")


def _decide(series: Series) -> str:
    """The winner of a series, by the goat (R18) or else by fewer loss points."""
    if series.winner in ("A", "B"):
        return series.winner
    if series.loss_points_a == series.loss_points_b:
        return "tie"
    return "A" if series.loss_points_a < series.loss_points_b else "B"


def round_time(round_id: int, *, force: bool = False, now: Any = None) -> int:
    """The round's time limit: every series still playing ends (``round_time``) through
    the finisher, decided by fewer loss points. Returns how many series it ended."""
    t_id = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    if t_id is None:
        return 0
    with transaction.atomic():
        t = lock_tournament(t_id)
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status not in (Round.Status.CHECKIN, Round.Status.PLAYING):
            return 0
        assert round_.ends_at is not None  # set when the round started
        if not force and (now or timezone.now()) + EARLY < round_.ends_at:
            return 0
    if round_.status == Round.Status.CHECKIN:
        checkin_deadline(round_id, force=True)
    ended = 0
    with transaction.atomic():
        t = lock_tournament(t_id)
        round_ = Round.objects.select_for_update().get(pk=round_id)
        for match in round_.matches.select_for_update().filter(status=Match.Status.PLAYING):
            try:
                table, series, _game = locks.lock_playing(match.table_id)
            except ServiceError:
                series = None  # it ended meanwhile: scored below
            if series is not None and series.pk == match.series_id:
                decided = _decide(series)
                series.winner = "" if decided == "tie" else decided
                series.goat = {"A": "B", "B": "A"}.get(series.winner, "")
                finish.end_series_locked(table, series, Termination.ROUND_TIME)
                ended += 1
            _score_locked(match)
        audit.record(t.club, None, "round.time_limit", tournament=t, round=round_.number,
                     ended=ended)
        _after_match_change(t, round_)
    after_round_change(t_id)
    return ended


def _score_locked(match: Match) -> bool:
    """Take the match's result from its ended series. Caller locks the match."""
    if match.status != Match.Status.PLAYING or match.series_id is None:
        return False
    series = Series.objects.get(pk=match.series_id)
    if series.status == Series.Status.PLAYING:
        return False
    match.termination = series.termination
    if match.absent:
        # Bots played for an absent entry: the table's result is not its (nor its
        # opponents') — the match is scored as the forfeit it is.
        lost = set(match.sides.filter(entry_id__in=match.absent).values_list("side", flat=True))
        match.outcome, match.forfeit = _forfeit_outcome(lost), True
        match.loss_a = match.loss_b = 0
    else:
        match.loss_a, match.loss_b = series.loss_points_a, series.loss_points_b
        match.outcome = ("none" if series.termination == Termination.VOIDED
                         else _decide(series))
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.save(update_fields=["loss_a", "loss_b", "termination", "outcome", "forfeit",
                              "status", "finished_at"])
    return True


def _match_ids(series_id: int, **only: Any) -> tuple[int, int, int] | None:
    """(match, round, tournament) ids of the match played as ``series_id``, if any (read
    without a lock: they never change for a match)."""
    return (Match.objects.filter(series_id=series_id, **only)
            .values_list("pk", "round_id", "round__tournament_id").first())


def _lock_match_rows(match_id: int, round_id: int,
                     tournament_id: int) -> tuple[Tournament, Round, Match]:
    """Lock the event, its round, then the match (the tournaments' lock order)."""
    t = lock_tournament(tournament_id)
    return (t, Round.objects.select_for_update().get(pk=round_id),
            Match.objects.select_for_update().get(pk=match_id))


def game_finished(series_id: int) -> bool:
    """A game of a match's series has its result: after the event's fixed number of
    games the series ends through the finisher (``game_limit``), decided by fewer loss
    points. Called on commit of the game's end, before the next game is dealt
    (start_next_game then finds the series over and deals nothing)."""
    ids = _match_ids(series_id, status=Match.Status.PLAYING,
                     round__tournament__games_limit__isnull=False)
    if ids is None:
        return False
    with transaction.atomic():
        t, round_, match = _lock_match_rows(*ids)
        # Duplicate: this game's board result, and the boards now played everywhere.
        duplicate_service.settle_round_locked(t, round_)
        try:
            table, series = locks.lock_series(series_id)
        except NotFoundError:
            return False
        played = series.games.filter(status="finished").count()
        if series.status != Series.Status.PLAYING or played < (t.games_limit or 0):
            return False
        decided = _decide(series)
        series.winner = "" if decided == "tie" else decided
        series.goat = {"A": "B", "B": "A"}.get(series.winner, "")
        finish.end_series_locked(table, series, Termination.GAME_LIMIT)
        _score_locked(match)
        _after_match_change(t, round_)
    after_round_change(ids[2])
    return True


def match_finished(series_id: int) -> bool:
    """A match's series ended (``series_finished``): score it; maybe end the round."""
    ids = _match_ids(series_id)
    if ids is None:
        return False
    with transaction.atomic():
        t, round_, match = _lock_match_rows(*ids)
        if not _score_locked(match):
            return False
        _after_match_change(t, round_)
        # The match's players are no longer playing: their banner says what comes next.
        send_events_on_commit(partial(publish.banners, [
            person for _e, person in people_by_position(match).values() if person]))
    after_round_change(ids[2])
    return True


# --- between rounds --------------------------------------------------------------------


def finish_round_locked(t: Tournament, round_: Round) -> None:
    """All matches are over: close the round, then end the event, or queue the next
    round's start after the break (unless the event is paused). The next round is
    paired after this transaction, outside the lock (:func:`after_round_change`)."""
    round_.status = Round.Status.FINISHED
    round_.finished_at = timezone.now()
    round_.save(update_fields=["status", "finished_at"])
    audit.record(t.club, None, "round.finish", tournament=t, round=round_.number)
    # Every player's banner now says what comes next (the next round's start, or nothing).
    send_events_on_commit(partial(publish.banners, [
        person for entry in t.entries.filter(status=Entry.Status.ACTIVE)
        for person in entry.people_ids]))
    if round_.number >= t.rounds:
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        audit.record(t.club, None, "tournament.finish", tournament=t)
        if t.recur_weeks:
            after_commit(partial(recurrence.create_next, t.pk))
        return
    if not t.paused:
        _schedule_start(t.pk, round_.number + 1, t.break_seconds)


def after_round_change(tournament_id: int) -> Round | None:
    """After a transaction that may have ended a round: pair the next one (computed
    without the lock, :func:`pair_round`) so that directors see it during the break.
    A round a director paired already is left alone. A pairing the rules make
    impossible pauses the event for a director (audited)."""
    last = (Round.objects.filter(tournament_id=tournament_id).order_by("-number")
            .values_list("number", "status", "tournament__rounds", "tournament__status")
            .first())
    if last is None:
        return None
    number, status, total, t_status = last
    if status != Round.Status.FINISHED or number >= total or t_status != "running":
        return None
    try:
        return pair_round(tournament_id, number + 1, only_if_missing=True)
    except pairing.PairingError as exc:
        with transaction.atomic():
            t = lock_tournament(tournament_id)
            t.paused = True
            t.save(update_fields=["paused"])
            audit.record(t.club, None, "round.pair_failed", tournament=t,
                         round=number + 1, reason=str(exc))
        return None


def _schedule_start(tournament_id: int, number: int, countdown: float) -> None:
    """After commit, start round ``number`` in ``countdown`` seconds (the tick is the
    backstop)."""
    send_task_on_commit(START_ROUND_TASK, (tournament_id, number), countdown=countdown)


def start_next_round(tournament_id: int, number: int, actor: User | None = None,
                     *, force: bool = False) -> bool:
    """Start round ``number`` once the previous one is over and the break has passed,
    pairing it first (outside the lock) unless it is paired already; not while the
    event is paused (a director's ``force`` starts it during a pause or the break)."""
    if not _may_start(tournament_id, number, force):
        return False
    try:
        pair_round(tournament_id, number, actor, only_if_missing=True)
    except pairing.PairingError:
        after_round_change(tournament_id)  # pauses the event and says why
        return False
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not _may_start(tournament_id, number, force, t):
            return False
        round_ = t.round_set.get(number=number)
        if round_.status != Round.Status.PAIRED:
            return False
        start_round_locked(t, round_, actor)
    after_round_change(tournament_id)  # every match forfeited at the start
    return True


def _may_start(tournament_id: int, number: int, force: bool,
               t: Tournament | None = None) -> bool:
    """Round ``number`` may start now (read as it stands; under the lock when ``t``)."""
    t = t or Tournament.objects.filter(pk=tournament_id).first()
    if t is None or t.status != Tournament.Status.RUNNING or (t.paused and not force):
        return False
    if number > t.rounds:
        return False
    round_ = t.round_set.filter(number=number).first()
    if round_ is not None and round_.status != Round.Status.PAIRED:
        return False
    previous = t.round_set.filter(number=number - 1).first()
    if number > 1 and (previous is None or previous.status != Round.Status.FINISHED):
        return False
    return not (not force and previous is not None and previous.finished_at
                and timezone.now() + EARLY
                < previous.finished_at + timedelta(seconds=t.break_seconds))


def tick(now: Any = None) -> dict[str, int]:
    """The beat backstop: scheduled starts, check-in deadlines, time limits, matches whose
    series ended, rounds due after their break. Every step is idempotent."""
    now = now or timezone.now()
    done: Counter[str] = Counter()
    for t_id in Tournament.objects.filter(
            status__in=[Tournament.Status.REGISTRATION, Tournament.Status.CLOSED],
            starts_at__lte=now).values_list("pk", flat=True)[:20]:
        try:
            start_event(t_id, None)
            done["started"] += 1
        except (ServiceError, pairing.PairingError) as exc:
            with transaction.atomic():
                t = lock_tournament(t_id)
                t.starts_at = None  # not again every tick: a director starts it by hand
                t.save(update_fields=["starts_at"])
                audit.record(t.club, None, "tournament.start_failed", tournament=t,
                             reason=getattr(exc, "message", str(exc)))
    for round_id in Round.objects.filter(status=Round.Status.CHECKIN,
                                         checkin_deadline__lte=now).values_list("pk",
                                                                                 flat=True)[:50]:
        done["checkins"] += checkin_deadline(round_id, now=now)
    for round_id in Round.objects.filter(status__in=[Round.Status.CHECKIN,
                                                     Round.Status.PLAYING],
                                         ends_at__lte=now).values_list("pk", flat=True)[:50]:
        done["time_limits"] += round_time(round_id, now=now)
    for series_id in (Match.objects.filter(status=Match.Status.PLAYING,
                                           series__status=Series.Status.PLAYING,
                                           round__tournament__games_limit__isnull=False)
                      .values_list("series_id", flat=True)[:100]):
        done["game_limits"] += game_finished(series_id)
    for series_id in (Match.objects.filter(status=Match.Status.PLAYING)
                      .exclude(series__status=Series.Status.PLAYING)
                      .values_list("series_id", flat=True)[:100]):
        done["matches"] += match_finished(series_id)
    for t_id in (Round.objects.filter(status=Round.Status.FINISHED,
                                      tournament__status=Tournament.Status.RUNNING)
                 .order_by().values_list("tournament_id", flat=True).distinct()[:20]):
        if after_round_change(t_id) is not None:
            done["paired"] += 1
    for t_id, number in (Round.objects.filter(status=Round.Status.PAIRED,
                                              tournament__status=Tournament.Status.RUNNING,
                                              tournament__paused=False, number__gt=1)
                         .values_list("tournament_id", "number")[:20]):
        done["rounds"] += start_next_round(t_id, number)
    return dict(done)


def withdraw(tournament_id: int, user: User | None) -> None:
    """A player withdraws their entry: before the start it is removed; after, it is no
    longer paired and its results stand."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        entry = events.entered(t, user.pk)
        if entry is None or entry.status in (Entry.Status.WITHDRAWN,
                                             Entry.Status.DISQUALIFIED):
            raise InvalidRequestError(_("You have no entry to withdraw."))
        withdraw_locked(t, entry, user)


def withdraw_locked(t: Tournament, entry: Entry, actor: User | None,
                    reason: str = "") -> None:
    """Withdraw ``entry``. The caller holds the tournament's lock."""
    if t.status == Tournament.Status.FINISHED:
        raise TableStateError(_("The tournament is over."))
    if not entry.match_sides.exists():
        entry.delete()
    else:
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
    audit.record(t.club, actor, "entry.withdraw", tournament=t, reason=reason,
                 entry=entry.name)
    repair_without(t, entry, actor)
    send_event_on_commit(*publish.changed(t.pk))


def repair_without(t: Tournament, entry: Entry, actor: User | None) -> None:
    """An entry left while the next round is paired but not started: pair it again
    without them (a fixed schedule keeps its matches: they forfeit or get a bot)."""
    if t.format not in ("swiss", "rotation") or entry.pk is None:
        return  # a fixed schedule; or an entry removed before it was ever paired
    waiting = t.round_set.filter(status=Round.Status.PAIRED,
                                 matches__sides__entry=entry).first()
    if waiting is not None:
        pair_round_locked(t, waiting.number, actor)


# --- for the director's console (services/console.py) ------------------------------------


def absent_people(match: Match) -> set[int]:
    """The people of ``match`` who have not checked in (a bot's seats excluded)."""
    return _absent(match)


def begin_locked(match: Match) -> None:
    """Start the match's series now (the caller locks the event, the round and the match)."""
    _begin_locked(match)


def after_match_change(t: Tournament, round_: Round) -> None:
    """The round's bookkeeping after a match changed (the caller holds both locks)."""
    _after_match_change(t, round_)


def forfeit_sides_locked(match: Match, outcome: str) -> None:
    """Finish ``match`` by forfeit with ``outcome`` ("A", "B": that side wins; "none":
    both forfeit). The caller locks the match."""
    match.outcome = outcome
    match.forfeit = True
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.save(update_fields=["outcome", "forfeit", "status", "finished_at"])
