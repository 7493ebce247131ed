"""The bot ladder: ``beginner`` < ``casual`` < ``club`` < ``strong``.

Every policy is a :data:`games.engine.Policy`: it is given only a
:class:`~games.engine.SeatView` (R19) and a seeded ``random.Random``, and
returns an action, or ``None`` to stay silent when it is not on turn (the
service also asks bots that may announce a molodka out of turn, R11).
Decisions are deterministic given the rng.  Run a bot by its level through
:mod:`games.bots.registry` (``get_policy``), which adds the engine's own
``random`` below the ladder; the engine never imports this package.

* ``beginner``: random, but never throws away a certain trick of 10+ points.
* ``casual``: rule-based card sense (the server's timeout bot).
* ``club``: PIMC, 48 sampled worlds, greedy playouts, p95 ~40 ms (cap 90 ms).
* ``strong``: weighted worlds, three times as many, exact endgame, p95 ~200 ms
  (cap 270 ms).

Time caps (CPU time of the deciding thread): :data:`games.bots.search.CLUB` /
:data:`~games.bots.search.STRONG`, or the ``KOZEL_BOT_TIME_CAP_MS`` /
``KOZEL_STRONG_TIME_CAP_MS`` environment variables (milliseconds, read at
import).  They sit 10% under the p95 targets of 100 and 300 ms on one core:
the cap is checked between worlds, so a capped search overruns it by the
world in hand.
"""

from __future__ import annotations

import random

from games.engine import Action, Policy, SeatView

from .beginner import beginner_policy
from .casual import casual_policy
from .search import CLUB, STRONG, decide

__all__ = ["POLICIES", "club_policy", "strong_policy"]


def club_policy(view: SeatView, rng: random.Random) -> Action | None:
    """PIMC with :data:`~games.bots.search.CLUB` (R19: the view only)."""
    return decide(view, rng, CLUB)


def strong_policy(view: SeatView, rng: random.Random) -> Action | None:
    """PIMC with :data:`~games.bots.search.STRONG` (R19: the view only)."""
    return decide(view, rng, STRONG)


#: Bot levels by name, weakest first (:mod:`games.bots.registry` adds the
#: engine's ``random`` below them).
POLICIES: dict[str, Policy] = {
    "beginner": beginner_policy,
    "casual": casual_policy,
    "club": club_policy,
    "strong": strong_policy,
}

