"""Reads of clubs and tournaments (no writes here)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse

from games.tournaments import standings
from games.tournaments.models import (
    Club,
    Entry,
    Match,
    MatchSide,
    Membership,
    Round,
    Tournament,
)

PAGE = 50
# A match's result as a director may set it: outcome, side A's and side B's loss points,
# forfeit.
ResultFigures = tuple[str, int, int, bool]


def clubs(query: str = "") -> QuerySet[Club]:
    """The clubs list, searched by name, address, description or country."""
    text = " ".join(str(query or "").split())[:60]
    found = Club.objects.annotate(
        members=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE)))
    if text:
        found = found.filter(Q(name__icontains=text) | Q(slug__icontains=text)
                             | Q(description__icontains=text) | Q(country__iexact=text))
    return found.order_by("-members", "name")


def members(club: Club) -> list[Membership]:
    return list(club.memberships.filter(status=Membership.Status.ACTIVE)
                .select_related("user__profile").order_by("role", "created_at"))


def requests(club: Club) -> list[Membership]:
    return list(club.memberships.filter(status=Membership.Status.REQUESTED)
                .select_related("user__profile"))


def banned(club: Club) -> list[Membership]:
    return list(club.memberships.filter(status=Membership.Status.BANNED)
                .select_related("user__profile"))


def clubs_of(user: User) -> list[Membership]:
    """A player's clubs (their profile lists them)."""
    return list(Membership.objects.filter(user=user, status=Membership.Status.ACTIVE)
                .select_related("club").order_by("club__name"))


def next_public_events(now: datetime, limit: int = 4) -> list[Tournament]:
    """The next club tournaments anyone may enter or follow, soonest first (one query).

    "Public": the club is not invite-only (an invite-only club keeps its events to its
    members' own pages). Events still taking entries or closed before their start; one
    whose start time passed less than six hours ago (the director has not started it
    yet) is still listed, an older one is stale; those without a start time come last."""
    return list(Tournament.objects
                .filter(status__in=[Tournament.Status.REGISTRATION, Tournament.Status.CLOSED])
                .exclude(club__join_policy=Club.JoinPolicy.INVITE)
                .filter(Q(starts_at__isnull=True) | Q(starts_at__gte=now - timedelta(hours=6)))
                .select_related("club")
                .order_by(F("starts_at").asc(nulls_last=True), "pk")[:limit])


def tournaments_by_state(club: Club) -> dict[str, list[Tournament]]:
    every = list(club.tournaments.order_by("-created_at"))
    return {
        "upcoming": [t for t in every if t.status in (Tournament.Status.REGISTRATION,
                                                       Tournament.Status.CLOSED)],
        "running": [t for t in every if t.status == Tournament.Status.RUNNING],
        "past": [t for t in every if t.status == Tournament.Status.FINISHED],
    }


def results_of(tournament: Tournament, replace: dict[int, ResultFigures] | None = None
               ) -> list[standings.MatchResult]:
    """Every finished match as the standings see it; ``replace`` (match id → outcome,
    loss points A and B, forfeit) shows the standings a correction would give."""
    replace = replace or {}
    # Plain values in two queries (no model instances): the pairer reads this for every
    # round it pairs, the page for every view.
    sides: dict[int, dict[str, list[int]]] = defaultdict(lambda: {"A": [], "B": []})
    for match_id, side, entry_id in (MatchSide.objects.filter(
            match__round__tournament=tournament, match__status=Match.Status.FINISHED)
            .order_by("match_id", "side", "slot").values_list("match_id", "side", "entry_id")):
        sides[match_id][side].append(entry_id)
    out = []
    for pk, number, stored_outcome, stored_a, stored_b, stored_forfeit, absent in (
            Match.objects.filter(round__tournament=tournament, status=Match.Status.FINISHED)
            .order_by("round__number", "number").values_list(
                "pk", "round__number", "outcome", "loss_a", "loss_b", "forfeit", "absent")):
        outcome, loss_a, loss_b, forfeit = replace.get(
            pk, (stored_outcome or "none", stored_a, stored_b, stored_forfeit))
        out.append(standings.MatchResult(
            round=number, side_a=tuple(sides[pk]["A"]), side_b=tuple(sides[pk]["B"]),
            outcome=outcome, loss_a=loss_a, loss_b=loss_b, forfeit=forfeit,
            absent=tuple(absent)))
    return out


def entry_infos(tournament: Tournament, entries: list[Entry] | None = None
                ) -> list[standings.EntryInfo]:
    entries = entries if entries is not None else list(tournament.entries.exclude(
        status=Entry.Status.PENDING))
    return [standings.EntryInfo(e.pk, e.name, e.is_bot,
                                e.status == Entry.Status.DISQUALIFIED,
                                e.status == Entry.Status.WITHDRAWN) for e in entries]


