"""ASGI middleware: a suspended account's WebSocket handshakes are refused.

Sits inside the site's auth middleware stack (kozel_site/asgi.py) so ``scope["user"]`` is
known; closing before ``accept`` makes daphne answer the handshake with HTTP 403.
Sockets already open are closed by the sanction service through the user's
channel-layer group. The check only reads, and it reads in the auth middleware's
own hop to the process's reading thread (:func:`read_suspension`, one of its readers:
kozel_site/ws.py), not in a hop of its own nor in line with every table's moves.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured

from accounts.moderation import selectors

CLOSE_SUSPENDED = 4403
SCOPE_KEY = "suspended"


def read_suspension(scope: dict[str, Any]) -> None:
    """(On the reading thread, after the user.) Whether the handshake's account is
    suspended, kept in the scope for :class:`SuspensionGate`."""
    scope[SCOPE_KEY] = selectors.suspension_of(scope.get("user")) is not None


class SuspensionGate:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket":
            if SCOPE_KEY not in scope:  # fail closed: never let an unchecked socket in
                raise ImproperlyConfigured(
                    "SuspensionGate needs read_suspension among the auth stack's readers")
            if scope[SCOPE_KEY]:
                message = await receive()
                if message.get("type") == "websocket.connect":
                    await send({"type": "websocket.close", "code": CLOSE_SUSPENDED})
                return None
        return await self.inner(scope, receive, send)
