"""What a table socket's handshake learns from moderation, cheaply: whom the
reader hides (blocks and a table mute, one query) and whether the account is suspended
(read with the user, in the auth middleware's hop; the gate refuses an unchecked
socket rather than letting it in)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.moderation import selectors
from accounts.moderation.asgi import SuspensionGate
from accounts.moderation.services import blocks
from games.services import chat, tables
from tests.games.ws import connect


@pytest.mark.django_db
def test_whom_a_reader_hides_is_one_query_and_a_mute_hides_everyone(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="quiet"))
    with CaptureQueriesContext(connection) as nobody:
        assert selectors.chat_filter_of(cast.alice, table.pk) == {}
    blocks.block(cast.alice, "bob")
    blocks.block(cast.alice, "carol")
    blocks.block(cast.bob, "dan")  # someone else's block is not alice's
    with CaptureQueriesContext(connection) as two:
        assert selectors.chat_filter_of(cast.alice, table.pk) == {
            cast.bob.pk: "bob", cast.carol.pk: "carol"}
    blocks.set_table_mute(cast.alice, table.pk, True)
    with CaptureQueriesContext(connection) as muted:
        assert selectors.chat_filter_of(cast.alice, table.pk) is None
    other = tables.create_table(cast.bob, tables.TableSettings(name="elsewhere"))
    assert selectors.chat_filter_of(cast.alice, other.pk) == {
        cast.bob.pk: "bob", cast.carol.pk: "carol"}  # the mute is that table's only
    assert [len(q) for q in (nobody, two, muted)] == [1, 1, 1]


@pytest.mark.django_db(transaction=True)
async def test_a_block_made_before_the_socket_opened_leaves_the_lines_out(cast):
    """The handshake reads whom the reader hides: bob's line, blocked beforehand, is
    neither in alice's snapshot nor sent to her live; carol's is."""
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="blocked"))
    await database_sync_to_async(chat.post_message)(table.pk, cast.bob, "before")
    await database_sync_to_async(blocks.block)(cast.alice, "bob")
    alice = await connect(table.pk, cast.alice)
    assert (await alice.receive_type("snapshot"))["chat"] == []
    await database_sync_to_async(chat.post_message)(table.pk, cast.bob, "hidden")
    await database_sync_to_async(chat.post_message)(table.pk, cast.carol, "shown")
    assert (await alice.receive_type("chat"))["message"]["text"] == "shown"
    await alice.close()


async def test_the_suspension_gate_refuses_a_socket_nobody_checked():
    """Wired without its reader (kozel_site/asgi.py), the gate fails closed."""
    async def inner(scope, receive, send):
        raise AssertionError("an unchecked socket reached the consumer")

    with pytest.raises(ImproperlyConfigured):
        await SuspensionGate(inner)({"type": "websocket"}, None, None)
