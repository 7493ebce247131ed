"""Celery tasks of the social layer: thin wrappers over the services."""

from __future__ import annotations

from celery import shared_task

from accounts.social import services


@shared_task(name="social.friend_table", acks_late=True, ignore_result=True)
def friend_table_task(table_id: int) -> int:
    """Tell a person's followers about the public table they opened."""
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        return 0
    return services.notify_friend_table(table_id)
