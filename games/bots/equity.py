"""Series equity: how much a game's loss points are worth at a given score (R18).

A series is won by the team that does not reach the target first, so the
same game result is worth different amounts at different scores: two loss
points are nothing to a team at 0 of 12 and everything to a team at 10.
:func:`win_chance` is the chance to win the series from a score, under a
simple model of one game between equal teams (:data:`LOSER_GETS`,
:data:`EGGS`); :func:`loss_values` turns it into the value of each possible
game result, scaled so that, in the middle of a series, it is close to the
plain loss-point margin the playouts otherwise use.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

__all__ = ["EGGS", "LOSER_GETS", "loss_values", "win_chance"]

#: Loss points of the team that loses a game and how often (R16), measured in
#: bot-against-bot series: 31-59 points, 0-30 points, no trick.
LOSER_GETS: Final = ((2, 0.72), (4, 0.25), (6, 0.03))
#: How often a game is 60-60 eggs (R17: nobody scores).
EGGS: Final = 0.01


@lru_cache(maxsize=4096)
def win_chance(own: int, other: int, target: int) -> float:
    """The chance that the team with ``own`` loss points wins the series
    against ``other`` (the first to reach ``target`` is the goat, R18).

    >>> win_chance(0, 0, 12)
    0.5
    >>> win_chance(10, 0, 12) < 0.1 < 0.9 < win_chance(0, 10, 12)
    True
    """
    if own >= target:
        return 0.0
    if other >= target:
        return 1.0
    half = (1.0 - EGGS) / 2.0
    total = 0.0
    for loss, p in LOSER_GETS:
        we_lose = win_chance(own + loss, other, target)
        they_lose = win_chance(own, other + loss, target)
        total += half * p * (we_lose + they_lose)
    return round(total / (1.0 - EGGS), 12)


def loss_values(own: int, other: int, target: int) -> tuple[float, ...]:
    """Value for the searching team of each game result, indexed by the loss
    margin ``m + 6`` (``m`` = the other team's loss points minus ours, R16:
    -6 … 6).  The chance-of-winning gain is scaled so that the swing between
    winning and losing a 2-point game is 4, as in the plain margin."""
    base = win_chance(own, other, target)
    swing = win_chance(own, other + 2, target) - win_chance(own + 2, other, target)
    scale = 4.0 / max(0.05, swing)
    out = []
    for m in range(-6, 7):
        if m > 0:
            after = win_chance(own, other + m, target)
        elif m < 0:
            after = win_chance(own - m, other, target)
        else:
            after = base
        out.append(scale * (after - base))
    return tuple(out)
