"""All WebSocket routes of the site, gathered from the apps."""

from __future__ import annotations

from django.urls import path, re_path

from accounts.social.routing import websocket_urlpatterns as social_patterns
from games.routing import websocket_urlpatterns as games_patterns
from games.tournaments.routing import websocket_urlpatterns as tournament_patterns
from kozel_site.consumers import PingConsumer, UnknownPathConsumer

# django-stubs types path() for views; channels routes ASGI applications through it.
websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),  # type: ignore[arg-type]
    *games_patterns,
    *tournament_patterns,
    *social_patterns,  # ws/me/: the per-user page socket
    # Last: any other path is refused at the handshake instead of raising in the router.
    re_path(r"", UnknownPathConsumer.as_asgi()),  # type: ignore[arg-type]
]
