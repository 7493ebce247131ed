"""Reads for the queue page and its status endpoint."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.queue.conf import queue_settings
from games.queue.models import PairInvite, QueueEntry


def _name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "public_name", None) or user.get_username()


def queue_status(user: AbstractBaseUser, kind: str = QueueEntry.Kind.RANKED) -> dict[str, Any]:
    """What the page of one queue (``kind``) shows: your state, how many wait there,
    your time, its invitations.

    ``state`` is ``idle``, ``waiting`` or ``matched`` (then ``table_url`` is where to go);
    ``other_queue`` names the other queue when you wait there instead.
    """
    entry = (QueueEntry.objects.select_related("table", "partner__profile")
             .filter(user=user).first())
    waiting = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING, kind=kind).count()
    status: dict[str, Any] = {"state": "idle", "waiting": waiting, "seconds": 0, "mode": None,
                              "partner": None, "table_url": None, "turn_seconds": None,
                              "other_queue": None,
                              "bots_need": queue_settings.CASUAL_MIN_PEOPLE}
    if (entry is not None and entry.status == QueueEntry.Status.WAITING
            and entry.kind != kind):
        status["other_queue"] = entry.kind
    elif entry is not None and entry.status == QueueEntry.Status.WAITING:
        seconds = int((timezone.now() - entry.joined_at).total_seconds())
        people = 2 if entry.partner_id else 1
        status.update(state="waiting", mode=entry.mode, turn_seconds=entry.turn_seconds,
                      seconds=seconds,
                      partner=_name(entry.partner) if entry.partner_id else None,
                      target=entry.target, allow_bots=entry.allow_bots,
                      bot_wait=entry.bot_wait_seconds,
                      bots_in=max(0, entry.bot_wait_seconds - seconds),
                      # The matcher's rule (conf.CASUAL_MIN_PEOPLE): how many people must
                      # wait together before bots fill a table; the page says it.
                      bots_need=queue_settings.CASUAL_MIN_PEOPLE,
                      bots_alone=people >= queue_settings.CASUAL_MIN_PEOPLE)
    elif (entry is not None and entry.table is not None
          and entry.table.status in (Table.Status.OPEN, Table.Status.PLAYING)):
        status.update(state="matched", mode=entry.mode,
                      table_url=reverse("games:table", args=[entry.table_id]))
    sent = (PairInvite.objects.select_related("to_user__profile")
            .filter(from_user=user, kind=kind).first())
    status["invite_sent"] = ({"id": sent.pk, "to": _name(sent.to_user),
                              "turn_seconds": sent.turn_seconds} if sent else None)
    status["invites"] = [
        {"id": i.pk, "from": _name(i.from_user), "username": i.from_user.get_username(),
         "turn_seconds": i.turn_seconds}
        for i in PairInvite.objects.select_related("from_user__profile")
        .filter(to_user=user, kind=kind).order_by("-created_at")[:10]]
    return status
