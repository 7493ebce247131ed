"""The sweep announces an idle game's current version once more.

A move whose broadcast was lost (its process killed between commit and publish, Redis
down) left the other seats on the old version with no later event to reveal the gap;
the load harness saw such a table stand still for good.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game
from games.services import publish, sweep
from games.services import series as series_service
from tests.games.helpers import current_game


def _sweep_heard_by_seat(table_id: int, position: int) -> tuple[int, dict | None]:
    """Run the sweep once while a channel of this seat's group listens (on one event
    loop: the pub/sub layer's subscriptions belong to the loop that made them); the
    sweep's count and the message the seat heard, or None within a second."""

    async def listen() -> tuple[int, dict | None]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(publish.seat_group(table_id, position), channel)
        count = await sync_to_async(sweep.reannounce_idle_games)()
        try:
            return count, await asyncio.wait_for(layer.receive(channel), 1.0)
        except TimeoutError:
            return count, None

    return async_to_sync(listen)()


def test_an_idle_game_is_announced_once_per_version(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    assert _sweep_heard_by_seat(full_table.pk, 2) == (0, None)  # just dealt: not idle yet
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    count, event = _sweep_heard_by_seat(full_table.pk, 2)
    assert count == 1 and event is not None
    assert (event["type"], event["game_id"], event["version"]) == (
        "table.event", game.pk, game.version)
    assert event["view"]["seat"] == 2 and event["view"]["hand"]  # that seat's own view
    assert _sweep_heard_by_seat(full_table.pk, 2) == (0, None)  # once per version


def test_a_long_idle_game_is_left_alone(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert sweep.reannounce_idle_games() == 0
