"""The tournament page says the check-in window and the round time limit in minutes when
each is a whole number of them ("Check-in 20 min", "round time limit 30 min", the form
asks minutes), else in seconds ("Check-in 90 s"), in every language
(templates/tournaments/tournament.html, Tournament.checkin_minutes and round_minutes)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.tournaments.helpers import event


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """A page requested in another language leaves it active in the test's thread (the
    locale middleware activates, nothing deactivates; tests/i18n/conftest.py does the
    same): the next test, of any suite, gets the site's default language again."""
    yield
    translation.deactivate()


def times(t, language: str) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(f"/tournament/{t.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    found = re.search(r'<p id="tournament-times">(.*?)</p>', html, re.S)
    assert found, "no check-in line on the tournament page"
    return found.group(1).strip()


@pytest.mark.parametrize(("seconds", "minutes"), [(60, 1), (1200, 20), (3600, 60)])
def test_a_whole_number_of_minutes_reads_in_minutes(club_cast, seconds, minutes):
    t = event(club_cast, checkin_seconds=seconds, round_seconds=7200)
    assert t.checkin_minutes == minutes
    assert times(t, "en") == f"Check-in {minutes} min · round time limit 120 min"
    assert times(t, "ru") == f"Отметка {minutes} мин · лимит тура 120 мин"
    assert times(t, "id") == f"Hadir {minutes} mnt · batas babak 120 mnt"


def test_other_windows_read_in_seconds(club_cast):
    t = event(club_cast, checkin_seconds=90)
    assert t.checkin_minutes is None
    assert times(t, "en") == "Check-in 90 s · round time limit 30 min"
    assert times(t, "ru") == "Отметка 90 с · лимит тура 30 мин"


def test_a_round_limit_of_odd_seconds_reads_in_seconds(club_cast):
    t = event(club_cast, checkin_seconds=90, round_seconds=1830)
    assert t.round_minutes is None
    assert times(t, "en") == "Check-in 90 s · round time limit 1830 s"


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES if code != "en"])
def test_the_minutes_are_translated_in_every_language(club_cast, language):
    t = event(club_cast, checkin_seconds=1200)
    text = times(t, language)
    assert "20" in text and "Check-in" not in text and "round time limit" not in text
