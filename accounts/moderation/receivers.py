"""Receivers of the hooks games fires (games/signals.py). They only enqueue; the task
calls the service.

- ``series_finished(sender, series_id, winner, goat, termination)``: a ranked series
  ended (any reason but a void): the escalation for repeated abandonment looks at
  whoever abandoned it (``escalate_series_task``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.dispatch import receiver

from accounts.moderation import tasks
from games.events import after_commit
from games.models import Termination
from games.signals import series_finished


@receiver(series_finished, dispatch_uid="moderation.escalate_abandonment")
def on_series_finished(sender: Any, series_id: int, termination: str = "",
                       **kwargs: Any) -> None:
    if termination == Termination.VOIDED:
        return
    after_commit(partial(tasks.escalate_series_task.delay, series_id))
