"""WebSocket routes of tournaments."""

from __future__ import annotations

from django.urls import path

from games.tournaments.consumers import BannerConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/me/", BannerConsumer.as_asgi()),
]
