"""A work-around for kombu's Redis transport killing Celery workers on a Redis restart.

Seen under the load harness (``python -m tests.load faults --kill redis``): when the
broker's Redis goes away, the worker's consumer calls ``Connection.collect()`` and then
``Connection.close()``. ``collect()`` tries to close the default channel; with Redis gone
that raises a connection error before the channel is marked closed (swallowed), and then
drops the transport's ``client`` (``transport.client = None``). ``close()`` closes the
same channel again, which now restores its unacknowledged messages
(``restore_unacked_once``) through a new connection pool, and building that pool reads
``self.connection.client.hostname``: ``AttributeError: 'NoneType' object has no
attribute 'hostname'``. That is not one of the transport's connection errors, so
``ignore_errors`` lets it through and the worker exits ("Unrecoverable error"), leaving
the site without workers until somebody restarts them (14 of 17 Redis restarts in the
issue's measurement).

The fix: a channel whose transport has lost its client raises the Redis
``ConnectionError`` instead, which kombu's close path already ignores, and the worker
reconnects like after any other connection loss. Nothing is lost by not restoring
there: the messages are still in Redis' unacked hash (restored by the visibility
timeout), or, if Redis restarted without persistence, gone with it (the beat sweep
moves those tables on). Remove this when kombu fixes the close path.
"""

from __future__ import annotations

from typing import Any


def install() -> None:
    """Patch ``kombu.transport.redis.Channel._connparams`` (idempotent)."""
    try:
        from kombu.transport import redis as transport
    except ImportError:  # pragma: no cover - kombu without the redis extra
        return
    original = transport.Channel._connparams
    if getattr(original, "kozel_fixed", False):
        return

    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise transport.get_redis_ConnectionError()(
                "the broker connection was closed (kombu_fixes)")
        return original(self, asynchronous=asynchronous)

    _connparams.kozel_fixed = True  # type: ignore[attr-defined]
    transport.Channel._connparams = _connparams
