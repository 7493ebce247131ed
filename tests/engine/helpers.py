"""Scripted deals for engine tests (OpenSpiel's ``deal_hands``)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Action, GameState, apply, game_from_position, legal_actions
from games.engine.actions import ACTION_TYPES
from games.engine.cards import DECK, parse_cards
from games.engine.position import Position


def deal_hands(
    hands: Sequence[Sequence[str]],
    *,
    trump: str = "6S",
    leader: int = 0,
    dealer: int | None = None,
    stock: Sequence[str] | None = None,
    tricks: tuple[int, int] | None = None,
) -> GameState:
    """A game at a trick boundary with exactly these hands.

    Unplaced cards fill the stock (when hands hold 4 and ``stock`` is not
    given) or else go to team A's pile (with one trick for A by default).
    """
    hand_cards = tuple(parse_cards(h) for h in hands)
    used = {c for h in hand_cards for c in h}
    stock_cards = parse_cards(stock) if stock is not None else None
    rest = [c for c in DECK if c not in used and (stock_cards is None or c not in stock_cards)]
    if stock_cards is None:
        if all(len(h) == 4 for h in hand_cards) and len(rest) == 20:
            stock_cards, rest = tuple(rest), []
        else:
            stock_cards = ()
    pile_a = tuple(rest)
    if tricks is None:
        tricks = (1 if pile_a else 0, 0)
    position = Position(
        dealer=(leader - 1) % 4 if dealer is None else dealer,
        leader=leader,
        trump_card=parse_cards([trump])[0],
        hands=(hand_cards[0], hand_cards[1], hand_cards[2], hand_cards[3]),
        stock=stock_cards,
        piles=(pile_a, ()),
        tricks=tricks,
    )
    return game_from_position(position)


def act(kind: str, *cards: str) -> Action:
    """``act("beat", "9H")``."""
    return ACTION_TYPES[kind](list(cards))


def play(state: GameState, *moves: tuple[int, str, str]) -> GameState:
    """Apply moves given as ``(seat, kind, "9H 6S")``."""
    for seat, kind, cards in moves:
        state = apply(state, seat, act(kind, *cards.split()))
    return state


def sets(state: GameState, seat: int, kind: str) -> set[frozenset[str]]:
    """The legal card sets of one kind for one seat, as code sets."""
    return {
        frozenset(c.code for c in a.cards) for a in legal_actions(state, seat) if a.kind == kind
    }


def molodka_seats(state: GameState) -> list[int]:
    return [s for s in range(4) if any(a.kind == "molodka" for a in legal_actions(state, s))]
