"""/account/delete/: confirmation, anonymisation, and rows that point at the user survive."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType

from accounts import services
from accounts.models import Profile
from tests.accounts.conftest import PASSWORD, is_signed_in, sign_in

pytestmark = pytest.mark.django_db


def _log_entry_for(user) -> LogEntry:  # type: ignore[no-untyped-def]
    """A row with a FK to the user, standing in for the games app's rows."""
    return LogEntry.objects.create(
        user=user, content_type=ContentType.objects.get_for_model(Profile),
        object_id="1", object_repr="a game", action_flag=ADDITION,
    )


def test_anonymous_visitor_is_sent_to_sign_in(client):
    response = client.post("/account/delete/", {"confirm_username": "alice"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_confirmation_page_explains_what_happens(client, alice):
    client.force_login(alice)
    html = client.get("/account/delete/").content.decode()
    assert "cannot be undone" in html
    assert "deleted player" in html
    assert '<strong class="mono">alice</strong>' in html


@pytest.mark.parametrize("typed", ["", "Alice", "bob", "alice "[:-1] + "x"])
def test_wrong_confirmation_changes_nothing(client, alice, typed):
    client.force_login(alice)
    response = client.post("/account/delete/", {"confirm_username": typed})
    assert response.status_code == 200
    assert 'id="id_confirm_username_error"' in response.content.decode()
    alice.refresh_from_db()
    assert alice.username == "alice" and alice.is_active
    assert not Profile.objects.get(user=alice).is_deleted
    assert EmailAddress.objects.filter(user=alice).exists()
    assert is_signed_in(client)


def test_alice_deletes_her_account(client, alice, bob):
    services.update_profile(alice, display_name="Alice K.", bio="hi", country="LV")
    entry = _log_entry_for(alice)
    client.force_login(alice)

    response = client.post("/account/delete/", {"confirm_username": "alice"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert not is_signed_in(client)
    assert "Your account is deleted" in client.get("/").content.decode()

    alice.refresh_from_db()
    assert alice.username == f"deleted-{alice.pk}"
    assert alice.email == ""
    assert not alice.is_active
    assert not alice.has_usable_password()
    assert not EmailAddress.objects.filter(user=alice).exists()
    profile = Profile.objects.get(user=alice)
    assert profile.is_deleted and profile.deleted_at is not None
    assert (profile.display_name, profile.bio, profile.country) == ("", "", "")
    assert profile.public_name == "deleted player"

    # The user row and everything pointing at it are kept.
    assert get_user_model().objects.filter(pk=alice.pk).exists()
    assert LogEntry.objects.get(pk=entry.pk).user_id == alice.pk
    # Bob is untouched.
    bob.refresh_from_db()
    assert bob.username == "bob" and bob.is_active


def test_deleted_account_cannot_sign_in_and_its_email_is_free_again(client, alice):
    services.delete_account(alice)
    assert not is_signed_in(client)
    sign_in(client, "alice")
    assert not is_signed_in(client)
    sign_in(client, "alice@example.com")
    assert not is_signed_in(client)
    response = client.post("/accounts/signup/", {
        "username": "alice", "email": "alice@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="alice").exclude(pk=alice.pk).exists()


def test_other_sessions_end_too(client, alice):
    client.force_login(alice)
    services.delete_account(alice)
    # An inactive user with a changed password hash: every old session is anonymous now.
    response = client.get("/account/settings/")
    assert response.status_code == 302
    assert response.wsgi_request.user.is_anonymous


def test_delete_account_is_idempotent(alice):
    services.delete_account(alice)
    first = Profile.objects.values().get(user=alice)
    services.delete_account(alice)
    assert Profile.objects.values().get(user=alice) == first


def test_deleted_profile_cannot_be_edited(alice):
    from django.core.exceptions import ValidationError

    services.delete_account(alice)
    with pytest.raises(ValidationError):
        services.update_profile(alice, display_name="Back from the dead")
    assert Profile.objects.get(user=alice).display_name == ""


def test_user_without_profile_can_be_deleted(django_user_model):
    user = django_user_model.objects.create_user("eve", email="eve@example.com", password="x")
    services.delete_account(user)
    assert Profile.objects.get(user=user).is_deleted
