"""TableConsumer over the real ASGI app and channels-redis: snapshots, events, R19, bad frames."""

from __future__ import annotations

import asyncio
import copy

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import engine
from games.models import Move
from games.services import play, tables
from games.services import series as series_service
from kozel_site.asgi import application
from tests.games.helpers import (
    card_codes_in,
    current_game,
    first_legal,
    seated_and_started,
    state_of,
)
from tests.games.ws import ORIGIN, Recorder, connect
from tests.load.clients import with_added_history

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def seated_series(cast):
    series = seated_and_started(cast, "ws")
    return series.table, series, current_game(series)


@database_sync_to_async
def game_state(game):
    return state_of(game)


@database_sync_to_async
def submit(game, user, action, version):
    return play.submit_action(game.pk, user, action, version)


async def leader_connected(cast):
    """A new series' table, game and state, the seat on lead, its first lead and that
    player's socket (its snapshot read)."""
    table, _series, game = await seated_series(cast)
    state = await game_state(game)
    leader = state.turn
    lead = await connect(table.pk, cast.seated[leader])
    await lead.receive_type("snapshot")
    return table, game, state, leader, first_legal(state, leader, "lead").to_dict(), lead


async def test_snapshot_on_connect_shows_only_own_hand(cast):
    table, series, game = await seated_series(cast)
    state = await game_state(game)
    alice = await connect(table.pk, cast.alice)
    snap = await alice.receive()
    assert snap["type"] == "snapshot"
    assert snap["you"]["position"] == 0 and snap["you"]["is_owner"] is True
    view = snap["game"]["view"]
    assert snap["game"]["version"] == 0
    own = {c.code for c in engine.parse_cards(view["hand"])}
    assert len(own) == 4
    everything_else = {c for s in range(1, 4) for c in
                       engine.observe(state, s).to_dict()["hand"]}
    assert not (card_codes_in(snap) & everything_else)  # R19
    spectator = await connect(table.pk, cast.charlie)
    snap = await spectator.receive()
    assert snap["you"]["position"] is None and snap["game"]["view"]["hand"] == []
    await alice.close()
    await spectator.close()


async def test_events_reach_every_seat_and_spectators_with_the_version(cast):
    table, series, game = await seated_series(cast)
    seats = [await connect(table.pk, u) for u in cast.seated]
    spectator = await connect(table.pk)
    for rec in [*seats, spectator]:
        await rec.receive_type("snapshot")
    state = await game_state(game)
    leader = state.turn
    action = first_legal(state, leader, "lead")
    await seats[leader].send({"type": "act", "action": action.to_dict(), "version": 0})
    for position, rec in enumerate(seats):
        event = await rec.receive_type("event")
        assert event["version"] == 1 and event["game_id"] == game.pk
        assert len(event["view"]["hand"]) == (4 - len(action.cards) if position == leader else 4)
        assert event["view"]["table"][leader]["kind"] == "lead"
    event = await spectator.receive_type("event")
    assert event["version"] == 1 and event["view"]["hand"] == []
    for rec in [*seats, spectator]:
        await rec.close()


class VersionedClient:
    """What table.js keeps (a snapshot, then versioned events): a snapshot, then every event
    whose version is the next one; a gap means a missed event, so it asks for a resync
    and ignores events until the snapshot comes."""

    def __init__(self, recorder):
        self.recorder = recorder
        self.state = None
        self.resyncing = False
        self.gaps: list[tuple[int, int]] = []  # (held version, event version)

    async def take_snapshot(self):
        self.state = copy.deepcopy(await self.recorder.receive_type("snapshot"))
        self.resyncing = False

    async def take_frame(self):
        """Read one frame and apply it as the client would."""
        frame = await self.recorder.receive()
        if frame["type"] == "snapshot":
            self.state = copy.deepcopy(frame)
            self.resyncing = False
        elif frame["type"] == "event" and not self.resyncing:
            game = self.state["game"]
            assert frame["game_id"] == game["id"]
            if frame["version"] == game["version"] + 1:
                view = with_added_history(game["view"], frame)  # as table.js rebuilds it
                assert view is not None
                game.update(version=frame["version"], view=view,
                            turn_deadline=frame["turn_deadline"], takeover=frame["takeover"])
            elif frame["version"] > game["version"]:
                self.gaps.append((game["version"], frame["version"]))
                self.resyncing = True
                await self.recorder.send({"type": "resync"})
        return frame

    @property
    def version(self):
        return self.state["game"]["version"]


def comparable(snapshot):
    """A snapshot without ``you.can_act``, which events do not carry (the client reads
    the view's legal actions instead)."""
    out = copy.deepcopy(snapshot)
    out["you"].pop("can_act")
    return out


