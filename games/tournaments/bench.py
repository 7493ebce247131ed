"""Simulated Swiss events through the pairer: pairing time and what the pairings did.

``python -m games.tournaments.bench`` plays seeded events (results drawn from hidden
strengths, with ties and occasional forfeits) round after round through
:func:`games.tournaments.pairing.pair_swiss`, keeping its own record of the events, and
prints per field size: the pairing time (median and worst), rematches at the table,
third-or-later meetings, repeated down-floats (an entry floating down, or sitting out,
two rounds running), byes not given to the lowest-ranked eligible entry, byes given to
a forfeit winner, and the mean sum of score differences per round. Pure: no Django.
It also runs on a pairer without meeting counts, floats or forfeit wins (an older
``pair_swiss``), feeding it what its caller then did, so two versions can be compared.
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from games.tournaments import pairing
from games.tournaments.pairing import pair_key

# (entries, rounds, events): small fields repeat meetings, big ones are timed.
DEFAULT_SIZES = ((6, 5, 200), (6, 9, 200), (7, 5, 200), (24, 7, 40), (25, 7, 40), (100, 7, 2),
                 (101, 7, 2))
FORFEIT_RATE = 0.03
TIE_RATE = 0.1


@dataclass
class Tally:
    """What the pairings of one field size did, summed over its events."""

    times: list[float] = field(default_factory=list)
    rounds: int = 0
    rematches: int = 0
    third_meetings: int = 0
    repeated_down_floats: int = 0
    byes: int = 0
    byes_not_lowest: int = 0
    byes_to_forfeit_winners: int = 0
    score_diff_sum: int = 0


def _supports_history() -> bool:
    params = inspect.signature(pairing.pair_swiss).parameters
    return "floats" in params and "forfeit_wins" in params


def play_event(entries: int, rounds: int, seed: str, tally: Tally, new_api: bool) -> None:
    """One event; adds what happened to ``tally``."""
    rng = random.Random(seed)
    ids = list(range(1, entries + 1))
    strength = {e: rng.random() for e in ids}
    scores = dict.fromkeys(ids, 0)
    at_table: Counter[frozenset[int]] = Counter()  # meetings at the table
    any_match: set[frozenset[int]] = set()  # what an older caller passed (forfeits too)
    byes: Counter[int] = Counter()
    forfeit_wins: Counter[int] = Counter()
    floats: dict[int, list[str]] = {e: [] for e in ids}
    for number in range(1, rounds + 1):
        ranked = sorted(ids, key=lambda e: (-scores[e], e))
        started = time.perf_counter()
        if new_api:
            result = pairing.pair_swiss(
                ranked, scores, at_table, byes, f"{seed}:{number}",
                floats={e: tuple(f) for e, f in floats.items()}, forfeit_wins=forfeit_wins)
        else:
            result = pairing.pair_swiss(ranked, scores, any_match, byes, f"{seed}:{number}")
        tally.times.append(time.perf_counter() - started)
        tally.rounds += 1
        this_round: dict[int, str] = {}
        if result.bye is not None:
            tally.byes += 1
            fewest = min(byes[e] + forfeit_wins[e] for e in ranked)
            eligible = [e for e in ranked if byes[e] + forfeit_wins[e] == fewest]
            tally.byes_not_lowest += result.bye != eligible[-1]
            tally.byes_to_forfeit_winners += forfeit_wins[result.bye] > 0
            this_round[result.bye] = "down"
        gained: Counter[int] = Counter()
        if result.bye is not None:
            gained[result.bye] += 2
        for a, b in result.pairs:
            key = pair_key(a, b)
            diff = scores[a] - scores[b]
            tally.score_diff_sum += abs(diff)
            any_match.add(key)
            if rng.random() < FORFEIT_RATE:
                winner = rng.choice((a, b))
                gained[winner] += 2
                forfeit_wins[winner] += 1
                this_round[a] = this_round[b] = "down"
                continue
            tally.rematches += at_table[key] >= 1
            tally.third_meetings += at_table[key] >= 2
            at_table[key] += 1
            this_round[a] = "down" if diff > 0 else "up" if diff < 0 else ""
            this_round[b] = "up" if diff > 0 else "down" if diff < 0 else ""
            roll = rng.random()
            if roll < TIE_RATE:
                gained[a] += 1
                gained[b] += 1
            else:
                p_a = strength[a] / (strength[a] + strength[b] + 1e-9)
                gained[a if rng.random() < p_a else b] += 2
        if result.bye is not None:
            byes[result.bye] += 1
        for e in ids:
            now = this_round.get(e, "down")
            tally.repeated_down_floats += now == "down" and floats[e][-1:] == ["down"]
            floats[e].append(now)
            scores[e] += gained[e]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every size's number of events (at least 1 each)")
    args = parser.parse_args(argv)
    new_api = _supports_history()
    print(f"pairer: {'meeting counts, floats, forfeit wins' if new_api else 'older API'}")
    print("entries rounds events | pair ms median / max | rematches third_meetings "
          "repeated_down_floats | byes not_lowest to_forfeit_winner | score diff/round")
    for entries, rounds, events in DEFAULT_SIZES:
        tally = Tally()
        for i in range(max(1, round(events * args.scale))):
            play_event(entries, rounds, f"bench-{entries}-{i}", tally, new_api)
        print(f"{entries:7} {rounds:6} {max(1, round(events * args.scale)):6} | "
              f"{1000 * statistics.median(tally.times):8.1f} / {1000 * max(tally.times):7.1f} | "
              f"{tally.rematches:9} {tally.third_meetings:14} {tally.repeated_down_floats:20} | "
              f"{tally.byes:4} {tally.byes_not_lowest:10} {tally.byes_to_forfeit_winners:17} | "
              f"{tally.score_diff_sum / tally.rounds:.2f}", flush=True)


if __name__ == "__main__":
    main()
