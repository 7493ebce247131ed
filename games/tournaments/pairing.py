"""The tournament pairer: pure functions, no Django (like the engine; import-linter).

Three ways to make a round:

- :func:`pair_swiss` (pairs events, Swiss): one maximum-weight matching over all entries
  and, in an odd field, a virtual "bye" entry, with integer weights ordered so that
  (1) no forbidden pairing is ever made, (2) repeated meetings are as few as possible
  and a third meeting never happens while avoidable, (3) the total squared difference of
  match points is as small as possible, the bye counted as a pairing with an entry a win
  below the lowest score (so the bye goes where the whole round fits best, normally to
  the lowest-ranked eligible entry), (4) floats repeat as little as possible, (5) the bye
  goes to the lowest-ranked entry among equals and (6) what is left tied is broken by a
  hash of the event's seed. Only entries with the fewest byes plus forfeit wins may get
  the bye; forfeits are not meetings (FIDE's rules; :func:`swiss_history`).
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
import rustworkx as rx

MAX_ROUND_ROBIN = 10
WHIST_SIZES = (8, 9, 12, 13, 16, 17)
# The bye's virtual opponent scores a win's match points below the lowest entry.
BYE_SCORE_GAP = 2
_RUSTWORKX_LIMIT = 2**126


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

    Weights must be positive integers: both solvers are exact on integers. rustworkx
    (compiled, 128-bit weights) pairs 100 entries in milliseconds where networkx (pure
    Python) takes seconds; networkx stays for weights too large for 128 bits. Nodes and
    edges are inserted in a fixed order so that the result depends only on the arguments.
    """
    if len(nodes) % 2:
        return None
    order = {n: i for i, n in enumerate(nodes)}
    edges = []
    for key, w in weight.items():
        i, j = (order[n] for n in key)
        edges.append((i, j, w) if i < j else (j, i, w))
    edges.sort()
    if max((w for *_, w in edges), default=0) < _RUSTWORKX_LIMIT:
        graph: rx.PyGraph = rx.PyGraph()
        graph.add_nodes_from(list(nodes))
        graph.add_edges_from([(i, j, w) for i, j, w in edges])
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        matching = {(nodes[i], nodes[j]) for i, j in found}
    else:
        nx_graph: nx.Graph[int] = nx.Graph()
        nx_graph.add_nodes_from(nodes)
        for i, j, w in edges:
            nx_graph.add_edge(nodes[i], nodes[j], weight=w)
        matching = nx.max_weight_matching(nx_graph, maxcardinality=True)
    if 2 * len(matching) != len(nodes):
        return None
    pairs = [(a, b) if order[a] < order[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: order[p[0]])


@dataclass(frozen=True)
class SwissRound:
    """A Swiss round: ``pairs`` (higher-ranked entry first) and the ``bye`` entry.

    ``rematches`` counts the pairs that had met before, ``third_meetings`` those that
    had met at least twice (so this is their third meeting or later).
    """

    pairs: list[tuple[int, int]]
    bye: int | None = None
    rematches: int = 0
    third_meetings: int = 0


@dataclass(frozen=True)
class PlayedMatch:
    """One match of an earlier round as the Swiss pairer sees it.

    ``b`` is None for ``a``'s bye. ``forfeit`` marks a match not played at the table
    (a no-show on either side or both): as in FIDE's rules it is not a meeting, and its
    winner is not given the bye afterwards.
    """

    round: int
    a: int
    b: int | None
    points_a: int = 0
    points_b: int = 0
    forfeit: bool = False


@dataclass(frozen=True)
class SwissHistory:
    """What the Swiss pairer needs from earlier rounds (see :func:`swiss_history`)."""

    meetings: Counter[frozenset[int]]
    byes: Counter[int]
    forfeit_wins: Counter[int]
    floats: dict[int, tuple[str, ...]]


def swiss_history(matches: Iterable[PlayedMatch]) -> SwissHistory:
    """Meetings (counted), byes, forfeit wins and floats from the matches of earlier rounds.

    A float is judged on the match points each side had when the round was paired: the
    higher side floated ``"down"``, the lower ``"up"``, equal sides ``""``. As in FIDE's
    Dutch rules an entry that did not play at the table (a bye, a forfeit either way, a
    round it was not paired in) counts as having floated down. ``floats`` lists every
    known entry's floats round by round, oldest first.
    """
    by_round: dict[int, list[PlayedMatch]] = {}
    for m in matches:
        by_round.setdefault(m.round, []).append(m)
    meetings: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    forfeit_wins: Counter[int] = Counter()
    points: Counter[int] = Counter()
    seen: set[int] = set()
    floats: dict[int, list[str]] = {}
    rounds = sorted(by_round)
    for index, number in enumerate(rounds):
        this_round: dict[int, str] = {}
        gained: Counter[int] = Counter()
        for m in by_round[number]:
            gained[m.a] += m.points_a
            if m.b is None:
                byes[m.a] += 1
                this_round[m.a] = "down"
                continue
            gained[m.b] += m.points_b
            if m.forfeit:
                this_round[m.a] = this_round[m.b] = "down"
                if m.points_a > m.points_b:
                    forfeit_wins[m.a] += 1
                elif m.points_b > m.points_a:
                    forfeit_wins[m.b] += 1
                continue
            meetings[pair_key(m.a, m.b)] += 1
            diff = points[m.a] - points[m.b]
            this_round[m.a] = "down" if diff > 0 else "up" if diff < 0 else ""
            this_round[m.b] = "up" if diff > 0 else "down" if diff < 0 else ""
        for entry in this_round:
            if entry not in seen:
                seen.add(entry)
                floats[entry] = ["down"] * index  # the rounds before it joined
        for entry in seen:
            floats[entry].append(this_round.get(entry, "down"))
        points.update(gained)
    return SwissHistory(meetings, byes, forfeit_wins,
                        {e: tuple(f) for e, f in floats.items()})


def _meeting_counts(played: Mapping[frozenset[int], int] | Iterable[frozenset[int]]
                    ) -> Counter[frozenset[int]]:
    if isinstance(played, Mapping):
        return Counter({k: int(v) for k, v in played.items() if v})
    return Counter(played)


def _float_costs(entries: Sequence[int], floats: Mapping[int, Sequence[str]], unit: int
                 ) -> tuple[dict[int, int], dict[int, int]]:
    """What floating each entry down, or up, costs given its floats so far: a repeat of
    last round's float outweighs any number of repeats from the round before, and a
    repeated down-float outweighs a repeated up-float (FIDE's Dutch order)."""
    down, up = {}, {}
    for e in entries:
        past = tuple(floats.get(e, ()))
        down[e] = unit ** 3 * (past[-1:] == ("down",)) + unit * (past[-2:-1] == ("down",))
        up[e] = unit ** 2 * (past[-1:] == ("up",)) + (past[-2:-1] == ("up",))
    return down, up


def _entry_hashes(seed: int | str, entries: Iterable[int]) -> dict[int, int]:
    """One stable 64-bit number per entry; :func:`_pair_jitter` mixes two of them (one
    hash per entry instead of one per pair keeps 100 entries fast)."""
    return {e: int.from_bytes(hashlib.blake2b(f"{seed}:{e}".encode(), digest_size=8)
                              .digest(), "big") for e in entries}


def _pair_jitter(hashes: Mapping[int, int], a: int, b: int, modulo: int) -> int:
    """A stable pseudo-random number in ``range(modulo)`` for the pair (a, b)."""
    low, high = (a, b) if a < b else (b, a)
    mixed = ((hashes[low] * 0x9E3779B97F4A7C15) ^ hashes[high]) & 0xFFFFFFFFFFFFFFFF
    mixed = (mixed * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    return (mixed >> 17) % modulo


def _swiss_weights(rest: Sequence[int], scores: Mapping[int, int],
                   meetings: Counter[frozenset[int]], forbidden: set[frozenset[int]],
                   floats: Mapping[int, Sequence[str]], seed: int | str,
                   bye_node: int | None, bye_eligible: Sequence[int]
                   ) -> dict[frozenset[int], int]:
    """Edge weights whose maximum-weight perfect matching is the best round.

    Lexicographic priorities packed in one integer (each unit exceeds the largest total
    the lower priorities can reach over a whole round): (1) forbidden pairings have no
    edge; (2) fewer repeated meetings, a third meeting weighing more than every second
    one of the round together; (3) the least total squared difference of match points,
    the bye counted as a pairing with a virtual entry a win below the lowest score (as
    FIDE does), so the bye lands where the whole round fits best; (4) fewer repeated
    floats; (5) the bye to the lowest-ranked eligible entry; (6) the seed's jitter.
    """
    nodes = len(rest) + (bye_node is not None)
    k = max(1, nodes // 2)
    all_scores = [scores.get(e, 0) for e in rest]
    low = min(all_scores, default=0)
    spread = max(all_scores, default=0) - low + BYE_SCORE_GAP
    members = set(rest)
    most = max((c for key, c in meetings.items() if c and key <= members), default=0)
    jitter_mod = max(2, nodes)
    bye_unit = k * jitter_mod
    float_base = k + 1
    float_unit = jitter_mod * bye_unit
    score_unit = float_base ** 4 * float_unit
    meeting_unit = (k * spread * spread + 1) * score_unit
    top = (k + 1) ** max(1, most) * meeting_unit + 1
    down_cost, up_cost = _float_costs(rest, floats, float_base)
    hashes = _entry_hashes(seed, [*rest, *([bye_node] if bye_node is not None else [])])
    weights: dict[frozenset[int], int] = {}
    for i, a in enumerate(rest):
        score_a = scores.get(a, 0)
        for b in rest[i + 1:]:
            key = pair_key(a, b)
            if key in forbidden:
                continue
            met = meetings.get(key, 0)
            diff = score_a - scores.get(b, 0)
            floated = (down_cost[a] + up_cost[b] if diff > 0
                       else down_cost[b] + up_cost[a] if diff < 0 else 0)
            cost = ((k + 1) ** (met - 1) * meeting_unit if met else 0) \
                + diff * diff * score_unit + floated * float_unit \
                + _pair_jitter(hashes, a, b, jitter_mod)
            weights[key] = top - cost
    if bye_node is not None:
        virtual = low - BYE_SCORE_GAP
        position = {e: i for i, e in enumerate(rest)}
        for e in bye_eligible:
            diff = scores.get(e, 0) - virtual
            cost = diff * diff * score_unit + down_cost[e] * float_unit \
                + (len(rest) - 1 - position[e]) * bye_unit \
                + _pair_jitter(hashes, e, bye_node, jitter_mod)
            weights[pair_key(e, bye_node)] = top - cost
    return weights


def pair_swiss(ranked: Sequence[int], scores: Mapping[int, int],
               played: Mapping[frozenset[int], int] | Iterable[frozenset[int]],
               byes: Mapping[int, int], seed: int | str, *,
               fixed: Sequence[tuple[int, int]] = (),
               forbidden: Iterable[frozenset[int]] = (),
               floats: Mapping[int, Sequence[str]] | None = None,
               forfeit_wins: Mapping[int, int] | None = None) -> SwissRound:
    """Pair one Swiss round of a pairs event.

    ``ranked`` lists the active entries best first (the current standings); ``scores``
    their match points; ``played`` how often each pair met at the table (a mapping of
    counts, or an iterable in which each occurrence is one meeting); ``byes`` how many
    byes each entry had; ``forfeit_wins`` how many matches it won by forfeit (such an
    entry is, like one that had a bye, not given the bye while another can take it);
    ``floats`` each entry's floats so far (:func:`swiss_history`); ``fixed`` pairings
    the director set by hand (kept as given); ``forbidden`` pairings the director ruled
    out. One maximum-weight matching chooses the pairs and the bye together (the
    priorities are in :func:`_swiss_weights`). Raises PairingError when the forbidden
    pairings leave no way to pair everybody.
    """
    meetings = _meeting_counts(played)
    forbidden_set = set(forbidden)
    if len(set(ranked)) != len(ranked):
        raise PairingError("an entry is listed twice")
    in_fixed = [e for pair in fixed for e in pair]
    if len(set(in_fixed)) != len(in_fixed) or not set(in_fixed) <= set(ranked):
        raise PairingError("a manual pairing names an entry twice or one not in the round")
    rest = [e for e in ranked if e not in set(in_fixed)]
    floats = floats or {}
    forfeit_wins = forfeit_wins or {}
    pairs: list[tuple[int, int]] | None
    bye: int | None = None
    if len(rest) % 2 == 0:
        pairs = _perfect_matching(rest, _swiss_weights(rest, scores, meetings, forbidden_set,
                                                       floats, seed, None, ()))
    else:
        bye_node = min(ranked) - 1  # a node no entry uses
        unplayed = {e: byes.get(e, 0) + forfeit_wins.get(e, 0) for e in rest}
        fewest = min(unplayed.values())
        pairs = None
        for eligible in ([e for e in rest if unplayed[e] == fewest], rest):
            pairs = _perfect_matching([*rest, bye_node], _swiss_weights(
                rest, scores, meetings, forbidden_set, floats, seed, bye_node, eligible))
            if pairs is not None:
                break
        if pairs is not None:
            bye = next(a if b == bye_node else b for a, b in pairs if bye_node in (a, b))
            pairs = [p for p in pairs if bye_node not in p]
    if pairs is None:
        raise PairingError("the forbidden pairings leave no way to pair this round")
    order = {e: i for i, e in enumerate(ranked)}
    every = [tuple(sorted(p, key=order.__getitem__)) for p in [*fixed, *pairs]]
    every.sort(key=lambda p: order[p[0]])
    rematches = sum(1 for a, b in every if meetings[pair_key(a, b)])
    thirds = sum(1 for a, b in every if meetings[pair_key(a, b)] >= 2)
    return SwissRound(pairs=every, bye=bye, rematches=rematches,  # type: ignore[arg-type]
                      third_meetings=thirds)


def seeded_pairs(seeded: Sequence[int],
                 forbidden: Iterable[frozenset[int]] = ()) -> list[tuple[int, int]]:
    """A first round seeded by strength: ``seeded`` best first, the top half meets the
    bottom half in order (1 v k+1, 2 v k+2 …), the lowest-seeded entry of an odd field
    left out (the bye). Forbidden pairings are left out too: the caller pairs the
    entries they leave (:func:`pair_swiss` with these pairs as ``fixed``)."""
    field = list(seeded[: len(seeded) - len(seeded) % 2])
    half = len(field) // 2
    banned = set(forbidden)
    return [(a, b) for a, b in zip(field[:half], field[half:], strict=True)
            if pair_key(a, b) not in banned]


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
