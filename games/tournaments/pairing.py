"""The tournament pairer: pure functions, no Django (like the engine; import-linter).

Three ways to make a round:

- :func:`pair_swiss` (pairs events, Swiss): a maximum-weight matching over all entries,
  with integer weights ordered so that (1) no forbidden pairing is ever made, (2) no
  rematch is made while a pairing without one exists, (3) the total squared difference
  of match points is as small as possible (score groups are respected: pairing inside a
  group is preferred, and a floater goes to the nearest group), and (4) what is left
  tied is broken by a hash of the event's seed. An odd field gives one bye to the
  lowest-ranked entry that has not had one (scored as a win), choosing, from the bottom
  up, the first whose removal leaves a field pairable without rematches.
- :func:`round_robin` (pairs events, up to 10 pairs): Berger's circle method.
- :func:`pair_individual` (individual events): the players left after byes get partners
  by a maximum-weight matching that minimises repeated partnerships exactly, then the
  partnerships are paired into tables by a second matching that minimises repeated
  opponents; :func:`whist_schedule` returns a shipped schedule in which everybody
  partners everybody else exactly once (8, 9, 12, 13, 16, 17 players).

Everything is deterministic given its arguments (the seed included), so a round can be
re-paired and audited.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import networkx as nx

MAX_ROUND_ROBIN = 10
WHIST_SIZES = (8, 9, 12, 13, 16, 17)


class PairingError(ValueError):
    """The round cannot be paired under the rules given (forbidden pairings, too few)."""


def pair_key(a: int, b: int) -> frozenset[int]:
    """The unordered key of two entries (rematch and forbidden sets use it)."""
    return frozenset((a, b))


def _jitter(seed: int | str, a: int, b: int, modulo: int) -> int:
    """A stable pseudo-random number in ``range(modulo)`` for the pair (a, b)."""
    low, high = sorted((a, b))
    digest = hashlib.blake2b(f"{seed}:{low}:{high}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % max(1, modulo)


def _perfect_matching(nodes: Sequence[int], weight: Mapping[frozenset[int], int]
                      ) -> list[tuple[int, int]] | None:
    """A maximum-weight perfect matching over the edges in ``weight`` (None if none).

    Weights must be positive integers (networkx is exact on integers). Nodes and edges
    are inserted in a fixed order so that the result depends only on the arguments.
    """
    if len(nodes) % 2:
        return None
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(nodes)
    order = {n: i for i, n in enumerate(nodes)}
    for key in sorted(weight, key=lambda k: sorted(order[n] for n in k)):
        a, b = sorted(key, key=order.__getitem__)
        graph.add_edge(a, b, weight=weight[key])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(nodes):
        return None
    pairs = [(a, b) if order[a] < order[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: order[p[0]])


@dataclass(frozen=True)
class SwissRound:
    """A Swiss round: ``pairs`` (higher-ranked entry first) and the ``bye`` entry."""

    pairs: list[tuple[int, int]]
    bye: int | None = None
    rematches: int = 0


def _swiss_weights(nodes: Sequence[int], scores: Mapping[int, int],
                   played: Counter[frozenset[int]] | set[frozenset[int]],
                   forbidden: set[frozenset[int]], seed: int | str, *,
                   allow_rematch: bool) -> dict[frozenset[int], int]:
    n = max(2, len(nodes))
    max_diff = max((scores.get(x, 0) for x in nodes), default=0) - min(
        (scores.get(x, 0) for x in nodes), default=0)
    # Lexicographic priorities in one integer: a unit of score cost outweighs all the
    # jitter of a round, a rematch outweighs all score costs of a round.
    score_unit = n * n
    rematch_unit = score_unit * (max_diff * max_diff + 1) * n
    base = rematch_unit * n * n
    weights: dict[frozenset[int], int] = {}
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            key = pair_key(a, b)
            if key in forbidden:
                continue
            rematch = key in played
            if rematch and not allow_rematch:
                continue
            diff = scores.get(a, 0) - scores.get(b, 0)
            weights[key] = (base - rematch_unit * int(rematch) - score_unit * diff * diff
                            - _jitter(seed, a, b, n))
    return weights


def pair_swiss(ranked: Sequence[int], scores: Mapping[int, int],
               played: Iterable[frozenset[int]], byes: Mapping[int, int], seed: int | str, *,
               fixed: Sequence[tuple[int, int]] = (),
               forbidden: Iterable[frozenset[int]] = ()) -> SwissRound:
    """Pair one Swiss round of a pairs event.

    ``ranked`` lists the active entries best first (the current standings); ``scores``
    their match points; ``played`` the pairs that already met; ``byes`` how many byes
    each entry had; ``fixed`` pairings the director set by hand (kept as given);
    ``forbidden`` pairings the director ruled out. Raises PairingError when the forbidden
    pairings leave no way to pair everybody.
    """
    played_set = set(played)
    forbidden_set = set(forbidden)
    if len(set(ranked)) != len(ranked):
        raise PairingError("an entry is listed twice")
    in_fixed = [e for pair in fixed for e in pair]
    if len(set(in_fixed)) != len(in_fixed) or not set(in_fixed) <= set(ranked):
        raise PairingError("a manual pairing names an entry twice or one not in the round")
    rest = [e for e in ranked if e not in set(in_fixed)]
    bye: int | None = None
    if len(rest) % 2:
        bye = _choose_bye(rest, scores, played_set, forbidden_set, byes, seed)
        rest = [e for e in rest if e != bye]
    pairs = _perfect_matching(rest, _swiss_weights(rest, scores, played_set, forbidden_set,
                                                   seed, allow_rematch=False))
    if pairs is None:
        pairs = _perfect_matching(rest, _swiss_weights(rest, scores, played_set,
                                                       forbidden_set, seed,
                                                       allow_rematch=True))
    if pairs is None:
        raise PairingError("the forbidden pairings leave no way to pair this round")
    order = {e: i for i, e in enumerate(ranked)}
    every = [tuple(sorted(p, key=order.__getitem__)) for p in [*fixed, *pairs]]
    every.sort(key=lambda p: order[p[0]])
    rematches = sum(1 for a, b in every if pair_key(a, b) in played_set)
    return SwissRound(pairs=every, bye=bye, rematches=rematches)  # type: ignore[arg-type]


def _choose_bye(rest: Sequence[int], scores: Mapping[int, int],
                played: set[frozenset[int]], forbidden: set[frozenset[int]],
                byes: Mapping[int, int], seed: int | str) -> int:
    """The lowest-ranked entry without a bye whose removal leaves a rematch-free field
    (if none does, the lowest-ranked without a bye; if all had one, the fewest)."""
    fewest = min(byes.get(e, 0) for e in rest)
    eligible = [e for e in reversed(rest) if byes.get(e, 0) == fewest]
    for candidate in eligible:
        others = [e for e in rest if e != candidate]
        if _perfect_matching(others, _swiss_weights(others, scores, played, forbidden, seed,
                                                    allow_rematch=False)) is not None:
            return candidate
    return eligible[0]


def round_robin(entries: Sequence[int]) -> list[SwissRound]:
    """All rounds of a round robin (Berger tables, the circle method), up to 10 pairs.

    An odd field gets a bye in every round (each entry has exactly one). Every two
    entries meet exactly once.
    """
    if not 2 <= len(entries) <= MAX_ROUND_ROBIN:
        raise PairingError(f"a round robin needs 2 to {MAX_ROUND_ROBIN} entries")
    if len(set(entries)) != len(entries):
        raise PairingError("an entry is listed twice")
    players: list[int | None] = list(entries)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[int, int]] = []
        bye = None
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a  # the fixed entry alternates which side it is listed on
            if a is None or b is None:
                bye = a if b is None else b
            else:
                pairs.append((a, b))
        rounds.append(SwissRound(pairs=pairs, bye=bye))
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


@dataclass(frozen=True)
class IndividualRound:
    """Tables of four players by position (partners at 0+2 and 1+3, R1) and the byes."""

    tables: list[tuple[int, int, int, int]]
    byes: list[int] = field(default_factory=list)


def partner_repeats(tables: Iterable[Sequence[int]], partners: Mapping[frozenset[int], int]
                    ) -> int:
    """How many partnerships in ``tables`` already happened (counted with multiplicity)."""
    return sum(partners.get(pair_key(t[0], t[2]), 0) + partners.get(pair_key(t[1], t[3]), 0)
               for t in tables)


def pair_individual(ranked: Sequence[int], scores: Mapping[int, int],
                    partners: Mapping[frozenset[int], int],
                    opponents: Mapping[frozenset[int], int], byes: Mapping[int, int],
                    seed: int | str) -> IndividualRound:
    """One round of an individual event: tables of 4 with new partners.

    ``len(ranked) % 4`` players sit out with a bye (scored as a win): the lowest-ranked
    among those with the fewest byes. The rest get partners by a maximum-weight
    matching that first minimises repeated partnerships (exactly), then the score
    difference between partners; partnerships are then paired into tables minimising
    repeated opponents, then the score difference. Raises PairingError below 4 players.
    """
    if len(set(ranked)) != len(ranked):
        raise PairingError("a player is listed twice")
    if len(ranked) < 4:
        raise PairingError("an individual round needs at least 4 players")
    sit_out = len(ranked) % 4
    by_need = sorted(range(len(ranked)), key=lambda i: (byes.get(ranked[i], 0), -i))
    bye_list = sorted((ranked[i] for i in by_need[:sit_out]), key=ranked.index)
    players = [p for p in ranked if p not in set(bye_list)]
    n = len(players)
    spread = max(scores.get(p, 0) for p in players) - min(scores.get(p, 0) for p in players)
    score_unit = n * n
    repeat_unit = score_unit * (spread * spread + 1) * n
    most = max(partners.values(), default=0) + 1
    base = repeat_unit * (most + 1) * n
    weights = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            diff = scores.get(a, 0) - scores.get(b, 0)
            weights[pair_key(a, b)] = (base - repeat_unit * partners.get(pair_key(a, b), 0)
                                       - score_unit * diff * diff - _jitter(seed, a, b, n))
    teams = _perfect_matching(players, weights)
    assert teams is not None  # a complete graph on an even number of nodes
    # Partnerships into tables: team t is node t.
    team_nodes = list(range(len(teams)))
    m = max(2, len(teams))
    team_score = [scores.get(a, 0) + scores.get(b, 0) for a, b in teams]
    most_opp = max(opponents.values(), default=0) + 1
    t_spread = max(team_score) - min(team_score)
    t_unit = m * m
    o_unit = t_unit * (t_spread * t_spread + 1) * m
    t_base = o_unit * 4 * most_opp * m
    t_weights = {}
    for i in team_nodes:
        for j in team_nodes[i + 1:]:
            met = sum(opponents.get(pair_key(x, y), 0) for x in teams[i] for y in teams[j])
            diff = team_score[i] - team_score[j]
            t_weights[pair_key(i, j)] = (t_base - o_unit * met - t_unit * diff * diff
                                         - _jitter(f"{seed}/t", min(teams[i]), min(teams[j]), m))
    tables_of_teams = _perfect_matching(team_nodes, t_weights)
    assert tables_of_teams is not None
    tables = [(teams[i][0], teams[j][0], teams[i][1], teams[j][1]) for i, j in tables_of_teams]
    return IndividualRound(tables=tables, byes=bye_list)


@cache
def _whist_data() -> dict[str, list[list[list[int]]]]:
    text = resources.files("games.tournaments").joinpath("data/whist.json").read_text()
    return json.loads(text)


def whist_schedule(players: int) -> list[IndividualRound]:
    """The shipped whist schedule for ``players`` (8, 9, 12, 13, 16 or 17), as player
    indices 0..players-1: every two players partner exactly once. 4k players play 4k−1
    rounds; 4k+1 players play 4k+1 rounds with one sitting out each round."""
    if players not in WHIST_SIZES:
        raise PairingError(f"whist schedules exist here for {', '.join(map(str, WHIST_SIZES))}"
                           " players")
    rounds = []
    for tables in _whist_data()[str(players)]:
        seated = {p for t in tables for p in t}
        rounds.append(IndividualRound(
            tables=[(a, b, c, d) for a, b, c, d in tables],
            byes=[p for p in range(players) if p not in seated]))
    return rounds


def build_whist(players: int, seed: int = 0, steps: int = 4000) -> list[list[list[int]]]:
    """Build a schedule for ``players`` (how data/whist.json was made; kept to audit it).

    The circle method gives a (near-)1-factorisation of the complete graph (every two
    players are partners exactly once); the partnerships of each round are then grouped
    into tables by a seeded hill-climb that evens out how often two players meet as
    opponents.
    """
    rng = random.Random(seed)
    people: list[int | None] = list(range(players))
    if players % 2:
        people.append(None)
    n = len(people)
    factor_rounds: list[list[tuple[int, int]]] = []
    for _ in range(n - 1):
        pairs = [(people[i], people[n - 1 - i]) for i in range(n // 2)]
        factor_rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        people = [people[0], people[-1], *people[1:-1]]

    def tables_of(pairs: list[tuple[int, int]]) -> list[list[int]]:
        return [[pairs[i][0], pairs[i + 1][0], pairs[i][1], pairs[i + 1][1]]
                for i in range(0, len(pairs), 2)]

    def cost(schedule: list[list[tuple[int, int]]]) -> int:
        met: Counter[frozenset[int]] = Counter()
        for pairs in schedule:
            for t in tables_of(pairs):
                for a in (0, 2):
                    for b in (1, 3):
                        met[pair_key(t[a], t[b])] += 1
        return sum((c - 2) ** 2 for c in met.values()) + 4 * (
            players * (players - 1) // 2 - len(met))

    schedule = [list(p) for p in factor_rounds]
    best = cost(schedule)
    for _ in range(steps):
        r = rng.randrange(len(schedule))
        i, j = rng.sample(range(len(schedule[r])), 2)
        trial = [list(p) for p in schedule]
        trial[r][i], trial[r][j] = trial[r][j], trial[r][i]
        if rng.random() < 0.5:
            trial[r][i] = trial[r][i][::-1]
        value = cost(trial)
        if value <= best:
            schedule, best = trial, value
    return [tables_of(pairs) for pairs in schedule]
