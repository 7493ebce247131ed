"""The sweep announces an idle game's current version once more (issue 15).

A move whose broadcast was lost (its process killed between commit and publish, Redis
down) left the other seats on the old version with no later event to reveal the gap;
the load harness saw such a table stand still for good.
"""

from __future__ import annotations

from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from games.models import Game
from games.services import publish, sweep
from games.services import series as series_service
from tests.games.helpers import current_game


def _receive(layer, channel, timeout=5.0):
    async def get():
        import asyncio

        return await asyncio.wait_for(layer.receive(channel), timeout)

    return async_to_sync(get)()


def test_an_idle_game_is_announced_once_per_version(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(publish.seat_group(full_table.pk, 2), channel)

    assert sweep.reannounce_idle_games() == 0  # just dealt: not idle yet
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=10))
    assert sweep.reannounce_idle_games() == 1
    event = _receive(layer, channel)
    assert (event["type"], event["game_id"], event["version"]) == (
        "table.event", game.pk, game.version)
    assert event["view"]["seat"] == 2 and event["view"]["hand"]  # that seat's own view
    assert sweep.reannounce_idle_games() == 0  # once per version


def test_a_long_idle_game_is_left_alone(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert sweep.reannounce_idle_games() == 0
