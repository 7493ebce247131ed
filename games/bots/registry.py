"""Every bot level by name: the one registry.

A level is the engine's uniform ``random`` policy
(:func:`games.engine.policies.random_policy`) or one of the ladder's
(:data:`games.bots.POLICIES`).  The registry sits above both packages: the
engine never imports the bots (an import-linter contract in
``pyproject.toml``), and everything that runs a bot by its level asks here —
the play service, the arena, the bench and ``python -m games.bots.protocol``.

An unknown level is an error, never a silent random player:

>>> levels()
['random', 'beginner', 'casual', 'club', 'strong']
>>> get_policy("grandmaster")
Traceback (most recent call last):
...
games.bots.registry.UnknownBotLevelError: unknown bot level 'grandmaster'; known: random, beginner, casual, club, strong
"""  # noqa: E501

from __future__ import annotations

from games.engine import Policy
from games.engine.policies import random_policy

from . import POLICIES

__all__ = ["UnknownBotLevelError", "get_policy", "levels", "policies"]

#: The engine's own level, below the ladder.
RANDOM = "random"


class UnknownBotLevelError(KeyError):
    """No bot plays level ``level``; ``known`` lists the levels that exist."""

    def __init__(self, level: object, known: list[str]) -> None:
        super().__init__(level)
        self.level = level
        self.known = known

    def __str__(self) -> str:  # KeyError's own str() would only quote the level
        return f"unknown bot level {self.level!r}; known: {', '.join(self.known)}"


def policies() -> dict[str, Policy]:
    """Every level's policy by name, weakest first: ``random``, then the ladder.

    Built from :data:`games.bots.POLICIES` at each call, so it sees whatever
    that mapping holds now (tests replace a level in it).
    """
    return {RANDOM: random_policy, **POLICIES}


def levels() -> list[str]:
    """The names of every bot level, weakest first."""
    return list(policies())


def get_policy(level: str) -> Policy:
    """The policy that plays ``level``.

    Raises :class:`UnknownBotLevelError` (a ``KeyError``) naming the level and
    the known levels when no bot plays it.
    """
    registry = policies()
    try:
        return registry[level]
    except (KeyError, TypeError):  # TypeError: an unhashable level
        raise UnknownBotLevelError(level, list(registry)) from None
