"""Forming tables from the queue: a pure function over waiting entries (no database).

- Solo queue: four people whose ratings (mu) all lie within a spread that every one of
  them accepts; each person's range widens with their wait (conf.py). The longest
  waiting person is served first, with the tightest group of four around them. The
  four are split strongest + weakest against the middle two, so the teams' sums are as
  close as a split can make them.
- Pair queue: two pairs whose mean ratings lie within both pairs' ranges (a pair's range
  is its newer member's); partners sit opposite (R1).
- Only entries with the same turn clock are matched. No entry is used twice.
- Casual quick match (:func:`plan_casual`): no rating at stake, so four people
  are seated as soon as their preferences agree (clock, target: each open or one value),
  longest waiting first; solos and pairs mix (a pair sits opposite, R1). Once the longest
  waiting person of a group has waited their ``bot_wait`` and everyone in it allows
  bots, at least ``min_people`` people (one by default: a lone person too) are seated and
  bots fill the missing seats.
- Blocks (both matchers): two people of whom one blocked the other (``blocked``, pairs
  of user ids from games/policy.py ``blocked_pairs``) never sit at one table. When the
  only way to fill a table would seat them together, they wait (or, casual, get bots
  when they allow them). A pair whose partners blocked each other is not matched.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from games.queue.conf import queue_settings


@dataclass(frozen=True)
class Waiting:
    """What matching needs of a queue entry."""

    user_id: int
    mu: float
    joined_at: datetime
    turn_seconds: int | None  # casual: None is any clock, 0 no clock
    partner_id: int | None = None
    target: int | None = None  # casual: None is any target
    allow_bots: bool = False
    bot_wait: float = 30.0


@dataclass(frozen=True)
class Match:
    """Four people by seat position 0–3 (0+2 against 1+3) and their clock."""

    positions: tuple[int, int, int, int]
    turn_seconds: int


Blocked = Collection[frozenset[int]]


def _apart(a: Sequence[Waiting], b: Sequence[Waiting], blocked: Blocked) -> bool:
    """True when someone in ``a`` and someone in ``b`` may not share a table."""
    return bool(blocked) and any(frozenset((x.user_id, y.user_id)) in blocked
                                 for x in a for y in b)


@dataclass(frozen=True)
class _Unit:
    members: tuple[Waiting, ...]
    mu: float
    joined_at: datetime
    tolerance: float


def _units(entries: Sequence[Waiting], now: datetime,
           blocked: Blocked = ()) -> tuple[list[_Unit], list[_Unit]]:
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
        if _apart((e,), (mate,), blocked):
            continue  # one blocked the other after they paired: never at one table
        seen |= {e.user_id, mate.user_id}
        newest = max(e.joined_at, mate.joined_at)
        pairs.append(_Unit((e, mate), (e.mu + mate.mu) / 2, min(e.joined_at, mate.joined_at),
                           queue_settings.tolerance((now - newest).total_seconds())))
    return solos, pairs


def _window(near: list[_Unit], start: int, anchor: _Unit, blocked: Blocked) -> list[_Unit]:
    """Four units from ``near[start:]`` (by mu) with the anchor, skipping anyone who
    may not sit with those already taken; shorter when there are not four."""
    window = [anchor]
    for unit in near[start:]:
        if len(window) == 4:
            break
        if unit is anchor or _apart(unit.members, [m for u in window for m in u.members],
                                    blocked):
            continue
        window.append(unit)
    return sorted(window, key=lambda u: u.mu)


def _match_solos(units: list[_Unit], coin: Callable[[], bool],
                 blocked: Blocked = ()) -> list[Match]:
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
        # Without blocks the tightest four around the anchor are consecutive by mu; with
        # them, each window skips whoever may not sit with those already in it.
        starts = range(len(near)) if blocked else range(0, max(0, len(near) - 3))
        for start in starts:
            window = (_window(near, start, anchor, blocked) if blocked
                      else near[start:start + 4])
            if len(window) < 4 or not any(u is anchor for u in window):
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


def _match_pairs(units: list[_Unit], coin: Callable[[], bool],
                 blocked: Blocked = ()) -> list[Match]:
    matches: list[Match] = []
    used: set[int] = set()
    for anchor in sorted(units, key=lambda u: (u.joined_at, u.members[0].user_id)):
        if id(anchor) in used:
            continue
        clock = anchor.members[0].turn_seconds
        candidates = [u for u in units if u is not anchor and id(u) not in used
                      and u.members[0].turn_seconds == clock
                      and abs(u.mu - anchor.mu) <= min(anchor.tolerance, u.tolerance)
                      and not _apart(u.members, anchor.members, blocked)]
        if not candidates:
            continue
        other = min(candidates, key=lambda u: (abs(u.mu - anchor.mu), u.joined_at))
        used |= {id(anchor), id(other)}
        a, b = (anchor, other) if coin() else (other, anchor)
        matches.append(Match((a.members[0].user_id, b.members[0].user_id,
                              a.members[1].user_id, b.members[1].user_id), clock))
    return matches


def plan_matches(entries: Sequence[Waiting], now: datetime,
                 coin: Callable[[], bool] | None = None,
                 blocked: Blocked = ()) -> list[Match]:
    """The tables to form now from ``entries`` (each person in at most one), never
    seating together two people whose ids form a pair in ``blocked``."""
    flip = coin or (lambda: secrets.randbelow(2) == 0)
    solos, pairs = _units(entries, now, blocked)
    return _match_solos(solos, flip, blocked) + _match_pairs(pairs, flip, blocked)


# --- Casual quick match -----------------------------------------------------------------

_CONFLICT = object()


@dataclass(frozen=True)
class CasualMatch:
    """People by seat position 0–3 (0+2 against 1+3), ``None`` where a bot sits; the
    agreed clock (None: no clock), target, and the people's mean mu (for the bots)."""

    positions: tuple[int | None, int | None, int | None, int | None]
    turn_seconds: int | None
    target: int
    mu: float

    @property
    def people(self) -> list[int]:
        return [p for p in self.positions if p is not None]


