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
- The database calls that may write run on ``KOZEL_WS_WRITE_THREADS`` threads of their
  own, two by default (one: channels' thread-sensitive default, the process's sync
  thread, which Django's sync views share). With one, every move of the process queued
  behind a game's end (its result, the series' score, then hooks that ask the database
  and the broker: 2.5 times a move's time under load), and in four alternating pairs
  of ``play --tables 100`` two threads had the lower p99 every time: 54/42/26/35 ms
  against 63/61/32/42 ms, the slowest ordinary move 58–110 ms against 117–165 ms. The
  loop's own pool was worse (move p50 50 → 160 ms, p99 860 → 1390 ms, in a round when a
  move took eight round trips): six threads fought for the GIL and PostgreSQL got four
  times the connections for the same work; a move is now mostly waiting for PostgreSQL
  (a few round trips). Three threads against one, one pair,
  were not better (p99 40 against 28 ms), so two it is.
- Calls that only read (a table's snapshot facts, who may view it, a reader's chat
  choices, and everything a handshake asks: :class:`ReadThreadAuthMiddleware`) run on
  one second thread, :func:`db_read`: when many games end together each
  process reads every such table's facts (~14 ms each under load), and behind those
  reads the moves of every other table waited on the one thread (python -m tests.load
  play: 25 % of that thread's time, the tail of every run).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from autobahn.exception import Disconnected
from channels.auth import AuthMiddleware, get_user
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.conf import settings
from django.db import close_old_connections

from kozel_site import wire_json
from kozel_site.ws_inbox import dispatch_as_they_come

P = ParamSpec("P")
R = TypeVar("R")
# Reads what a handshake needs of its person once the user is known, into the scope.
ScopeReader = Callable[[dict[str, Any]], None]


_WRITE_THREADS: dict[int, ThreadPoolExecutor] = {}


def _write_threads() -> ThreadPoolExecutor | None:
    """The process's writing threads (``KOZEL_WS_WRITE_THREADS``), or None for one:
    then channels' own, the process's sync thread."""
    count = settings.KOZEL_WS_WRITE_THREADS
    if count <= 1:
        return None
    if count not in _WRITE_THREADS:
        _WRITE_THREADS[count] = ThreadPoolExecutor(max_workers=count,
                                                   thread_name_prefix="db-write")
    return _WRITE_THREADS[count]


def db_call(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``fn`` run on one of the process's writing threads, old connections closed
    around it: the only way the site's consumers reach the database (see
    :class:`SiteSocket`) for what may write."""
    pool = _write_threads()
    if pool is None:
        return database_sync_to_async(fn)  # type: ignore[return-value]
    return SyncToAsync(_closing_connections(fn), thread_sensitive=False, executor=pool)


def _closing_connections(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` with old connections closed before and after it, inside the call: Django
    keeps a connection in the context the call runs in, which channels' own closing
    (outside it, in ``thread_handler``) does not see for a thread that is not the sync
    thread (tests saw the read thread's connections outlive them)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        close_old_connections()
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    return run


_READ_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-read")


def db_read(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``fn``, which only reads, run on the process's one read thread, old connections
    closed around it (see the module docstring): never a call that writes, which must
    go to :func:`db_call`'s threads."""

    return SyncToAsync(_closing_connections(fn), thread_sensitive=False,
                       executor=_READ_THREAD)


class ReadThreadAuthMiddleware(AuthMiddleware):
    """channels' ``AuthMiddleware`` with the handshake's user read on :func:`db_read`'s
    thread. channels reads it on the process's sync thread (then its one writing
    thread), where a crowd of handshakes
    (the 400 sockets of a load run opening, a web process's sockets reconnecting to
    another after it died, the fuzzer's 157 sockets) queued in line with every
    table's moves (python -m tests.load, issue 15).

    ``readers`` read, on the same thread in the same hop, what else every handshake
    needs to know of its person, and keep it in the scope (kozel_site/asgi.py: the
    suspension, the language): a hop each was two more hand-overs per handshake in
    line on the reading thread (python -m tests.load drop, issue 15).

    It reads, with one exception that channels' own reading has too: a session whose
    password hash no longer matches (the password changed elsewhere) is flushed, one
    DELETE of that session's row, which no other call waits for."""

    def __init__(self, inner: Any, readers: Sequence[ScopeReader] = ()) -> None:
        super().__init__(inner)
        self.readers = tuple(readers)

    async def resolve_scope(self, scope: Any) -> None:
        await db_read(self._read)(scope)

    def _read(self, scope: Any) -> None:
        """The user, then every reader's answer (kept in the scope), in one hop."""
        scope["user"]._wrapped = get_user.func(scope)
        for reader in self.readers:
            reader(scope)


class SocketSessionMiddleware(SessionMiddleware):
    """channels' ``SessionMiddleware`` without its ``send`` wrapper on a WebSocket. The
    wrapper saves a changed session only when an HTTP response starts
    (``save_message_types``), yet for every frame a socket sent it asked the session
    whether it had changed and was empty (3.4 % of a web process's event loop under the
    fuzzer, python -m tests.load fuzz, issue 15). The session is resolved as before."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        saves_nothing_here = scope["type"] == "websocket"
        return await self.inner(wrapper.scope, receive,
                                send if saves_nothing_here else wrapper.send)


def auth_middleware_stack(inner: Any, readers: Sequence[ScopeReader] = ()) -> Any:
    """channels' ``AuthMiddlewareStack`` with :class:`SocketSessionMiddleware` and
    :class:`ReadThreadAuthMiddleware` (and its ``readers``)."""
    return CookieMiddleware(SocketSessionMiddleware(ReadThreadAuthMiddleware(inner, readers)))


class SiteSocket:
    """Mixin (before the channels consumer class) for every consumer of the site:
    dispatch without channels' per-message connection hop (see the module docstring),
    frames read and written by :mod:`kozel_site.wire_json`, and drop a frame for a
    socket that is already closing.

    A broadcast or a reply can race the client's close (or our own 4008): daphne then
    raises ``Disconnected`` ("Attempt to send on a closed protocol"), which would end the
    consumer with a traceback and skip ``disconnect`` (found by ``python -m tests.load
    fuzz``). The client is gone or going; it resyncs when it comes back.
    """

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        return wire_json.loads(text_data)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return wire_json.dumps(content)

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

        # channels' AsyncConsumer.__call__, with the socket's inbox
        # (kozel_site/ws_inbox.py) in place of its await_many_dispatch.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive,
                                                     self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send_unless_closed
        with contextlib.suppress(StopConsumer):
            await dispatch_as_they_come(sources, self.dispatch)
