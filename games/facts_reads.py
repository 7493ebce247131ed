"""One read of a table's facts for every socket of this process that wants it at once.

When a table changes (a game ends, a player arrives or leaves), every socket at it is
told to refresh, and each would read the same facts (games/snapshot.py): a handful of
queries per socket, all queued at once on the sockets' database threads, in front of the
moves. Instead, a socket that wants the facts joins a read of the same table that is
queued and has not started yet; only when none is waiting does it queue a new one.

A read that starts after a socket asked is never stale for it: a refresh notice is sent
after its change was committed, so any read begun after the notice arrived sees the
change. A read already under way may have begun before, so nobody joins it.
"""

from __future__ import annotations

import asyncio
from functools import partial

from games import snapshot
from kozel_site.ws import db_call

# The reads queued and not yet started, by table id: set on the event loop, popped by the
# reading thread as it starts (one atomic dict operation) or when the read ends.
_waiting: dict[int, asyncio.Future[snapshot.TableFacts | None]] = {}


async def fresh_table_facts(table_id: int) -> snapshot.TableFacts | None:
    """The facts of ``table_id`` from a read that started after this call (None: no
    such table), shared with every caller that asked before it started.

    The read is a task of its own, so a caller that goes away (its socket closed) does
    not take the others' answer with it."""
    queued = _waiting.get(table_id)
    if queued is None:

        def read() -> snapshot.TableFacts | None:
            _waiting.pop(table_id, None)  # started: later callers queue a read of their own
            return snapshot.read_table_facts(table_id)

        queued = asyncio.ensure_future(db_call(read)())
        _waiting[table_id] = queued
        queued.add_done_callback(partial(_ended, table_id))
    return await asyncio.shield(queued)


def _ended(table_id: int, read: asyncio.Future[snapshot.TableFacts | None]) -> None:
    if _waiting.get(table_id) is read:  # it never started (the executor refused it)
        del _waiting[table_id]
    if not read.cancelled():
        read.exception()  # retrieved here too: every caller may have gone