async def test_resync_after_a_missed_event_equals_a_fresh_snapshot(cast):
    """Zulip-style: a client that loses an event sees the gap in the next one, resyncs,
    and ends exactly where a freshly connected client for the same seat starts."""
    from channels.layers import get_channel_layer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)  # real Redis, at most once
    table, series, game = await seated_series(cast)
    users = dict(enumerate(cast.seated))
    lossy = VersionedClient(await connect(table.pk, cast.bob))
    steady = VersionedClient(await connect(table.pk, cast.bob))
    for client in (lossy, steady):
        await client.take_snapshot()
        assert client.version == 0

    async def play_one():
        state = await game_state(game)
        version = len(state.actions)
        await submit(game, users[state.turn], first_legal(state, state.turn).to_dict(), version)
        return version + 1

    assert await play_one() == 1
    dropped = await lossy.recorder.receive_type("event")  # delivered, then lost
    assert dropped["version"] == 1
    assert (await steady.take_frame())["version"] == 1
    for expected in (2, 3):
        assert await play_one() == expected
        assert (await steady.take_frame())["version"] == expected
    # The next event shows the gap; the client asks for a snapshot and takes it.
    while lossy.version != 3 or lossy.resyncing:
        await lossy.take_frame()
    assert lossy.gaps == [(0, 2)]
    # After the resync the client applies events as they come.
    assert await play_one() == 4
    for client in (lossy, steady):
        assert (await client.take_frame())["version"] == 4
    assert lossy.version == steady.version == 4

    fresh = await connect(table.pk, cast.bob)
    snapshot = await fresh.receive_type("snapshot")
    assert snapshot["game"]["version"] == 4
    assert lossy.state["game"] == snapshot["game"]
    assert comparable(lossy.state) == comparable(snapshot)
    assert comparable(steady.state) == comparable(snapshot)
    assert steady.gaps == []
    for recorder in (lossy.recorder, steady.recorder, fresh):
        await recorder.close()


@pytest.mark.parametrize("frame, code", [
    ("not json", "bad_frame"),
    ("[1, 2, 3]", "bad_frame"),
    ('{"no": "type"}', "bad_frame"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "act"}', "invalid"),
    ('{"type": "act", "action": {"kind": "lead"}, "version": 0}', "invalid"),
    ('{"type": "act", "action": {"kind": "lead", "cards": ["AH"]}, "version": "x"}', "invalid"),
    ('{"type": "act", "action": "AH", "version": 0}', "invalid"),
    ('{"type": "act", "action": {"kind": "lead", "cards": ["AH"]}, "version": 0, '
     '"game_id": 999999}', "not_found"),
    ('{"type": "chat", "text": 5}', "invalid"),
    ('{"type": "chat", "text": "' + "x" * 301 + '"}', "invalid"),
    ('{"type": "chat", "text": "   "}', "invalid"),
    ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "bad_frame"),
    # Valid JSON that some readers refuse: refused for what it
    # says, not as a bad frame.
    ('{"type": "act", "action": {"kind": "lead", "cards": ["AH"]}, "version": NaN}',
     "invalid"),
    ('{"type": "dance", "n": ' + str(2 ** 70) + "}", "unknown_type"),
])
async def test_bad_frames_get_an_error_and_change_nothing(cast, frame, code):
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    await alice.communicator.send_to(text_data=frame)
    error = await alice.receive_type("error")
    assert error["code"] == code and error["message"]
    assert await database_sync_to_async(Move.objects.filter(game=game).count)() == 0
    await alice.send({"type": "ping", "nonce": 1})
    assert (await alice.receive_type("pong"))["nonce"] == 1  # still open
    await alice.close()


@pytest.mark.parametrize("frame", [
    "[" * 3000,
    '{"": [' * 600,
    "[" * 4000,
    '{"type": "ping", "nonce": ' + "[" * 2000 + "]" * 2000 + "}",
], ids=["3000-brackets", "1200-braces-and-brackets", "4000-brackets", "deep-field"])
async def test_deeply_nested_frame_is_a_bad_frame_and_the_socket_stays_open(cast, frame):
    """Under the 4 KiB limit but deep enough for json.loads to raise RecursionError."""
    assert len(frame.encode()) <= 4096  # the size check must not be what refuses it
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    await alice.communicator.send_to(text_data=frame)
    error = await alice.receive_type("error")
    assert error["code"] == "bad_frame" and error["message"]
    await alice.send({"type": "ping", "nonce": 2})
    assert (await alice.receive_type("pong"))["nonce"] == 2  # still open
    await alice.close()


