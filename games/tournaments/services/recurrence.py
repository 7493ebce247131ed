"""Recurring events: every ``recur_weeks`` weeks at the same hour on the club's clock.

The next occurrence is a copy of the event with the same settings (format, rounds,
clocks, description, rules, prizes, season, co-directors) starting ``recur_weeks``
weeks later at the same *local* time in the club's time zone, so a Thursday 19:00 event
stays at 19:00 when daylight saving time begins or ends. It is created when the event
finishes (after commit) and, as a backstop, by the beat (:func:`create_due`).
``recurs_from`` is one-to-one, so an event never gets two next occurrences however often
either path runs.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import InvalidRequestError, PermissionDeniedError, TableStateError
from games.events import send_event_on_commit
from games.tournaments import permissions, publish
from games.tournaments.models import Tournament
from games.tournaments.services import audit
from games.tournaments.services.events import lock_tournament

MAX_WEEKS = 4
# Copied to the next occurrence as they are.
COPIED = ("club_id", "name", "kind", "format", "target", "games_limit", "turn_seconds",
          "rounds", "checkin_seconds", "round_seconds", "break_seconds", "rated",
          "bots_allowed", "created_by_id", "description", "rules_text", "prizes",
          "season_id", "recur_weeks", "boards_per_round", "duplicate_scoring",
          "duplicate_basis")


def zone(name: str) -> ZoneInfo:
    """The named IANA time zone; InvalidRequestError for anything else."""
    if not isinstance(name, str) or name not in available_timezones():
        raise InvalidRequestError(_("Choose a time zone from the list."))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequestError(_("Choose a time zone from the list.")) from None


def next_start(starts_at: datetime, weeks: int, time_zone: str) -> datetime:
    """``starts_at`` plus ``weeks`` weeks of the club's calendar, at the same wall-clock
    time there, in UTC. (Adding a timedelta to an aware datetime keeps its wall time;
    the zone then gives that date's offset.)"""
    local = starts_at.astimezone(zone(time_zone))
    return (local + timedelta(weeks=weeks)).astimezone(ZoneInfo("UTC"))


def set_recurrence(tournament_id: int, user: User | None, weeks: object) -> str:
    """A director makes the event recur every ``weeks`` weeks (0: once)."""
    try:
        count = int(str(weeks))
    except (TypeError, ValueError):
        count = -1
    if not 0 <= count <= MAX_WEEKS:
        raise InvalidRequestError(_("An event repeats every 1 to %(n)s weeks, or never.") % {
            "n": MAX_WEEKS})
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        if not permissions.can_direct_event(t, user):
            raise PermissionDeniedError(_("Only the event's directors can do that."))
        if count and t.starts_at is None:
            raise InvalidRequestError(
                _("Give the event a start time first: it repeats at that hour."))
        if hasattr(t, "next_occurrence"):
            raise TableStateError(_("The next occurrence already exists: change that one."))
        if t.recur_weeks != count:
            t.recur_weeks = count
            t.save(update_fields=["recur_weeks"])
            audit.record(t.club, user, "tournament.recur", tournament=t, weeks=count)
            send_event_on_commit(*publish.changed(t.pk))
    if not count:
        return _("The event does not repeat.")
    return ngettext("The event repeats every week.", "The event repeats every %(n)s weeks.",
                    count) % {"n": count}


def create_next(tournament_id: int) -> Tournament | None:
    """The next occurrence of a finished recurring event, once (None when it is not
    recurring, not finished, or has it already)."""
    with transaction.atomic():
        t = (Tournament.objects.select_for_update(of=("self",)).select_related("club")
             .filter(pk=tournament_id).first())
        if (t is None or not t.recur_weeks or t.starts_at is None
                or t.status != Tournament.Status.FINISHED
                or Tournament.objects.filter(recurs_from=t).exists()):
            return None
        start = next_start(t.starts_at, t.recur_weeks, t.club.time_zone)
        now = timezone.now()
        while start <= now:  # an event that ran late: the first occurrence still ahead
            start = next_start(start, t.recur_weeks, t.club.time_zone)
        try:
            with transaction.atomic():
                nxt = Tournament.objects.create(
                    recurs_from=t, starts_at=start,
                    **{field: getattr(t, field) for field in COPIED})
        except IntegrityError:  # the other path made it a moment ago
            return None
        nxt.co_directors.set(t.co_directors.all())
        audit.record(t.club, None, "tournament.recurrence", tournament=nxt,
                     previous=t.pk, starts_at=start.isoformat())
    return nxt


def create_due(limit: int = 20) -> int:
    """The beat's backstop: next occurrences of finished recurring events that lack one."""
    ids = (Tournament.objects.filter(status=Tournament.Status.FINISHED, recur_weeks__gt=0,
                                     next_occurrence__isnull=True)
           .values_list("pk", flat=True)[:limit])
    return sum(create_next(pk) is not None for pk in list(ids))
