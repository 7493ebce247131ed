"""Every bot level: legal, view-only, deterministic, and sane off turn (R11, R19)."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace

import pytest

from games.bots import POLICIES
from games.bots.registry import get_policy
from games.bots.search import CLUB, decide
from games.engine import (
    Discard,
    Lead,
    Molodka,
    SeatView,
    apply,
    fast,
    legal_actions,
    new_game,
    observe,
)

from .helpers import position, random_states

LEVELS = ["beginner", "casual", "club", "strong"]


def test_the_ladder_weakest_first() -> None:
    assert list(POLICIES) == LEVELS


@pytest.mark.parametrize("level", LEVELS)
def test_policy_signature_takes_a_view_and_an_rng(level: str) -> None:
    params = list(inspect.signature(POLICIES[level]).parameters)
    assert len(params) == 2  # (view, rng): a bot never gets a GameState (R19)


def _play(state_seed: int, policies: dict[int, str], rng_seed: int) -> int:
    """Play one game like the service does; returns the number of decisions.
    Asserts every returned action is legal and off-turn answers are molodkas."""
    rng = random.Random(rng_seed)
    state = new_game(state_seed, dealer=state_seed % 4)
    decisions = 0
    while state.turn is not None:
        moved = False
        for seat in fast.molodka_seats(state.core):
            if seat == state.turn:
                continue
            view = observe(state, seat)
            assert view.can_molodka
            choice = get_policy(policies[seat])(view, random.Random(rng.random()))
            decisions += 1
            assert choice is None or isinstance(choice, Molodka)
            if choice is not None:
                assert choice in legal_actions(state, seat)
                state = apply(state, seat, choice)
                moved = True
                break
        if moved:
            continue
        seat = state.turn
        choice = get_policy(policies[seat])(observe(state, seat), random.Random(rng.random()))
        decisions += 1
        assert choice is not None and choice in legal_actions(state, seat)
        state = apply(state, seat, choice)
    return decisions


@pytest.mark.parametrize("level,games", [("beginner", 40), ("casual", 40), ("club", 2),
                                         ("strong", 1)])
def test_whole_games_only_legal_actions(level: str, games: int) -> None:
    for g in range(games):
        table = {0: level, 1: "random", 2: level, 3: "casual" if g % 2 else "beginner"}
        assert _play(g, table, g) > 0


@pytest.mark.parametrize("level", ["beginner", "casual"])
def test_random_positions_every_seat(level: str) -> None:
    policy = POLICIES[level]
    for i, state in enumerate(random_states(15, seed=7)):
        for seat in range(4):
            view = observe(state, seat)
            choice = policy(view, random.Random(i))
            if seat != state.turn:
                assert choice is None or (isinstance(choice, Molodka) and choice in view.legal)
            else:
                assert choice in view.legal


def test_search_on_random_positions_with_a_small_budget() -> None:
    cfg = replace(CLUB, worlds=2, max_candidates=3)
    for i, state in enumerate(random_states(3, seed=9, every=3)):
        seat = state.turn
        assert seat is not None
        choice = decide(observe(state, seat), random.Random(i), cfg)
        assert choice in legal_actions(state, seat)


def _molodka_state() -> tuple[object, int]:
    # Seat 2 holds four diamonds; seat 0 leads, so seat 2 may announce out of turn.
    state = position(
        ["6C 7H 8C 9C", "6H 7C 8H 9H", "6D 7D 8D 9D", "JC QC KC TC"], trump="AS", leader=0
    )
    return state, 2


@pytest.mark.parametrize("level", LEVELS)
def test_r11_off_turn_answer_is_molodka_or_silence(level: str) -> None:
    state, seat = _molodka_state()
    for step in range(2):
        view = observe(state, seat)  # type: ignore[arg-type]
        assert view.can_molodka and view.turn != seat
        for s in range(6):
            choice = POLICIES[level](view, random.Random(s))
            assert choice is None or choice == Molodka(["6D", "7D", "8D", "9D"])
        if step == 0:
            state = apply(state, 0, Lead(["6C"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
def test_off_turn_without_molodka_stays_silent(level: str) -> None:
    state = new_game(3, dealer=0)
    for seat in range(4):
        if seat != state.turn:
            view = observe(state, seat)
            if not view.legal:
                assert POLICIES[level](view, random.Random(0)) is None


@pytest.mark.parametrize("level", ["casual"])
def test_r11_casual_announces_its_molodka_on_turn(level: str) -> None:
    # (The searching bots may prefer to keep four trumps: they value it by search.)
    state = position(
        ["6C 7C 8C 9C", "6H 7H 8H 9H", "6S 7S 8S AS", "JC QC KC TC"], trump="TS", leader=1
    )
    state = apply(state, 1, Lead(["9H"]))
    view = observe(state, 2)
    assert POLICIES[level](view, random.Random(0)) == Molodka(["6S", "7S", "8S", "AS"])


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_given_the_rng_seed(level: str) -> None:
    states = list(random_states(2, seed=21, every=7))[:6]
    for i, state in enumerate(states):
        seat = state.turn
        view = observe(state, seat)
        first = POLICIES[level](view, random.Random(100 + i))
        again = POLICIES[level](view, random.Random(100 + i))
        assert first == again


@pytest.mark.parametrize("level", LEVELS)
def test_r19_hidden_information_does_not_change_the_choice(level: str) -> None:
    """Two states that differ only in what seat 0 cannot see (seat 1's hand vs
    the stock, the stock order) give equal views, hence the same action."""
    hands = ["6C TC 8D AS", "7C 9D JH QS", "8C JD QH KS", "9C QD KH TS"]
    a = position(hands, trump="6S", leader=0)
    stock = [c.code for c in a.stock]
    swapped = list(hands)
    swapped[1] = "7C 9D JH " + stock[0]
    b_stock = ["QS", *reversed(stock[1:])]
    # Keep the trump card's identity (R6); only places seat 0 cannot see change.
    b = position(swapped, trump="6S", leader=0, stock=b_stock)
    for state_a, state_b in ((a, b),):
        for step in range(3):
            va, vb = observe(state_a, 0), observe(state_b, 0)
            assert va.to_dict() == vb.to_dict()
            if va.turn == 0:
                assert POLICIES[level](va, random.Random(5)) == POLICIES[level](vb,
                                                                               random.Random(5))
            if step == 0:
                state_a = apply(state_a, 0, Lead(["6C"]))
                state_b = apply(state_b, 0, Lead(["6C"]))
            elif step == 1:
                state_a = apply(state_a, 1, Discard(["7C"]))
                state_b = apply(state_b, 1, Discard(["7C"]))
                # A face-down discard of a different card would look the same:
                break
        # On turn after the lead and a discard, seat 2 and 3 play; view of seat 0 equal.
        va, vb = observe(state_a, 0), observe(state_b, 0)
        assert va.to_dict() == vb.to_dict()


def test_time_cap_mechanism_with_a_tiny_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny cap stops the playouts after the first world. Counted, not timed: a CPU
    time bound failed on a host with CPU steal (0.53 s > 0.5 s in CI)."""
    from games.bots import search

    played: list[int] = []
    world_values = search._world_values

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        played.append(1)
        return world_values(*args, **kwargs)

    monkeypatch.setattr(search, "_world_values", counted)
    state = new_game(11, dealer=0)
    view = observe(state, state.turn)
    capped = decide(view, random.Random(0), replace(CLUB, worlds=500, time_cap=1e-6))
    assert capped in view.legal
    assert len(played) == 1  # 500 worlds were due: the cap stopped after the first
    played.clear()
    decide(view, random.Random(0), replace(CLUB, worlds=20, time_cap=60.0))
    assert len(played) > 1  # without the cap the same decision plays on


def _view_of(state: object, seat: int) -> SeatView:
    return observe(state, seat)  # type: ignore[arg-type]
