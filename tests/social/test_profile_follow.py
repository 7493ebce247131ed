"""The Follow / Unfollow button on the profile (/@/<username>): it uses the
follow service, is hidden on your own profile, is a sign-in link for a signed-out
visitor, and never offers a follow across a block (either way); forged posts change
nothing."""

from __future__ import annotations

import re

import pytest

from accounts.social.models import Follow
from tests.social.conftest import block

pytestmark = pytest.mark.django_db


def button(client, username: str) -> str | None:
    """The profile's follow button (``follow``/``unfollow``), or None."""
    html = client.get(f"/@/{username}").content.decode()
    found = re.search(r'data-follow="(\w+)"', html)
    return found[1] if found else None


def test_a_signed_out_visitor_gets_a_sign_in_link_not_a_button(client, cast):
    html = client.get("/@/bob").content.decode()
    assert 'id="follow-sign-in"' in html and "/accounts/login/?next=/%40/bob" in html
    assert "data-follow" not in html
    response = client.post("/friends/follow/", {"username": "bob"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Follow.objects.exists()


def test_no_button_on_your_own_profile(client, cast):
    client.force_login(cast.alice)
    html = client.get("/@/alice").content.decode()
    assert "data-follow" not in html and "follow-sign-in" not in html


def test_follow_then_unfollow_from_the_profile(client, cast):
    client.force_login(cast.alice)
    assert button(client, "bob") == "follow"
    response = client.post("/friends/follow/", {"username": "bob", "next": "/@/bob"},
                           follow=True)
    assert response.redirect_chain[-1][0] == "/@/bob", "back to the profile"
    assert "You follow bob." in response.content.decode()
    assert Follow.objects.filter(follower=cast.alice, followed=cast.bob).exists()
    assert button(client, "bob") == "unfollow"
    assert button(client, "carol") == "follow", "only bob is followed"
    client.post("/friends/unfollow/", {"username": "bob", "next": "/@/bob"})
    assert not Follow.objects.exists()
    assert button(client, "bob") == "follow"


@pytest.mark.parametrize("who_blocks", ["viewer", "other"])
def test_no_follow_button_across_a_block_and_a_forged_follow_is_refused(
        client, cast, who_blocks):
    if who_blocks == "viewer":
        block(cast.alice, cast.mallory)
    else:
        block(cast.mallory, cast.alice)
    client.force_login(cast.alice)
    assert button(client, "mallory") is None
    assert button(client, "bob") == "follow", "the check can fail: others are followable"
    response = client.post("/friends/follow/", {"username": "mallory", "next": "/@/mallory"},
                           follow=True)
    assert "You cannot follow this player." in response.content.decode()
    assert not Follow.objects.exists()
    # The other side sees no button either.
    client.force_login(cast.mallory)
    assert button(client, "alice") is None


def test_an_old_follow_across_a_later_block_can_still_be_undone(client, cast):
    Follow.objects.create(follower=cast.alice, followed=cast.mallory)
    block(cast.mallory, cast.alice)
    client.force_login(cast.alice)
    assert button(client, "mallory") == "unfollow"
    client.post("/friends/unfollow/", {"username": "mallory", "next": "/@/mallory"})
    assert not Follow.objects.exists()
    assert button(client, "mallory") is None, "and no follow back across the block"


def test_bad_follow_posts_change_nothing(client, cast):
    client.force_login(cast.alice)
    for data in ({"username": "nobody-at-all", "next": "/@/bob"},
                 {"username": "x" * 200},
                 {"username": "alice"},
                 {}):
        response = client.post("/friends/follow/", data)
        assert response.status_code == 302
    # An outside "next" is not followed: the friends page instead.
    response = client.post("/friends/follow/", {"username": "bob",
                                                "next": "https://evil.example/"})
    assert response["Location"] == "/friends/"
    assert list(Follow.objects.values_list("followed__username", flat=True)) == ["bob"]
    assert client.get("/friends/follow/").status_code == 405
