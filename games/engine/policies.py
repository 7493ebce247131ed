"""The engine's own bot policy: uniformly random (for the protocol's ``bot`` command).

A :data:`~games.engine.observation.Policy` sees only a
:class:`~games.engine.SeatView` (R19) and a ``random.Random``.  The engine
ships ``random`` and nothing else: it never imports its client, the bot
ladder (an import-linter contract in ``pyproject.toml``).  The registry of
every bot level, this policy included, is :mod:`games.bots.registry`, above
both packages; the protocol gets its policies from its caller
(:class:`games.engine.protocol.Session`).

>>> import random
>>> from games.engine import new_game, observe
>>> action = random_policy(observe(new_game(5, 0), 1), random.Random(0))
>>> action is not None and action.kind
'lead'
>>> sorted(BUILTIN_POLICIES)
['random']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .actions import Action
from .observation import Policy, SeatView

__all__ = ["BUILTIN_POLICIES", "random_policy"]


def random_policy(view: SeatView, rng: random.Random) -> Action | None:
    """Uniformly random among the viewer's legal actions (R8–R11); ``None`` when
    it has none (not on turn and no molodka)."""
    if not view.legal:
        return None
    return view.legal[int(rng.random() * len(view.legal))]


#: The policies the engine itself offers, by name (read-only): what
#: ``python -m games.engine.protocol`` serves when no caller passes others.
BUILTIN_POLICIES: Final[Mapping[str, Policy]] = MappingProxyType({"random": random_policy})
