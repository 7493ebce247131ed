"""Moderation pages: the players' side (report, my reports, blocks, standing and appeal,
a table's chat mute) and the moderators' (queue, report with its context, a player's
history, actions, the log). Each view parses, authorizes, calls one service or
selector, and renders; a refused action shows the service's reason and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.moderation import selectors
from accounts.moderation.models import ModerationLog, Report
from accounts.moderation.services import blocks as block_service
from accounts.moderation.services import entries as entry_service
from accounts.moderation.services import reports as report_service
from accounts.moderation.services import sanctions as sanction_service
from accounts.moderation.services import voids as void_service
from games import selectors as game_selectors
from games.errors import ServiceError
from games.models import Series
from kozel_site import ids

CATEGORY_CHOICES = [(c, Report.Category(c).label) for c in report_service.PLAYER_CATEGORIES]
ACTIONS = [
    ("close", gettext_lazy("Close: nothing to act on")),
    ("warn", gettext_lazy("Warn")),
    ("mute", gettext_lazy("Mute in chat")),
    ("ban", gettext_lazy("Ban from ranked")),
    ("suspend", gettext_lazy("Suspend the account")),
    ("rename", gettext_lazy("Force a rename")),
    ("hide", gettext_lazy("Hide the reported chat line")),
    ("void", gettext_lazy("Void the series (roll its ratings back)")),
    ("mark_cheating", gettext_lazy("Mark cheating: void rated series in a window")),
    ("mark_boosting", gettext_lazy("Mark boosting: void rated series in a window")),
    ("disqualify", gettext_lazy("Disqualify from a club event")),
]
# How long a mute, ban or suspension lasts: always chosen, never an empty field. Values
# in hours; a ban or a suspension takes whole days; only a suspension is permanent.
DURATIONS = [
    ("1", gettext_lazy("1 hour")), ("3", gettext_lazy("3 hours")),
    ("12", gettext_lazy("12 hours")), ("24", gettext_lazy("1 day")),
    ("72", gettext_lazy("3 days")), ("168", gettext_lazy("7 days")),
    ("720", gettext_lazy("30 days")), ("2160", gettext_lazy("90 days")),
    ("8760", gettext_lazy("365 days")),
    (sanction_service.PERMANENT, gettext_lazy("Permanent (suspension only)")),
]


def _duration(value: Any, unit: str) -> Any:
    """The chosen duration in ``unit`` ("hours" or "days") for the service, which
    validates it: a value not on the list goes through as is, and hours that are not
    whole days for a ban or suspension as None, both refused there with a clear
    message (never read as another duration)."""
    if value == sanction_service.PERMANENT:
        return value
    if not isinstance(value, str) or not value.isdecimal() or len(value) > 6:
        return value
    hours = int(value)
    if unit == "hours":
        return hours
    return hours // 24 if hours % 24 == 0 else None


def _invited(request: HttpRequest) -> set[int]:
    return set(request.session.get("invited_tables", []))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


_View = TypeVar("_View", bound=Callable[..., HttpResponse])


def moderator_required(perm: str) -> Callable[[_View], _View]:
    """Signed in (else the sign-in page) and holding ``perm`` (else 403)."""
    def wrap(view: _View) -> _View:
        return login_required(permission_required(perm, raise_exception=True)(view))
    return wrap


# --- players ------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def report(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/report/``: report a player (from a seat, a chat line, a profile, a series)."""
    data = request.POST if request.method == "POST" else request.GET
    where = {k: data.get(k) or None for k in ("table", "series", "game", "message")}
    reported = selectors.user_by_name(data.get("user"))
    if request.method == "POST":
        try:
            filed = report_service.file_report(
                request.user, data.get("user"), data.get("category"), data.get("text", ""),
                source=data.get("source") or Report.Source.PROFILE, table_id=where["table"],
                series_id=where["series"], game_id=where["game"],
                message_id=where["message"], invited=_invited(request))
            if data.get("block") == "1":
                block_service.block(request.user, filed.reported)
        except ServiceError as error:
            if _wants_json(request):
                return JsonResponse({"ok": False, "code": error.code,
                                     "message": error.message}, status=400)
            messages.error(request, error.message)
        else:
            text = (_("Thanks: moderators will look at your report. You can follow its "
                    "status under Your reports."))
            if _wants_json(request):
                return JsonResponse({"ok": True, "id": filed.pk, "message": text})
            messages.success(request, text)
            return redirect("moderation:my_reports")
    people: list[Any] = []
    series = None
    if where["series"]:
        series = Series.objects.filter(pk=ids.parse_id(where["series"])).first()
        if series is not None and game_selectors.may_view_table(series.table, request.user,
                                                                _invited(request)):
            people = [s for s in game_selectors.roster(series)
                      if s.person_id and s.person_id != request.user.pk]
        else:
            series = None
    return render(request, "moderation/report.html", {
        "reported": reported, "where": where, "series": series, "people": people,
        "categories": CATEGORY_CHOICES, "source": data.get("source") or "profile",
        "text": data.get("text", ""), "category": data.get("category", ""),
    })


