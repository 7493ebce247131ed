"""Duplicate evaluation of two bot levels: ``python -m games.bots.arena A B``.

Each *pair* plays two series on the same deals: first A holds seats 0 and 2
(team A) and B seats 1 and 3, then the seats are swapped.  Game ``j`` of both
series of a pair is dealt from the same seed and the first dealer is the
same, so luck of the cards cancels out as far as it can (later dealers and
leaders follow R4/R15 and may differ once the series diverge).

Prints A's series and game win rates with 95% Wilson intervals, the mean
loss points per game of each side, and per-decision time p50/p95 per side.
Bots see only ``observe(state, seat, series score)`` (R19), exactly as the
service calls them: out-of-turn molodka holders are asked first (R11), then
the seat on turn.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import Molodka, apply, fast, new_game, new_series, observe, outcome, record_game

from .registry import get_policy

__all__ = ["PairResult", "main", "play_pair", "wilson"]

MAX_GAMES = 60  # a series of eggs could in principle never end (R17)


@dataclass(slots=True)
class SideStats:
    """What one side (a bot level) did across the games it played."""

    loss_points: int = 0
    games: int = 0
    game_wins: int = 0
    times: list[float] = field(default_factory=list)


@dataclass(slots=True)
class PairResult:
    """One duplicate pair: A's series wins (0–2) and both sides' stats."""

    series_wins: int = 0
    series: int = 0
    a: SideStats = field(default_factory=SideStats)
    b: SideStats = field(default_factory=SideStats)


def _game_seed(master: int, pair: int, game: int) -> int:
    return random.Random(f"arena:{master}:{pair}:{game}").getrandbits(63)


def play_series(
    policies: Sequence[object], master: int, pair: int, target: int,
    stats: Sequence[SideStats],
) -> int:
    """One series; ``policies[t]`` plays team t (seats t and t + 2); returns the
    winning team (0 = A, 1 = B).  ``stats[t]`` accumulates team t's figures."""
    first_dealer = random.Random(f"arena:{master}:{pair}").randrange(4)
    series = new_series(target=target, first_dealer=first_dealer)
    for j in range(MAX_GAMES):
        seed = _game_seed(master, pair, j)
        state = new_game(seed, series.next_dealer, series.next_leader)
        score = series.score  # R18/R19: every seat sees the series score
        n = 0
        while state.turn is not None:
            n += 1
            acted = False
            turn = state.turn
            for seat in fast.molodka_seats(state.core):
                if seat == turn:
                    continue
                rng = random.Random(f"{seed}:{n}:{seat}")
                t0 = time.perf_counter()
                choice = policies[seat & 1](observe(state, seat, score), rng)  # type: ignore[operator]
                stats[seat & 1].times.append(time.perf_counter() - t0)
                if isinstance(choice, Molodka):
                    state = apply(state, seat, choice)
                    acted = True
                    break
            if acted:
                continue
            rng = random.Random(f"{seed}:{n}:{turn}")
            t0 = time.perf_counter()
            choice = policies[turn & 1](observe(state, turn, score), rng)  # type: ignore[operator]
            stats[turn & 1].times.append(time.perf_counter() - t0)
            if choice is None:
                choice = fast.legal_for(state.core, turn)[0]
            state = apply(state, turn, choice)
        result = outcome(state)
        assert result is not None
        for t, name in ((0, "A"), (1, "B")):
            stats[t].loss_points += result.loss_points[name]
            stats[t].games += 1
            if result.winner == name:
                stats[t].game_wins += 1
        series = record_game(series, result)
        if series.over:
            break
    lp = series.loss_points
    if series.winner is None:  # MAX_GAMES reached: the fewer loss points wins
        return 0 if lp["A"] < lp["B"] else 1
    return 0 if series.winner == "A" else 1


def play_pair(args: tuple[str, str, int, int, int]) -> PairResult:
    """Both series of duplicate pair ``pair`` (picklable for multiprocessing)."""
    name_a, name_b, master, pair, target = args
    pa, pb = get_policy(name_a), get_policy(name_b)
    out = PairResult()
    # A as team A (seats 0, 2), then A as team B on the same deals.
    if play_series((pa, pb), master, pair, target, (out.a, out.b)) == 0:
        out.series_wins += 1
    if play_series((pb, pa), master, pair, target, (out.b, out.a)) == 1:
        out.series_wins += 1
    out.series = 2
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def report(name_a: str, name_b: str, results: Iterable[PairResult]) -> str:
    """The printed summary of some pairs."""
    total = PairResult()
    pairs = 0
    for r in results:
        pairs += 1
        total.series_wins += r.series_wins
        total.series += r.series
        for mine, theirs in ((total.a, r.a), (total.b, r.b)):
            mine.loss_points += theirs.loss_points
            mine.games += theirs.games
            mine.game_wins += theirs.game_wins
            mine.times.extend(theirs.times)
    lo, hi = wilson(total.series_wins, total.series)
    games = total.a.games
    glo, ghi = wilson(total.a.game_wins, games)
    lines = [
        f"{name_a} vs {name_b}: {pairs} duplicate pairs, {total.series} series, {games} games",
        f"series won by {name_a}: {total.series_wins}/{total.series} = "
        f"{total.series_wins / max(1, total.series):.1%} (95% CI {lo:.1%}-{hi:.1%})",
        f"games won by {name_a}: {total.a.game_wins}/{games} = "
        f"{total.a.game_wins / max(1, games):.1%} (95% CI {glo:.1%}-{ghi:.1%}); "
        f"by {name_b}: {total.b.game_wins}",
    ]
    for name, side in ((name_a, total.a), (name_b, total.b)):
        lines.append(
            f"{name}: mean loss points per game {side.loss_points / max(1, side.games):.3f}; "
            f"decision time p50 {_pct(side.times, 0.5) * 1000:.2f} ms, "
            f"p95 {_pct(side.times, 0.95) * 1000:.2f} ms, "
            f"max {max(side.times or [0]) * 1000:.1f} ms "
            f"({len(side.times)} decisions)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m games.bots.arena", description=__doc__)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--target", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, help="print a summary every N pairs")
    ns = parser.parse_args(argv)
    get_policy(ns.a), get_policy(ns.b)  # fail early on unknown names
    tasks = [(ns.a, ns.b, ns.seed, i, ns.target) for i in range(ns.pairs)]
    results: list[PairResult] = []
    start = time.perf_counter()

    def note(r: PairResult) -> None:
        results.append(r)
        if ns.progress and len(results) % ns.progress == 0:
            print(f"-- after {len(results)} pairs ({time.perf_counter() - start:.0f} s)")
            print(report(ns.a, ns.b, results), flush=True)

    if ns.jobs > 1:
        with multiprocessing.Pool(ns.jobs) as pool:
            for r in pool.imap_unordered(play_pair, tasks):
                note(r)
    else:
        for t in tasks:
            note(play_pair(t))
    print(f"== final ({time.perf_counter() - start:.0f} s, seed {ns.seed}, target {ns.target})")
    print(report(ns.a, ns.b, results), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
