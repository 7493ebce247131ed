"""The API object: its routers, its authentication and its refusals.

Every refusal is JSON ``{"detail": ...}``: 400 for a parameter out of range or of the
wrong type (the site's pages answer a bad id with 400 too, kozel_site/ids.py), 401 for
an unknown token, 403, 404, and 429 with ``Retry-After`` past a rate limit.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import ValidationError

from kozel_site.api import boards, clubs, games, players, tournaments
from kozel_site.api.auth import TokenOrAnonymous
from kozel_site.api.limits import RateLimitedError

DESCRIPTION = """Read-only JSON about Kozel players, games, clubs and tournaments.

Anonymous requests see what the site shows everyone. A personal access token (made on
the account page, `/account/tokens/`) sent as `Authorization: Bearer <token>` also
opens the games of your private tables. A game's record opens only once the game is
over. Rate limits answer `429` with `Retry-After`. The record format and how to replay
it with the engine protocol: `docs/api.md` in the site's repository."""

api = NinjaAPI(title="Kozel API", version="1", description=DESCRIPTION,
               auth=TokenOrAnonymous(), urls_namespace="api", docs_url="/docs",
               openapi_url="/openapi.json")
api.add_router("/players", players.router)
api.add_router("/games", games.router)
api.add_router("/leaderboard", boards.router)
api.add_router("/clubs", clubs.router)
api.add_router("/tournaments", tournaments.router)


@api.exception_handler(RateLimitedError)
def rate_limited(request: HttpRequest, exc: RateLimitedError) -> HttpResponse:
    response = api.create_response(
        request, {"detail": f"Too many requests: try again in {exc.retry_after} s."},
        status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(ValidationError)
def bad_parameters(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """A parameter out of range or of the wrong type: 400, naming it."""
    return api.create_response(request, {"detail": exc.errors}, status=400)
