"""Invitations to your table by username: invite, accept (a seat opposite the
inviter), decline (the inviter is told), withdraw; blocks and friends-only refused."""

from __future__ import annotations

import pytest

from accounts.social import invites, notify, services
from accounts.social.models import Notification, TableInvite
from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.models import Seat, Table
from games.services import series as series_service
from games.services import tables as table_service
from tests.social.conftest import block


def seats(table_id):
    return dict(Seat.objects.filter(table_id=table_id).values_list("position", "user_id"))


def test_invite_opens_a_private_table_and_accepting_seats_you_opposite(cast):
    sent = invites.invite(cast.alice, "bob")
    table = sent.table
    assert table.owner == cast.alice and table.visibility == "private"
    assert seats(table.pk)[0] == cast.alice.pk
    (note,) = Notification.objects.filter(user=cast.bob)
    assert note.kind == "invite" and note.invite == sent and note.read_at is None
    assert invites.invite(cast.alice, "bob") == sent, "asking twice is one ask"
    assert invites.accept(cast.bob, sent.pk) == table
    assert seats(table.pk)[2] == cast.bob.pk, "partners: opposite the inviter (R1)"
    sent.refresh_from_db()
    note.refresh_from_db()
    assert sent.status == "accepted" and note.read_at is not None
    with pytest.raises(NotFoundError):
        invites.accept(cast.bob, sent.pk)  # answered once


def test_the_next_invitation_goes_to_the_same_open_table(cast):
    first = invites.invite(cast.alice, "bob")
    second = invites.invite(cast.alice, "carol")
    assert first.table_id == second.table_id
    invites.accept(cast.carol, second.pk)
    invites.accept(cast.bob, first.pk)
    assert sorted(u for u in seats(first.table_id).values() if u) == sorted(
        [cast.alice.pk, cast.bob.pk, cast.carol.pk])


def test_invite_to_a_named_table_must_be_yours_open_and_not_full(cast):
    mine = table_service.create_table(cast.alice, table_service.TableSettings(name="Mine"))
    with pytest.raises(NotFoundError):
        invites.invite(cast.alice, "bob", mine.pk)  # you do not sit at it
    table_service.take_seat(mine.pk, cast.alice, 1)
    assert invites.invite(cast.alice, "bob", mine.pk).table == mine
    with pytest.raises(NotFoundError):
        invites.invite(cast.carol, "bob", mine.pk)  # not yours
    with pytest.raises(InvalidRequestError):
        invites.invite(cast.alice, "bob", "1")
    for position in (0, 2, 3):
        table_service.add_bot(mine.pk, cast.alice, position, "casual")
    with pytest.raises(TableStateError):
        invites.invite(cast.alice, "carol", mine.pk)  # full


def test_decline_tells_the_inviter_and_withdraw_takes_it_back(cast):
    sent = invites.invite(cast.alice, "bob")
    invites.decline(cast.bob, sent.pk)
    sent.refresh_from_db()
    assert sent.status == "declined"
    assert Notification.objects.get(user=cast.alice).kind == "declined"
    again = invites.invite(cast.alice, "bob")
    with pytest.raises(NotFoundError):
        invites.withdraw(cast.bob, again.pk)  # only the inviter withdraws
    invites.withdraw(cast.alice, again.pk)
    with pytest.raises(NotFoundError):
        invites.accept(cast.bob, again.pk)
    assert set(TableInvite.objects.values_list("status", flat=True)) == {"declined", "gone"}


def test_blocked_users_never_invite_you_and_friends_only_holds(cast):
    block(cast.bob, cast.mallory)
    with pytest.raises(PermissionDeniedError):
        invites.invite(cast.mallory, "bob")
    with pytest.raises(PermissionDeniedError):
        invites.invite(cast.bob, "mallory")
    services.update_settings(cast.bob, {"invites_from_friends_only": True})
    with pytest.raises(PermissionDeniedError, match="friends only"):
        invites.invite(cast.carol, "bob")
    services.follow(cast.bob, "carol")  # bob follows carol: she is his friend
    assert invites.invite(cast.carol, "bob").to_user == cast.bob
    assert not TableInvite.objects.filter(from_user=cast.mallory).exists()
    assert not Notification.objects.filter(user=cast.bob, params__name="mallory").exists()


def test_someone_playing_elsewhere_is_told_to_return_to_their_game(cast):
    sent = invites.invite(cast.alice, "bob")
    table_service.start_with_bots(cast.bob)
    with pytest.raises(TableStateError, match="return to your game"):
        invites.accept(cast.bob, sent.pk)
    assert cast.bob.pk not in seats(sent.table_id).values()


def test_an_invitation_to_a_table_whose_series_started_cannot_be_accepted(cast):
    sent = invites.invite(cast.alice, "bob")
    for position in (1, 2, 3):
        table_service.add_bot(sent.table_id, cast.alice, position, "casual")
    series_service.start_series(sent.table_id, cast.alice)
    assert Table.objects.get(pk=sent.table_id).status == "playing"
    with pytest.raises(TableStateError):
        invites.accept(cast.bob, sent.pk)


def test_invite_accept_and_decline_through_the_pages(client, cast):
    services.follow(cast.alice, "bob")
    notify.mark_read(cast.bob)  # "alice started following you": seen
    client.force_login(cast.alice)
    page = client.get("/friends/").content.decode()
    assert 'data-invite="bob"' in page
    response = client.post("/friends/invite/", {"username": "bob"})
    sent = TableInvite.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/table/{sent.table_id}/"
    client.force_login(cast.bob)
    page = client.get("/notifications/").content.decode()
    assert "alice invites you to their table" in page and f'data-accept="{sent.pk}"' in page
    assert 'id="kz-unread" class="badge-count">1<' in page
    response = client.post(f"/invites/{sent.pk}/accept/")
    assert response["Location"] == f"/table/{sent.table_id}/"
    assert client.get(response["Location"]).status_code == 200, "the private table is yours"
    page = client.get("/notifications/").content.decode()
    assert 'class="badge-count" hidden>0<' in page
    # Decline through the page, and junk ids change nothing.
    other = invites.invite(cast.carol, "bob")
    client.post("/invites/999999/decline/")
    client.post(f"/invites/{other.pk}/decline/")
    other.refresh_from_db()
    assert other.status == "declined"
    assert client.post("/friends/invite/", {"username": "carol", "table_id": "x1"}) \
        .status_code == 302
    assert TableInvite.objects.count() == 2


@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
def test_an_answered_invitation_drops_the_invitees_badge(cast, answer, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    """However the invitation is answered, its notification counts as read and every open
    page of the invitee is told the new count (not only when they accept)."""
    from games import events
    from games.services.publish import user_pages_group

    sent = invites.invite(cast.alice, "bob")
    messages: list = []
    monkeypatch.setattr(events, "send_events", lambda made: messages.extend(made))
    with django_capture_on_commit_callbacks(execute=True):
        if answer == "withdraw":
            invites.withdraw(cast.alice, sent.pk)
        else:
            getattr(invites, answer)(cast.bob, sent.pk)
    assert not Notification.objects.filter(user=cast.bob, read_at__isnull=True).exists()
    to_bob = [m["frame"] for group, m in messages if group == user_pages_group(cast.bob.pk)]
    assert {"type": "notifications.read", "unread": 0} in to_bob
