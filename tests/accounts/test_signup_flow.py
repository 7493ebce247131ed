"""Sign-up → verification email → confirm → sign in (email and username) → profile."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts.models import Profile
from tests.accounts.conftest import PASSWORD, is_signed_in, links_in_last_email, sign_in

pytestmark = pytest.mark.django_db


def _sign_up(client, username="dora", email="dora@example.com"):  # type: ignore[no-untyped-def]
    return client.post("/accounts/signup/", {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD,
    })


def test_whole_journey_through_the_test_client(client):
    response = _sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert not is_signed_in(client), "mandatory verification: no session before confirming"

    user = get_user_model().objects.get(username="dora")
    assert Profile.objects.filter(user=user).exists(), "the adapter creates the profile"
    assert not EmailAddress.objects.get(user=user).verified

    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject.startswith("[Kozel]")
    [link] = [u for u in links_in_last_email("dora@example.com") if "/confirm-email/" in u]
    path = link.split("testserver", 1)[1]

    # GET only shows the question (ACCOUNT_CONFIRM_EMAIL_ON_GET = False) ...
    page = client.get(path)
    assert page.status_code == 200
    assert b"Yes, confirm it" in page.content
    assert not EmailAddress.objects.get(user=user).verified
    # ... POST confirms and, in the signing-up session, signs in.
    confirmed = client.post(path)
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert is_signed_in(client)

    client.post("/accounts/logout/")
    assert not is_signed_in(client)

    by_email = sign_in(client, "dora@example.com")
    assert by_email.status_code == 302 and by_email["Location"] == "/"
    assert is_signed_in(client)
    client.post("/accounts/logout/")

    by_username = sign_in(client, "dora")
    assert by_username.status_code == 302
    assert is_signed_in(client)

    profile = client.get("/@/dora")
    assert profile.status_code == 200
    assert b"<h1 class=\"profile-name\">dora</h1>" in profile.content
    assert b"Edit your profile" in profile.content


def test_unverified_user_cannot_sign_in(client, charlie):
    response = sign_in(client, "charlie")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert not is_signed_in(client)
    # A fresh confirmation link is sent instead.
    assert links_in_last_email("charlie@example.com")


def test_signup_errors_are_shown_next_to_the_fields_and_nothing_is_created(client, alice):
    response = client.post("/accounts/signup/", {
        "username": "alice", "email": "not-an-email", "password1": "x", "password2": "y",
    })
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_username_error"' in html
    assert 'id="id_email_error"' in html
    assert get_user_model().objects.count() == 1
    assert mail.outbox == []


def test_deleted_prefix_is_reserved(client):
    response = _sign_up(client, username="deleted-7", email="sneaky@example.com")
    assert response.status_code == 200
    assert "are reserved" in response.content.decode()
    assert not get_user_model().objects.filter(username="deleted-7").exists()


def test_signup_records_the_visitors_language(client):
    client.cookies["django_language"] = "ru"
    _sign_up(client, username="ivan", email="ivan@example.com")
    assert Profile.objects.get(user__username="ivan").preferred_language == "ru"


@pytest.mark.parametrize("email", ["alice@example.com", "Alice@Example.COM", "charlie@example.com"])
def test_signing_up_with_a_taken_email_mails_its_owner_and_reveals_nothing(
        client, alice, charlie, email):
    fresh = _sign_up(Client(), username="newcomer", email="newcomer@example.com")
    mail.outbox.clear()
    users_before = get_user_model().objects.count()

    response = _sign_up(client, username="someone", email=email)

    # The same answer as a fresh sign-up: the form never tells who is registered.
    assert response.status_code == 302 and response["Location"] == fresh["Location"]
    assert b"Check your email" in client.get(response["Location"]).content
    assert get_user_model().objects.count() == users_before, "no second account"
    [sent] = mail.outbox
    owner = email.lower()
    assert sent.to == [owner]
    assert sent.subject == "[Kozel] You already have a Kozel account"
    assert "already has an account" in sent.body
    links = links_in_last_email(owner)
    assert "http://testserver/accounts/login/" in links
    assert "http://testserver/accounts/password/reset/" in links
    assert not any("/confirm-email/" in link for link in links)
