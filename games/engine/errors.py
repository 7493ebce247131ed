"""Error types of the engine.

Every refusal names the rule it enforces (``"R9: 7♠ cannot beat A♥"``).
"""

from __future__ import annotations

__all__ = ["EngineError", "IllegalActionError", "InvalidPositionError"]


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError, ValueError):
    """An action that the rules (R8–R11, R14) do not allow right now.

    The message names the rule, e.g. ``"R8: a lead must be cards of one suit"``.
    The state the action was applied to is left unchanged (states are immutable).
    """


class InvalidPositionError(EngineError, ValueError):
    """A position (or serialized state) that is not a legal Kozel situation."""
