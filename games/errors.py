"""Typed service errors. Each has a stable ``code`` and a human ``message``.

Consumers and views map them to ``{"type": "error", "code", "message"}`` frames or
form errors; nothing is changed when one is raised (the transaction rolls back).
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every refusal a service can give."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidRequestError(ServiceError):
    """The request itself is malformed (bad fields, wrong types, out of range)."""

    code = "invalid"


class NotFoundError(ServiceError):
    """No such table or game, or the actor may not know it exists."""

    code = "not_found"


class NoGameError(ServiceError):
    """No game is being played at this table right now."""

    code = "no_game"


class PermissionDeniedError(ServiceError):
    """The actor may not do this (not the owner, not seated, not verified)."""

    code = "forbidden"


class TableStateError(ServiceError):
    """The table is not in a state that allows this (e.g. the series has started)."""

    code = "table_state"


class SeatTakenError(ServiceError):
    """The seat is occupied or the player already sits elsewhere at this table."""

    code = "seat_taken"


class NotYourSeatError(ServiceError):
    """The actor does not occupy a seat that may act in this game."""

    code = "not_your_seat"


class StaleVersionError(ServiceError):
    """The action was chosen on an older version of the game; resync and retry."""

    code = "stale"

    def __init__(self, message: str, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class IllegalMoveError(ServiceError):
    """The engine refused the action (``engine.IllegalActionError``), in the player's
    language; the message names the rule."""

    code = "illegal"


class GameOverError(ServiceError):
    """The game has ended; no more actions are taken."""

    code = "game_over"


class PlayingElsewhereError(TableStateError):
    """The actor holds a seat in a series being played at another table (theirs, or kept
    warm by a bot). Never two games at once, never stuck: whoever shows this refusal
    offers both ways out, back to ``table_id`` or leaving it (a bot plays on) and asking
    again with ``leave_current`` (games/services/elsewhere.py)."""

    code = "playing_elsewhere"

    def __init__(self, message: str, table_id: int, table_name: str, ranked: bool) -> None:
        super().__init__(message)
        self.table_id = table_id
        self.table_name = table_name
        self.ranked = ranked
