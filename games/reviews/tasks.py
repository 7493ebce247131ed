"""The review task: runs on the reviews' own queue (conf.queue), never the bots'."""

from __future__ import annotations

from celery import shared_task

from kozel_site.ids import parse_id

from . import services


@shared_task(name="reviews.run", soft_time_limit=50, time_limit=60)
def run_review(review_id: object) -> None:
    """Make one review; an id that is not a row id is refused without a query."""
    services.run_review(parse_id(review_id))
