"""URLs of the account pages (included at the site root by kozel_site.urls)."""

from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("@/<str:username>", views.profile, name="profile"),
    path("@/<str:username>/games", views.game_history, name="games"),
    path("account/settings/", views.account_settings, name="settings"),
    path("account/delete/", views.delete_account, name="delete"),
    path("account/tokens/", views.api_tokens, name="tokens"),
]
