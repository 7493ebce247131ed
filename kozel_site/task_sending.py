"""A process sends its first Celery task as fast as its next ones.

Celery builds its app, its result backend and its broker connection on first use, and
kombu declares a queue on a connection's first message to it. In a web process that
first use came mid-game: the first game to end enqueues the next deal (a follow-up
thread, games/services/schedule.py), and there it imported the tasks' module (~30 ms),
cost 38 ms to finalise the app (importing, with no bytecode written, what its tasks'
classes need) and 36 ms more for the first ``apply_async`` (the result backend's entry
points, the connection, the queue's declaration), against ~1 ms for the next one; most
of it holding the GIL that the process's moves wait for. ``python -m tests.load fuzz``
found it in the attack's first seconds, which the first games' ends share (py-spy,
issue 15).

:func:`warm_task_sending` does all of that at start-up instead
(:func:`kozel_site.gc_tuning.freeze_after_start_up`, then frozen with the rest).
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def warm_task_sending() -> bool:
    """Import the tasks' modules, finalise the Celery app, build its result backend
    and declare its default queue on a pooled broker connection, as the first
    ``apply_async`` would. Returns whether the broker answered; a broker that is down
    is only logged (the first task then pays, and kombu retries as it always does)."""
    from kozel_site.celery import app

    app.loader.import_default_modules()  # the tasks' modules, as a worker imports them
    app.finalize(auto=True)
    app.backend  # noqa: B018 - built on first use: its entry points are read then
    app.amqp.send_task_message  # noqa: B018 - the sender, with its events' dispatcher
    queue = app.amqp.queues[app.conf.task_default_queue]
    try:
        # One attempt, not kombu's retries (6 s against a broker that is down): a pooled
        # connection, connected, then the producer's declaration on it.
        with app.pool.acquire(block=True) as connection:
            connection.ensure_connection(max_retries=0)
        with app.producer_or_acquire() as producer:
            producer.maybe_declare(queue)
    except Exception:  # noqa: BLE001 - start-up goes on; a task sent later retries
        logger.warning("could not reach the broker at start-up", exc_info=True)
        return False
    return True
