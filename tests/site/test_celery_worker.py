"""A real Celery worker against real Redis runs a delayed task after its countdown."""

from __future__ import annotations

import time

import pytest

from kozel_site.tasks import ping_task


@pytest.mark.worker
@pytest.mark.broker
def test_task_with_countdown_runs_after_it(celery_worker):
    sent = time.monotonic()
    result = ping_task.apply_async(countdown=2)
    assert result.get(timeout=20) == "pong"
    assert time.monotonic() - sent >= 1.9
