"""Per-decision time of every bot level: ``python -m games.bots.bench``.

The decision points are the same for every level: views of the seat on turn
(and of out-of-turn molodka holders, R11) met while four casual bots play
``--games`` games from fixed seeds.  Each level decides every view once;
the CPU time of the deciding thread is what "p95 on one core" means (the
machine may be shared, so wall time is printed too).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from games.engine import SeatView, apply, fast, new_game, observe

from . import POLICIES
from .registry import get_policy

__all__ = ["decision_views", "main"]


def decision_views(games: int, seed: int = 1) -> list[SeatView]:
    """Views met in ``games`` casual games (deterministic)."""
    casual = get_policy("casual")
    views: list[SeatView] = []
    for g in range(games):
        state = new_game(seed * 1000 + g, dealer=g % 4)
        while state.turn is not None:
            for seat in fast.molodka_seats(state.core):
                if seat != state.turn:
                    views.append(observe(state, seat))
            view = observe(state, state.turn)
            views.append(view)
            action = casual(view, random.Random(0))
            assert action is not None
            state = apply(state, state.turn, action)
    return views


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m games.bots.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("levels", nargs="*", default=list(POLICIES))
    ns = parser.parse_args(argv)
    views = decision_views(ns.games, ns.seed)
    print(f"{len(views)} decision points from {ns.games} games")
    for level in ns.levels:
        policy = get_policy(level)
        cpu: list[float] = []
        wall: list[float] = []
        for i, view in enumerate(views):
            rng = random.Random(i)
            c0, w0 = time.thread_time(), time.perf_counter()
            policy(view, rng)
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - w0)
        print(
            f"{level:9s} cpu p50 {_pct(cpu, 0.5) * 1000:7.2f} ms"
            f"  p95 {_pct(cpu, 0.95) * 1000:7.2f} ms"
            f"  max {max(cpu) * 1000:7.1f} ms | wall p50 {_pct(wall, 0.5) * 1000:7.2f} ms"
            f"  p95 {_pct(wall, 0.95) * 1000:7.2f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
