"""A finished game reviewed from one seat, decision by decision, by the strong bot.

The review walks the game again from its seed and its actions (R5) and stops at each
decision of the reviewed seat: every action it took on turn, and every trick in which
it could have announced a molodka out of turn (R11) and kept quiet. At each one it sees
only what that seat saw then (:func:`~games.engine.observe`, R19): never the hidden
cards, although the game is over. The strong bot's search values every choice on the
same sampled worlds (:func:`games.bots.search.value_actions`), so the difference
between two choices is not the noise of two draws.

A choice's **value** is the expected loss points the seat's team gives minus those it
takes in this game (R16–R17), plus half the card-point margin over 60 (so twelve card
points given away cost 0.1): a game review, not a series one. A decision's **cost** is
the best choice's value minus the played one's; its grade:

* **good**: cost under 0.3 (a third of the usual price of a worse card, well inside
  the sampling's spread);
* **inaccuracy**: 0.3 to 0.8 (a few card points, or a small chance of 2 loss points);
* **mistake**: 0.8 to 1.6 (on average about half a lost game's 2 loss points, or more);
* **blunder**: 1.6 or more (roughly a lost game's loss points thrown away).

What the seat did is named in its own words (``lead``, ``beat``, ``discard``,
``molodka``, or ``quiet`` for a molodka not announced), and the better action with it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from games.engine import Action, GameState, apply, fast, new_game, observe
from games.engine.actions import Molodka

from .knowledge import read_view
from .registry import get_policy
from .search import STRONG, SearchConfig, candidates, value_actions

#: Grades by cost, in loss points (see the module docstring).
GRADES: Final = (("good", 0.3), ("inaccuracy", 0.8), ("mistake", 1.6))
BLUNDER: Final = "blunder"
#: The strong bot's search with every choice valued on every world (no halving), one
#: second of CPU per decision at most, and game results in plain loss points.
REVIEW: Final = replace(STRONG, halving=False, time_cap=1.0, series_aware=False)


def grade_of(cost: float) -> str:
    """The grade of a decision that cost ``cost`` loss points.

    >>> [grade_of(c) for c in (0.0, 0.5, 1.0, 2.0)]
    ['good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, limit in GRADES:
        if cost < limit:
            return name
    return BLUNDER


def describe(action: Action | None) -> str:
    """An action in the seat's own words: ``beat 9H TH``, ``quiet`` for no molodka."""
    if action is None:
        return "quiet"
    return " ".join([action.kind, *(c.code for c in action.cards)])


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat and what the search made of it."""

    move: int  # how many actions of the game came before it
    trick: int  # the trick it was part of (0-based)
    kind: str  # "turn" (the seat was on turn) or "molodka" (it could announce one, R11)
    played: Action | None
    best: Action | None
    values: tuple[tuple[str, float], ...]  # every choice valued, best first
    cost: float
    grade: str

    @property
    def marks(self) -> list[str]:
        """What kind of slip a costly decision was: ``molodka_not_announced`` (R11),
        ``beat_not_made`` (a discard where a beat was better) and ``points_given`` (a
        discard of more card points than the better action gives up)."""
        if self.grade == GRADES[0][0] or self.best is None:
            return []
        out = []
        if self.kind == "molodka" and self.played is None:
            out.append("molodka_not_announced")
        if self.played is not None and self.played.kind == "discard":
            if self.best.kind == "beat":
                out.append("beat_not_made")
            given = sum(c.points for c in self.played.cards)
            if self.best.kind == "discard" and given > sum(c.points for c in self.best.cards):
                out.append("points_given")
        return out

    @property
    def played_value(self) -> float:
        """The expected value of what the seat did (see the module docstring)."""
        return dict(self.values)[describe(self.played)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move, "trick": self.trick, "kind": self.kind,
            "played": describe(self.played), "best": describe(self.best),
            "played_value": round(self.played_value, 3), "marks": self.marks,
            "values": [[name, round(v, 3)] for name, v in self.values],
            "cost": round(self.cost, 3), "grade": self.grade,
        }


def _judge(view: Any, cands: list[Action | None], played: Action | None, move: int,
           kind: str, rng: random.Random, cfg: SearchConfig) -> Decision:
    if played not in cands:
        cands = [*cands, played]
    values = value_actions(view, cands, rng, cfg)
    ranked = sorted(zip(cands, values, strict=True), key=lambda cv: -cv[1])
    best, best_value = ranked[0]
    played_value = values[cands.index(played)]
    cost = max(0.0, best_value - played_value)
    if cost < GRADES[0][1]:
        best = played  # nothing better worth naming
    return Decision(move, view.tricks_completed, kind, played, best,
                    tuple((describe(c), v) for c, v in ranked), cost, grade_of(cost))


def review_seat(seed: int, dealer: int, leader: int | None,
                actions: Sequence[tuple[int, Action]], seat: int, *, sampling_seed: int = 0,
                series: Any = None, cfg: SearchConfig = REVIEW,
                algorithm: int | None = None) -> list[Decision]:
    """Every decision of ``seat`` in the game ``actions`` played from ``seed`` (dealt by
    the engine's ``algorithm``, its current one by default, R5).

    ``sampling_seed`` seeds the worlds the search samples (two reviews with different
    seeds measure the grading's stability). Raises the engine's errors for a game that
    does not replay.
    """
    start = new_game(seed, dealer, leader) if algorithm is None else new_game(
        seed, dealer, leader, algorithm)
    return review_from(start, actions, seat,
                       sampling_seed=sampling_seed, series=series, cfg=cfg)


def review_from(state: GameState, actions: Sequence[tuple[int, Action]], seat: int, *,
                sampling_seed: int = 0, series: Any = None,
                cfg: SearchConfig = REVIEW) -> list[Decision]:
    """:func:`review_seat` from any state of a game (a dealt one, or a position)."""
    decisions: list[Decision] = []
    quiet_tricks: set[int] = set()
    for move, (actor, action) in enumerate(actions):
        view = observe(state, seat, series)
        rng = random.Random(f"review:{sampling_seed}:{move}")
        if actor == seat and len(view.legal) > 1:
            kind = "turn" if view.turn == seat else "molodka"
            if kind == "turn":
                knowledge = read_view(view)
                cands: list[Action | None] = list(
                    candidates(view, knowledge, cfg.max_candidates))
            else:
                cands = [view.legal[0], None]
            decisions.append(_judge(view, cands, action, move, kind, rng, cfg))
        elif actor != seat and view.turn != seat and view.can_molodka \
                and view.tricks_completed not in quiet_tricks:
            # R11: the seat could have announced its molodka before this action and did
            # not; judged once a trick.
            quiet_tricks.add(view.tricks_completed)
            molodka = next(a for a in view.legal if isinstance(a, Molodka))
            decisions.append(_judge(view, [molodka, None], None, move, "molodka", rng, cfg))
        state = apply(state, actor, action)
    return decisions


def summary(decisions: Iterable[Decision]) -> dict[str, Any]:
    """Counts by grade and the mean cost: what a profile shows of a review."""
    decisions = list(decisions)
    counts = {name: 0 for name, _ in GRADES} | {BLUNDER: 0}
    for d in decisions:
        counts[d.grade] += 1
    mean = statistics.fmean(d.cost for d in decisions) if decisions else 0.0
    return {"decisions": len(decisions), "grades": counts, "mean_cost": round(mean, 3)}


# --- the benchmark: python -m games.bots.review ----------------------------------------


def _bot_game(seed: int, level: str) -> tuple[int, int, list[tuple[int, Action]]]:
    """A game the bot arena's way: every seat played by ``level``, molodkas offered."""
    policy = get_policy(level)
    dealer = seed % 4
    state = new_game(seed, dealer)
    played: list[tuple[int, Action]] = []
    n = 0
    while state.turn is not None:
        n += 1
        turn = state.turn
        chosen: tuple[int, Action] | None = None
        for seat in fast.molodka_seats(state.core):
            if seat != turn:
                choice = policy(observe(state, seat), random.Random(f"{seed}:{n}:{seat}"))
                if isinstance(choice, Molodka):
                    chosen = (seat, choice)
                    break
        if chosen is None:
            choice = policy(observe(state, turn), random.Random(f"{seed}:{n}:{turn}"))
            chosen = (turn, choice if choice is not None else fast.legal_for(state.core, turn)[0])
        played.append(chosen)
        state = apply(state, *chosen)
    return dealer, (dealer + 1) % 4, played


def main(argv: Sequence[str] | None = None) -> int:
    """Review one seat of N bot games twice; print the time and the grading's stability."""
    parser = argparse.ArgumentParser(prog="python -m games.bots.review", description=main.__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--level", default="club", help="the bots that play the games")
    args = parser.parse_args(argv)
    times: list[float] = []
    walls: list[float] = []
    changed = total = 0
    for g in range(args.games):
        seed = args.first_seed + g
        dealer, leader, actions = _bot_game(seed, args.level)
        seat = g % 4
        runs = []
        for sampling_seed in (1, 2):
            t0, w0 = time.thread_time(), time.perf_counter()
            runs.append(review_seat(seed, dealer, leader, actions, seat,
                                    sampling_seed=sampling_seed))
            times.append(time.thread_time() - t0)
            walls.append(time.perf_counter() - w0)
        first, second = runs
        changed += sum(a.grade != b.grade for a, b in zip(first, second, strict=True))
        total += len(first)
        print(f"game {seed} seat {seat}: {len(first)} decisions, {times[-2]:.1f} s and "
              f"{times[-1]:.1f} s; grades {summary(first)['grades']}")
    print(f"reviews: {len(times)}; CPU seconds per review p50 {statistics.median(times):.1f}, "
          f"max {max(times):.1f}; wall-clock seconds p50 {statistics.median(walls):.1f}, "
          f"max {max(walls):.1f} (target: at most 20)")
    print(f"stability: {changed} of {total} decisions changed grade between two sampling "
          f"seeds ({100 * changed / max(total, 1):.1f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
