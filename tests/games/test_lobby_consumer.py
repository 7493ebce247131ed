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
