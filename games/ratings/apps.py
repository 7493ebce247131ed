from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """OpenSkill ratings, per-player series records, leaderboards."""

    name = "games.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.ratings import receivers  # noqa: F401  (connects series_finished)
