"""The spectators' chat over real sockets (the ASGI app, channels-redis, PostgreSQL).

A spectator's line goes to the spectators' chat of the table: other spectators read it,
a seated player only after choosing "Show spectators' chat" (remembered per person, off
by default); spectators read the players' chat as before. Both go through the one chat
service, so a moderator's hiding and a mute apply to spectator lines too, and R19 holds
(a spectator's socket still gets only the public view).
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.moderation.models import Report
from accounts.moderation.services import blocks, reports, sanctions
from games.models import ChatMessage, ChatPreference
from games.services import chat, tables
from tests.games.conftest import make_user
from tests.games.ws import connect
from tests.moderation.test_live_enforcement import echo, playing

pytestmark = pytest.mark.django_db(transaction=True)


async def chat_texts(recorder, until):
    """The texts of the chat frames ``recorder`` gets up to the one carrying ``until``."""
    texts = []
    while True:
        frame = await recorder.receive_type("chat")
        texts.append(frame["message"]["text"])
        if frame["message"]["text"] == until:
            return texts


async def opened(table_id, user):
    """A table socket past its first snapshot; returns (recorder, snapshot)."""
    recorder = await connect(table_id, user)
    return recorder, await recorder.receive_type("snapshot")


async def test_r19_a_spectators_line_reaches_spectators_and_not_a_player_who_has_not_opted_in(
        cast):
    table, _series = await playing(cast)
    eve = await database_sync_to_async(make_user)("eve")
    alice, snap = await opened(table.pk, cast.alice)
    assert snap["you"]["show_spectator_chat"] is False
    assert snap["you"]["sees_spectator_chat"] is False
    charlie, spectator_snap = await opened(table.pk, cast.charlie)
    # R19: a spectator's socket gets the public view only, whatever chat it reads.
    assert spectator_snap["you"]["position"] is None
    assert spectator_snap["you"]["sees_spectator_chat"] is True
    assert spectator_snap["game"]["view"]["hand"] == []
    watcher, _ = await opened(table.pk, eve)

    await charlie.send({"type": "chat", "text": "nice lead by alice"})
    line = (await watcher.receive_type("chat"))["message"]
    assert line["text"] == "nice lead by alice" and line["channel"] == "spectators"
    await echo(charlie, "nice lead by alice")
    # A players' line sent after it: alice gets it first, the spectator line never.
    await alice.send({"type": "chat", "text": "thanks all"})
    assert await chat_texts(alice, "thanks all") == ["thanks all"]
    # Players' chat still reaches spectators.
    players_line = await watcher.receive_type("chat")
    assert players_line["message"] == {**players_line["message"], "text": "thanks all",
                                       "channel": "players"}
    # Snapshots agree: the player's has no spectator line, the spectator's has both.
    await alice.send({"type": "resync"})
    assert [m["text"] for m in (await alice.receive_type("snapshot"))["chat"]] == ["thanks all"]
    await watcher.send({"type": "resync"})
    assert [(m["text"], m["channel"]) for m in
            (await watcher.receive_type("snapshot"))["chat"]] == [
        ("nice lead by alice", "spectators"), ("thanks all", "players")]
    stored = await database_sync_to_async(
        lambda: list(ChatMessage.objects.order_by("pk").values_list("channel", flat=True)))()
    assert stored == ["spectators", "players"]
    for who in (alice, charlie, watcher):
        await who.close()


async def test_a_player_who_opts_in_receives_spectator_lines_and_the_choice_is_remembered(cast):
    table, _series = await playing(cast)
    alice, _ = await opened(table.pk, cast.alice)
    charlie, _ = await opened(table.pk, cast.charlie)
    await charlie.send({"type": "chat", "text": "before opting in"})
    await echo(charlie, "before opting in")

    await alice.send({"type": "chat_settings", "show_spectators": True})
    snap = await alice.receive_type("snapshot")
    assert snap["you"]["show_spectator_chat"] is True
    assert [m["text"] for m in snap["chat"]] == ["before opting in"]
    await charlie.send({"type": "chat", "text": "now you see me"})
    line = (await alice.receive_type("chat"))["message"]
    assert (line["text"], line["channel"]) == ("now you see me", "spectators")
    # Remembered per person: a new socket (another tab, another day) reads it too.
    second, second_snap = await opened(table.pk, cast.alice)
    assert second_snap["you"]["sees_spectator_chat"] is True
    assert await database_sync_to_async(
        ChatPreference.objects.filter(user=cast.alice, show_spectators=True).exists)()

    # Turned off on one screen: every screen of alice leaves the spectators' chat.
    await second.send({"type": "chat_settings", "show_spectators": False})
    for screen in (alice, second):
        assert (await screen.receive_type("snapshot"))["you"]["sees_spectator_chat"] is False
    await charlie.send({"type": "chat", "text": "gone again"})
    await echo(charlie, "gone again")
    await alice.send({"type": "chat", "text": "players only"})
    assert await chat_texts(alice, "players only") == ["players only"]
    for who in (alice, second, charlie):
        await who.close()


async def test_bad_chat_settings_frames_are_refused_and_change_nothing(cast):
    table, _series = await playing(cast)
    alice, _ = await opened(table.pk, cast.alice)
    for value in ("yes", 1, None, [True]):
        await alice.send({"type": "chat_settings", "show_spectators": value})
        assert (await alice.receive_type("error"))["code"] == "invalid"
    anonymous = await connect(table.pk)
    await anonymous.receive_type("snapshot")
    await anonymous.send({"type": "chat_settings", "show_spectators": True})
    assert (await anonymous.receive_type("error"))["code"] == "forbidden"
    assert not await database_sync_to_async(ChatPreference.objects.exists)()
    for who in (alice, anonymous):
        await who.close()


async def test_a_moderator_hides_a_spectator_line_and_it_leaves_every_open_screen(cast, mona):
    table, _series = await playing(cast)
    eve = await database_sync_to_async(make_user)("eve")
    await database_sync_to_async(chat.set_show_spectators)(cast.bob, True)
    bob, _ = await opened(table.pk, cast.bob)
    charlie, _ = await opened(table.pk, cast.charlie)
    watcher, _ = await opened(table.pk, eve)
    await charlie.send({"type": "chat", "text": "a rude spectator line"})
    line = (await watcher.receive_type("chat"))["message"]
    assert (await bob.receive_type("chat"))["message"]["id"] == line["id"]
    await echo(charlie, "a rude spectator line")
    await database_sync_to_async(sanctions.hide_message)(mona, line["id"], "Rude")
    for screen in (bob, charlie, watcher):
        assert (await screen.receive_type("chat_hidden"))["ids"] == [line["id"]]
    await watcher.send({"type": "resync"})
    assert (await watcher.receive_type("snapshot"))["chat"] == []
    for who in (bob, charlie, watcher):
        await who.close()


async def test_a_muted_spectators_chat_frame_is_refused(cast, mona):
    table, _series = await playing(cast)
    charlie, _ = await opened(table.pk, cast.charlie)
    await charlie.send({"type": "chat", "text": "first"})
    await echo(charlie, "first")
    await database_sync_to_async(sanctions.mute_chat)(mona, cast.charlie, 2, "Spoilers")
    await charlie.send({"type": "chat", "text": "second"})
    error = await charlie.receive_type("error")
    assert error["code"] == "muted" and "Spoilers" in error["message"]
    assert await database_sync_to_async(
        lambda: list(ChatMessage.objects.values_list("text", flat=True)))() == ["first"]
    await charlie.close()


async def test_a_blocked_spectator_is_left_out_and_a_spectator_line_can_be_reported(cast):
    table, _series = await playing(cast)
    eve = await database_sync_to_async(make_user)("eve")
    watcher, _ = await opened(table.pk, eve)
    charlie, _ = await opened(table.pk, cast.charlie)
    await database_sync_to_async(blocks.block)(eve, "charlie")
    await watcher.receive_type("chat_filter")
    await charlie.send({"type": "chat", "text": "you cannot hear me"})
    line = (await charlie.receive_type("chat"))["message"]
    await database_sync_to_async(blocks.unblock)(eve, "charlie")
    await watcher.receive_type("chat_filter")
    await charlie.send({"type": "chat", "text": "now you can"})
    assert await chat_texts(watcher, "now you can") == ["now you can"]
    report = await database_sync_to_async(reports.file_report)(
        eve, "charlie", "abuse", "Spam", source="chat", message_id=line["id"])
    assert report.chat_message_id == line["id"] and report.status == Report.Status.OPEN
    assert [(m["text"], m["channel"]) for m in report.context["chat"]] == [
        ("you cannot hear me", "spectators"), ("now you can", "spectators")]
    for who in (watcher, charlie):
        await who.close()


async def test_a_spectators_line_meets_the_chat_filter_and_the_rate_limit(cast):
    table, _series = await playing(cast)
    charlie, _ = await opened(table.pk, cast.charlie)
    await charlie.send({"type": "chat", "text": "free chips at https://example.com"})
    assert (await charlie.receive_type("error"))["code"] == "filtered"
    # The refused line counted towards the limit (5 lines in 10 s) like any other.
    for n in range(chat.RATE_COUNT - 1):
        await charlie.send({"type": "chat", "text": f"line {n}"})
        await echo(charlie, f"line {n}")
    await charlie.send({"type": "chat", "text": "one too many"})
    assert (await charlie.receive_type("error"))["code"] == "rate_limited"
    assert await database_sync_to_async(ChatMessage.objects.count)() == chat.RATE_COUNT - 1
    await charlie.close()


def test_a_seated_players_line_is_players_chat_between_series_too(cast):
    """Before the series starts (no roster yet) the seats of the table decide."""
    full_table = tables.create_table(cast.alice, tables.TableSettings(name="waiting"))
    tables.take_seat(full_table.pk, cast.bob, 1)
    assert chat.channel_of(full_table, cast.bob) == ChatMessage.Channel.PLAYERS
    assert chat.channel_of(full_table, cast.charlie) == ChatMessage.Channel.SPECTATORS
