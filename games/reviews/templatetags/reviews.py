"""``{% review_panel game %}`` on the replay page, ``{% review_summary player is_self %}``
on a profile: the reviews app draws its own parts of pages that games and accounts own."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from games.bots.review import BLUNDER, GRADES
from games.models import Game
from games.reviews import selectors
from games.reviews.models import Review

register = template.Library()


@register.inclusion_tag("reviews/panel.html", takes_context=True)
def review_panel(context: dict[str, Any], game: Game) -> dict[str, Any]:
    request = context["request"]
    visible = selectors.may_see_reviews(game, request.user)
    made = selectors.reviews_of(game) if visible else {}
    names = {e.position: e.name for e in game.series.roster.all()}
    return {
        "game": game, "visible": visible, "signed_in": request.user.is_authenticated,
        "seats": [{"position": p, "name": names.get(p, ""), "review": made.get(p)}
                  for p in range(4)],
        "grades": grade_rows(),
        "csrf_token": context.get("csrf_token"),
    }


def grade_rows() -> list[dict[str, Any]]:
    """The grades with their bounds in loss points, for the page's explanation."""
    labels = {"good": _("Good"), "inaccuracy": _("Inaccuracy"), "mistake": _("Mistake"),
              BLUNDER: _("Blunder")}
    rows, low = [], None
    for name, high in [*GRADES, (BLUNDER, None)]:
        rows.append({"key": name, "label": labels[name], "low": low, "high": high})
        low = high
    return rows


@register.inclusion_tag("reviews/profile_summary.html")
def review_summary(player: Any, is_self: bool) -> dict[str, Any]:
    return {"summary": selectors.profile_summary(player, include_private=is_self)}


@register.simple_tag
def game_reviewed(game_id: int | None) -> bool:
    """Whether a finished review of any seat of the game exists (another app's page, a
    duplicate board's traveller, links to it then); the caller has checked that the
    game's record may be read."""
    return bool(game_id) and Review.objects.filter(game_id=game_id,
                                                   status=Review.Status.DONE).exists()
