"""The embedded Redis is a real redis-server that any process can reach."""

from __future__ import annotations

import redis

from kozel_site import embedded_redis


def test_embedded_redis_starts_a_real_server_and_stops_it():
    already_owned = list(embedded_redis._owned)
    url = embedded_redis.start()
    process = embedded_redis._owned[-1]
    try:
        client = redis.Redis.from_url(url)
        assert client.ping() is True
        client.set("k", "v")
        assert client.get("k") == b"v"
        assert client.info("server")["redis_version"].count(".") == 2
        assert process.poll() is None
    finally:
        embedded_redis._owned.remove(process)
        process.terminate()
        process.wait(timeout=5)
    assert process.returncode is not None
    assert embedded_redis._owned == already_owned
