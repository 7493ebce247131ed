"""Receivers of game hooks: they only enqueue; the task calls the service.

``series_finished`` fires after the finishing transaction commits
(games/services/finish.py) with its termination; a match whose series ended is scored
by ``match_finished_task`` (and by the beat tick if that message is lost).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.dispatch import receiver

from games.events import after_commit
from games.signals import game_finished, series_finished
from games.tournaments import tasks
from games.tournaments.models import Match
from games.tournaments.services import rounds

logger = logging.getLogger(__name__)


@receiver(game_finished, dispatch_uid="tournaments.game_limit")
def on_game_finished(sender: Any, game_id: int, series_id: int, **kwargs: Any) -> None:
    """A match of a fixed number of games ends after its last game. Called directly,
    not through a task: this runs on commit of the game's end, before the next game's
    task can deal (a task could lose that race); the beat tick catches a failure."""
    try:
        rounds.game_finished(series_id)
    except Exception:  # noqa: BLE001 - the tick ends it; the game's end is stored
        logger.exception("game limit check for series %s failed", series_id)


@receiver(series_finished, dispatch_uid="tournaments.match_finished")
def on_series_finished(sender: Any, series_id: int, termination: str = "",
                       **kwargs: Any) -> None:
    """Every termination matters to a tournament (services/rounds.py scores it):
    ``completed`` by the goat (R18); ``round_time``, ``voted_end`` and ``abandoned``
    by fewer loss points (equal is a tie); ``voided`` leaves the match for a director
    to correct. Series outside tournaments are skipped by the task."""
    if not Match.objects.filter(series_id=series_id).exists():
        return
    after_commit(partial(tasks.match_finished_task.delay, series_id))
