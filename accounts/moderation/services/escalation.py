"""Automatic escalation for repeated abandonment (lichess's playban).

When a ranked series ends, each person who abandoned it (a bot took their seat after
two timeouts in a row, 60 s away on their turn, or leaving: Conduct "abandon") is
counted: the ranked series they abandoned within ``ABANDON_WINDOW_DAYS``. Past
``ABANDON_FREE`` of them, a ranked ban follows, longer each time
(``ABANDON_BAN_MINUTES``; conf.py documents the defaults). A moderator's suspension
taking the seat is not an abandonment the player chose and is not counted.

Exactly once per person and series: the ban names the series it answers, and a second
run (a redelivered task) finds it and does nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.language import recipient_language
from accounts.moderation.conf import moderation_settings
from accounts.moderation.models import ModerationLog, Sanction
from accounts.moderation.services.sanctions import create_locked
from games.models import Conduct, Series

COUNTED_REASONS = (Conduct.Reason.TIMEOUTS, Conduct.Reason.DISCONNECT, Conduct.Reason.LEFT)


def abandoned_series_count(user_id: int, until: Any = None) -> int:
    """Ranked series the person abandoned in the window ending ``until`` (now)."""
    until = until or timezone.now()
    since = until - timedelta(days=moderation_settings.ABANDON_WINDOW_DAYS)
    return (Conduct.objects.filter(user_id=user_id, kind=Conduct.Kind.ABANDON,
                                   reason__in=COUNTED_REASONS, series__ranked=True,
                                   created_at__gte=since, created_at__lte=until)
            .values("series_id").distinct().count())


def ban_minutes(count: int) -> int | None:
    """The ranked ban for the ``count``-th abandoned series in the window (None: none)."""
    conf = moderation_settings
    steps = [int(m) for m in conf.ABANDON_BAN_MINUTES]
    over = count - int(conf.ABANDON_FREE)
    if over <= 0 or not steps:
        return None
    return steps[min(over, len(steps)) - 1]


def _describe(minutes: int) -> str:
    if minutes % 1440 == 0:
        days = minutes // 1440
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    if minutes % 60 == 0:
        hours = minutes // 60
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def escalate_series(series_id: int) -> list[int]:
    """Ban whoever this ended ranked series makes a repeated abandoner; returns their ids."""
    series = Series.objects.filter(pk=series_id).first()
    if series is None or not series.ranked or series.status == Series.Status.PLAYING:
        return []
    people = set(Conduct.objects.filter(series=series, kind=Conduct.Kind.ABANDON,
                                        reason__in=COUNTED_REASONS)
                 .values_list("user_id", flat=True))
    banned = []
    for user_id in sorted(people):
        with transaction.atomic():
            user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
            if user is None:
                continue
            done = Sanction.objects.filter(user=user, kind=Sanction.Kind.RANKED_BAN,
                                           created_by__isnull=True,
                                           details__series=series.pk).exists()
            if done:
                continue
            count = abandoned_series_count(user_id, until=timezone.now())
            minutes = ban_minutes(count)
            if minutes is None:
                continue
            window = moderation_settings.ABANDON_WINDOW_DAYS
            with translation.override(recipient_language(user)):  # the player reads it
                reason = _("You left or timed out of %(count)s ranked series in %(window)s "
                           "days: no ranked play for %(ban)s.") % {
                    "count": count, "window": window, "ban": _describe(minutes)}
            # A longer ban in force already covers this one; it is still recorded.
            create_locked(None, user, Sanction.Kind.RANKED_BAN, reason,
                          timezone.now() + timedelta(minutes=minutes),
                          details={"series": series.pk, "abandoned": count,
                                   "minutes": minutes},
                          action=ModerationLog.Action.AUTO_RANKED_BAN)
            banned.append(user_id)
    return banned
