"""The stored game state is a cache (R5): ``GameState.from_dict`` restores it
directly, and it must equal, and behave exactly as, the replay of the seed and
the actions; a tampered cache is refused, or restores a state that differs from
the replay (which ``verify_games`` compares)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    GameState,
    IllegalActionError,
    InvalidPositionError,
    apply,
    bench,
    legal_actions,
    new_game,
    observe,
    outcome,
    seats_to_act,
)

from .test_properties import SETTINGS, molodka_rich_game, random_candidates


def walk_states(state: GameState, rng: random.Random, restarts: float) -> list[GameState]:
    """Every state of one random game; a molodka is announced out of turn with
    chance ``restarts`` whenever one may be, so that tricks restart (R11)."""
    states = [state]
    while not state.game_over:
        pairs = [(s, a) for s in seats_to_act(state) for a in legal_actions(state, s)]
        molodkas = [p for p in pairs if p[1].kind == "molodka"]
        seat, action = (rng.choice(molodkas) if molodkas and rng.random() < restarts
                        else rng.choice(pairs))
        state = apply(state, seat, action)
        states.append(state)
    return states


def independent_replay(data: dict[str, Any]) -> GameState:
    """Rebuild from the stored seed (or start) and actions only, action by action."""
    return GameState.replay_stored(data)


def check_cache(state: GameState, rng: random.Random) -> None:
    data = json.loads(json.dumps(state.to_dict()))
    restored = GameState.from_dict(data)
    assert restored == state, "from_dict(to_dict(s)) == s"
    replayed = independent_replay(data)
    assert replayed == restored
    # The restored state behaves exactly as the replayed one.
    assert seats_to_act(restored) == seats_to_act(replayed)
    for seat in range(4):
        listed = legal_actions(restored, seat)
        assert listed == legal_actions(replayed, seat)
        assert observe(restored, seat) == observe(replayed, seat)
        for action in listed:
            after = apply(restored, seat, action)
            assert after == apply(replayed, seat, action)
            assert after.to_dict() == apply(replayed, seat, action).to_dict()
        for action in random_candidates(state, seat, rng, 2):
            outcomes = []
            for twin in (restored, replayed):
                try:
                    outcomes.append(apply(twin, seat, action))
                except IllegalActionError as exc:
                    outcomes.append(str(exc))
            assert outcomes[0] == outcomes[1]
    assert outcome(restored) == outcome(replayed)


@SETTINGS
@given(seed=st.integers(0, 2**63), dealer=st.integers(0, 3), rs=st.integers(0, 2**32))
def test_cache_round_trips_and_behaves_like_the_replay(seed: int, dealer: int, rs: int) -> None:
    rng = random.Random(rs)
    for state in walk_states(new_game(seed, dealer, rng.choice([None, 0, 1, 2, 3])), rng, 0.5):
        check_cache(state, rng)


@SETTINGS
@given(rs=st.integers(0, 2**32))
def test_cache_round_trips_through_molodka_restarts(rs: int) -> None:
    rng = random.Random(rs)
    for state in walk_states(molodka_rich_game(rng), rng, 0.7):
        check_cache(state, rng)


def test_the_cache_walk_meets_molodka_restarts() -> None:
    """The molodka walk above does reach restarts that send cards back (R11)."""
    restarts = 0
    for rs in range(20):
        rng = random.Random(rs)
        states = walk_states(molodka_rich_game(rng), rng, 0.7)
        check_cache(states[len(states) // 2], rng)
        restarts += sum(1 for e in states[-1].history if e[0] == "molodka" and e[3])
    assert restarts >= 5


def _tamperings(data: dict[str, Any], rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Edits of a stored state, each changing what it says."""
    out: list[tuple[str, dict[str, Any]]] = []

    def edit(name: str, change: Any) -> None:
        copy = json.loads(json.dumps(data))
        if change(copy) is not False and copy != data:
            out.append((name, copy))

    core = data["core"]
    full = [s for s in range(4) if core["hands"][s]]

    def swap_hands(d: dict[str, Any]) -> bool:
        if len(full) < 2:
            return False
        a, b = rng.sample(full, 2)
        ha, hb = d["core"]["hands"][a], d["core"]["hands"][b]
        i, j = rng.randrange(len(ha)), rng.randrange(len(hb))
        ha[i], hb[j] = hb[j], ha[i]
        return True

    def hand_to_pile(d: dict[str, Any]) -> bool:
        if not full:
            return False
        hand = d["core"]["hands"][rng.choice(full)]
        d["core"]["piles"][rng.choice("AB")].append(hand.pop())
        return True

    def hand_to_stock(d: dict[str, Any]) -> bool:
        if not full or not d["core"]["stock"]:
            return False
        hand = d["core"]["hands"][rng.choice(full)]
        stock = d["core"]["stock"]
        hand[0], stock[0] = stock[0], hand[0]
        return True

    def pile_swap(d: dict[str, Any]) -> bool:
        piles = d["core"]["piles"]
        if not piles["A"] or not piles["B"]:
            return False
        piles["A"][0], piles["B"][0] = piles["B"][0], piles["A"][0]
        return True

    def shift(key: str) -> Any:
        def change(d: dict[str, Any]) -> None:
            value = d["core"][key]
            d["core"][key] = rng.choice([s for s in (None, 0, 1, 2, 3) if s != value])
        return change

    def table_kind(d: dict[str, Any]) -> bool:
        table = d["core"]["table"]
        seats = [s for s in range(4) if table[s]]
        if not seats:
            return False
        seat = rng.choice(seats)
        kind, _, cards = table[seat].partition(" ")
        table[seat] = f"{'discard' if kind != 'discard' else 'beat'} {cards}"
        return True

    def history(d: dict[str, Any]) -> bool:
        events = d["history"]
        if not events:
            return False
        i = rng.randrange(len(events))
        event = events[i]
        choice = rng.randrange(3)
        if choice == 0:
            del events[i]
        elif choice == 1 and event[0] != "draw":
            event[1] = (event[1] + 1) % 4
        elif event[0] == "draw":
            event[1][rng.randrange(4)] ^= 1
        else:
            events.insert(i, list(event))
        return True

    def tricks(d: dict[str, Any]) -> None:
        t = d["core"]["tricks"]
        t["A"], t["B"] = t["B"], t["A"]

    def deal(d: dict[str, Any]) -> bool:
        if "deal" not in d:
            return False
        key = rng.choice(["seed", "dealer", "leader"])
        d["deal"][key] = (d["deal"][key] + 1) % (4 if key != "seed" else 2**63)
        return True

    for name, change in [("swap cards between hands", swap_hands),
                         ("hand card to a pile", hand_to_pile),
                         ("hand card for a stock card", hand_to_stock),
                         ("swap pile cards", pile_swap), ("turn", shift("turn")),
                         ("leader", shift("leader")),
                         ("original leader", shift("original_leader")),
                         ("top seat", shift("top_seat")), ("table entry", table_kind),
                         ("history", history), ("tricks", tricks), ("deal", deal)]:
        edit(name, change)
    return out