@login_required
@require_GET
def my_reports(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/reports/``: your reports and their status, never what was done."""
    return render(request, "moderation/my_reports.html", {
        "reports": selectors.reports_filed_by(request.user),
        "appeals": selectors.appeals_by(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def blocks(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/blocks/``: whom you blocked; block or unblock by username."""
    if request.method == "POST":
        name = request.POST.get("user", "")
        try:
            if request.POST.get("action") == "unblock":
                block_service.unblock(request.user, name)
                messages.success(request, _("You unblocked %(name)s.") % {"name": name})
            elif request.POST.get("action") == "block":
                block_service.block(request.user, name)
                messages.success(request, _("You blocked %(name)s: you will not see their chat, "
                                            "and they cannot invite you or join your private "
                                            "tables.") % {"name": name})
            else:
                messages.error(request, _("Block or unblock?"))
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("moderation:blocks")
    rows = request.user.blocks.select_related("blocked__profile").order_by("-created_at")
    return render(request, "moderation/blocks.html", {"rows": rows})


@login_required
@require_GET
def standing(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/account/standing/``: every sanction in force, why and until when, and how to
    appeal. A suspended account sees only this page (middleware)."""
    notices = selectors.notices_for(request.user)
    open_appeals = set(Report.objects.filter(reporter=request.user,
                                             category=Report.Category.APPEAL,
                                             status=Report.Status.OPEN)
                       .values_list("sanction_id", flat=True))
    return render(request, "moderation/standing.html", {
        "notices": notices, "open_appeals": open_appeals,
        "appeals": selectors.appeals_by(request.user)})


@login_required
@require_POST
def appeal(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Appeal a sanction: it becomes a report for moderators."""
    try:
        report_service.appeal(request.user, request.POST.get("sanction"),
                              request.POST.get("text", ""))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your appeal is with the moderators. You will see its "
                                  "status here."))
    return redirect("moderation:standing")


