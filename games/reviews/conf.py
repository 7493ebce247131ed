"""The reviews' settings, each with its default (override in Django settings)."""

from __future__ import annotations

from django.conf import settings


def per_day() -> int:
    """Reviews one account may ask for in 24 hours (one review of a game's seat, however
    many people open it, counts once: for whoever asked first)."""
    return int(getattr(settings, "KOZEL_REVIEWS_PER_DAY", 10))


def queue() -> str:
    """The Celery queue reviews run on: the site's queue name plus ``-reviews``, consumed
    by a worker of its own (``make run`` starts one), never by the worker that plays the
    bots' turns and the clocks."""
    return f"{settings.CELERY_TASK_DEFAULT_QUEUE}-reviews"


def stale_seconds() -> int:
    """A review queued or running this long is taken as lost (its worker died with it
    and the broker did not give it back) and may be asked for again."""
    return int(getattr(settings, "KOZEL_REVIEW_STALE_SECONDS", 600))