async def test_a_ping_nonce_beyond_64_bits_comes_back_in_its_pong(cast):
    """The pong echoes the nonce as sent, an integer beyond 64 bits included (some JSON
    writers refuse it)."""
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    await alice.communicator.send_to(text_data='{"type": "ping", "nonce": ' + str(2 ** 70) + "}")
    assert (await alice.receive_type("pong"))["nonce"] == 2 ** 70
    await alice.close()


async def test_binary_frame_is_refused(cast):
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    await alice.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await alice.receive_type("error"))["code"] == "bad_frame"
    await alice.close()


async def test_someone_elses_seat_illegal_and_stale_actions(cast):
    table, series, game = await seated_series(cast)
    state = await game_state(game)
    leader = state.turn
    action = first_legal(state, leader, "lead").to_dict()
    stranger = await connect(table.pk, cast.charlie)
    await stranger.receive_type("snapshot")
    await stranger.send({"type": "act", "action": action, "version": 0})
    assert (await stranger.receive_type("error"))["code"] == "not_your_seat"
    other = (leader + 1) % 4
    rec = await connect(table.pk, cast.seated[other])
    await rec.receive_type("snapshot")
    await rec.send({"type": "act", "action": action, "version": 0})
    illegal = await rec.receive_type("error")
    # R8: only the seat on lead may lead.
    assert illegal["code"] == "illegal" and illegal["message"].startswith(
        f"R8: seat {leader} is on lead, not seat {other}"), illegal
    lead = await connect(table.pk, cast.seated[leader])
    await lead.receive_type("snapshot")
    await lead.send({"type": "act", "action": action, "version": 7})
    stale = await lead.receive_type("error")
    assert stale["code"] == "stale" and stale["current_version"] == 0
    assert await database_sync_to_async(Move.objects.filter(game=game).count)() == 0
    for r in (stranger, rec, lead):
        await r.close()


async def test_flooding_client_is_closed(cast):
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    for _ in range(60):
        await alice.communicator.send_to(text_data='{"type": "ping"}')
    closed = False
    for _ in range(200):
        message = await alice.communicator.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            closed = message.get("code") == 4008
            break
    assert closed


async def test_a_flooder_is_refused_at_every_table_until_the_cooldown_ends(cast,
                                                                           monkeypatch):
    """After a flood close (4008) the same person's table handshakes are refused, at
    any table (the fuzzer's flooders reconnected ~12 times a second, each
    handshake ~18 queries); others still get in, and so does the flooder once the
    cooldown is over."""
    from kozel_site import flood as flood_cooldown

    monkeypatch.setattr(flood_cooldown, "COOLDOWN_SECONDS", 2)
    table, series, game = await seated_series(cast)
    other = await database_sync_to_async(tables.create_table)(
        cast.bob, tables.TableSettings(name="other"))
    alice = await connect(table.pk, cast.alice)
    await alice.receive_type("snapshot")
    for _ in range(60):
        await alice.communicator.send_to(text_data='{"type": "ping"}')
    while (message := await alice.communicator.receive_output(timeout=5))["type"] \
            != "websocket.close":
        pass
    assert message["code"] == 4008
    for table_id in (table.pk, other.pk):
        with pytest.raises(ConnectionRefusedError):
            await connect(table_id, cast.alice)
    bob = await connect(table.pk, cast.bob)
    await bob.receive_type("snapshot")

    async def alice_back() -> Recorder:
        while True:
            try:
                return await connect(table.pk, cast.alice)
            except ConnectionRefusedError:
                await asyncio.sleep(0.2)  # the table page's backoff, in short

    back = await asyncio.wait_for(alice_back(), 10)
    await back.receive_type("snapshot")
    for rec in (bob, back):
        await rec.close()


async def test_private_table_refuses_strangers(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="secret", visibility="private"))
    with pytest.raises(ConnectionRefusedError):
        await connect(table.pk, cast.charlie)
    with pytest.raises(ConnectionRefusedError):
        await connect(table.pk)
    owner = await connect(table.pk, cast.alice)
    snap = await owner.receive_type("snapshot")
    assert snap["table"]["invite_url"].startswith("/t/")
    await owner.close()


async def test_unknown_table_is_refused(cast):
    communicator = WebsocketCommunicator(application, "/ws/table/987654/", headers=[ORIGIN])
    connected, code = await communicator.connect(timeout=5)
    assert not connected and code == 4404


