"""Sanctions through the services: who may give them, to whom, with what input, and what
each changes (the open-socket effects are in test_live_enforcement.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.moderation import selectors
from accounts.moderation.models import ModerationLog, Report, Sanction
from accounts.moderation.services import reports, sanctions
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.models import ChatMessage, Conduct, SeriesSeat
from games.queue import services as queue
from games.queue.models import QueueEntry
from games.services import chat, tables

pytestmark = pytest.mark.django_db


def test_a_mute_refuses_the_next_chat_line_with_the_reason(cast, mona, table):
    chat.post_message(table.pk, cast.bob, "hello")
    sanctions.mute_chat(mona, cast.bob, 2, "Insults at table 3")
    with pytest.raises(PermissionDeniedError, match="muted in chat until .*Insults at table 3"):
        chat.post_message(table.pk, cast.bob, "hello again")
    assert ChatMessage.objects.filter(user=cast.bob).count() == 1
    chat.post_message(table.pk, cast.alice, "others still chat")


def test_an_expired_or_lifted_sanction_no_longer_applies(cast, mona, root, table):
    mute = sanctions.mute_chat(mona, cast.bob, 1, "Spam")
    Sanction.objects.filter(pk=mute.pk).update(starts_at=timezone.now() - timedelta(hours=2),
                                               ends_at=timezone.now() - timedelta(seconds=1))
    chat.post_message(table.pk, cast.bob, "back")
    ban = sanctions.ban_ranked(mona, cast.bob, 2, "Leaving")
    assert selectors.ranked_bar_of(cast.bob) == ban
    sanctions.lift(mona, ban.pk, "Appeal granted: his router died")
    assert selectors.ranked_bar_of(cast.bob) is None
    assert ModerationLog.objects.filter(action="lift").get().before["in_force"][0]["id"] == ban.pk


def test_a_ranked_ban_takes_the_player_out_of_the_queue_and_keeps_them_out(cast, mona):
    queue.join_queue(cast.bob)
    sanctions.ban_ranked(mona, cast.bob, 1, "Left three ranked series")
    assert not QueueEntry.objects.filter(user=cast.bob).exists()
    with pytest.raises(PermissionDeniedError, match="cannot play ranked until"):
        queue.join_queue(cast.bob)
    with pytest.raises(PermissionDeniedError):
        queue.invite_partner(cast.bob, "alice")
    queue.join_queue(cast.alice)  # others are not affected


def test_a_suspension_stands_the_player_up_and_hands_live_seats_to_bots(cast, mona, root,
                                                                          playing_table):
    other = tables.create_table(cast.bob, tables.TableSettings(name="Later"))
    tables.take_seat(other.pk, cast.bob, 0)
    sanctions.suspend(mona, cast.bob, 3, "Threats in chat")
    series = playing_table.series.get()
    seat = SeriesSeat.objects.get(series=series, position=1)
    assert seat.user_id is None and seat.away_user_id == cast.bob.pk and seat.bot_level
    assert Conduct.objects.get(user=cast.bob, kind="abandon").reason == "suspended"
    assert not other.seats.filter(user=cast.bob).exists()
    with pytest.raises(PermissionDeniedError, match="suspended"):
        tables.take_seat(other.pk, cast.bob, 0)
    with pytest.raises(PermissionDeniedError, match="suspended"):
        chat.post_message(playing_table.pk, cast.bob, "hi")
    forever = sanctions.suspend(root, cast.carol, "permanent", "Ban evasion", confirm=True)
    assert forever.ends_at is None


def test_acting_on_a_report_resolves_every_open_report_about_the_player(cast, mona):
    first = reports.file_report(cast.alice, cast.bob, "abuse")
    second = reports.file_report(cast.carol, cast.bob, "name")
    elsewhere = reports.file_report(cast.alice, cast.dan, "abuse")
    sanctions.warn(mona, cast.bob, "Keep it friendly", report_ids=[first.pk])
    for report in (first, second):
        report.refresh_from_db()
        assert report.status == Report.Status.ACTED and report.resolved_by == mona
    elsewhere.refresh_from_db()
    assert elsewhere.status == Report.Status.OPEN


def test_force_rename(cast, mona):
    from accounts.services import update_profile

    update_profile(cast.bob, display_name="Rude Name")
    sanctions.force_rename(mona, cast.bob, "Offensive name")
    cast.bob.refresh_from_db()
    assert cast.bob.username == f"player-{cast.bob.pk}" and cast.bob.profile.display_name == ""
    entry = ModerationLog.objects.get(action="rename")
    assert entry.after["sanction"]["old"] == {"username": "bob", "display_name": "Rude Name"}


def test_hide_message_is_logged_with_the_text(cast, mona, table):
    line = chat.post_message(table.pk, cast.bob, "a rude line")
    sanctions.hide_message(mona, line["id"], "Rude")
    assert ChatMessage.objects.get(pk=line["id"]).hidden
    assert ModerationLog.objects.get(action="hide_message").before["text"] == "a rude line"
    with pytest.raises(InvalidRequestError):
        sanctions.hide_message(mona, line["id"], "Rude")


@pytest.mark.parametrize("call", [
    lambda mona, bob: sanctions.mute_chat(mona, bob, 0, "Spam"),
    lambda mona, bob: sanctions.mute_chat(mona, bob, "2h", "Spam"),
    lambda mona, bob: sanctions.mute_chat(mona, bob, 10**6, "Spam"),
    lambda mona, bob: sanctions.mute_chat(mona, bob, True, "Spam"),
    lambda mona, bob: sanctions.ban_ranked(mona, bob, -1, "Leaving"),
    lambda mona, bob: sanctions.suspend(mona, bob, "soon", "Threats"),
    lambda mona, bob: sanctions.warn(mona, bob, ""),
    lambda mona, bob: sanctions.warn(mona, bob, "x" * 501),
    lambda mona, bob: sanctions.warn(mona, "nobody-here", "Rude"),
    lambda mona, bob: sanctions.warn(mona, bob, "Rude", report_ids=[10**9]),
    lambda mona, bob: sanctions.warn(mona, bob, "Rude", report_ids=["x"]),
    lambda mona, bob: sanctions.hide_message(mona, "x", "Rude"),
    lambda mona, bob: sanctions.lift(mona, 10**9, "Granted"),
])
def test_bad_input_is_refused_and_changes_nothing(cast, mona, call):
    with pytest.raises((InvalidRequestError, NotFoundError)):
        call(mona, cast.bob)
    assert not Sanction.objects.exists() and not ModerationLog.objects.exists()


def test_who_may_sanction_whom(cast, mona, root):
    from django.contrib.auth.models import Group

    with pytest.raises(PermissionDeniedError):
        sanctions.warn(cast.alice, cast.bob, "I do not like him")   # a player
    with pytest.raises(PermissionDeniedError):
        sanctions.warn(mona, mona, "Testing")                        # oneself
    with pytest.raises(PermissionDeniedError):
        sanctions.warn(mona, root, "Power trip")                     # an administrator
    other = type(cast.dan).objects.get(pk=cast.dan.pk)
    other.groups.add(Group.objects.get(name="Moderators"))
    with pytest.raises(PermissionDeniedError):
        sanctions.warn(mona, other, "Colleague")                     # another moderator
    sanctions.warn(root, other, "An administrator may", confirm=True)
    sanctions.suspend(root, mona, 1, "Abuse of the tools", confirm=True)
    fresh = type(mona).objects.get(pk=mona.pk)
    with pytest.raises(PermissionDeniedError):
        sanctions.warn(fresh, cast.bob, "Suspended moderators cannot act")
    assert Sanction.objects.count() == 2
