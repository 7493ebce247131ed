"""Celery tasks: thin, idempotent wrappers that validate their arguments and call a service.

Each carries ids and the version it was scheduled for; the service re-locks the row
and does nothing if the game moved on, so a task delivered twice or late is harmless:
after a worker dies its tasks are delivered again, and a countdown longer than the
Redis broker's visibility timeout may run more than once.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

from celery import shared_task

from games.services import clock, play, schedule, series, sweep

logger = logging.getLogger(__name__)


def _ids(task: str, **values: object) -> tuple[int, ...] | None:
    """Validate a task's id/version arguments (untrusted: they come off the broker)."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            logger.warning("%s: argument %s=%r refused (not a non-negative integer)",
                           task, name, value)
            return None
    return tuple(values.values())  # type: ignore[arg-type]


def id_task(name: str) -> Callable[[Callable[..., object]], Any]:
    """Declare a task whose arguments are ids and versions: they are validated (a bad
    one is logged and refused, changing nothing), then the body calls its service.

    Every such task is ``acks_late`` (a worker that dies mid-task gets it redelivered)
    and idempotent through the service's compare-and-set.
    """

    def decorate(body: Callable[..., object]) -> Any:
        signature = inspect.signature(body)

        @shared_task(name=name, acks_late=True, reject_on_worker_lost=True,
                     ignore_result=True)
        @functools.wraps(body)
        def task(*args: object, **kwargs: object) -> None:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                logger.warning("%s: arguments refused (%s)", name, exc)
                return
            ids = _ids(name, **bound.arguments)
            if ids is not None:
                body(*ids)

        return task

    return decorate


@id_task(schedule.BOT_TURN_TASK)
def bot_turn_task(game_id: int, expected_version: int) -> None:
    """Let the bots of ``game_id`` act on ``expected_version`` (no-op if it moved on)."""
    play.play_bot_turn(game_id, expected_version)


@id_task(schedule.NEXT_GAME_TASK)
def next_game_task(series_id: int, finished_number: int) -> None:
    """Deal the next game of a series once (no-op if it exists or the series ended)."""
    series.start_next_game(series_id, finished_number)


@id_task(schedule.TURN_TIMEOUT_TASK)
def turn_timeout_task(game_id: int, expected_version: int) -> None:
    """The clock of ``expected_version`` ran out: the server plays (no-op if it moved on)."""
    play.play_timeout(game_id, expected_version)


@id_task(schedule.DISCONNECT_CHECK_TASK)
def disconnect_check_task(game_id: int, expected_version: int) -> None:
    """60 s after a player left on their turn: a bot takes the seat if they are still away."""
    clock.abandon_if_disconnected(game_id, expected_version)


@shared_task(name="games.sweep", acks_late=False, ignore_result=True, expires=10)
def sweep_task() -> dict[str, int]:
    """The beat backstop: rescue tables whose task was lost (services/sweep.py)."""
    done = sweep.sweep()
    if any(done.values()):
        logger.info("sweep rescued %s", done)
    return done
