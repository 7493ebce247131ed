"""The /play/casual/ page and its endpoints."""

from __future__ import annotations

import pytest

from games.queue import casual
from games.queue.models import PairInvite, QueueEntry
from games.services import tables
from tests.ratings.factories import make_user, make_users

pytestmark = pytest.mark.django_db


def test_signed_out_visitors_are_sent_to_sign_in(client):
    response = client.get("/play/casual/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.post("/play/casual/join/")
    assert not QueueEntry.objects.exists()


def test_the_home_page_offers_play_with_people(client):
    client.force_login(make_user("alice", verified=False))  # casual needs no verified email
    assert 'href="/play/casual/"' in client.get("/").content.decode()


def test_join_with_preferences_shows_the_wait_and_leave_is_instant(client):
    alice, bob = make_users("cv", 2)
    casual.join_casual(bob)
    client.force_login(alice)
    page = client.get("/play/casual/").content.decode()
    assert "Find players" in page and 'id="kz-queue-waiting">1<' in page
    response = client.post("/play/casual/join/", {"turn_seconds": "60", "target": "6",
                                                  "allow_bots": "on", "bot_wait": "15"})
    assert response.status_code == 302
    entry = QueueEntry.objects.get(user=alice)
    assert (entry.kind, entry.turn_seconds, entry.target, entry.allow_bots,
            entry.bot_wait_seconds) == ("casual", 60, 6, True, 15)
    page = client.get("/play/casual/").content.decode()
    assert "Leave the queue" in page and 'id="kz-queue-bot-wait">15 s<' in page
    status = client.get("/play/casual/status/").json()
    assert status["state"] == "waiting" and status["waiting"] == 2
    assert client.get("/play/ranked/status/").json()["other_queue"] == "casual"
    client.post("/play/casual/leave/")
    assert not QueueEntry.objects.filter(user=alice).exists()


def test_bad_input_is_refused_with_a_message(client):
    client.force_login(make_user("alice"))
    response = client.post("/play/casual/join/", {"turn_seconds": "45"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    response = client.post("/play/casual/join/", {"bot_wait": "1"}, follow=True)
    assert "after 15, 30, 60 or 120 seconds" in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_a_player_with_a_live_game_is_told_to_return_to_it(client):
    alice = make_user("alice")
    tables.start_with_bots(alice)
    client.force_login(alice)
    page = client.post("/play/casual/join/", follow=True).content.decode()
    assert "return to your game" in page
    assert not QueueEntry.objects.exists()


def test_pair_invite_accept_and_decline_through_the_page(client):
    alice, bob, carol = make_users("cp", 3)
    client.force_login(alice)
    client.post("/play/casual/invite/", {"username": "cp1", "turn_seconds": "any"})
    invite = PairInvite.objects.get(from_user=alice)
    assert invite.kind == "casual"
    client.force_login(bob)
    page = client.get("/play/casual/").content.decode()
    assert "invites you to play as partners" in page
    assert "invites you" not in client.get("/play/ranked/").content.decode()
    client.post(f"/play/casual/invite/{invite.pk}/accept/")
    assert QueueEntry.objects.get(user=bob).partner == alice
    client.force_login(carol)
    client.post("/play/casual/invite/", {"username": "cp0"})
    client.force_login(alice)
    assert PairInvite.objects.filter(to_user=alice).exists()
    client.post(f"/play/casual/invite/{PairInvite.objects.get(to_user=alice).pk}/decline/")
    assert not PairInvite.objects.exists()


def test_a_matched_player_is_sent_to_the_table(client):
    people = make_users("cm", 4)
    for user in people:
        casual.join_casual(user)
    (table_id,) = casual.match_casual_queue()
    client.force_login(people[0])
    response = client.get("/play/casual/")
    assert response.status_code == 302 and response["Location"] == f"/table/{table_id}/"
