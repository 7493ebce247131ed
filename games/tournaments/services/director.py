"""Director tools, each written to the tournament's append-only audit log.

``perform(tournament_id, user, action, data)`` is the one entry point of the director's
form: it checks the permission (owner, director, site moderator), validates ``data``
(a QueryDict or a dict of strings) and calls the tool. Each tool runs in one
transaction that starts with the tournament's lock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.events import after_commit, send_event_on_commit, send_events_on_commit
from games.models import Table
from games.services import tables as table_service
from games.tournaments import pairing, permissions, publish
from games.tournaments.models import REASON_MAX, Entry, Match, MatchSide, Round, Tournament
from games.tournaments.services import audit, console, corrections, events, rounds
from games.tournaments.services.clubs import require_verified, user_by_name


def _int(data: Mapping[str, Any], key: str, what: str) -> int:
    raw = data.get(key)
    try:
        value = int(str(raw))
    except (TypeError, ValueError):
        raise InvalidRequestError(_("Give %(what)s as a number.") % {"what": what}) from None
    if value < 0 or value > 10**12:
        raise InvalidRequestError(_("Give %(what)s as a number.") % {"what": what})
    return value


def _reason(data: Mapping[str, Any], required: bool = True) -> str:
    text = " ".join(str(data.get("reason", "") or "").split())
    if required and not text:
        raise InvalidRequestError(_("Give a reason: it goes into the audit log."))
    if len(text) > REASON_MAX:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {
            "max": REASON_MAX})
    return text


def _entry(t: Tournament, data: Mapping[str, Any], key: str = "entry_id") -> Entry:
    entry = t.entries.filter(pk=_int(data, key, _("the entry"))).first()
    if entry is None:
        raise NotFoundError(_("No such entry in this tournament."))
    return entry


def _paired_round(t: Tournament) -> Round:
    round_ = t.round_set.filter(status=Round.Status.PAIRED).order_by("number").first()
    if round_ is None:
        raise TableStateError(_("No round is waiting to start: re-pairing is possible only "
                              "before a round starts."))
    return round_


def _live_round(t: Tournament) -> Round:
    round_ = (t.round_set.filter(status__in=[Round.Status.CHECKIN, Round.Status.PLAYING])
              .order_by("-number").first())
    if round_ is None:
        raise TableStateError(_("No round is being played."))
    return round_


def _registration(open_: bool) -> Callable[..., str]:
    def run(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
        if t.status not in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED):
            raise TableStateError(_("Registration can change only before the start."))
        t.status = Tournament.Status.REGISTRATION if open_ else Tournament.Status.CLOSED
        t.save(update_fields=["status"])
        audit.record(t.club, user, "registration.open" if open_ else "registration.close",
                     tournament=t)
        return _("Registration is open.") if open_ else _("Registration is closed.")

    return run


def _start_round(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    round_ = _paired_round(t)
    previous = t.round_set.filter(number=round_.number - 1).first()
    if previous is not None and previous.status != Round.Status.FINISHED:
        raise TableStateError(_("The previous round is still being played."))
    t.paused = False
    t.save(update_fields=["paused"])
    rounds.start_round_locked(t, round_, user)
    return _("Round %(round)s has started.") % {"round": round_.number}


def _pause(paused: bool) -> Callable[..., str]:
    def run(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
        if t.status != Tournament.Status.RUNNING:
            raise TableStateError(_("Only a running tournament can be paused or resumed."))
        if t.paused == paused:
            return _("Nothing to change.")
        t.paused = paused
        t.save(update_fields=["paused"])
        audit.record(t.club, user, "tournament.pause" if paused else "tournament.resume",
                     tournament=t)
        if not paused:
            waiting = t.round_set.filter(status=Round.Status.PAIRED).first()
            if waiting is not None:
                rounds._schedule_start(t.pk, waiting.number, 0)
        return (_("Paused: the next round will not start by itself.") if paused
                else _("Resumed."))

    return run


def _end_round(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    round_ = _live_round(t)
    audit.record(t.club, user, "round.end", tournament=t, round=round_.number,
                 reason=_reason(data, required=False))
    after_commit(partial(rounds.round_time, round_.pk, force=True))
    return _("Round %(round)s is being ended: running matches are decided now.") % {
        "round": round_.number}


def _two_entries(t: Tournament, data: Mapping[str, Any]) -> tuple[int, int]:
    first, second = _entry(t, data, "first"), _entry(t, data, "second")
    if first.pk == second.pk:
        raise InvalidRequestError(_("Choose two different entries."))
    if not t.is_pairs:
        raise InvalidRequestError(_("Manual and forbidden pairings are for pairs events."))
    return first.pk, second.pk


def _manual(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    if t.format != "swiss":
        raise InvalidRequestError(_("Manual pairings are for Swiss events."))
    a, b = _two_entries(t, data)
    round_ = _paired_round(t)
    taken = {e for p in round_.manual_pairs for e in p}
    if a in taken or b in taken:
        raise InvalidRequestError(_("One of these entries already has a manual pairing."))
    if pairing.pair_key(a, b) in {pairing.pair_key(*p) for p in t.forbidden_pairs}:
        raise InvalidRequestError(_("That pairing is forbidden."))
    round_.manual_pairs = [*round_.manual_pairs, [a, b]]
    round_.save(update_fields=["manual_pairs"])
    audit.record(t.club, user, "pairing.manual", tournament=t, round=round_.number,
                 entries=_entry_names(t, a, b))
    rounds.pair_round_locked(t, round_.number, user)
    return _("Manual pairing set; the round was paired again.")


def _forbid(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    a, b = _two_entries(t, data)
    if pairing.pair_key(a, b) in {pairing.pair_key(*p) for p in t.forbidden_pairs}:
        return _("That pairing is already forbidden.")
    t.forbidden_pairs = [*t.forbidden_pairs, [a, b]]
    t.save(update_fields=["forbidden_pairs"])
    audit.record(t.club, user, "pairing.forbid", tournament=t, entries=_entry_names(t, a, b))
    waiting = t.round_set.filter(status=Round.Status.PAIRED).first()
    if waiting is not None and t.format == "swiss":
        rounds.pair_round_locked(t, waiting.number, user)
    return _("That pairing will not be made.")


def _allow(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    a, b = _two_entries(t, data)
    key = pairing.pair_key(a, b)
    if key not in {pairing.pair_key(*p) for p in t.forbidden_pairs}:
        raise InvalidRequestError(_("That pairing is not forbidden."))
    t.forbidden_pairs = [p for p in t.forbidden_pairs if pairing.pair_key(*p) != key]
    t.save(update_fields=["forbidden_pairs"])
    audit.record(t.club, user, "pairing.allow", tournament=t, entries=_entry_names(t, a, b))
    return _("That pairing may be made again.")


def _entry_names(t: Tournament, *ids: int) -> list[str]:
    names = dict(t.entries.filter(pk__in=ids).values_list("pk", "name"))
    return [names.get(i, str(i)) for i in ids]


def _swap(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """Swap two entries between the matches of the round waiting to start (the
    pairing as the director wants it); a Swiss keeps the swap if it is paired again."""
    first, second = _entry(t, data, "first"), _entry(t, data, "second")
    if first.pk == second.pk:
        raise InvalidRequestError(_("Choose two different entries."))
    round_ = _paired_round(t)
    sides = {s.entry_id: s for s in MatchSide.objects.select_for_update().filter(
        match__round=round_, entry_id__in=[first.pk, second.pk])}
    if len(sides) != 2:
        raise InvalidRequestError(_("Both entries must be in the pairings of round "
                                    "%(round)s.") % {"round": round_.number})
    one, two = sides[first.pk], sides[second.pk]
    if one.match_id == two.match_id:
        raise InvalidRequestError(_("These two entries are in the same match already."))
    one.entry_id, two.entry_id = second.pk, first.pk
    one.save(update_fields=["entry"])
    two.save(update_fields=["entry"])
    if t.format == "swiss":
        _keep_as_manual(round_, [one.match_id, two.match_id])
    audit.record(t.club, user, "pairing.swap", tournament=t, round=round_.number,
                 entries=[first.name, second.name])
    message = _("%(first)s and %(second)s were swapped in round %(round)s.") % {
        "first": first.name, "second": second.name, "round": round_.number}
    flagged = forbidden_in(t, round_)
    if flagged:
        message += " " + _("Forbidden pairing now in the round: %(pairs)s.") % {
            "pairs": "; ".join(" – ".join(_entry_names(t, *p)) for p in flagged)}
    return message


def _keep_as_manual(round_: Round, match_ids: list[int]) -> None:
    """Record the swapped matches as the round's manual pairings (a Swiss re-pairing
    keeps them), replacing earlier manual pairings of the same entries."""
    pairs = []
    for match_id in match_ids:
        ids = list(MatchSide.objects.filter(match_id=match_id).order_by("side")
                   .values_list("entry_id", flat=True))
        if len(ids) == 2:
            pairs.append(ids)
    moved = {e for p in pairs for e in p}
    round_.manual_pairs = [p for p in round_.manual_pairs if not set(p) & moved] + pairs
    round_.save(update_fields=["manual_pairs"])


def forbidden_in(t: Tournament, round_: Round) -> list[tuple[int, int]]:
    """The forbidden pairings a round's matches make (a swap or a manual pairing may)."""
    banned = {pairing.pair_key(*p) for p in t.forbidden_pairs}
    by_match: dict[int, dict[str, list[int]]] = {}
    for match_id, side, entry_id in MatchSide.objects.filter(match__round=round_).values_list(
            "match_id", "side", "entry_id"):
        by_match.setdefault(match_id, {"A": [], "B": []})[side].append(entry_id)
    return sorted((a, b) for sides in by_match.values() for a in sides["A"]
                  for b in sides["B"] if pairing.pair_key(a, b) in banned)


