"""A Celery worker keeps its threads' PostgreSQL connections between tasks
(kozel_site/celery.py): Celery's Django fixup closed them around every task."""

from __future__ import annotations

import pytest
from celery import shared_task
from django.db import connection, connections


@shared_task(name="tests.backend_pid")
def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


@pytest.mark.worker
@pytest.mark.broker
def test_a_workers_tasks_reuse_its_threads_connections(celery_worker, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL backends have pids")
    # The site keeps connections 60 s (kozel_site/settings/base.py); the test settings
    # do not, so the worker threads' connections are given the site's rule here.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    pids = [backend_pid.delay().get(timeout=20) for _ in range(8)]
    assert len(set(pids)) <= 2, pids  # the test worker has two threads
