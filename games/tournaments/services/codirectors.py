"""Co-directors: a club director names a club member to run one event with them.

A co-director has the director's powers for that event only
(``permissions.can_direct_event``); naming or removing co-directors stays with the
club's directors, so a co-director cannot hand the event on.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import InvalidRequestError, PermissionDeniedError
from games.events import send_event_on_commit
from games.tournaments import permissions, publish
from games.tournaments.services import audit
from games.tournaments.services.clubs import user_by_name
from games.tournaments.services.events import lock_tournament

MAX_CO_DIRECTORS = 5


def add_co_director(tournament_id: int, user: User | None, username: object) -> str:
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not permissions.can_direct(t.club, user):
            raise PermissionDeniedError(
                _("Only the club's owner and directors name co-directors."))
        person = user_by_name(username)
        if not permissions.is_member(t.club, person):
            raise InvalidRequestError(_("%(name)s is not a member of the club.") % {
                "name": person.get_username()})
        if permissions.can_direct(t.club, person):
            raise InvalidRequestError(_("%(name)s directs the club's events already.") % {
                "name": person.get_username()})
        if t.co_directors.filter(pk=person.pk).exists():
            raise InvalidRequestError(_("%(name)s is a co-director already.") % {
                "name": person.get_username()})
        if t.co_directors.count() >= MAX_CO_DIRECTORS:
            raise InvalidRequestError(_("An event has at most %(n)s co-directors.") % {
                "n": MAX_CO_DIRECTORS})
        t.co_directors.add(person)
        audit.record(t.club, user, "codirector.add", tournament=t,
                     user=person.get_username())
        send_event_on_commit(*publish.changed(t.pk))
    return _("%(name)s co-directs this event.") % {"name": person.get_username()}


def remove_co_director(tournament_id: int, user: User | None, username: object) -> str:
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not permissions.can_direct(t.club, user):
            raise PermissionDeniedError(
                _("Only the club's owner and directors name co-directors."))
        person = user_by_name(username)
        if not t.co_directors.filter(pk=person.pk).exists():
            raise InvalidRequestError(_("%(name)s is not a co-director.") % {
                "name": person.get_username()})
        t.co_directors.remove(person)
        audit.record(t.club, user, "codirector.remove", tournament=t,
                     user=person.get_username())
        send_event_on_commit(*publish.changed(t.pk))
    return _("%(name)s no longer co-directs this event.") % {"name": person.get_username()}
