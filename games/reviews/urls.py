"""/game/<id>/review/ (ask) and /game/<id>/review/<seat>/ (read)."""

from django.urls import path, register_converter

from games.reviews import views


class SeatConverter:
    """A seat in a URL: 0–3, nothing else (no unbounded integer reaches a view)."""

    regex = "[0-3]"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SeatConverter, "seat")

urlpatterns = [
    path("game/<id:game_id>/review/", views.request_review, name="review_request"),
    path("game/<id:game_id>/review/<seat:seat>/", views.review_json, name="review_json"),
]
