"""What a test's connection sends PostgreSQL, read from libpq's own protocol trace
(the round trips of games/services/rows.py and prepared.py, issue 15)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator

import psycopg
from django.db import connection, transaction

from games.services import rows


@contextlib.contextmanager
def queries_sent() -> Iterator[list[str]]:
    """The queries this connection sends PostgreSQL while the block runs, read from
    libpq's own protocol trace: each is one round trip (psycopg's implicit BEGIN and
    COMMIT included, which Django's query log names whether sent or not)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    sent: list[str] = []
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield sent
        finally:
            pgconn.untrace()
        trace.seek(0)
        for line in trace:
            direction, _length, kind, *rest = line.split("\t")
            if direction == "F" and kind in ("Query", "Sync"):
                sent.append(rest[0].strip().strip('"') if rest else kind)


def prepared_for(table_id: int) -> None:
    """Take and release ``table_id``'s move lock once, so that this connection's session
    has the move's statements prepared (games/services/prepared.py): a move's round
    trips after it are those of every later move."""
    with transaction.atomic():
        rows.lock_playing(table_id)
