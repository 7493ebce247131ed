"""Automatic ranked bans for repeated abandonment: thresholds, growth, once per series,
only ranked, only abandonments the player chose (not a moderator's suspension)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.moderation.models import ModerationLog, Sanction
from accounts.moderation.services import escalation
from games.errors import PermissionDeniedError
from games.models import Conduct
from games.queue import services as queue
from tests.ratings.factories import finished_series, make_users

pytestmark = pytest.mark.django_db

STEPS = {"ABANDON_WINDOW_DAYS": 7, "ABANDON_FREE": 2, "ABANDON_BAN_MINUTES": [10, 60, 1440]}


def abandon(players, leaver=1, *, ranked=True, reason=Conduct.Reason.TIMEOUTS, days_ago=0):
    series = finished_series(players, ["A", "A", "A"], ranked=ranked,
                             finished_at=timezone.now() - timedelta(days=days_ago))
    Conduct.objects.create(user=players[leaver], series=series, position=leaver,
                           kind=Conduct.Kind.ABANDON, reason=reason)
    Conduct.objects.filter(series=series).update(
        created_at=timezone.now() - timedelta(days=days_ago))
    return series


def bans(user):
    return list(Sanction.objects.filter(user=user, kind="ranked_ban").order_by("id"))


@override_settings(KOZEL_MODERATION=STEPS)
def test_growing_bans_past_the_free_abandonments():
    players = make_users("e", 4)
    leaver = players[1]
    minutes = []
    for _ in range(6):
        series = abandon(players)
        escalation.escalate_series(series.pk)
        found = bans(leaver)
        minutes.append(found[-1].details["minutes"] if found else None)
    # 1st and 2nd free; then 10 min, 1 h, 1 day, and a day again.
    assert minutes == [None, None, 10, 60, 1440, 1440]
    last = bans(leaver)[-1]
    assert last.created_by is None and "6 ranked series in 7 days" in last.reason
    assert abs(last.ends_at - last.starts_at - timedelta(days=1)) < timedelta(seconds=1)
    assert ModerationLog.objects.filter(action="auto_ranked_ban", actor=None).count() == 4
    assert not bans(players[0]), "the others are not touched"
    with pytest.raises(PermissionDeniedError, match="no ranked play for 1 day"):
        queue.join_queue(leaver)


@override_settings(KOZEL_MODERATION=STEPS)
def test_once_per_series_and_only_within_the_window():
    players = make_users("f", 4)
    for days in (30, 20, 10):
        abandon(players, days_ago=days)  # old ones: outside the window
    series = abandon(players)
    assert escalation.escalate_series(series.pk) == []
    series = [abandon(players) for _ in range(2)][-1]
    assert escalation.escalate_series(series.pk) == [players[1].pk]
    assert escalation.escalate_series(series.pk) == [], "a redelivered task does nothing"
    assert len(bans(players[1])) == 1


@override_settings(KOZEL_MODERATION=STEPS)
def test_casual_series_and_suspension_takeovers_do_not_count():
    players = make_users("g", 4)
    for _ in range(3):
        abandon(players, ranked=False)
    for _ in range(3):
        last = abandon(players, reason=Conduct.Reason.SUSPENDED)
    casual = abandon(players, ranked=False)
    assert escalation.escalate_series(casual.pk) == []
    assert escalation.escalate_series(last.pk) == []
    assert not bans(players[1])


@override_settings(KOZEL_MODERATION={**STEPS, "ABANDON_FREE": 0, "ABANDON_BAN_MINUTES": [5]})
def test_the_thresholds_come_from_settings():
    players = make_users("h", 4)
    series = abandon(players, reason=Conduct.Reason.DISCONNECT)
    assert escalation.escalate_series(series.pk) == [players[1].pk]
    assert bans(players[1])[0].details["minutes"] == 5


def test_ban_minutes_with_the_documented_defaults():
    assert [escalation.ban_minutes(n) for n in range(1, 7)] == [None, None, 10, 60, 1440, 1440]


def test_the_receiver_enqueues_on_series_end(django_capture_on_commit_callbacks, monkeypatch):
    from accounts.moderation import tasks
    from games import signals

    queued = []
    monkeypatch.setattr(tasks.escalate_series_task, "delay", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        signals.series_finished.send(sender=None, series_id=7, winner="A", goat="B",
                                     termination="completed")
        signals.series_finished.send(sender=None, series_id=8, winner="", goat="",
                                     termination="voided")
    assert queued == [7]
    assert tasks.escalate_series_task("7") == [] and tasks.escalate_series_task(True) == []
