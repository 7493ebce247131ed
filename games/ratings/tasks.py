"""Celery tasks of the ratings app: thin wrappers that validate ids and call a service."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from games.ratings import services

logger = logging.getLogger(__name__)


def _series_task(name: str, service: str, doc: str) -> Any:
    """A task that takes one series id, refuses (logs, returns False) anything else, and
    calls ``games.ratings.services.<service>`` (idempotent: a redelivery is a no-op)."""

    @shared_task(name=name, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
    def task(series_id: object) -> bool:
        if isinstance(series_id, bool) or not isinstance(series_id, int) or series_id < 1:
            logger.warning("%s refused series_id=%r", name, series_id)
            return False
        return bool(getattr(services, service)(series_id))

    task.__doc__ = doc
    return task


rate_series_task = _series_task(
    "ratings.rate_series", "rate_series",
    "Record and rate a finished series once (no-op if already done).")
rollback_series_task = _series_task(
    "ratings.rollback_series", "rollback_series",
    "Undo the rating a voided series gave (no-op if there is nothing to undo).")
rerate_series_task = _series_task(
    "ratings.rerate_series", "rerate_series",
    "Rate a corrected series' new result in its place (no-op if nothing to do).")


@shared_task(name="ratings.sweep", acks_late=False, ignore_result=True, expires=60)
def ratings_sweep_task() -> int:
    """The beat backstop: process finished series whose task was lost."""
    done = services.sweep()
    if done:
        logger.info("ratings sweep processed %s series", done)
    return done
