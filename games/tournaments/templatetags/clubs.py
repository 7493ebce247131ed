"""``{% player_clubs user as clubs %}``: a player's clubs, for their profile page."""

from __future__ import annotations

from typing import Any

from django import template

from games.tournaments.selectors import clubs_of

register = template.Library()


@register.simple_tag
def player_clubs(user: Any) -> list[Any]:
    return clubs_of(user) if getattr(user, "pk", None) else []