def _current_match(entry: Entry) -> Match | None:
    return (Match.objects.filter(sides__entry=entry)
            .exclude(status=Match.Status.FINISHED).exclude(status=Match.Status.PENDING)
            .select_for_update(of=("self",)).first())


def _substitute(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    reason = _reason(data)
    entry = _entry(t, data)
    if entry.is_bot:
        raise InvalidRequestError(_("A bot entry has nobody to substitute."))
    old, new = user_by_name(data.get("old")), user_by_name(data.get("new"))
    if old.pk not in entry.people_ids:
        raise InvalidRequestError(_("%(name)s does not play in %(entry)s.") % {
            "name": old.get_username(), "entry": entry.name})
    require_verified(new, "play")
    if not permissions.is_member(t.club, new):
        raise PermissionDeniedError(_("%(name)s is not a member of the club.") % {
            "name": new.get_username()})
    if t.entries.filter(player1=new).exists() or t.entries.filter(player2=new).exists():
        raise InvalidRequestError(_("%(name)s is already entered.") % {
            "name": new.get_username()})
    match = _current_match(entry)
    if match is not None and match.status != Match.Status.CHECKIN:
        raise TableStateError(_("The entry is playing a match: substitute after it."))
    if match is not None:
        position = next(p for p, (_e, person) in rounds.people_by_position(match).items()
                        if person == old.pk)
        assert match.table_id is not None  # a started match has its table
        table = Table.objects.get(pk=match.table_id)
        table_service.kick(table.pk, t.created_by, position)
        table_service.take_seat(table.pk, new, position)
        match.checked_in = [u for u in match.checked_in if u != old.pk]
        match.save(update_fields=["checked_in"])
    field = "player1" if entry.player1_id == old.pk else "player2"
    before = entry.name
    setattr(entry, field, new)
    entry.name = substituted_name(entry, old)
    entry.save(update_fields=[field, "name"])
    audit.record(t.club, user, "entry.substitute", tournament=t, reason=reason,
                 entry=before, renamed=entry.name, old=old.get_username(),
                 new=new.get_username())
    send_events_on_commit(partial(publish.banners, [new.pk, old.pk]))
    return _("%(new)s plays for %(old)s from now on: the entry is now %(entry)s.") % {
        "new": new.get_username(), "old": old.get_username(), "entry": entry.name}


FOR_SUFFIX = re.compile(r" \(for (?P<name>.+)\)$")


def substituted_name(entry: Entry, old: User) -> str:
    """The entry's name once ``old`` has been replaced (the entry's players already
    changed): its players now, and whom they play for ("gina & erin (for hugo)"), so
    the standings and pairings say who plays. A second substitution keeps the first
    absentee; the absentee coming back gives the plain name again."""
    found = FOR_SUFFIX.search(entry.name)
    absent = found.group("name") if found else events.display_name(old)
    people = [events.display_name(u) for u in (entry.player1, entry.player2) if u is not None]
    plain = " & ".join(people)
    if absent in people:
        return plain[:80]
    return f"{plain} (for {absent})"[:80]


def _disqualify(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    reason = _reason(data)
    entry = _entry(t, data)
    if entry.status == Entry.Status.DISQUALIFIED:
        return _("Already disqualified.")
    entry.status = Entry.Status.DISQUALIFIED
    entry.save(update_fields=["status"])
    audit.record(t.club, user, "entry.disqualify", tournament=t, reason=reason,
                 entry=entry.name)
    rounds.repair_without(t, entry, user)
    return f"{entry.name} is disqualified: no longer paired, no place."


def _withdraw_entry(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    entry = _entry(t, data)
    if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED):
        raise InvalidRequestError(_("That entry is not playing."))
    rounds.withdraw_locked(t, entry, user, _reason(data, required=False))
    return f"{entry.name} was withdrawn."


def _add_bot(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    entry = events.add_bot_entry(t, user, str(data.get("level", "")))
    return f"{entry.name} entered."


ACTIONS: dict[str, Callable[[Tournament, User, Mapping[str, Any]], str]] = {
    "open_registration": _registration(True),
    "close_registration": _registration(False),
    "start_round": _start_round,
    "pause": _pause(True),
    "resume": _pause(False),
    "end_round": _end_round,
    "swap": _swap,
    "allow_pair": _allow,
    "manual_pair": _manual,
    "forbid_pair": _forbid,
    "correct": corrections.correct_locked,
    "substitute": _substitute,
    "disqualify": _disqualify,
    "withdraw_entry": _withdraw_entry,
    "add_bot": _add_bot,
    # The director's console (services/console.py).
    "bot_seat": console.bot_seat,
    "forfeit_match": console.forfeit_match,
    "extend_round": console.extend_round,
    "message_table": console.message_table,
}


def disqualify_by_site(tournament_id: int, entry_id: int, actor: User, reason: str) -> Entry:
    """A site moderator disqualifies an entry of any club's event (a cheater): the same
    tool as a director's, written to the tournament's audit log under the moderator's
    name. The caller (accounts.moderation) authorized the moderator and writes its own
    log in the same transaction."""
    with transaction.atomic():
        t = events.lock_tournament(tournament_id)
        if t.status == Tournament.Status.FINISHED:
            raise TableStateError(_("The tournament is over; only results can be corrected."))
        entry = _entry(t, {"entry_id": entry_id})
        if entry.status == Entry.Status.DISQUALIFIED:
            raise InvalidRequestError(_("Already disqualified."))
        _disqualify(t, actor, {"entry_id": entry_id, "reason": reason})
        send_event_on_commit(*publish.changed(t.pk))
    return entry


def _pair(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """Pair the next round without starting it ("Pair round N"), or pair again the
    round waiting to start. The pairing is computed outside the tournament's lock."""
    started = t.round_set.exclude(status=Round.Status.PAIRED)
    if t.status in (Tournament.Status.REGISTRATION, Tournament.Status.CLOSED) or (
            t.status == Tournament.Status.RUNNING and not started.exists()):
        round_ = rounds.pair_first_round(t.pk, user)
    else:
        waiting = t.round_set.filter(status=Round.Status.PAIRED).order_by("number").first()
        last = t.round_set.order_by("-number").first()
        if waiting is not None:
            number = waiting.number
        elif (last is not None and last.status == Round.Status.FINISHED
              and last.number < t.rounds):
            number = last.number + 1
        else:
            raise TableStateError(_("No round is waiting to start: re-pairing is possible "
                                    "only before a round starts."))
        paired = rounds.pair_round(t.pk, number, user)
        assert paired is not None  # only_if_missing is off
        round_ = paired
    return _("Round %(round)s is paired: check the pairings, then start it.") % {
        "round": round_.number}


def _start_event(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    rounds.start_event(t.pk, user)
    return _("Round 1 has started: players check in now.")


# Tools that compute a pairing: they take the tournament's lock themselves, only to
# save it (services/pairings.py), so that nobody waits for the computation.
UNLOCKED: dict[str, Callable[[Tournament, User, Mapping[str, Any]], str]] = {
    "pair_round": _pair,
    "repair": _pair,
    "start": _start_event,
}


def perform(tournament_id: int, user: User | None, action: str,
            data: Mapping[str, Any]) -> str:
    """Run one director tool; returns the message to show. Raises a ServiceError."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    run = ACTIONS.get(action) or UNLOCKED.get(action)
    if run is None:
        raise InvalidRequestError(_("Unknown director action."))
    if action in UNLOCKED:
        t = events.read_tournament(tournament_id)
        _allowed(t, user, action)
        message = run(t, user, data)
    else:
        with transaction.atomic():
            t = events.lock_tournament(tournament_id)
            _allowed(t, user, action)
            message = run(t, user, data)
            send_event_on_commit(*publish.changed(t.pk))
    rounds.after_round_change(t.pk)
    return message


def _allowed(t: Tournament, user: User, action: str) -> None:
    if not permissions.can_direct_event(t, user):
        raise PermissionDeniedError(_("Only the club's owner and directors run tournaments."))
    if t.status == Tournament.Status.FINISHED and action != "correct":
        raise TableStateError(_("The tournament is over; only results can be corrected."))
