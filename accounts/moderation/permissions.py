"""Who may act as a moderator: one check that every moderation service calls first."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from accounts.moderation import selectors
from games.errors import PermissionDeniedError


def require_moderator(actor: User | None,
                      perm: str = "moderation.add_sanction") -> User:
    """The actor is a signed-in, unsuspended moderator holding ``perm``."""
    if actor is None or not actor.is_authenticated or not actor.is_active:
        raise PermissionDeniedError(_("Only moderators can do that."))
    if not actor.has_perm(perm) or selectors.suspension_of(actor) is not None:
        raise PermissionDeniedError(_("Only moderators can do that."))
    return actor
