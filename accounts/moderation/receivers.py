"""Receivers of the hooks games fires (games/signals.py). They only enqueue; the task
calls the service.

- ``series_finished(sender, series_id, winner, goat, termination)``: a ranked series
  ended (any reason but a void): the escalation for repeated abandonment looks at
  whoever abandoned it (``escalate_series_task``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from accounts.moderation import tasks
from games.models import Termination
from games.signals import series_finished

logger = logging.getLogger(__name__)


@receiver(series_finished, dispatch_uid="moderation.escalate_abandonment")
def on_series_finished(sender: Any, series_id: int, termination: str = "",
                       **kwargs: Any) -> None:
    if termination == Termination.VOIDED:
        return

    def enqueue() -> None:
        try:
            tasks.escalate_series_task.delay(series_id)
        except Exception:  # noqa: BLE001 - the beat sweep catches up
            logger.exception("could not enqueue escalate_series_task(%s)", series_id)

    transaction.on_commit(enqueue)
