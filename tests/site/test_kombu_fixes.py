"""kozel_site/kombu_fixes.py: a closed broker connection raises a connection error that
kombu ignores, not the AttributeError that killed workers on a Redis restart (issue 15)."""

from __future__ import annotations

import pytest
import redis
from kombu import Connection
from kombu.transport import redis as transport

from kozel_site import kombu_fixes


def test_a_channel_whose_transport_lost_its_client_raises_a_connection_error():
    kombu_fixes.install()
    kombu_fixes.install()  # idempotent
    conn = Connection("redis://127.0.0.1:1/0")
    channel = transport.Channel.__new__(transport.Channel)
    channel.connection = conn.transport
    channel.connection.client = None  # what Connection.collect() leaves behind
    with pytest.raises(redis.exceptions.ConnectionError):
        channel._connparams()
    assert redis.exceptions.ConnectionError in conn.connection_errors  # ignored by kombu
