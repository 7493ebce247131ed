"""The home page's "Online now" with privacy, over real sockets and the page:
people online through a page socket (ws/me/) or a table socket are counted, except
those who hide their online status (for everyone) and those across a block (for the
one they blocked or who blocked them); none of them is named in "Worth watching"."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from accounts.social import services
from games.services import series as series_service
from games.services import tables
from tests.games.ws import connect
from tests.social.conftest import block
from tests.social.test_sockets import close_all, next_of, page

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


def bobs_table(bob):
    """A live public series: bob and three bots (worth watching)."""
    table = tables.create_table(bob, tables.TableSettings(name="bob plays"))
    tables.take_seat(table.pk, bob, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, bob, position, "casual")
    series_service.start_series(table.pk, bob)
    return table


def named(line: str, name: str) -> bool:
    return re.search(rf"\b{name}\b", line) is not None


def home_as(client, user) -> tuple[int, int, str]:
    """(online, playing, the watch-list line of "bob plays") as ``user`` sees them."""
    client.logout()
    if user is not None:
        client.force_login(user)
    html = client.get("/").content.decode()
    found = re.search(r'data-online="(\d+)" data-playing="(\d+)"', html)
    assert found, html
    line = re.search(r'<li data-table="\d+"><a [^>]*>bob plays</a>(.*?)</li>', html)
    assert line, "bob's table is worth watching"
    return int(found[1]), int(found[2]), line[1]


async def test_hidden_and_blocked_people_are_not_counted_nor_named_on_the_home_page(
        cast, client):
    table = await db(bobs_table)(cast.bob)
    await db(services.update_settings)(cast.bob, {"hide_online": True})
    await db(block)(cast.mallory, cast.alice)
    bob_table = await connect(table.pk, cast.bob)  # plays at his table: online, hidden
    pages = [await page(u) for u in (cast.alice, cast.carol, cast.mallory)]
    for socket in pages:
        await next_of(socket, "hello")

    # Anyone: alice, carol and mallory; never bob, neither counted nor named.
    online, playing, line = await db(home_as)(client, None)
    assert (online, playing) == (3, 0)
    assert not named(line, "bob") and line.count("(Casual)") == 3, "the bots are listed"
    # Alice and mallory (a block): neither sees the other; carol sees both.
    assert (await db(home_as)(client, cast.alice))[:2] == (2, 0)
    assert (await db(home_as)(client, cast.mallory))[:2] == (2, 0)
    assert (await db(home_as)(client, cast.carol))[:2] == (3, 0)

    # The check can fail: once bob shows his status he is counted, playing, and named.
    await db(services.update_settings)(cast.bob, {"hide_online": False})
    online, playing, line = await db(home_as)(client, None)
    assert (online, playing) == (4, 1) and named(line, "bob")
    # A block hides him from the one he blocked, name included.
    await db(block)(cast.bob, cast.carol)
    online, playing, line = await db(home_as)(client, cast.carol)
    assert (online, playing) == (3, 0) and not named(line, "bob")
    assert (await db(home_as)(client, cast.alice))[:2] == (3, 1)

    # Closing the sockets takes people off the figure (presence, not a counter).
    await pages[1].disconnect()
    assert (await db(home_as)(client, None))[:2] == (3, 1)
    await bob_table.close()
    await close_all(pages[0], pages[2])


def test_online_now_counts_its_reader_before_their_page_socket_opens(cast, client):
    """The home page is rendered before its own page socket connects: a signed-in reader
    is online all the same (they are reading it), and an anonymous one is not counted."""
    html = client.get("/").content.decode()
    assert 'data-online="0"' in html
    client.force_login(cast.alice)
    assert 'data-online="1"' in client.get("/").content.decode()
    assert 'data-online="1"' in client.get("/online-now/").content.decode()
