"""Live-table sockets tell the truth, over the real ASGI app and Redis:
presence for people who sit down late and for sockets that die without a close, your
seat back when you open the table, chat hidden by a moderator withdrawn everywhere."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from channels.db import database_sync_to_async

from games import presence as store
from games.models import Conduct
from games.services import chat, clock, locks, sweep, tables
from games.services import series as series_service
from tests.games.helpers import current_game, roster_entry
from tests.games.ws import Recorder, connect

pytestmark = pytest.mark.django_db(transaction=True)


async def snapshot_where(rec: Recorder, check, timeout: float = 5.0) -> dict:
    """The first snapshot ``rec`` receives for which ``check`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no snapshot matched in time")
        frame = await rec.receive(timeout=left)
        if frame["type"] == "snapshot" and check(frame):
            return frame


async def crash(rec: Recorder) -> None:
    """Kill the consumer without a close: its disconnect handler never runs (a crashed
    consumer or a dead process, as far as presence can tell)."""
    future = rec.communicator.future
    future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await future


async def test_a_player_who_sits_after_opening_the_page_is_online_for_everyone(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="late"))
    await database_sync_to_async(tables.take_seat)(table.pk, cast.alice, 0)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    bob = await connect(table.pk, cast.bob)  # opens the page as a spectator
    await bob.receive_type("snapshot")
    started = time.monotonic()
    await database_sync_to_async(tables.take_seat)(table.pk, cast.bob, 1)
    snap = await snapshot_where(alice, lambda s: s["seats"][1]["user"] == "bob", timeout=2.0)
    delay_ms = (time.monotonic() - started) * 1000
    print(f"\npresence: bob online at alice's screen {delay_ms:.0f} ms after sitting down")
    assert snap["seats"][1]["connected"] is True
    assert snap["table"]["spectators"] == 0
    await alice.close()
    await bob.close()


async def test_a_socket_that_dies_without_a_close_is_counted_gone(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="crash"))
    for position, user in enumerate(cast.seated):
        await database_sync_to_async(tables.take_seat)(table.pk, user, position)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")
    watcher = await connect(table.pk)
    await watcher.receive_type("snapshot")
    assert {c.user_id for c in store.live(table.pk)} == {cast.alice.pk, cast.bob.pk, None}
    started = time.monotonic()
    await crash(bob)
    await crash(watcher)
    # Their entries stop being refreshed and expire; the sweep reaps them and tells
    # the table, so alice's screen shows bob gone and no spectator.
    deadline = time.monotonic() + store.ttl_seconds() + 3
    while {c.user_id for c in store.live(table.pk)} != {cast.alice.pk}:
        assert time.monotonic() < deadline, "dead sockets still counted"
        await asyncio.sleep(0.1)
    reaped = await database_sync_to_async(sweep.sweep)()
    assert reaped["presence_reaped"] >= 1  # bob (the anonymous socket names nobody)
    snap = await snapshot_where(alice, lambda s: s["seats"][1]["connected"] is False)
    print(f"\npresence: a crashed socket counted gone after {time.monotonic() - started:.1f} s "
          f"(heartbeat {store.heartbeat_seconds():.0f} s, ttl {store.ttl_seconds():.0f} s)")
    assert snap["table"]["spectators"] == 0
    assert snap["seats"][0]["connected"] is True  # alice's own socket kept beating
    await alice.close()


async def test_opening_a_casual_table_gives_your_seat_back(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="back"))
    for position, user in enumerate(cast.seated):
        await database_sync_to_async(tables.take_seat)(table.pk, user, position)
    series = await database_sync_to_async(series_service.start_series)(table.pk, cast.alice)

    @database_sync_to_async
    def bob_leaves():
        from django.db import transaction

        with transaction.atomic():
            clock.take_over_locked(locks.lock_game(current_game(series).pk), 1,
                                    Conduct.Reason.DISCONNECT)

    await bob_leaves()
    assert (await database_sync_to_async(roster_entry)(series, 1)).bot_level == "casual"
    bob = await connect(table.pk, cast.bob)  # no click, no frame: just opening the table
    snap = await bob.receive_type("snapshot")
    assert snap["you"]["position"] == 1
    assert snap["seats"][1]["away"] is False and snap["seats"][1]["bot_level"] == ""
    entry = await database_sync_to_async(roster_entry)(series, 1)
    assert (entry.user_id, entry.away_user_id) == (cast.bob.pk, None)
    await bob.close()


async def test_a_hidden_chat_line_disappears_from_every_open_screen(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="chat"))
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    watcher = await connect(table.pk)
    await watcher.receive_type("snapshot")
    line = await database_sync_to_async(chat.post_message)(table.pk, cast.bob, "rude words")
    for rec in (alice, watcher):
        assert (await rec.receive_type("chat"))["message"]["id"] == line["id"]
    assert await database_sync_to_async(chat.set_hidden)([line["id"]], True) == 1
    for rec in (alice, watcher):
        assert (await rec.receive_type("chat_hidden"))["ids"] == [line["id"]]
    assert await database_sync_to_async(chat.set_hidden)([line["id"]], True) == 0  # once
    await alice.close()
    await watcher.close()
