"""Template tags that print a player: ``{% load players %}``.

    {% player_name user %}            the public name, escaped ("deleted player" if deleted)
    {% player_avatar user %}          the initials avatar, inline SVG (size=40 by default)
    {% player_avatar user size=24 %}
    {% player_link user %}            avatar + name linking to /@/<username>; no link when
                                      deleted; add avatar=False to drop the picture
    {{ user|public_name }}            the same text as player_name, as a filter
    {% if user|is_guest %}            a visitor playing without an account

Every tag accepts ``None`` (an empty seat, a bot without an account) and prints nothing
or "—". Listing many players? ``select_related("profile")`` (or ``"user__profile"``) on
the queryset, or each tag costs one query.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts import guests
from accounts.avatars import avatar_svg
from accounts.selectors import profile_for

register = template.Library()

_EMPTY = "—"


def _is_user(value: Any) -> bool:
    return value is not None and getattr(value, "is_authenticated", False) is True


@register.filter(name="is_guest")
def is_guest(user: Any) -> bool:
    """True for a guest (accounts/guests.py): pages offer it sign-up, not a profile."""
    return guests.is_guest(user)


@register.filter(name="public_name")
def public_name(user: Any) -> str:
    """The name other players see for ``user``."""
    if not _is_user(user):
        return _EMPTY
    return profile_for(user).public_name


@register.simple_tag
def player_name(user: Any) -> str:
    """``{% player_name user %}``: the public name (autoescaped like any variable)."""
    return public_name(user)


@register.simple_tag
def player_avatar(user: Any, size: int = 40) -> SafeString | str:
    """``{% player_avatar user size=32 %}``: the initials avatar as inline SVG."""
    if not _is_user(user):
        return avatar_svg(name="", username="", size=size, deleted=True)
    return profile_for(user).avatar(size)


@register.simple_tag
def player_link(user: Any, size: int = 24, avatar: bool = True) -> SafeString | str:
    """``{% player_link user %}``: avatar and name, linked to the public profile."""
    if not _is_user(user):
        return _EMPTY
    profile = profile_for(user)
    picture = profile.avatar(size) if avatar else ""
    if profile.is_deleted:
        return format_html('<span class="player deleted">{}{}</span>', picture,
                           profile.public_name)
    url = reverse("accounts:profile", kwargs={"username": user.get_username()})
    return format_html('<a class="player" href="{}">{}<span class="player-name">{}</span></a>',
                       url, picture, profile.public_name)
