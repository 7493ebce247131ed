"""WebSocket route of the social layer: the per-user page socket."""

from __future__ import annotations

from django.urls import path

from accounts.social.consumers import PageConsumer

# django-stubs types path() for views only; channels' URLRouter takes ASGI apps in it.
websocket_urlpatterns = [
    path("ws/me/", PageConsumer.as_asgi()),  # type: ignore[arg-type]
]
