"""Events worth returning to: texts shown escaped, recurrence at the club's local hour
across a DST change, seasons and their table, the printable standings, co-directors."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from games.errors import (
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TableStateError,
)
from games.tournaments import season_points, tasks
from games.tournaments.event_reads import season_table
from games.tournaments.models import AuditEntry, Club, Round, Season, Tournament
from games.tournaments.services import (
    codirectors,
    details,
    recurrence,
    seasons,
)
from games.tournaments.services.texts import EventDetails
from tests.tournaments.helpers import act, enter_pairs, event, play_round

pytestmark = pytest.mark.django_db


def _page(client_user, t: Tournament) -> str:
    client = Client()
    if client_user is not None:
        client.force_login(client_user)
    return client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()


# --- description, rules, prizes -----------------------------------------------------------


def test_event_texts_are_shown_escaped_with_their_line_breaks(club_cast):
    t = event(club_cast, details=EventDetails(
        description="Thursday Swiss.\r\nBring a friend.",
        rules_text="R18 to 12.\n<script>alert(1)</script>", prizes="1st: a goat mug"))
    html = _page(None, t)
    assert "Thursday Swiss.<br>Bring a friend." in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    assert "1st: a goat mug" in html


def test_a_director_edits_the_texts_and_bad_texts_change_nothing(club_cast):
    t = event(club_cast)
    details.update_details(t.pk, club_cast.director, EventDetails(prizes="A cake"))
    t.refresh_from_db()
    assert t.prizes == "A cake"
    for bad in (EventDetails(description="x" * 4001), EventDetails(rules_text="a\u200bb")):
        with pytest.raises(InvalidRequestError):
            details.update_details(t.pk, club_cast.director, bad)
    with pytest.raises(PermissionDeniedError):
        details.update_details(t.pk, club_cast.member, EventDetails(prizes="Nothing"))
    t.refresh_from_db()
    assert (t.description, t.rules_text, t.prizes) == ("", "", "A cake")


# --- recurrence ---------------------------------------------------------------------------


def _tallinn(club: Club) -> None:
    Club.objects.filter(pk=club.pk).update(time_zone="Europe/Tallinn")


def test_next_start_keeps_the_local_hour_across_the_dst_change():
    # Thursday 22 Oct 2026 19:00 in Tallinn is summer time (UTC+3): 16:00 UTC. Summer time
    # ends on Sunday 25 Oct; Thursday 29 Oct 19:00 is winter time (UTC+2): 17:00 UTC.
    first = datetime(2026, 10, 22, 16, 0, tzinfo=UTC)
    assert recurrence.next_start(first, 1, "Europe/Tallinn") == datetime(
        2026, 10, 29, 17, 0, tzinfo=UTC)
    # And back in spring: Thursday 26 Mar 2026 19:00 EET (17:00 UTC) -> 2 Apr 19:00 EEST.
    assert recurrence.next_start(datetime(2026, 3, 26, 17, 0, tzinfo=UTC), 1,
                                 "Europe/Tallinn") == datetime(2026, 4, 2, 16, 0, tzinfo=UTC)
    # UTC has no DST: exactly a week.
    assert recurrence.next_start(first, 2, "UTC") == datetime(2026, 11, 5, 16, 0, tzinfo=UTC)


def test_a_finished_recurring_event_gets_its_next_occurrence_once(
        club_cast, django_capture_on_commit_callbacks):
    _tallinn(club_cast.club)
    # Thursday 28 Oct 2027 19:00 in Tallinn (summer time, 16:00 UTC), played early by the
    # director; summer time ends on Sunday 31 Oct, so the next Thursday's 19:00 is 17:00 UTC.
    t = event(club_cast, rounds=1, details=EventDetails(description="Every Thursday",
                                                        prizes="A mug"))
    Tournament.objects.filter(pk=t.pk).update(starts_at=datetime(2027, 10, 28, 16, 0,
                                                                 tzinfo=UTC))
    season = seasons.create_season(club_cast.club.pk, club_cast.director, "Autumn 2026")
    seasons.set_season(t.pk, club_cast.director, str(season.pk))
    codirectors.add_co_director(t.pk, club_cast.director, club_cast.member.username)
    assert "repeats every week" in recurrence.set_recurrence(t.pk, club_cast.director, "1")
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    with django_capture_on_commit_callbacks(execute=True):
        play_round(t.round_set.get(number=1), goat="B")  # the last round: the event ends
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    nxt = Tournament.objects.get(recurs_from=t)
    assert nxt.starts_at == datetime(2027, 11, 4, 17, 0, tzinfo=UTC)  # 19:00 in Tallinn
    assert nxt.status == Tournament.Status.REGISTRATION and nxt.entries.count() == 0
    assert (nxt.name, nxt.format, nxt.rounds, nxt.description, nxt.prizes, nxt.recur_weeks,
            nxt.season_id) == (t.name, t.format, 1, "Every Thursday", "A mug", 1, season.pk)
    assert list(nxt.co_directors.all()) == [club_cast.member]
    assert nxt.seed != t.seed
    # Again by the beat, or by the finish hook a second time: still one.
    assert recurrence.create_next(t.pk) is None
    assert tasks.events_beat_task()["recurrences"] == 0
    assert Tournament.objects.filter(recurs_from=t).count() == 1
    assert AuditEntry.objects.filter(action="tournament.recurrence").count() == 1


def test_the_beat_creates_a_lost_next_occurrence(club_cast):
    t = event(club_cast, starts_at=None)
    Tournament.objects.filter(pk=t.pk).update(
        status=Tournament.Status.FINISHED, recur_weeks=2,
        starts_at=datetime(2026, 1, 1, 18, 0, tzinfo=UTC))
    assert tasks.events_beat_task()["recurrences"] == 1
    nxt = Tournament.objects.get(recurs_from=t)
    # Two weeks at a time until it lies ahead of now, at 18:00 UTC (the club keeps UTC).
    assert nxt.starts_at.weekday() == 3 and (nxt.starts_at.hour, nxt.starts_at.minute) == (
        18, 0)
    assert (nxt.starts_at - datetime(2026, 1, 1, 18, 0, tzinfo=UTC)).days % 14 == 0
    assert tasks.events_beat_task()["recurrences"] == 0


def test_recurrence_is_validated(club_cast):
    t = event(club_cast)  # no start time
    with pytest.raises(InvalidRequestError):
        recurrence.set_recurrence(t.pk, club_cast.director, "1")
    events_with_start = event(club_cast, name="Weekly",
                              starts_at=datetime(2026, 12, 31, 19, 0, tzinfo=UTC))
    for bad in ("5", "-1", "x", None, "1.5"):
        with pytest.raises(InvalidRequestError):
            recurrence.set_recurrence(events_with_start.pk, club_cast.director, bad)
    with pytest.raises(PermissionDeniedError):
        recurrence.set_recurrence(events_with_start.pk, club_cast.member, "1")
    with pytest.raises(InvalidRequestError):
        recurrence.zone("Mars/Olympus")
    events_with_start.refresh_from_db()
    assert events_with_start.recur_weeks == 0
    Tournament.objects.create(**{f: getattr(events_with_start, f)
                                 for f in recurrence.COPIED}, recurs_from=events_with_start)
    with pytest.raises(TableStateError):
        recurrence.set_recurrence(events_with_start.pk, club_cast.director, "1")


# --- seasons ------------------------------------------------------------------------------


def test_season_points_follow_the_documented_scale():
    assert [season_points.points_for(p) for p in range(1, 11)] == [10, 8, 6, 5, 4, 3, 2, 1,
                                                                   1, 1]


def _week(club_cast, season, name: str, winners_first: bool) -> None:
    """A one-round event of two pairs, p00 & p01 against p02 & p03; the first pair wins
    when ``winners_first`` (whichever side the pairing gave it)."""
    t = event(club_cast, name=name, rounds=1)
    seasons.set_season(t.pk, club_cast.director, season.pk)
    first, _second = enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    (match,) = t.round_set.get(number=1).matches.all()
    first_side = match.sides.get(entry=first).side
    loser = {"A": "B", "B": "A"}[first_side] if winners_first else first_side
    play_round(t.round_set.get(number=1), goat=loser)


def test_the_season_table_sums_place_points_by_player(club_cast):
    season = seasons.create_season(club_cast.club.pk, club_cast.director, "Winter")
    _week(club_cast, season, "Week 1", winners_first=True)
    _week(club_cast, season, "Week 2", winners_first=False)
    unfinished = event(club_cast, name="Week 3")
    seasons.set_season(unfinished.pk, club_cast.director, season.pk)
    enter_pairs(unfinished, club_cast.players[:2])
    # By hand: week 1 p00 & p01 first (10 each), p02 & p03 second (8); week 2 the other
    # way round; the unfinished week counts for nothing.
    rows = {r.name: (r.rank, r.points, r.events, r.places) for r in season_table(season)}
    assert rows == {"p00": (1, 18, 2, [1, 2]), "p01": (1, 18, 2, [1, 2]),
                    "p02": (1, 18, 2, [1, 2]), "p03": (1, 18, 2, [1, 2])}
    # A third finished event that p02 & p03 win puts them ahead.
    _week(club_cast, season, "Week 3b", winners_first=False)
    table = season_table(season)
    assert [(r.name, r.rank, r.points) for r in table] == [
        ("p02", 1, 28), ("p03", 1, 28), ("p00", 3, 26), ("p01", 3, 26)]
    html = Client().get(reverse("tournaments:season", args=[club_cast.club.slug,
                                                            season.pk])).content.decode()
    assert 'data-person="p02" data-points="28"' in html and "Week 3b" in html


def test_seasons_are_validated(club_cast):
    with pytest.raises(PermissionDeniedError):
        seasons.create_season(club_cast.club.pk, club_cast.member, "Mine")
    seasons.create_season(club_cast.club.pk, club_cast.director, "Spring")
    for bad in ("Spring", "x", "", "a\u202eb"):
        with pytest.raises(InvalidRequestError):
            seasons.create_season(club_cast.club.pk, club_cast.director, bad)
    other = Club.objects.create(name="Other", slug="other", owner=club_cast.stranger)
    foreign = Season.objects.create(club=other, name="Theirs")
    t = event(club_cast)
    for bad in (str(foreign.pk), "abc", "999999"):
        with pytest.raises(InvalidRequestError):
            seasons.set_season(t.pk, club_cast.director, bad)
    t.refresh_from_db()
    assert t.season_id is None


# --- the printable standings --------------------------------------------------------------


def test_the_printable_page_renders_the_standings_without_site_chrome(club_cast):
    t = event(club_cast, rounds=2)
    entries = enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    play_round(t.round_set.get(number=1), goat="B")  # side A wins 12-4... goat B
    response = Client().get(reverse("tournaments:print", args=[t.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "site-header" not in html and "site-nav" not in html
    assert "print-standings.css" in html
    (match,) = t.round_set.get(number=1).matches.all()
    winner = match.sides.get(side="A").entry
    loser = match.sides.get(side="B").entry
    assert {winner.pk, loser.pk} == {e.pk for e in entries}
    # By hand: the winner 2 match points, place 1; the loser 0, place 2.
    assert html.index(f'data-entry="{winner.pk}"') < html.index(f'data-entry="{loser.pk}"')
    row_w = html[html.index(f'data-entry="{winner.pk}"'):]
    assert '<td class="num">1</td>' in row_w[:200] and '<td class="num">2</td>' in row_w[:400]
    assert "after round 1 of 2" in html
    from pathlib import Path

    from django.contrib.staticfiles import finders

    css = Path(finders.find("css/print-standings.css")).read_text()
    assert "@media print" in css


# --- co-directors -------------------------------------------------------------------------


def test_a_co_director_directs_that_event_and_not_another(club_cast):
    t = event(club_cast)
    other = event(club_cast, name="Other Cup")
    co = club_cast.member
    enter_pairs(t, club_cast.players[:4])
    enter_pairs(other, club_cast.players[4:8])
    with pytest.raises(PermissionDeniedError):
        act(t, co, "close_registration")
    codirectors.add_co_director(t.pk, club_cast.director, co.username)
    assert act(t, co, "close_registration") == "Registration is closed."
    act(t, co, "start")
    assert t.round_set.get(number=1).status == Round.Status.CHECKIN
    details.update_details(t.pk, co, EventDetails(prizes="Chocolate"))
    assert "Director tools" in _page(co, t)
    # Not for another event, and not the club's powers.
    with pytest.raises(PermissionDeniedError):
        act(other, co, "close_registration")
    with pytest.raises(PermissionDeniedError):
        details.update_details(other.pk, co, EventDetails(prizes="x"))
    assert "Director tools" not in _page(co, other)
    with pytest.raises(PermissionDeniedError):
        codirectors.add_co_director(t.pk, co, club_cast.players[8].username)
    with pytest.raises(PermissionDeniedError):
        seasons.create_season(club_cast.club.pk, co, "Mine")
    other.refresh_from_db()
    assert other.status == Tournament.Status.REGISTRATION
    # Removed, or no longer a member: the powers go.
    codirectors.remove_co_director(t.pk, club_cast.director, co.username)
    with pytest.raises(PermissionDeniedError):
        act(t, co, "pause")
    codirectors.add_co_director(t.pk, club_cast.director, co.username)
    from games.tournaments.services import clubs

    clubs.leave(club_cast.club.pk, co)
    with pytest.raises(PermissionDeniedError):
        act(t, co, "pause")


def test_co_directors_are_validated(club_cast):
    t = event(club_cast)
    for name in (club_cast.stranger.username, club_cast.director.username, "nobody", ""):
        with pytest.raises((InvalidRequestError, NotFoundError)):
            codirectors.add_co_director(t.pk, club_cast.director, name)
    assert t.co_directors.count() == 0
    with pytest.raises(PermissionDeniedError):
        codirectors.add_co_director(t.pk, club_cast.stranger, club_cast.member.username)


# --- the pages' inputs --------------------------------------------------------------------


def test_the_club_time_zone_is_validated(club_cast):
    from games.tournaments.services import clubs

    settings = clubs.ClubSettings(name="Friday Goats", slug="friday-goats",
                                  time_zone="Europe/Tallinn")
    clubs.update_club(club_cast.club.pk, club_cast.owner, settings)
    for bad in ("Mars/Olympus", "", "utc+3"):
        with pytest.raises(InvalidRequestError):
            clubs.update_club(club_cast.club.pk, club_cast.owner, clubs.ClubSettings(
                name="Friday Goats", slug="friday-goats", time_zone=bad))
    club_cast.club.refresh_from_db()
    assert club_cast.club.time_zone == "Europe/Tallinn"


def test_the_event_page_posts_are_checked_and_refusals_change_nothing(club_cast):
    t = event(club_cast, starts_at=datetime(2026, 12, 31, 19, 0, tzinfo=UTC))
    url = reverse("tournaments:event", args=[t.pk])
    boss, stranger = Client(), Client()
    boss.force_login(club_cast.director)
    stranger.force_login(club_cast.stranger)
    page = boss.post(url, {"op": "recur", "weeks": "9"}, follow=True).content.decode()
    assert "An event repeats every 1 to 4 weeks, or never." in page
    page = boss.post(url, {"op": "nonsense"}, follow=True).content.decode()
    assert "That request was not valid." in page
    page = stranger.post(url, {"op": "announce", "text": "Spam"}, follow=True)
    assert "Only the event&#x27;s directors can do that." in page.content.decode()
    assert stranger.post(url, {"op": "details", "prizes": "x"}).status_code == 302
    t.refresh_from_db()
    assert (t.recur_weeks, t.prizes, t.announcements.count()) == (0, "", 0)
    page = boss.post(url, {"op": "details", "description": "Line 1\r\nLine 2",
                           "rules_text": "", "prizes": ""}, follow=True).content.decode()
    assert "Line 1<br>Line 2" in page
    page = boss.post(url, {"op": "recur", "weeks": "1"}, follow=True).content.decode()
    assert "Repeats every week at the same local time (UTC)." in page
