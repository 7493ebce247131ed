"""Usernames are compared by their confusables skeleton (Unicode TR39) after NFKC, the
reserved prefix too; names and chat lines carry no bidi controls or zero-width
characters (``\\u202egnp.exe\\u200b`` showed raw in the tables' list)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.errors import InvalidRequestError
from games.services import chat, tables
from games.tournaments.services import clubs, events
from kozel_site import names
from tests.accounts.conftest import PASSWORD
from tests.games.conftest import make_user

TRICK = "\u202egnp.exe\u200b"


def _sign_up(client, username: str):
    return client.post("/accounts/signup/", {
        "username": username, "email": f"x{abs(hash(username))}@example.com",
        "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.django_db
@pytest.mark.parametrize("username", [
    "\u0430lice",  # a Cyrillic а
    "\uff41\uff4c\uff49\uff43\uff45",  # full width
    "ALICE", "aIice", "a1ice",
])
def test_a_look_alike_of_a_taken_username_is_refused(client, username):
    make_user("alice")
    response = _sign_up(client, username)
    assert response.status_code == 200
    assert "looks too much like someone else" in response.content.decode() or \
        "already" in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["d\u0435leted-x", "DELETED-x", "\uff44eleted-x"])
def test_the_reserved_prefix_is_checked_on_the_skeleton(client, username):
    response = _sign_up(client, username)
    assert "are reserved" in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["al\u200bice", "\u202eecila", "bo\u2066b"])
def test_a_username_with_hidden_characters_is_refused(client, username):
    response = _sign_up(client, username)
    assert "invisible or text-direction" in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_a_distinct_name_still_signs_up(client):
    make_user("alice")
    assert _sign_up(client, "alicia").status_code == 302
    assert get_user_model().objects.filter(username="alicia").exists()


def test_skeletons_meet_only_for_look_alikes():
    assert names.look_alike("\u0430lice", "alice")
    assert names.look_alike("\u041aozel", "kozel")
    assert not names.look_alike("alex", "alice")
    assert names.hidden_characters(TRICK) == ["U+202E", "U+200B"]
    assert names.without_hidden("a\u202eb\u200bc") == "abc"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert names.without_hidden(family) == family, "emoji keep their joiners"


@pytest.mark.django_db
def test_table_club_and_tournament_names_refuse_hidden_characters():
    owner = make_user("olga")
    with pytest.raises(InvalidRequestError, match="invisible"):
        tables.create_table(owner, tables.TableSettings(name=TRICK))
    with pytest.raises(InvalidRequestError, match="invisible"):
        clubs.create_club(owner, clubs.ClubSettings(name="Goats" + TRICK, slug="goats"))
    with pytest.raises(InvalidRequestError, match="invisible"):
        events.validate(events.EventSettings(name="Cup" + TRICK, format="swiss"))


@pytest.mark.django_db
def test_chat_lines_lose_their_hidden_characters():
    assert chat.check_message(make_user("olga"), f"see {TRICK} now") == "see gnp.exe now"
