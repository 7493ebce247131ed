"""kozel_site/ws.py (issue 15): the site's consumers dispatch without channels'
per-message ``close_old_connections`` hop (it queued every frame and group event of a
web process on its one sync thread), and still reach the database through ``db_call``."""

from __future__ import annotations

import pytest
from channels import consumer as channels_consumer

from games.services import tables
from tests.games.conftest import make_user
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_table_socket_handles_frames_and_events_without_the_per_message_hop(
        monkeypatch):
    from channels.db import database_sync_to_async

    hops: list[object] = []

    async def counting_hop() -> None:
        hops.append(object())

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counting_hop)
    owner = await database_sync_to_async(make_user)("owner")
    table = await database_sync_to_async(tables.create_table)(
        owner, tables.TableSettings(name="hops"))
    socket = await connect(table.pk, owner)
    assert (await socket.receive())["type"] == "snapshot"  # connect: db_call works
    for nonce in range(5):
        await socket.send({"type": "ping", "nonce": nonce})
        assert (await socket.receive_type("pong"))["nonce"] == nonce
    # A group event (a seat taken) reaches the socket as a fresh snapshot.
    await database_sync_to_async(tables.take_seat)(table.pk, owner, 0)
    snapshot = await socket.receive_type("snapshot")
    assert any(seat.get("user") == "owner" for seat in snapshot["seats"])
    await socket.close()
    assert hops == []


async def test_a_reply_to_a_socket_that_closed_under_it_is_dropped_not_a_crash():
    """daphne raises autobahn's ``Disconnected`` when a consumer sends on a socket the
    client already closed; through ``send_json`` too (CI's load smoke, issue 15). The
    consumer must go on to its disconnect, with no traceback. The ASGI server is the
    boundary faked here: its ``send`` refuses every frame after the accept."""
    import asyncio

    from autobahn.exception import Disconnected
    from channels.generic.websocket import AsyncJsonWebsocketConsumer

    from kozel_site.ws import SiteSocket

    disconnected: list[int] = []

    class Echo(SiteSocket, AsyncJsonWebsocketConsumer):
        async def receive_json(self, content, **kwargs):  # type: ignore[no-untyped-def]
            await self.send_json({"echo": content})

        async def disconnect(self, code):  # type: ignore[no-untyped-def]
            disconnected.append(code)

    inbox: asyncio.Queue[dict[str, object]] = asyncio.Queue()
    for message in ({"type": "websocket.connect"},
                    {"type": "websocket.receive", "text": '{"hello": 1}'},
                    {"type": "websocket.disconnect", "code": 1006}):
        inbox.put_nowait(message)
    sent: list[str] = []

    async def server_send(message):  # type: ignore[no-untyped-def]
        sent.append(message["type"])
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")

    scope = {"type": "websocket", "path": "/ws/echo/", "headers": [], "subprotocols": []}
    await asyncio.wait_for(Echo.as_asgi()(scope, inbox.get, server_send), 5)
    assert sent == ["websocket.accept", "websocket.send"] and disconnected == [1006]


async def test_a_write_never_waits_behind_a_slow_read():
    """db_read runs on its own thread: while a read is held up (a table's facts read
    when many games end together), a move's db_call still runs at once (issue 15)."""
    import asyncio
    import threading

    from kozel_site.ws import db_call, db_read

    release = threading.Event()
    read = asyncio.ensure_future(db_read(release.wait)(10))
    try:
        owner = await asyncio.wait_for(db_call(make_user)("writer"), timeout=5)
        assert owner.pk is not None and not read.done()
    finally:
        release.set()
    assert await read is True


@pytest.mark.parametrize("threads", [2, 3])
async def test_a_write_never_waits_behind_a_slow_write_while_a_thread_is_free(
        settings, threads):
    """db_call runs on ``KOZEL_WS_WRITE_THREADS`` threads: while all but one are held
    up (a game's end, its hooks asking the broker and the database), another table's
    move still runs at once (issue 15: behind a game's end on the one thread, every
    other table of the process waited). Each thread closes its own connections."""
    import asyncio
    import threading

    from django.db import connection

    from kozel_site.ws import db_call

    settings.KOZEL_WS_WRITE_THREADS = threads
    release = threading.Event()
    busy = threading.Semaphore(0)

    def hold() -> str:
        busy.release()
        release.wait(10)
        return threading.current_thread().name

    held = [asyncio.ensure_future(db_call(hold)()) for _ in range(threads - 1)]
    try:
        for _ in held:
            assert await asyncio.to_thread(busy.acquire, True, 5)
        owner = await asyncio.wait_for(db_call(make_user)("writer"), timeout=5)
        assert owner.pk is not None and not any(task.done() for task in held)
        open_after = await db_call(lambda: connection.connection is not None)()
    finally:
        release.set()
    names = await asyncio.gather(*held)
    assert all(name.startswith("db-write") for name in names)
    assert open_after is False  # closed around the call (CONN_MAX_AGE 0 in tests)
