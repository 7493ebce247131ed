"""System checks that fail loudly on settings the site cannot run correctly with."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register()
def check_site_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """kozel.E001 in-memory channel layer; kozel.E002 TIME_ZONE; kozel.E003 locmem cache."""
    errors: list[Error] = []
    testing = getattr(settings, "KOZEL_TEST_HOOKS", False)
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if "InMemory" in backend and not testing:
        errors.append(
            Error(
                "The in-memory channel layer cannot carry broadcasts between processes.",
                hint="Use channels-redis (KOZEL_CHANNEL_LAYER), even in development.",
                id="kozel.E001",
            )
        )
    if settings.TIME_ZONE != "UTC":
        errors.append(
            Error("TIME_ZONE must be UTC: clocks and deadlines are stored in UTC.",
                  id="kozel.E002")
        )
    cache_backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if "locmem" in cache_backend.lower() and not testing:
        errors.append(
            Error(
                "allauth rate limits need a cache shared by every process.",
                hint="Use django.core.cache.backends.redis.RedisCache.",
                id="kozel.E003",
            )
        )
    return errors
