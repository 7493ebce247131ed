from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    """The strong bot's reviews of finished games."""

    name = "games.reviews"
    label = "reviews"
    default_auto_field = "django.db.models.BigAutoField"
