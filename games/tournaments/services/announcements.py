"""A director's announcement to the club's members or to one event's players.

It is stored (the club's or the event's page shows the latest ones) and, after commit,
``games.signals.announcement_made`` hands it to the notification centre, which tells
every recipient and e-mails those who opted into announcements (their settings; every
such e-mail can unsubscribe). A club may send at most ``DAILY_LIMIT`` a day, so that a
director cannot flood its members' inboxes.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import signals
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.events import after_commit
from games.tournaments import permissions
from games.tournaments.models import (
    ANNOUNCEMENT_MAX,
    Announcement,
    Club,
    Entry,
    Membership,
    Tournament,
)
from games.tournaments.services import audit
from games.tournaments.services.events import lock_tournament
from games.tournaments.services.texts import plain_text

DAILY_LIMIT = 10
Audience = Announcement.Audience


def _recipients(club: Club, tournament: Tournament | None, author: User) -> list[int]:
    """Who hears it: the club's active members, or the people of the event's entries
    that still play (a pending partner included: they were asked to play)."""
    if tournament is None:
        ids = set(Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)
                  .values_list("user_id", flat=True))
    else:
        ids = set()
        for p1, p2 in (tournament.entries.exclude(status__in=[Entry.Status.WITHDRAWN,
                                                               Entry.Status.DISQUALIFIED])
                       .values_list("player1_id", "player2_id")):
            ids.update(u for u in (p1, p2) if u)
    ids.discard(author.pk)
    return sorted(ids)


def announce(user: User | None, text: object, *, club_id: object = None,
             tournament_id: object = None) -> Announcement:
    """Send ``text`` to a club's members (``club_id``: a club director) or to an event's
    players (``tournament_id``: the event's directors and co-directors)."""
    if user is None or not user.is_authenticated:
        raise PermissionDeniedError(_("Sign in first."))
    body = plain_text(text, ANNOUNCEMENT_MAX, _("An announcement"))
    if not body:
        raise InvalidRequestError(_("Write the announcement first."))
    with transaction.atomic():
        tournament: Tournament | None = None
        if tournament_id is not None:
            tournament = lock_tournament(tournament_id)
            club = tournament.club
            if not permissions.can_direct_event(tournament, user):
                raise PermissionDeniedError(_("Only the event's directors can do that."))
        else:
            if isinstance(club_id, bool) or not isinstance(club_id, int):
                raise NotFoundError(_("No such club."))
            found = Club.objects.select_for_update().filter(pk=club_id).first()
            if found is None:
                raise NotFoundError(_("No such club."))
            club = found
            if not permissions.can_direct(club, user):
                raise PermissionDeniedError(
                    _("Only the club's owner and directors can announce to the club."))
        since = timezone.now() - timedelta(days=1)
        if club.announcements.filter(created_at__gte=since).count() >= DAILY_LIMIT:
            raise InvalidRequestError(
                _("A club sends at most %(n)s announcements a day.") % {"n": DAILY_LIMIT})
        recipients = _recipients(club, tournament, user)
        announcement = Announcement.objects.create(
            club=club, tournament=tournament, author=user, text=body,
            audience=Audience.PLAYERS if tournament else Audience.CLUB,
            recipients=len(recipients))
        audit.record(club, user, "announcement", tournament=tournament,
                     audience=announcement.audience, recipients=len(recipients))
        url = (reverse("tournaments:tournament", args=[tournament.pk]) if tournament
               else reverse("tournaments:club", args=[club.slug]))
        after_commit(partial(signals.announcement_made.send, sender=Announcement,
                             announcement_id=announcement.pk, club_name=club.name,
                             tournament_name=tournament.name if tournament else "",
                             author_name=user.get_username(), text=body, url=url,
                             user_ids=recipients))
    return announcement
