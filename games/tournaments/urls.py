from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("clubs/new/", views.club_create, name="club_create"),
    path("club/<slug:slug>/", views.club_page, name="club"),
    path("club/<slug:slug>/edit/", views.club_edit, name="club_edit"),
    path("club/<slug:slug>/join/", views.club_join, name="club_join"),
    path("club/<slug:slug>/leave/", views.club_leave, name="club_leave"),
    path("club/<slug:slug>/members/decide/", views.club_decide, name="club_decide"),
    path("club/<slug:slug>/members/remove/", views.club_remove, name="club_remove"),
    path("club/<slug:slug>/members/unban/", views.club_unban, name="club_unban"),
    path("club/<slug:slug>/members/role/", views.club_role, name="club_role"),
    path("club/<slug:slug>/announce/", views.club_announce, name="club_announce"),
    path("club/<slug:slug>/seasons/new/", views.club_season_create, name="season_create"),
    path("club/<slug:slug>/season/<id:season_id>/", views.season_page, name="season"),
    path("club/<slug:slug>/tournaments/new/", views.tournament_create,
         name="tournament_create"),
    path("tournament/<id:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournament/<id:tournament_id>/live/", views.tournament_live, name="live"),
    path("tournament/<id:tournament_id>/register/", views.tournament_register,
         name="register"),
    path("tournament/<id:tournament_id>/confirm/", views.tournament_confirm, name="confirm"),
    path("tournament/<id:tournament_id>/withdraw/", views.tournament_withdraw,
         name="withdraw"),
    path("tournament/<id:tournament_id>/checkin/", views.tournament_checkin, name="checkin"),
    path("tournament/<id:tournament_id>/director/", views.tournament_director,
         name="director"),
    path("tournament/<id:tournament_id>/event/", views.tournament_event, name="event"),
    path("tournament/<id:tournament_id>/print/", views.standings_print, name="print"),
    path("tournament/<id:tournament_id>/console/", views.tournament_console, name="console"),
    path("tournament/<id:tournament_id>/console/live/", views.tournament_console_live,
         name="console_live"),
    path("tournament/<id:tournament_id>/console/act/", views.tournament_console_act,
         name="console_act"),
    path("tournament/<id:tournament_id>/standings.csv", views.standings_csv,
         name="standings_csv"),
    path("tournament/<id:tournament_id>/results.csv", views.results_csv, name="results_csv"),
    path("tournaments/banner/", views.banner, name="banner"),
]
