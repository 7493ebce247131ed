"""Perft-style legal-action counts on fixed positions (regression, python-chess style).

Counts are leaf nodes of the full tree of legal actions of every seat (molodka
announcements included), computed once and frozen here.
"""

from __future__ import annotations

import pytest

from games.engine import GameState, apply, fast, legal_actions, new_game, seats_to_act

from .helpers import deal_hands
from .test_molodka import M13


def perft_fast(core: fast.Core, depth: int) -> int:
    if depth == 0 or core[fast.TURN] is None:
        return 1
    return sum(perft_fast(fast.step(core, fast.actor(core, a), a), depth - 1)
               for a in fast.legal(core))


def perft_public(state: GameState, depth: int) -> int:
    if depth == 0 or state.game_over:
        return 1
    return sum(perft_public(apply(state, seat, a), depth - 1)
               for seat in seats_to_act(state) for a in legal_actions(state, seat))


POSITIONS = {
    "seed101": lambda: new_game(101, dealer=1),
    "seed7": lambda: new_game(7, dealer=0),
    "two_molodkas": lambda: deal_hands(M13),
}
EXPECTED = {
    "seed101": [4, 20, 88, 512, 2384],
    "seed7": [8, 46, 268, 1360, 6560],
    "two_molodkas": [10, 57, 348, 1910, 10736],
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_fast(name: str) -> None:
    core = POSITIONS[name]().core
    assert [perft_fast(core, d) for d in range(1, 6)] == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_public_api_agrees(name: str) -> None:
    state = POSITIONS[name]()
    assert [perft_public(state, d) for d in range(1, 4)] == EXPECTED[name][:3]
