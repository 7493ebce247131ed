"""A work-around for kombu's Redis transport killing Celery workers on a Redis restart.

When the broker's Redis goes away, the worker's consumer calls ``Connection.collect()``
and then ``Connection.close()``. ``collect()`` fails to close the default channel (a
connection error, swallowed, before the channel is marked closed) and then drops the
transport's ``client``. ``close()`` closes the same channel again, which now restores its
unacknowledged messages through a new connection pool, and building that pool reads
``self.connection.client.hostname``: ``AttributeError: 'NoneType' object has no attribute
'hostname'``. That is not one of the transport's connection errors, so kombu's
``ignore_errors`` lets it through and the worker exits ("Unrecoverable error") until
somebody restarts it.

Upstream: the same ``AttributeError`` from the same read in ``Channel._connparams``
during a channel's close is celery/kombu#582 (closed without a fix for this path); no
upstream issue for the collect-then-close path was found.

The fix: a channel whose transport has lost its client raises the Redis
``ConnectionError`` instead, which kombu's close path already ignores, and the worker
reconnects as after any other connection loss. Nothing is lost by not restoring there:
the messages are still in Redis' unacked hash (restored by the visibility timeout), or,
if Redis restarted without persistence, gone with it (the beat sweep moves those tables
on). kombu is pinned to the version this was tested with (pyproject.toml; the system
check kozel.E010 refuses another); remove this when kombu fixes the close path.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from kombu.transport import redis as transport

# The kombu release this patch was written and tested against (kozel_site/checks.py).
TESTED_VERSION = "5.7.0"


def install() -> None:
    """Patch ``kombu.transport.redis.Channel._connparams`` (idempotent). Raises if the
    patched method is gone or takes other arguments."""
    original = transport.Channel._connparams  # type: ignore[attr-defined]  # private: not in the stubs
    if getattr(original, "kozel_fixed", False):
        return
    if list(inspect.signature(original).parameters) != ["self", "asynchronous"]:
        raise RuntimeError("kombu's Channel._connparams changed: review kozel_site/kombu_fixes.py")

    @functools.wraps(original)
    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise transport.get_redis_ConnectionError()(
                "the broker connection was closed (kombu_fixes)")
        return original(self, asynchronous=asynchronous)

    _connparams.kozel_fixed = True  # type: ignore[attr-defined]
    transport.Channel._connparams = _connparams  # type: ignore[attr-defined]
