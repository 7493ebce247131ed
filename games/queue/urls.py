from django.urls import path

from games.queue import views

app_name = "queue"

urlpatterns = [
    path("play/ranked/", views.ranked, name="ranked"),
    path("play/ranked/status/", views.status, name="status"),
    path("play/ranked/join/", views.join, name="join"),
    path("play/ranked/leave/", views.leave, name="leave"),
    path("play/ranked/invite/", views.invite, name="invite"),
    path("play/ranked/invite/<id:invite_id>/accept/", views.accept, name="accept"),
    path("play/ranked/invite/<id:invite_id>/decline/", views.decline, name="decline"),
    # The casual quick match, "Play with people".
    path("play/casual/", views.casual_page, name="casual"),
    path("play/casual/status/", views.casual_status, name="casual_status"),
    path("play/casual/join/", views.casual_join, name="casual_join"),
    path("play/casual/leave/", views.leave, {"kind": "casual"}, name="casual_leave"),
    path("play/casual/bots/", views.casual_bots_now, name="casual_bots_now"),
    path("play/casual/invite/", views.casual_invite, name="casual_invite"),
    path("play/casual/invite/<id:invite_id>/accept/", views.casual_accept,
         name="casual_accept"),
    path("play/casual/invite/<id:invite_id>/decline/", views.decline, {"kind": "casual"},
         name="casual_decline"),
]
