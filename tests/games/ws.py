"""WebSocket test helpers: authenticated communicators on the real ASGI application."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from kozel_site.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


@database_sync_to_async
def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Recorder:
    """A communicator that records every frame it receives."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[dict[str, Any]] = []

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        frame = await self.communicator.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def receive_type(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            frame = await self.receive(timeout)
            if frame["type"] == kind:
                return frame

    async def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        got = []
        while True:
            try:
                got.append(await self.receive(timeout=quiet))
            except TimeoutError:
                return got

    async def send(self, frame: dict[str, Any]) -> None:
        await self.communicator.send_json_to(frame)

    async def close(self) -> None:
        await self.communicator.disconnect()


async def connect(table_id: int, user=None, *, path: str | None = None,
                  session: str | None = None) -> Recorder:
    """A handshake as ``user`` (signed in anew, or with the ``session`` key given)."""
    headers = [ORIGIN]
    if user is not None or session is not None:
        key = session if session is not None else await session_cookie(user)
        headers.append((b"cookie", f"sessionid={key}".encode()))
    communicator = WebsocketCommunicator(application, path or f"/ws/table/{table_id}/",
                                         headers=headers)
    connected, code = await communicator.connect(timeout=5)
    if not connected:
        raise ConnectionRefusedError(code)
    return Recorder(communicator)
