"""Pure: a season's table from its events' final places.

Scoring (also on the season page): in every finished event of the season, each person
of a placed entry scores by the entry's place: 1st 10, 2nd 8, 3rd 6, 4th 5, 5th 4,
6th 3, 7th 2, 8th and below 1 (having played counts). Both players of a pair score the
pair's points. Entries without a place (bots, withdrawn or disqualified entries) score
nothing. The table orders by points, then by events won, then by best places (more
seconds, more thirds …), then by events played, then by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

PLACE_POINTS = (10, 8, 6, 5, 4, 3, 2)
PLAYED_POINTS = 1


def points_for(place: int) -> int:
    """The season points of a place (1-based)."""
    if place < 1:
        raise ValueError("a place starts at 1")
    return PLACE_POINTS[place - 1] if place <= len(PLACE_POINTS) else PLAYED_POINTS


@dataclass(frozen=True)
class Placing:
    """One person's final place in one event."""

    person: int
    name: str
    event: int
    place: int


@dataclass
class SeasonRow:
    person: int
    name: str
    points: int = 0
    events: int = 0
    places: list[int] = field(default_factory=list)
    rank: int = 0

    @property
    def wins(self) -> int:
        return self.places.count(1)


def table(placings: Iterable[Placing]) -> list[SeasonRow]:
    """The season table; equal rows (points, places, events) share a rank."""
    rows: dict[int, SeasonRow] = {}
    seen: dict[int, set[int]] = defaultdict(set)
    for p in placings:
        row = rows.setdefault(p.person, SeasonRow(p.person, p.name))
        if p.event in seen[p.person]:
            continue  # one place per person and event
        seen[p.person].add(p.event)
        row.points += points_for(p.place)
        row.events += 1
        row.places.append(p.place)

    def merit(row: SeasonRow) -> tuple[object, ...]:
        best = sorted(row.places)
        counts = tuple(-best.count(place) for place in range(1, len(PLACE_POINTS) + 1))
        return (-row.points, counts, -row.events)

    ordered = sorted(rows.values(), key=lambda r: (merit(r), r.name.casefold(), r.person))
    for i, row in enumerate(ordered):
        row.rank = (ordered[i - 1].rank if i and merit(ordered[i - 1]) == merit(row)
                    else i + 1)
        row.places.sort()
    return ordered
