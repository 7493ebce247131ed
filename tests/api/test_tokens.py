"""Personal access tokens: made and revoked on the account page, stored hashed, shown
once; the API reads them from ``Authorization: Bearer``."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts import tokens
from accounts.models import AccessToken
from tests.api.conftest import finished_game

PAGE = "/account/tokens/"
SHOWN = re.compile(r'<code id="new-token"[^>]*>(kzt_[A-Za-z0-9_-]+)</code>')


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_token_made_on_the_account_page_is_shown_once_and_stored_only_hashed(cast):
    client = signed_in(cast.charlie)
    response = client.post(PAGE, {"action": "create", "name": "my stats script"})
    assert response.status_code == 200
    (token,) = SHOWN.findall(response.content.decode())
    row = AccessToken.objects.get(user=cast.charlie, name="my stats script")
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {v for r in AccessToken.objects.values() for v in map(str, r.values())}
    # Never again: the page lists it by name and its first characters only.
    page = client.get(PAGE).content.decode()
    assert "my stats script" in page and token not in page and row.prefix in page
    assert token.startswith(row.prefix)


def test_the_token_works_and_records_when_it_was_last_used(cast):
    row = AccessToken.objects.get(user=cast.alice)
    assert row.last_used_at is None
    response = Client().get("/api/players/alice", **cast.bearer("alice"))
    assert response.status_code == 200
    row.refresh_from_db()
    assert row.last_used_at is not None and timezone.now() - row.last_used_at < timezone.timedelta(
        minutes=1)


@pytest.mark.parametrize("name, reason", [("", "name"), ("   ", "name"),
                                          ("x" * 61, "60")])
def test_a_bad_name_is_refused_and_stores_nothing(cast, name, reason):
    before = AccessToken.objects.count()
    response = signed_in(cast.charlie).post(PAGE, {"action": "create", "name": name})
    assert response.status_code == 400 and reason in response.content.decode()
    assert AccessToken.objects.count() == before
    assert not SHOWN.findall(response.content.decode())


def test_at_most_ten_tokens_a_person(cast):
    for i in range(tokens.MAX_TOKENS_PER_USER - 1):  # the cast's one is the first
        tokens.create_token(cast.charlie, f"t{i}")
    response = signed_in(cast.charlie).post(PAGE, {"action": "create", "name": "one more"})
    assert response.status_code == 400 and "revoke one first" in response.content.decode()
    assert AccessToken.objects.filter(user=cast.charlie).count() == tokens.MAX_TOKENS_PER_USER


def test_revoking_on_the_page_stops_the_token_at_once(cast):
    row = AccessToken.objects.get(user=cast.alice)
    response = signed_in(cast.alice).post(PAGE, {"action": "revoke", "token": row.pk})
    assert response.status_code == 302
    assert not AccessToken.objects.filter(pk=row.pk).exists()
    refused = Client().get("/api/players/alice", **cast.bearer("alice"))
    assert refused.status_code == 401  # told, not served as anonymous


@pytest.mark.parametrize("token", ["other", "abc", "", "9" * 30, "-1"])
def test_nobody_revokes_what_is_not_theirs_nor_with_a_bad_id(cast, token):
    bobs = AccessToken.objects.get(user=cast.bob)
    value = str(bobs.pk) if token == "other" else token
    response = signed_in(cast.alice).post(PAGE, {"action": "revoke", "token": value})
    assert response.status_code == 400
    assert AccessToken.objects.filter(pk=bobs.pk).exists()
    assert AccessToken.objects.count() == 7


def test_the_page_needs_a_sign_in_and_refuses_unknown_actions(cast):
    assert Client().get(PAGE).status_code == 302
    assert signed_in(cast.alice).post(PAGE, {"action": "steal"}).status_code == 400


def test_a_guest_cannot_make_a_token(cast):
    from accounts import guests

    guest = guests.create_guest("127.0.0.1", "en")
    response = signed_in(guest).post(PAGE, {"action": "create", "name": "x"})
    assert response.status_code == 400
    assert not AccessToken.objects.filter(user=guest).exists()


@pytest.mark.parametrize("header", ["Bearer kzt_" + "A" * 43, "Bearer nope", "Token abc",
                                    "Bearer", "Basic YWxpY2U6cHc="])
def test_a_bad_or_unknown_token_is_401(cast, header):
    response = Client().get("/api/players/alice", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401 and response.json()["detail"]


def test_a_deleted_accounts_tokens_are_gone(cast):
    from accounts.services import delete_account

    delete_account(cast.alice)
    assert not AccessToken.objects.filter(user=cast.alice).exists()
    assert Client().get("/api/players/bob", **cast.bearer("alice")).status_code == 401


def test_a_suspended_accounts_token_is_refused_as_its_pages_are(cast):
    from accounts.moderation.models import Sanction

    Sanction.objects.create(user=cast.alice, kind=Sanction.Kind.SUSPEND, reason="x",
                            starts_at=timezone.now(), created_by=cast.mona)
    assert Client().get("/api/players/bob", **cast.bearer("alice")).status_code == 403
    assert Client().get("/api/players/bob", **cast.bearer("bob")).status_code == 200


def test_a_private_games_record_needs_its_players_token(cast):
    game = finished_game(cast.olga, [cast.alice, cast.bob, cast.carol, cast.dan],
                         visibility="private")
    assert Client().get(f"/api/games/{game.pk}").status_code == 403
    assert Client().get(f"/api/games/{game.pk}", **cast.bearer("charlie")).status_code == 403
    assert Client().get(f"/api/games/{game.pk}", **cast.bearer("bob")).status_code == 200
