"""accounts.permissions: the verified-email gate for later features."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.urls import include, path
from django.views import View

from accounts.permissions import (
    VerifiedEmailRequiredMixin,
    has_verified_email,
    verified_email_required,
)

# This module doubles as the URLconf of its tests: the site plus two gated views.
pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@verified_email_required
def ranked_lobby(request):  # type: ignore[no-untyped-def]
    return HttpResponse("welcome")


class ClubView(VerifiedEmailRequiredMixin, View):
    def get(self, request):  # type: ignore[no-untyped-def]
        return HttpResponse("welcome")


urlpatterns = [
    path("ranked/", ranked_lobby),
    path("club/", ClubView.as_view()),
    path("", include("kozel_site.urls")),
]

GATED = ["/ranked/", "/club/"]


def test_has_verified_email(alice, charlie):
    assert has_verified_email(alice)
    assert not has_verified_email(charlie)
    assert not has_verified_email(AnonymousUser())


@pytest.mark.parametrize("url", GATED)
def test_alice_passes(client, alice, url):
    client.force_login(alice)
    assert client.get(url).content == b"welcome"


@pytest.mark.parametrize("url", GATED)
def test_anonymous_is_sent_to_sign_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("url", GATED)
def test_charlie_without_a_verified_email_is_refused(client, charlie, url):
    from django.core import mail

    client.force_login(charlie)
    response = client.get(url)
    assert response.status_code == 200
    assert b"Confirm your email first" in response.content
    assert b"welcome" not in response.content
    assert any("charlie@example.com" in m.to for m in mail.outbox)
