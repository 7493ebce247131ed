"""The tournament banner on every page follows where the person stands: check in, checked
in, playing (the live game's own banner leads then), and between rounds the next round's
start, counted down, or who starts it."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games.tournaments import selectors
from games.tournaments.models import Match
from games.tournaments.services import rounds
from tests.tournaments.helpers import act, check_in_everybody, enter_pairs, event, play_round

pytestmark = pytest.mark.django_db


def banner_html(client, user) -> str:
    client.force_login(user)
    html = client.get("/tournaments/banner/").content.decode()
    return " ".join(html.split())


@pytest.fixture
def evening(club_cast):
    t = event(club_cast, rounds=2, break_seconds=120)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    return t


def test_check_in_then_checked_in_then_playing(client, club_cast, evening):
    match = Match.objects.get(round__tournament=evening)
    people = [u for u in club_cast.players[:4]]
    first = people[0]
    html = banner_html(client, first)
    assert 'data-banner-state="checkin"' in html and 'id="tournament-checkin"' in html
    rounds.check_in(match.pk, first)
    html = banner_html(client, first)
    assert 'data-banner-state="checked_in"' in html and "you are checked in" in html
    check_in_everybody(evening.round_set.get(number=1))
    banner, follow = selectors.banner_of(first)
    assert (banner.state, banner.round_number, follow) == ("playing", 1, True)
    page = " ".join(client.get("/").content.decode().split())
    # No more "you are checked in; go to your table" during play; the live game's
    # banner ("Your game is on") leads to the table instead.
    assert "you are checked in" not in page and "has started" not in page
    assert "Your game is on" in page


def test_between_rounds_the_banner_counts_down_to_the_next_round(client, club_cast, evening):
    play_round(evening.round_set.get(number=1))
    finished = evening.round_set.get(number=1).finished_at
    assert evening.round_set.get(number=2).status == "paired"
    html = banner_html(client, club_cast.players[0])
    assert 'data-banner-state="waiting"' in html
    starts = finished + timedelta(seconds=120)  # the event's break, by hand
    assert f"round 2 starts at {starts:%H:%M:%S} UTC" in html
    deadline = re.search(r'data-deadline="([^"]+)"', html).group(1)
    assert deadline == starts.isoformat()
    assert "you are checked in" not in html


def test_a_paused_event_says_the_director_starts_the_next_round(client, club_cast, evening):
    play_round(evening.round_set.get(number=1))
    act(evening, club_cast.director, "pause")
    html = banner_html(client, club_cast.players[0])
    assert "waiting for round 2; it starts when the director starts it" in html
    assert "data-deadline" not in html


def test_no_banner_for_someone_without_an_entry_or_after_the_event(client, club_cast, evening):
    assert selectors.banner_of(club_cast.stranger) == (None, False)
    assert "tournament-banner" not in banner_html(client, club_cast.member)


def test_the_banner_says_nothing_on_the_table_it_would_send_you_to(client, club_cast, evening):
    match = Match.objects.get(round__tournament=evening)
    first = club_cast.players[0]
    rounds.check_in(match.pk, first)
    client.force_login(first)
    table_page = client.get(f"/table/{match.table_id}/").content.decode()
    assert "data-banner-state" not in table_page
    # The banner's live fetch names the page it is shown on.
    assert "data-banner-state" not in client.get(
        f"/tournaments/banner/?path=/table/{match.table_id}/").content.decode()
    assert 'data-banner-state="checked_in"' in client.get(
        "/tournaments/banner/?path=/").content.decode()
