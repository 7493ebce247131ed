"""LobbyConsumer (``ws/lobby/``): it only sends, and no frame a client sends can kill it."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.services import publish
from kozel_site.asgi import application
from tests.games.ws import ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("frame", [
    "[" * 3000, '{"": [' * 600, "not json", '{"type": "ping"}', "x" * 5000,
], ids=["3000-brackets", "1200-braces-and-brackets", "not-json", "a-request", "too-large"])
async def test_any_frame_gets_an_error_and_the_lobby_socket_stays_open(frame):
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    await communicator.send_to(text_data=frame)
    error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["message"]
    # Still subscribed: a table change still reaches this socket.
    await get_channel_layer().group_send(
        publish.LOBBY_GROUP, {"type": "lobby.changed", "table_id": 5})
    assert await communicator.receive_json_from(timeout=5) == {
        "type": "lobby.changed", "table_id": 5}
    await communicator.disconnect()


async def test_the_lobby_socket_never_announces_a_private_table(cast):
    """An anonymous lobby socket heard every table's id as it changed, private ones
    too; the lobby lists public tables only, so only they are announced."""
    from asgiref.sync import sync_to_async

    from games import events
    from games.models import Table
    from games.services import tables

    def make(name: str, visibility: str) -> int:
        return tables.create_table(cast.alice, tables.TableSettings(
            name=name, visibility=visibility)).pk

    private = await sync_to_async(make)("hidden", Table.Visibility.PRIVATE)
    public = await sync_to_async(make)("open", Table.Visibility.PUBLIC)
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[ORIGIN])
    assert (await communicator.connect(timeout=5))[0]
    def changed(table_id: int) -> None:
        events.send_events(publish.table_changed(table_id))

    await sync_to_async(changed)(private)
    await sync_to_async(changed)(public)
    assert await communicator.receive_json_from(timeout=5) == {
        "type": "lobby.changed", "table_id": public}
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()
