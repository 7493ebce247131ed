"""Scoring a game and a series (R4, R15–R18).

>>> score({"A": 90, "B": 30}, {"A": 4, "B": 1})
({'A': 0, 'B': 4}, False, 'A')
>>> s = new_series(target=12, first_dealer=2)
>>> s.first_leader, s.next_dealer
(3, 2)
>>> s = record_game(s, {"A": 70, "B": 50}, {"A": 4, "B": 3}, last_taker=1)
>>> s.loss_points, s.next_leader, s.next_dealer
({'A': 0, 'B': 2}, 1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import EngineError

__all__ = ["GameOutcome", "GameSummary", "Series", "new_series", "record_game", "score"]

SERIES_FORMAT = "kozel-series/1"


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The result of a finished game (R14, R16, R17).

    ``termination`` is ``"completed"`` (R14: stock and hands played out).
    """

    points: dict[str, int]
    tricks: dict[str, int]
    loss_points: dict[str, int]
    eggs: bool
    winner: str | None
    last_taker: int
    termination: str = "completed"

    def to_dict(self) -> dict[str, Any]:
        """JSON form with every field."""
        return {
            "points": dict(self.points),
            "tricks": dict(self.tricks),
            "loss_points": dict(self.loss_points),
            "eggs": self.eggs,
            "winner": self.winner,
            "last_taker": self.last_taker,
            "termination": self.termination,
        }


def _team_ints(value: Any, what: str) -> dict[str, int]:
    if not isinstance(value, Mapping) or set(value) != {"A", "B"}:
        raise EngineError(f"{what} must be an object with keys 'A' and 'B'")
    out = {}
    for team in ("A", "B"):
        v = value[team]
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise EngineError(f"{what}[{team!r}] must be a non-negative integer, got {v!r}")
        out[team] = v
    return out


