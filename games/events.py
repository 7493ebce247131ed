"""What follows a commit: channel-layer broadcasts, Celery tasks and hooks.

Every helper registers its work with ``transaction.on_commit``, so a rolled-back change
announces and schedules nothing, and the work runs in the order it was registered: a
move registers its broadcast before its next task, so players hear of the move first.
Outside a transaction the work runs at once.

A failure is logged, never raised: the commit stands. Clients that miss a broadcast
resync; a lost task is restored by the task markers and the beat sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

Message = tuple[str, dict[str, Any]]  # (group, payload)
MARKER_SLACK_SECONDS = 60


def send_events(messages: Iterable[Message]) -> None:
    """Send each ``(group, payload)`` now, in order. From a socket's database call
    ``async_to_sync`` runs the send on the web process's event loop."""
    layer = get_channel_layer()
    for group, payload in messages:
        try:
            async_to_sync(layer.group_send)(group, payload)
        except Exception:  # noqa: BLE001 - clients resync; the change is stored
            logger.exception("broadcast to %s failed", group)


def send_event_on_commit(group: str, payload: dict[str, Any]) -> None:
    """After commit, send ``payload`` to ``group``."""
    send_events_on_commit(lambda: [(group, payload)])


def send_events_on_commit(make: Callable[[], Iterable[Message]]) -> None:
    """After commit, make the messages and send them: made then, not under the
    transaction's locks, and from what was committed (a move's deadline)."""

    def send() -> None:
        try:
            messages = list(make())
        except Exception:  # noqa: BLE001 - as a failed send: clients resync
            logger.exception("a broadcast could not be made: %r", make)
            return
        send_events(messages)

    transaction.on_commit(send)


def send_task(name: str, args: tuple[Any, ...] = (), *, countdown: float = 0.0,
              eta: datetime | None = None, once: str | None = None, force: bool = False,
              **options: Any) -> None:
    """Enqueue the Celery task ``name`` now.

    Tasks are sent by name: a task imports the service it runs, so the services never
    import the tasks. ``eta`` (instead of ``countdown``): when it should run. ``once``:
    a marker claimed in the cache so that the same step (task, id, version) is enqueued
    once however many paths ask for it; ``force`` enqueues even when it was claimed.
    ``options`` go to Celery as they are (``expires``: give the task's own).
    """
    seconds = max(0.0, (eta - timezone.now()).total_seconds() if eta else countdown)
    if once is not None and not _claim(once, seconds, force):
        return
    when: dict[str, Any] = {"eta": eta} if eta else {"countdown": seconds}
    try:
        current_app.send_task(name, args, ignore_result=True, **when, **options)
    except Exception:  # noqa: BLE001 - the markers and the beat sweep restore it
        logger.exception("could not enqueue %s%r", name, args)


def send_task_on_commit(name: str, args: tuple[Any, ...] = (), *, countdown: float = 0.0,
                        eta: datetime | None = None, once: str | None = None,
                        force: bool = False, **options: Any) -> None:
    """After commit, :func:`send_task`."""
    transaction.on_commit(lambda: send_task(name, args, countdown=countdown, eta=eta,
                                            once=once, force=force, **options))


def after_commit(fn: Callable[[], object]) -> None:
    """After commit, run ``fn`` (a signal's send, an email)."""

    def run() -> None:
        try:
            fn()
        except Exception:  # noqa: BLE001 - the commit stands; the beat catches up
            logger.exception("work after a commit failed: %r", fn)

    transaction.on_commit(run)


def _claim(marker: str, seconds: float, force: bool) -> bool:
    """Claim ``marker``; False if its task was enqueued already (unless ``force``)."""
    key, timeout = f"due:{marker}", int(seconds) + MARKER_SLACK_SECONDS
    try:
        if force:
            cache.set(key, 1, timeout=timeout)
            return True
        return bool(cache.add(key, 1, timeout=timeout))
    except Exception:  # noqa: BLE001 - without the marker, enqueue (tasks are idempotent)
        logger.warning("marker %s unavailable", marker, exc_info=True)
        return True
