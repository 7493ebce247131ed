"""ASGI entry point: HTTP to Django, WebSockets through auth and an origin check
(scheme, host and port: kozel_site/origin.py)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")
# Django must be set up before anything imports models (consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.language import read_scope_language  # noqa: E402
from accounts.moderation.asgi import SuspensionGate, read_suspension  # noqa: E402
from kozel_site.origin import SameOriginValidator  # noqa: E402
from kozel_site.routing import websocket_urlpatterns  # noqa: E402
from kozel_site.ws import auth_middleware_stack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            # A suspended account's handshakes are refused. The suspension and the
            # socket's language are read with the user. (The stubs type URLRouter's
            # routes as channels' own pattern class; Django's path() makes them.)
            auth_middleware_stack(SuspensionGate(URLRouter(websocket_urlpatterns)),  # type: ignore[arg-type]
                                  readers=(read_suspension, read_scope_language))
        ),
    }
)
