"""Sign-in: wrong password, inactive accounts, and allauth's ``login_failed`` rate limit."""

from __future__ import annotations

import pytest

from tests.accounts.conftest import is_signed_in, sign_in

pytestmark = pytest.mark.django_db


def test_alice_signs_in_with_username_and_with_email(client, alice):
    assert sign_in(client, "alice").status_code == 302
    assert is_signed_in(client)
    client.post("/accounts/logout/")
    assert sign_in(client, "ALICE@example.com").status_code == 302
    assert is_signed_in(client)


def test_wrong_password_is_refused_with_a_clear_error(client, alice):
    response = sign_in(client, "alice", "not her password")
    assert response.status_code == 200
    assert not is_signed_in(client)
    html = response.content.decode()
    assert 'class="form-errors"' in html
    assert "not correct" in html


def test_unknown_user_gets_the_same_error(client):
    response = sign_in(client, "nobody", "whatever")
    assert response.status_code == 200
    assert "not correct" in response.content.decode()


def test_login_failed_rate_limit_stops_guessing(client, bob):
    # 5/5m/key: the sixth wrong guess for the same login is refused before checking.
    ip = {"REMOTE_ADDR": "203.0.113.7"}
    for _ in range(5):
        response = sign_in(client, "bob", "wrong", **ip)
        assert "not correct" in response.content.decode()
    limited = sign_in(client, "bob", "wrong", **ip)
    assert "Too many failed sign-ins for this account" in limited.content.decode()
    # Even the right password is refused while the limit holds.
    right = sign_in(client, "bob", **ip)
    assert not is_signed_in(client)
    assert "Too many failed sign-ins for this account" in right.content.decode()


def test_rate_limit_is_per_login_so_alice_is_not_locked_out_by_bobs_guesser(client, alice, bob):
    ip = {"REMOTE_ADDR": "203.0.113.8"}
    for _ in range(6):
        sign_in(client, "bob", "wrong", **ip)
    assert sign_in(client, "alice", **{"REMOTE_ADDR": "198.51.100.9"}).status_code == 302
    assert is_signed_in(client)


def test_inactive_account_cannot_sign_in(client, make_user):
    make_user("dmitri", is_active=False)
    response = sign_in(client, "dmitri")
    assert not is_signed_in(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/inactive/"
    assert "This account is inactive" in client.get("/accounts/inactive/").content.decode()
