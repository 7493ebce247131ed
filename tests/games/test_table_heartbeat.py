"""An open table socket keeps its presence entry alive with its own heartbeat
(games/consumers.py); once it closes, the entry is gone and nothing refreshes it."""

from __future__ import annotations

import time

import pytest

from games import presence as store
from tests.games.ws import connect
from tests.waiting import until


def _expiry(table_id: int) -> float | None:
    entries = store.client().zrange(store._key("t", table_id), 0, -1, withscores=True)
    return max((score for _, score in entries), default=None)


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_beats_and_a_closed_one_is_gone(cast, table, settings):
    settings.KOZEL_PRESENCE_HEARTBEAT_SECONDS = 0.2
    spectator = await connect(table.pk)
    first = _expiry(table.pk)
    assert first is not None
    await until(lambda: (_expiry(table.pk) or 0) > first, 5, "the socket's next heartbeat")
    assert store.live(table.pk) and _expiry(table.pk) > time.time()
    await spectator.close()
    assert store.live(table.pk) == []
