"""The ranked queue page (/play/ranked/), the casual quick match (/play/casual/), and
their small JSON status endpoints.

Views parse, authorize, call one service and render; matching is never done here.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.errors import PlayingElsewhereError, ServiceError
from games.queue import casual, selectors, services
from games.queue.models import QueueEntry
from games.views import playing_elsewhere


def _verified(request: HttpRequest) -> bool:
    return EmailAddress.objects.filter(user=request.user, verified=True).exists()


@never_cache
@login_required
@require_GET
def ranked(request: HttpRequest) -> HttpResponse:
    """Join the solo queue, invite a partner for the pair queue, see the wait."""
    if not _verified(request):
        return render(request, "queue/ranked.html", {"verified": False}, status=403)
    status = selectors.queue_status(request.user)
    if status["state"] == "matched":
        return redirect(status["table_url"])
    return render(request, "queue/ranked.html", {"verified": True, "status": status})


@never_cache
@login_required
@require_GET
def status(request: HttpRequest) -> JsonResponse:
    """The page polls this once a second: state, waiting count, your time, invites."""
    return JsonResponse(selectors.queue_status(request.user))


def _done(request: HttpRequest, ok: bool = True, kind: str = "ranked") -> HttpResponse:
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse(selectors.queue_status(request.user, kind), status=200 if ok else 400)
    return redirect(f"queue:{kind}")


def _run(request: HttpRequest, call, *args, kind: str = "ranked") -> HttpResponse:  # type: ignore[no-untyped-def]
    try:
        call(request.user, *args)
    except PlayingElsewhereError as exc:
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse({"error": exc.code, "message": exc.message,
                                 "table_url": reverse("games:table", args=[exc.table_id])},
                                status=409)
        return playing_elsewhere(request, exc)  # return there, or leave it and carry on
    except ServiceError as exc:
        messages.error(request, exc.message)
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse({"error": exc.code, "message": exc.message}, status=400)
        return redirect(f"queue:{kind}")
    return _done(request, kind=kind)


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    return _run(request, services.join_queue, request.POST.get("turn_seconds"),
                request.POST.get("leave_current"))


@login_required
@require_POST
def leave(request: HttpRequest, kind: str = "ranked") -> HttpResponse:
    services.leave_queue(request.user)
    return _done(request, kind=kind)


@login_required
@require_POST
def invite(request: HttpRequest) -> HttpResponse:
    return _run(request, services.invite_partner, request.POST.get("username"),
                request.POST.get("turn_seconds"), request.POST.get("leave_current"))


@login_required
@require_POST
def accept(request: HttpRequest, invite_id: int) -> HttpResponse:
    return _run(request, services.accept_invite, invite_id, request.POST.get("leave_current"))


@login_required
@require_POST
def decline(request: HttpRequest, invite_id: int, kind: str = "ranked") -> HttpResponse:
    services.decline_invite(request.user, invite_id)
    return _done(request, kind=kind)


# --- Casual quick match -------------------------------------------------------

CASUAL = QueueEntry.Kind.CASUAL


@never_cache
@login_required
@require_GET
def casual_page(request: HttpRequest) -> HttpResponse:
    """"Play with people": your preferences, the wait, a partner invite."""
    status = selectors.queue_status(request.user, CASUAL)
    if status["state"] == "matched":
        return redirect(status["table_url"])
    return render(request, "queue/casual.html", {"status": status})


@never_cache
@login_required
@require_GET
def casual_status(request: HttpRequest) -> JsonResponse:
    return JsonResponse(selectors.queue_status(request.user, CASUAL))


def _preferences(request: HttpRequest) -> casual.Preferences:
    return casual.parse_preferences(request.POST.get("turn_seconds"), request.POST.get("target"),
                                    request.POST.get("allow_bots"), request.POST.get("bot_wait"))


def _join_casual(user, request: HttpRequest):  # type: ignore[no-untyped-def]
    return casual.join_casual(user, _preferences(request), request.POST.get("leave_current"))


def _invite_casual(user, request: HttpRequest):  # type: ignore[no-untyped-def]
    return casual.invite_casual_partner(user, request.POST.get("username"), _preferences(request),
                                        request.POST.get("leave_current"))


@login_required
@require_POST
def casual_join(request: HttpRequest) -> HttpResponse:
    return _run(request, _join_casual, request, kind=CASUAL)


@login_required
@require_POST
def casual_invite(request: HttpRequest) -> HttpResponse:
    return _run(request, _invite_casual, request, kind=CASUAL)


@login_required
@require_POST
def casual_bots_now(request: HttpRequest) -> HttpResponse:
    """"Play with bots now" while waiting: the status then follows you to the table."""
    return _run(request, casual.play_with_bots_now, kind=CASUAL)


@login_required
@require_POST
def casual_accept(request: HttpRequest, invite_id: int) -> HttpResponse:
    return _run(request, casual.accept_casual_invite, invite_id,
                request.POST.get("leave_current"), kind=CASUAL)
