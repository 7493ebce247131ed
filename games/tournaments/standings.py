"""Standings: pure functions over stored results (no Django), recomputed on every read.

Match points: a win 2, a tie 1, a loss 0, a bye 2, a forfeit win 2, a forfeit loss 0
(a double forfeit: 0 for both). In an individual event every player of a side scores
what the side scored.

Order, each step only between entries still tied by the steps before:

1. match points;
2. **Buchholz**: for each completed round, the mean match points of the round's
   opponents (one in a pairs event, two in an individual one);
3. **head-to-head**: match points scored in the matches against the other entries of
   the tied group (a match counts when any of its opponents is in the group), forfeits
   included: a forfeit win scores its 2 points here too;
4. **loss-point difference**: over matches played, the opponents' loss points minus
   one's own (loss points are bad, R16, so higher is better);
5. **Sonneborn–Berger**: over matches played, the opponents' mean match points times
   1 for a win, 1/2 for a tie, 0 for a loss;
6. **wins**: matches won at the table (not byes, not forfeits);
7. **lot**: a hash of the event's seed and the entry id (stable, so re-reading the
   standings never reorders a tie).

**Unplayed rounds** (the rule written down): a round in which an entry had no opponent
at the table — a bye, a forfeit either way, a round not paired because the entry
joined late, withdrew or was disqualified — counts for that entry's Buchholz as a
*virtual opponent* who tied every completed round, i.e. ``rounds_completed`` match
points; it adds nothing to the loss-point difference, Sonneborn–Berger or wins. Rounds
a *withdrawn* entry did play stand, and they still count for its opponents. A bye or a
forfeit win still scores 2 match points; the rounds an entry was not paired score 0.

**Absent entries**: an entry none of whose players checked in by a round's deadline
is absent from that round; it loses the match by forfeit (0 points) even when bots
played its seats for the table's sake (``MatchResult.absent``), and its cross-table
cell says ``X``.

Places: bot entries, withdrawn and disqualified entries are listed (labelled) but take
no place, and neither does an entry that **played no round itself** (every match of it
a bye or one it was absent from: it never came to a table, whatever points forfeits
and byes gave it), so the prize places 1, 2, 3 … always go to people still playing who
played; nobody has a place before a round is finished (0 points each is no ranking).
Disqualified entries are listed last. The cross-table numbers every entry by its place;
an entry without a place gets a letter (a, b, …) instead, so a number there is always
the place.

Head-to-head is shown only where it separated a group tied on the steps before it
(``head_to_head_decides``); elsewhere the figure decided nothing and is not shown.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

WIN, TIE, LOSS = 2, 1, 0
# The cross-table's cell of a round an entry was absent from.
ABSENT_MARK = "X"


@dataclass(frozen=True)
class EntryInfo:
    """An entry as standings see it."""

    id: int
    name: str = ""
    is_bot: bool = False
    disqualified: bool = False
    withdrawn: bool = False


@dataclass(frozen=True)
class MatchResult:
    """One finished match of a round.

    ``outcome`` is ``"A"``, ``"B"`` (that side won), ``"tie"``, ``"bye"`` (side A is the
    entry with the bye, side B empty) or ``"none"`` (a double forfeit). ``forfeit`` marks
    a match not played at the table (a no-show): its loss points are not counted.
    """

    round: int
    side_a: tuple[int, ...]
    side_b: tuple[int, ...]
    outcome: str
    loss_a: int = 0
    loss_b: int = 0
    forfeit: bool = False
    # Entries of the match absent from it (nobody of theirs checked in): a forfeit loss
    # for them even if bots played their seats.
    absent: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.outcome not in ("A", "B", "tie", "bye", "none"):
            raise ValueError(f"unknown outcome {self.outcome!r}")
        if self.outcome == "bye" and self.side_b:
            raise ValueError("a bye has no side B")

    @property
    def played(self) -> bool:
        """Played at the table (not a bye, not a forfeit)."""
        return self.outcome != "bye" and not self.forfeit and self.outcome != "none"

    def points(self, side: str) -> int:
        if self.outcome == "bye":
            return WIN if side == "A" else LOSS
        if self.outcome == "none":
            return LOSS
        if self.outcome == "tie":
            return TIE
        return WIN if self.outcome == side else LOSS


@dataclass
class Row:
    """One line of the standings."""

    entry: EntryInfo
    points: int = 0
    buchholz: Fraction = Fraction(0)
    head_to_head: int = 0
    loss_point_diff: int = 0
    sonneborn_berger: Fraction = Fraction(0)
    wins: int = 0
    lot: int = 0
    played: int = 0
    # Rounds it was absent from, and whether it came to a table at least once (an
    # entry that never did takes no place).
    absent: int = 0
    present: bool = False
    rank: int = 0
    place: int | None = None
    by_round: dict[int, str] = field(default_factory=dict)
    # Whether head-to-head separated this entry's tied group (else it is not shown).
    head_to_head_decides: bool = False
    # The cross-table's number: the place, or a letter for an entry without one.
    number: str = ""

    @property
    def key(self) -> tuple[int | Fraction, ...]:
        return (self.points, self.buchholz, self.head_to_head, self.loss_point_diff,
                self.sonneborn_berger, self.wins, self.lot)


def lot(seed: int | str, entry_id: int) -> int:
    """The drawing of lots: a stable hash of the event's seed and the entry."""
    digest = hashlib.blake2b(f"lot:{seed}:{entry_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _sides(result: MatchResult) -> Iterable[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    yield "A", result.side_a, result.side_b
    if result.side_b:
        yield "B", result.side_b, result.side_a


def match_points(entries: Sequence[EntryInfo], results: Iterable[MatchResult]) -> dict[int, int]:
    """Match points per entry (step 1 alone; the pairer's scores)."""
    points = {e.id: 0 for e in entries}
    for result in results:
        for side, own, _other in _sides(result):
            for entry in own:
                points[entry] = points.get(entry, 0) + result.points(side)
    return points


def compute(entries: Sequence[EntryInfo], results: Sequence[MatchResult],
            rounds_completed: int, seed: int | str = 0) -> list[Row]:
    """The standings, best first (see the module docstring for every rule)."""
    rows = {e.id: Row(entry=e, lot=lot(seed, e.id)) for e in entries}
    points = match_points(entries, results)
    for entry_id, row in rows.items():
        row.points = points.get(entry_id, 0)
    met: dict[int, list[tuple[MatchResult, str, tuple[int, ...]]]] = {e: [] for e in rows}
    for result in results:
        for side, own, other in _sides(result):
            for entry in own:
                if entry in rows:
                    met[entry].append((result, side, other))
                    away = entry in result.absent
                    rows[entry].by_round[result.round] = ABSENT_MARK if away else _mark(
                        result, side)
                    rows[entry].absent += away
                    rows[entry].present |= not away and result.outcome != "bye"
    virtual = Fraction(rounds_completed)
    for entry_id, row in rows.items():
        played_rounds = set()
        for result, side, other in met[entry_id]:
            if result.round > rounds_completed:
                continue
            if not result.played:
                continue
            played_rounds.add(result.round)
            opp = Fraction(sum(points.get(o, 0) for o in other), len(other))
            row.buchholz += opp
            own_loss, opp_loss = ((result.loss_a, result.loss_b) if side == "A"
                                  else (result.loss_b, result.loss_a))
            row.loss_point_diff += opp_loss - own_loss
            scored = result.points(side)
            row.sonneborn_berger += opp * Fraction(scored, WIN)
            row.wins += int(scored == WIN)
            row.played += 1
        # Rounds without an opponent at the table: the virtual opponent.
        row.buchholz += virtual * (rounds_completed - len(played_rounds))
    ordered = sorted(rows.values(), key=lambda r: (r.points, r.buchholz), reverse=True)
    # Head-to-head inside each group tied on points and Buchholz.
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and (ordered[end].points, ordered[end].buchholz) == (
                ordered[start].points, ordered[start].buchholz):
            end += 1
        group = {r.entry.id for r in ordered[start:end]}
        if len(group) > 1:
            for row in ordered[start:end]:
                # Every match against the group scores, forfeits included: a forfeit
                # win is match points like any other (step 3 above).
                row.head_to_head = sum(
                    result.points(side) for result, side, other in met[row.entry.id]
                    if group & set(other))
            decides = len({row.head_to_head for row in ordered[start:end]}) > 1
            for row in ordered[start:end]:
                row.head_to_head_decides = decides
        start = end
    ordered.sort(key=lambda r: (r.entry.disqualified, tuple(-_num(k) for k in r.key)))
    place = 0
    unplaced = 0
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
        if (rounds_completed and not row.entry.is_bot and not row.entry.disqualified
                and not row.entry.withdrawn and row.present):
            place += 1
            row.place = place
            row.number = str(place)
        else:
            row.number = _letter(unplaced)
            unplaced += 1
    return ordered


def _letter(index: int) -> str:
    """a, b, … z, aa, ab, …: the cross-table's label of an entry without a place."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("a") + rest) + label
    return label


def _num(value: int | Fraction) -> Fraction:
    return Fraction(value)


def _mark(result: MatchResult, side: str) -> str:
    """A cross-table cell's letter: W/T/L, + / − for forfeits, B for a bye."""
    if result.outcome == "bye":
        return "B"
    if result.outcome == "none":
        return "−"
    scored = result.points(side)
    if result.forfeit:
        return "+" if scored == WIN else "−"
    return {WIN: "W", TIE: "T", LOSS: "L"}[scored]
