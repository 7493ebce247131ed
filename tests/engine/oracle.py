"""A deliberately plain, slow reading of R7–R14, used only as a test oracle.

Written from the rules (the site's /rules/ page), not from the engine: cards are
code strings (``"TH"`` is the 10 of hearts), hands are sets, legal card sets are found
by trying every combination and every pairing.  Nothing here imports engine code, so
a mistake in the engine's bitmasks, caches or inlined fast paths cannot hide behind a
copy of itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, permutations

#: R2: ranks from low to high. "T" is the 10, which ranks above the King.
RANKS = "6789JQKTA"

CardSet = frozenset[str]
#: ``(kind, cards)`` with kind one of "lead", "beat", "discard", "molodka".
Play = tuple[str, CardSet]


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def team(seat: int) -> str:
    """R1: seats 0 and 2 are team A, seats 1 and 3 team B."""
    return "A" if seat in (0, 2) else "B"


def beats(x: str, y: str, trump: str) -> bool:
    """R7: x beats y when (a) same suit and x ranks higher, or (b) x is trump and y is not."""
    if suit(x) == suit(y):
        return rank(x) > rank(y)
    return suit(x) == trump


def beats_set(cards: CardSet, top: CardSet, trump: str) -> bool:
    """R9: can ``cards`` be paired one-to-one with ``top`` so that each card beats its
    partner?  Tries every pairing."""
    if len(cards) != len(top):
        return False
    tops = sorted(top)
    return any(
        all(beats(x, y, trump) for x, y in zip(order, tops, strict=True))
        for order in permutations(sorted(cards))
    )


def is_molodka_hand(hand: set[str]) -> bool:
    """R11: exactly 4 cards, all of one suit."""
    return len(hand) == 4 and len({suit(c) for c in hand}) == 1


@dataclass
class PlainGame:
    """One game from a trick boundary, played by the book (R8–R14)."""

    hands: list[set[str]]
    stock: list[str]  # top first
    trump: str  # the trump suit letter (R6)
    leader: int
    original_leader: int = -1
    k: int = 0  # cards per player in this trick, 0 before the lead (R8)
    played: dict[int, Play] = field(default_factory=dict)  # the current trick, per seat
    top: CardSet = frozenset()  # the current top set (R9)
    last_beater: int | None = None
    molodka_distance: int | None = None  # of the molodka on the table (R11), if any
    piles: dict[str, set[str]] = field(default_factory=lambda: {"A": set(), "B": set()})
    tricks: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    last_taker: int | None = None
    last_draws: list[tuple[int, str]] = field(default_factory=list)  # (seat, card), in order

    def __post_init__(self) -> None:
        if self.original_leader < 0:
            self.original_leader = self.leader

    # --- who may do what ------------------------------------------------------------

    @property
    def over(self) -> bool:
        """R14: the stock is empty and every hand is played out."""
        return not self.stock and not any(self.hands)

    @property
    def turn(self) -> int | None:
        """The seat whose normal play is awaited: the leader, then clockwise from him."""
        if self.over:
            return None
        return (self.leader + len(self.played)) % 4

    def distance(self, seat: int) -> int:
        """R11: the distance of a seat from the trick's original leader."""
        return (seat - self.original_leader) % 4

    def may_announce_molodka(self, seat: int) -> bool:
        """R11: a 4-card one-suit hand, not yet played to this (possibly restarted) trick,
        not the seat that is about to lead (he simply leads it), and strictly nearer the
        original leader than any molodka already on the table."""
        if self.over or seat in self.played:
            return False
        if not is_molodka_hand(self.hands[seat]):
            return False
        if self.k == 0 and seat == self.turn:
            return False
        return self.molodka_distance is None or self.distance(seat) < self.molodka_distance

    def legal(self, seat: int) -> set[Play]:
        """Every legal play of ``seat`` now (R8, R9, R11)."""
        out: set[Play] = set()
        if self.over:
            return out
        hand = sorted(self.hands[seat])
        if seat == self.turn:
            if self.k == 0:
                # R8: 1 to 4 cards (at most the hand), all of one suit.
                for n in range(1, min(4, len(hand)) + 1):
                    for combo in combinations(hand, n):
                        if len({suit(c) for c in combo}) == 1:
                            out.add(("lead", frozenset(combo)))
            else:
                # R9: any k cards face down, or k cards that beat the top set.
                for combo in combinations(hand, self.k):
                    cards = frozenset(combo)
                    out.add(("discard", cards))
                    if beats_set(cards, self.top, self.trump):
                        out.add(("beat", cards))
        if self.may_announce_molodka(seat):
            out.add(("molodka", frozenset(self.hands[seat])))
        return out

    def seats_to_act(self) -> list[int]:
        return [s for s in range(4) if self.legal(s)]

    # --- playing ----------------------------------------------------------------------

    def play(self, seat: int, kind: str, cards: CardSet) -> int | None:
        """Play one legal action; returns the trick's taker when it completes the trick."""
        assert (kind, cards) in self.legal(seat), f"oracle: {kind} {sorted(cards)} by {seat}"
        self.last_draws = []
        if kind == "molodka":
            # R11: every card played to the trick goes back to its owner; the trick
            # starts again with this seat leading its 4 cards.
            for owner, (_, back) in self.played.items():
                self.hands[owner] |= back
            self.hands[seat] -= cards
            self.played = {seat: (kind, cards)}
            self.leader = seat
            self.k = 4
            self.top = cards
            self.last_beater = None
            self.molodka_distance = self.distance(seat)
            return None
        self.hands[seat] -= cards
        self.played[seat] = (kind, cards)
        if kind == "lead":
            self.k = len(cards)
            self.top = cards
            if len(cards) == 4:
                # R11: a lead of 4 cards of one suit is a molodka on the table.
                self.molodka_distance = self.distance(seat)
        elif kind == "beat":
            self.top = cards
            self.last_beater = seat
        if len(self.played) < 4:
            return None
        return self._take()

    def _take(self) -> int:
        # R10: the last beater takes; if nobody beat, the leader (the molodka seat after a
        # restart). All 4k cards go to the taker's team's pile.
        taker = self.last_beater if self.last_beater is not None else self.leader
        for _, cards in self.played.values():
            self.piles[team(taker)] |= cards
        self.tricks[team(taker)] += 1
        self.last_taker = taker
        # R12: draw from the top of the stock one card at a time, clockwise, starting
        # with the taker, until everyone holds 4 or the stock is empty.
        seat = taker
        while self.stock and any(len(h) < 4 for h in self.hands):
            if len(self.hands[seat]) < 4:
                card = self.stock.pop(0)
                self.hands[seat].add(card)
                self.last_draws.append((seat, card))
            seat = (seat + 1) % 4
        # R13: the taker leads the next trick.
        self.leader = self.original_leader = taker
        self.k = 0
        self.played = {}
        self.top = frozenset()
        self.last_beater = None
        self.molodka_distance = None
        return taker
