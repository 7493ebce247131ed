"""The load harness's ASGI application: the site's own, plus the floor's echo route.

The daphne processes of the load layout serve this module instead of
``kozel_site.asgi``: every scope goes to the site's application unchanged, except
WebSockets on ``/ws/load/echo/<room>/`` (tests/load/floor.py), which the site never
routes. The first scope starts the process's probes (tests/load/probes.py).
"""

from __future__ import annotations

from typing import Any

from channels.routing import URLRouter
from django.urls import path

from kozel_site.asgi import application as site
from tests.load import probes
from tests.load.floor import EchoConsumer

echo = URLRouter([path("ws/load/echo/<str:room>/", EchoConsumer.as_asgi())])


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    probes.start_once()
    if scope["type"] == "websocket" and scope.get("path", "").startswith("/ws/load/echo/"):
        await echo(scope, receive, send)
    else:
        await site(scope, receive, send)
