"""The notification centre: what creates a notification (an invitation, a friend's
table, a round start, a moderator's message), marking read, and email only for what
the user opted into, each with a working unsubscribe link."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.moderation.services import sanctions
from accounts.social import invites, notify, services
from accounts.social.models import Notification, SocialSettings
from accounts.social.tasks import friend_table_task
from games.errors import InvalidRequestError
from games.queue import casual
from games.services import tables as table_service
from tests.social.conftest import block
from tests.tournaments.conftest import club_cast  # noqa: F401  (the fixture)
from tests.tournaments.helpers import act, enter_pairs, event


def public_table(owner, name="Evening game"):
    return table_service.create_table(owner, table_service.TableSettings(name=name))


def test_a_friend_starting_a_table_notifies_followers_but_not_across_a_block(cast):
    for follower in (cast.alice, cast.carol, cast.mallory):
        services.follow(follower, "bob")
    block(cast.bob, cast.mallory)  # bob blocked mallory after she followed him
    table = public_table(cast.bob)
    assert friend_table_task(table.pk) == 2
    notes = Notification.objects.filter(kind="friend_table")
    assert sorted(n.user_id for n in notes) == sorted([cast.alice.pk, cast.carol.pk])
    assert notify.text_of(notes[0]) == "bob started a table: Evening game."
    assert notes[0].url == f"/table/{table.pk}/"


def test_no_friend_table_notice_for_private_full_or_hidden_tables(cast):
    services.follow(cast.alice, "bob")
    private = table_service.create_table(cast.bob, table_service.TableSettings(
        name="Secret", visibility="private"))
    assert friend_table_task(private.pk) == 0
    people = [cast.bob, cast.carol, cast.alice, cast.mallory]
    for user in people:
        casual.join_casual(user)
    (quick,) = casual.match_casual_queue()
    assert friend_table_task(quick) == 0, "a quick match is full at once"
    services.update_settings(cast.bob, {"hide_online": True})
    assert friend_table_task(public_table(cast.bob).pk) == 0, "hidden: nobody is told"
    assert friend_table_task(True) == 0 and friend_table_task("1") == 0
    assert not Notification.objects.exclude(kind="follow").exists()


def test_a_round_start_notifies_its_players(club_cast, django_capture_on_commit_callbacks):  # noqa: F811
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    with django_capture_on_commit_callbacks(execute=True):
        act(t, club_cast.director, "start")
    notes = Notification.objects.filter(kind="round")
    assert sorted(n.user_id for n in notes) == sorted(p.pk for p in club_cast.players[:4])
    deadline = t.round_set.get(number=1).checkin_deadline.strftime("%H:%M:%S UTC")
    assert notify.text_of(notes[0]) == (
        f"Round 1 of Friday Cup starts: your table is ready. Check in by {deadline}.")
    assert notes[0].url == f"/tournament/{t.pk}/"


def test_a_moderators_message_reaches_the_centre(cast, django_capture_on_commit_callbacks):
    from tests.moderation.conftest import moderators_group

    moderator = cast.carol
    moderator.groups.add(moderators_group())
    with django_capture_on_commit_callbacks(execute=True):
        sanctions.warn(moderator, cast.mallory, "Mind your language at the table.")
    (note,) = Notification.objects.filter(user=cast.mallory)
    assert note.kind == "moderator" and "Mind your language" in notify.text_of(note)


def test_mark_read_one_or_all(cast):
    first = notify.notify(cast.bob, "declined", {"name": "x"})
    notify.notify(cast.bob, "declined", {"name": "y"})
    assert notify.mark_read(cast.bob, first.pk) == 1
    assert notify.mark_read(cast.alice) == 0, "only your own"
    assert notify.mark_read(cast.bob) == 1
    assert not Notification.objects.filter(read_at__isnull=True).exists()
    with pytest.raises(InvalidRequestError):
        notify.mark_read(cast.bob, "1")
    with pytest.raises(InvalidRequestError):
        notify.notify(cast.bob, "spam", {})


def test_read_through_the_pages(client, cast):
    note = notify.notify(cast.bob, "friend_table", {"name": "alice", "table": "T"}, "/rules/")
    client.force_login(cast.alice)
    client.post("/notifications/read/", {"id": str(note.pk)})
    note.refresh_from_db()
    assert note.read_at is None, "not alice's to read"
    client.force_login(cast.bob)
    response = client.post(f"/notifications/{note.pk}/open/")
    assert response["Location"] == "/rules/"
    note.refresh_from_db()
    assert note.read_at is not None
    assert client.post("/notifications/read/", {"id": "junk"}).status_code == 302


def test_email_only_when_opted_in_with_a_working_unsubscribe_link(client, cast,
                                                                  django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        invites.invite(cast.alice, "bob")
    assert mail.outbox == [], "bob did not opt in"
    services.update_settings(cast.bob, {"email_invite": True})
    with django_capture_on_commit_callbacks(execute=True):
        invites.invite(cast.carol, "bob")
    (message,) = mail.outbox
    assert message.to == ["bob@example.com"] and "carol invites you" in message.subject
    link = next(line for line in message.body.splitlines() if "/unsubscribe/" in line)
    path = link[link.index("/notifications/unsubscribe/"):]
    assert message.extra_headers["List-Unsubscribe"].endswith(f"{path}>")
    assert "Stop these emails?" in client.get(path).content.decode()
    assert SocialSettings.objects.get(user=cast.bob).email_invite, "GET changes nothing"
    response = client.post(path)  # no sign-in, no CSRF token: a mail client's one-click
    assert response.status_code == 200 and "no more emails" in response.content.decode()
    assert not SocialSettings.objects.get(user=cast.bob).email_invite
    # A tampered token is refused and changes nothing.
    assert client.post(path[:-3] + "xyz/").status_code == 400
    forged = notify.unsubscribe_token(cast.bob.pk, "invite").replace(":", ";", 1)
    assert client.get(f"/notifications/unsubscribe/{forged}/").status_code == 400
    with pytest.raises(InvalidRequestError):
        notify.read_unsubscribe_token(None)


def test_being_followed_notifies_once_while_unread(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as pushed:
        services.follow(cast.alice, "bob")
    (note,) = Notification.objects.filter(user=cast.bob)
    assert (note.kind, notify.text_of(note), note.url) == (
        "follow", "alice started following you.", "/@/alice")
    assert pushed  # live to bob's open pages, after commit
    services.follow(cast.alice, "bob")  # following twice is one follow
    services.unfollow(cast.alice, "bob")
    services.follow(cast.alice, "bob")  # and again: still the one unread line
    assert Notification.objects.filter(user=cast.bob, kind="follow").count() == 1
    notify.mark_read(cast.bob)
    services.unfollow(cast.alice, "bob")
    services.follow(cast.alice, "bob")  # read by now: a new follow is news again
    assert Notification.objects.filter(user=cast.bob, kind="follow").count() == 2
    assert not Notification.objects.filter(user=cast.alice).exists()


def test_nobody_is_notified_of_a_refused_follow(cast):
    block(cast.bob, cast.mallory)
    with pytest.raises(Exception):  # noqa: B017 - the refusal itself is tested elsewhere
        services.follow(cast.mallory, "bob")
    assert not Notification.objects.filter(user=cast.bob).exists()
