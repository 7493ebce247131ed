"""A table socket that lives through a Redis restart joins its groups again (issue 15).

Group memberships live in Redis; a restarted Redis (no persistence) forgets them, and a
socket that survived heard nothing more: the load harness saw tables stand still for good
after `faults --kill redis`. The consumer compares Redis' run id at each heartbeat.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import consumers
from games.services import play, tables
from games.services import series as series_service
from tests.games.helpers import current_game, first_legal, state_of
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def seated_game(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="restart"))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return table, current_game(series_service.start_series(table.pk, cast.alice))


@database_sync_to_async
def play_first_legal(game, users):
    state = state_of(game)
    seat = state.turn
    play.submit_action(game.pk, users[seat], first_legal(state, seat).to_dict(), game.version)


@database_sync_to_async
def forget_groups(table_id):
    from games import presence
    from games.services import publish

    layer = get_channel_layer()
    groups = [publish.table_group(table_id), publish.public_group(table_id),
              *(publish.seat_group(table_id, n) for n in range(4))]
    presence.client().delete(*(layer._group_key(g) for g in groups))


async def test_a_socket_that_outlives_a_redis_restart_joins_again_and_resyncs(cast,
                                                                            monkeypatch):
    table, game = await seated_game(cast)
    bob = await connect(table.pk, cast.bob)
    assert (await bob.receive())["type"] == "snapshot"
    await forget_groups(table.pk)  # what a restarted Redis remembers of them
    monkeypatch.setattr(consumers, "_redis_run_id", lambda: "a-restarted-server")
    snapshot = await bob.receive_type("snapshot", timeout=10)  # within a heartbeat (2 s)
    assert snapshot["you"]["position"] == 1
    await play_first_legal(game, dict(enumerate(cast.seated)))
    event = await bob.receive_type("event", timeout=5)  # it hears the table again
    assert event["version"] == 1
    await bob.close()
