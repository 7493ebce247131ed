"""URLs of moderation (included at the site root by kozel_site.urls, namespace
"moderation"): the players' side and the moderators' pages."""

from __future__ import annotations

from django.urls import path

from accounts.moderation import views

app_name = "moderation"

urlpatterns = [
    # Players.
    path("report/", views.report, name="report"),
    path("account/reports/", views.my_reports, name="my_reports"),
    path("account/blocks/", views.blocks, name="blocks"),
    path("account/standing/", views.standing, name="standing"),
    path("account/appeal/", views.appeal, name="appeal"),
    path("table/<id:table_id>/chat-mute/", views.table_mute, name="table_mute"),
    # Moderators.
    path("moderation/", views.queue, name="queue"),
    path("moderation/report/<id:report_id>/", views.report_detail, name="report_detail"),
    path("moderation/report/<id:report_id>/act/", views.act, name="act"),
    path("moderation/player/<str:username>/", views.player, name="player"),
    path("moderation/player/<str:username>/act/", views.act_on_player, name="act_on_player"),
    path("moderation/series/<id:series_id>/void/", views.void, name="void"),
    path("moderation/log/", views.log_page, name="log"),
]
