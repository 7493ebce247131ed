"""The reminder before an event starts: ``REMINDER_BEFORE`` ahead of ``starts_at``, once.

The beat (``tournaments.events_beat``) calls :func:`send_due`; each event is claimed by
a compare-and-set on ``reminder_sent_at`` (the column the selection reads), so two beats,
a retried task or a second worker never remind twice. The players get a notification
(``games.signals.event_reminder``, the notification centre) and, when their entry asked
for e-mail, an e-mail with the event's absolute link and the start time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import signals
from games.events import after_commit
from games.tournaments import emails
from games.tournaments.models import Entry, Tournament

REMINDER_BEFORE = timedelta(minutes=30)


def due(now: datetime) -> list[int]:
    """Events starting within ``REMINDER_BEFORE`` that have not been reminded yet (an
    event whose start has passed gets none: it is being started)."""
    return list(Tournament.objects.filter(
        status__in=[Tournament.Status.REGISTRATION, Tournament.Status.CLOSED],
        reminder_sent_at__isnull=True, starts_at__gt=now,
        starts_at__lte=now + REMINDER_BEFORE).values_list("pk", flat=True)[:50])


def remind(tournament_id: int, now: datetime | None = None) -> bool:
    """Remind the event's players, once: False if it was reminded already or is not
    due."""
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Tournament.objects.filter(
            pk=tournament_id, reminder_sent_at__isnull=True,
            status__in=[Tournament.Status.REGISTRATION, Tournament.Status.CLOSED],
            starts_at__gt=now, starts_at__lte=now + REMINDER_BEFORE,
        ).update(reminder_sent_at=now)
        if not claimed:
            return False
        t = Tournament.objects.get(pk=tournament_id)
        assert t.starts_at is not None  # the claim required it
        people: dict[int, bool] = {}
        for entry in t.entries.filter(status__in=[Entry.Status.ACTIVE,
                                                  Entry.Status.PENDING]):
            for person in entry.people_ids:
                people[person] = people.get(person, False) or entry.email_opt_in
        users = get_user_model().objects.in_bulk(list(people))
        event_path = reverse("tournaments:tournament", args=[t.pk])
        mail = [emails.ReminderMail(u.get_username(), u.email, u.pk, event_path)
                for pk, u in users.items() if people[pk] and u.email]
        after_commit(partial(signals.event_reminder.send, sender=Tournament,
                             tournament_id=t.pk, tournament_name=t.name,
                             starts_at=t.starts_at, user_ids=sorted(people)))
        after_commit(partial(emails.send_reminders, t.name, t.starts_at, mail))
    return True


def send_due(now: datetime | None = None) -> int:
    """The beat's step: remind every event that is due; returns how many were."""
    now = now or timezone.now()
    return sum(remind(pk, now) for pk in due(now))