def score(
    points: Mapping[str, int], tricks: Mapping[str, int]
) -> tuple[dict[str, int], bool, str | None]:
    """R16/R17: ``(loss_points, eggs, winner)`` from the teams' card points and tricks.

    61+ wins; the loser gets 2 (31–59 points), 4 (0–30 points and at least one
    trick) or 6 (no trick at all); 60–60 is eggs: nobody gets loss points.

    Raises :class:`EngineError` unless the points are non-negative and sum to 120 (R3).

    >>> score({"A": 60, "B": 60}, {"A": 2, "B": 5})
    ({'A': 0, 'B': 0}, True, None)
    >>> score({"A": 120, "B": 0}, {"A": 6, "B": 0})
    ({'A': 0, 'B': 6}, False, 'A')
    """
    pts = _team_ints(points, "points")
    trk = _team_ints(tricks, "tricks")
    if pts["A"] + pts["B"] != 120:
        raise EngineError("R3/R16: the two teams' card points must add up to 120")
    if pts["A"] == pts["B"]:
        return {"A": 0, "B": 0}, True, None  # R17 eggs
    winner = "A" if pts["A"] > pts["B"] else "B"
    loser = "B" if winner == "A" else "A"
    if trk[loser] == 0:
        loss = 6
    elif pts[loser] <= 30:
        loss = 4
    else:
        loss = 2
    return {team: (0 if team == winner else loss) for team in ('A', 'B')}, False, winner


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game as the series sees it (R16, R15)."""

    points: dict[str, int]
    tricks: dict[str, int]
    last_taker: int
    loss_points: dict[str, int]
    eggs: bool
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "points": dict(self.points),
            "tricks": dict(self.tricks),
            "last_taker": self.last_taker,
            "loss_points": dict(self.loss_points),
            "eggs": self.eggs,
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class Series:
    """A series of games with the same four seats (R18).  Immutable: use
    :func:`record_game` to get the series after one more game."""

    target: int
    first_dealer: int
    games: tuple[GameSummary, ...] = ()

    @property
    def first_leader(self) -> int:
        """R4: the first game is led by the seat left of the first dealer."""
        return (self.first_dealer + 1) % 4

    @property
    def score(self) -> dict[str, Any]:
        """The score a game of this series is played at, as
        :func:`~games.engine.observe` takes it (R18, R19: public)."""
        return {"loss_points": self.loss_points, "target": self.target}

    @property
    def loss_points(self) -> dict[str, int]:
        """Loss points added up per team across the games (R18)."""
        total = {"A": 0, "B": 0}
        for g in self.games:
            total["A"] += g.loss_points["A"]
            total["B"] += g.loss_points["B"]
        return total

    @property
    def over(self) -> bool:
        """R18: a team has reached the target (12 by default)."""
        return self.goat is not None

    @property
    def goat(self) -> str | None:
        """R18: the team that reached the target: the goat (kozel), or ``None``."""
        lp = self.loss_points
        for team in ("A", "B"):
            if lp[team] >= self.target:
                return team
        return None

    @property
    def winner(self) -> str | None:
        """R18: the other team once the series is over."""
        goat = self.goat
        return None if goat is None else ("B" if goat == "A" else "A")

    @property
    def eggs(self) -> int:
        """R17: how many games of the series were eggs (60–60)."""
        return sum(1 for g in self.games if g.eggs)

    @property
    def goats_with_eggs(self) -> bool:
        """R17: the series is over and eggs happened in it (a title only)."""
        return self.over and self.eggs > 0

    @property
    def next_leader(self) -> int:
        """R4/R15: the last taker of the previous game leads the next one."""
        return self.games[-1].last_taker if self.games else self.first_leader

    @property
    def next_dealer(self) -> int:
        """R4: the dealer is the seat before the leader."""
        return (self.next_leader - 1) % 4

    def to_dict(self) -> dict[str, Any]:
        """JSON form, with the derived fields for readers."""
        return {
            "format": SERIES_FORMAT,
            "target": self.target,
            "first_dealer": self.first_dealer,
            "first_leader": self.first_leader,
            "games": [g.to_dict() for g in self.games],
            "loss_points": self.loss_points,
            "over": self.over,
            "goat": self.goat,
            "winner": self.winner,
            "eggs": self.eggs,
            "goats_with_eggs": self.goats_with_eggs,
            "next_leader": self.next_leader,
            "next_dealer": self.next_dealer,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Series:
        """Inverse of :meth:`to_dict` (games are re-scored).

        Raises :class:`EngineError` for malformed data.
        """
        if not isinstance(data, Mapping):
            raise EngineError("a series must be an object")
        series = new_series(data.get("target", 12), data.get("first_dealer"))  # type: ignore[arg-type]
        for g in data.get("games", []):
            if not isinstance(g, Mapping):
                raise EngineError("each game must be an object")
            series = record_game(series, g.get("points"), g.get("tricks"), g.get("last_taker"))  # type: ignore[arg-type]
        return series


def new_series(target: int = 12, first_dealer: int = 0) -> Series:
    """R18: a new series to ``target`` loss points; R4: the first dealer is
    drawn at random by the caller (the service), so it is an argument.

    Raises :class:`EngineError` for a bad target or seat.
    """
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise EngineError(f"R18: the target must be a positive integer, got {target!r}")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
        0 <= first_dealer <= 3
    ):
        raise EngineError(f"R1: first_dealer must be a seat 0-3, got {first_dealer!r}")
    return Series(target=target, first_dealer=first_dealer)


def record_game(
    series: Series,
    points: Mapping[str, int] | GameOutcome,
    tricks: Mapping[str, int] | None = None,
    last_taker: int | None = None,
) -> Series:
    """R15–R18: the series after one more finished game.

    Pass the game's ``points``, ``tricks`` and ``last_taker``, or a
    :class:`~games.engine.GameOutcome` alone.  Raises :class:`EngineError` if the
    series is already over or the game data is malformed.
    """
    if not isinstance(points, Mapping):
        tricks, last_taker, points = points.tricks, points.last_taker, points.points
    if series.over:
        raise EngineError("R18: the series is over")
    if tricks is None:
        raise EngineError("record_game needs the tricks of each team")
    if isinstance(last_taker, bool) or not isinstance(last_taker, int) or not (
        0 <= last_taker <= 3
    ):
        raise EngineError(f"R15: last_taker must be a seat 0-3, got {last_taker!r}")
    loss, eggs, winner = score(points, tricks)
    summary = GameSummary(
        points=_team_ints(points, "points"),
        tricks=_team_ints(tricks, "tricks"),
        last_taker=last_taker,
        loss_points=loss,
        eggs=eggs,
        winner=winner,
    )
    return Series(series.target, series.first_dealer, series.games + (summary,))
