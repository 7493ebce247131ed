"""Site-level views: the home page, /healthz and the rules.

The leaderboard lives in games/ratings/views.py; clubs in
games/tournaments/views.py."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from accounts.social.selectors import online_now_for, watch_list_for
from games.ratings.selectors import tables_worth_watching
from games.selectors import lobby_tables
from kozel_site import health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What the site is, where to start playing, and the open tables right now.

    "Online now" is privacy-filtered for this viewer (accounts/social): nobody who hides
    their online status, nor anyone across a block, is counted or named there."""
    viewer = request.user
    return render(request, "home.html", {
        "tables": lobby_tables()[:8], "online": online_now_for(viewer),
        "watch": watch_list_for(viewer, tables_worth_watching())})


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
