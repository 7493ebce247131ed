"""Site-level views: the home page, /healthz and the rules.

The leaderboard lives in games/ratings/views.py; clubs in
games/tournaments/views.py."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from accounts.social.selectors import online_now_for, watch_list_for
from games.models import Table
from games.ratings.provisional import top_players
from games.ratings.selectors import tables_worth_watching
from games.selectors import lobby_tables
from games.tournaments.selectors import next_public_events
from kozel_site import health

HOME_TOP_PLAYERS = 5
HOME_EVENTS = 4


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What the site is and where to start playing, and the signs of life a young site
    has: games being played to watch, the next club events, the top players (provisional
    ones while few qualify), a way to learn, and the open tables.

    A fixed number of queries whatever the number of tables, events or players. "Online
    now" and the names of the live tables are privacy-filtered for this viewer
    (accounts/social): nobody who hides their online status, nor anyone across a block,
    is counted or named there."""
    viewer = request.user
    return render(request, "home.html", {
        "tables": [t for t in lobby_tables() if t.status == Table.Status.OPEN][:8],
        "online": online_now_for(viewer),
        "watch": watch_list_for(viewer, tables_worth_watching()),
        "events": next_public_events(timezone.now(), HOME_EVENTS),
        "leaders": top_players(HOME_TOP_PLAYERS)})


@never_cache
@require_GET
def live_tables(request: HttpRequest) -> HttpResponse:
    """The home page's "Live now" list alone, fetched again when the lobby socket says a
    table changed (privacy-filtered for this viewer, like the page)."""
    return render(request, "games/_live_tables.html",
                  {"watch": watch_list_for(request.user, tables_worth_watching())})


@never_cache
@require_GET
def online_now(request: HttpRequest) -> HttpResponse:
    """The home page's "Online now" line alone, for the page to fetch again when its
    socket says someone came or went (privacy-filtered for this viewer, like the page)."""
    return render(request, "games/_online_now.html", {"online": online_now_for(request.user)})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Kozel on 4 cards in the site's words, numbered R1–R19 like the engine."""
    return render(request, "rules.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report the database, Redis and a Celery worker; HTTP 503 when any fails."""
    probes = {
        "database": health.check_database(),
        "redis": health.check_redis(),
        "celery": health.check_celery(),
    }
    ok = all(p.ok for p in probes.values())
    body = {
        "status": "ok" if ok else "failing",
        "checks": {
            name: {"status": "ok" if p.ok else "failing", "detail": p.detail}
            for name, p in probes.items()
        },
    }
    return JsonResponse(body, status=200 if ok else 503)


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers and bots ask for unprompted: the SVG goat.

    A temporary redirect, because the static URL carries a content hash in production.
    """
    return HttpResponseRedirect(static("img/favicon.svg"))
