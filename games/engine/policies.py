"""Bot policies the engine can run (for the protocol's ``bot`` command).

A :data:`~games.engine.observation.Policy` sees only a
:class:`~games.engine.SeatView` (R19) and a ``random.Random``.  The engine
ships ``random``; the ``games.bots`` package, when installed, extends the
registry by exposing ``POLICIES: dict[str, Policy]``.

>>> import random
>>> from games.engine import new_game, observe
>>> action = random_policy(observe(new_game(5, 0), 1), random.Random(0))
>>> action is not None and action.kind
'lead'
"""

from __future__ import annotations

import importlib
import random
import sys

from .actions import Action
from .observation import Policy, SeatView

__all__ = ["policy_registry", "random_policy"]


def random_policy(view: SeatView, rng: random.Random) -> Action | None:
    """Uniformly random among the viewer's legal actions (R8–R11); ``None`` when
    it has none (not on turn and no molodka)."""
    if not view.legal:
        return None
    return view.legal[int(rng.random() * len(view.legal))]


def policy_registry() -> dict[str, Policy]:
    """Every available policy by name: ``random`` plus ``games.bots.POLICIES``
    when that package exists."""
    registry: dict[str, Policy] = {"random": random_policy}
    try:
        bots = importlib.import_module("games.bots")
    except ImportError:
        return registry
    except Exception as exc:  # a broken bots package must not take the engine down
        print(f"warning: games.bots failed to import: {exc!r}", file=sys.stderr)
        return registry
    extra = getattr(bots, "POLICIES", None)
    if isinstance(extra, dict):
        for name, policy in extra.items():
            if isinstance(name, str) and callable(policy):
                registry[name] = policy
    return registry
