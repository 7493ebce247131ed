"""ASGI entry point: HTTP to Django, WebSockets through auth and an origin check."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kozel_site.settings.base")
# Django must be set up before anything imports models (consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.language import read_scope_language  # noqa: E402
from accounts.moderation.asgi import SuspensionGate, read_suspension  # noqa: E402
from kozel_site import autobahn_fixes, autobahn_gil, twisted_fixes  # noqa: E402
from kozel_site.gc_tuning import freeze_after_start_up  # noqa: E402
from kozel_site.routing import websocket_urlpatterns  # noqa: E402
from kozel_site.ws import auth_middleware_stack  # noqa: E402
from kozel_site.ws_handshakes import HandshakeTurns  # noqa: E402

# daphne's frames without autobahn's discarded debug highlighting (the module says why).
autobahn_fixes.install()
# daphne's frames unmasked and validated with the GIL kept (the module says why).
autobahn_gil.install()
# Frames sent at once, not on the loop's next turn (the module says why).
twisted_fixes.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A crowd of handshakes is served a few at a time, in arrival order.
        "websocket": HandshakeTurns(AllowedHostsOriginValidator(
            # A suspended account's handshakes are refused (issue 14). The suspension
            # and the socket's language are read with the user, in one hop.
            auth_middleware_stack(SuspensionGate(URLRouter(websocket_urlpatterns)),
                                  readers=(read_suspension, read_scope_language))
        ), at_once=settings.KOZEL_WS_HANDSHAKES_AT_ONCE),
    }
)

# Start-up's objects out of every later full collection (kozel_site/gc_tuning.py).
freeze_after_start_up()
