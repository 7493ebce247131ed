"""The public profile at /@/<username>."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.selectors import ProfileStats, profile_stats

pytestmark = pytest.mark.django_db


def test_anyone_sees_alices_profile(client, alice):
    services.update_profile(alice, display_name="Alice K.", bio="Molodka enjoyer.\nSince 1998.",
                            country="LV")
    response = client.get("/@/alice")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alice K." in html
    assert "@alice" in html
    assert "Molodka enjoyer.<br>Since 1998." in html
    assert "Latvia" in html
    assert f"Joined {alice.date_joined:%-d %B %Y}" in html
    assert '<svg class="avatar"' in html and ">AK</text>" in html
    for stat in ("games_played", "series_won", "series_lost", "goats", "eggs"):
        assert f'data-stat="{stat}">0<' in html
    assert "Edit your profile" not in html, "only the owner gets the edit link"


def test_owner_gets_an_edit_link(client, alice):
    client.force_login(alice)
    assert "Edit your profile" in client.get("/@/alice").content.decode()


def test_unknown_username_is_404(client, alice):
    assert client.get("/@/nobody-here").status_code == 404


def test_case_insensitive_lookup_redirects_to_the_real_name(client, alice):
    response = client.get("/@/ALICE")
    assert response.status_code == 301
    assert response["Location"] == "/@/alice"


def test_deleted_user_shows_deleted_player_and_nothing_else(client, bob):
    services.update_profile(bob, display_name="Bobby", bio="secret bio", country="FR")
    services.delete_account(bob)
    response = client.get(f"/@/deleted-{bob.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    assert "deleted player" in html
    for leaked in ("Bobby", "secret bio", "France", "bob@example.com", "@bob"):
        assert leaked not in html
    assert client.get("/@/bob").status_code == 404


def test_user_without_a_profile_row_still_renders(client, django_user_model):
    # e.g. created by createsuperuser before the on-commit hook ran.
    django_user_model.objects.create_user("eve", password="x")
    response = client.get("/@/eve")
    assert response.status_code == 200
    assert "eve" in response.content.decode()


def test_profile_stats_are_zero_until_games_exist(alice):
    assert profile_stats(alice) == ProfileStats(0, 0, 0, 0, 0)


def test_profile_refuses_post(client, alice):
    assert client.post("/@/alice").status_code == 405
