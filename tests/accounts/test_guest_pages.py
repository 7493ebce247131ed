"""What a guest meets on the pages: a readable name ("Guest 5535", not the username's
random hex) wherever players are named, the table's chat saying why a guest cannot write
in it (and the way to), and a way to end the guest session that says what it costs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils.html import strip_tags

from accounts import guests
from accounts.models import Guest, Profile
from games.models import Table
from games.services import tables
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()


def text(html: str) -> str:
    return " ".join(strip_tags(html).split())


@pytest.fixture
def guest_at_table(client: Client):
    """A visitor pressed "Play now": a guest at a dealt table with three bots. Its
    username is set to a known one: 0xffff = 65535, shown as "Guest 5535"."""
    client.post("/play/bots/", {"level": "casual"})
    guest = User.objects.get(pk=client.session["_auth_user_id"])
    User.objects.filter(pk=guest.pk).update(username="guest-0000ffff")
    return guest, Table.objects.get()


def test_a_guest_is_named_guest_and_four_digits_everywhere(client, guest_at_table):
    guest, table = guest_at_table
    page = client.get(f"/table/{table.pk}/").content.decode()
    # What the page shows (the snapshot's JSON keeps the username as an identifier).
    shown = text(re.sub(r"<script.*?</script>", "", page, flags=re.S))
    assert "guest-" not in shown, "the username's hex is never shown"
    header = re.search(r'<span class="profile-menu-name">([^<]*)</span>', page)
    assert header and header[1] == "Guest 5535"
    assert '"position": 0, "team": "A", "name": "Guest 5535"' in page  # the seat's plate
    # A table the guest opens is listed by that name.
    tables.create_table(guest, tables.TableSettings(name="Open to all"))
    lobby = Client().get("/tables/").content.decode()
    assert "by Guest 5535" in text(lobby) and "guest-0000ffff" not in lobby


def test_play_now_names_the_guests_table_after_the_guest(client):
    client.post("/play/bots/", {"level": "casual"})
    guest = User.objects.get(pk=client.session["_auth_user_id"])
    table = Table.objects.get()
    assert guest.username not in table.name
    assert re.fullmatch(r"Guest \d{4} vs bots", table.name), table.name


def test_the_name_follows_the_page_language(client, guest_at_table):
    guest, table = guest_at_table
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})  # the footer's switcher
    assert Profile.objects.get(user=guest).preferred_language == "ru"
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert '<span class="profile-menu-name">Гость 5535</span>' in page


def test_signing_up_replaces_the_guest_name_with_the_chosen_one(client, guest_at_table):
    guest, _table = guest_at_table
    tables.create_table(guest, tables.TableSettings(name="Open to all"))
    assert "by Guest 5535" in text(Client().get("/tables/").content.decode())
    client.post("/accounts/signup/", {"username": "newbie", "email": "newbie@example.com",
                                      "password1": PASSWORD, "password2": PASSWORD})
    guest.refresh_from_db()
    assert not guests.is_guest(guest) and guest.username == "newbie"
    lobby = Client().get("/tables/").content.decode()
    assert "by newbie" in text(lobby) and "Guest 5535" not in lobby


def test_a_guest_at_a_table_is_told_why_it_cannot_chat_and_how_to(client, guest_at_table):
    _guest, table = guest_at_table
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert 'id="kz-chat-form"' not in page, "no input that the server would refuse"
    note = re.search(r'<p class="kz-chat-guest" id="kz-chat-guest">(.*?)</p>', page, re.S)
    assert note, "the chat box explains itself to a guest"
    assert ("You are playing as a guest: you can read the chat, but only players with an "
            "account can write in it.") in text(note[1])
    assert f'href="/accounts/signup/?next=/table/{table.pk}/"' in note[1]


def test_an_account_at_the_same_kind_of_table_has_the_chat_input(client, alice):
    table = tables.create_table(alice, tables.TableSettings(name="mine"))
    client.force_login(alice)
    page = client.get(f"/table/{table.pk}/").content.decode()
    assert 'id="kz-chat-form"' in page and 'id="kz-chat-guest"' not in page


def test_a_guest_can_end_the_guest_session_after_being_told_what_it_costs(client,
                                                                         guest_at_table):
    guest, _table = guest_at_table
    home = client.get("/").content.decode()
    link = re.search(r'<a class="end-guest" id="end-guest-session" href="([^"]+)">', home)
    assert link and link[1] == "/accounts/logout/"
    confirm = text(client.get(link[1]).content.decode())
    assert "End the guest session" in confirm
    assert "Once this session ends you cannot come back to it" in confirm
    assert "Sign up to keep your games" in confirm
    assert "_auth_user_id" in client.session, "a GET changes nothing"
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    after = client.get("/").content.decode()
    assert 'class="guest-notice"' not in after and "Sign up" in after
    assert Guest.objects.filter(user=guest).exists(), "its games keep their player"


def test_an_account_sees_the_ordinary_sign_out_page(client, alice):
    client.force_login(alice)
    page = text(client.get("/accounts/logout/").content.decode())
    assert "Leave this device signed out?" in page and "guest" not in page.lower()
