"""The floor: a bare echo-broadcast through daphne and channels-redis (no game, no DB).

``ws/load/echo/<room>/``: every text frame a socket sends is broadcast, through the
Redis channel layer, to every socket of its room. Four sockets per room, spread over
the web processes like a table's seats, give the cost of the transport alone; the
harness reports the move round trip as a multiple of it. Routed only by the harness's
own ASGI application (tests/load/asgi.py), never by the site.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from kozel_site.ws import SiteSocket


class EchoConsumer(SiteSocket, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"loadfloor.{self.scope['url_route']['kwargs']['room']}"[:90]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if text_data is not None and len(text_data) <= 256:
            await self.channel_layer.group_send(self.group, {"type": "floor.echo",
                                                             "text": text_data})

    async def floor_echo(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