async def test_seat_changes_push_a_new_snapshot(cast):
    table = await database_sync_to_async(tables.create_table)(
        cast.alice, tables.TableSettings(name="lobby"))
    watcher = await connect(table.pk, cast.charlie)
    await watcher.receive_type("snapshot")
    await database_sync_to_async(tables.take_seat)(table.pk, cast.bob, 2)
    snap = await watcher.receive_type("snapshot")
    assert snap["seats"][2]["user"] == "bob"
    await watcher.close()


async def test_chat_is_relayed_to_everyone_at_the_table(cast):
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    spectator = await connect(table.pk)
    await alice.receive_type("snapshot")
    await spectator.receive_type("snapshot")
    await alice.send({"type": "chat", "text": "  good <b>luck</b>  "})
    for rec in (alice, spectator):
        message = (await rec.receive_type("chat"))["message"]
        assert message["text"] == "good <b>luck</b>" and message["user"] == "alice"
    await spectator.send({"type": "chat", "text": "hi"})
    assert (await spectator.receive_type("error"))["code"] == "forbidden"
    await alice.close()
    await spectator.close()


async def test_vote_and_reclaim_frames(cast):
    from tests.games.helpers import start_with_bots

    series = await database_sync_to_async(start_with_bots)(cast.alice)
    alice = await connect(series.table_id, cast.alice)
    await alice.receive_type("snapshot")
    await alice.send({"type": "vote", "kind": "pause"})
    got = {}
    while not {"vote", "notice"} <= got.keys():
        frame = await alice.receive()
        got[frame["type"]] = frame
    assert got["vote"]["carried"] is True and got["vote"]["kind"] == "pause"
    assert "paused" in got["notice"]["text"]
    await alice.send({"type": "vote", "kind": "nap"})
    assert (await alice.receive_type("error"))["code"] == "invalid"
    await alice.send({"type": "reclaim"})
    assert (await alice.receive_type("error"))["code"] == "invalid"
    await alice.close()


def _other_tables_game(cast) -> int:
    table = tables.create_table(cast.bob, tables.TableSettings(name="elsewhere"))
    for position in range(4):
        tables.add_bot(table.pk, cast.bob, position, "random")
    return current_game(series_service.start_series(table.pk, cast.bob)).pk


async def test_every_refusal_of_an_act_comes_back_with_its_code_and_changes_nothing(cast):
    """A spectator's act, a reclaim with no seat to reclaim, an act on a version older
    than the current one, an act on a version not reached, an act naming another
    table's game and an act the engine refuses (the leader leading again, R8): each gets
    its documented error (the illegal one with the engine's own reason, the stale ones
    with the current version) and changes nothing; the next seat's legal reply is then
    applied."""
    table, game, state, leader, action, lead = await leader_connected(cast)
    await submit(game, cast.seated[leader], action, 0)  # version 1 now, sent to `lead`
    assert (await lead.receive_type("event"))["version"] == 1
    after_lead = await game_state(game)
    with pytest.raises(engine.IllegalActionError) as refused:
        engine.apply(after_lead, leader, engine.action_from_dict(action))
    replier = after_lead.turn
    reply = first_legal(after_lead, replier).to_dict()
    follow = await connect(table.pk, cast.seated[replier])
    await follow.receive_type("snapshot")
    stranger = await connect(table.pk, cast.charlie)
    await stranger.receive_type("snapshot")
    elsewhere = await database_sync_to_async(_other_tables_game)(cast)

    await stranger.send({"type": "act", "action": action, "version": 1})
    assert (await stranger.receive_type("error"))["code"] == "not_your_seat"
    await stranger.send({"type": "reclaim"})  # no seat kept for them here
    assert (await stranger.receive_type("error"))["code"] == "invalid"
    await lead.send({"type": "act", "action": action, "version": 0})
    stale = await lead.receive_type("error")
    assert stale["code"] == "stale" and stale["current_version"] == 1
    await follow.send({"type": "act", "action": reply, "version": 2})  # never sent
    unsent = await follow.receive_type("error")
    assert unsent["code"] == "stale" and unsent["current_version"] == 1
    await lead.send({"type": "act", "action": action, "version": 1, "game_id": elsewhere})
    assert (await lead.receive_type("error"))["code"] == "not_found"
    await lead.send({"type": "act", "action": action, "version": 1})
    illegal = await lead.receive_type("error")
    assert illegal["code"] == "illegal" and illegal["message"] == str(refused.value)
    assert await database_sync_to_async(Move.objects.filter(game=game).count)() == 1
    await follow.send({"type": "act", "action": reply, "version": 1})
    assert (await follow.receive_type("event"))["version"] == 2
    for r in (stranger, lead, follow):
        await r.close()


