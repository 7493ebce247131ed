"""What every WebSocket consumer of the site shares: how it reaches the database.

Measured with ``python -m tests.load play --tables 100`` (py-spy ``--gil`` on a web
process, and A/B runs of the same command one after the other; issue 15):

- channels 4.2 runs ``close_old_connections`` before *every* message a consumer handles
  (each frame, each group event), through ``sync_to_async`` on the process's one sync
  thread: at 100 tables every move's fan-out queued there behind the moves and the
  snapshot builds, 14 % of a web process's CPU for hops that close nothing. Our
  consumers reach the database only through :func:`db_call`, which closes old
  connections before and after each call itself (channels' ``DatabaseSyncToAsync``), so
  :class:`SiteSocket` skips the per-message hop. The echo floor went from p50/p99
  53/2146 ms to 10/180 ms, the move round trip's p50 from 70 to 50 ms.
- The database calls stay on that one sync thread (thread-sensitive, channels'
  default). The loop's thread pool was measured too and was worse (move p50 50 → 160 ms,
  p99 860 → 1390 ms): six threads fought for the GIL and PostgreSQL got four times the
  connections for the same work. Handing a move's broadcast to the event loop without
  waiting for Redis changed nothing measurable (p99 856 → 820 ms) and was left out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async

P = ParamSpec("P")
R = TypeVar("R")


def db_call(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``fn`` run on the process's sync thread, old connections closed around it: the
    only way the site's consumers reach the database (see :class:`SiteSocket`)."""
    return database_sync_to_async(fn)  # type: ignore[return-value]


class SiteSocket:
    """Mixin (before the channels consumer class) for every consumer of the site:
    dispatch without channels' per-message connection hop (see the module docstring),
    and drop a frame for a socket that is already closing.

    A broadcast or a reply can race the client's close (or our own 4008): daphne then
    raises ``Disconnected`` ("Attempt to send on a closed protocol"), which would end the
    consumer with a traceback and skip ``disconnect`` (found by ``python -m tests.load
    fuzz``). The client is gone or going; it resyncs when it comes back.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the consumer with an ASGI ``send`` that drops a message for a closed
        socket. At this depth every way out is covered: ``send``, ``send_json`` (which
        calls the parent class's ``send`` past any override here; CI's load smoke met
        its ``Disconnected`` at the end of a run), ``accept`` and ``close``."""

        async def send_unless_closed(message: Any) -> None:
            with contextlib.suppress(Disconnected):
                await send(message)

        await super().__call__(scope, receive, send_unless_closed)  # type: ignore[misc]
