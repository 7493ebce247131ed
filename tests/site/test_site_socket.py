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
