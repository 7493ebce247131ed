"""A liveness WebSocket: ``ws/ping/`` answers ``ping`` after a trip through the channel layer.

It proves, end to end, that the ASGI stack, the origin check, the session middleware
and the Redis channel layer all work; the table page also uses it to show latency.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer

from kozel_site.ws import CLOSE_NOT_FOUND, SiteSocket

MAX_FRAME_BYTES = 1024


class PingConsumer(SiteSocket, AsyncJsonWebsocketConsumer):
    """Echo a ``{"type": "ping", "nonce": …}`` frame back as ``pong`` via the channel layer."""

    async def connect(self) -> None:
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self.send_json({"type": "error", "code": "bad_frame",
                                  "message": "Send a JSON text frame of at most 1 KiB."})
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):  # a frame nested a few thousand levels deep recurses
            return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json({"type": "error", "code": "bad_frame",
                                  "message": 'Expected {"type": "ping"}.'})
            return
        nonce = content.get("nonce")
        if nonce is not None and not isinstance(nonce, (str, int)):
            nonce = None
        user: Any = self.scope.get("user")
        # Through Redis and back: the message reaches this consumer's own channel.
        await self.channel_layer.send(self.channel_name, {
            "type": "ping.reply",
            "nonce": nonce,
            "user": user.username if user is not None and user.is_authenticated else None,
        })

    async def ping_reply(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "nonce": event.get("nonce"),
                              "user": event.get("user")})


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """The last WebSocket route: refuse the handshake for any path nobody serves.

    Without it Channels' URLRouter raises ValueError ("No route found"), which daphne
    logs as a 500 with a traceback. Closing before ``accept()`` makes daphne answer the
    handshake with HTTP 403.
    """

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)
