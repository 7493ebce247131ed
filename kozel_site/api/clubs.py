"""``/api/clubs``: the clubs list and a club's page (``/clubs/``, ``/club/<slug>/``):
what every visitor sees there; a director's lists (requests, bans, the audit log) stay
on the page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.errors import HttpError

from accounts import selectors as account_selectors
from games.tournaments import selectors
from games.tournaments.models import Club
from kozel_site.api import params, schemas

router = Router(tags=["clubs"])


@router.get("", response={200: list[schemas.ClubLine], **schemas.REFUSALS},
            summary="Clubs, biggest first")
def clubs(request: HttpRequest, q: params.Search = None) -> list[dict[str, Any]]:
    """At most 50, searched by name, slug, description or country with ``q``."""
    return [{"slug": c.slug, "name": c.name, "country": c.country,
             "members": c.members}  # type: ignore[attr-defined]
            for c in selectors.clubs(q or "")[:selectors.PAGE]]


@router.get("/{slug}", response={200: schemas.Club, **schemas.NOT_FOUND},
            summary="A club: members, tournaments, its leaderboard")
def club(request: HttpRequest, slug: params.Slug) -> dict[str, Any]:
    row = Club.objects.select_related("owner").filter(slug=slug).first()
    if row is None:
        raise HttpError(404, "No club with that name.")
    return {
        "slug": row.slug, "name": row.name, "description": row.description,
        "country": row.country, "language": row.language, "join_policy": row.join_policy,
        "owner": row.owner.get_username(), "created_at": row.created_at,
        "members": [{"username": m.user.get_username(),
                     "name": account_selectors.profile_for(m.user).public_name,
                     "role": m.role} for m in selectors.members(row)],
        "tournaments": {state: [{"id": t.pk, "name": t.name, "status": t.status}
                                for t in listed]
                        for state, listed in selectors.tournaments_by_state(row).items()},
        "leaderboard": [{"username": r["user"].get_username(), "points": r["points"],
                         "events": r["events"]} for r in selectors.club_leaderboard(row)],
    }
