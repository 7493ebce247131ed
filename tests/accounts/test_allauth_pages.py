"""Every allauth page the site uses renders in the site's own layout."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.accounts.conftest import PASSWORD, is_signed_in, links_in_last_email, sign_in

pytestmark = pytest.mark.django_db

SHELL = '<header class="site-header">'


@pytest.mark.parametrize(("path", "heading"), [
    ("/accounts/login/", "Sign in"),
    ("/accounts/signup/", "Create your account"),
    ("/accounts/confirm-email/", "Check your email"),
    ("/accounts/confirm-email/not-a-key/", "Confirm your email"),
    ("/accounts/password/reset/", "Reset your password"),
    ("/accounts/password/reset/done/", "Check your email"),
    ("/accounts/password/reset/key/1-bad/", "This link no longer works"),
    ("/accounts/password/reset/key/done/", "Password changed"),
    ("/accounts/inactive/", "This account is inactive"),
])
def test_signed_out_pages(client, path, heading):
    response = client.get(path, follow=True)
    assert response.status_code == 200, path
    html = response.content.decode()
    assert SHELL in html
    assert f"<h1>{heading}</h1>" in html, path


@pytest.mark.parametrize(("path", "heading"), [
    ("/accounts/logout/", "Sign out"),
    ("/accounts/email/", "Email address"),
    ("/accounts/password/change/", "Change password"),
])
def test_signed_in_pages(client, alice, path, heading):
    client.force_login(alice)
    html = client.get(path).content.decode()
    assert SHELL in html
    assert f"<h1>{heading}</h1>" in html
    if path != "/accounts/logout/":
        assert 'class="manage-nav"' in html


def test_password_change_errors_next_to_fields(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/password/change/", {
        "oldpassword": "wrong", "password1": "short", "password2": "other"})
    html = response.content.decode()
    assert 'id="id_oldpassword_error"' in html
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_password_reset_round_trip(client, alice):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    [link] = [u for u in links_in_last_email("alice@example.com") if "/password/reset/key/" in u]
    form_page = client.get(link.split("testserver", 1)[1], follow=True)
    assert b"Choose a new password" in form_page.content
    new = "an entirely new passphrase 7"
    done = client.post(form_page.redirect_chain[-1][0] if form_page.redirect_chain
                       else link.split("testserver", 1)[1],
                       {"password1": new, "password2": new}, follow=True)
    assert b"Password changed" in done.content
    assert sign_in(client, "alice", new).status_code == 302
    assert is_signed_in(client)


def test_change_email_sends_a_confirmation(client, alice):
    client.force_login(alice)
    client.post("/accounts/email/", {"action_add": "", "email": "alice.new@example.com"})
    assert any("alice.new@example.com" in m.to for m in mail.outbox)
    html = client.get("/accounts/email/").content.decode()
    assert "alice.new@example.com" in html
