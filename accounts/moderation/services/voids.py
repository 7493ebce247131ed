"""Voiding series: through the one finisher and the ratings service, never around them.

``void_series`` ends (or re-marks) the series with ``Termination.VOIDED`` in
games.services.finish; the finisher fires ``series_finished(..., termination="voided")``
on commit, and the ratings app rolls the series' rating changes back exactly
(games/ratings/services.rollback_series, enqueued by its receiver), so every later
rating and the leaderboard places are as if the series had never been played. Its
games stay in the record; the series is marked void.

``mark_account`` marks a player for cheating or boosting (which also bars ranked play)
and voids their rated series in a chosen window, each in its own transaction.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.moderation.models import ModerationLog, Report, Sanction
from accounts.moderation.permissions import require_moderator
from accounts.moderation.services import log
from accounts.moderation.services.reports import resolve_locked
from accounts.moderation.services.sanctions import (
    _check_confirmed,
    _reason,
    _report_ids,
    _require_target,
    _user,
    create_locked,
)
from games import events
from games.errors import InvalidRequestError, NotFoundError
from games.models import Series, SeriesSeat, Termination
from games.services import finish, locks, publish

VOID_PERM = "moderation.void_series"
MAX_WINDOW_DAYS = 366


def void_series(actor: Any, series_id: Any, reason: Any, report_ids: Any = None,
                subject: Any = None) -> Series:
    """Void one series (playing or finished); its rating changes are rolled back. The log
    entry names ``subject`` (the player it was voided over, when there is one: the
    reported player by default) and every player of the series."""
    actor = require_moderator(actor, VOID_PERM)
    if isinstance(series_id, str) and series_id.isdigit() and len(series_id) < 19:
        series_id = int(series_id)
    if isinstance(series_id, bool) or not isinstance(series_id, int):
        raise NotFoundError(_("No such series."))
    clean = _reason(reason)
    ids = _report_ids(report_ids)
    with transaction.atomic():
        reports = list(Report.objects.select_for_update().select_related("reported")
                       .filter(pk__in=ids)) if ids else []
        if subject is None and reports:
            subject = reports[0].reported
        series = void_locked(actor, series_id, clean, subject=subject)
        if reports:
            resolve_locked(reports, actor, Report.Status.ACTED)
    return series


def void_locked(actor: Any, series_id: int, reason: str, subject: Any = None) -> Series:
    """Lock Table → Series (→ its live game), void, log. Caller is in a transaction."""
    table, series = locks.lock_series(series_id)
    if series.status == Series.Status.VOIDED:
        raise InvalidRequestError(_("That series is already void."))
    if series.status == Series.Status.PLAYING:
        # Lock the live game too (lock order Table → Series → Game): the finisher stops it.
        live, _game = locks.lock_current(table)
        if live is not None and live.pk == series.pk:
            series = live
    before = {"status": series.status, "termination": series.termination}
    finish.end_series_locked(table, series, Termination.VOIDED)
    events.send_events_on_commit(partial(publish.table_changed, table.pk))
    log.record(actor, ModerationLog.Action.VOID_SERIES, subject, reason,
               target=f"series:{series.pk}", before=before,
               after={"status": series.status, "termination": series.termination,
                      "ranked": series.ranked, "table": table.pk,
                      "players": players_of(series.pk)})
    return series


def players_of(series_id: int) -> list[str]:
    """Whom a void touches: the usernames of everyone who held a seat of the series
    (a person a bot replaced included), by seat."""
    names: list[str] = []
    for seat in (SeriesSeat.objects.filter(series_id=series_id).order_by("position")
                 .select_related("user", "away_user")):
        for person in (seat.user, seat.away_user):
            if person is not None and person.get_username() not in names:
                names.append(person.get_username())
    return names


def _as_date(what: str) -> str:
    """The refusal of a bad window bound, one whole message per bound (translatable)."""
    if what == "start":
        return _("Give the start as a date (YYYY-MM-DD).")
    return _("Give the end as a date (YYYY-MM-DD).")


def _moment(value: Any, what: str) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            raise InvalidRequestError(_as_date(what)) from None
    else:
        raise InvalidRequestError(_as_date(what))
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment


def rated_series_of(user_id: int, since: datetime, until: datetime) -> list[int]:
    """Ranked series the person played (or left) that finished in the window, not void."""
    return list(SeriesSeat.objects.filter(Q(user_id=user_id) | Q(away_user_id=user_id),
                                          series__ranked=True,
                                          series__status=Series.Status.FINISHED,
                                          series__finished_at__gte=since,
                                          series__finished_at__lt=until)
                .order_by("series__finished_at", "series_id")
                .values_list("series_id", flat=True).distinct())


def mark_account(actor: Any, user: Any, kind: Any, since: Any, until: Any, reason: Any,
                 report_ids: Any = None, confirm: Any = False) -> tuple[Sanction, list[int]]:
    """Mark ``user`` for cheating or boosting (no ranked play, for good unless lifted)
    and void their rated series that finished in ``[since, until)``. Returns the mark
    and the voided series' ids."""
    actor = require_moderator(actor, VOID_PERM)
    user = _require_target(actor, _user(user))
    if kind not in (Sanction.Kind.CHEATING, Sanction.Kind.BOOSTING):
        raise InvalidRequestError(_("Mark for cheating or for boosting."))
    start, end = _moment(since, "start"), _moment(until, "end")
    if end <= start:
        raise InvalidRequestError(_("The window ends after it starts."))
    if (end - start).days > MAX_WINDOW_DAYS:
        raise InvalidRequestError(_("The window is at most %(days)s days.") % {
            "days": MAX_WINDOW_DAYS})
    clean = _reason(reason)
    ids = _report_ids(report_ids)
    heavy = _check_confirmed(user, kind, None, confirm)
    targets = rated_series_of(user.pk, start, end)
    with transaction.atomic():
        mark = create_locked(actor, user, kind, clean, None, report_ids=ids,
                             needs_confirmation=heavy,
                             details={"window": [start.isoformat(), end.isoformat()],
                                      "series": targets})
    voided = []
    for series_id in targets:
        # One transaction per series keeps each lock short; a series voided meanwhile
        # is skipped.
        with transaction.atomic():
            current = Series.objects.filter(pk=series_id).values_list("status", flat=True).first()
            if current != Series.Status.FINISHED:
                continue
            void_locked(actor, series_id, f"{mark.get_kind_display()}: {clean}", subject=user)
            voided.append(series_id)
    return mark, voided
