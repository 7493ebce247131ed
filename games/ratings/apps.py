from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """OpenSkill ratings, per-player series records, leaderboards."""

    name = "games.ratings"
    label = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import policy
        from games.ratings import receivers  # noqa: F401  (connects series_finished)
        from games.ratings.selectors import series_rating_changes

        # The series-end card shows each player's rating change (games/snapshot.py).
        policy.register_series_ratings(series_rating_changes)
