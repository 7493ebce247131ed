"""Celery tasks of the queue: the matcher (beat every ~2 s, and a kick on each join)."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(name="queue.match", acks_late=False, ignore_result=True, expires=10)
def match_queue_task() -> list[int]:
    """Form every ranked table the queue allows now (safe to run at once in two workers)."""
    from games.queue import services

    tables = services.match_queue()
    if tables:
        logger.info("queue matched tables %s", tables)
    return tables
