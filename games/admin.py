"""Admin for the games app. The Move log and results are read-only: they are history.

Changes to game data go through services; the admin here is for looking, searching
and (in the moderation issue) calling moderation services.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import (
    ChatMessage,
    Conduct,
    Game,
    GameResult,
    Move,
    Seat,
    Series,
    SeriesVote,
    Table,
    Team,
)
from games.services import chat


class ReadOnlyAdmin(admin.ModelAdmin):
    """No add, change or delete: the rows are an append-only record."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ["position", "user", "bot_level", "joined_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "owner", "kind", "visibility", "status", "turn_seconds",
                    "series_target", "updated_at"]
    list_filter = ["kind", "visibility", "status", "turn_seconds", "series_target"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["invite_token", "created_at", "updated_at"]
    inlines = [SeatInline]
    list_select_related = ["owner"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "position", "user", "bot_level", "joined_at"]
    list_filter = ["bot_level"]
    search_fields = ["user__username", "table__name"]


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ["id", "player_low", "player_high", "created_at"]
    search_fields = ["player_low__username", "player_high__username"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    can_delete = False
    fields = ["number", "status", "dealer", "first_leader", "trump_card", "version"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "number", "status", "ranked", "loss_points_a",
                    "loss_points_b", "eggs", "goat", "started_at", "finished_at"]
    list_filter = ["status", "ranked", "goat"]
    search_fields = ["table__name"]
    inlines = [GameInline]
    date_hierarchy = "started_at"


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["id", "series", "number", "status", "dealer", "first_leader", "trump_card",
                    "version", "started_at", "finished_at"]
    list_filter = ["status", "algorithm"]
    search_fields = ["series__table__name"]
    date_hierarchy = "started_at"


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "seat", "kind", "cards", "source", "created_at"]
    list_filter = ["kind", "source"]
    search_fields = ["game__id"]


@admin.register(GameResult)
class GameResultAdmin(ReadOnlyAdmin):
    list_display = ["game", "points_a", "points_b", "tricks_a", "tricks_b", "loss_points_a",
                    "loss_points_b", "eggs", "winner", "last_taker"]
    list_filter = ["eggs", "winner"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Hiding goes through the chat service, which withdraws the lines from every open
    screen at once; the fields themselves are read-only."""

    list_display = ["table", "user", "text", "channel", "hidden", "created_at"]
    list_filter = ["hidden", "channel"]
    search_fields = ["text", "user__username", "table__name"]
    readonly_fields = ["table", "user", "text", "channel", "hidden", "created_at"]
    actions = ["hide_messages", "show_messages"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Hide the selected messages (from every open screen too)")
    def hide_messages(self, request: HttpRequest, queryset: Any) -> None:
        count = chat.set_hidden(list(queryset.values_list("pk", flat=True)), hidden=True)
        self.message_user(request, f"{count} message(s) hidden.")

    @admin.action(description="Show the selected messages again")
    def show_messages(self, request: HttpRequest, queryset: Any) -> None:
        count = chat.set_hidden(list(queryset.values_list("pk", flat=True)), hidden=False)
        self.message_user(request, f"{count} message(s) shown again.")


@admin.register(Conduct)
class ConductAdmin(ReadOnlyAdmin):
    """Timeouts and abandonments: evidence for sanctions and the ranked leaver rule."""

    list_display = ["user", "kind", "reason", "series", "game", "position", "created_at"]
    list_filter = ["kind", "reason"]
    search_fields = ["user__username"]
    date_hierarchy = "created_at"
    list_select_related = ["user"]


@admin.register(SeriesVote)
class SeriesVoteAdmin(ReadOnlyAdmin):
    list_display = ["series", "user", "kind", "created_at"]
    list_filter = ["kind"]
