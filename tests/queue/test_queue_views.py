"""The /play/ranked/ page and its endpoints."""

from __future__ import annotations

import pytest

from games.queue import services
from games.queue.models import PairInvite, QueueEntry
from tests.ratings.factories import make_user, make_users

pytestmark = pytest.mark.django_db


def test_signed_out_visitors_are_sent_to_sign_in(client):
    response = client.get("/play/ranked/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_unverified_players_are_asked_to_verify(client):
    client.force_login(make_user("charlie", verified=False))
    response = client.get("/play/ranked/")
    assert response.status_code == 403
    assert "Verify your email address to play ranked" in response.content.decode()
    client.post("/play/ranked/join/")
    assert not QueueEntry.objects.exists()


def test_join_shows_the_wait_and_leave_is_instant(client):
    alice, bob = make_users("v", 2)
    services.join_queue(bob)
    client.force_login(alice)
    page = client.get("/play/ranked/").content.decode()
    assert "Join the solo queue" in page and 'id="kz-queue-waiting">1<' in page
    assert client.post("/play/ranked/join/", {"turn_seconds": "15"}).status_code == 302
    entry = QueueEntry.objects.get(user=alice)
    assert entry.turn_seconds == 15 and entry.status == "waiting"
    page = client.get("/play/ranked/").content.decode()
    assert "Leave the queue" in page and 'id="kz-queue-waiting">2<' in page
    status = client.get("/play/ranked/status/").json()
    assert status["state"] == "waiting" and status["waiting"] == 2 and status["seconds"] >= 0
    client.post("/play/ranked/leave/")
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert client.get("/play/ranked/status/").json()["state"] == "idle"


def test_a_matched_player_is_sent_to_the_table(client):
    people = make_users("x", 4)
    for user in people:
        services.join_queue(user)
    (table_id,) = services.match_queue()
    client.force_login(people[0])
    status = client.get("/play/ranked/status/").json()
    assert (status["state"], status["table_url"]) == ("matched", f"/table/{table_id}/")
    response = client.get("/play/ranked/")
    assert response.status_code == 302 and response["Location"] == f"/table/{table_id}/"


def test_invite_accept_through_the_page(client):
    alice, bob = make_users("y", 2)
    client.force_login(alice)
    client.post("/play/ranked/invite/", {"username": "y1"})
    invite = PairInvite.objects.get()
    assert "Waiting for <strong>y1</strong>" in client.get("/play/ranked/").content.decode()
    client.force_login(bob)
    page = client.get("/play/ranked/").content.decode()
    assert "invites you to play as partners" in page
    client.post(f"/play/ranked/invite/{invite.pk}/accept/")
    assert QueueEntry.objects.get(user=bob).partner == alice


def test_errors_come_back_as_messages(client):
    alice = make_users("z", 1)[0]
    client.force_login(alice)
    response = client.post("/play/ranked/invite/", {"username": "nobody"}, follow=True)
    assert "There is no player called nobody" in response.content.decode()
    response = client.post("/play/ranked/join/", {"turn_seconds": "60"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["error"] == "invalid"