def _agree(current: object, wish: object) -> object:
    """Two open-or-fixed preferences combined: the fixed one, or a conflict."""
    if current is None:
        return wish
    if wish is None or wish == current:
        return current
    return _CONFLICT


def _casual_units(entries: Sequence[Waiting], blocked: Blocked) -> list[tuple[Waiting, ...]]:
    by_user = {e.user_id: e for e in entries}
    units: list[tuple[Waiting, ...]] = []
    seen: set[int] = set()
    for e in sorted(entries, key=lambda e: (e.joined_at, e.user_id)):
        if e.user_id in seen:
            continue
        if e.partner_id is None:
            seen.add(e.user_id)
            units.append((e,))
            continue
        mate = by_user.get(e.partner_id)
        if mate is None or mate.partner_id != e.user_id:
            continue  # half a pair (the other left a moment ago): not matchable
        if _apart((e,), (mate,), blocked):
            continue  # one blocked the other after they paired: never at one table
        seen |= {e.user_id, mate.user_id}
        units.append((e, mate))
    return units


def _gather(anchor: tuple[Waiting, ...], units: list[tuple[Waiting, ...]],
            used: set[int], bots_only: bool,
            blocked: Blocked) -> tuple[list[tuple[Waiting, ...]], object, object]:
    """The anchor and the earliest units that fit four seats, agree with the group and
    may sit with everyone in it (no block between them)."""
    group = [anchor]
    clock: object = None
    target: object = None
    for member in anchor:
        clock, target = _agree(clock, member.turn_seconds), _agree(target, member.target)
    seats = len(anchor)
    for unit in units:
        if seats == 4:
            break
        if unit is anchor or id(unit) in used or seats + len(unit) > 4:
            continue
        if bots_only and not all(m.allow_bots for m in unit):
            continue
        if _apart(unit, [m for u in group for m in u], blocked):
            continue
        c, t = clock, target
        for member in unit:
            c, t = _agree(c, member.turn_seconds), _agree(t, member.target)
        if c is _CONFLICT or t is _CONFLICT:
            continue
        group.append(unit)
        clock, target = c, t
        seats += len(unit)
    return group, clock, target


