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
from games.engine.fast import Core
from games.engine.scoring import score

from .heuristics import choose_lead, choose_reply, mask_points

__all__ = ["greedy_action", "playout", "utility"]

FULL: Final = (1 << 36) - 1
#: Utility weights: loss points (R16) are what a series counts; the card-point
#: margin is a smoother signal of the same thing, so fewer samples are needed.
LOSS_WEIGHT = 1.0
MARGIN_WEIGHT = 0.5


def _molodka(core: Core, quiet: int) -> tuple[int, Action] | None:
    """R11 in playouts: the nearest eligible holder announces at once (a molodka
    takes all sixteen cards in hand unless somebody beats all four)."""
    if not (core[18] and core[12]):
        return None
    seats = [s for s in fast.molodka_seats(core) if s != quiet]
    if not seats:
        return None
    orig = core[6]
    seat = min(seats, key=lambda s: (s - orig) & 3)
    from games.engine.rules import molodka_action

    return seat, molodka_action(core[0][seat])


def greedy_action(core: Core, rng: random.Random, eps: float = 0.1) -> tuple[int, Action]:
    """The playout policy's ``(seat, action)``: a molodka if one is held, else
    the casual card sense of :mod:`games.bots.heuristics` on full information,
    else (with probability ``eps``) a uniformly random legal action."""
    found = _molodka(core, -1)
    if found is not None:
        return found
    turn: int = core[7]
    if eps and rng.random() < eps:
        options = [a for a in fast.legal(core) if a.code != 3]
        return turn, options[int(rng.random() * len(options))]
    return turn, _card_sense(core, turn)


def _card_sense(core: Core, turn: int) -> Action:
    hands = core[0]
    hand = hands[turn]
    trump = core[2]
    k = core[8]
    # Cards the others may still play: their hands and the stock.
    others = 0
    for s in (0, 1, 2, 3):
        if s != turn:
            others |= hands[s]
    for c in core[1]:
        others |= 1 << c
    if k == 0:
        return choose_lead(hand, trump, others, len(core[1]))
    top_seat = core[10]
    table = core[11]
    pts = 0
    for a in table:
        if a is not None:
            pts += mask_points(a.mask)
    return choose_reply(
        hand, k, core[9], (top_seat ^ turn) == 2, core[17], pts, trump, others
    )


def utility(core: Core, team: int) -> float:
    """The finished game's value for ``team`` (0 = A, 1 = B): loss points given
    minus loss points taken (R16), plus a small share of the card-point margin
    so that searches prefer the larger win among equal loss points."""
    piles = core[13]
    pa = mask_points(piles[0])
    tricks = core[14]
    loss, _, _ = score({"A": pa, "B": 120 - pa}, {"A": tricks[0], "B": tricks[1]})
    margin = (pa - 60) / 60.0
    value = LOSS_WEIGHT * (loss["B"] - loss["A"]) + MARGIN_WEIGHT * margin
    return value if team == 0 else -value


def playout(
    core: Core, rng: random.Random, team: int, eps: float = 0.1, quiet: int = -1
) -> float:
    """Play ``core`` to the end (R14) with :func:`greedy_action`; its utility for
    ``team``.  ``quiet`` is a seat that stays silent about its molodka until
    the current trick ends (to value "not announcing now", R11)."""
    step = fast.step
    done = core[15]
    while core[7] is not None:
        if quiet >= 0 and core[15] != done:
            quiet = -1
        found = _molodka(core, quiet)
        if found is None:
            turn = core[7]
            if eps and rng.random() < eps:
                options = [a for a in fast.legal(core) if a.code != 3]
                action = options[int(rng.random() * len(options))]
            else:
                action = _card_sense(core, turn)
            core = step(core, turn, action)
        else:
            core = step(core, found[0], found[1])
    return utility(core, team)
