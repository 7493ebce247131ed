"""One heartbeat refreshes every table socket of a web process (games/presence_beats.py,
issue 15): each socket used to beat on its own, two thread hops and an INFO each."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from socket import socket as tcp_socket

import pytest
import redis
from django.utils import translation

from games import presence as store
from games import presence_beats
from kozel_site import embedded_redis
from tests.waiting import until, wait_for

TABLE = 987_654  # no table of the database: presence lives in Redis only


class Socket:
    """A table socket as the beat sees it (games.presence_beats.Beating)."""

    def __init__(self, conn: str, run_id: str | None) -> None:
        self.channel_name = conn
        self.redis_run_id = run_id
        self.told: list[str] = []

    def presence_entry(self) -> tuple[int, str, int | None]:
        return TABLE, self.channel_name, None

    async def redis_run_seen(self, run_id: str) -> None:
        self.told.append(run_id)


def expiry(conn: str) -> float | None:
    return store.client().zscore(store._key("t", TABLE), f"{conn}|0")


def commands_processed(counter: redis.Redis) -> int:
    return int(counter.info("stats")["total_commands_processed"])


def answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


@pytest.fixture
def own_redis(settings) -> Iterator[str]:
    """A Redis server for this test alone, so that its command count is the beat's: a
    shared server also counts what other tests and test runs send meanwhile."""
    with tcp_socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [embedded_redis.redis_server_binary(), "--bind", "127.0.0.1", "--port", str(port),
         "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for(lambda: answers(redis.Redis.from_url(url)), 10, "the test's own Redis")
        settings.REDIS_URL = url
        yield url
    finally:
        server.terminate()
        server.wait(10)


async def test_one_beat_refreshes_every_open_socket_and_tells_those_on_another_server(
        own_redis):
    run_id = store.run_id()
    same, older, closed = (Socket("same", run_id), Socket("older", "a-killed-server"),
                           Socket("closed", run_id))
    for socket in (same, older, closed):
        store.touch(TABLE, socket.channel_name, None, now=0.0)  # long expired
        presence_beats.add(socket)
    presence_beats.discard(closed)
    counter = redis.Redis.from_url(own_redis)
    before = commands_processed(counter)
    beats = presence_beats.beats()
    await beats.beat()
    sent = commands_processed(counter) - before - 1  # the first count's own INFO
    await asyncio.gather(*beats.told)  # the told sockets' own tasks
    assert expiry("same") > time.time() and expiry("older") > time.time()
    assert expiry("closed") == store.ttl_seconds()  # no longer refreshed
    assert sent == 2 * 3 + 1, sent  # zadd, expire, zadd per socket and one INFO
    assert (same.told, older.told, closed.told) == ([], [run_id], [])
    presence_beats.discard(same)
    presence_beats.discard(older)


class LanguageProbe(Socket):
    """Records the language active where the heartbeat tells it of a new server."""

    def __init__(self, conn: str, run_id: str | None) -> None:
        super().__init__(conn, run_id)
        self.languages: list[str | None] = []

    async def redis_run_seen(self, run_id: str) -> None:
        self.languages.append(translation.get_language())
        await super().redis_run_seen(run_id)


async def test_the_heartbeat_never_carries_the_language_of_the_socket_that_started_it(
        settings):
    """The beat's task starts during some socket's connect, in that socket's language
    (games/consumers.py activates it in the socket's task); the others must not get it."""
    settings.KOZEL_PRESENCE_HEARTBEAT_SECONDS = 0.05
    probe = LanguageProbe("probe", "a-killed-server")
    translation.activate("ru")  # as the first socket's dispatch did, in its own task
    try:
        presence_beats.add(probe)
        await until(lambda: probe.languages, 5, "the heartbeat to tell the probe")
    finally:
        translation.deactivate()
        presence_beats.discard(probe)
        presence_beats.beats().task.cancel()
    assert probe.languages[0] != "ru"