@SETTINGS
@given(seed=st.integers(0, 2**63), dealer=st.integers(0, 3), rs=st.integers(0, 2**32),
       molodkas=st.booleans())
def test_tampered_cache_is_refused_or_detected(seed: int, dealer: int, rs: int,
                                               molodkas: bool) -> None:
    """Every edit of a stored state is refused by ``from_dict``, or restores a state
    that differs from the replay of the true moves (what ``verify_games`` compares)."""
    rng = random.Random(rs)
    first = molodka_rich_game(rng) if molodkas else new_game(seed, dealer)
    states = walk_states(first, rng, 0.5)
    for state in rng.sample(states, 6):
        data = json.loads(json.dumps(state.to_dict()))
        for name, tampered in _tamperings(data, rng):
            try:
                restored = GameState.from_dict(tampered)
            except InvalidPositionError:
                continue
            assert restored != state, f"undetected tampering: {name}"


def test_bench_times_the_cache() -> None:
    late = bench.late_states(3)
    assert all(len(s.actions) > 0 and not s.game_over for s in late)
    figures = bench.bench_cache(late, seconds=0.01)
    assert set(figures) == {"cache_restore_us", "cache_restore_warm_us", "replay_us",
                            "cache_store_us"}
    assert all(v > 0 for v in figures.values())
