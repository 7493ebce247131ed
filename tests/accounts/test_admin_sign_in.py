"""The admin's sign-in is the site's: its rate limits and its lockout apply. The admin's
own form took 15 wrong passwords in a row with 200s, and signed in an account the site
had locked."""

from __future__ import annotations

import pytest

from tests.accounts.conftest import is_signed_in, sign_in
from tests.games.conftest import make_user

PASSWORD = "pw-12345!"  # tests.games.conftest.make_user's
ADDRESS = {"REMOTE_ADDR": "203.0.113.70"}


@pytest.fixture
def admin_user(db):
    user = make_user("root")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def _admin_sign_in(client, password: str):
    return client.post("/admin/login/?next=/admin/",
                       {"username": "root", "password": password, "next": "/admin/"},
                       **ADDRESS)


@pytest.mark.django_db
def test_the_admin_sign_in_sends_to_the_sites_sign_in(client, admin_user):
    page = client.get("/admin/login/?next=/admin/")
    assert page.status_code == 302 and page["Location"].startswith("/accounts/login/")
    for _ in range(15):
        answer = _admin_sign_in(client, "guess")
        assert answer.status_code == 302
        assert answer["Location"].startswith("/accounts/login/")
    assert not is_signed_in(client)
    assert _admin_sign_in(client, PASSWORD).status_code == 302
    assert not is_signed_in(client), "the admin's form signs nobody in"


@pytest.mark.django_db
def test_an_account_locked_on_the_site_cannot_sign_in_through_the_admin(client, admin_user):
    for _ in range(6):
        sign_in(client, "root", "guess", **ADDRESS)
    assert "Too many failed" in sign_in(client, "root", PASSWORD, **ADDRESS).content.decode()
    _admin_sign_in(client, PASSWORD)
    assert not is_signed_in(client)
    assert client.get("/admin/").status_code == 302


@pytest.mark.django_db
def test_staff_signed_in_on_the_site_reach_the_admin_and_others_are_refused(
        client, admin_user):
    assert sign_in(client, "root", PASSWORD).status_code == 302
    assert client.get("/admin/").status_code == 200
    client.logout()
    make_user("plain")
    sign_in(client, "plain", PASSWORD)
    assert client.get("/admin/login/").status_code == 403
