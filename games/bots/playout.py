"""Playouts on full-information worlds: a fast greedy policy and the game value.

The searching bots (:mod:`games.bots.search`) finish each sampled world with
these playouts.  A world is the bot's own guess (see
:mod:`games.bots.sampling`), so the playout policy may look at every hand in
it; it plays the same card sense as the casual bot
(:mod:`games.bots.heuristics`), with a little randomness so that playouts
differ, because a uniformly random playout plays Kozel so badly (beating
partners, throwing aces away) that it misjudges almost every decision.
"""

from __future__ import annotations

import random
from typing import Final

from games.engine import fast
from games.engine.actions import Action
from games.engine.fast import (
    HANDS,
    HOLDERS,
    MOLODKA_DISTANCE,
    ORIGINAL_LEADER,
    PILES,
    TRICKS,
    TURN,
    Core,
)
from games.engine.rules import molodka_action
from games.engine.scoring import score

from .heuristics import CASUAL, CardSense, mask_points

__all__ = ["greedy_action", "playout", "sense_action", "utility"]

FULL: Final = (1 << 36) - 1
#: Utility weights: loss points (R16) are what a series counts; the card-point
#: margin is a smoother signal of the same thing, so fewer samples are needed.
LOSS_WEIGHT = 1.0
MARGIN_WEIGHT = 0.5


def _molodka(core: Core, quiet: int) -> tuple[int, Action] | None:
    """R11 in playouts: the nearest eligible holder announces at once (a molodka
    takes all sixteen cards in hand unless somebody beats all four)."""
    if not (core[HOLDERS] and core[MOLODKA_DISTANCE]):
        return None
    seats = [s for s in fast.molodka_seats(core) if s != quiet]
    if not seats:
        return None
    orig = core[ORIGINAL_LEADER]
    seat = min(seats, key=lambda s: (s - orig) & 3)
    return seat, molodka_action(core[HANDS][seat])


def greedy_action(
    core: Core, rng: random.Random, eps: float = 0.1, sense: CardSense = CASUAL
) -> tuple[int, Action]:
    """The playout policy's ``(seat, action)``: a molodka if one is held, else
    the card sense ``sense`` (:mod:`games.bots.heuristics`) on full information,
    else (with probability ``eps``) a uniformly random legal action."""
    found = _molodka(core, -1)
    if found is not None:
        return found
    turn: int = core[TURN]
    if eps and rng.random() < eps:
        options = [a for a in fast.legal(core) if a.code != 3]
        return turn, options[int(rng.random() * len(options))]
    return turn, sense_action(core, turn, sense)


def sense_action(core: Core, turn: int, sense: CardSense) -> Action:
    """The normal action (R8/R9) of seat ``turn`` on a full-information world
    by the card sense ``sense``."""
    # Hot path: once per step of every playout (hundreds of playouts per
    # club/strong decision), so the core is read by literal positions (0 HANDS,
    # 2 TRUMP, 8 K, 9 TOP, 10 TOP_SEAT, 11 TABLE, 13 PILES, 17 PLAYED; see
    # games.engine.fast): a constant index instead of a global lookup per read.
    hands = core[0]
    hand = hands[turn]
    trump = core[2]
    piles = core[13]
    # Cards the others may still play (their hands and the stock): every card
    # not in this hand, a trick pile or on the table (R10, 36 in all).
    used = hand | piles[0] | piles[1]
    k = core[8]
    played = core[17]
    opp_hands = None
    if sense.params.seen_holds:
        # The opponents still to play this trick: the next seat, and the one
        # after the partner if he has not played yet (R1).
        opp_hands = tuple(hands[(turn + d) & 3] for d in (1, 3) if d <= 3 - played)
    if k == 0:
        return sense.lead(hand, trump, FULL ^ used, opp_hands)
    pts = 0
    for a in core[11]:
        if a is not None:
            used |= a.mask
            pts += mask_points(a.mask)
    return sense.reply(
        hand, k, core[9], (core[10] ^ turn) == 2, played, pts, trump, FULL ^ used, opp_hands
    )


def _loss_margin(pa: int, a_took: bool, b_took: bool) -> int:
    loss, _, _ = score({"A": pa, "B": 120 - pa}, {"A": int(a_took), "B": int(b_took)})
    return loss["B"] - loss["A"]


#: ``_LOSS_MARGIN[pa][a took a trick][b took a trick]``: R16 loss points given
#: minus taken by team A, read off :func:`~games.engine.scoring.score` once.
_LOSS_MARGIN: Final = tuple(
    tuple(tuple(_loss_margin(pa, a, b) for b in (False, True)) for a in (False, True))
    for pa in range(121)
)


def utility(core: Core, team: int, loss_value: tuple[float, ...] | None = None) -> float:
    """The finished game's value for ``team`` (0 = A, 1 = B): loss points given
    minus loss points taken (R16), plus a small share of the card-point margin
    so that searches prefer the larger win among equal loss points.

    ``loss_value`` (see :func:`games.bots.equity.loss_values`) replaces the
    plain loss-point margin by what each result is worth at the series score.
    """
    pa = mask_points(core[PILES][0])
    tricks: tuple[int, int] = core[TRICKS]
    loss = _LOSS_MARGIN[pa][tricks[0] > 0][tricks[1] > 0]
    margin = MARGIN_WEIGHT * ((pa - 60) / 60.0)
    if team:
        loss, margin = -loss, -margin
    if loss_value is None:
        return LOSS_WEIGHT * loss + margin
    return loss_value[loss + 6] + margin


def playout(
    core: Core,
    rng: random.Random,
    team: int,
    eps: float = 0.1,
    quiet: int = -1,
    sense: CardSense = CASUAL,
    loss_value: tuple[float, ...] | None = None,
) -> float:
    """Play ``core`` to the end (R14) with :func:`greedy_action`; its utility for
    ``team``.  ``quiet`` is a seat that stays silent about its molodka until
    the current trick ends (to value "not announcing now", R11)."""
    # Hot path: the loop every club/strong decision spends its time in; it reads
    # the core by literal positions (7 TURN, 12 MOLODKA_DISTANCE, 15
    # TRICKS_COMPLETED, 18 HOLDERS; see games.engine.fast) for the reason given in
    # sense_action.
    step = fast.step
    done = core[15]
    while core[7] is not None:
        if quiet >= 0 and core[15] != done:
            quiet = -1
        found = _molodka(core, quiet) if core[18] and core[12] else None
        if found is None:
            turn = core[7]
            if eps and rng.random() < eps:
                options = [a for a in fast.legal(core) if a.code != 3]
                action = options[int(rng.random() * len(options))]
            else:
                action = sense_action(core, turn, sense)
            core = step(core, turn, action)
        else:
            core = step(core, found[0], found[1])
    return utility(core, team, loss_value)
