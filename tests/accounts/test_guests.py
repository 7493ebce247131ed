"""Guests: "Play now" without an account, what a guest may not do, signing up from a
guest session, the rate limit per address and the clean-up of unused guests."""

from __future__ import annotations

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts import guests
from accounts.models import Guest, Profile
from accounts.tasks import purge_guests_task
from games.errors import PermissionDeniedError
from games.models import ChatMessage, SeriesSeat, Table
from games.queue import services as queue_services
from games.services import chat
from games.services import tables as table_service
from games.tournaments.services import clubs
from tests.accounts.conftest import PASSWORD, is_signed_in, links_in_last_email

pytestmark = pytest.mark.django_db

User = get_user_model()


def _play_now(client: Client):  # type: ignore[no-untyped-def]
    return client.post("/play/bots/", {"level": "casual"})


def _guest_of(client: Client) -> User:
    return User.objects.get(pk=client.session["_auth_user_id"])


def test_play_now_without_an_account_seats_a_new_guest_with_three_bots(client):
    response = _play_now(client)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/table/{table.pk}/"
    guest = _guest_of(client)
    assert guests.is_guest(guest) and guest.username.startswith("guest-")
    assert not guest.has_usable_password() and guest.email == ""
    assert Profile.objects.filter(user=guest).exists()
    assert table.status == "playing" and table.owner_id == guest.pk
    roster = SeriesSeat.objects.filter(series__table=table).order_by("position")
    assert [(s.user_id, s.bot_level) for s in roster] == [
        (guest.pk, ""),
        (None, "casual"),
        (None, "casual"),
        (None, "casual"),
    ]
    # The table page knows the session's guest as the player of seat 0.
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b"Sign up to keep your games" in page.content


def test_a_guest_keeps_the_language_the_visitor_clicked_in(client):
    client.cookies["django_language"] = "ru"
    response = _play_now(client)
    assert _guest_of(client).profile.preferred_language == "ru"
    page = client.get(response["Location"]).content.decode()
    assert '<html lang="ru"' in page and "Зарегистрируйтесь, чтобы сохранить игры" in page


def test_a_guest_playing_again_stays_the_same_guest(client):
    _play_now(client)
    first = _guest_of(client)
    _play_now(client)  # the live game is offered back, no second guest is made
    assert _guest_of(client) == first and Guest.objects.count() == 1


def test_guests_per_address_are_rate_limited_with_a_clear_message(settings):
    settings.KOZEL_GUEST_CREATIONS_PER_HOUR = 2
    for _ in range(2):
        assert _play_now(Client(REMOTE_ADDR="203.0.113.5")).status_code == 302
    refused = Client(REMOTE_ADDR="203.0.113.5")
    response = _play_now(refused)
    assert response["Location"] == "/"
    page = refused.get("/")
    assert b"Too many guest games were started from your network" in page.content
    assert not is_signed_in(refused)
    assert Guest.objects.count() == 2 and Table.objects.count() == 2  # nothing more
    # Another address is not affected.
    assert _play_now(Client(REMOTE_ADDR="198.51.100.5")).status_code == 302
    assert Guest.objects.count() == 3


def test_a_guest_cannot_chat_play_ranked_or_join_clubs_and_tournaments(client):
    _play_now(client)
    guest = _guest_of(client)
    table = Table.objects.get()
    cases = [
        (lambda: chat.post_message(table.pk, guest, "hello"), "Guests cannot chat"),
        (lambda: queue_services.join_queue(guest), "Guests play casual tables only"),
        (
            lambda: table_service.create_table(
                guest,
                table_service.TableSettings(name="Mine", kind=Table.Kind.RANKED, turn_seconds=30),
            ),
            "Guests play casual tables only",
        ),
        (
            lambda: clubs.create_club(guest, clubs.ClubSettings(name="Goats", slug="goats")),
            "Guests cannot join or create clubs",
        ),
    ]
    for call, words in cases:
        with pytest.raises(PermissionDeniedError) as refused:
            call()
        assert words in refused.value.message and "Sign up" in refused.value.message
    assert not ChatMessage.objects.exists()
    assert Table.objects.count() == 1
    # The ranked page's join answers in words, and changes nothing.
    response = client.post("/play/ranked/join/", follow=True)
    assert "Guests play casual tables only" in response.content.decode()


def test_the_sign_up_page_opens_for_a_guest_and_the_guest_becomes_the_account(client):
    _play_now(client)
    guest = _guest_of(client)
    table = Table.objects.get()
    assert client.get("/accounts/signup/").status_code == 200  # not sent away
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/signup/",
        {
            "username": "vera",
            "email": "vera@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    vera = User.objects.get(username="vera")
    assert vera.pk == guest.pk and vera.check_password(PASSWORD)
    assert not Guest.objects.exists()
    # Signed out until the address is confirmed, like any new account.
    assert not is_signed_in(client)
    [link] = [u for u in links_in_last_email("vera@example.com") if "/confirm-email/" in u]
    confirmed = client.post(link.split("testserver", 1)[1])
    assert EmailAddress.objects.get(user=vera).verified
    # Back at the game it played as a guest, in the same seat.
    assert confirmed["Location"] == f"/table/{table.pk}/"
    assert int(client.session["_auth_user_id"]) == vera.pk
    assert SeriesSeat.objects.get(series__table=table, position=0).user_id == vera.pk


def test_a_new_account_starts_at_a_dealt_table_and_is_welcomed_as_new(client):
    client.post(
        "/accounts/signup/",
        {
            "username": "wanda",
            "email": "wanda@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    [link] = [u for u in links_in_last_email("wanda@example.com") if "/confirm-email/" in u]
    confirmed = client.post(link.split("testserver", 1)[1], follow=True)
    table = Table.objects.get(owner__username="wanda")
    assert confirmed.redirect_chain[-1][0] == f"/table/{table.pk}/"
    assert table.status == "playing"
    page = confirmed.content.decode()
    assert "Welcome to Kozel, wanda" in page and "Welcome back" not in page


def test_guest_prefix_is_reserved_for_usernames(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "guest-1234",
            "email": "g@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "reserved" in response.content.decode()
    assert not User.objects.filter(username="guest-1234").exists()


def test_purge_deletes_old_unused_guests_and_keeps_those_with_games():
    now = timezone.now()
    old = now - timedelta(days=30)
    unused = guests.create_guest("192.0.2.1")
    played = guests.create_guest("192.0.2.2")
    recent = guests.create_guest("192.0.2.3")
    account = User.objects.create_user("xenia", password=PASSWORD)
    table_service.start_with_bots(played)
    Guest.objects.filter(user__in=[unused, played]).update(created_at=old)
    User.objects.filter(pk__in=[unused.pk, played.pk]).update(last_login=old)

    assert guests.purge_unused_guests(now) == 1
    assert not User.objects.filter(pk=unused.pk).exists()
    assert User.objects.filter(pk=played.pk).exists()  # its games need the row
    assert Guest.objects.get(user=played).kept
    assert User.objects.filter(pk__in=[recent.pk, account.pk]).count() == 2
    assert purge_guests_task() == 0  # the task: nothing left to do, safe to repeat


def test_a_guest_can_sign_in_to_an_account_it_already_has(client, alice):
    _play_now(client)
    guest = _guest_of(client)
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == alice.pk
    assert Guest.objects.filter(user=guest).exists()  # the guest's game stays its own
