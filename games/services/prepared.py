"""The move's reads, parsed and planned by PostgreSQL once per session (issue 15).

A move's locking read (games/services/rows.py) is the same statement every time, but
sent as text in the simple query protocol (its ``BEGIN`` and the roster's statement ride
in the same query string, which the extended protocol cannot carry) PostgreSQL parsed,
analysed and planned it anew for every move: with ``pgbench`` on a load run's database
the read's transaction took 0.78–0.89 ms as text against 0.21–0.22 ms prepared. Here
each statement is ``PREPARE``d once per database session, in the same query string as its
first use (no round trip more), and later sent as ``EXECUTE name(values)``.

A session's prepared statements outlive a rolled-back transaction (PostgreSQL's
``PREPARE`` is not transactional), so a statement is known prepared once a query string
carrying its ``PREPARE`` was sent. Which a session has is asked of the server once per
new connection (``pg_prepared_statements``: a pooler in session mode may hand over a
session that has them), and again after any error in a string that used them.

Off (``KOZEL_DB_PREPARED_STATEMENTS=0``) behind a pooler in transaction mode (PgBouncer's
``pool_mode = transaction``), where consecutive transactions of one connection may run in
different server sessions: a ``PREPARE`` made in one is missing from the next. Off, and
on any database but PostgreSQL, the statements are sent as text, as before.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection

NAME_PREFIX = "kozel_"

# Per psycopg connection (a server session): the names of the statements it has. A
# new connection (Django reconnects after CONN_MAX_AGE or an error) is a new key.
_known: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


class Statement:
    """One SQL statement with ``%s`` placeholders (psycopg's client-side parameters), and
    its prepared form: ``$n`` placeholders under a name taken from its text, so that a
    changed statement is a new name."""

    def __init__(self, sql: str) -> None:
        if "%%" in sql or "$" in sql or ";" in sql:
            raise ValueError("one statement, with %s placeholders only")
        count = sql.count("%s")
        body = sql % tuple(f"${n}" for n in range(1, count + 1))
        self.sql = sql
        self.name = NAME_PREFIX + hashlib.sha256(body.encode()).hexdigest()[:20]
        self.prepare = f"PREPARE {self.name} AS {body}"
        self.execute = f"EXECUTE {self.name}" + (
            f"({', '.join(['%s'] * count)})" if count else "")


# A row id that a prepared statement's bigint parameter can take. Sent as text, an id
# out of that range (a URL's /ws/table/<30 digits>/) only matched no row; as a prepared
# statement's parameter it is an error ("bigint out of range", python -m tests.load fuzz).
MAX_ID = 2**63 - 1


def is_row_id(value: object) -> bool:
    """Whether ``value`` can be a row's id (an int, not a bool, in bigint's range): any
    other value names no row."""
    return isinstance(value, int) and not isinstance(value, bool) and \
        -MAX_ID - 1 <= value <= MAX_ID


def enabled() -> bool:
    """Whether this connection's statements are prepared (PostgreSQL, not turned off)."""
    return connection.vendor == "postgresql" and settings.KOZEL_DB_PREPARED_STATEMENTS


class QueryString:
    """Statements run in order in one query string on this connection, ``BEGIN`` first
    when ``begin``: the text to send, and how many results come before the first
    statement's (each ``PREPARE``'s and the ``BEGIN``'s). Build it just before sending:
    the statements it prepares count as prepared from then on."""

    def __init__(self, statements: Sequence[Statement], *, begin: bool = False) -> None:
        parts: list[str] = []
        if enabled():
            session = _session()
            known = _prepared_in(session)
            new = [s for s in {s.name: s for s in statements}.values()
                   if s.name not in known]  # once each, even when named twice
            parts += [s.prepare for s in new]
            known.update(s.name for s in new)
            body = [s.execute for s in statements]
        else:
            body = [s.sql for s in statements]
        if begin:
            parts.append("BEGIN")
        self.leading_results = len(parts)
        self.sql = "; ".join(parts + body)


def run(cursor: Any, query: QueryString, params: Sequence[Any]) -> None:
    """Send ``query`` with ``params`` on ``cursor`` and leave the cursor on the first
    statement's result. After an error the server is asked again next time which
    statements this session has (what the string prepared before it failed is not known
    here)."""
    try:
        cursor.execute(query.sql, params)
    except DatabaseError:
        if connection.connection is not None:
            _known.pop(connection.connection, None)
        raise
    for _ in range(query.leading_results):
        cursor.nextset()


def _session() -> Any:
    connection.ensure_connection()
    return connection.connection


def _prepared_in(session: Any) -> set[str]:
    """The statements ``session`` has, asked of it the first time: one round trip per
    connection, sent straight through psycopg (Django's query log does not list it; in
    Django's autocommit mode it opens no transaction, inside a block it runs in the
    block's)."""
    known = _known.get(session)
    if known is None:
        with connection.wrap_database_errors:
            rows = session.execute("SELECT name FROM pg_prepared_statements "
                                   "WHERE starts_with(name, %s)", [NAME_PREFIX]).fetchall()
        known = {name for (name,) in rows}
        _known[session] = known
    return known
