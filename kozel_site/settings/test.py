"""Test settings: a fast hasher, locmem email, and a database, Redis keys and a Celery
queue private to this run (and to each pytest-xdist worker of it).

The variables are set in ``os.environ`` *before* ``base`` is imported so that child
processes (a daphne server for browser tests, a Celery worker) inherit the same values.
"""

from __future__ import annotations

import os
import uuid


def _per_xdist_worker(name: str) -> str:
    """``name`` made private to this pytest-xdist worker (the controller imported these
    settings first, and its workers inherit its environment). A child process started
    by a test inherits the worker's name, which is not suffixed a second time."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return name if not worker or name.endswith(f"-{worker}") else f"{name}-{worker}"


os.environ["KOZEL_REDIS_PREFIX"] = _per_xdist_worker(
    os.environ.get("KOZEL_REDIS_PREFIX") or f"kozeltest-{uuid.uuid4().hex[:8]}")
os.environ["KOZEL_CELERY_QUEUE"] = _per_xdist_worker(
    os.environ.get("KOZEL_CELERY_QUEUE") or os.environ["KOZEL_REDIS_PREFIX"])
os.environ.setdefault("KOZEL_RUN_DIR", str(__import__("pathlib").Path(__file__).resolve()
                                           .parents[2] / ".run" / "test"))

from .base import *  # noqa: E402,F403
from .base import DATABASES, RUN_DIR  # noqa: E402

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# locmem for in-process tests. A daphne child started by the browser tests sets
# KOZEL_TEST_EMAIL_BACKEND to the file backend, because the test cannot read a child's
# locmem outbox (tests/browser/conftest.py reads the files instead).
EMAIL_BACKEND = os.environ.get(
    "KOZEL_TEST_EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend"
)
EMAIL_FILE_PATH = os.environ.get("KOZEL_TEST_EMAIL_FILE_PATH", str(RUN_DIR / "test-mail"))
KOZEL_BOT_DELAY_SECONDS = 0.0
KOZEL_NEXT_GAME_DELAY_SECONDS = 0.0
KOZEL_HEALTHZ_CELERY_TIMEOUT = 1.5
# A test-only hook to set up a game from a known position (browser molodka test).
KOZEL_TEST_HOOKS = True

# An explicit test database name, so that a daphne child process started by a browser
# test finds the same database (on PostgreSQL Django would otherwise look for test_test_...).
_default = DATABASES["default"]
# Threads (consumers' database_sync_to_async, in-process Celery workers) must not keep
# connections open past a test, or PostgreSQL refuses to drop the test database.
_default["CONN_MAX_AGE"] = 0
# The name is private to this test run and xdist worker (and its children, which inherit
# the prefix), so that two suites running at once on one machine never share a database.
# tests/conftest.py turns off pytest-django's own "_gw<N>" suffix, which a child would
# not know about.
_run = "".join(ch if ch.isalnum() else "_" for ch in os.environ["KOZEL_REDIS_PREFIX"]).lower()
if _default["ENGINE"].endswith("sqlite3"):
    _default["TEST"] = {"NAME": str(RUN_DIR / f"test-db-{_run}.sqlite3")}
else:
    _default["TEST"] = {"NAME": f"test_{_default['NAME']}_{_run}"}
# A server process started by a test (tests/browser/conftest.py) is not run by pytest,
# so nothing switches it to the test database: this flag does.
if os.environ.get("KOZEL_USE_TEST_DATABASE") == "1":
    _default["NAME"] = _default["TEST"]["NAME"]

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Presence heartbeats every 2 s (an entry lives 6 s without one), so that tests of
# a crashed socket wait seconds, not half a minute (games/presence.py).
KOZEL_PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("KOZEL_PRESENCE_HEARTBEAT_SECONDS", 2.0))
