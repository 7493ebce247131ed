"""Receivers of game hooks. They only enqueue; the task calls the service.

``series_finished`` is already sent after the finishing transaction commits
(games/services/finish.py); ``transaction.on_commit`` here keeps the enqueue after
commit even if a future sender fires it inside a transaction.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Termination
from games.ratings import tasks
from games.signals import series_corrected, series_finished

logger = logging.getLogger(__name__)


@receiver(series_finished, dispatch_uid="ratings.rate_finished_series")
def on_series_finished(sender: Any, series_id: int, termination: str = "",
                       **kwargs: Any) -> None:
    """Act on how the series ended (games/services/finish.py names the reason):

    - ``completed``: record it per player and, if ranked, rate it (``rate_series_task``);
    - ``round_time`` / ``game_limit``: a tournament round's time limit (or a match's
      fixed number of games) decided it by fewer loss points:
      recorded and, if ranked, rated like ``completed`` when a team is the goat (a tie,
      equal loss points, is recorded but moves no rating: ``services.rate_series``);
    - ``voided``: undo whatever rating it gave (``rollback_series_task``);
    - ``voted_end`` / ``abandoned``: nothing: a series that was not played to its
      target is neither rated nor counted in anyone's record.
    """
    if termination in (Termination.COMPLETED, Termination.ROUND_TIME,
                       Termination.GAME_LIMIT):
        task_name = "rate_series_task"
    elif termination == Termination.VOIDED:
        task_name = "rollback_series_task"
    else:
        return

    def enqueue() -> None:
        try:
            getattr(tasks, task_name).delay(series_id)
        except Exception:  # the beat sweep picks a completed series up if the broker is down
            logger.exception("could not enqueue %s(%s)", task_name, series_id)

    transaction.on_commit(enqueue)


@receiver(series_corrected, dispatch_uid="ratings.rerate_corrected_series")
def on_series_corrected(sender: Any, series_id: int, **kwargs: Any) -> None:
    """A series' result was corrected (a tournament director): rate the corrected result
    in its place (``rerate_series_task``). If the broker is down the ratings keep the old
    result until a director corrects again; the correction itself is committed and
    audited."""
    def enqueue() -> None:
        try:
            tasks.rerate_series_task.delay(series_id)
        except Exception:
            logger.exception("could not enqueue rerate_series_task(%s)", series_id)

    transaction.on_commit(enqueue)
