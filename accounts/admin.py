"""Admin for profiles. Deleting an account is a service, never a raw delete."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts import services
from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """Find players by username, display name or email; filter by state and country."""

    list_display = ("user", "display_name", "country", "preferred_language", "is_deleted",
                    "joined")
    list_filter = ("is_deleted", "preferred_language", "country")
    search_fields = ("user__username", "user__email", "display_name")
    list_select_related = ("user",)
    readonly_fields = ("user", "is_deleted", "deleted_at", "updated_at")
    fields = ("user", "display_name", "bio", "country", "preferred_language", "is_deleted",
              "deleted_at", "updated_at")
    actions = ["anonymise_accounts"]
    ordering = ("-user__date_joined",)

    @admin.display(description="Joined", ordering="user__date_joined")
    def joined(self, obj: Profile) -> str:
        return obj.user.date_joined.date().isoformat()

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Every user gets a profile automatically (accounts.services.ensure_profile).
        return False

    def get_readonly_fields(
        self, request: HttpRequest, obj: Profile | None = None
    ) -> tuple[str, ...]:
        if obj is not None and obj.is_deleted:
            return tuple(self.fields)  # an anonymised profile stays blank
        return tuple(self.readonly_fields)

    def has_delete_permission(self, request: HttpRequest, obj: Profile | None = None) -> bool:
        # Deleting a profile row orphans nothing but hides the account's state; use the
        # anonymise action, which keeps every game row pointing at the user.
        return False

    def save_model(self, request: HttpRequest, obj: Profile, form: object, change: bool) -> None:
        """Edits go through the service, so the same validation applies as on the site."""
        changes = {f: getattr(obj, f) for f in services.EDITABLE_PROFILE_FIELDS}
        services.update_profile(obj.user, **changes)

    @admin.action(description="Delete (anonymise) the selected accounts")
    def anonymise_accounts(self, request: HttpRequest, queryset: QuerySet[Profile]) -> None:
        count = 0
        for profile in queryset.select_related("user"):
            if not profile.is_deleted:
                services.delete_account(profile.user)
                count += 1
        self.message_user(request, f"Anonymised {count} account(s).", messages.SUCCESS)
