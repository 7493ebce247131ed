"""Celery tasks of the queue: the matcher of both queues, ranked and casual (beat every
~2 s, and a kick on each join)."""

from __future__ import annotations

import logging

from celery import shared_task

from games.queue import casual, services

logger = logging.getLogger(__name__)


@shared_task(name=services.MATCH_TASK, acks_late=False, ignore_result=True, expires=10)
def match_queue_task() -> list[int]:
    """Form every ranked, then every casual, table the queue allows now (safe to run at
    once in two workers)."""
    tables = services.match_queue() + casual.match_casual_queue()
    if tables:
        logger.info("queue matched tables %s", tables)
    return tables
