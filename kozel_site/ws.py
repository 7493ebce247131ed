"""What every WebSocket consumer of the site shares: channels' own consumers and
middleware, plus the handshake's readers and a frame to a closed socket dropped
instead of a crash."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, TypeVar

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.auth import AuthMiddleware
from channels.consumer import AsyncConsumer, get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings

from kozel_site import flood

# Close codes every site socket uses (4000-4999: the application's own, RFC 6455).
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4008

T = TypeVar("T")
# The raw close a SiteSocket sends (it is a mixin: the consumer's own ``close`` is not
# known here).
_FLOOD_CLOSE: Any = {"type": "websocket.close", "code": CLOSE_FLOOD}

# Reads what a handshake needs of its person once the user is known, into the scope.
ScopeReader = Callable[[dict[str, Any]], None]

# The one executor of the sockets' database calls: a few threads of their own, each with
# its own database connection, so that one table's move or handshake does not wait for
# every other table's on the process's single sync thread.
_SOCKET_DATABASE_THREADS = ThreadPoolExecutor(
    max_workers=settings.KOZEL_WS_DATABASE_THREADS, thread_name_prefix="socket-db")


def db_call(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``fn`` made awaitable on the sockets' database threads, through channels' own
    wrapper (old connections closed around each call, as a request would)."""
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_SOCKET_DATABASE_THREADS)


class ReaderAuthMiddleware(AuthMiddleware):
    """channels' ``AuthMiddleware``, then ``readers`` read what else every handshake needs
    to know of its person and keep it in the scope (kozel_site/asgi.py: the suspension,
    the language), in one database call."""

    def __init__(self, inner: Any, readers: Sequence[ScopeReader] = ()) -> None:
        super().__init__(inner)
        self.readers = tuple(readers)

    async def resolve_scope(self, scope: Any) -> None:
        await super().resolve_scope(scope)
        if self.readers:
            await db_call(self._read)(scope)

    def _read(self, scope: Any) -> None:
        for reader in self.readers:
            reader(scope)


def auth_middleware_stack(inner: Any, readers: Sequence[ScopeReader] = ()) -> Any:
    """channels' ``AuthMiddlewareStack`` with :class:`ReaderAuthMiddleware`."""
    return CookieMiddleware(SessionMiddleware(ReaderAuthMiddleware(inner, readers)))


class SiteSocket(AsyncConsumer):
    """Mixin (before the channels consumer class) for every consumer of the site.

    A broadcast or a reply can race the client's close (or our own 4008): daphne then
    raises autobahn's ``Disconnected`` from ``send``, which would end the consumer with a
    traceback and skip ``disconnect``. The client is gone or going, and resyncs when it comes back,
    so such a frame is dropped.

    Every socket is flood-controlled here (kozel_site/flood.py): a client cooling down
    is refused before its consumer's ``connect``; frames
    past the socket's budget are dropped, and a socket that keeps sending them is
    closed with 4008 and its client cooled down. A consumer that answers refused frames
    itself (the table's ``rate_limited`` errors) sets ``own_frame_budget``.
    """

    own_frame_budget: ClassVar[bool] = False
    flood_key: str | None = None
    frame_bucket: flood.FrameBucket | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def send_unless_closed(message: Any) -> None:
            with contextlib.suppress(Disconnected):
                await send(message)

        await super().__call__(scope, receive, send_unless_closed)

    async def dispatch(self, message: Any) -> None:
        """channels' ``dispatch`` (4.2+, django/channels#2090) without its
        ``aclose_old_connections`` before every message: a hop to the process's one sync
        thread for every frame and every group message, which queued behind the
        handshakes' reads. Our consumers reach the database only through
        :func:`db_call`, which closes old connections around each call itself."""
        kind = message["type"]
        if kind == "websocket.connect":
            self.flood_key = flood.client_key(self.scope)
            self.frame_bucket = flood.FrameBucket()
            if await sync_to_async(flood.cooling_down, thread_sensitive=False)(self.flood_key):
                await self.base_send(_FLOOD_CLOSE)
                return  # refused before any work of the consumer's
        elif kind == "websocket.receive" and not self.own_frame_budget \
                and not await self._within_budget():
            return  # past the budget: dropped
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _within_budget(self) -> bool:
        """Spend this frame's token; past the budget the frame is dropped, and a socket
        that keeps sending is closed with 4008 and its client cooled down."""
        bucket = self.frame_bucket
        if bucket is None or bucket.exhausted:
            return False  # closed for flooding: the frames still queued are not served
        if bucket.take():
            return True
        if bucket.exhausted:
            await sync_to_async(flood.start, thread_sensitive=False)(self.flood_key)
            await self.base_send(_FLOOD_CLOSE)
        return False
