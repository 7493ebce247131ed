from django.urls import path

from accounts.social import views

app_name = "social"

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/follow/", views.follow, name="follow"),
    path("friends/unfollow/", views.unfollow, name="unfollow"),
    path("friends/invite/", views.invite, name="invite"),
    path("friends/settings/", views.privacy, name="privacy"),
    path("invites/<id:invite_id>/accept/", views.accept, name="accept"),
    path("invites/<id:invite_id>/decline/", views.decline, name="decline"),
    path("invites/<id:invite_id>/withdraw/", views.withdraw, name="withdraw"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.mark_read, name="mark_read"),
    path("notifications/<id:notification_id>/open/", views.open_notification, name="open"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
