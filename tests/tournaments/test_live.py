"""Live tournament pages over the real channel layer (Redis): a committed change reaches
every open tournament page, a round start reaches its players' banner sockets, and
nothing is sent for a rolled-back change. Tasks refuse bad arguments."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections, transaction

from games.tournaments import tasks
from games.tournaments.models import Round
from kozel_site.asgi import application
from tests.games.ws import ORIGIN, session_cookie
from tests.tournaments.helpers import act, enter_pairs, event

pytestmark = pytest.mark.django_db(transaction=True)


async def _connect(path, cookie=None):
    headers = [ORIGIN] + ([(b"cookie", f"sessionid={cookie}".encode())] if cookie else [])
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def test_a_committed_change_reaches_the_tournament_page_and_a_round_start_the_banner(
        club_cast):
    t = await database_sync_to_async(event)(club_cast)
    await database_sync_to_async(enter_pairs)(t, club_cast.players[:4])
    page, ok = await _connect(f"/ws/tournament/{t.pk}/")
    assert ok
    player = club_cast.players[0]
    banner, ok = await _connect("/ws/tournaments/me/", await session_cookie(player))
    assert ok
    bystander, ok = await _connect("/ws/tournaments/me/",
                                   await session_cookie(club_cast.member))
    assert ok

    def rolled_back():
        with transaction.atomic():
            act(t, club_cast.director, "close_registration")
            raise RuntimeError("undo")

    with pytest.raises(RuntimeError):
        await database_sync_to_async(rolled_back)()
    assert await page.receive_nothing(timeout=0.5)

    await database_sync_to_async(act)(t, club_cast.director, "start")
    assert await page.receive_json_from(timeout=5) == {"type": "changed"}
    assert await banner.receive_json_from(timeout=5) == {"type": "banner"}
    assert await bystander.receive_nothing(timeout=0.5)
    await page.send_to(text_data="[" * 3000)  # junk is ignored, the socket stays
    await page.send_json_to({"type": "ping"})
    frame = await page.receive_json_from(timeout=5)
    while frame != {"type": "pong"}:
        frame = await page.receive_json_from(timeout=5)
    for c in (page, banner, bystander):
        await c.disconnect()
    await database_sync_to_async(connections.close_all)()  # the executor thread's


async def test_unknown_tournaments_and_anonymous_banner_sockets_are_refused(club_cast):
    _, ok = await _connect("/ws/tournament/999999/")
    assert not ok
    _, ok = await _connect("/ws/tournaments/me/")
    assert not ok
    await database_sync_to_async(connections.close_all)()


@pytest.mark.parametrize("args", [("1",), (True,), (-1,), (), (1, 2)])
def test_tasks_refuse_bad_arguments_and_change_nothing(club_cast, args):
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    before = list(Round.objects.values_list("status", flat=True))
    for task in (tasks.checkin_deadline_task, tasks.round_time_task, tasks.match_finished_task):
        task(*args)  # logged and refused: no exception
    tasks.start_round_task(*args)
    assert list(Round.objects.values_list("status", flat=True)) == before
