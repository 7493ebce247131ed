"""Celery tasks of the ratings app: thin wrappers that validate ids and call a service."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(name="ratings.rate_series", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def rate_series_task(series_id: object) -> bool:
    """Record and rate a finished series once (no-op if already done)."""
    if isinstance(series_id, bool) or not isinstance(series_id, int) or series_id < 1:
        logger.warning("rate_series_task refused series_id=%r", series_id)
        return False
    from games.ratings import services

    return services.rate_series(series_id)


@shared_task(name="ratings.rollback_series", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def rollback_series_task(series_id: object) -> bool:
    """Undo the rating a voided series gave (no-op if there is nothing to undo)."""
    if isinstance(series_id, bool) or not isinstance(series_id, int) or series_id < 1:
        logger.warning("rollback_series_task refused series_id=%r", series_id)
        return False
    from games.ratings import services

    return services.rollback_series(series_id)


@shared_task(name="ratings.rerate_series", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def rerate_series_task(series_id: object) -> bool:
    """Rate a corrected series' new result in its place (no-op if nothing to do)."""
    if isinstance(series_id, bool) or not isinstance(series_id, int) or series_id < 1:
        logger.warning("rerate_series_task refused series_id=%r", series_id)
        return False
    from games.ratings import services

    return services.rerate_series(series_id)


@shared_task(name="ratings.sweep", acks_late=False, ignore_result=True, expires=60)
def ratings_sweep_task() -> int:
    """The beat backstop: process finished series whose task was lost."""
    from games.ratings import services

    done = services.sweep()
    if done:
        logger.info("ratings sweep processed %s series", done)
    return done
