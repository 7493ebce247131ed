"""Health probes for /healthz: the database, Redis and a Celery worker round trip."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection

from kozel_site.tasks import ping_task


@dataclass(frozen=True)
class Probe:
    """The result of one probe: ``ok`` and a short human-readable detail."""

    ok: bool
    detail: str


def check_database() -> Probe:
    """Run ``SELECT 1`` on the default database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure is reported, not raised
        return Probe(False, f"{type(exc).__name__}: {exc}")
    return Probe(True, connection.vendor)


def check_redis() -> Probe:
    """PING the Redis server behind the channel layer, cache and broker."""
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:  # noqa: BLE001
        return Probe(False, f"{type(exc).__name__}: {exc}")
    return Probe(True, "pong")


def check_celery(timeout: float | None = None) -> Probe:
    """Send the ping task and wait for a worker to answer it.

    A view may wait on a task (tasks never ``.get()`` each other). The message expires
    so that an unanswered ping does not pile up in the queue of a stopped worker.
    """
    wait = timeout if timeout is not None else settings.KOZEL_HEALTHZ_CELERY_TIMEOUT
    try:
        result = ping_task.apply_async(expires=wait + 5)
        answer = result.get(timeout=wait)
    except Exception as exc:  # noqa: BLE001
        return Probe(False, f"no worker answered within {wait:g} s ({type(exc).__name__})")
    return Probe(answer == "pong", str(answer))
