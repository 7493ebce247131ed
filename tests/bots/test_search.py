"""The searching bots' parts: candidates, the exact endgame, world weights."""

from __future__ import annotations

import random

from games.bots.knowledge import read_view
from games.bots.playout import playout, utility
from games.bots.search import STRONG, _Exact, _moves, candidates
from games.engine import Lead, apply, fast, observe

from .helpers import position


def _minimax(core: tuple, team: int) -> float:
    """Plain minimax over the same moves (no pruning, no table)."""
    if core[fast.TURN] is None:
        return utility(core, team)
    turn = core[fast.TURN]
    values = [_minimax(fast.step(core, turn, a), team) for a in _moves(core)]
    return max(values) if turn & 1 == team else min(values)


def test_exact_endgame_agrees_with_plain_minimax() -> None:
    # Stock empty, three cards each (R14 after these tricks).
    state = position(
        ["6C TC AS", "7C KD 9S", "8C AD JS", "9C QD TS"], trump="6S", leader=0, stock=[]
    )
    core = state.core
    for team in (0, 1):
        exact = _Exact(team, budget=1_000_000)
        assert abs(exact.value(core, -1e9, 1e9) - _minimax(core, team)) < 1e-9


def test_playout_reaches_the_end_and_scores_both_teams_oppositely() -> None:
    state = position(["6C TC AS 7H", "7C KD 9S 8H", "8C AD JS 9H", "9C QD TS JH"], trump="6S")
    a = playout(state.core, random.Random(1), team=0)
    b = playout(state.core, random.Random(1), team=1)
    assert a == -b


def test_candidates_merge_equivalent_cards() -> None:
    # 6C/7C/8C are interchangeable for seat 1 (same points, nothing live between).
    state = position(["9H TC AS 7H", "6C 7C 8C KD", "8H AD JS 9D", "9C QD TS JH"], trump="6S")
    state = apply(state, 0, Lead(["9H"]))
    view = observe(state, 1)
    kn = read_view(view)
    cands = candidates(view, kn, 20)
    discards = [a for a in cands if a.kind == "discard"]
    assert len(discards) == 2  # one low club, and the king
    assert len(cands) <= len(view.legal)


def test_strong_config_searches_the_endgame_exactly() -> None:
    assert STRONG.endgame >= 3 and STRONG.weighted
