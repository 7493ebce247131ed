"""Every socket route has a frame budget and a cool-down, anonymous clients by their
address: the lobby, ws/me/ and the tournament sockets had no frame limit at all, and an
anonymous table flooder was closed but never cooled down."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from kozel_site import flood
from kozel_site.asgi import application
from tests.games.ws import ORIGIN, session_cookie
from tests.waiting import until

pytestmark = pytest.mark.django_db(transaction=True)


def _communicator(path: str, address: str, cookie: str | None = None) -> WebsocketCommunicator:
    headers = [ORIGIN] + ([(b"cookie", f"sessionid={cookie}".encode())] if cookie else [])
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = [address, 50000]
    return communicator


async def _flood_until_closed(communicator: WebsocketCommunicator) -> int | None:
    for _ in range(100):
        await communicator.send_to(text_data='{"type": "ping"}')
    while True:
        message = await communicator.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return message.get("code")


async def _tournament_path() -> str:
    from asgiref.sync import sync_to_async

    from games.tournaments.services import clubs, events
    from tests.games.conftest import make_user

    def make() -> int:
        owner = make_user("olga")
        club = clubs.create_club(owner, clubs.ClubSettings(name="Goats", slug="goats"))
        return events.create_tournament(club.pk, owner, events.EventSettings(
            name="Cup", format="swiss")).pk

    return f"/ws/tournament/{await sync_to_async(make)()}/"


@pytest.mark.parametrize("path", ["/ws/lobby/", "/ws/ping/", "/ws/table/"])
async def test_an_anonymous_flooder_is_closed_and_its_address_cooled_down(path, cast):
    if path == "/ws/table/":
        from asgiref.sync import sync_to_async

        from games.services import tables
        table = await sync_to_async(tables.create_table)(
            cast.alice, tables.TableSettings(name="open"))
        path = f"/ws/table/{table.pk}/"
    flooder = _communicator(path, "198.51.100.7")
    assert (await flooder.connect(timeout=5))[0]
    assert await _flood_until_closed(flooder) == 4008
    again = _communicator(path, "198.51.100.7")
    assert not (await again.connect(timeout=5))[0], "the address is cooling down"
    elsewhere = _communicator("/ws/lobby/", "198.51.100.7")
    assert not (await elsewhere.connect(timeout=5))[0], "on every route"
    other = _communicator(path, "198.51.100.8")
    assert (await other.connect(timeout=5))[0], "another address gets in"
    await other.disconnect()


async def test_the_page_socket_of_a_person_is_limited_and_cooled_down(cast, monkeypatch):
    monkeypatch.setattr(flood, "COOLDOWN_SECONDS", 2)
    cookie = await session_cookie(cast.bob)
    page = _communicator("/ws/me/", "198.51.100.9", cookie)
    assert (await page.connect(timeout=5))[0]
    assert (await page.receive_json_from(timeout=5))["type"] == "hello"
    assert await _flood_until_closed(page) == 4008
    from_elsewhere = _communicator("/ws/me/", "203.0.113.9", cookie)
    assert not (await from_elsewhere.connect(timeout=5))[0], "the person, on any address"

    await until(lambda: not flood.cooling_down(f"user:{cast.bob.pk}"), 10,
                "the end of the cool-down")
    back = _communicator("/ws/me/", "203.0.113.9", cookie)
    assert (await back.connect(timeout=5))[0]
    await back.disconnect()


async def test_the_tournament_socket_has_a_frame_budget():
    path = await _tournament_path()
    flooder = _communicator(path, "198.51.100.10")
    assert (await flooder.connect(timeout=5))[0]
    assert await _flood_until_closed(flooder) == 4008


async def test_a_polite_client_is_never_limited():
    client = _communicator("/ws/ping/", "198.51.100.11")
    assert (await client.connect(timeout=5))[0]
    for n in range(15):
        await client.send_json_to({"type": "ping", "nonce": n})
        assert (await client.receive_json_from(timeout=5))["type"] == "pong"
    await client.disconnect()