def rounds_completed(tournament: Tournament) -> int:
    return tournament.round_set.filter(status=Round.Status.FINISHED).count()


def standings_of(tournament: Tournament, replace: dict[int, ResultFigures] | None = None
                 ) -> list[standings.Row]:
    """The standings, recomputed from the stored results (with ``replace``: as they
    would be with those matches' results instead)."""
    return standings.compute(entry_infos(tournament), results_of(tournament, replace),
                             rounds_completed(tournament), tournament.seed)


def club_leaderboard(club: Club, limit: int = 20) -> list[dict[str, Any]]:
    """People by the match points their entries scored in the club's tournaments."""
    totals: dict[int, int] = defaultdict(int)
    events: dict[int, set[int]] = defaultdict(set)
    for tournament in club.tournaments.exclude(status=Tournament.Status.REGISTRATION):
        entries = {e.pk: e for e in tournament.entries.all()}
        points = standings.match_points(entry_infos(tournament, list(entries.values())),
                                        results_of(tournament))
        for entry_id, value in points.items():
            for person in entries[entry_id].people_ids:
                totals[person] += value
                events[person].add(tournament.pk)
    users = get_user_model().objects.in_bulk(list(totals))
    rows: list[dict[str, Any]] = [{"user": users[u], "points": p, "events": len(events[u])}
            for u, p in totals.items() if u in users]
    rows.sort(key=lambda r: (-r["points"], r["user"].get_username()))
    return rows[:limit]


@dataclass
class CrossTable:
    rounds: list[int]
    rows: list[tuple[standings.Row, list[str]]]


def cross_table(tournament: Tournament, rows: list[standings.Row]) -> CrossTable:
    """Per entry and round: W/T/L (at the table), +/− (forfeit), B (bye), with the
    opponents' numbers: their places (a letter for an entry without one, standings.py)."""
    number = {r.entry.id: r.number for r in rows}
    opponents: dict[tuple[int, int], list[str]] = defaultdict(list)
    for result in results_of(tournament):
        for own, other in ((result.side_a, result.side_b), (result.side_b, result.side_a)):
            for entry in own:
                opponents[(entry, result.round)] = [number.get(o, "?") for o in other]
    n = tournament.round_set.count()
    out = []
    for row in rows:
        cells = []
        for r in range(1, n + 1):
            mark = row.by_round.get(r, "")
            opp = ",".join(opponents.get((row.entry.id, r), []))
            cells.append(f"{mark}{opp}" if mark else "·")
        out.append((row, cells))
    # Before a round is finished nobody has a place, and there is nothing to cross.
    shown = any(row.place for row in rows)
    return CrossTable(rounds=list(range(1, n + 1)) if shown else [], rows=out)


def entry_of(tournament: Tournament, user: User | AnonymousUser | None
             ) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return (tournament.entries.filter(Q(player1=user) | Q(player2=user))
            .exclude(status=Entry.Status.WITHDRAWN).first())


def matches_of_round(round_: Round) -> list[Match]:
    """The round's matches, each with ``bot_for``: the names of the people a bot
    played for (absent, or of an entry no longer playing), and ``absent_names``."""
    matches = list(round_.matches.select_related("table", "series")
                   .prefetch_related("sides__entry__player1", "sides__entry__player2")
                   .order_by("number"))
    for match in matches:
        people = seat_people(match)
        match.bot_for = [people[p] for p in match.substitutes if p in people]  # type: ignore[attr-defined]
        match.absent_names = [s.entry.name for s in match.sides.all()  # type: ignore[attr-defined]
                              if s.entry_id in match.absent]
    return matches


def seat_people(match: Match) -> dict[int, str]:
    """Seat → the person's name, from the match's (prefetched) sides (R1: side A at
    seats 0+2, side B at 1+3; a pair's player 1 at the lower seat)."""
    out: dict[int, str] = {}
    for side in match.sides.all():
        base = 0 if side.side == "A" else 1
        entry = side.entry
        players = [entry.player1, entry.player2] if entry.player2_id else [entry.player1]
        if len(players) == 2:
            for i, user in enumerate(players):
                if user is not None:
                    out[base + 2 * i] = user.get_username()
        elif players[0] is not None:
            out[base + 2 * side.slot] = players[0].get_username()
    return out


def forbidden_pairs(tournament: Tournament) -> list[tuple[int, int, str, str]]:
    """The pairings a director ruled out, with the entries' names."""
    names = dict(tournament.entries.values_list("pk", "name"))
    return [(a, b, names.get(a, "?"), names.get(b, "?")) for a, b in tournament.forbidden_pairs]


