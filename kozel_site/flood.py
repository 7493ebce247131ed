"""Flood control for every socket of the site: a frame budget per socket and a
cool-down after a flood, by person, or by address for anonymous clients.

A socket that keeps sending past its token bucket is closed with 4008, and a flooder
then simply reconnects, many times a second; every handshake costs a web process its
reads beside the live tables. So after a flood close the same client's handshakes on
every route are refused (HTTP 403, as
for any refused handshake) for :data:`COOLDOWN_SECONDS`; pages reconnect with backoff
and get in after it. A signed-in client is its person (its other devices too); an
anonymous one is its address (``scope["client"]``, which daphne takes from the proxy's
``X-Forwarded-For`` when run behind it). Kept in the cache (Redis), so every web process
refuses; without the cache nobody is refused.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from django.core.cache import cache

COOLDOWN_SECONDS = 10
# A token bucket of 20 frames refilled at 10 a second; five frames refused close the
# socket. Pages send a few frames a minute.
BUCKET_SIZE = 20.0
REFILL_PER_SECOND = 10.0
MAX_STRIKES = 5

logger = logging.getLogger(__name__)


def client_key(scope: Mapping[str, Any]) -> str | None:
    """Who a handshake comes from: ``user:<id>``, ``addr:<address>``, or None when
    neither is known."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    client = scope.get("client")
    if client and client[0]:
        return f"addr:{client[0]}"
    return None


def start(key: str | None) -> None:
    """``key`` was just closed for flooding: refuse its handshakes for a while."""
    if key is None:
        return
    try:
        cache.set(f"flood-cooldown:{key}", 1, COOLDOWN_SECONDS)
    except Exception:  # noqa: BLE001 - advisory: the close itself already happened
        logger.warning("flood cooldown: could not record %s", key, exc_info=True)


def cooling_down(key: str | None) -> bool:
    """Whether ``key``'s handshakes are refused right now."""
    if key is None:
        return False
    try:
        return cache.get(f"flood-cooldown:{key}") is not None
    except Exception:  # noqa: BLE001 - advisory: let them in
        return False


class FrameBucket:
    """One socket's frame budget (see :data:`BUCKET_SIZE`)."""

    def __init__(self) -> None:
        self.tokens = BUCKET_SIZE
        self.last_refill = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        """Spend a token for one frame; False (and a strike) when there is none."""
        now = time.monotonic()
        self.tokens = min(BUCKET_SIZE,
                          self.tokens + (now - self.last_refill) * REFILL_PER_SECOND)
        self.last_refill = now
        if self.tokens < 1:
            self.strikes += 1
            return False
        self.tokens -= 1
        return True

    @property
    def exhausted(self) -> bool:
        """Refused often enough to close the socket."""
        return self.strikes >= MAX_STRIKES
