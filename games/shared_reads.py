"""One read for many waiters: the sockets of a web process that need the same table's
facts at the same moment share one read (games/consumers.py, issue 15).

Why: a table's refresh notice reaches every socket of that table at once, and a web
process that restarts (or a crowd arriving) opens hundreds of sockets at once; each used
to read the same facts on the process's one database thread, which queued them behind
every move (python -m tests.load play, drop and faults --kill web).

When sharing is exact — a shared answer is never older than the asker's own would be:
- a read that has not *started* yet (it waits for the database thread) will see every
  commit made before anybody asked: any asker may join it;
- a read started for a refresh notice began after that notice was sent (after its
  commit): a socket told the same notice may join it, even once done (late arrivals
  busy with another frame); keys are unique per notice, kept a few seconds.
A read that started before someone asked, for another notice or none, is not joined:
that asker starts the next one.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

# How long a finished read answers late arrivals of the same notice.
KEEP_SECONDS = 5.0


@dataclass
class _Read(Generic[T]):
    future: asyncio.Future[T] | None = None
    started: bool = False
    notices: set[str] = field(default_factory=set)


class SharedReads(Generic[T]):
    """Single flight per key (a table), as the module docstring says.

    ``run`` runs a sync function where reads run (the consumers' ``db_call``); the
    function itself marks the read started, under a lock shared with the askers, so
    "not started yet" is exact however the threads interleave.
    """

    def __init__(self, run: Callable[[Callable[[], T]], Awaitable[T]],
                 keep_seconds: float = KEEP_SECONDS) -> None:
        self._run = run
        self._keep = keep_seconds
        self._lock = threading.Lock()
        self._waiting: dict[str, _Read[T]] = {}  # key -> its read not started yet
        self._by_notice: dict[tuple[str, str], asyncio.Future[T]] = {}

    async def get(self, key: str, read: Callable[[], T], notice: str | None = None) -> T:
        if notice is not None:
            known = self._by_notice.get((key, notice))
            if known is not None:
                return await asyncio.shield(known)
        with self._lock:
            pending = self._waiting.get(key)
            if pending is None:
                pending = self._waiting[key] = _Read()
                starting = True
            else:
                starting = False
            if notice is not None:
                pending.notices.add(notice)
        if starting:
            pending.future = asyncio.ensure_future(self._run(self._marked(key, pending, read)))
            pending.future.add_done_callback(lambda done: self._forget(key, pending, done))
        assert pending.future is not None
        if notice is not None:
            self._by_notice[(key, notice)] = pending.future
        # A waiter that is cancelled (its socket closed) does not cancel the others' read.
        return await asyncio.shield(pending.future)

    def _marked(self, key: str, pending: _Read[T], read: Callable[[], T]) -> Callable[[], T]:
        def run() -> T:
            with self._lock:  # from here on, a new asker starts the next read
                pending.started = True
                if self._waiting.get(key) is pending:
                    del self._waiting[key]
            return read()

        return run

    def _forget(self, key: str, pending: _Read[T], done: asyncio.Future[T]) -> None:
        with self._lock:  # a read that failed before it started
            if self._waiting.get(key) is pending:
                del self._waiting[key]
        failed = done.cancelled() or done.exception() is not None
        # A failed read is not kept: the next notice (or a resync) reads again.
        delay = 0.0 if failed else self._keep
        loop = asyncio.get_running_loop()
        for notice in pending.notices:
            loop.call_later(delay, self._by_notice.pop, (key, notice), None)

    def __len__(self) -> int:
        """Reads waiting to start plus notices remembered (for tests)."""
        return len(self._waiting) + len(self._by_notice)
