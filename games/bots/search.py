"""The searching bots: Perfect Information Monte Carlo over sampled worlds.

For one decision the bot (a) distils its :class:`~games.engine.SeatView` into
knowledge (:mod:`games.bots.knowledge`), (b) samples full-information worlds
consistent with it (:mod:`games.bots.sampling`; the strong bot samples more
and weights them by what the opponents' discards reveal), (c) values each
candidate action in every world — by a greedy playout to the end of the game
(:mod:`games.bots.playout`) or, once the stock is empty, by an exact
alpha-beta search of the remaining tricks — and (d) plays the best average.
Every candidate is valued on the same worlds with the same playout seed
(common random numbers), so differences between actions are not noise from
the deal.

Budgets are deterministic (worlds and playouts are counted) so a decision
depends only on the view and the rng; a time cap (``time_cap``, also settable
with ``KOZEL_BOT_TIME_CAP_MS`` / ``KOZEL_STRONG_TIME_CAP_MS``) is a safety
net that ends the search early on a slow machine, at the price of that
determinism.  The cap counts the CPU time of the deciding thread
(``time.thread_time``): the target is "p95 on one core", and a shared
machine must not make the bots play worse.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, replace
from typing import Final

from games.engine import Action, SeatView, fast
from games.engine.fast import HANDS, STOCK, TABLE, Core
from games.engine.rules import (
    BEATEN_BY,
    MOLODKA_HANDS,
    beat_actions,
    discard_actions,
    lead_actions,
)

from .casual import casual_action
from .equity import loss_values
from .heuristics import CASUAL, KEEP, CardSense, SenseParams, beat_cost
from .knowledge import Knowledge, read_view
from .playout import playout, utility
from .sampling import SampleError, Slots, slots_of, world_core

__all__ = ["CLUB", "STRONG", "SearchConfig", "decide", "search_policy", "value_actions"]


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Knobs of one searching level.

    ``worlds`` sampled worlds per decision (``oversample`` times as many are
    drawn and resampled by weight when ``weighted``); ``max_candidates`` the
    most actions valued; ``eps`` the playouts' random-move rate; ``endgame``
    the largest hand size at which the exact search replaces playouts once
    the stock is empty (0: never); ``node_budget`` its per-world node cap;
    ``time_cap`` seconds per decision (safety net, see the module docstring);
    ``halving``: after half the worlds only the best third of the candidates
    goes on; ``playouts``: the least number of playouts per decision (spread over more worlds when
    there are few candidates); ``sense`` the playouts' card sense;
    ``series_aware``: value game results by the series score
    (:mod:`games.bots.equity`) when the view carries it.
    """

    worlds: int
    max_candidates: int = 10
    eps: float = 0.1
    weighted: bool = False
    oversample: int = 1
    endgame: int = 0
    node_budget: int = 20_000
    time_cap: float = 0.1
    halving: bool = False
    playouts: int = 0
    sense: CardSense = CASUAL
    series_aware: bool = False


