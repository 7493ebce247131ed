"""A table socket that lives through a Redis restart hears its table again.

A restarted Redis (no persistence) forgets every subscription and drops whatever was
published while it was down; the load harness saw tables stand still for good after
`faults --kill redis`. The channel layer's reader subscribes again when it reconnects,
and the consumer, which compares Redis' run id at each heartbeat, joins its groups again
and sends a fresh snapshot (events may have been missed meanwhile).

The Redis here is a real server of the test's own, SIGKILLed and started again on the
same port; the site's channel layer and presence store are pointed at it.
"""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis
from channels.db import database_sync_to_async

from games.services import play, tables
from games.services import series as series_service
from kozel_site import embedded_redis
from tests.games.helpers import current_game, first_legal, state_of
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


class PrivateRedis:
    """A redis-server on a fixed port that a test may kill and start again."""

    def __init__(self) -> None:
        self.port = embedded_redis._free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [embedded_redis.redis_server_binary(), "--port", str(self.port), "--bind",
             "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on {self.port}")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def run_id(self) -> str:
        return str(redis.Redis.from_url(self.url).info("server")["run_id"])


@pytest.fixture
def private_redis(settings) -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    settings.REDIS_URL = server.url  # the presence store (and its run id) follow it
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"][0]["address"] = server.url
    settings.CHANNEL_LAYERS = layers
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


@database_sync_to_async
def seated_game(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="restart"))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return table, current_game(series_service.start_series(table.pk, cast.alice))


@database_sync_to_async
def play_first_legal(game, users):
    state = state_of(game)
    seat = state.turn
    play.submit_action(game.pk, users[seat], first_legal(state, seat).to_dict(), game.version)


async def test_a_socket_that_outlives_a_redis_restart_resyncs_and_hears_moves(
        cast, private_redis):
    table, game = await seated_game(cast)
    users = dict(enumerate(cast.seated))
    bob = await connect(table.pk, cast.bob)
    assert (await bob.receive())["type"] == "snapshot"
    await play_first_legal(game, users)
    assert (await bob.receive_type("event"))["version"] == 1  # heard before the restart

    before = private_redis.run_id()
    private_redis.kill()
    private_redis.start()
    assert private_redis.run_id() != before
    # Within a few heartbeats (2 s in tests) the socket sees the new server and resyncs.
    snapshot = await bob.receive_type("snapshot", timeout=15)
    assert snapshot["you"]["position"] == 1 and snapshot["game"]["version"] == 1
    await play_first_legal(game, users)
    event = await bob.receive_type("event", timeout=10)  # it hears the table again
    assert event["version"] == 2
    await bob.close()
