"""Fixtures shared by the whole suite: a real Celery worker, Redis helpers, fixed deals."""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.ci import running_in_ci

QUIET_TIMEOUT = 10.0
QUIET_FOR = 0.2


def _busy_sessions(cursor: Any) -> list[int]:
    """Backends of this test database, other than ours, inside a transaction."""
    cursor.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL")
    return [row[0] for row in cursor.fetchall()]


def wait_until_database_is_quiet() -> None:
    """Wait until no other session of the test database is inside a transaction.

    The flush that ends a ``transactional_db`` test (TRUNCATE on PostgreSQL) deadlocks
    with a transaction that still holds row locks, such as a bot turn the browser
    tests' server was finishing after the test's sockets closed, and the rows it leaves
    break every later test. A session still busy after ``QUIET_TIMEOUT`` seconds belongs
    to a test that is over: it is terminated, so that the flush always runs.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return  # SQLite: one writer at a time, the flush waits for it
    deadline = time.monotonic() + QUIET_TIMEOUT
    quiet_since: float | None = None
    with connection.cursor() as cursor:
        while True:
            busy = _busy_sessions(cursor)
            now = time.monotonic()
            if busy:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= QUIET_FOR:
                return
            if busy and now >= deadline:
                for pid in busy:
                    cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
                return
            time.sleep(0.02)


@pytest.fixture(scope="session")
def django_db_modify_db_settings() -> None:
    """Keep the test database's name as kozel_site/settings/test.py made it: already
    private to this run and xdist worker, and derived the same way by the server and
    worker processes a test starts. pytest-django's "_gw<N>" suffix would hide the
    database from them."""


@pytest.fixture(scope="session")
def django_db_setup(request: pytest.FixtureRequest, django_test_environment: None,
                    django_db_blocker: Any, django_db_modify_db_settings: None) -> Iterator[None]:
    """pytest-django's test database set-up, except that on PostgreSQL the database is
    copied from a migrated template (tests/template_database.py) instead of migrated
    again by every xdist worker of every run. Django's own set-up then finds the
    database there (``keepdb``) and only checks that nothing is left to migrate. The
    database is dropped at the end, on PostgreSQL with the sessions a test's worker or
    server left in it. Nothing is serialised: no test uses ``serialized_rollback``."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from tests.template_database import create_migrated_database, drop_database

    verbosity = request.config.option.verbose
    name = connection.settings_dict["TEST"]["NAME"]
    postgres = connection.vendor == "postgresql"
    database_url = os.environ.get("DATABASE_URL", "")
    with django_db_blocker.unblock():
        if postgres:
            create_migrated_database(name, database_url)
        config = setup_databases(verbosity=verbosity, interactive=False, keepdb=postgres,
                                 serialized_aliases=set())
    yield
    with django_db_blocker.unblock():
        if postgres:
            connection.close()
            drop_database(name, database_url)
        else:
            teardown_databases(config, verbosity=verbosity)


@pytest.fixture
def postgresql(transactional_db: None) -> None:
    """For tests of row locks and races, which SQLite's whole-database lock hides."""
    from django.db import connection

    if connection.vendor != "postgresql":
        if running_in_ci():
            pytest.fail("CI runs PostgreSQL: this test must run there "
                        f"(the database is {connection.vendor}).")
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def transactional_db(transactional_db: None) -> Iterator[None]:
    """pytest-django's ``transactional_db``, whose flush waits for the writers a test
    left running (:func:`wait_until_database_is_quiet`). Fixtures that start writers
    (``celery_worker``, the browser tests' ``live_site``) depend on it, so they have
    stopped them by the time this runs."""
    yield
    wait_until_database_is_quiet()


