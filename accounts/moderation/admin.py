"""Admin for moderation: reading, and actions that call the services. The moderation
log offers no add, change or delete to anyone; sanctions and reports are changed only
through the services (which log every change), never by editing a row."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.http import AuthenticatedHttpRequest
from accounts.moderation.models import Block, ModerationLog, Report, Sanction, TableChatMute
from accounts.moderation.services import reports as report_service
from accounts.moderation.services import sanctions as sanction_service
from accounts.moderation.services import voids as void_service
from games.admin import SeriesAdmin
from games.errors import ServiceError
from games.models import Series


class _NoWrites(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ModerationLog)
class ModerationLogAdmin(_NoWrites):
    """Append-only: no add, no change, no delete, for superusers too."""

    list_display = ["created_at", "actor", "action", "subject", "target", "reason"]
    list_filter = ["action"]
    search_fields = ["subject__username", "actor__username", "reason", "target"]
    date_hierarchy = "created_at"
    list_select_related = ["actor", "subject"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even the stock "delete selected"


@admin.register(Report)
class ReportAdmin(_NoWrites):
    list_display = ["id", "created_at", "reported", "category", "source", "status", "reporter"]
    list_filter = ["status", "category", "source"]
    search_fields = ["reported__username", "reporter__username", "text"]
    list_select_related = ["reported", "reporter"]
    actions = ["close_reports"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        found = super().get_actions(request)
        found.pop("delete_selected", None)
        if not request.user.has_perm("moderation.change_report"):
            found.pop("close_reports", None)
        return found

    @admin.action(description=_("Close the selected reports (nothing to act on)"))
    def close_reports(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Report]
                      ) -> None:
        closed = 0
        for report in queryset.filter(status=Report.Status.OPEN):
            try:
                report_service.close_report(request.user, report.pk, "closed from the admin")
                closed += 1
            except ServiceError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        self.message_user(request, ngettext("Closed %(n)s report.", "Closed %(n)s reports.",
                                            closed) % {"n": closed}, messages.SUCCESS)


@admin.register(Sanction)
class SanctionAdmin(_NoWrites):
    list_display = ["id", "user", "kind", "starts_at", "ends_at", "lifted_at", "created_by",
                    "reason"]
    list_filter = ["kind"]
    search_fields = ["user__username", "reason"]
    list_select_related = ["user", "created_by"]
    actions = ["lift_sanctions"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        found = super().get_actions(request)
        found.pop("delete_selected", None)
        if not request.user.has_perm("moderation.add_sanction"):
            found.pop("lift_sanctions", None)
        return found

    @admin.action(description=_("Lift the selected sanctions"))
    def lift_sanctions(self, request: HttpRequest, queryset: QuerySet[Sanction]) -> None:
        lifted = 0
        for sanction in queryset:
            try:
                sanction_service.lift(request.user, sanction.pk, "lifted from the admin")
                lifted += 1
            except ServiceError as error:
                self.message_user(request, f"#{sanction.pk}: {error.message}", messages.ERROR)
        self.message_user(request, ngettext("Lifted %(n)s sanction.", "Lifted %(n)s sanctions.",
                                            lifted) % {"n": lifted}, messages.SUCCESS)


@admin.register(Block)
class BlockAdmin(_NoWrites):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocked__username"]


@admin.register(TableChatMute)
class TableChatMuteAdmin(_NoWrites):
    list_display = ["user", "table", "created_at"]


# The games app's read-only series admin, with moderation's one write on it: voiding a
# series with a reason (games never imports moderation, so the action is added here).
admin.site.unregister(Series)


@admin.register(Series)
class VoidableSeriesAdmin(SeriesAdmin):
    actions = ["void_series"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        found = super().get_actions(request)
        found.pop("delete_selected", None)
        if not request.user.has_perm(void_service.VOID_PERM):
            found.pop("void_series", None)
        return found

    @admin.action(description=_("Void the selected series (with a reason)"))
    def void_series(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Series]
                    ) -> HttpResponse | None:
        """First a page that asks why (the reason goes to the log and the players), then
        each series through the void service; a refusal names the series."""
        if request.POST.get("apply") != "1":
            return TemplateResponse(request, "admin/moderation/void_series.html", {
                **self.admin_site.each_context(request), "series": queryset,
                "title": _("Void series"), "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME})
        voided = 0
        for series in queryset:
            try:
                void_service.void_series(request.user, series.pk, request.POST.get("reason"))
                voided += 1
            except ServiceError as error:
                self.message_user(request, f"#{series.pk}: {error.message}", messages.ERROR)
        self.message_user(request, ngettext("Voided %(n)s series.", "Voided %(n)s series.",
                                            voided) % {"n": voided}, messages.SUCCESS)
        return None
