"""The home page shows life on a young site: games being played at public tables (with
their teams and score, and a Watch link; never a private table), the next club events
(club and start time), the top players (provisional ones filling in, marked), a Learn to
play tile; with nothing live it says so and offers Play now and the lessons. Its query
count does not grow with the number of tables, events or players."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import strip_tags

from games.models import Series, Table
from games.services import series as series_service
from games.services import tables
from games.tournaments.models import Club, Tournament
from tests.ratings.factories import make_user
from tests.ratings.test_leaderboard import rated

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return " ".join(strip_tags(html).split())


def section(html: str, element_id: str) -> str:
    """The text of the home page's section whose heading has ``element_id``."""
    found = re.search(rf'<section [^>]*aria-labelledby="{element_id}"[^>]*>(.*?)</section>',
                      html, re.S)
    assert found, element_id
    return found[1]


def live_table(owner, name: str, *, visibility: str = Table.Visibility.PUBLIC,
               people=(), loss=(0, 0)) -> Table:
    """A table with ``people`` at seats 0.., bots in the rest, its series started; the
    series' loss points set to ``loss`` (A, B) as if games had been played."""
    table = tables.create_table(owner, tables.TableSettings(name=name, visibility=visibility))
    for position, person in enumerate(people):
        tables.take_seat(table.pk, person, position)
    for position in range(len(people), 4):
        tables.add_bot(table.pk, owner, position, "casual")
    series = series_service.start_series(table.pk, owner)
    Series.objects.filter(pk=series.pk).update(loss_points_a=loss[0], loss_points_b=loss[1])
    return table


def test_a_live_public_table_is_listed_with_its_teams_score_and_a_watch_link(client):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = live_table(alice, "Evening game", people=(alice, bob, carol), loss=(4, 8))
    live_table(alice, "Secret room", visibility=Table.Visibility.PRIVATE, people=(alice,))
    html = client.get("/").content.decode()
    live = section(html, "live-title")
    # R1: seats 0 and 2 (alice, carol) are team A, seats 1 and 3 (bob, a bot) team B.
    line = re.search(rf'<li data-table="{table.pk}">(.*?)</li>', live, re.S)
    assert line, live
    assert re.search(r"alice &amp; carol\s*</span>\s*<strong[^>]*>4 – 8</strong>\s*"
                     r'<span class="team-B">bob &amp; ', line[1]), line[1]
    assert "loss points, the goat at 12" in text(line[1])
    assert f'href="/table/{table.pk}/">Watch</a>' in line[1]
    assert "Secret room" not in html, "a private table is never listed"
    assert "No game is being played right now" not in html


def test_nothing_live_says_so_and_offers_play_now_and_the_lessons(client):
    make_user("alice")
    html = client.get("/").content.decode()
    live = section(html, "live-title")
    assert "No game is being played right now." in text(live)
    assert 'action="/play/bots/"' in live
    assert re.search(r'<button type="submit" class="primary">Start a game against bots</button>',
                     live)
    assert 'href="/learn/">Learn to play</a>' in live
    learn = section(html, "learn-title")
    assert 'href="/learn/"' in learn and "Start the lessons" in learn


def test_the_next_public_club_events_soonest_first_with_club_and_start_time(client):
    owner = make_user("olga")
    now = timezone.now()
    club = Club.objects.create(name="Friday Goats", slug="friday-goats", owner=owner)
    closed_club = Club.objects.create(name="Hidden Den", slug="den", owner=owner,
                                      join_policy=Club.JoinPolicy.INVITE)

    def event(name, club=club, status=Tournament.Status.REGISTRATION, starts=None):
        return Tournament.objects.create(club=club, name=name, kind="pairs", format="swiss",
                                         status=status, starts_at=starts, created_by=owner)

    later = event("Later cup", starts=now + timedelta(days=3))
    sooner = event("Sooner cup", starts=now + timedelta(hours=2))
    undated = event("Some day cup")
    event("Members only", club=closed_club, starts=now + timedelta(hours=1))
    event("Running cup", status=Tournament.Status.RUNNING, starts=now - timedelta(hours=1))
    event("Old cup", status=Tournament.Status.FINISHED, starts=now - timedelta(days=9))
    events = section(client.get("/").content.decode(), "events-title")
    listed = [int(pk) for pk in re.findall(r'data-tournament="(\d+)"', events)]
    assert listed == [sooner.pk, later.pk, undated.pk]
    assert 'href="/club/friday-goats/">Friday Goats</a>' in events
    stamp = (sooner.starts_at).strftime("%Y-%m-%dT%H:%MZ")
    assert f'<time datetime="{stamp}">' in events
    assert "start time to be announced" in text(events)


def test_no_event_yet_points_to_the_clubs(client):
    events = section(client.get("/").content.decode(), "events-title")
    assert "No club event is announced yet." in text(events)
    assert 'href="/clubs/"' in events


def test_top_players_are_filled_with_provisional_ones_marked(client):
    rated("settled", mu=30.0, sigma=3.0, days_ago=0)  # qualifies: 21 → 1525
    rated("rising", mu=30.0, sigma=5.0, series_rated=6, days_ago=0)  # 15 → 1375
    rated("newish", mu=28.0, sigma=6.0, series_rated=2, days_ago=0)  # 10 → 1250
    top = section(client.get("/").content.decode(), "top-title")
    rows = re.findall(r'<li data-provisional="([01])">.*?<span class="player-name">([^<]+)<'
                      r"/span></a> <span class=\"muted\">(\d+)</span>", top, re.S)
    assert rows == [("0", "settled", "1525"), ("1", "rising", "1375"), ("1", "newish", "1250")]
    assert top.count("badge provisional") == 2
    assert 'href="/leaderboard/"' in top


def test_the_home_page_reads_a_bounded_number_of_queries(client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get("/").status_code == 200
        return len(seen)

    owner = make_user("owner")
    club = Club.objects.create(name="Club", slug="club", owner=owner)
    client.force_login(owner)

    def grow(n: int) -> None:
        for i in range(n):
            person = make_user(f"p{n}_{i}")
            live_table(person, f"t{n}_{i}", people=(person,))
            tables.create_table(person, tables.TableSettings(name=f"open{n}_{i}"))
            Tournament.objects.create(club=club, name=f"cup{n}_{i}", kind="pairs",
                                      format="swiss", created_by=owner)
            rated(f"r{n}_{i}", mu=25.0 + i, sigma=5.0, series_rated=3, days_ago=0)

    grow(1)
    few = queries()
    grow(6)
    assert queries() == few
    assert few <= 30, few
