"""The per-user page socket (ws/me/) over the real ASGI app and Redis channel layer:
invitations, accept and decline arrive live and are marked read; who follows whom sees
them come online and go offline; a hidden or blocked user never appears online, over
the socket or on the page; the round-start banner shares the socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from accounts.social import invites, notify, selectors, services
from games import events
from games.tournaments import publish as tournament_publish
from kozel_site.asgi import application
from tests.games.ws import ORIGIN, session_cookie
from tests.social.conftest import block

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


async def page(user=None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await session_cookie(user)}".encode()))
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, code = await communicator.connect(timeout=5)
    if not connected:
        raise ConnectionRefusedError(code)
    return communicator


async def next_of(socket: WebsocketCommunicator, kind: str) -> dict:
    while True:
        frame = await socket.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame


async def close_all(*sockets: WebsocketCommunicator) -> None:
    for socket in sockets:
        await socket.disconnect()
    await db(connections.close_all)()


async def test_an_invitation_arrives_live_on_every_page_and_accepting_marks_it_read(cast):
    bob_1, bob_2, carol = await page(cast.bob), await page(cast.bob), await page(cast.carol)
    assert (await next_of(bob_1, "hello"))["unread"] == 0
    await next_of(bob_2, "hello")
    await next_of(carol, "hello")
    sent = await db(invites.invite)(cast.alice, "bob")
    for socket in (bob_1, bob_2):
        frame = await next_of(socket, "notification")
        assert frame["text"] == "alice invites you to their table alice's table."
        assert frame["unread"] == 1 and frame["invite"] == sent.pk and frame["kind"] == "invite"
    assert await carol.receive_nothing(timeout=0.5), "nobody else's"
    await db(invites.accept)(cast.bob, sent.pk)
    assert (await next_of(bob_1, "notifications.read"))["unread"] == 0
    assert await db(selectors.unread_count)(cast.bob) == 0
    await close_all(bob_1, bob_2, carol)


async def test_declining_tells_the_inviter_live_and_mark_read_updates_the_badge(cast):
    alice = await page(cast.alice)
    await next_of(alice, "hello")
    sent = await db(invites.invite)(cast.alice, "bob")
    await db(invites.decline)(cast.bob, sent.pk)
    frame = await next_of(alice, "notification")
    assert frame["kind"] == "declined" and frame["text"] == "bob declined your invitation."
    await db(notify.mark_read)(cast.alice)
    assert (await next_of(alice, "notifications.read"))["unread"] == 0
    await close_all(alice)


async def test_followers_see_a_friend_come_online_and_go_offline(cast):
    await db(services.follow)(cast.alice, "bob")
    alice = await page(cast.alice)
    await next_of(alice, "hello")
    bob = await page(cast.bob)
    assert await next_of(alice, "presence") == {"type": "presence", "username": "bob",
                                                "online": True}
    assert await db(selectors.visible_online)(cast.alice, [cast.bob.pk]) == {cast.bob.pk}
    await bob.disconnect()
    assert await next_of(alice, "presence") == {"type": "presence", "username": "bob",
                                                "online": False}
    assert await db(selectors.visible_online)(cast.alice, [cast.bob.pk]) == set()
    await close_all(alice)


async def test_a_hidden_or_blocked_user_never_appears_online_over_the_socket_or_page(
        cast, client):
    await db(services.follow)(cast.alice, "bob")
    await db(services.follow)(cast.alice, "mallory")
    await db(services.update_settings)(cast.bob, {"hide_online": True})
    await db(block)(cast.mallory, cast.alice)
    alice = await page(cast.alice)
    await next_of(alice, "hello")
    bob, mallory = await page(cast.bob), await page(cast.mallory)
    assert await alice.receive_nothing(timeout=0.7), "no presence frame for either"
    assert await db(selectors.visible_online)(cast.alice, [cast.bob.pk, cast.mallory.pk]) \
        == set()

    def friends_page() -> str:
        client.force_login(cast.alice)
        return client.get("/friends/").content.decode()

    html = await db(friends_page)()
    assert 'data-friend="bob"' in html and 'data-friend="mallory"' in html
    assert 'class="presence-dot" data-online="1"' not in html
    # Carol, neither hidden nor blocked, is seen: the check can fail.
    await db(services.follow)(cast.alice, "carol")
    carol = await page(cast.carol)
    assert (await next_of(alice, "presence"))["username"] == "carol"
    await close_all(alice, bob, mallory, carol)


async def test_the_round_banner_shares_the_page_socket_and_strangers_are_refused(cast):
    alice = await page(cast.alice)
    await next_of(alice, "hello")
    await db(events.send_events)(tournament_publish.banners([cast.alice.pk]))
    assert await next_of(alice, "banner") == {"type": "banner"}
    await alice.send_to(text_data="[" * 3000)  # junk is ignored, the socket stays
    await alice.send_json_to({"type": "ping"})
    assert await next_of(alice, "pong") == {"type": "pong"}
    with pytest.raises(ConnectionRefusedError):
        await page()
    await close_all(alice)
