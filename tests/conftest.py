"""Fixtures shared by the whole suite: a real Celery worker, Redis helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[object]:
    """A real Celery worker (threads pool) consuming this run's private queue.

    Never eager mode: tasks go through the real Redis broker (STYLE e). The worker
    shares this process's test database, so tests using it need committed data
    (``transactional_db``).
    """
    from celery.contrib.testing.worker import start_worker

    from kozel_site.celery import app

    # Tasks left in this run's queue by earlier tests name rows that are gone.
    app.control.purge()
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING") as worker:
        yield worker


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Give every test its own channel-layer instance.

    channels-redis keeps asyncio locks in the layer object; each async test runs on its
    own event loop, so a layer shared across tests fails with "bound to a different
    event loop" when an earlier test's consumer was still receiving.
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
