"""kozel_site/ws_handshakes.py (issue 15): a web process serves a crowd of WebSocket
handshakes a few at a time, in arrival order; a handshake's turn ends with its first
frame, its refusal, a short grace after a bare accept, or its consumer's end.

The inner application is a scripted consumer and the ASGI server's ``send`` a list:
the server is the boundary here. The whole site's stack runs through the middleware in
every table socket test (tests/games/ws.py connects to ``kozel_site.asgi.application``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kozel_site import ws_handshakes
from kozel_site.ws_handshakes import ACCEPT_GRACE_SECONDS, HandshakeTurns
from tests.waiting import until


class Scripted:
    """An ASGI app whose handshakes are started, and told what to do, by the test."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.running: set[str] = set()
        self.steps: dict[str, asyncio.Queue[str]] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        name = scope["path"]
        self.started.append(name)
        self.running.add(name)
        steps = self.steps.setdefault(name, asyncio.Queue())
        try:
            while (step := await steps.get()) != "end":
                if step == "raise":
                    raise RuntimeError("the consumer failed")
                await send({"type": step})
        finally:
            self.running.discard(name)

    def tell(self, name: str, *steps: str) -> None:
        queue = self.steps.setdefault(name, asyncio.Queue())
        for step in steps:
            queue.put_nowait(step)


def _socket(turns: HandshakeTurns, name: str, sent: list[tuple[str, str]],
            kind: str = "websocket") -> asyncio.Task[None]:
    async def server_send(message: dict[str, Any]) -> None:
        sent.append((name, message["type"]))

    async def receive() -> dict[str, Any]:
        await asyncio.Event().wait()
        return {}

    scope = {"type": kind, "path": name}
    return asyncio.create_task(turns(scope, receive, server_send))


async def _loop_turns() -> None:
    """Let the loop run the ready tasks a few times (one waiting for a turn that is free
    starts in the first)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_crowd_of_handshakes_is_served_a_few_at_a_time_in_arrival_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Only a frame, a refusal or an end may end a turn here, never the accept's grace.
    monkeypatch.setattr(ws_handshakes, "ACCEPT_GRACE_SECONDS", 60.0)
    app = Scripted()
    turns = HandshakeTurns(app, at_once=2)
    sent: list[tuple[str, str]] = []
    tasks = [_socket(turns, f"/s{i}", sent) for i in range(5)]
    await until(lambda: app.started == ["/s0", "/s1"], 5, "the handshakes' turns")
    await _loop_turns()
    assert app.started == ["/s0", "/s1"]
    # /s0's first frame (after its accept) ends its turn: /s2 begins, /s0 lives on.
    app.tell("/s0", "websocket.accept", "websocket.send")
    await until(lambda: app.started == ["/s0", "/s1", "/s2"], 5, "the handshakes' turns")
    assert "/s0" in app.running
    # A refusal ends a turn: /s3 begins.
    app.tell("/s1", "websocket.close")
    await until(lambda: app.started[-1] == "/s3", 5, "the handshakes' turns")
    await _loop_turns()
    assert app.started[-1] == "/s3"  # /s2 and /s3 hold the two turns: /s4 waits
    # A consumer that fails ends its turn too: /s4 begins.
    app.tell("/s2", "raise")
    await until(lambda: app.started[-1] == "/s4", 5, "the handshakes' turns")
    assert app.started == ["/s0", "/s1", "/s2", "/s3", "/s4"]
    for name in ("/s0", "/s1", "/s3", "/s4"):
        app.tell(name, "end")
    await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(tasks[2].exception(), RuntimeError)
    assert ("/s0", "websocket.send") in sent and ("/s1", "websocket.close") in sent


async def test_a_bare_accept_ends_its_turn_after_the_grace() -> None:
    app = Scripted()
    turns = HandshakeTurns(app, at_once=1)
    sent: list[tuple[str, str]] = []
    tasks = [_socket(turns, f"/s{i}", sent) for i in range(2)]
    await until(lambda: app.started == ["/s0"], 5, "the handshakes' turns")
    loop = asyncio.get_running_loop()
    accepted_at = loop.time()
    app.tell("/s0", "websocket.accept")  # and nothing to send yet
    await until(lambda: app.started == ["/s0", "/s1"], 5, "the handshakes' turns")
    assert loop.time() - accepted_at >= ACCEPT_GRACE_SECONDS * 0.9
    for name in ("/s0", "/s1"):
        app.tell(name, "end")
    await asyncio.gather(*tasks)


async def test_http_passes_while_every_turn_is_taken() -> None:
    app = Scripted()
    turns = HandshakeTurns(app, at_once=1)
    sent: list[tuple[str, str]] = []
    socket = _socket(turns, "/ws", sent)
    await until(lambda: app.started == ["/ws"], 5, "the handshakes' turns")
    page = _socket(turns, "/page", sent, kind="http")
    await until(lambda: app.started == ["/ws", "/page"], 5, "the handshakes' turns")
    for name in ("/ws", "/page"):
        app.tell(name, "end")
    await asyncio.gather(socket, page)


async def test_zero_serves_every_handshake_at_once() -> None:
    app = Scripted()
    turns = HandshakeTurns(app, at_once=0)
    sent: list[tuple[str, str]] = []
    tasks = [_socket(turns, f"/s{i}", sent) for i in range(6)]
    await until(lambda: len(app.started) == 6, 5, "the handshakes' turns")
    for i in range(6):
        app.tell(f"/s{i}", "end")
    await asyncio.gather(*tasks)


def test_the_site_serves_its_websockets_through_the_turns() -> None:
    from django.conf import settings

    from kozel_site.asgi import application

    websocket = application.application_mapping["websocket"]
    assert isinstance(websocket, HandshakeTurns)
    assert websocket.at_once == settings.KOZEL_WS_HANDSHAKES_AT_ONCE > 0
