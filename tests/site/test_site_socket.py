"""kozel_site/ws.py: what every site consumer shares on top of channels' own."""

from __future__ import annotations

import asyncio
from typing import Any

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from kozel_site.ws import SiteSocket


async def _run(consumer: type, messages: list[dict[str, Any]],
               server_send: Any) -> None:
    """Run ``consumer`` as daphne would, on ``messages`` from the client."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for message in messages:
        inbox.put_nowait(message)
    scope = {"type": "websocket", "path": "/ws/echo/", "headers": [], "subprotocols": []}
    await asyncio.wait_for(consumer.as_asgi()(scope, inbox.get, server_send), 5)


async def test_a_reply_to_a_socket_that_closed_under_it_is_dropped_not_a_crash():
    """daphne raises autobahn's ``Disconnected`` when a consumer sends on a socket the
    client already closed; through ``send_json`` too. The consumer must go on to its
    disconnect, with no traceback. The ASGI server is the boundary faked here: its
    ``send`` refuses every frame after the accept."""
    disconnected: list[int] = []

    class Echo(SiteSocket, AsyncJsonWebsocketConsumer):
        async def receive_json(self, content, **kwargs):  # type: ignore[no-untyped-def]
            await self.send_json({"echo": content})

        async def disconnect(self, code):  # type: ignore[no-untyped-def]
            disconnected.append(code)

    sent: list[str] = []

    async def server_send(message):  # type: ignore[no-untyped-def]
        sent.append(message["type"])
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")

    await _run(Echo, [{"type": "websocket.connect"},
                      {"type": "websocket.receive", "text": '{"hello": 1}'},
                      {"type": "websocket.disconnect", "code": 1006}], server_send)
    assert sent == ["websocket.accept", "websocket.send"] and disconnected == [1006]
