"""Seasons: a club director names a season and puts the club's events in it."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.events import send_event_on_commit
from games.tournaments import permissions, publish
from games.tournaments.models import Club, Season
from games.tournaments.services import audit
from games.tournaments.services.events import lock_tournament
from kozel_site import names


def create_season(club_id: object, user: User | None, name: object) -> Season:
    """A club director opens a named season (names are unique in the club)."""
    text = " ".join(str(name or "").split())
    if not 2 <= len(text) <= 60:
        raise InvalidRequestError(_("A season's name has 2 to 60 characters."))
    if names.hidden_characters(text):
        raise InvalidRequestError(
            _("A name cannot contain invisible or text-direction characters."))
    if isinstance(club_id, bool) or not isinstance(club_id, int):
        raise NotFoundError(_("No such club."))
    with transaction.atomic():
        club = Club.objects.select_for_update().filter(pk=club_id).first()
        if club is None:
            raise NotFoundError(_("No such club."))
        if not permissions.can_direct(club, user):
            raise PermissionDeniedError(_("Only the club's owner and directors run seasons."))
        try:
            with transaction.atomic():
                season = Season.objects.create(club=club, name=text)
        except IntegrityError:
            raise InvalidRequestError(_("The club already has a season of that name.")) from None
        audit.record(club, user, "season.create", name=text)
    return season


def set_season(tournament_id: int, user: User | None, season_id: object) -> str:
    """Put the event in one of its club's seasons ("" or 0: in none)."""
    raw = str(season_id or "").strip()
    try:
        wanted = int(raw) if raw else 0
    except ValueError:
        raise InvalidRequestError(_("Choose a season from the list.")) from None
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not permissions.can_direct_event(t, user):
            raise PermissionDeniedError(_("Only the event's directors can do that."))
        season = None
        if wanted:
            season = Season.objects.filter(pk=wanted, club=t.club).first()
            if season is None:
                raise InvalidRequestError(_("Choose a season from the list."))
        if t.season_id != (season.pk if season else None):
            t.season = season
            t.save(update_fields=["season"])
            audit.record(t.club, user, "tournament.season", tournament=t,
                         season=season.name if season else "")
            send_event_on_commit(*publish.changed(t.pk))
    return (_("The event counts for %(season)s.") % {"season": season.name} if season
            else _("The event is in no season."))
