"""The load harness's ASGI application: the site's, plus the floor's echo route.

The daphne processes of the load layout serve this module instead of
``kozel_site.asgi``: the same HTTP app and the same WebSocket routes, with
``ws/load/echo/<room>/`` (tests/load/floor.py) in front. The site never routes it.
"""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from kozel_site.asgi import django_asgi_app
from kozel_site.routing import websocket_urlpatterns
from tests.load.floor import EchoConsumer

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([
                path("ws/load/echo/<str:room>/", EchoConsumer.as_asgi()),
                *websocket_urlpatterns,
            ]))
        ),
    }
)
