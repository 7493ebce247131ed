"""Receivers of game hooks. They only enqueue; the task calls the service.

``series_finished`` is already sent after the finishing transaction commits
(games/services/finish.py); ``after_commit`` here keeps the enqueue after commit even
if a future sender fires it inside a transaction. A failed enqueue is logged: the beat
sweep picks a completed series up.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.dispatch import receiver

from games.events import after_commit
from games.models import Termination
from games.ratings import tasks
from games.signals import series_corrected, series_finished


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
    - ``voted_end`` / ``abandoned`` / ``forfeit`` (a tournament director's): nothing:
      a series that was not played to its target is neither rated nor counted in
      anyone's record.
    """
    if termination in (Termination.COMPLETED, Termination.ROUND_TIME,
                       Termination.GAME_LIMIT):
        after_commit(partial(tasks.rate_series_task.delay, series_id))
    elif termination == Termination.VOIDED:
        after_commit(partial(tasks.rollback_series_task.delay, series_id))


@receiver(series_corrected, dispatch_uid="ratings.rerate_corrected_series")
def on_series_corrected(sender: Any, series_id: int, **kwargs: Any) -> None:
    """A series' result was corrected (a tournament director): rate the corrected result
    in its place (``rerate_series_task``). If the broker is down the ratings keep the old
    result until a director corrects again; the correction itself is committed and
    audited."""
    after_commit(partial(tasks.rerate_series_task.delay, series_id))