def _env_cap(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = float(raw) / 1000.0
    except ValueError:
        return default
    return value if value > 0 else default


#: The playouts' card sense (:mod:`games.bots.tune`).
PLAYOUT: Final = CardSense(
    SenseParams(trump_base=20.0, trump_points=1.0, partner_behind=0.15)
)
#: The strong level's playouts also judge each set by the opponents' hands in
#: the world (it plays the world out as the sampled cards lie).
SEEN_PLAYOUT: Final = CardSense(replace(PLAYOUT.params, seen_holds=True))

#: The CPU-time targets are p95 100 ms (club) and 300 ms (strong) on one core.
#: The caps sit 10% under them, 90 and 270 ms, as headroom: the cap is only
#: checked between worlds, so a search that reaches it still finishes the world
#: in hand (its candidates' playouts, or an exact endgame) before it stops.
#:
#: Club: 48 worlds, deterministic greedy playouts with the tuned sense, successive
#: halving; 90 ms cap.
CLUB: Final = SearchConfig(
    worlds=48, eps=0.0, halving=True, sense=PLAYOUT,
    time_cap=_env_cap("KOZEL_BOT_TIME_CAP_MS", 0.09),
)
#: Strong: three times the worlds, weighted by the opponents' tells, playouts that
#: read the world's hands, exact endgame, series-aware results; 270 ms cap.
STRONG: Final = SearchConfig(
    worlds=144,
    eps=0.0,
    sense=SEEN_PLAYOUT,
    halving=True,
    weighted=True,
    oversample=3,
    endgame=3,
    node_budget=4_000,
    series_aware=True,
    time_cap=_env_cap("KOZEL_STRONG_TIME_CAP_MS", 0.27),
)


# --- candidates -------------------------------------------------------------------


def _card_classes(kn: Knowledge) -> dict[int, int]:
    """Equivalence classes of the seat's own cards: same suit, same points, and
    every card ranked between them is out of play or in this hand — swapping
    one for the other then changes nothing for anybody."""
    out_of_play = kn.gone | kn.on_table | kn.hand
    classes: dict[int, int] = {}
    for suit in range(4):
        run_start = -1
        run_points = -1
        for rank in range(9):
            i = suit * 9 + rank
            if not out_of_play >> i & 1:
                run_start = -1  # a live card breaks the run
                continue
            if not kn.hand >> i & 1:
                continue  # out of play: does not break the run
            pts = (0, 0, 0, 0, 2, 3, 4, 10, 11)[rank]
            if run_start < 0 or pts != run_points:
                run_start, run_points = i, pts
            classes[i] = run_start
    return classes


def candidates(view: SeatView, kn: Knowledge, limit: int) -> list[Action]:
    """Legal actions worth valuing: one per equivalence class, the casual
    choice first, at most ``limit``."""
    classes = _card_classes(kn)
    seen: set[tuple[str, tuple[int, ...]]] = set()
    unique: list[Action] = []
    for a in view.legal:
        key = (a.kind, tuple(sorted(classes.get(c.index, c.index) for c in a.cards)))
        if key not in seen:
            seen.add(key)
            unique.append(a)
    if view.turn != view.seat:
        return unique
    first = casual_action(view, kn)
    trump = kn.trump
    keep = KEEP[trump]

    def prior(a: Action) -> tuple[int, float]:
        # Molodkas and beats first, then leads and discards by what they give up.
        cost = sum(keep[c.index] for c in a.cards)
        if a.kind == "molodka":
            return (0, 0.0)
        if a.kind == "beat":
            return (1, cost)
        if a.kind == "lead":
            return (2, -len(a.cards) + cost * 0.1)
        return (3, cost + sum(c.points for c in a.cards))

    rest = sorted((a for a in unique if a != first), key=prior)
    out = [first, *rest]
    return out[:limit]


# --- worlds ----------------------------------------------------------------------


def _tell_weight(core: Core, kn: Knowledge) -> float:
    """How plausible a world is given the opponents' tells: a seat that
    discarded against an opponent's single card probably had nothing to beat
    it with, unless it drew cards since (the cards it holds now may be new)."""
    w = 1.0
    hands = core[HANDS]
    beaten_by = BEATEN_BY[kn.trump]
    for tell in kn.tells:
        s = tell.seat
        hand = hands[s]
        size = hand.bit_count()
        if not size:
            continue
        beaters = (hand & beaten_by[tell.top.bit_length() - 1]).bit_count()
        if not beaters:
            continue
        fresh = kn.draws[s] - tell.drawn
        old = max(0.0, (size - fresh) / size)
        q = 0.75 if tell.points >= 10 else 0.45 if tell.points else 0.2
        w *= (1.0 - q * old) ** beaters
    if kn.silent_holders_possible:
        for s in range(4):
            if s != kn.seat and core[TABLE][s] is None and hands[s] in MOLODKA_HANDS:
                w *= 0.3  # it could have announced this molodka (R11) and did not
    return w


def sample_worlds(
    view: SeatView, kn: Knowledge, slots: Slots, rng: random.Random, cfg: SearchConfig,
    count: int,
) -> list[Core]:
    """``count`` worlds; with ``cfg.weighted``, drawn ``oversample`` times over
    and resampled in proportion to :func:`_tell_weight`."""
    if not cfg.weighted or (not kn.tells and not kn.silent_holders_possible):
        return [world_core(kn, view, slots, rng) for _ in range(count)]
    pool = [world_core(kn, view, slots, rng) for _ in range(count * cfg.oversample)]
    weights = [_tell_weight(w, kn) for w in pool]
    total = sum(weights)
    if total <= 0:
        return pool[:count]
    # Systematic resampling: low variance, deterministic given the rng.
    step = total / count
    x = rng.random() * step
    out: list[Core] = []
    acc = 0.0
    j = 0
    for _ in range(count):
        while j < len(pool) - 1 and acc + weights[j] <= x:
            acc += weights[j]
            j += 1
        out.append(pool[j])
        x += step
    return out


# --- exact endgame -----------------------------------------------------------------


class _Budget(Exception):
    """The exact search ran out of nodes."""


def _moves(core: Core) -> list[Action]:
    """The seat on turn's actions, best-first (the greedy choice leads), without
    out-of-turn molodkas: with the stock empty hands shrink, so only the first
    trick could see one, and leading it is a normal lead (R11)."""
    # Hot path: once per node of the exact endgame (thousands per world), so the
    # core is read by literal positions (0 HANDS, 2 TRUMP, 7 TURN, 8 K, 9 TOP; see
    # games.engine.fast): a constant index instead of a global lookup per read.
    turn = core[7]
    hand = core[0][turn]
    k = core[8]
    if k == 0:
        opts = list(lead_actions(hand))
    else:
        opts = list(beat_actions(hand, core[9], core[2]) + discard_actions(hand, k))
    trump = core[2]
    if k:
        # Beats cheap first, then discards cheap first: good cut-offs early.
        opts.sort(key=lambda a: (a.code, beat_cost(a.mask, trump)))
    return opts


class _Exact:
    """Alpha-beta over the remaining tricks of one world (two teams: the
    searching team maximizes :func:`utility`, the other minimizes it)."""

    def __init__(
        self, team: int, budget: int, loss_value: tuple[float, ...] | None = None
    ) -> None:
        self.team = team
        self.budget = budget
        self.loss_value = loss_value
        self.table: dict[Core, float] = {}

    def value(self, core: Core, alpha: float, beta: float) -> float:
        # Hot path (every node of the exact endgame): 7 is TURN, read by literal
        # position as in _moves.
        if core[7] is None:
            return utility(core, self.team, self.loss_value)
        key = core
        found = self.table.get(key)
        if found is not None:
            return found
        self.budget -= 1
        if self.budget < 0:
            raise _Budget
        turn = core[7]
        maximize = (turn & 1) == self.team
        step = fast.step
        best = -1e9 if maximize else 1e9
        a0, b0 = alpha, beta
        for action in _moves(core):
            v = self.value(step(core, turn, action), alpha, beta)
            if maximize:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if a0 < best < b0:
            self.table[key] = best  # exact only: bounds are not stored
        return best


# --- the decision ----------------------------------------------------------------


def decide(view: SeatView, rng: random.Random, cfg: SearchConfig) -> Action | None:
    """Choose an action for ``view``'s seat by PIMC (see the module docstring).

    Off turn the choice is between announcing the molodka (R11) and silence
    (``None``): the latter is valued by playouts in which the seat keeps quiet
    for the rest of this trick.
    """
    if not view.legal:
        return None
    start = time.thread_time()
    kn = read_view(view)
    me = kn.seat
    team = me & 1
    off_turn = view.turn != me
    cands: list[Action | None]
    if off_turn:
        cands = [view.legal[0], None]
    else:
        cands = list(candidates(view, kn, cfg.max_candidates))
        if len(cands) == 1:
            return cands[0]
    try:
        slots = slots_of(kn, view)
    except SampleError:
        return view.legal[0] if not off_turn else None
    # A playout budget, not a world count: a decision between two actions gets
    # as many playouts as one between ten, spread over more worlds.
    budget = max(cfg.worlds * len(cands), cfg.playouts)
    n_worlds = budget // len(cands)
    first_phase = max(1, n_worlds // 2) if cfg.halving and len(cands) > 2 else n_worlds
    # Worlds for the first phase plus the most the survivors (two at least) can use.
    needed = first_phase + -(-(budget - first_phase * len(cands)) // 2)
    worlds = sample_worlds(view, kn, slots, rng, cfg, needed)
    loss_value = _loss_value(view, team) if cfg.series_aware else None
    # Ties go to the earlier candidate: the casual choice (or the molodka off turn).
    sums = [0.0] * len(cands)
    alive = list(range(len(cands)))
    spent = 0
    n = 0
    while spent < budget:
        if n == first_phase and len(alive) > 2:
            # Successive halving: the better third goes on with the saved playouts.
            keep = max(2, len(alive) // 3)
            alive = sorted(alive, key=lambda i: (-sums[i], i))[:keep]
        world = worlds[n % len(worlds)]
        seed = rng.getrandbits(32)
        values = _world_values(world, [cands[i] for i in alive], me, team, seed, cfg, loss_value)
        for i, v in zip(alive, values, strict=True):
            sums[i] += v
        spent += len(alive)
        n += 1
        if time.thread_time() - start > cfg.time_cap:
            break
    best = max(alive, key=lambda i: (sums[i], -i))
    return cands[best]


def value_actions(
    view: SeatView, cands: list[Action | None], rng: random.Random, cfg: SearchConfig
) -> list[float]:
    """The mean value of each of ``cands`` for the view's team over the same sampled
    worlds (``None``: keep quiet off turn, R11), with no halving: what a review of a
    decision needs (every choice valued alike, the one played among them).

    Values are :func:`~games.bots.playout.utility` figures: loss points given minus
    taken, plus a small share of the card-point margin. ``cfg.time_cap`` still bounds
    the search; the worlds valued by then count.
    """
    if not cands:
        return []
    start = time.thread_time()
    kn = read_view(view)
    me = kn.seat
    team = me & 1
    slots = slots_of(kn, view)
    worlds = sample_worlds(view, kn, slots, rng, cfg, cfg.worlds)
    loss_value = _loss_value(view, team) if cfg.series_aware else None
    sums = [0.0] * len(cands)
    n = 0
    for world in worlds:
        seed = rng.getrandbits(32)
        values = _world_values(world, cands, me, team, seed, cfg, loss_value)
        for i, v in enumerate(values):
            sums[i] += v
        n += 1
        if time.thread_time() - start > cfg.time_cap:
            break
    return [s / n for s in sums]


def _loss_value(view: SeatView, team: int) -> tuple[float, ...] | None:
    """What each game result is worth to ``team`` at the view's series score (R18)."""
    if view.series is None:
        return None
    lp = view.series["loss_points"]
    own, other = (lp["A"], lp["B"]) if team == 0 else (lp["B"], lp["A"])
    return loss_values(own, other, view.series["target"])


def _world_values(
    world: Core,
    cands: list[Action | None],
    me: int,
    team: int,
    seed: int,
    cfg: SearchConfig,
    loss_value: tuple[float, ...] | None,
) -> list[float]:
    step = fast.step
    if cfg.endgame and not world[STOCK] and world[HANDS][me].bit_count() <= cfg.endgame:
        exact = _Exact(team, cfg.node_budget, loss_value)
        try:
            out = []
            for a in cands:
                if a is None:
                    out.append(exact.value(world, -1e9, 1e9))
                else:
                    out.append(exact.value(step(world, me, a), -1e9, 1e9))
            return out
        except _Budget:
            pass
    out = []
    for a in cands:
        rng = random.Random(seed)
        if a is None:
            out.append(
                playout(world, rng, team, cfg.eps, quiet=me, sense=cfg.sense, loss_value=loss_value)
            )
        else:
            after = step(world, me, a)
            out.append(playout(after, rng, team, cfg.eps, sense=cfg.sense, loss_value=loss_value))
    return out


def search_policy(cfg: SearchConfig) -> object:
    """A :data:`~games.engine.Policy` running :func:`decide` with ``cfg``."""

    def policy(view: SeatView, rng: random.Random) -> Action | None:
        return decide(view, rng, cfg)

    return policy

