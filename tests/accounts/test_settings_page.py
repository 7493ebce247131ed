"""/account/settings/: editing the profile; bad input changes nothing."""

from __future__ import annotations

import pytest

from accounts.models import Profile

pytestmark = pytest.mark.django_db

VALID = {"display_name": "Alice K.", "bio": "Hello", "country": "DE", "preferred_language": "ru"}


def test_anonymous_visitor_is_sent_to_sign_in(client):
    response = client.get("/account/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/account/settings/")
    assert client.post("/account/settings/", VALID).status_code == 302


def test_alice_edits_her_profile(client, alice):
    client.force_login(alice)
    page = client.get("/account/settings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/accounts/password/change/"' in html
    assert 'href="/accounts/email/"' in html
    assert 'href="/account/delete/"' in html

    response = client.post("/account/settings/", {**VALID, "display_name": "  Alice   K.  "})
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.display_name, profile.bio, profile.country, profile.preferred_language) == (
        "Alice K.", "Hello", "DE", "ru")
    assert response.cookies["django_language"].value == "ru"
    # The chosen language takes effect at once, this very message included.
    assert "Настройки сохранены." in client.get("/account/settings/").content.decode()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("bio", "x" * 281, "at most 280 characters"),
    ("display_name", "y" * 41, "at most 40 characters"),
    ("display_name", "Deleted Player", "reserved"),
    ("display_name", "bad\u202ename", "letters, digits"),
    ("country", "XX", "Select a valid choice"),
    ("preferred_language", "klingon", "Select a valid choice"),
])
def test_bad_input_is_a_field_error_and_changes_nothing(client, alice, field, value, message):
    client.force_login(alice)
    before = Profile.objects.values().get(user=alice)
    response = client.post("/account/settings/", {**VALID, field: value})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="id_{field}_error"' in html
    assert message in html
    assert Profile.objects.values().get(user=alice) == before
    assert "django_language" not in response.cookies
    # The avatar and name on the page still show the saved profile, not the bad input.
    assert "Other players see you as <strong>alice</strong>" in html


def test_bio_of_exactly_280_characters_is_fine(client, alice):
    client.force_login(alice)
    assert client.post("/account/settings/", {**VALID, "bio": "é" * 280}).status_code == 302
    assert Profile.objects.get(user=alice).bio == "é" * 280


def test_empty_display_name_falls_back_to_username(client, alice):
    client.force_login(alice)
    client.post("/account/settings/", {**VALID, "display_name": ""})
    assert Profile.objects.get(user=alice).public_name == "alice"


def test_bob_edits_only_his_own_profile(client, alice, bob):
    client.force_login(bob)
    client.post("/account/settings/", {**VALID, "display_name": "Bob the Builder"})
    assert Profile.objects.get(user=bob).display_name == "Bob the Builder"
    assert Profile.objects.get(user=alice).display_name == ""
