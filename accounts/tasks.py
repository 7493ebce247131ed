"""Periodic work of the accounts app."""

from __future__ import annotations

from celery import shared_task

from accounts import guests


@shared_task(name="accounts.purge_guests", acks_late=True, ignore_result=True)
def purge_guests_task() -> int:
    """Delete guests nobody used for a while (beat, hourly); safe to run twice."""
    return guests.purge_unused_guests()
