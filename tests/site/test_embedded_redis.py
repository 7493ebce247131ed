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


def test_a_running_make_run_server_is_reused_through_its_url_file(tmp_path, monkeypatch):
    url = embedded_redis.start()
    process = embedded_redis._owned[-1]
    try:
        url_file = tmp_path / "redis.url"
        url_file.write_text(url)
        monkeypatch.delenv("REDIS_URL")
        assert embedded_redis.ensure_redis_url(url_file) == url
        assert embedded_redis._owned[-1] is process  # nothing new was started
    finally:
        embedded_redis._owned.remove(process)
        process.terminate()
        process.wait(timeout=5)


def test_a_stale_url_file_starts_a_fresh_server(tmp_path, monkeypatch):
    url_file = tmp_path / "redis.url"
    url_file.write_text("redis://127.0.0.1:1/0")
    monkeypatch.delenv("REDIS_URL")
    before = len(embedded_redis._owned)
    url = embedded_redis.ensure_redis_url(url_file)
    try:
        assert url != "redis://127.0.0.1:1/0" and len(embedded_redis._owned) == before + 1
        assert redis.Redis.from_url(url).ping()
    finally:
        process = embedded_redis._owned.pop()
        process.terminate()
        process.wait(timeout=5)
