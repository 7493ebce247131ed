"""Celery tasks of moderation: thin wrappers that validate ids and call a service."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from accounts.moderation.services import escalation
from games.models import Series

logger = logging.getLogger(__name__)


@shared_task(name="moderation.escalate_series", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def escalate_series_task(series_id: object) -> list[int]:
    """Ranked bans for repeated abandonment after a ranked series ended (idempotent)."""
    if isinstance(series_id, bool) or not isinstance(series_id, int) or series_id < 1:
        logger.warning("escalate_series_task refused series_id=%r", series_id)
        return []
    return escalation.escalate_series(series_id)


@shared_task(name="moderation.sweep", acks_late=False, ignore_result=True, expires=120)
def escalation_sweep_task() -> int:
    """The beat backstop: ranked series that ended in the last hour, escalated again (a
    no-op for those already done), in case a task message was lost."""
    since = timezone.now() - timedelta(hours=1)
    ids = Series.objects.filter(ranked=True, finished_at__gte=since,
                                conduct__kind="abandon").values_list("pk", flat=True).distinct()
    return sum(len(escalation.escalate_series(pk)) for pk in ids)
