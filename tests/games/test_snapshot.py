"""The snapshot in two steps (games/snapshot.py): the table's facts read once, then each
reader's frame from them with no query of its own, still R19-exact."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.moderation.services import blocks
from games import snapshot
from games.models import ChatMessage, Conduct
from games.services import publish
from games.services import series as series_service
from tests.games.helpers import card_codes_in, current_game, state_of
from tests.games.test_live_play import take_over
from tests.games.ws import connect

pytestmark = pytest.mark.django_db(transaction=True)


def _hands(state) -> list[set[str]]:
    return [{card.code for card in hand} for hand in state.hands]


def _lines(table, user, count: int, channel=ChatMessage.Channel.PLAYERS) -> None:
    ChatMessage.objects.bulk_create(
        ChatMessage(table=table, user=user, text=f"{user.username} {i}", channel=channel)
        for i in range(count))


def test_a_readers_frame_needs_no_query_of_its_own(cast, full_table):
    """Seated, away (a substitute plays their seat) or watching: once the facts are read,
    every reader's frame is built without touching the database."""
    series = series_service.start_series(full_table.pk, cast.alice)
    take_over(current_game(series), 1, Conduct.Reason.TIMEOUTS)
    _lines(full_table, cast.alice, 3)
    facts = snapshot.table_facts(full_table)
    frames = {}
    with CaptureQueriesContext(connection) as queries:
        for user in [cast.alice, cast.bob, cast.charlie, None]:
            chat = snapshot.chat_from_facts(facts, set(), True)
            assert chat is not None
            frames[user] = snapshot.snapshot_for(facts, user, show_spectators=False,
                                                 chat=chat)
    assert len(queries) == 0, [q["sql"] for q in queries]
    assert frames[cast.bob]["you"]["away"]["reason"] == "timeouts"  # read with the facts
    assert "time ran out twice" in frames[cast.bob]["you"]["away"]["text"]
    assert frames[cast.alice]["you"]["away"] is None
    assert [m["text"] for m in frames[None]["chat"]] == ["alice 0", "alice 1", "alice 2"]


def test_r19_frames_built_from_shared_facts_show_each_reader_only_their_own_hand(
        cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    hands = _hands(state_of(current_game(series)))
    facts = snapshot.table_facts(full_table)
    for position, user in enumerate(cast.seated):
        frame = snapshot.snapshot_for(facts, user, show_spectators=False, chat=[])
        others = set().union(*(hands[p] for p in range(4) if p != position))
        seen = card_codes_in(frame)
        assert hands[position] <= seen and not (others & seen), position
    watcher = snapshot.snapshot_for(facts, cast.charlie, show_spectators=False, chat=[])
    assert not (set().union(*hands) & card_codes_in(watcher))


def test_r19_shared_facts_make_each_seats_view_once_and_give_it_only_to_that_seat(
        cast, full_table):
    """The sockets that share a table's facts share the views made from them (
    once the state was restored once per socket): the same seat, or two spectators, get the
    very same view; each seat still sees only its own hand (R19), and every view equals
    the one made from facts read afresh."""
    series = series_service.start_series(full_table.pk, cast.alice)
    hands = _hands(state_of(current_game(series)))
    facts = snapshot.table_facts(full_table)

    def view(user, shared=facts):
        return snapshot.snapshot_for(shared, user, show_spectators=False,
                                     chat=[])["game"]["view"]

    assert view(cast.charlie) is view(None)  # two spectators: one public view
    for position, user in enumerate(cast.seated):
        mine = view(user)
        assert view(user) is mine and mine is not view(None)
        assert mine == view(user, snapshot.table_facts(full_table))
        seen = card_codes_in(mine)
        others = set().union(*(hands[p] for p in range(4) if p != position))
        assert hands[position] <= seen and not (others & seen), position
    assert not (set().union(*hands) & card_codes_in(view(None)))


def test_a_reader_who_blocked_a_chatty_player_still_gets_the_older_lines(cast, full_table):
    """The shared lines are the latest 100; dan blocked bob, who wrote 110 of them after
    alice's 10: dan's chat is read for him alone and still holds alice's lines."""
    _lines(full_table, cast.alice, 10)
    _lines(full_table, cast.bob, 110)
    blocks.block(cast.dan, cast.bob)
    facts = snapshot.table_facts(full_table)
    assert snapshot.chat_from_facts(facts, {cast.bob.pk}, True) is None
    dan = snapshot.table_snapshot(full_table, cast.dan)["chat"]
    assert [m["text"] for m in dan] == [f"alice {i}" for i in range(10)]
    bob = snapshot.table_snapshot(full_table, cast.bob)["chat"]
    assert len(bob) == snapshot.CHAT_BACKLOG and bob[-1]["text"] == "bob 109"


def test_players_only_readers_fall_back_when_spectators_fill_the_shared_lines(
        cast, full_table):
    _lines(full_table, cast.alice, 5)
    _lines(full_table, cast.charlie, 120, channel=ChatMessage.Channel.SPECTATORS)
    facts = snapshot.table_facts(full_table)
    assert snapshot.chat_from_facts(facts, set(), with_spectators=False) is None
    seated = snapshot.table_snapshot(full_table, cast.alice)["chat"]
    assert [m["text"] for m in seated] == [f"alice {i}" for i in range(5)]


async def test_a_refresh_notice_gives_each_socket_its_own_frame(cast):
    """Four seats and a spectator get one refresh notice: each socket a fresh snapshot
    with its own hand only (R19)."""
    from tests.games.test_table_consumer import seated_series

    table, series, game = await seated_series(cast)
    hands = _hands(await database_sync_to_async(state_of)(game))
    sockets = [await connect(table.pk, user) for user in [*cast.seated, cast.charlie]]
    for socket in sockets:
        await socket.receive_type("snapshot")
    await get_channel_layer().group_send(publish.table_group(table.pk),
                                         {"type": "table.refresh", "notice": "probe"})
    try:
        frames = [await socket.receive_type("snapshot") for socket in sockets]
    finally:
        for socket in sockets:
            await socket.close()
    for position, frame in enumerate(frames[:4]):
        assert frame["you"]["position"] == position
        assert set(frame["game"]["view"]["hand"]) == hands[position]
    assert frames[4]["you"]["position"] is None
    assert not (set().union(*hands) & card_codes_in(frames[4]))
