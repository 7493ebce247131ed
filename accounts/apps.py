from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Users' profiles, allauth glue and moderation."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import hooks

        hooks.connect()
