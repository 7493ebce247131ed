from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/", views.lobby, name="lobby"),
    path("tables/new/", views.create_table, name="create_table"),
    path("play/bots/", views.quick_play, name="quick_play"),
    path("table/<id:table_id>/", views.table_page, name="table"),
    path("table/<id:table_id>/sit/", views.sit, name="sit"),
    path("table/<id:table_id>/leave/", views.leave, name="leave"),
    path("table/<id:table_id>/bot/", views.add_bot, name="add_bot"),
    path("table/<id:table_id>/bot/remove/", views.remove_bot, name="remove_bot"),
    path("table/<id:table_id>/kick/", views.kick, name="kick"),
    path("table/<id:table_id>/start/", views.start, name="start"),
    path("table/<id:table_id>/again/", views.again, name="again"),
    path("t/<str:token>/", views.invite, name="invite"),
    path("game/<id:game_id>/replay/", views.replay, name="replay"),
    path("game/<id:game_id>/record.json", views.game_record, name="record"),
]