def forbidden_matches(tournament: Tournament, matches: list[Match]) -> set[int]:
    """The matches (of a round not started) that make a forbidden pairing: a swap or a
    manual pairing may; the page flags them."""
    banned = {frozenset(p) for p in tournament.forbidden_pairs}
    out = set()
    for match in matches:
        a = [s.entry_id for s in match.sides.all() if s.side == "A"]
        b = [s.entry_id for s in match.sides.all() if s.side == "B"]
        if any(frozenset((x, y)) in banned for x in a for y in b):
            out.add(match.pk)
    return out


@dataclass
class Banner:
    """Where a person stands in a running event, for the banner on every page.

    ``state``: ``checkin`` (their match waits for them to check in), ``checked_in``
    (they did; the others are arriving), ``playing`` (their match is being played),
    ``waiting`` (no match of theirs now: round ``round_number`` comes next, at
    ``starts_at`` when the server will start it, else when the director does or the
    round before it ends).
    """

    state: str
    tournament: Tournament
    round_number: int
    match: Match | None = None
    starts_at: datetime | None = None


def banner_of(user: User | AnonymousUser | None) -> tuple[Banner | None, bool]:
    """The person's banner (or None) and whether they have an entry in an event that is
    running or about to (the banner's socket opens then). Two indexed queries for
    most people; two more for someone between rounds of a running event."""
    if user is None or not user.is_authenticated:
        return None, False
    match = (Match.objects.filter(status__in=[Match.Status.CHECKIN, Match.Status.PLAYING],
                                  round__tournament__status=Tournament.Status.RUNNING)
             .filter(Q(sides__entry__player1=user) | Q(sides__entry__player2=user))
             .select_related("round__tournament", "table").order_by("-pk").first())
    if match is not None:
        state = ("playing" if match.status == Match.Status.PLAYING
                 else "checked_in" if user.pk in match.checked_in else "checkin")
        return Banner(state, match.round.tournament, match.round.number, match), True
    entry = (Entry.objects.filter(Q(player1=user) | Q(player2=user),
                                  status=Entry.Status.ACTIVE,
                                  tournament__status__in=[Tournament.Status.RUNNING,
                                                          Tournament.Status.CLOSED,
                                                          Tournament.Status.REGISTRATION])
             # "running" sorts after "registration" and "closed": a running event first.
             .select_related("tournament").order_by("-tournament__status").first())
    if entry is None:
        return None, False
    t = entry.tournament
    if t.status != Tournament.Status.RUNNING:
        return None, True
    rounds = {r.number: r for r in t.round_set.exclude(status=Round.Status.FINISHED)}
    if not rounds:
        return None, True
    waiting = min(rounds.values(), key=lambda r: r.number)
    if waiting.status != Round.Status.PAIRED:
        # Their round is being played without them (a bye, a late join): the next one.
        return Banner("waiting", t, waiting.number + 1), True
    starts_at = None
    previous = t.round_set.filter(number=waiting.number - 1).first()
    if not t.paused and previous is not None and previous.finished_at is not None:
        starts_at = previous.finished_at + timedelta(seconds=t.break_seconds)
    return Banner("waiting", t, waiting.number, starts_at=starts_at), True


def tables_in_checkin(table_ids: list[int], now: datetime) -> set[int]:
    """The tables of ``table_ids`` whose match waits for its round's check-in and whose
    deadline has not passed: the empty-table sweep must not close them (a table nobody
    has opened yet is normal then; the deadline settles the no-shows, rounds.py). A
    ``games.policy`` table hold, registered in apps.py."""
    return set(Match.objects.filter(
        table_id__in=table_ids, status=Match.Status.CHECKIN,
        round__status=Round.Status.CHECKIN, round__checkin_deadline__gt=now,
    ).values_list("table_id", flat=True))


def corrected_results(series_ids: list[int]) -> dict[int, str]:
    """The winners ("A", "B", or "" for a tie or a double forfeit) a director corrected
    the matches of these series to: the result the ratings rate (a games.policy
    result-corrections hook, registered in apps.py). Match side A plays seats 0+2, the
    series' team A (R1)."""
    rows = Match.objects.filter(series_id__in=series_ids, corrected=True).values_list(
        "series_id", "outcome")
    return {sid: outcome if outcome in ("A", "B") else "" for sid, outcome in rows}


def table_event(table_id: int) -> dict[str, Any] | None:
    """The tournament match played at ``table_id``, for its table page (a games.policy
    table-event hook, registered in apps.py): the event's name and link, the round, the
    table's number, and the match's format (a fixed number of games, or a target)."""
    match = (Match.objects.filter(table_id=table_id)
             .select_related("round__tournament").order_by("-pk").first())
    if match is None:
        return None
    t = match.round.tournament
    return {"name": t.name, "url": reverse("tournaments:tournament", args=[t.pk]),
            "round": match.round.number, "rounds": t.rounds, "match": match.number,
            "games_limit": t.games_limit, "target": t.target}
