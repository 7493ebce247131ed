"""Receivers of game hooks. They only enqueue; the task calls the service (STYLE c).

``series_finished`` is already sent after the finishing transaction commits
(games/services/finish.py); ``transaction.on_commit`` here keeps the enqueue after
commit even if a future sender fires it inside a transaction.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.signals import series_finished

logger = logging.getLogger(__name__)


@receiver(series_finished, dispatch_uid="ratings.rate_finished_series")
def on_series_finished(sender: Any, series_id: int, **kwargs: Any) -> None:
    """Enqueue ``rate_series_task(series_id)``; the task is idempotent."""

    def enqueue() -> None:
        from games.ratings.tasks import rate_series_task

        try:
            rate_series_task.delay(series_id)
        except Exception:  # the beat sweep picks the series up if the broker is down
            logger.exception("could not enqueue rate_series_task(%s)", series_id)

    transaction.on_commit(enqueue)
