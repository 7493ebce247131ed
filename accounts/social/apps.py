from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Follows, table invitations, notifications and privacy settings."""

    name = "accounts.social"
    label = "social"
    verbose_name = "Friends and notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.social import receivers  # noqa: F401  (connect)
