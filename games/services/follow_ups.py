"""What follows a commit that nobody at the table waits for: the next task's enqueue
(a bot's turn, a turn's timeout, the next game) and the end hooks (games/signals.py).

On a web process these run on one follow-up thread of their own, in the order they
were registered, instead of on the writing thread that committed: a channels consumer
handles one message at a time, so the mover's own socket got its move's event, and
its answer, only once every hook of the move had run. A game's end spent a median
10 ms and up to 240 ms there (the tournaments' game-limit query, the next game's Redis
marker and Celery publish), every game's end the slowest move at 100 tables (python -m
tests.load play, issue 15).

Anywhere else (a Celery worker, a management command, a test's own thread) they run
at once, where they were registered. Order holds on the one thread: a game's end hooks
(the tournaments' game limit) still run before the next game is even enqueued. If the
process dies between a commit and its follow-ups, nothing is lost that was not lost
before: the tasks' markers and the beat sweep re-queue what a stored game waits for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import close_old_connections, transaction

from games.services.publish import on_a_web_process

logger = logging.getLogger(__name__)

_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="follow-up")


def on_commit(fn: Callable[[], object]) -> None:
    """After the current transaction commits, :func:`run` ``fn``."""
    transaction.on_commit(lambda: run(fn))


def run(fn: Callable[[], object]) -> Future[None] | None:
    """Run ``fn`` on the follow-up thread on a web process (returns its future), else
    now (returns None). On the thread an exception is logged, never raised: the
    commit it follows stands."""
    if not on_a_web_process():
        fn()
        return None
    return _THREAD.submit(_logged, fn)


def _logged(fn: Callable[[], object]) -> None:
    close_old_connections()  # the thread's own connection, as a writing thread's
    try:
        fn()
    except Exception:  # noqa: BLE001 - the sweep and the beat tick catch what it missed
        logger.exception("a follow-up of a commit failed: %r", fn)
    finally:
        close_old_connections()
