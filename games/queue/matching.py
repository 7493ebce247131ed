"""Forming tables from the queue: a pure function over waiting entries (no database).

- Solo queue: four people whose ratings (mu) all lie within a spread that every one of
  them accepts; each person's range widens with their wait (conf.py). The longest
  waiting person is served first, with the tightest group of four around them. The
  four are split strongest + weakest against the middle two, so the teams' sums are as
  close as a split can make them.
- Pair queue: two pairs whose mean ratings lie within both pairs' ranges (a pair's range
  is its newer member's); partners sit opposite (R1).
- Only entries with the same turn clock are matched. No entry is used twice.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from games.queue.conf import queue_settings


@dataclass(frozen=True)
class Waiting:
    """What matching needs of a queue entry."""

    user_id: int
    mu: float
    joined_at: datetime
    turn_seconds: int
    partner_id: int | None = None


@dataclass(frozen=True)
class Match:
    """Four people by seat position 0–3 (0+2 against 1+3) and their clock."""

    positions: tuple[int, int, int, int]
    turn_seconds: int


@dataclass(frozen=True)
class _Unit:
    members: tuple[Waiting, ...]
    mu: float
    joined_at: datetime
    tolerance: float


def _units(entries: Sequence[Waiting], now: datetime) -> tuple[list[_Unit], list[_Unit]]:
    by_user = {e.user_id: e for e in entries}
    solos: list[_Unit] = []
    pairs: list[_Unit] = []
    seen: set[int] = set()
    for e in entries:
        if e.user_id in seen:
            continue
        if e.partner_id is None:
            seen.add(e.user_id)
            solos.append(_Unit((e,), e.mu, e.joined_at,
                               queue_settings.tolerance((now - e.joined_at).total_seconds())))
            continue
        mate = by_user.get(e.partner_id)
        if mate is None or mate.partner_id != e.user_id or mate.turn_seconds != e.turn_seconds:
            continue  # half a pair (the other left a moment ago): not matchable
        seen |= {e.user_id, mate.user_id}
        newest = max(e.joined_at, mate.joined_at)
        pairs.append(_Unit((e, mate), (e.mu + mate.mu) / 2, min(e.joined_at, mate.joined_at),
                           queue_settings.tolerance((now - newest).total_seconds())))
    return solos, pairs


def _match_solos(units: list[_Unit], coin: Callable[[], bool]) -> list[Match]:
    matches: list[Match] = []
    used: set[int] = set()
    for anchor in sorted(units, key=lambda u: (u.joined_at, u.members[0].user_id)):
        if id(anchor) in used:
            continue
        near = sorted((u for u in units if id(u) not in used
                       and u.members[0].turn_seconds == anchor.members[0].turn_seconds
                       and abs(u.mu - anchor.mu) <= anchor.tolerance),
                      key=lambda u: u.mu)
        best: list[_Unit] | None = None
        for start in range(0, max(0, len(near) - 3)):
            window = near[start:start + 4]
            if not any(u is anchor for u in window):
                continue
            spread = window[-1].mu - window[0].mu
            if spread > min(u.tolerance for u in window):
                continue
            if best is None or spread < best[-1].mu - best[0].mu:
                best = window
        if best is None:
            continue
        used |= {id(u) for u in best}
        strong, second, third, weak = sorted(best, key=lambda u: -u.mu)
        team_x = (strong.members[0].user_id, weak.members[0].user_id)
        team_y = (second.members[0].user_id, third.members[0].user_id)
        a, b = (team_x, team_y) if coin() else (team_y, team_x)
        matches.append(Match((a[0], b[0], a[1], b[1]), anchor.members[0].turn_seconds))
    return matches


def _match_pairs(units: list[_Unit], coin: Callable[[], bool]) -> list[Match]:
    matches: list[Match] = []
    used: set[int] = set()
    for anchor in sorted(units, key=lambda u: (u.joined_at, u.members[0].user_id)):
        if id(anchor) in used:
            continue
        clock = anchor.members[0].turn_seconds
        candidates = [u for u in units if u is not anchor and id(u) not in used
                      and u.members[0].turn_seconds == clock
                      and abs(u.mu - anchor.mu) <= min(anchor.tolerance, u.tolerance)]
        if not candidates:
            continue
        other = min(candidates, key=lambda u: (abs(u.mu - anchor.mu), u.joined_at))
        used |= {id(anchor), id(other)}
        a, b = (anchor, other) if coin() else (other, anchor)
        matches.append(Match((a.members[0].user_id, b.members[0].user_id,
                              a.members[1].user_id, b.members[1].user_id), clock))
    return matches


def plan_matches(entries: Sequence[Waiting], now: datetime,
                 coin: Callable[[], bool] | None = None) -> list[Match]:
    """The tables to form now from ``entries`` (each person in at most one)."""
    flip = coin or (lambda: secrets.randbelow(2) == 0)
    solos, pairs = _units(entries, now)
    return _match_solos(solos, flip) + _match_pairs(pairs, flip)
