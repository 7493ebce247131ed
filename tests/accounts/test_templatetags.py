"""The ``players`` template tags that every other page uses to print a player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template

from accounts import services
from accounts.avatars import colour_for, initials

pytestmark = pytest.mark.django_db


def render(source: str, **context: object) -> str:
    return Template("{% load players %}" + source).render(Context(context))


def test_player_name_uses_display_name_then_username(alice):
    assert render("{% player_name u %}", u=alice) == "alice"
    services.update_profile(alice, display_name="Alice <K>")
    alice.refresh_from_db()
    assert render("{% player_name u %}", u=alice) == "Alice &lt;K&gt;"
    assert render("{{ u|public_name }}", u=alice) == "Alice &lt;K&gt;"


def test_deleted_player(bob):
    services.delete_account(bob)
    bob.refresh_from_db()
    assert render("{% player_name u %}", u=bob) == "deleted player"
    link = render("{% player_link u %}", u=bob)
    assert "<a" not in link and "deleted player" in link
    avatar = render("{% player_avatar u %}", u=bob)
    assert ">?</text>" in avatar and "hsl(0, 0%, 62%)" in avatar


def test_player_link_and_avatar(alice):
    link = render("{% player_link u size=20 %}", u=alice)
    assert 'href="/@/alice"' in link and 'width="20"' in link and ">A</text>" in link
    assert "<svg" not in render("{% player_link u avatar=False %}", u=alice)
    assert 'width="64"' in render("{% player_avatar u size=64 %}", u=alice)


@pytest.mark.parametrize("nobody", [None, AnonymousUser()])
def test_empty_seats_print_a_dash(nobody):
    assert render("{% player_name u %}", u=nobody) == "—"
    assert render("{% player_link u %}", u=nobody) == "—"
    assert "<svg" in render("{% player_avatar u %}", u=nobody)


def test_user_without_profile_row(django_user_model):
    user = django_user_model.objects.create_user("vlad")
    assert render("{% player_name u %}", u=user) == "vlad"


def test_avatar_helpers():
    assert initials("Anna Karenina") == "AK"
    assert initials("") == "?"
    assert colour_for("Alice") == colour_for("alice")
    assert colour_for("alice") != colour_for("alicf")
