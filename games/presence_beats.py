"""One heartbeat for all of a web process's table sockets (games/presence.py).

Each event loop keeps the table sockets open on it and refreshes them all every
``HEARTBEAT`` seconds in one Redis pipeline, with the server's run id read in the same
round trip; a socket whose Redis has restarted since it joined its groups is told so
(:meth:`Beating.redis_run_seen`). One beat per process, not one per socket, because the
sockets of a web process open together (its clients coming back after another process
died) and their separate beats came in bursts.

A socket is refreshed while it is registered here: from its connect (which wrote its
first entry) to the end of its consumer, whatever ends it (``TableConsumer.__call__``'s
``finally``). If the whole process dies, its sockets' entries expire (three missed
beats).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from typing import Protocol

from asgiref.sync import sync_to_async

from games import presence as store
from games.services import presence

logger = logging.getLogger(__name__)


class Beating(Protocol):
    """A table socket as the beat sees it."""

    channel_name: str
    redis_run_id: str | None  # the Redis server it joined its groups on, if known

    def presence_entry(self) -> tuple[int, str, int | None]:
        """(table, conn, person id) as its connect recorded them."""

    async def redis_run_seen(self, run_id: str) -> None:
        """Redis answered with a run id other than the socket's (a restarted server)."""


class Beats:
    """The table sockets open on one event loop, refreshed together."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.sockets: dict[str, Beating] = {}
        # A context of its own: created during some socket's connect, the task must not
        # carry that socket's language (or anything else it activated) to the others.
        self.task = loop.create_task(self._run(), context=contextvars.Context())
        self.told: set[asyncio.Task[None]] = set()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(store.heartbeat_seconds())
            try:
                await self.beat()
            except Exception:  # noqa: BLE001 - the next beat tries again
                logger.exception("presence: the process's heartbeat failed")

    async def beat(self) -> None:
        """Refresh every registered socket's entry, then tell each the run id."""
        sockets = list(self.sockets.values())
        if not sockets:
            return
        run_id = await sync_to_async(presence.heartbeat_many, thread_sensitive=False)(
            [socket.presence_entry() for socket in sockets])
        if run_id is None:
            return  # unreachable right now: the next beat asks again
        for socket in sockets:
            if (socket.redis_run_id != run_id
                    and self.sockets.get(socket.channel_name) is socket):
                told = asyncio.ensure_future(socket.redis_run_seen(run_id))
                self.told.add(told)
                told.add_done_callback(self.told.discard)


_beats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Beats] = (
    weakref.WeakKeyDictionary())


def beats() -> Beats:
    """The running loop's beats, started on first use."""
    loop = asyncio.get_running_loop()
    found = _beats.get(loop)
    if found is None or found.task.done():
        found = _beats[loop] = Beats(loop)
    return found


def add(socket: Beating) -> None:
    """Refresh ``socket``'s entry with the others from now on."""
    beats().sockets[socket.channel_name] = socket


def discard(socket: Beating) -> None:
    """Stop refreshing ``socket``'s entry (its consumer ended)."""
    found = _beats.get(asyncio.get_running_loop())
    if found is not None and found.sockets.get(socket.channel_name) is socket:
        del found.sockets[socket.channel_name]
