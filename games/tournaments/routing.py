"""WebSocket routes of tournaments."""

from __future__ import annotations

from django.urls import path

from games.tournaments.consumers import BannerConsumer, TournamentConsumer

# django-stubs types path() for views only; channels' URLRouter takes ASGI apps in it.
websocket_urlpatterns = [
    path("ws/tournament/<wsid:tournament_id>/",
         TournamentConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/tournaments/me/", BannerConsumer.as_asgi()),  # type: ignore[arg-type]
]
