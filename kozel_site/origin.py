"""The WebSocket origin check: the page that opens a socket must be this site's own,
scheme, host and port alike.

channels' ``AllowedHostsOriginValidator`` compares the origin's host with
``ALLOWED_HOSTS`` only, so a page served from another port of the same host (any local
service, ``http://127.0.0.1:1``) could open a socket with the visitor's cookies. Here the
origin must equal the handshake's own origin: the scheme it came in on (``wss`` behind
the proxy's ``SECURE_PROXY_SSL_HEADER`` counts as https) and its ``Host`` header, with
default ports filled in; or be one of ``CSRF_TRUSTED_ORIGINS``, as a form post would.
A handshake without a ``Host`` header does not come from a browser (every browser sends
one, and only browsers are fooled by a foreign page), and keeps the host-only check.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return str(value.decode("latin1"))
            except UnicodeDecodeError:
                return None
    return None


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an ``Origin`` value, the port filled in; None when it
    is not an http(s) origin (``null``, garbage, a bad port)."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or _DEFAULT_PORTS[parts.scheme]


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, wanted = proxy
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        return (_header(scope, header) or "").split(",")[0].strip() == wanted
    return False


def own_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The handshake's own origin from its scheme and ``Host`` header, or None without
    a usable ``Host``."""
    host = _header(scope, b"host")
    if not host:
        return None
    scheme = "https" if _secure(scope) else "http"
    return origin_key(f"{scheme}://{host}")


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether this handshake's ``Origin`` is the site's own (see the module's doc)."""
    origin = _header(scope, b"origin")
    key = origin_key(origin) if origin else None
    if key is None:
        return False
    hostname = key[1]
    host_for_django = f"[{hostname}]" if ":" in hostname else hostname
    allowed_hosts = settings.ALLOWED_HOSTS or (
        ["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    if not validate_host(split_domain_port(host_for_django)[0] or host_for_django,
                         allowed_hosts):
        return False
    trusted = {origin_key(o) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if key in trusted:
        return True
    own = own_origin(scope)
    if own is None:
        return _header(scope, b"host") is None  # not a browser: the host check above
    return key == own


class SameOriginValidator(OriginValidator):
    """channels' ``OriginValidator`` shape, judging by :func:`origin_allowed`."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, [])

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards WebSocket connections only")
        if origin_allowed(scope):
            inner: Any = self.application
            return await inner(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
