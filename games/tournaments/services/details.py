"""An event's description, rules text and prizes: plain text a director writes and every
visitor reads (the page escapes it and keeps its line breaks)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import PermissionDeniedError
from games.events import send_event_on_commit
from games.tournaments import permissions, publish
from games.tournaments.services import audit
from games.tournaments.services.events import lock_tournament
from games.tournaments.services.texts import EventDetails, clean_details


def update_details(tournament_id: int, user: User | None, d: EventDetails) -> None:
    """A director (or the event's co-director) rewrites the description, rules and
    prizes; audited with the fields that changed."""
    clean = clean_details(d)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not permissions.can_direct_event(t, user):
            raise PermissionDeniedError(_("Only the event's directors can do that."))
        changed = [f for f in ("description", "rules_text", "prizes")
                   if getattr(t, f) != getattr(clean, f)]
        for field in changed:
            setattr(t, field, getattr(clean, field))
        if changed:
            t.save(update_fields=changed)
            audit.record(t.club, user, "tournament.details", tournament=t, fields=changed)
            send_event_on_commit(*publish.changed(t.pk))