@login_required
@require_http_methods(["GET", "POST"])
def table_mute(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """Whether you muted this table's chat (GET), or mute or unmute it (POST); JSON for
    the table page."""
    if request.method == "GET":
        return JsonResponse({"ok": True, "muted": selectors.table_muted(request.user,
                                                                         table_id)})
    try:
        muted = block_service.set_table_mute(request.user, table_id,
                                             request.POST.get("muted") == "1",
                                             invited=_invited(request))
    except ServiceError as error:
        return JsonResponse({"ok": False, "message": error.message}, status=400)
    return JsonResponse({"ok": True, "muted": muted})


# --- moderators ----------------------------------------------------------------------------

@moderator_required("moderation.view_report")
@require_GET
def queue(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/moderation/``: open reports, most-reported players first, then newest;
    ``?player=name`` opens that player's history."""
    if request.GET.get("player"):
        found = selectors.user_by_name(request.GET["player"])
        if found is not None:
            return redirect("moderation:player", username=found.get_username())
        messages.error(request, _("There is no such player."))
    return render(request, "moderation/queue.html", {
        "rows": selectors.report_queue(), "unconfirmed": selectors.unconfirmed_sanctions()})


def _report_or_404(report_id: int) -> Report:
    found = (Report.objects.select_related("reporter__profile", "reported__profile", "table",
                                           "series", "chat_message", "sanction")
             .filter(pk=report_id).first())
    if found is None:
        raise Http404(_("No such report."))
    return found


@moderator_required("moderation.view_report")
@require_GET
def report_detail(request: AuthenticatedHttpRequest, report_id: int) -> HttpResponse:
    """One report with its context: the chat around the line, the replay, the conduct
    record, earlier reports and sanctions, and the actions."""
    found = _report_or_404(report_id)
    is_appeal = found.category == Report.Category.APPEAL
    author_id = found.sanction.created_by_id if found.sanction is not None else None
    return render(request, "moderation/report_detail.html", {
        "report": found, "history": selectors.user_history(found.reported),
        "is_appeal": is_appeal, "durations": DURATIONS,
        "own_sanction": is_appeal and author_id == request.user.pk,
        "for_admin": is_appeal and not selectors.other_judges_exist(author_id),
        "actions": [] if is_appeal else [a for a in ACTIONS if a[0] != "disqualify"],
        "may_act": request.user.has_perm("moderation.add_sanction"),
        "may_void": request.user.has_perm("moderation.void_series"),
        "others": Report.objects.filter(reported=found.reported, status=Report.Status.OPEN)
        .exclude(pk=found.pk).count()})


def _run_action(request: AuthenticatedHttpRequest, user: User, report: Report | None) -> str:
    """Carry out the posted action; returns what to tell the moderator."""
    data = request.POST
    action = data.get("action")
    reason = data.get("reason", "")
    ids_ = [report.pk] if report is not None else None
    confirm = data.get("confirm") == "1"
    if action == "close":
        if report is None:
            raise PermissionDenied
        report_service.close_report(request.user, report.pk, reason)
        return _("Report closed.")
    if action in ("grant", "refuse"):
        if report is None:
            raise PermissionDenied
        report_service.decide_appeal(request.user, report.pk, action == "grant", reason)
        return _("Appeal granted: the sanction is lifted.") if action == "grant" \
            else _("Appeal refused.")
    if action == "warn":
        sanction_service.warn(request.user, user, reason, ids_, confirm=confirm)
        return _("Warned.")
    if action == "mute":
        sanction_service.mute_chat(request.user, user, _duration(data.get("duration"), "hours"),
                                   reason, ids_, confirm=confirm)
        return _("Muted in chat.")
    if action == "ban":
        sanction_service.ban_ranked(request.user, user, _duration(data.get("duration"), "days"),
                                    reason, ids_, confirm=confirm)
        return _("Banned from ranked.")
    if action == "suspend":
        sanction_service.suspend(request.user, user, _duration(data.get("duration"), "days"),
                                 reason, ids_, confirm=confirm)
        return _("Suspended.")
    if action == "rename":
        sanction_service.force_rename(request.user, user, reason, ids_, confirm=confirm)
        return _("Renamed.")
    if action == "hide":
        message_id = data.get("message") or (report.chat_message_id if report else None)
        sanction_service.hide_message(request.user, message_id, reason, ids_)
        return _("Chat line hidden.")
    if action == "void":
        series_id = data.get("series") or (report.series_id if report else None)
        void_service.void_series(request.user, series_id, reason, ids_, subject=user)
        return _("Series voided; its ratings are being rolled back.")
    if action in ("mark_cheating", "mark_boosting"):
        _mark, voided = void_service.mark_account(
            request.user, user, action.removeprefix("mark_"), data.get("since"),
            data.get("until"), reason, ids_, confirm=confirm)
        return ngettext("Marked; %(n)s rated series voided.",
                        "Marked; %(n)s rated series voided.", len(voided)) % {"n": len(voided)}
    if action == "disqualify":
        entry_service.disqualify_entry(request.user, data.get("entry"), reason, subject=user)
        return _("Entry disqualified.")
    if action == "lift":
        sanction_service.lift(request.user, data.get("sanction"), reason)
        return _("Sanction lifted.")
    if action == "confirm_sanction":
        sanction_service.confirm(request.user, data.get("sanction"), reason)
        return _("Sanction confirmed.")
    raise ServiceError(_("Choose an action."))


@moderator_required("moderation.view_report")
@require_POST
def act(request: AuthenticatedHttpRequest, report_id: int) -> HttpResponse:
    found = _report_or_404(report_id)
    try:
        messages.success(request, _run_action(request, found.reported, found))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("moderation:report_detail", report_id=found.pk)


def _player_or_404(username: str) -> User:
    user = selectors.user_by_name(username)
    if user is None:
        raise Http404(_("No such player."))
    return user


@moderator_required("moderation.view_sanction")
@require_GET
def player(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """A player's moderation history: sanctions, reports, conduct, log."""
    user = _player_or_404(username)
    return render(request, "moderation/player.html", {
        "history": selectors.user_history(user), "actions": ACTIONS[1:],
        "durations": DURATIONS, "series_list": selectors.voidable_series_of(user),
        "entries": selectors.live_entries_of(user),
        "may_act": request.user.has_perm("moderation.add_sanction"),
        "may_void": request.user.has_perm("moderation.void_series")})


@moderator_required("moderation.view_sanction")
@require_POST
def act_on_player(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    user = _player_or_404(username)
    try:
        messages.success(request, _run_action(request, user, None))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("moderation:player", username=user.get_username())


@moderator_required("moderation.void_series")
@require_POST
def void(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    try:
        void_service.void_series(request.user, series_id, request.POST.get("reason", ""))
        messages.success(request, _("Series voided; its ratings are being rolled back."))
    except ServiceError as error:
        messages.error(request, error.message)
    back = str(request.POST.get("next", ""))
    # Back to the page the form was on (a moderation page or a game's replay), never
    # to another site.
    safe = back.startswith(("/moderation/", "/game/")) and "//" not in back
    return redirect(back if safe else "moderation:queue")


@moderator_required("moderation.view_moderationlog")
@require_GET
def log_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/moderation/log/``: every action, newest first (read only, like the log)."""
    rows = ModerationLog.objects.select_related("actor", "subject")
    page = Paginator(rows, 50).get_page(request.GET.get("page"))
    return render(request, "moderation/log.html", {"page": page})