async def test_malformed_chat_and_votes_are_refused(cast):
    """A chat line or a vote whose shape is wrong, or from no one signed in, is refused
    with its error; a well-formed line is stored and relayed."""
    table, series, game = await seated_series(cast)
    alice = await connect(table.pk, cast.alice)
    anonymous = await connect(table.pk)
    for rec in (alice, anonymous):
        await rec.receive_type("snapshot")
    refused = [(alice, {"type": "chat", "text": "   "}, "invalid"),
               (alice, {"type": "chat", "text": ["hi"]}, "invalid"),
               (alice, {"type": "chat", "text": "x" * 301}, "invalid"),
               (alice, {"type": "vote", "kind": "PAUSE"}, "invalid"),
               (anonymous, {"type": "chat", "text": "hi"}, "forbidden"),
               (anonymous, {"type": "vote", "kind": "pause"}, "forbidden")]
    for rec, frame, code in refused:
        await rec.send(frame)
        assert (await rec.receive_type("error", timeout=2))["code"] == code, frame
    await alice.send({"type": "chat", "text": "good luck"})
    assert (await alice.receive_type("chat"))["message"]["text"] == "good luck"
    for rec in (alice, anonymous):
        await rec.close()


async def test_a_resync_after_an_event_shows_that_version(cast):
    """A resync after an event always shows that event's version or a newer one."""
    table, series, game = await seated_series(cast)
    state = await game_state(game)
    leader = state.turn
    spectator, watcher = await connect(table.pk), await connect(table.pk)
    for rec in (spectator, watcher):
        await rec.receive_type("snapshot")
    for rec in (spectator, watcher):
        await rec.send({"type": "resync"})
        assert (await rec.receive_type("snapshot"))["game"]["version"] == 0
    await submit(game, cast.seated[leader], first_legal(state, leader).to_dict(), 0)
    assert (await watcher.receive_type("event"))["version"] == 1
    await watcher.send({"type": "resync"})
    assert (await watcher.receive_type("snapshot"))["game"]["version"] == 1
    for rec in (spectator, watcher):
        await rec.close()


async def test_a_close_reaches_presence_and_the_other_seats(cast):
    """Closing a table drops the player's presence and tells the other seats that the
    player left."""
    from games import presence as store

    table, series, game = await seated_series(cast)
    alice, bob = await connect(table.pk, cast.alice), await connect(table.pk, cast.bob)
    for rec in (alice, bob):
        await rec.receive_type("snapshot")

    async def bob_told_alice_left() -> None:
        while True:  # (bob's own arrival may be pushed to him first)
            told = await bob.receive_type("snapshot")
            if not next(s for s in told["seats"] if s["user"] == "alice")["connected"]:
                return

    await alice.close()
    await asyncio.wait_for(bob_told_alice_left(), 3)
    online = await database_sync_to_async(store.live_user_ids)(table.pk)
    assert cast.alice.pk not in online and cast.bob.pk in online
    await bob.close()


async def test_events_carry_the_new_history_entries_and_rebuild_each_seats_history_r19(cast):
    """An event's view has no history; its ``history_added`` from ``history_from`` on,
    after the history a socket already holds, gives exactly the history the snapshot
    shows at that version, own face-down discards included (R9, R19), through completed
    tricks and draws (whole histories in every event grew with the game)."""
    table, series, game = await seated_series(cast)
    sockets = [await connect(table.pk, u) for u in cast.seated] + [await connect(table.pk)]
    histories = [(await s.receive_type("snapshot"))["game"]["view"]["history"]
                 for s in sockets]
    state = await game_state(game)
    version = 0
    while len(state.history) < 14:  # past the first completed tricks and draws
        seat = state.turn
        await submit(game, cast.seated[seat], first_legal(state, seat).to_dict(), version)
        version += 1
        for index, socket in enumerate(sockets):
            event = await socket.receive_type("event")
            assert event["version"] == version and "history" not in event["view"]
            start, added = event["history_from"], event["history_added"]
            assert 0 <= start <= len(histories[index])
            assert 1 <= len(added) <= 3  # one play (or molodka), its trick and its draw
            histories[index] = histories[index][:start] + added
        state = await game_state(game)
    assert any(e[0] == "trick" for e in state.history)
    for index, socket in enumerate(sockets):
        await socket.send({"type": "resync"})
        snap = await socket.receive_type("snapshot")
        assert snap["game"]["version"] == version
        assert histories[index] == snap["game"]["view"]["history"]
        position = index if index < 4 else None
        own = engine.observe(state, position) if position is not None \
            else engine.public_view(state)
        assert histories[index] == own.to_dict()["history"]
    for socket in sockets:
        await socket.close()
