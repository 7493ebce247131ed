"""What the director's console shows: every table of the round in play, by name.

For each match: its sides, and per seat the person (or bot) who plays it, whether they
checked in, whether they have the table open now (games/presence.py, advisory: an
expired heartbeat reads as away), whether a bot substitutes for them; the score (loss
points, the game number and, for fixed-length matches, the number of games); the
clock (whose turn, until when). A handful of queries and one Redis round trip for the
whole round, whatever the number of tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from games import engine, presence
from games.models import Game, Series, SeriesSeat
from games.tournaments.models import Entry, Match, Round, Tournament


@dataclass
class ConsoleSeat:
    """One seat of a match as the director sees it."""

    position: int
    team: str
    entry: str
    name: str  # the person's username, or the bot's label
    person_id: int | None
    bot_entry: bool = False  # a bot entry's own seat (not a substitute)
    substitute: bool = False  # a bot plays for an absent person
    checked_in: bool = False
    connected: bool = False
    on_turn: bool = False


@dataclass
class ConsoleTable:
    """One match of the round in play."""

    match: Match
    side_a: str
    side_b: str
    seats: list[ConsoleSeat]
    loss_a: int = 0
    loss_b: int = 0
    game_number: int | None = None
    games_played: int = 0
    turn_deadline: datetime | None = None
    turn_name: str = ""

    @property
    def checked_in_count(self) -> int:
        return sum(1 for s in self.seats if s.person_id is not None and s.checked_in)

    @property
    def people_count(self) -> int:
        return sum(1 for s in self.seats if s.person_id is not None)


@dataclass
class Console:
    """The round in play (or the last one) and its tables; byes listed apart."""

    round: Round | None
    tables: list[ConsoleTable] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)


def current_round(t: Tournament) -> Round | None:
    """The round in play, else the round waiting to start, else the last one."""
    rounds = list(t.round_set.order_by("-number"))
    for status in (Round.Status.PLAYING, Round.Status.CHECKIN, Round.Status.PAIRED):
        found = next((r for r in rounds if r.status == status), None)
        if found is not None:
            return found
    return rounds[0] if rounds else None


def console(t: Tournament) -> Console:
    """Every table of :func:`current_round`, by name (see the module docstring)."""
    round_ = current_round(t)
    if round_ is None:
        return Console(None)
    matches = list(round_.matches.select_related("series", "table")
                   .prefetch_related("sides__entry").order_by("number"))
    people: set[int] = set()
    for m in matches:
        for s in m.sides.all():
            people.update(s.entry.people_ids)
    usernames = dict(get_user_model().objects.filter(pk__in=people)
                     .values_list("pk", "username"))
    series_ids = [m.series_id for m in matches if m.series_id]
    live_games = {g.series_id: g for g in Game.objects.filter(series_id__in=series_ids,
                                                              status=Game.Status.PLAYING)}
    played = dict(Series.objects.filter(pk__in=series_ids).annotate(
        n=Count("games", filter=Q(games__status=Game.Status.FINISHED)))
        .values_list("pk", "n"))
    # A bot taking over in a live series (a takeover, or the console's substitute).
    taken: Counter[tuple[int, int]] = Counter()
    for sid, position in SeriesSeat.objects.filter(
            series_id__in=series_ids, away_user__isnull=False).values_list("series_id",
                                                                            "position"):
        taken[(sid, position)] += 1
    table_ids = [m.table_id for m in matches if m.table_id]
    try:
        online = {tid: {c.user_id for c in conns if c.user_id}
                  for tid, conns in presence.live_counts(table_ids).items()}
    except Exception:  # noqa: BLE001 - presence is advisory: the console still renders
        online = {}
    out = Console(round_)
    for m in matches:
        sides: dict[str, list[str]] = {"A": [], "B": []}
        for s in sorted(m.sides.all(), key=lambda s: (s.side, s.slot)):
            sides[s.side].append(s.entry.name)
        if m.outcome == "bye":
            out.byes.extend(sides["A"])
            continue
        game = live_games.get(m.series_id) if m.series_id else None
        seats = []
        for position, (entry, person) in sorted(_positions(m, t.is_pairs).items()):
            substitute = position in m.substitutes or (
                m.series_id is not None and taken[(m.series_id, position)] > 0)
            seats.append(ConsoleSeat(
                position=position, team=engine.team_of(position), entry=entry.name,
                name=usernames.get(person, "?") if person else entry.name,
                person_id=person, bot_entry=entry.is_bot, substitute=substitute,
                checked_in=person is not None and person in m.checked_in,
                connected=person is not None and person in online.get(m.table_id or 0, set()),
                on_turn=game is not None and game.turn_seat == position))
        table = ConsoleTable(match=m, side_a=" & ".join(sides["A"]),
                             side_b=" & ".join(sides["B"]), seats=seats,
                             loss_a=m.series.loss_points_a if m.series else m.loss_a,
                             loss_b=m.series.loss_points_b if m.series else m.loss_b,
                             games_played=played.get(m.series_id or 0, 0))
        if game is not None:
            table.game_number = game.number
            table.turn_deadline = game.turn_deadline
            turn = next((s for s in seats if s.on_turn), None)
            table.turn_name = turn.name if turn else ""
        out.tables.append(table)
    return out


def _positions(match: Match, pairs: bool) -> dict[int, tuple[Entry, int | None]]:
    """Seat → (entry, person id or None for a bot entry), from the match's sides (R1):
    the same assignment as services/rounds.people_by_position, read from the prefetched
    sides."""
    seats: dict[int, tuple[Entry, int | None]] = {}
    for side in match.sides.all():
        base = 0 if side.side == "A" else 1
        entry = side.entry
        if entry.player2_id and not entry.is_bot:
            seats[base] = (entry, entry.player1_id)
            seats[base + 2] = (entry, entry.player2_id)
        elif entry.is_bot and pairs:
            seats[base] = (entry, None)
            seats[base + 2] = (entry, None)
        else:
            seats[base + 2 * side.slot] = (entry, entry.player1_id)
    return seats