def _seat(group: list[tuple[Waiting, ...]]) -> list[int | None]:
    """Positions for a group: a pair opposite (R1); four solos strongest + weakest
    against the middle two (as ranked); three solos: the strongest partners the bot;
    two solos partner each other against two bots."""
    pairs = [u for u in group if len(u) == 2]
    solos = sorted((u[0] for u in group if len(u) == 1), key=lambda w: (-w.mu, w.user_id))
    seats: list[int | None] = [None, None, None, None]
    if pairs:
        seats[0], seats[2] = pairs[0][0].user_id, pairs[0][1].user_id
        if len(pairs) == 2:
            seats[1], seats[3] = pairs[1][0].user_id, pairs[1][1].user_id
        for position, solo in zip((1, 3), solos, strict=False):
            seats[position] = solo.user_id
    elif len(solos) == 4:
        strong, second, third, weak = solos
        seats = [strong.user_id, second.user_id, weak.user_id, third.user_id]
    elif len(solos) == 3:
        seats = [solos[0].user_id, solos[1].user_id, None, solos[2].user_id]
    else:
        seats = [solos[0].user_id, None, solos[1].user_id if len(solos) > 1 else None, None]
    return seats


def plan_casual(entries: Sequence[Waiting], now: datetime, *, default_clock: int | None,
                default_target: int, min_people: int = 1,
                coin: Callable[[], bool] | None = None,
                blocked: Blocked = ()) -> list[CasualMatch]:
    """The casual tables to form now from ``entries`` (each person in at most one).

    Full tables first (for every person, longest waiting first), then, among those
    left, tables completed by bots. Two people whose ids form a pair in ``blocked``
    are never at one table: one of them waits (or gets bots) instead.
    """
    flip = coin or (lambda: secrets.randbelow(2) == 0)
    units = _casual_units(entries, blocked)
    used: set[int] = set()
    groups: list[tuple[list[tuple[Waiting, ...]], object, object]] = []
    for anchor in units:
        if id(anchor) in used:
            continue
        group, clock, target = _gather(anchor, units, used, bots_only=False, blocked=blocked)
        if sum(len(u) for u in group) == 4:
            used |= {id(u) for u in group}
            groups.append((group, clock, target))
    for anchor in units:
        if id(anchor) in used or not all(m.allow_bots for m in anchor):
            continue
        waited = (now - min(m.joined_at for m in anchor)).total_seconds()
        if waited < max(m.bot_wait for m in anchor):
            continue
        group, clock, target = _gather(anchor, units, used, bots_only=True, blocked=blocked)
        if sum(len(u) for u in group) >= min_people:
            used |= {id(u) for u in group}
            groups.append((group, clock, target))
    matches = []
    for group, clock, target in groups:
        seats = _seat(group)
        if not flip():  # which team sits at 0 + 2; a turn by one seat keeps partners opposite
            seats = seats[1:] + seats[:1]
        people = [m for u in group for m in u]
        agreed_clock = default_clock if clock is None else (int(clock) or None)  # type: ignore[call-overload]
        matches.append(CasualMatch(
            (seats[0], seats[1], seats[2], seats[3]), agreed_clock,
            default_target if target is None else int(target),  # type: ignore[call-overload]
            sum(m.mu for m in people) / len(people)))
    return matches


def bot_level_near(strength: float, ladder: dict[str, int]) -> str:
    """The level on ``ladder`` (level -> comparable rating) closest to ``strength``."""
    return min(ladder, key=lambda level: (abs(ladder[level] - strength), -ladder[level]))
