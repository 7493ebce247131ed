"""The site's channel layer (kozel_site/channel_layer.py) on the real Redis: a batch of
group messages published in one pipeline reaches every member of each group, in order."""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

from kozel_site.channel_layer import PubSubLayer


async def test_a_batch_reaches_each_groups_members_in_the_order_given():
    layer = get_channel_layer()
    assert isinstance(layer, PubSubLayer)
    seat, spectator = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("batch.table.seat.0", seat)
    await layer.group_add("batch.table", seat)
    await layer.group_add("batch.table", spectator)
    try:
        await layer.group_send_many([
            ("batch.table.seat.0", {"type": "table.event", "n": 1}),
            ("batch.table", {"type": "table.refresh", "n": 2}),
            ("batch.table.seat.0", {"type": "table.event", "n": 3}),
            ("batch.nobody", {"type": "table.event", "n": 4}),
        ])
        got = [await asyncio.wait_for(layer.receive(seat), 5) for _ in range(3)]
        assert [m["n"] for m in got] == [1, 2, 3]
        assert (await asyncio.wait_for(layer.receive(spectator), 5))["n"] == 2
        await layer.group_send("batch.table", {"type": "table.refresh", "n": 5})
        assert (await asyncio.wait_for(layer.receive(spectator), 5))["n"] == 5  # no stray 4
    finally:
        for group, channel in [("batch.table.seat.0", seat), ("batch.table", seat),
                               ("batch.table", spectator)]:
            await layer.group_discard(group, channel)
