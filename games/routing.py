"""WebSocket routes of the games app."""

from __future__ import annotations

websocket_urlpatterns: list = []
