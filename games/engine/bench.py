"""Benchmark of the rules engine: ``python -m games.engine.bench``.

Prints one figure a line, on one core, in CPU seconds of this process
(``time.process_time``, so other load on a shared machine does not distort
the figures).  The fast path (:mod:`games.engine.fast`, unchecked, no
history) is what the bots' playouts run; the public API is what the server
calls on every move:

* ``fast_random_games_per_s``: deal from a seed (R5), then repeatedly list
  **all** legal actions (every seat, molodka announcements included, like the
  protocol's ``legal``) with :func:`fast.legal` and apply a uniformly random
  one with :func:`fast.step`, until R14;
* ``fast_legal_per_s``: :func:`fast.legal` (all seats) on one state;
* ``fast_step_per_s``: :func:`fast.step`, one action applied unchecked;
* ``public_legal_actions_per_s``: :func:`games.engine.legal_actions` for the
  seat that acts (what a seat's view lists);
* ``public_apply_per_s``: :func:`games.engine.apply`, one action checked
  (the rule-naming legality check) and recorded in the history.

Each per-call figure averages over the same positions met in random games.
First it warms up as a long-running bot process would (:func:`warm_up`:
per-hand memo tables, ``--warmup`` seconds of random games, ``gc.freeze()``).
``--public`` also plays whole random games through the public API
(``public_random_games_per_s``).  ``--cache`` measures what the server does with a
stored state on every move, late in a game (three quarters of its actions
played), in microseconds per call: ``cache_restore_us`` (JSON text to
:class:`GameState` through :meth:`GameState.from_dict`, the deal memo cold),
``cache_restore_warm_us`` (the same, deal memo warm), ``replay_us`` (JSON text
replayed from the seed and the actions, :meth:`GameState.replay_stored`, as the
first stored format was read) and ``cache_store_us`` (``to_dict`` plus JSON
text).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from collections.abc import Callable, Sequence

from . import fast
from .actions import Action
from .game import apply, legal_actions, new_game, seats_to_act
from .rules import warm_caches
from .state import GameState, _dealt_start

__all__ = [
    "bench_cache",
    "bench_fast_legal",
    "bench_fast_step",
    "bench_public_apply",
    "bench_public_games",
    "bench_public_legal",
    "bench_random_games",
    "late_states",
    "main",
    "public_states",
    "sample_states",
    "warm_up",
]


def _games(first_seed: int, seconds: float, rng: random.Random) -> tuple[int, float]:
    deal, legal, step, actor = fast.deal, fast.legal, fast.step, fast.actor
    rand = rng.random
    games = 0
    seed = first_seed
    start = time.process_time()
    deadline = start + seconds
    # The timed loop of random_games_per_s (hot path): fast.random_playout with
    # its lookups hoisted and literal positions (7 = fast.TURN, action code 3 =
    # MOLODKA), so that the figure is the engine's, not the loop's.
    while True:
        for _ in range(50):
            core = deal(seed, seed & 3)
            seed += 1
            while core[7] is not None:
                options = legal(core)
                action = options[int(rand() * len(options))]
                core = step(core, core[7] if action.code != 3 else actor(core, action), action)
            games += 1
        now = time.process_time()
        if now >= deadline:
            return games, now - start


def warm_up(seconds: float = 1.0) -> None:
    """What a long-running bot process does once: fill the per-hand memo tables
    (:func:`games.engine.rules.warm_caches`), play ``seconds`` of random games,
    then ``gc.freeze()`` the tables so the cyclic GC stops rescanning them."""
    warm_caches()
    if seconds > 0:
        _games(10**9, seconds, random.Random(-1))
    gc.collect()
    gc.freeze()


def bench_random_games(seconds: float = 2.0, seed: int = 0) -> float:
    """Random games per second (fast path: :func:`fast.legal` and :func:`fast.step`)."""
    rng = random.Random(seed)
    games, elapsed = _games(seed, seconds, rng)
    return games / elapsed


def sample_states(n: int, seed: int = 1) -> list[tuple[fast.Core, int, Action]]:
    """``n`` states met in random play, each with the random action taken there."""
    rng = random.Random(seed)
    out: list[tuple[fast.Core, int, Action]] = []
    game_seed = seed * 1_000_003
    while len(out) < n:
        core = fast.deal(game_seed, game_seed & 3)
        game_seed += 1
        while core[fast.TURN] is not None and len(out) < n:
            options = fast.legal(core)
            action = options[rng.randrange(len(options))]
            seat = fast.actor(core, action)
            out.append((core, seat, action))
            core = fast.step(core, seat, action)
    return out


def public_states(n: int, seed: int = 1) -> list[tuple[GameState, int, Action]]:
    """The positions of :func:`sample_states` with the same arguments (the same
    games and random choices), reached through :func:`apply`, as
    :class:`GameState` values with the action taken there."""
    rng = random.Random(seed)
    out: list[tuple[GameState, int, Action]] = []
    game_seed = seed * 1_000_003
    while len(out) < n:
        state = new_game(game_seed, game_seed & 3)
        game_seed += 1
        while not state.game_over and len(out) < n:
            options = fast.legal(state.core)
            action = options[rng.randrange(len(options))]
            seat = fast.actor(state.core, action)
            out.append((state, seat, action))
            state = apply(state, seat, action)
    return out


def bench_fast_legal(
    states: Sequence[tuple[fast.Core, int, Action]], seconds: float = 1.0
) -> float:
    """Calls per second of :func:`fast.legal` (all seats) over sampled states."""
    legal = fast.legal
    cores = [c for c, _, _ in states]
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for core in cores:
            legal(core)
        calls += len(cores)
        now = time.process_time()
        if now >= deadline:
            return calls / (now - start)


def bench_fast_step(
    states: Sequence[tuple[fast.Core, int, Action]], seconds: float = 1.0
) -> float:
    """Calls per second of :func:`fast.step` (unchecked) over sampled (state, seat, action)."""
    step = fast.step
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for core, seat, action in states:
            step(core, seat, action)
        calls += len(states)
        now = time.process_time()
        if now >= deadline:
            return calls / (now - start)


def bench_public_legal(
    states: Sequence[tuple[GameState, int, Action]], seconds: float = 1.0
) -> float:
    """Calls per second of :func:`games.engine.legal_actions` for the acting seat."""
    legal = legal_actions
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for state, seat, _ in states:
            legal(state, seat)
        calls += len(states)
        now = time.process_time()
        if now >= deadline:
            return calls / (now - start)


def bench_public_apply(
    states: Sequence[tuple[GameState, int, Action]], seconds: float = 1.0
) -> float:
    """Calls per second of :func:`games.engine.apply` (checked, with history)
    over sampled (state, seat, action): what the server calls on every move."""
    play = apply
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for state, seat, action in states:
            play(state, seat, action)
        calls += len(states)
        now = time.process_time()
        if now >= deadline:
            return calls / (now - start)


def bench_public_games(seconds: float = 1.0) -> float:
    """Random games per second through the checked public API."""
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new_game(games, games & 3)
        while not state.game_over:
            options = [(s, a) for s in seats_to_act(state) for a in legal_actions(state, s)]
            seat, action = options[int(rng.random() * len(options))]
            state = apply(state, seat, action)
        games += 1
    return games / (time.process_time() - start)


def late_states(n: int, seed: int = 3) -> list[GameState]:
    """``n`` states of random games, each with three quarters of its game's actions."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for game_seed in range(seed * 1_000_003, seed * 1_000_003 + n):
        states = [new_game(game_seed, game_seed & 3)]
        while not states[-1].game_over:
            state = states[-1]
            options = [(s, a) for s in seats_to_act(state) for a in legal_actions(state, s)]
            states.append(apply(state, *options[rng.randrange(len(options))]))
        out.append(states[(len(states) - 1) * 3 // 4])
    return out


def _per_call_us(run: Callable[[], object], calls: int, seconds: float) -> float:
    rounds = 0
    start = time.process_time()
    while True:
        run()
        rounds += 1
        now = time.process_time()
        if now - start >= seconds:
            return (now - start) / (rounds * calls) * 1e6


def bench_cache(states: Sequence[GameState], seconds: float = 1.0) -> dict[str, float]:
    """Microseconds per stored state: restore the cache, replay, store (see above)."""
    texts = [json.dumps(s.to_dict()) for s in states]
    loads, from_dict, replay = json.loads, GameState.from_dict, GameState.replay_stored

    def restore_cold() -> None:
        for text in texts:
            _dealt_start.cache_clear()
            from_dict(loads(text))

    def restore_warm() -> None:
        for text in texts:
            from_dict(loads(text))

    def replay_all() -> None:
        for text in texts:
            replay(loads(text))

    def store() -> None:
        for state in states:
            json.dumps(state.to_dict())

    n = len(states)
    return {
        "cache_restore_us": _per_call_us(restore_cold, n, seconds),
        "cache_restore_warm_us": _per_call_us(restore_warm, n, seconds),
        "replay_us": _per_call_us(replay_all, n, seconds),
        "cache_store_us": _per_call_us(store, n, seconds),
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of ``python -m games.engine.bench``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per figure")
    parser.add_argument("--warmup", type=float, default=1.0, help="untimed warm-up seconds")
    parser.add_argument("--public", action="store_true", help="also time the public API")
    parser.add_argument("--cache", action="store_true",
                        help="also time restoring a stored state vs replaying it")
    args = parser.parse_args(argv)
    warm_up(args.warmup)
    print(f"fast_random_games_per_s: {bench_random_games(args.seconds):.0f}", flush=True)
    states = sample_states(50_000)
    print(f"fast_legal_per_s: {bench_fast_legal(states, args.seconds / 2):.0f}", flush=True)
    print(f"fast_step_per_s: {bench_fast_step(states, args.seconds / 2):.0f}", flush=True)
    checked = public_states(20_000)
    legal_rate = bench_public_legal(checked, args.seconds / 2)
    print(f"public_legal_actions_per_s: {legal_rate:.0f}", flush=True)
    print(f"public_apply_per_s: {bench_public_apply(checked, args.seconds / 2):.0f}", flush=True)
    # The 20,000 sampled GameStates would otherwise stay for the cyclic GC to scan
    # during the figures below (a few % off public_random_games_per_s).
    del checked
    gc.collect()
    if args.public:
        print(f"public_random_games_per_s: {bench_public_games(args.seconds):.0f}", flush=True)
    if args.cache:
        late = late_states(200)
        actions = sum(len(s.actions) for s in late) / len(late)
        print(f"cache_state_actions: {actions:.1f}", flush=True)
        for name, value in bench_cache(late, args.seconds / 4).items():
            print(f"{name}: {value:.1f}", flush=True)


if __name__ == "__main__":
    main()
