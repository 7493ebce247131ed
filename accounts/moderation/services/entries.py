"""Site moderators in club events: disqualify an entry (a cheater) from any club's
tournament. The tournament's own tool does it (games.tournaments.services.director),
so its audit log has the entry; the moderation log has it too, in the same
transaction, naming every person of the entry."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.moderation.models import ModerationLog
from accounts.moderation.permissions import require_moderator
from accounts.moderation.services import log
from accounts.moderation.services.sanctions import _reason, _require_target
from games.errors import NotFoundError
from games.tournaments.models import Entry
from games.tournaments.services import director


def disqualify_entry(actor: Any, entry_id: Any, reason: Any, subject: Any = None) -> Entry:
    """Disqualify ``entry_id`` from its tournament: no longer paired, no place."""
    actor = require_moderator(actor)
    if isinstance(entry_id, str) and entry_id.isdigit() and len(entry_id) < 19:
        entry_id = int(entry_id)
    if isinstance(entry_id, bool) or not isinstance(entry_id, int):
        raise NotFoundError(_("No such entry in this tournament."))
    clean = _reason(reason)
    found = Entry.objects.select_related("player1", "player2").filter(pk=entry_id).first()
    if found is None:
        raise NotFoundError(_("No such entry in this tournament."))
    people = [p for p in (found.player1, found.player2) if p is not None]
    for person in people:
        _require_target(actor, person)  # not oneself, a moderator only by an administrator
    with transaction.atomic():
        entry = director.disqualify_by_site(found.tournament_id, entry_id, actor, clean)
        log.record(actor, ModerationLog.Action.DISQUALIFY,
                   subject if subject is not None else (people[0] if people else None), clean,
                   target=f"entry:{entry.pk}", before={"status": found.status},
                   after={"status": Entry.Status.DISQUALIFIED,
                          "tournament": found.tournament_id, "entry": found.name,
                          "players": [p.get_username() for p in people]})
    return entry
