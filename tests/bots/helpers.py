"""Shared helpers for the bot tests: hand-built positions and random games."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from games.engine import (
    GameState,
    Position,
    apply,
    game_from_position,
    legal_actions,
    new_game,
    parse_cards,
    seats_to_act,
)

ALL = [r + s for s in "CDHS" for r in "6789JQKTA"]


def position(
    hands: Sequence[str], trump: str, leader: int = 0, stock: Sequence[str] | None = None
) -> GameState:
    """A game at a trick boundary: ``hands`` as space-separated codes; every
    other card goes to the stock (in deck order) unless ``stock`` is given,
    then the rest goes to team A's pile."""
    hs = [h.split() for h in hands]
    used = {c for h in hs for c in h}
    rest = [c for c in ALL if c not in used]
    if stock is None:
        stock_cards, pile = rest, []
    else:
        stock_cards = list(stock)
        pile = [c for c in rest if c not in stock_cards]
    return game_from_position(
        Position(
            dealer=(leader - 1) % 4,
            leader=leader,
            trump_card=parse_cards([trump])[0],
            hands=tuple(parse_cards(h) for h in hs),  # type: ignore[arg-type]
            stock=parse_cards(stock_cards),
            piles=(parse_cards(pile), ()),
            tricks=(1 if pile else 0, 0),
        )
    )


def random_states(games: int, seed: int, every: int = 1) -> Iterator[GameState]:
    """States met in random play (all seats, molodkas included)."""
    rng = random.Random(seed)
    for g in range(games):
        state = new_game(seed * 100 + g, dealer=g % 4)
        n = 0
        while state.turn is not None:
            if n % every == 0:
                yield state
            n += 1
            seat = rng.choice(seats_to_act(state))
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
