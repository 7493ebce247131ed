"""One read for many waiters: the sockets of a web process that ask the same question at
the same moment share one answer (games/consumers.py, issue 15).

A table's refresh notice reaches every socket of that table at once; each used to read
the same facts on the process's one database thread, and at 100 tables the bursts of
games ending together were the move round trip's tail (python -m tests.load play). A
key names one notice, so an answer is only ever shared by sockets that were told the
same thing, and it is read after that notice was sent (after its commit): never older
than what a socket reading on its own would see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

# How long a finished read answers late arrivals of the same notice (a socket busy with
# another frame when it came). Keys are unique per notice, so keeping it is harmless.
KEEP_SECONDS = 5.0


class SharedReads(Generic[T]):
    """Single flight per key: the first caller starts the read, later ones await it."""

    def __init__(self, keep_seconds: float = KEEP_SECONDS) -> None:
        self._reads: dict[str, asyncio.Future[T]] = {}
        self._keep = keep_seconds

    async def get(self, key: str, read: Callable[[], Awaitable[T]]) -> T:
        future = self._reads.get(key)
        if future is None:
            future = asyncio.ensure_future(read())
            self._reads[key] = future
            future.add_done_callback(lambda done: self._forget_later(key, done))
        # A waiter that is cancelled (its socket closed) does not cancel the others' read.
        return await asyncio.shield(future)

    def _forget_later(self, key: str, done: asyncio.Future[T]) -> None:
        failed = done.cancelled() or done.exception() is not None
        # A failed read is not kept: the next notice (or a resync) reads again.
        delay = 0.0 if failed else self._keep
        asyncio.get_running_loop().call_later(delay, self._reads.pop, key, None)

    def clear(self) -> None:
        """Forget every answer: later callers read afresh (waiters of a read in flight
        still get it)."""
        self._reads.clear()

    def __len__(self) -> int:
        return len(self._reads)
