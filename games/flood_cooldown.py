"""A signed-in client closed for flooding cannot open a table socket for a while.

A socket that keeps emptying its token bucket is closed with 4008 (games/consumers.py),
and a flooder then simply reconnects, many times a second, and every handshake costs
a web process its queries and a snapshot, beside the live tables. After a flood close
the same person's table handshakes are refused (HTTP 403, as for any refused handshake:
games/WEBSOCKET.md) for :data:`COOLDOWN_SECONDS`; the table page keeps reconnecting with
backoff and gets in after it.

Only signed-in people are cooled down: an address may be a whole office behind one
proxy, and an anonymous socket can neither play nor chat. Kept in the cache (Redis),
so every web process refuses; without the cache nobody is refused.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

COOLDOWN_SECONDS = 10

logger = logging.getLogger(__name__)


def _key(user_id: int) -> str:
    return f"flood-cooldown:{user_id}"


def start(user_id: int | None) -> None:
    """``user_id`` was just closed for flooding."""
    if user_id is None:
        return
    try:
        cache.set(_key(user_id), 1, COOLDOWN_SECONDS)
    except Exception:  # noqa: BLE001 - advisory: the close itself already happened
        logger.warning("flood cooldown: could not record user %s", user_id, exc_info=True)


def cooling_down(user_id: int | None) -> bool:
    """Whether ``user_id``'s table handshakes are refused right now."""
    if user_id is None:
        return False
    try:
        return cache.get(_key(user_id)) is not None
    except Exception:  # noqa: BLE001 - advisory: let them in
        return False
