"""The append-only audit log of owners' and directors' actions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.tournaments.models import AuditEntry, Club, Tournament


def record(club: Club, actor: User | None, action: str, *, reason: str = "",
           tournament: Tournament | None = None, **details: Any) -> AuditEntry:
    """Append one entry (inside the caller's transaction: it stands or falls with it)."""
    return AuditEntry.objects.create(
        club=club, tournament=tournament, actor_id=getattr(actor, "pk", None),
        action=action, reason=reason[:300], details=details)
