"""channels-redis' pub/sub channel layer, with a batch of group messages published in
one Redis pipeline.

A move sends five group messages (four seats and the public view). Through
``group_send`` each is a PUBLISH of its own: a connection taken from redis-py's pool
and checked (``ensure_connection``), a round trip, the connection given back, one after
the other under the shard's lock. At 100 tables that was 11.5 % of a web process's GIL
samples, 6 % of them the pool's connection checks (py-spy, python -m tests.load play;
issue 15). :meth:`PubSubLayer.group_send_many` sends the five as one pipeline: one
connection taken, one round trip, in the order given.

It reaches into the loop layer's and the shard's private parts (``_get_shard``,
``_lock``, ``_ensure_redis``, ``_redis``), as ``group_send`` itself uses them;
channels-redis is pinned in uv.lock, and ``tests/site/test_channel_layer.py`` sends
through a real Redis so that an upgrade that moves them fails there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer
from redis import exceptions as redis_errors


class PubSubLayer(RedisPubSubChannelLayer):
    """``RedisPubSubChannelLayer`` plus :meth:`group_send_many`."""

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Send each ``(group, message)`` to its group, in order: one pipeline per Redis
        shard (this site has one). Raises what the pipeline raises; nothing is retried
        (delivery is at most once: clients resync on a gap)."""
        layer = self._get_layer()
        batches: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            batches.setdefault(layer._get_shard(channel), []).append(
                (channel, self.serialize(message)))
        for shard, batch in batches.items():
            async with shard._lock:
                shard._ensure_redis()
                try:
                    await _publish_all(shard._redis, batch)
                except (redis_errors.ConnectionError, redis_errors.TimeoutError):
                    # A restarted Redis leaves the pool's connection broken, and redis-py
                    # does not retry a pipeline on it as it does one PUBLISH (tests saw
                    # the first batch after a restart lost). Once more, on a connection
                    # made anew; a message the dead server had taken may so arrive twice,
                    # which clients ignore (an event's version is one they have).
                    await _publish_all(shard._redis, batch)


async def _publish_all(redis: Any, batch: list[tuple[str, bytes]]) -> None:
    pipe = redis.pipeline(transaction=False)
    for channel, data in batch:
        pipe.publish(channel, data)
    await pipe.execute()
