"""A web process serves a crowd of WebSocket handshakes a few at a time, in arrival order.

A handshake is the costliest thing a socket asks of a web process (its session, user and
suspension, the table's facts, a snapshot: ~7 ms of CPU, ``python -m tests.load drop``),
and handshakes come in crowds: the fuzzer's 157 sockets at once, a dead web process's
clients reconnecting to the other, a tournament round starting. Served all at once they
share the process evenly, so every one of them waits for the whole crowd and the live
tables' moves queue behind all of their pieces, on the event loop and on the reading
thread; the attack's first ten seconds were the worst of most ``python -m tests.load
fuzz`` runs (issue 15).

:class:`HandshakeTurns` lets ``KOZEL_WS_HANDSHAKES_AT_ONCE`` handshakes of a process run
at a time and queues the rest in arrival order. Each handshake's turn ends with its
first frame (the table's snapshot follows its accept), its refusal, a short grace after
an accept with nothing to send, or the end of its consumer, whichever comes first. The
same total work then finishes earlier on average (first come, first served instead of
all together). The hope that a move would then wait behind a few handshakes' pieces,
not a crowd's, was not borne out above the runs' spread (below).

Measured (round fifteen, two alternating pairs of ``python -m tests.load drop --sockets
1000``, all at once against 4): a handshake to its snapshot p50 232 and 224 ms against
193 and 177 ms, p99 the same (339-372 ms), the CPU per handshake the same. Beside the
fuzzer (three alternating pairs of ``fuzz``) it made no difference above the runs'
spread to the live tables: the attack's first ten seconds p99 26-79 ms against 45-55 ms,
the whole attack's p99 21-27 ms against 26-28 ms.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

# After an accept with no frame yet, the turn ends after this long anyway (a consumer
# that sends nothing first must not hold it).
ACCEPT_GRACE_SECONDS = 0.05
# Messages that end a handshake's turn at once: a first frame or a refusal.
_TURN_ENDERS = frozenset({"websocket.send", "websocket.close",
                          "websocket.http.response.start"})


class HandshakeTurns:
    """ASGI middleware (outermost for WebSockets): at most ``at_once`` handshakes of this
    process at a time, the rest waiting in arrival order; 0 lets every one in at once.
    HTTP and other scopes pass straight through."""

    def __init__(self, inner: Any, at_once: int) -> None:
        self.inner = inner
        self.at_once = at_once
        # One semaphore per event loop (a test suite runs several; daphne one).
        self._turns: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                               asyncio.Semaphore] = weakref.WeakKeyDictionary()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        turns = self._turns.get(loop)
        if turns is None:
            turns = self._turns[loop] = asyncio.Semaphore(self.at_once)
        return turns

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") != "websocket" or self.at_once <= 0:
            return await self.inner(scope, receive, send)
        turns = self._semaphore()
        await turns.acquire()
        held = True

        def end_turn() -> None:
            nonlocal held
            if held:
                held = False
                turns.release()

        async def send_ending_the_turn(message: dict[str, Any]) -> None:
            try:
                await send(message)
            finally:
                kind = message.get("type")
                if kind in _TURN_ENDERS:
                    end_turn()
                elif kind == "websocket.accept" and held:
                    asyncio.get_running_loop().call_later(ACCEPT_GRACE_SECONDS, end_turn)

        try:
            return await self.inner(scope, receive, send_ending_the_turn)
        finally:
            end_turn()
