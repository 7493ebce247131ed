from django.apps import AppConfig


class QueueConfig(AppConfig):
    """Ranked matchmaking: queue entries, pair invites, the matcher."""

    name = "games.queue"
    label = "queue"
    default_auto_field = "django.db.models.BigAutoField"
