"""All WebSocket routes of the site, gathered from the apps."""

from __future__ import annotations

from django.urls import path

from games.routing import websocket_urlpatterns as games_patterns
from kozel_site.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *games_patterns,
]
