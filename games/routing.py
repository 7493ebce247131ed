"""WebSocket routes of the games app."""

from __future__ import annotations

from django.urls import path

from games.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/table/<wsid:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
