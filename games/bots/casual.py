"""The casual bot: rule-based card sense, seeing only its :class:`SeatView`.

It beats cheaply when the trick holds points, discards low cards, keeps
trumps and aces, does not overbeat a partner who is winning (and throws its
points in when the partner surely takes the trick), leads suit groups that are
hard to beat one-to-one, and announces a molodka as soon as it may (R11: the
restarted trick takes every card in hand, sixteen of them, unless somebody can
beat all four).  The server uses it for timeouts, so it is also the fast one.
"""

from __future__ import annotations

import random

from games.engine import Action, SeatView

from .heuristics import CASUAL, mask_points
from .knowledge import Knowledge, read_view

__all__ = ["casual_policy", "casual_action"]


def casual_action(view: SeatView, kn: Knowledge) -> Action:
    """The casual choice for the seat on turn (its normal action, R8/R9)."""
    trump = kn.trump
    if view.k == 0:
        action = CASUAL.lead(kn.hand, trump, kn.live)
    else:
        top_seat = view.top_seat
        assert top_seat is not None
        points = sum(mask_points(m) for m in kn.table_up)
        played = sum(1 for e in view.table if e is not None)
        action = CASUAL.reply(
            kn.hand, view.k, kn.table_up[top_seat], top_seat == kn.seat ^ 2, played,
            points, trump, kn.live,
        )
    if action not in view.legal:  # never expected; stay legal whatever happens
        normal = [a for a in view.legal if a.kind != "molodka"]
        return normal[0] if normal else view.legal[0]
    return action


def casual_policy(view: SeatView, rng: random.Random) -> Action | None:
    """Policy (R19: the view only).  Deterministic: it never uses ``rng``."""
    if not view.legal:
        return None
    for a in view.legal:
        if a.kind == "molodka":
            return a
    if view.turn != view.seat:
        return None
    return casual_action(view, read_view(view))
