"""The start time is picked on the director's clock: the form carries their time zone
(filled in by the page) and the site stores the instant in UTC; an unknown zone is
refused and creates nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORM = {"name": "Cup", "format": "swiss", "rounds": 3, "target": 12, "turn_seconds": "",
        "checkin_minutes": 5, "round_minutes": 60}


def create(client, club_cast, **extra):
    client.force_login(club_cast.director)
    return client.post("/club/friday-goats/tournaments/new/", {**FORM, **extra})


def test_a_start_time_in_tallinn_is_stored_in_utc(client, club_cast):
    # 31 December, 19:00 in Tallinn (EET, UTC+2 in winter) is 17:00 UTC.
    create(client, club_cast, starts_at="2026-12-31T19:00", time_zone="Europe/Tallinn")
    assert Tournament.objects.get().starts_at == datetime(2026, 12, 31, 17, 0, tzinfo=UTC)


def test_summer_time_is_taken_into_account(client, club_cast):
    # 1 July, 19:00 in Tallinn (EEST, UTC+3) is 16:00 UTC.
    create(client, club_cast, starts_at="2027-07-01T19:00", time_zone="Europe/Tallinn")
    assert Tournament.objects.get().starts_at == datetime(2027, 7, 1, 16, 0, tzinfo=UTC)


def test_without_a_zone_the_time_is_utc(client, club_cast):
    create(client, club_cast, starts_at="2026-12-31T19:00")
    assert Tournament.objects.get().starts_at == datetime(2026, 12, 31, 19, 0, tzinfo=UTC)


def test_an_unknown_zone_is_refused_and_creates_nothing(client, club_cast):
    response = create(client, club_cast, starts_at="2026-12-31T19:00", time_zone="Mars/Base")
    assert response.status_code == 400
    assert "Unknown time zone" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_names_the_directors_time_zone(client, club_cast):
    client.force_login(club_cast.director)
    html = client.get("/club/friday-goats/tournaments/new/").content.decode()
    assert 'name="time_zone"' in html and 'id="time-zone-name"' in html
    assert "js/tournaments/timezone.js" in html
