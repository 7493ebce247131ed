"""URL configuration of the whole site."""

from __future__ import annotations

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from accounts import language
from accounts import views as account_views
from games.ratings import views as rating_views
from games.tournaments import views as tournament_views
from kozel_site import views
from kozel_site.api.main import api
from kozel_site.i18n import CatalogView

# The admin's own sign-in form had neither the site's rate limits nor its lockout: the
# admin signs in through the site's sign-in instead (allauth's decorator sends a
# visitor there and refuses a signed-in person who is not staff).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("", views.home, name="home"),
    path("online-now/", views.online_now, name="online_now"),
    path("live-now/", views.live_tables, name="live_tables"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # The public read-only API and its OpenAPI schema and docs (/api/docs).
    path("api/", api.urls),
    # Languages: the footer's switcher and the JavaScript's catalog.
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("jsi18n/", CatalogView.as_view(), name="jsi18n"),
    # allauth's sign-up and sign-in, open to a guest as well (accounts/guests.py).
    path("accounts/signup/", account_views.guest_aware_signup),
    path("accounts/login/", account_views.guest_aware_login),
    path("accounts/", include("allauth.urls")),
    path("", include("games.urls")),
    path("", include("games.queue.urls")),  # /play/ranked/
    path("rules/", views.rules, name="rules"),
    path("", include("games.lessons.urls")),  # /learn/, /learn/<slug>/
    path("", include("games.reviews.urls")),  # /game/<id>/review/
    path("leaderboard/", rating_views.leaderboard, name="leaderboard"),
    path("clubs/", tournament_views.club_list, name="clubs"),
    path("", include("games.tournaments.urls")),  # /club/<slug>/, /tournament/<id>/
    # /@/<username>, /account/settings/, /account/delete/ (namespace "accounts").
    path("", include("accounts.urls")),
    # /report/, /account/reports/, /account/blocks/, /moderation/....
    path("", include("accounts.moderation.urls")),
    # /friends/, /notifications/, /invites/<id>/....
    path("", include("accounts.social.urls")),
]
