"""Site-level Celery tasks."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="kozel_site.ping", acks_late=False, ignore_result=False)
def ping_task() -> str:
    """Answer ``pong``: /healthz sends it to prove a worker is consuming the queue."""
    return "pong"
