"""Celery tasks: thin, idempotent wrappers that validate their arguments and call a service.

Each carries ids and the version it was scheduled for; the service re-locks the row
and does nothing if the game moved on, so a task delivered twice or late is harmless
(STACK-NOTES item 3: redelivery after a worker dies is expected).
"""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


def _ids(task: str, **values: object) -> tuple[int, ...] | None:
    """Validate a task's id/version arguments (untrusted: they come off the broker)."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            logger.warning("%s: argument %s=%r refused (not a non-negative integer)",
                           task, name, value)
            return None
    return tuple(values.values())  # type: ignore[arg-type]


@shared_task(name="games.bot_turn", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def bot_turn_task(game_id: object, expected_version: object) -> None:
    """Let the bots of ``game_id`` act on ``expected_version`` (no-op if it moved on)."""
    ids = _ids("games.bot_turn", game_id=game_id, expected_version=expected_version)
    if ids is None:
        return
    from games.services import play

    play.play_bot_turn(*ids)


@shared_task(name="games.next_game", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def next_game_task(series_id: object, finished_number: object) -> None:
    """Deal the next game of a series once (no-op if it exists or the series ended)."""
    ids = _ids("games.next_game", series_id=series_id, finished_number=finished_number)
    if ids is None:
        return
    from games.services import series

    series.start_next_game(*ids)


@shared_task(name="games.turn_timeout", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def turn_timeout_task(game_id: object, expected_version: object) -> None:
    """The clock of ``expected_version`` ran out: the server plays (no-op if it moved on)."""
    ids = _ids("games.turn_timeout", game_id=game_id, expected_version=expected_version)
    if ids is None:
        return
    from games.services import clock

    clock.play_timeout(*ids)


@shared_task(name="games.disconnect_check", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def disconnect_check_task(game_id: object, expected_version: object) -> None:
    """60 s after a player left on their turn: a bot takes the seat if they are still away."""
    ids = _ids("games.disconnect_check", game_id=game_id, expected_version=expected_version)
    if ids is None:
        return
    from games.services import clock

    clock.abandon_if_disconnected(*ids)


@shared_task(name="games.sweep", acks_late=False, ignore_result=True, expires=10)
def sweep_task() -> dict[str, int]:
    """The beat backstop: rescue tables whose task was lost (services/sweep.py)."""
    from games.services import sweep

    done = sweep.sweep()
    if any(done.values()):
        logger.info("sweep rescued %s", done)
    return done
