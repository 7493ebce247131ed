"""Friends (/friends/), the notification centre (/notifications/), table invitations,
privacy and email settings, and the unsubscribe link. Views parse, authorize, call
one service and render."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.social import invites, notify, selectors, services
from accounts.social.models import Notification
from games.errors import PlayingElsewhereError, ServiceError
from games.views import playing_elsewhere


def _int(value: Any) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


def _back(request: HttpRequest, default: str) -> str:
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()},
                                                  require_https=request.is_secure()):
        return wanted
    return reverse(default)


def _run(request: HttpRequest, call: Callable[[], Any], default: str,
         done: str | None = None) -> tuple[Any, HttpResponse]:
    try:
        result = call()
    except ServiceError as error:
        messages.error(request, error.message)
        return None, redirect(_back(request, default))
    if done:
        messages.success(request, done)
    return result, redirect(_back(request, default))


@never_cache
@login_required
@require_GET
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Who you follow, who is online and where they play; follow someone new."""
    return render(request, "social/friends.html", {
        "friends": selectors.friends_of(request.user),
        "followers": selectors.followers_of(request.user),
        "invites_sent": selectors.pending_invites_sent(request.user),
        "open_table": selectors.open_table_of(request.user),
    })


@login_required
@require_POST
def follow(request: AuthenticatedHttpRequest) -> HttpResponse:
    name = request.POST.get("username", "")
    return _run(request, lambda: services.follow(request.user, name), "social:friends",
                _("You follow %(name)s.") % {"name": name.strip().lstrip("@")[:150]})[1]


@login_required
@require_POST
def unfollow(request: AuthenticatedHttpRequest) -> HttpResponse:
    name = request.POST.get("username", "")
    return _run(request, lambda: services.unfollow(request.user, name), "social:friends")[1]


@login_required
@require_POST
def invite(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Invite someone to your table; then you go to the table to wait for them."""
    name = request.POST.get("username", "")
    raw_table = request.POST.get("table_id", "")
    table_id = _int(raw_table) if raw_table else None
    if raw_table and table_id is None:
        messages.error(request, _("Choose one of your tables."))
        return redirect("social:friends")
    made, response = _run(request, lambda: invites.invite(request.user, name, table_id),
                          "social:friends")
    if made is None:
        return response
    messages.success(request, _("Invitation sent to %(name)s.")
                     % {"name": made.to_user.get_username()})
    return redirect("games:table", table_id=made.table_id)


@login_required
@require_POST
def accept(request: AuthenticatedHttpRequest, invite_id: int) -> HttpResponse:
    try:
        table = invites.accept(request.user, invite_id, request.POST.get("leave_current"))
    except PlayingElsewhereError as error:
        return playing_elsewhere(request, error)  # return there, or leave it and accept
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(_back(request, "social:notifications"))
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def decline(request: AuthenticatedHttpRequest, invite_id: int) -> HttpResponse:
    return _run(request, lambda: invites.decline(request.user, invite_id),
                "social:notifications", _("Invitation declined."))[1]


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, invite_id: int) -> HttpResponse:
    return _run(request, lambda: invites.withdraw(request.user, invite_id),
                "social:friends", _("Invitation withdrawn."))[1]


@never_cache
@login_required
@require_GET
def notifications(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The notification centre: newest first, unread marked, invitations answerable."""
    rows = selectors.notifications_of(request.user)
    items = [{"n": n, "text": notify.text_of(n),
              "open_invite": n.kind == Notification.Kind.INVITE and n.invite is not None
              and n.invite.status == "pending"} for n in rows]
    return render(request, "social/notifications.html", {"items": items})


@login_required
@require_POST
def mark_read(request: AuthenticatedHttpRequest) -> HttpResponse:
    raw = request.POST.get("id", "")
    notification_id = _int(raw) if raw else None
    if raw and notification_id is None:
        messages.error(request, _("No such notification."))
        return redirect("social:notifications")
    return _run(request, lambda: notify.mark_read(request.user, notification_id),
                "social:notifications")[1]


@login_required
@require_POST
def open_notification(request: AuthenticatedHttpRequest, notification_id: int) -> HttpResponse:
    """Mark one notification read and follow its link."""
    found = Notification.objects.filter(pk=notification_id, user=request.user).first()
    if found is None:
        messages.error(request, _("No such notification."))
        return redirect("social:notifications")
    notify.mark_read(request.user, found.pk)
    return redirect(found.url or "social:notifications")


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def privacy(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Hide your online status, invitations from friends only, and which emails you get."""
    if request.method == "POST":
        values = {f: request.POST.get(f) for f in services.SETTINGS_FIELDS}
        _result, response = _run(request, lambda: services.update_settings(request.user, values),
                                 "social:privacy", _("Your settings are saved."))
        return response
    return render(request, "social/privacy.html",
                  {"settings": selectors.settings_of(request.user)})


@csrf_exempt  # the signed token is the authority; mail clients' one-click POST has no form
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """An email's unsubscribe link: no sign-in needed (the token is signed). GET asks,
    POST (the button, or a mail client's one-click) turns that email off."""
    try:
        notify.read_unsubscribe_token(token)
    except ServiceError as error:
        return render(request, "social/unsubscribe.html", {"error": error.message}, status=400)
    if request.method == "POST":
        _user, kind = notify.unsubscribe(token)
        return render(request, "social/unsubscribe.html",
                      {"done": True, "kind": Notification.Kind(kind).label})
    return render(request, "social/unsubscribe.html", {"token": token})
