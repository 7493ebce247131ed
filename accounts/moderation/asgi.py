"""ASGI middleware: a suspended account's WebSocket handshakes are refused.

Sits inside the site's auth middleware stack (kozel_site/asgi.py) so ``scope["user"]`` is
known; closing before ``accept`` makes daphne answer the handshake with HTTP 403
(STACK-NOTES 16). Sockets already open are closed by the sanction service through the
user's channel-layer group. The check only reads: it runs on the process's reading
thread (kozel_site/ws.py), not in line with every table's moves on the writing one.
"""

from __future__ import annotations

from typing import Any

from kozel_site.ws import db_read

CLOSE_SUSPENDED = 4403


def _suspended(user: Any) -> bool:
    from accounts.moderation import selectors

    return selectors.suspension_of(user) is not None


class SuspensionGate:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket":
            user = scope.get("user")
            if user is not None and getattr(user, "is_authenticated", False) and \
                    await db_read(_suspended)(user):
                message = await receive()
                if message.get("type") == "websocket.connect":
                    await send({"type": "websocket.close", "code": CLOSE_SUSPENDED})
                return None
        return await self.inner(scope, receive, send)
