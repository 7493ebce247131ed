"""Django's Redis cache with one connection pool per process, in every context.

Django keeps a cache object per *context*, not per thread (``caches`` is an asgiref
``Local``), and its Redis backend gives each cache object its own connection pool. In a
web process every WebSocket consumer runs in a context of its own, so each socket that
touched the cache (the flood cooldown at every table handshake, a chat line's rate
limit, a move's timeout or bot turn enqueued once) opened a Redis connection of its own,
closed only when the garbage collector found the socket's context: at 30 tables a web
process held 120 connections whose last command was a ``GET``, and every handshake paid
a TCP connect and redis-py's greeting (python -m tests.load play; py-spy on a web
process, issue 15).

:class:`ProcessPoolRedisCache` shares one ``RedisCacheClient`` (so one pool per server)
between every cache object of the process with the same servers and options; redis-py's
pools are thread-safe and make a forked child start its own connections.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], RedisCacheClient] = {}
_clients_lock = threading.Lock()


class ProcessPoolRedisCache(RedisCache):
    """``RedisCache`` whose client (and its pools) is the process's, not the context's."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (self._class, tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client
