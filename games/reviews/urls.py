"""/game/<id>/review/ (ask) and /game/<id>/review/<seat>/ (read)."""

from django.urls import path

from games.reviews import views

urlpatterns = [
    path("game/<id:game_id>/review/", views.request_review, name="review_request"),
    path("game/<id:game_id>/review/<int:seat>/", views.review_json, name="review_json"),
]
