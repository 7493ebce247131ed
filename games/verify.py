"""Checks that stored games are what their seeds and moves say (``verify_games``).

A game can always be rebuilt from its seed, algorithm, dealer, first leader and its
Move rows (R5). This module rebuilds each selected game that way and compares
the replay with what the site stored and reads: the cached ``Game.state``, the
``GameResult`` of a finished game, the Move numbering, the series score (R16-R18),
and whether a live game waits on somebody who can act. It only reads.

Each problem is an :class:`Anomaly`, printed as one line (``game 12: move seq 3
missing``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Prefetch, Q, QuerySet, Sum
from django.utils import timezone

from games import engine
from games.engine import fast
from games.models import Game, GameResult, Move, Series, Termination

#: Field names of the engine's fast core, for readable differences.
CORE_FIELDS = {
    fast.HANDS: "hands", fast.STOCK: "stock", fast.TRUMP: "trump", fast.TRUMP_CARD: "trump card",
    fast.DEALER: "dealer", fast.LEADER: "leader", fast.ORIGINAL_LEADER: "original leader",
    fast.TURN: "turn", fast.K: "k", fast.TOP: "top set", fast.TOP_SEAT: "top seat",
    fast.TABLE: "table", fast.MOLODKA_DISTANCE: "molodka distance", fast.PILES: "piles",
    fast.TRICKS: "tricks", fast.TRICKS_COMPLETED: "tricks completed",
    fast.LAST_TAKER: "last taker", fast.PLAYED: "played", fast.HOLDERS: "molodka holders",
}
DEFAULT_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Anomaly:
    """One problem found: ``subject`` is ``"game 12"`` or ``"series 3"``."""

    subject: str
    message: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.message}"


@dataclass
class Report:
    """What a run looked at and what it found."""

    games: int = 0
    series: int = 0
    anomalies: list[Anomaly] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.anomalies

    def summary(self) -> str:
        return (f"verified {self.games} games in {self.series} series: "
                f"{len(self.anomalies)} anomalies")


# --- who holds a seat ----------------------------------------------------------------


def seat_holder(series: Series, position: int) -> str | None:
    """Who plays ``position`` of ``series`` now: ``"bot"``, ``"person"`` or ``None``.

    The one place this module reads the roster (the SeriesSeat rows, the site's one
    roster; prefetch ``roster`` when checking many games).
    """
    for seat in series.roster.all():
        if seat.position == position:
            if seat.bot_level:
                return "bot"
            if seat.user_id is not None:
                return "person"
            return None
    return None


# --- selecting games -----------------------------------------------------------------


def select_games(game_id: int | None = None, since: datetime | None = None,
                 everything: bool = False, now: datetime | None = None) -> QuerySet[Game]:
    """The games to check: one game, the games started since ``since``, all of them,
    or by default the live games plus those started or finished in the last 24 h."""
    games = Game.objects.all()
    if game_id is not None:
        return games.filter(pk=game_id)
    if everything:
        return games
    if since is not None:
        return games.filter(started_at__gte=since)
    cut = (now or timezone.now()) - DEFAULT_WINDOW
    return games.filter(Q(status=Game.Status.PLAYING) | Q(started_at__gte=cut)
                        | Q(finished_at__gte=cut))


def verify(games: QuerySet[Game]) -> Report:
    """Check ``games`` and the series they belong to."""
    report = Report()
    series_ids: set[int] = set()
    query = (games.order_by("pk").select_related("result")
             .prefetch_related(Prefetch("moves", queryset=Move.objects.order_by("seq")))
             .prefetch_related("series__roster").select_related("series"))
    for game in query.iterator(chunk_size=200):
        report.games += 1
        series_ids.add(game.series_id)
        report.anomalies.extend(check_game(game))
    for series in (Series.objects.filter(pk__in=series_ids).order_by("pk")
                   .prefetch_related("roster")):
        report.series += 1
        report.anomalies.extend(check_series(series))
    return report


# --- one game ------------------------------------------------------------------------


def replay_moves(game: Game, moves: Iterable[Move]) -> tuple[engine.GameState | None, str | None]:
    """The game rebuilt from its seed and its moves in seq order (R5), or the reason
    it cannot be (naming the move)."""
    current: list[Move] = []

    def actions() -> Iterator[tuple[int, engine.Action]]:
        for move in moves:
            current[:] = [move]
            yield move.seat, engine.action_from_dict({"kind": move.kind, "cards": move.cards})

    try:
        return engine.replay(game.seed, game.dealer, game.first_leader, actions(),
                             game.algorithm), None
    except engine.EngineError as exc:
        if not current:
            return None, f"cannot deal from the seed: {exc}"
        move = current[0]
        return None, (f"move seq {move.seq} (seat {move.seat} {move.kind} "
                      f"{' '.join(map(str, move.cards))}) does not replay: {exc}")
    except (ValueError, TypeError) as exc:
        return None, f"move seq {current[0].seq} is not an action: {exc}"


def check_game(game: Game) -> list[Anomaly]:
    """Every check of one game (its moves, cache, result and whether it can go on)."""
    out: list[Anomaly] = []

    def note(message: str) -> None:
        out.append(Anomaly(f"game {game.pk}", message))

    moves = list(game.moves.all())
    out.extend(Anomaly(f"game {game.pk}", m) for m in check_move_numbers(game, moves))
    replayed, reason = replay_moves(game, moves)
    if reason is not None:
        note(reason)
    cached: engine.GameState | None = None
    try:
        cached = engine.GameState.from_dict(game.state)
    except engine.EngineError as exc:
        note(f"cached state refused: {exc}")
    if replayed is not None:
        if cached is not None and cached != replayed:
            note(f"cached state differs from the replay of its moves "
                 f"({', '.join(state_differences(cached, replayed))})")
        if game.trump_card != replayed.trump_card.code:
            note(f"trump card {game.trump_card} stored, the deal shows "
                 f"{replayed.trump_card.code} (R6)")
        for message in check_result(game, replayed):
            note(message)
    if game.status == Game.Status.PLAYING:
        state = cached or replayed
        for message in check_live(game, state):
            note(message)
    return out


def check_move_numbers(game: Game, moves: list[Move]) -> list[str]:
    """Move seq numbers are 1..version, each once, and version counts the moves."""
    out = []
    seqs = [m.seq for m in moves]
    present = set(seqs)
    missing = [s for s in range(1, game.version + 1) if s not in present]
    out += [f"move seq {s} missing" for s in missing]
    out += [f"move seq {s} beyond version {game.version}" for s in seqs if s > game.version]
    if len(moves) != game.version:
        out.append(f"version {game.version} but {len(moves)} moves stored")
    return out


def state_differences(cached: engine.GameState, replayed: engine.GameState) -> list[str]:
    """Names of the parts where two states differ."""
    out = [name for i, name in CORE_FIELDS.items() if cached.core[i] != replayed.core[i]]
    for name in ("start", "seed", "algorithm", "actions", "history", "last_trick"):
        if getattr(cached, name) != getattr(replayed, name):
            out.append(name.replace("_", " "))
    return out


def check_result(game: Game, replayed: engine.GameState) -> list[str]:
    """A finished game is played out and its GameResult is its outcome (R14-R17)."""
    outcome = engine.outcome(replayed)
    result: GameResult | None = getattr(game, "result", None)
    if game.status == Game.Status.PLAYING:
        out = []
        if outcome is not None:
            out.append("played out (R14) but still playing")
        if result is not None:
            out.append("has a result but is still playing")
        return out
    if game.status == Game.Status.VOIDED and game.termination != Termination.COMPLETED:
        return []  # stopped mid-play when its series was voided: no result to check
    if game.status not in (Game.Status.FINISHED, Game.Status.VOIDED):
        return []
    # A finished game, or one played out before a moderator voided its series: the same
    # checks (its result must still be its outcome).
    if outcome is None:
        return [f"{game.status} but its moves do not play it out (R14)"]
    if result is None:
        return [f"{game.status} without a result"]
    expected: dict[str, Any] = {
        "points_a": outcome.points["A"], "points_b": outcome.points["B"],
        "tricks_a": outcome.tricks["A"], "tricks_b": outcome.tricks["B"],
        "loss_points_a": outcome.loss_points["A"], "loss_points_b": outcome.loss_points["B"],
        "eggs": outcome.eggs, "winner": outcome.winner or "", "last_taker": outcome.last_taker,
    }
    return [f"result {name} is {getattr(result, name)!r}, the replay gives {value!r}"
            for name, value in expected.items() if getattr(result, name) != value]


def check_live(game: Game, state: engine.GameState | None) -> list[str]:
    """A live game belongs to a series being played and waits on somebody who can act:
    a person or a bot of the roster at a seat to act, or a clock that will play."""
    series = game.series
    if series.status != Series.Status.PLAYING:
        return [f"still playing in series {series.pk}, which is {series.status}"]
    if state is None or game.paused or game.turn_deadline is not None:
        return []
    seats = engine.seats_to_act(state)
    if not seats or any(seat_holder(series, seat) for seat in seats):
        return []
    listed = ", ".join(str(s) for s in seats)
    return [f"waits on nobody: seat {listed} to act, held by no person or bot, no clock"]


# --- one series ----------------------------------------------------------------------

# Series a tournament decided by fewer loss points before anyone reached the target.
DECIDED_EARLY = (Termination.ROUND_TIME, Termination.GAME_LIMIT)


def check_series(series: Series) -> list[Anomaly]:
    """The series score is the sum of its finished games (R16, R18); a finished series
    has a goat at or over the target (or, decided early by a tournament, the team with
    more loss points, none when equal); one game at most is live."""
    out: list[str] = []
    # A voided series keeps its score: its played-out games (now voided) still add up.
    totals = GameResult.objects.filter(
        game__series=series,
        game__status__in=[Game.Status.FINISHED, Game.Status.VOIDED]).aggregate(
        a=Sum("loss_points_a"), b=Sum("loss_points_b"))
    for team, stored, total in (("A", series.loss_points_a, totals["a"] or 0),
                                ("B", series.loss_points_b, totals["b"] or 0)):
        if stored != total:
            out.append(f"loss points {team} {stored}, its finished games add up to {total}")
    points = {"A": series.loss_points_a, "B": series.loss_points_b}
    if series.status == Series.Status.FINISHED and series.termination in DECIDED_EARLY:
        # A tournament's time limit or fixed number of games: fewer loss points wins,
        # equal is a tie (no goat); nobody need have reached the target.
        more = ("" if points["A"] == points["B"]
                else "A" if points["A"] > points["B"] else "B")
        if series.goat != more:
            out.append(f"ended by {series.termination} with goat {series.goat or 'none'}, "
                       f"but the loss points {points['A']}-{points['B']} make it "
                       f"{more or 'a tie'}")
    elif series.status == Series.Status.FINISHED:
        if series.goat not in points:
            out.append("finished without a goat (R18)")
        elif points[series.goat] < series.target:
            out.append(f"goat {series.goat} has {points[series.goat]} loss points, "
                       f"under the target {series.target} (R18)")
    elif series.status == Series.Status.PLAYING and max(points.values()) >= series.target:
        out.append(f"a team reached the target {series.target} but the series is still "
                   "playing (R18)")
    live = series.games.filter(status=Game.Status.PLAYING).count()
    if live > 1:
        out.append(f"{live} games being played at once")
    return [Anomaly(f"series {series.pk}", m) for m in out]
