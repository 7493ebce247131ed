from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Reports, blocks, sanctions, voids and the append-only moderation log.

    Depends on games (and its ratings), never the reverse: games calls it only through
    the hooks it declares (games/policy.py, games/signals.py).
    """

    name = "accounts.moderation"
    label = "moderation"
    verbose_name = "Moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.moderation import checks, receivers  # noqa: F401  (connect, register)
