"""The site's address and name for what leaves the site (e-mails, notifications).

A link in an e-mail has no page to be relative to, so every one is built here, from one
setting: ``KOZEL_SITE_URL`` (scheme and host, e.g. ``https://kozel.example``). Production
requires it (system check ``kozel.E020``). In development, when it is unset, the address
the site was last reached at is remembered (:class:`RememberOriginMiddleware`, shared
with the Celery worker through the cache), else ``http://127.0.0.1:<KOZEL_PORT>``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

ORIGIN_KEY = "site_url.origin"
ORIGIN_SECONDS = 24 * 60 * 60


def valid_site_url(value: str) -> bool:
    """An absolute http(s) address of a host, without a path, query or fragment."""
    parts = urlsplit(value)
    return (parts.scheme in ("http", "https") and bool(parts.hostname)
            and parts.path in ("", "/") and not parts.query and not parts.fragment)


def configured() -> str:
    """``KOZEL_SITE_URL`` without a trailing slash, or "" when unset."""
    return str(getattr(settings, "KOZEL_SITE_URL", "") or "").strip().rstrip("/")


def site_url(request: HttpRequest | None = None) -> str:
    """The site's address: the setting; in development, else the request's or the last
    remembered one; else the development server's."""
    if configured():
        return configured()
    if request is not None:
        return f"{request.scheme}://{request.get_host()}"
    remembered = cache.get(ORIGIN_KEY)
    if isinstance(remembered, str) and valid_site_url(remembered):
        return remembered
    return f"http://127.0.0.1:{os.environ.get('KOZEL_PORT', '8000')}"


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """``path`` (a site path such as ``/tournament/1/``) as a link that works anywhere."""
    if urlsplit(path).scheme:
        return path
    return site_url(request) + "/" + path.lstrip("/")


def site_name() -> str:
    return str(getattr(settings, "KOZEL_SITE_NAME", "") or "Kozel")


def email_subject(text: str) -> str:
    """A subject that begins with the site's name, so that no user-chosen text (a table
    or event name) ever leads it; one line, at most 150 characters."""
    return f"{site_name()}: {' '.join(str(text).split())}"[:150]


class RememberOriginMiddleware:
    """In development (no ``KOZEL_SITE_URL``), remember the address the site is being
    reached at, so that a worker's e-mails link to it too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not configured():
            try:
                origin = f"{request.scheme}://{request.get_host()}"
            except Exception:  # noqa: BLE001 - a disallowed host: Django answers it
                origin = ""
            if origin and valid_site_url(origin) and cache.get(ORIGIN_KEY) != origin:
                cache.set(ORIGIN_KEY, origin, ORIGIN_SECONDS)
        return self.get_response(request)
