"""What one seat knows, distilled from its :class:`~games.engine.SeatView` (R19).

Bots never see a :class:`~games.engine.GameState` (``games/bots/`` sees only
observations).  :func:`read_view` walks the public history once and
keeps, as card bitmasks, everything a seat may legitimately use:

* its hand, the trump card and suit (R6);
* every card seen face up in a completed trick, and which team took it (R10);
* its own face-down discards (R19: a player may review his own);
* face-up cards a molodka restart sent back to a hand (R11: they are known to
  be in that hand until played again);
* how many cards each seat discarded face down, per trick and taker;
* how many cards each seat drew (R12);
* "tells": a seat that discarded against an opponent's card that it might
  have beaten (used by the strong bot to weight its samples).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import SeatView
from games.engine.cards import Card
from games.engine.fast import NO_MOLODKA

from .heuristics import mask_points

__all__ = ["HiddenDiscard", "Knowledge", "Tell", "mask_of_codes", "read_view"]

FULL: int = (1 << 36) - 1


def mask_of_codes(codes: list[str]) -> int:
    """Bitmask of a list of card codes (``["TD", "6C"]``)."""
    m = 0
    for code in codes:
        m |= Card(code).mask
    return m


@dataclass(frozen=True, slots=True)
class HiddenDiscard:
    """Another seat's face-down discard in a completed trick: ``count`` unknown
    cards now in ``team``'s pile (0 = A, 1 = B)."""

    seat: int
    count: int
    team: int
    after_draw: bool  # the seat had drawn from the stock before (R6: may be the trump card)


@dataclass(frozen=True, slots=True)
class Tell:
    """Seat ``seat`` discarded against ``top`` (an opponent's single card) with
    ``points`` visible on the table, while it had drawn ``drawn`` cards so far."""

    seat: int
    top: int
    points: int
    drawn: int


@dataclass(slots=True)
class Knowledge:
    """The seat's knowledge as bitmasks (see the module docstring)."""

    seat: int
    hand: int
    trump: int
    trump_card: int
    gone: int = 0  # face-up cards of completed tricks plus own discards: out of play
    piles: list[int] = field(default_factory=lambda: [0, 0])  # known cards per team pile
    known_hands: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    hidden: list[HiddenDiscard] = field(default_factory=list)
    draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    tells: list[Tell] = field(default_factory=list)
    last_taker: int = -1
    # The current trick as the seat sees it.
    table_up: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # face-up masks
    table_kind: list[str | None] = field(default_factory=lambda: [None, None, None, None])
    table_down: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # discard counts
    own_table_discard: int = 0
    silent_holders_possible: bool = False

    @property
    def on_table(self) -> int:
        """Every face-up card on the table now (plus the seat's own discard)."""
        m = self.own_table_discard
        for x in self.table_up:
            m |= x
        return m

    @property
    def unseen(self) -> int:
        """Cards whose place this seat does not know: other hands, others'
        discards, the stock.  Known returned cards are *not* unseen."""
        known = self.hand | self.gone | self.on_table
        for m in self.known_hands:
            known |= m
        return FULL & ~known

    @property
    def live(self) -> int:
        """Cards other seats might still play: unseen plus known-in-hand."""
        m = self.unseen
        for s in range(4):
            if s != self.seat:
                m |= self.known_hands[s]
        return m


def _table_points(entries: dict[int, tuple[str, int]]) -> int:
    return sum(mask_points(m) for kind, m in entries.values() if kind in ("lead", "beat"))


def read_view(view: SeatView) -> Knowledge:
    """Distil ``view`` into a :class:`Knowledge` (one pass over the history).

    Raises ``ValueError`` for a spectator view (``seat is None``).
    """
    if view.seat is None:
        raise ValueError("bots play a seat: a spectator view has no hand")
    me = view.seat
    trump_card = Card(view.trump_card)
    kn = Knowledge(
        seat=me,
        hand=mask_of_codes(view.hand),
        trump=int(trump_card.suit),
        trump_card=trump_card.index,
    )
    # Current-trick buffer: seat -> (kind, mask or count) as events arrive.
    buf: dict[int, tuple[str, int]] = {}
    top_seat = -1
    for ev in view.history:
        name = ev["event"]
        if name == "play":
            s = ev["seat"]
            kind = ev["kind"]
            if kind == "discard":
                if s == me:
                    buf[s] = ("discard", mask_of_codes(ev["cards"]))
                else:
                    buf[s] = ("hidden", int(ev["count"]))
                    # Cards a restart showed in this hand may be in this discard now:
                    # from here on they are merely unseen (sound, if less sharp).
                    kn.known_hands[s] = 0
                    top_mask = buf[top_seat][1] if top_seat >= 0 else 0
                    if (top_seat - s) & 1 and top_mask and top_mask & (top_mask - 1) == 0:
                        # Discarding against an opponent's single card: maybe it could not beat.
                        kn.tells.append(Tell(s, top_mask, _table_points(buf), kn.draws[s]))
            else:
                cards = mask_of_codes(ev["cards"])
                buf[s] = (kind, cards)
                top_seat = s
                kn.known_hands[s] &= ~cards
        elif name == "molodka":
            # R11: every card on the table goes back to its owner's hand; the
            # face-up ones are now known to be there.
            for seat_key, codes in ev["returned"].items():
                kn.known_hands[int(seat_key)] |= mask_of_codes(codes)
            s = ev["seat"]
            cards = mask_of_codes(ev["cards"])
            kn.known_hands[s] &= ~cards
            buf = {s: ("lead", cards)}
            top_seat = s
        elif name == "trick":
            taker = ev["taker"]
            team = taker & 1
            for s, (kind, val) in buf.items():
                if kind == "hidden":
                    kn.hidden.append(HiddenDiscard(s, val, team, kn.draws[s] > 0))
                else:
                    kn.gone |= val
                    kn.piles[team] |= val
            kn.last_taker = taker
            buf = {}
            top_seat = -1
        elif name == "draw":
            for s, n in enumerate(ev["counts"]):
                kn.draws[s] += n
    # The current trick, from the authoritative table of the view.
    for s, entry in enumerate(view.table):
        if entry is None:
            continue
        _read_entry(kn, s, entry, me)
    kn.silent_holders_possible = _any_played(view.table)
    return kn


def _read_entry(kn: Knowledge, s: int, entry: dict[str, Any], me: int) -> None:
    kind = entry["kind"]
    if kind == "discard":
        if s == me:
            kn.own_table_discard = mask_of_codes(entry["cards"])
        kn.table_down[s] = int(entry["count"])
        kn.table_kind[s] = "discard"
    else:
        kn.table_up[s] = mask_of_codes(entry["cards"])
        kn.table_kind[s] = kind


def _any_played(table: list[dict[str, Any] | None]) -> bool:
    return any(e is not None for e in table)


def molodka_distance_of(view: SeatView) -> int:
    """R11: the distance of the molodka on the table (4 when there is none)."""
    if view.leader != view.original_leader:
        return (view.leader - view.original_leader) & 3
    if view.k == 4:
        return 0  # a lead of four cards of one suit is a molodka on the table
    return NO_MOLODKA
