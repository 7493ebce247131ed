"""Follow and unfollow, the friends list with who is online and where they play, and
the privacy settings on the pages (presence from real Redis)."""

from __future__ import annotations

import pytest

from accounts.social import selectors, services
from accounts.social.models import Follow, SocialSettings
from games import presence
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.services import tables
from tests.social.conftest import block


def test_follow_is_one_way_idempotent_and_unfollow_works(cast):
    services.follow(cast.alice, "@BOB")
    services.follow(cast.alice, "bob")
    assert Follow.objects.count() == 1
    assert [f.user for f in selectors.friends_of(cast.alice)] == [cast.bob]
    assert selectors.friends_of(cast.bob) == [], "one-way, like lichess"
    assert services.unfollow(cast.alice, "bob") is True
    assert services.unfollow(cast.alice, "bob") is False
    assert not Follow.objects.exists()


@pytest.mark.parametrize("name, error", [("", InvalidRequestError), ("nobody", NotFoundError),
                                         ("alice", InvalidRequestError),
                                         ("x" * 151, InvalidRequestError),
                                         (["bob"], InvalidRequestError)])
def test_bad_follows_are_refused(cast, name, error):
    with pytest.raises(error):
        services.follow(cast.alice, name)
    assert not Follow.objects.exists()


def test_a_block_either_way_refuses_a_follow(cast):
    block(cast.mallory, cast.alice)
    with pytest.raises(PermissionDeniedError):
        services.follow(cast.alice, "mallory")
    with pytest.raises(PermissionDeniedError):
        services.follow(cast.mallory, "alice")
    with pytest.raises(PermissionDeniedError):
        services.follow(None, "alice")


def test_the_friends_page_shows_who_is_online_and_where_they_play(client, cast):
    for name in ("bob", "carol"):
        services.follow(cast.alice, name)
    presence.touch_page(cast.bob.pk, "page-1")
    table = tables.start_with_bots(cast.carol)  # private: no spectate link
    presence.touch_page(cast.carol.pk, "page-2")
    client.force_login(cast.alice)
    page = client.get("/friends/").content.decode()
    bob_row = page.split('data-friend="bob"')[1].split("</li>")[0]
    carol_row = page.split('data-friend="carol"')[1].split("</li>")[0]
    assert 'data-online="1"' in bob_row and "online" in bob_row
    assert "playing at a private table" in carol_row and f"/table/{table.pk}/" not in carol_row
    # A public table gets a watch link.
    table.visibility = "public"
    table.save()
    page = client.get("/friends/").content.decode()
    assert f'href="/table/{table.pk}/"' in page and "(watch)" in page
    presence.drop_page(cast.bob.pk, "page-1")
    page = client.get("/friends/").content.decode()
    assert 'data-online="0"' in page.split('data-friend="bob"')[1].split("</li>")[0]


def test_a_hidden_or_blocking_user_never_appears_online_on_the_page(client, cast):
    for name in ("bob", "mallory"):
        services.follow(cast.alice, name)
    presence.touch_page(cast.bob.pk, "page-1")
    presence.touch_page(cast.mallory.pk, "page-2")
    tables.start_with_bots(cast.bob)
    assert selectors.visible_online(cast.alice, [cast.bob.pk, cast.mallory.pk]) \
        == {cast.bob.pk, cast.mallory.pk}
    services.update_settings(cast.bob, {"hide_online": "on"})
    block(cast.mallory, cast.alice)  # mallory blocks alice after alice followed
    client.force_login(cast.alice)
    page = client.get("/friends/").content.decode()
    assert 'class="presence-dot" data-online="1"' not in page
    assert "playing at" not in page, "where they play is hidden with the status"
    assert selectors.visible_online(cast.alice, [cast.bob.pk, cast.mallory.pk]) == set()


def test_privacy_settings_page_saves_and_refuses_junk(client, cast):
    client.force_login(cast.alice)
    assert "Hide my online status" in client.get("/friends/settings/").content.decode()
    client.post("/friends/settings/", {"hide_online": "on", "email_invite": "on"})
    saved = SocialSettings.objects.get(user=cast.alice)
    assert saved.hide_online and saved.email_invite and not saved.invites_from_friends_only
    client.post("/friends/settings/", {"hide_online": "maybe"})
    assert SocialSettings.objects.get(user=cast.alice).hide_online, "junk changes nothing"
    with pytest.raises(InvalidRequestError):
        services.update_settings(cast.alice, {"is_superuser": True})


def test_signed_out_visitors_are_sent_to_sign_in(client, cast):
    for url in ("/friends/", "/notifications/", "/friends/settings/"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.post("/friends/follow/", {"username": "bob"})
    assert not Follow.objects.exists()
