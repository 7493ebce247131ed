"""Django's PostgreSQL backend, with a kept connection's health check (``SELECT 1``)
at most once a second.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection at the start of each
request cycle, and for our sockets every database call is one (channels closes old
connections around each call, ``kozel_site/ws.py``), as is every Celery task: each move
paid one more round trip to PostgreSQL before its first statement, on the one thread
that writes for every table of a web process (py-spy at 100 tables, python -m
tests.load play, issue 15). A connection checked or opened less than a second ago is
taken as it is. If PostgreSQL went away within that second, the call's first statement
fails, Django marks the connection broken and closes it when the call ends, and the
next call opens a new one: the checked path and this one end the same way, the
unchecked one with one failed call (python -m tests.load faults --kill postgres).
"""

from __future__ import annotations

import time
from typing import Any

from django.db.backends.postgresql import base

HEALTH_CHECK_INTERVAL_S = 1.0


class DatabaseWrapper(base.DatabaseWrapper):  # type: ignore[misc]
    checked_at = float("-inf")

    def connect(self) -> Any:
        result = super().connect()
        self.checked_at = time.monotonic()  # a new connection needs no check
        return result

    def close_if_health_check_failed(self) -> None:
        if (self.connection is not None and self.health_check_enabled
                and not self.health_check_done
                and time.monotonic() - self.checked_at < HEALTH_CHECK_INTERVAL_S):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        self.checked_at = time.monotonic()
