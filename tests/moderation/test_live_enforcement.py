"""Sanctions on open connections, over real sockets (the ASGI app, channels-redis):
a suspension closes the user's table socket within 2 s and a bot takes the seat; a mute
refuses the very next chat frame; a hidden line leaves every other open screen; a block
or a table mute leaves lines out of live frames and snapshots."""

from __future__ import annotations

import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.moderation.services import blocks, sanctions
from games.models import ChatMessage, SeriesSeat
from kozel_site.asgi import application
from tests.games.helpers import seated_and_started
from tests.games.ws import ORIGIN, connect, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def playing(cast):
    series = seated_and_started(cast, "live")
    return series.table, series


@database_sync_to_async
def seat_of(series, position):
    return SeriesSeat.objects.get(series=series, position=position)


async def wait_closed(recorder, timeout):
    """Frames until the server closes the socket; returns (frames, close code)."""
    deadline = time.monotonic() + timeout
    frames = []
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"the socket was still open after {timeout} s: {frames}"
        output = await recorder.communicator.receive_output(timeout=left)
        if output["type"] == "websocket.close":
            return frames, output.get("code")
        frames.append(output)


async def echo(recorder, text):
    """Wait for the chat frame carrying ``text`` (earlier frames are skipped)."""
    while (await recorder.receive_type("chat"))["message"]["text"] != text:
        pass


async def test_a_suspension_closes_the_open_socket_within_2s_and_a_bot_takes_the_seat(
        cast, mona):
    table, series = await playing(cast)
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    started = time.monotonic()
    await database_sync_to_async(sanctions.suspend)(mona, cast.bob, 3, "Threats in chat")
    frames, code = await wait_closed(bob, timeout=2.0)
    assert time.monotonic() - started < 2.0
    assert code == 4403
    assert any('"suspended"' in f.get("text", "") for f in frames)
    seat = await seat_of(series, 1)
    assert seat.user_id is None and seat.away_user_id == cast.bob.pk and seat.bot_level
    # The others see the bot at once, and the suspended account cannot come back.
    notice = await alice.receive_type("notice")
    assert "Casual bot" in notice["text"]
    communicator = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[
        ORIGIN, (b"cookie", f"sessionid={await session_cookie(cast.bob)}".encode())])
    connected, code = await communicator.connect(timeout=5)
    assert not connected and code == 4403
    await alice.close()


async def test_a_mute_refuses_the_next_chat_frame(cast, mona):
    table, _series = await playing(cast)
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")
    await bob.send({"type": "chat", "text": "first"})
    assert (await bob.receive_type("chat"))["message"]["text"] == "first"
    await database_sync_to_async(sanctions.mute_chat)(mona, cast.bob, 2, "Insults")
    await bob.send({"type": "chat", "text": "second"})
    error = await bob.receive_type("error")
    assert error["code"] == "muted" and "Insults" in error["message"]
    assert await database_sync_to_async(
        ChatMessage.objects.filter(user=cast.bob).count)() == 1
    await bob.close()


async def test_a_hidden_line_is_withdrawn_from_other_open_sockets(cast, mona):
    table, _series = await playing(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    watcher = await connect(table.pk, cast.charlie)
    await watcher.receive_type("snapshot")
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")
    await bob.send({"type": "chat", "text": "a rude line"})
    line = (await alice.receive_type("chat"))["message"]
    assert (await watcher.receive_type("chat"))["message"]["id"] == line["id"]
    await database_sync_to_async(sanctions.hide_message)(mona, line["id"], "Rude")
    for screen in (alice, watcher):
        assert (await screen.receive_type("chat_hidden"))["ids"] == [line["id"]]
    for who in (alice, watcher, bob):
        await who.close()


async def test_a_block_and_a_table_mute_leave_lines_out_at_once(cast):
    """Each change reaches the open socket (a ``chat_filter`` frame says it applied),
    and from then on the lines are left out of live frames and snapshots."""
    table, _series = await playing(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")
    carol = await connect(table.pk, cast.carol)
    await carol.receive_type("snapshot")
    await database_sync_to_async(blocks.block)(cast.alice, "bob")
    assert (await alice.receive_type("chat_filter"))["muted"] is False
    await bob.send({"type": "chat", "text": "from bob"})
    await echo(bob, "from bob")  # relayed to the table (alice's queue) by now
    await carol.send({"type": "chat", "text": "from carol"})
    assert (await alice.receive_type("chat"))["message"]["text"] == "from carol"
    await alice.send({"type": "resync"})
    snap = await alice.receive_type("snapshot")
    assert [m["text"] for m in snap["chat"]] == ["from carol"]
    await database_sync_to_async(blocks.set_table_mute)(cast.alice, table.pk, True)
    assert (await alice.receive_type("chat_filter"))["muted"] is True
    await carol.send({"type": "chat", "text": "while muted"})
    await echo(carol, "while muted")
    await database_sync_to_async(blocks.set_table_mute)(cast.alice, table.pk, False)
    assert (await alice.receive_type("chat_filter"))["muted"] is False
    await carol.send({"type": "chat", "text": "unmuted"})
    assert (await alice.receive_type("chat"))["message"]["text"] == "unmuted"
    for who in (alice, bob, carol):
        await who.close()
