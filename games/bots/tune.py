"""Tune the card sense of the playouts: ``python -m games.bots.tune``.

The searching bots finish every sampled world with a greedy playout
(:mod:`games.bots.playout`); the better that playout plays, the better
PIMC judges its candidates.  This command compares card-sense tunings
(:class:`~games.bots.heuristics.SenseParams`) the way the playouts use them:
whole games on fast-path cores, each deal played twice with the teams'
tunings swapped (duplicate), and reports the mean loss-point margin per
game (R16).  ``--search`` runs a coordinate search from the casual tuning and
prints the best tuning found; it is how :data:`games.bots.search.PLAYOUT`
was chosen.

The playout policy reads a world's cards as its seat's "live" set (every
card outside its hand, the piles and the table), so these games are not
the casual bot's games; they measure only the playout policy.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import fields, replace

from games.engine import fast
from games.engine.fast import HOLDERS, MOLODKA_DISTANCE, PILES, TRICKS, TURN

from .heuristics import CASUAL_PARAMS, CardSense, SenseParams, mask_points
from .playout import _LOSS_MARGIN, _molodka, sense_action
from .search import PLAYOUT

__all__ = ["compare", "main", "play_game"]


def play_game(seed: int, senses: tuple[CardSense, CardSense]) -> int:
    """One game dealt from ``seed``; ``senses[t]`` plays team t.  Returns the
    loss-point margin for team A (R16: loss points given minus taken)."""
    rng = random.Random(seed)
    core = fast.deal(seed, rng.randrange(4))
    step = fast.step
    while core[TURN] is not None:
        found = _molodka(core, -1) if core[HOLDERS] and core[MOLODKA_DISTANCE] else None
        if found is not None:
            core = step(core, found[0], found[1])
            continue
        turn = core[TURN]
        action = sense_action(core, turn, senses[turn & 1])
        core = step(core, turn, action)
    pa = mask_points(core[PILES][0])
    tricks: tuple[int, int] = core[TRICKS]
    margin: int = _LOSS_MARGIN[pa][tricks[0] > 0][tricks[1] > 0]
    return margin


def compare(x: SenseParams, y: SenseParams, deals: int, seed: int = 1) -> tuple[float, float]:
    """Mean loss-point margin per game of tuning ``x`` over ``y`` on ``deals``
    duplicate deals, and its standard error."""
    sx, sy = CardSense(x), CardSense(y)
    diffs = []
    for d in range(deals):
        s = random.Random(f"tune:{seed}:{d}").getrandbits(63)
        diffs.append((play_game(s, (sx, sy)) - play_game(s, (sy, sx))) / 2.0)
    mean = sum(diffs) / deals
    var = sum((v - mean) ** 2 for v in diffs) / max(1, deals - 1)
    return mean, math.sqrt(var / deals)


_STEPS = {
    "trump_base": 3.0,
    "trump_rank": 0.5,
    "trump_points": 0.25,
    "others_per_card": 0.5,
    "lead_bonus": 1.0,
    "smear_hold": 0.02,
    "smear_points": 0.3,
    "partner_behind": 0.1,
}


def search(deals: int, rounds: int, seed: int) -> SenseParams:
    """Coordinate search: try each knob one step up and down (the plain keep
    values scaled together and the ace/ten keeps alone), keep a change that
    beats the current best by two standard errors."""
    best = CASUAL_PARAMS
    for r in range(rounds):
        improved = False
        moves: list[SenseParams] = []
        for name, step in _STEPS.items():
            for sign in (1, -1):
                moves.append(replace(best, **{name: getattr(best, name) + sign * step}))
        for scale in (0.7, 1.4):
            moves.append(replace(best, plain_keep=tuple(v * scale for v in best.plain_keep)))
        for rank in (7, 8, 6):
            for delta in (2.0, -2.0):
                keep = list(best.plain_keep)
                keep[rank] = max(0.0, keep[rank] + delta)
                moves.append(replace(best, plain_keep=tuple(keep)))
        for cand in moves:
            mean, se = compare(cand, best, deals, seed + r)
            if mean > 2 * se:
                print(f"round {r}: {_diff(cand, best)}  +{mean:.3f} (se {se:.3f})", flush=True)
                best = cand
                improved = True
        if not improved:
            break
    return best


def _diff(a: SenseParams, b: SenseParams) -> str:
    out = []
    for f in fields(SenseParams):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va != vb:
            shown = tuple(round(v, 2) for v in va) if isinstance(va, tuple) else round(va, 3)
            out.append(f"{f.name}={shown}")
    return ", ".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m games.bots.tune", description=__doc__)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search", action="store_true")
    parser.add_argument("--rounds", type=int, default=4)
    ns = parser.parse_args(argv)
    if ns.search:
        best = search(ns.deals, ns.rounds, ns.seed)
        print(f"best: {best}")
    mean, se = compare(PLAYOUT.params, CASUAL_PARAMS, ns.deals, ns.seed + 1000)
    print(
        f"playout tuning vs casual tuning: {mean:+.3f} loss points per game "
        f"(se {se:.3f}, {ns.deals} duplicate deals)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
