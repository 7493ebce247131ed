"""A WebSocket round trip through the real ASGI application and channels-redis."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from kozel_site.asgi import application

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


def test_channel_layer_is_redis_pubsub_by_default_and_core_on_request(monkeypatch):
    """The site's layer is channels-redis' pub/sub layer on real Redis (the
    list-based core layer queued every broadcast at 100 tables); KOZEL_CHANNEL_LAYER=redis
    selects the core layer."""
    from channels_redis.core import RedisChannelLayer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from kozel_site.settings import base

    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)
    monkeypatch.setenv("KOZEL_CHANNEL_LAYER", "redis")
    import importlib

    try:
        core = importlib.reload(base).CHANNEL_LAYERS["default"]["BACKEND"]
    finally:
        monkeypatch.delenv("KOZEL_CHANNEL_LAYER")
        importlib.reload(base)
    assert core == f"{RedisChannelLayer.__module__}.{RedisChannelLayer.__name__}"


@pytest.mark.django_db
async def test_ping_round_trip_through_redis():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "nonce": "n-1"})
    reply = await communicator.receive_json_from(timeout=5)
    assert reply == {"type": "pong", "nonce": "n-1", "user": None}
    await communicator.disconnect()


@pytest.mark.django_db
async def test_bad_frames_get_an_error_and_the_socket_stays_open():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    assert (await communicator.connect())[0]
    for frame in ["not json", '{"type": "nope"}', "[1, 2]", "x" * 5000, "[" * 1024,
                  '{"": [' * 200]:
        await communicator.send_to(text_data=frame)
        reply = await communicator.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] == "bad_frame"
    await communicator.send_json_to({"type": "ping", "nonce": 7})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"
    await communicator.disconnect()


async def test_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected


@pytest.mark.slow
async def test_idle_channel_layer_receive_survives_more_than_6_seconds():
    """redis-py 8's default 5 s socket_timeout must not kill a channel layer's receive()."""
    layer = get_channel_layer()
    channel = await layer.new_channel()

    async def send_later():
        await asyncio.sleep(6.5)
        await layer.send(channel, {"type": "late.message", "n": 1})

    sender = asyncio.create_task(send_later())
    message = await asyncio.wait_for(layer.receive(channel), timeout=15)
    await sender
    assert message == {"type": "late.message", "n": 1}
