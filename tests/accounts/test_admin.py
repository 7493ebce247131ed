"""The Profile admin: filters and search for staff; nobody else gets in."""

from __future__ import annotations

import pytest

from accounts import services
from accounts.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):  # type: ignore[no-untyped-def]
    return make_user("moderator", is_staff=True, is_superuser=True)


def test_changelist_filters_and_search(client, staff, alice, bob):
    services.update_profile(alice, country="LV")
    client.force_login(staff)
    assert client.get("/admin/accounts/profile/").status_code == 200
    found = client.get("/admin/accounts/profile/", {"q": "alice"}).content.decode()
    assert "alice" in found and ">bob<" not in found
    by_country = client.get("/admin/accounts/profile/", {"country__exact": "LV"})
    assert by_country.context["cl"].result_count == 1
    deleted = client.get("/admin/accounts/profile/", {"is_deleted__exact": "1"})
    assert deleted.context["cl"].result_count == 0


def test_admin_edit_goes_through_validation(client, staff, alice):
    client.force_login(staff)
    profile = Profile.objects.get(user=alice)
    url = f"/admin/accounts/profile/{profile.pk}/change/"
    response = client.post(url, {"display_name": "Al", "bio": "x" * 281, "country": "",
                                 "preferred_language": "en"})
    assert response.status_code == 200  # re-shown with the error
    assert Profile.objects.get(pk=profile.pk).display_name == ""
    ok = client.post(url, {"display_name": "Al", "bio": "", "country": "",
                           "preferred_language": "en"})
    assert ok.status_code == 302
    assert Profile.objects.get(pk=profile.pk).display_name == "Al"


def test_anonymise_action_keeps_the_user_row(client, staff, bob):
    client.force_login(staff)
    profile = Profile.objects.get(user=bob)
    client.post("/admin/accounts/profile/", {"action": "anonymise_accounts",
                                             "_selected_action": [profile.pk]})
    bob.refresh_from_db()
    assert bob.username == f"deleted-{bob.pk}"
    assert Profile.objects.get(pk=profile.pk).is_deleted


def test_charlie_and_alice_cannot_use_the_admin(client, alice):
    client.force_login(alice)
    assert client.get("/admin/accounts/profile/").status_code == 302
