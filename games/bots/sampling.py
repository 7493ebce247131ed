"""Determinization: full-information worlds consistent with one seat's view.

A *world* is a fast-path core (:mod:`games.engine.fast`) built by the bot
itself from its :class:`~games.bots.knowledge.Knowledge`: its own hand and
every card it has seen stay where they are, and the cards it has not seen are
dealt at random into the places it cannot see — the other hands (beyond the
cards a molodka restart showed, R11), the others' face-down discards (in the
piles of the teams that took them, or on the table now) and the stock order.

R6 constrains one card: the trump card was in the stock after the deal, so
while unseen it is either still in the stock or was drawn later.  It is placed
first, in the stock or with a seat that has drawn, in proportion to how many
of the unseen places could hold a drawn card.

Nothing here reads a :class:`~games.engine.GameState`: the world is the bot's
guess, and :func:`world_core` asserts it reproduces the view's legal actions
in debug tests (see ``tests/bots``).
"""

from __future__ import annotations

import random

from games.engine import SeatView
from games.engine.actions import BEAT, DISCARD, LEAD, Action, action_from_mask
from games.engine.cards import indices_of_mask
from games.engine.fast import Core
from games.engine.rules import MOLODKA_HANDS

from .knowledge import Knowledge, molodka_distance_of

__all__ = ["SampleError", "Slots", "world_core", "slots_of"]


class SampleError(ValueError):
    """The view's counts do not add up (should never happen with engine views)."""


class Slots:
    """The places of unseen cards, computed once per decision.

    ``hand_slots[s]`` unseen cards in seat ``s``'s hand, ``table_slots[s]`` its
    face-down discard on the table now, ``pile_slots`` (team, count, may hold a
    drawn card) for the completed tricks, ``stock`` the stock size.
    """

    __slots__ = (
        "unseen", "hand_slots", "table_slots", "pile_slots", "stock", "trump_weights",
        "seat_places", "stock_places",
    )

    def __init__(self, kn: Knowledge, view: SeatView) -> None:
        me = kn.seat
        self.unseen: list[int] = indices_of_mask(kn.unseen)
        self.hand_slots = [0, 0, 0, 0]
        self.table_slots = [0, 0, 0, 0]
        for s in range(4):
            if s != me:
                self.hand_slots[s] = view.hand_sizes[s] - kn.known_hands[s].bit_count()
                self.table_slots[s] = kn.table_down[s]
        self.pile_slots = [(h.team, h.count, h.after_draw, h.seat) for h in kn.hidden]
        self.stock = view.stock_size
        total = (
            sum(self.hand_slots) + sum(self.table_slots) + sum(c for _, c, _, _ in self.pile_slots)
            + self.stock
        )
        if total != len(self.unseen) or min(self.hand_slots) < 0:
            raise SampleError(f"{total} unseen places for {len(self.unseen)} unseen cards")
        # R6: where the unseen trump card may be, weighted by plausibility.
        self.trump_weights: list[tuple[str, int, float]] = []
        if kn.unseen >> kn.trump_card & 1:
            if self.stock:
                self.trump_weights.append(("stock", -1, float(self.stock)))
            for s in range(4):
                if s == me or not kn.draws[s]:
                    continue
                places = self.hand_slots[s] + self.table_slots[s]
                places += sum(c for _, c, ad, seat in self.pile_slots if ad and seat == s)
                w = float(min(kn.draws[s], places))
                if w > 0:
                    self.trump_weights.append(("seat", s, w))
        # Flat indices of the places (hands, table discards, piles, stock in that
        # order, as world_core fills them) that may hold the trump card.
        self.seat_places: list[list[int]] = [[], [], [], []]
        pos = 0
        for s in range(4):
            self.seat_places[s].extend(range(pos, pos + self.hand_slots[s]))
            pos += self.hand_slots[s]
        for s in range(4):
            self.seat_places[s].extend(range(pos, pos + self.table_slots[s]))
            pos += self.table_slots[s]
        for _, n, after_draw, s in self.pile_slots:
            if after_draw:
                self.seat_places[s].extend(range(pos, pos + n))
            pos += n
        self.stock_places = list(range(pos, pos + self.stock))
        # A hand-built position may break R6's history (a seat holds cards it never
        # drew): then only the places that exist count.
        self.trump_weights = [
            (kind, s, w) for kind, s, w in self.trump_weights
            if (self.stock_places if kind == "stock" else self.seat_places[s])
        ]


def slots_of(kn: Knowledge, view: SeatView) -> Slots:
    """The unseen places of this view (raises :class:`SampleError` if inconsistent)."""
    return Slots(kn, view)


def _pick_weighted(rng: random.Random, options: list[tuple[str, int, float]]) -> tuple[str, int]:
    total = sum(w for _, _, w in options)
    x = rng.random() * total
    for kind, s, w in options:
        x -= w
        if x < 0:
            return kind, s
    return options[-1][0], options[-1][1]


def world_core(kn: Knowledge, view: SeatView, slots: Slots, rng: random.Random) -> Core:
    """One random world consistent with ``view``: a fast-path core mid-trick.

    The core follows the documented tuple layout of :mod:`games.engine.fast`.
    """
    me = kn.seat
    cards = list(slots.unseen)
    if slots.trump_weights:
        cards.remove(kn.trump_card)
        rng.shuffle(cards)
        kind, s = _pick_weighted(rng, slots.trump_weights)
        places = slots.stock_places if kind == "stock" else slots.seat_places[s]
        cards.insert(places[int(rng.random() * len(places))], kn.trump_card)
    else:
        rng.shuffle(cards)
    hands = [kn.known_hands[s] for s in range(4)]
    hands[me] = kn.hand
    table_down = [0, 0, 0, 0]
    pile_extra = [0, 0]
    pos = 0
    for s in range(4):
        for c in cards[pos:pos + slots.hand_slots[s]]:
            hands[s] |= 1 << c
        pos += slots.hand_slots[s]
    for s in range(4):
        for c in cards[pos:pos + slots.table_slots[s]]:
            table_down[s] |= 1 << c
        pos += slots.table_slots[s]
    for team, n, _, _ in slots.pile_slots:
        for c in cards[pos:pos + n]:
            pile_extra[team] |= 1 << c
        pos += n
    stock = cards[pos:]
    table: list[Action | None] = [None, None, None, None]
    for s in range(4):
        seen_kind = kn.table_kind[s]
        if seen_kind is None:
            continue
        if seen_kind == "discard":
            mask = kn.own_table_discard if s == me else table_down[s]
            table[s] = action_from_mask(DISCARD, mask)
        else:
            table[s] = action_from_mask(BEAT if seen_kind == "beat" else LEAD, kn.table_up[s])
    top_seat = -1 if view.top_seat is None else view.top_seat
    top = kn.table_up[top_seat] if top_seat >= 0 else 0
    played = sum(1 for e in table if e is not None)
    holders = 0
    for s in range(4):
        if table[s] is None and hands[s] in MOLODKA_HANDS:
            holders |= 1 << s
    hands_t = (hands[0], hands[1], hands[2], hands[3])
    piles = (kn.piles[0] | pile_extra[0], kn.piles[1] | pile_extra[1])
    return (
        hands_t, tuple(stock), kn.trump, kn.trump_card, view.dealer, view.leader,
        view.original_leader, view.turn, view.k, top, top_seat, tuple(table),
        molodka_distance_of(view), piles, (view.tricks["A"], view.tricks["B"]),
        view.tricks_completed, kn.last_taker, played, holders,
    )  # fmt: skip
