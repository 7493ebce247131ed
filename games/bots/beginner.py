"""The beginner bot: random among its legal actions, with one rule of sense.

It never throws away a trick worth 10 or more points that it is *certain* to
take.  "Certain" is judged from what the seat can see (R19) and is sound: it
beats now and either nobody plays after it in this trick (R10: the last beater
takes), or its beating set holds a card that no unseen card can beat — every
card of a top set needs its own beater (R9), so such a set cannot be topped.
(A later molodka could restart the trick, but that throws nothing away.)
"""

from __future__ import annotations

import random

from games.engine import Action, SeatView

from .heuristics import mask_points, unbeatable
from .knowledge import mask_of_codes, read_view

__all__ = ["beginner_policy", "certain_beats"]

#: R3 points from which a certain trick must be taken.
WORTH: int = 10


def certain_beats(view: SeatView) -> list[Action]:
    """The seat's beats that surely take the trick (see the module docstring)."""
    beats = [a for a in view.legal if a.kind == "beat"]
    if not beats or view.turn != view.seat:
        return []
    played = sum(1 for e in view.table if e is not None)
    if played == 3:
        return beats
    kn = read_view(view)
    return [a for a in beats if unbeatable(a.mask, kn.live, kn.trump)]


def beginner_policy(view: SeatView, rng: random.Random) -> Action | None:
    """Policy (R19: the view only): uniform among legal actions, except that a
    certain trick of 10+ visible points is always taken.  Off turn it announces
    its molodka (R11) half of the times it is asked."""
    if not view.legal:
        return None
    if view.turn != view.seat:
        return view.legal[0] if rng.random() < 0.5 else None
    if view.k:
        points = sum(
            mask_points(_mask(e["cards"])) for e in view.table
            if e is not None and e["kind"] != "discard"
        )
        if points >= WORTH:
            sure = certain_beats(view)
            if sure:
                return sure[int(rng.random() * len(sure))]
    return view.legal[int(rng.random() * len(view.legal))]


def _mask(codes: list[str]) -> int:
    return mask_of_codes(codes)
