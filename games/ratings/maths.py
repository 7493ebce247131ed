"""The rating of one series, as pure functions over OpenSkill (no database).

One PlackettLuce update per finished game, in order: team A is seats 0+2, team B seats
1+3 (R1); the game's winner ranks first and eggs (60–60, R17) are a tie. The updates
are chained through the series and applied together when it ends, so a player sees one
change per series.

The leaver rule, for a series in which a bot took someone's seat:

- the leaver is rated as having lost the series whatever the outcome: if their team
  lost, from the games as played; if it won, from the same games with every result
  mirrored (wins become losses, eggs stay eggs), i.e. the series lost by the same score;
- the leaver's partner neither gains nor loses;
- the opponents are rated normally, from the games as played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import partner_of, team_of  # R1, in one place

TEAM_POSITIONS = {"A": (0, 2), "B": (1, 3)}


def ranks_for(winner: str) -> list[int]:
    """PlackettLuce ranks of [team A, team B]: the winner first, eggs a tie."""
    if winner == "A":
        return [1, 2]
    if winner == "B":
        return [2, 1]
    return [1, 1]


def mirrored(winners: Iterable[str]) -> list[str]:
    """The same games with each result the other way round (eggs stay eggs)."""
    swap = {"A": "B", "B": "A", "": ""}
    return [swap[w] for w in winners]


@dataclass(frozen=True)
class SeatRating:
    mu: float
    sigma: float


@dataclass(frozen=True)
class SeriesRating:
    """The result of rating a series for one seat."""

    position: int
    mu: float
    sigma: float
    kind: str  # "rated", "leaver" or "excused" (RatingChange.Kind)


def play_through(model: Any, start: dict[int, SeatRating],
                 winners: Sequence[str]) -> dict[int, SeatRating]:
    """Chain one PlackettLuce update per game over the four seats."""
    current = {p: model.rating(mu=r.mu, sigma=r.sigma) for p, r in start.items()}
    for winner in winners:
        teams = [[current[0], current[2]], [current[1], current[3]]]
        (a0, a2), (b1, b3) = model.rate(teams, ranks=ranks_for(winner))
        current = {0: a0, 1: b1, 2: a2, 3: b3}
    return {p: SeatRating(r.mu, r.sigma) for p, r in current.items()}


def rate_series(model: Any, start: dict[int, SeatRating], winners: Sequence[str],
                goat: str, leavers: Iterable[int] = ()) -> dict[int, SeriesRating]:
    """New ratings of the four seats after a series.

    ``start`` maps positions 0–3 to ratings at the start (inactivity already applied);
    ``winners`` is each finished game's winner ("A", "B" or "" for eggs) in order;
    ``goat`` is the team that lost the series (R18); ``leavers`` the positions a bot
    took over. Raises ValueError on anything but four seats or unknown team letters.
    """
    if sorted(start) != [0, 1, 2, 3]:
        raise ValueError("a series has four seats, 0 to 3")
    if goat not in ("A", "B") or any(w not in ("A", "B", "") for w in winners):
        raise ValueError("teams are 'A' or 'B' (and '' for eggs)")
    left = set(leavers)
    actual = play_through(model, start, winners)
    as_lost: dict[str, dict[int, SeatRating]] = {}
    out: dict[int, SeriesRating] = {}
    for position in range(4):
        team = team_of(position)
        if position in left:
            if team == goat:
                rating = actual[position]
            else:
                if team not in as_lost:
                    as_lost[team] = play_through(model, start, mirrored(winners))
                rating = as_lost[team][position]
            out[position] = SeriesRating(position, rating.mu, rating.sigma, "leaver")
        elif partner_of(position) in left:
            same = start[position]
            out[position] = SeriesRating(position, same.mu, same.sigma, "excused")
        else:
            rating = actual[position]
            out[position] = SeriesRating(position, rating.mu, rating.sigma, "rated")
    return out
