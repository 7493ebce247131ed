"""The moderation log: append-only. ``record`` is the one writer; nothing changes or
deletes a row (models.ModerationLog refuses, the admin offers neither, and on
PostgreSQL a trigger refuses UPDATE and DELETE from any client)."""

from __future__ import annotations

from typing import Any

from accounts.moderation.models import LogImmutableError, ModerationLog

__all__ = ["LogImmutableError", "amend", "erase", "record"]


def record(actor: Any, action: str, subject: Any, reason: str = "", *, target: str = "",
           before: dict[str, Any] | None = None,
           after: dict[str, Any] | None = None) -> ModerationLog:
    """Append one entry: who (``actor``; None for the site itself) did ``action`` to
    whom (``subject``), why, to what (``target``), with the state before and after."""
    if action not in ModerationLog.Action.values:
        raise ValueError(f"unknown moderation action {action!r}")
    return ModerationLog.objects.create(
        actor=actor if getattr(actor, "pk", None) else None,
        action=action, subject=subject if getattr(subject, "pk", None) else None,
        reason=str(reason or "")[:2000], target=target[:40],
        before=before or {}, after=after or {})


def amend(entry_id: Any, **changes: Any) -> None:
    """Always refused: the log is append-only (a correction is a new entry)."""
    raise LogImmutableError("The moderation log cannot be changed; record a new entry.")


def erase(entry_id: Any) -> None:
    """Always refused: the log is append-only."""
    raise LogImmutableError("The moderation log cannot be deleted.")
