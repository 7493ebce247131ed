from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Tables, play, series, ratings and tournaments."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import checks  # noqa: F401  (registers system checks)
