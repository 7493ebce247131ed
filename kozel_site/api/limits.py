"""Rate limits of the API: a fixed one-minute window per token or per client address,
counted in the cache (Redis), so every web process shares the count.

A fixed window is enough here: it bounds the load one client adds to about twice its
budget at a window's edge, and a refused client is told exactly when the window turns
(``Retry-After``). Without the cache nobody is refused (the limits are advisory, as the
sockets' flood control is).
"""

from __future__ import annotations

import logging
import math
import time

from django.core.cache import cache

WINDOW_SECONDS = 60

logger = logging.getLogger(__name__)


class RateLimitedError(Exception):
    """Over the budget: ``retry_after`` whole seconds until the next window."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"rate limited for {retry_after} s")
        self.retry_after = retry_after


def spend(key: str, per_window: int, now: float | None = None) -> None:
    """Count one request of ``key``; raise :class:`RateLimitedError` past ``per_window``
    requests in the current window."""
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    cache_key = f"api-rate:{key}:{window}"
    try:
        # add() then incr(): the first request of a window creates the counter with its
        # expiry, every request (the first included) increments it atomically.
        cache.add(cache_key, 0, WINDOW_SECONDS + 5)
        count = cache.incr(cache_key)
    except Exception:  # noqa: BLE001 - advisory: let the request through
        logger.warning("API rate limit: the cache did not answer for %s", key, exc_info=True)
        return
    if count > per_window:
        raise RateLimitedError(max(1, math.ceil((window + 1) * WINDOW_SECONDS - now)))
