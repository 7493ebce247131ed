"""The cache shares one Redis connection pool per process (kozel_site/redis_cache.py):
Django keeps a cache object per context, and every WebSocket consumer runs in a context
of its own, so each socket opened a Redis connection of its own (issue 15)."""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor

import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from games import flood_cooldown

SOCKETS = 20


def _connections_received() -> int:
    return int(redis.Redis.from_url(settings.REDIS_URL).info("stats")
               ["total_connections_received"])


def test_contexts_of_many_sockets_share_the_processes_redis_connections():
    """Twenty consumers' contexts read the cache, as twenty table handshakes ask the
    flood cooldown: they share the process's pool, one connection per thread using it
    at once (two here), not one each."""
    flood_cooldown.start(7)
    threads = ThreadPoolExecutor(max_workers=2)

    async def many_sockets() -> list[object]:
        ask = sync_to_async(flood_cooldown.cooling_down, thread_sensitive=False,
                            executor=threads)
        # daphne starts each consumer in a context of its own, with no cache object yet.
        tasks = [asyncio.get_running_loop().create_task(ask(7),
                                                        context=contextvars.Context())
                 for _ in range(SOCKETS)]
        return await asyncio.gather(*tasks)

    before = _connections_received()
    try:
        assert asyncio.run(many_sockets()) == [True] * SOCKETS
    finally:
        threads.shutdown()
    opened = _connections_received() - before - 1  # the count's own connection
    assert opened <= 2, f"{opened} Redis connections for {SOCKETS} contexts"