class DealSeeds:
    """The chance of games/services/series.py for one test: a fixed sequence of game
    seeds (R5) and first dealers (R4) derived from the test's id, so that every run of a
    test plays the same deals.

    A test that needs a particular situation says so instead of branching on the deal:
    ``deal_seeds.first_dealer = 3`` (seat 0 leads, R4) or ``deal_seeds.seeds = [...]``
    (used first, in order). ``drawn`` lists the seeds handed out. Thread-safe: in-process
    Celery workers deal from the same sequence.
    """

    def __init__(self, test_id: str, production: tuple[Callable[[], int], ...]) -> None:
        self._seed_rng = random.Random(f"{test_id}/seed")
        self._dealer_rng = random.Random(f"{test_id}/first-dealer")
        self._lock = threading.Lock()
        self.seeds: list[int] = []
        self.first_dealer: int | None = None
        self.drawn: list[int] = []
        #: The sources production uses (what this fixture replaced).
        self.production = production

    def next_seed(self) -> int:
        with self._lock:
            seed = self.seeds.pop(0) if self.seeds else self._seed_rng.getrandbits(63)
            self.drawn.append(seed)
            return seed

    def next_first_dealer(self) -> int:
        with self._lock:
            fixed = self.first_dealer
            return self._dealer_rng.randrange(4) if fixed is None else fixed


@pytest.fixture
def deal_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> DealSeeds:
    """Deterministic deals for this test (see :class:`DealSeeds`); autouse in tests/games
    and tests/queue. Child processes (a worker started with subprocess) still draw from
    ``secrets``: deal in the test process when a test depends on the cards."""
    from games.services import series

    seeds = DealSeeds(request.node.nodeid, (series.seed_source, series.first_dealer_source))
    monkeypatch.setattr(series, "seed_source", seeds.next_seed)
    monkeypatch.setattr(series, "first_dealer_source", seeds.next_first_dealer)
    return seeds


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that starts a real Celery worker is a ``worker`` test, marked or not:
    ``make test-rabbitmq`` runs exactly these against RabbitMQ."""
    for item in items:
        if {"celery_worker", "worker_with_reviews"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.worker)


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[object]:
    """A real Celery worker (threads pool) consuming this run's private queue.

    Never eager mode: tasks go through the real broker (Redis, or RabbitMQ under
    ``make test-rabbitmq``). The worker shares this process's test database, so tests
    using it need committed data (``transactional_db``). It has finished its running
    tasks when this fixture ends.
    """
    from celery.contrib.testing.worker import start_worker

    from kozel_site.celery import app

    # Tasks left in this run's queue by earlier tests name rows that are gone.
    app.control.purge()
    # The queue named every time: a worker started with ``queues`` selects them on the
    # app for good (celery's Queues.select), and the next worker would inherit them.
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING",
                      queues=[app.conf.task_default_queue]) as worker:
        yield worker
        # A shutdown message wakes the worker's event loop at once; start_worker's own
        # stop flag is seen only when the loop next wakes up, up to 10 s later on
        # RabbitMQ (nothing else to wait for there).
        app.control.shutdown(destination=[worker.hostname])


@pytest.fixture
def worker_with_reviews(transactional_db: None) -> Iterator[object]:
    """One real Celery worker consuming this run's queue *and* the reviews' queue
    (games/reviews/conf.py): for a test that needs both bots and a review. (``make run``
    runs them in two workers; two workers in one test process do not stop cleanly.)"""
    from celery.contrib.testing.worker import start_worker

    from games.reviews import conf
    from kozel_site.celery import app

    app.control.purge()
    queues = [app.conf.task_default_queue, conf.queue()]
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      shutdown_timeout=20, loglevel="WARNING", queues=queues) as worker:
        yield worker
        app.control.shutdown(destination=[worker.hostname])


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


@pytest.fixture(autouse=True)
def fresh_live_state() -> Iterator[None]:
    """Forget presence entries, enqueue and re-announce markers and chat rate windows
    (Redis) after each test.

    Row ids come back after a rolled-back test (SQLite), and a later test's game with
    the same id must not find the earlier one's "bot turn already queued" marker or its
    sockets. Production never reuses an id, so only tests need this.
    """
    yield
    from django.conf import settings

    from games import presence

    try:
        client = presence.client()
        for pattern in (f"{settings.REDIS_PREFIX}:presence:*",
                        f"{settings.REDIS_PREFIX}:cache:*:due:*",
                        f"{settings.REDIS_PREFIX}:cache:*:reannounce:*",
                        f"{settings.REDIS_PREFIX}:cache:*:chat-rate:*",
                        f"{settings.REDIS_PREFIX}:cache:*:flood-cooldown:*"):
            keys = list(client.scan_iter(match=pattern, count=500))
            if keys:
                client.delete(*keys)
    except Exception:  # noqa: BLE001 - a test without Redis has nothing to forget
        pass
