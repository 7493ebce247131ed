from django.urls import path

from games.queue import views

app_name = "queue"

urlpatterns = [
    path("play/ranked/", views.ranked, name="ranked"),
    path("play/ranked/status/", views.status, name="status"),
    path("play/ranked/join/", views.join, name="join"),
    path("play/ranked/leave/", views.leave, name="leave"),
    path("play/ranked/invite/", views.invite, name="invite"),
    path("play/ranked/invite/<int:invite_id>/accept/", views.accept, name="accept"),
    path("play/ranked/invite/<int:invite_id>/decline/", views.decline, name="decline"),
]
