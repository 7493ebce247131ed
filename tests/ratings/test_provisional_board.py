"""The leaderboard of a young site: the best provisional players, marked, while fewer
than ``LEADERBOARD_YOUNG_BELOW`` (10) qualify; a player's provisional place and exactly
what is left to qualify; the statistics in a details element; a bounded query count.

Expected ratings are worked out by hand: display = round(1000 + 25·(mu − 3σ)), σ grown
by 0.05 per idle day (rated "now" here, so σ is as stored to the rounding)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import strip_tags

from tests.ratings.test_leaderboard import rated

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return " ".join(strip_tags(html).split())


def provisional_names(html: str) -> list[str]:
    section = html.split('id="provisional-board"', 1)
    assert len(section) == 2, "the provisional board is shown"
    rows = re.findall(r'data-provisional-place="(\d+)">.*?<span class="player-name">([^<]+)<',
                      section[1], re.S)
    return [name for _place, name in rows]


def three_provisional():
    # a: 30 − 3·5 = 15 → 1375; b: 28 − 3·4.6 = 14.2 → 1355 (σ too high to qualify);
    # c: 35 − 3·7 = 14 → 1350 (new: 3 series).
    rated("a_prov", mu=30.0, sigma=5.0, series_rated=12, days_ago=0)
    rated("b_prov", mu=28.0, sigma=4.6, series_rated=25, days_ago=0)
    rated("c_prov", mu=35.0, sigma=7.0, series_rated=3, partners=1, opponents=2, days_ago=0)


def test_young_site_lists_the_best_provisional_players_marked_in_score_order(client):
    three_provisional()
    html = client.get("/leaderboard/").content.decode()
    assert provisional_names(html) == ["a_prov", "b_prov", "c_prov"]
    section = html.split('id="provisional-board"', 1)[1]
    assert section.count('class="badge provisional"') == 3
    for shown in ("1375", "1355", "1350"):
        assert f"data-rating>{shown}<" in section
    page = text(html)
    assert "Nobody qualifies for the board yet" in page
    assert "Nobody yet." not in page and "1. Nobody" not in page


def test_qualified_players_stay_above_and_are_not_repeated_as_provisional(client):
    three_provisional()
    rated("settled")  # meets every rule (GOOD): 30 − 3·3 = 21
    html = client.get("/leaderboard/").content.decode()
    assert 'data-rank="1"' in html and "settled" in html.split('id="provisional-board"')[0]
    assert provisional_names(html) == ["a_prov", "b_prov", "c_prov"]


def test_enough_qualified_players_hide_the_provisional_board(client, settings):
    settings.KOZEL_RATING = {"LEADERBOARD_YOUNG_BELOW": 2}
    three_provisional()
    rated("q1")
    assert 'id="provisional-board"' in client.get("/leaderboard/").content.decode()
    rated("q2")  # two qualify: no longer young
    html = client.get("/leaderboard/").content.decode()
    assert 'id="provisional-board"' not in html
    assert 'data-rank="2"' in html


def test_a_player_below_the_rules_sees_their_place_and_what_is_left(client):
    three_provisional()
    # 13 series, 3 partners, 8 opponents, σ 5: mu 29.4 − 15 = 14.4 → 1360, behind a (15),
    # ahead of b (14.2) and c (14): place 2.
    me = rated("me", mu=29.4, sigma=5.0, series_rated=13, partners=3, opponents=8,
               days_ago=0).user
    client.force_login(me)
    page = text(client.get("/leaderboard/").content.decode())
    assert "Your provisional place: #2 among players not on the board yet (rating 1360)." \
        in page
    assert ("To be listed on the board you need: 7 more rated series, 2 more partners, "
            "a more settled rating (it settles as you play).") in page
    assert "opponent" not in page.split("To be listed on the board you need:")[1].split(".")[0]


def test_a_lapsed_player_is_told_to_play_a_ranked_series_recently(client):
    me = rated("lapsed", days_ago=20).user  # every count met, σ 3 grown to about 3.16
    client.force_login(me)
    page = text(client.get("/leaderboard/").content.decode())
    assert "To be listed on the board you need: a ranked series in the last 14 days." in page


def test_a_player_never_rated_is_told_every_rule(client):
    from tests.ratings.factories import make_user

    three_provisional()
    client.force_login(make_user("newbie"))
    page = text(client.get("/leaderboard/").content.decode())
    assert "You have no rated series yet." in page
    assert ("20 more rated series, 5 more partners, 8 more opponents, a more settled rating"
            in page)


def test_the_statistics_are_in_a_details_element_in_plain_words(client):
    html = client.get("/leaderboard/").content.decode()
    details = re.search(r'<details class="how-ratings-work"[^>]*>(.*?)</details>', html, re.S)
    assert details, "a details element"
    inside = text(details[1])
    for words in ("mu − 3σ", "at least 20 rated series", "at least 5 different partners",
                  "at least 8 different opponents", "σ at most 4.5",
                  "a ranked series in the last 14 days", "While fewer than 10 players qualify"):
        assert words in inside, words
    before = text(html.split("<h1>", 1)[1].split("<details", 1)[0])
    assert "σ" not in before and "mu" not in before
    assert "Nobody has played a ranked series yet." in text(html)


def test_an_empty_monthly_board_is_a_sentence_not_a_numbered_line(client):
    html = client.get("/leaderboard/").content.decode()
    assert '<li class="muted">' not in html
    assert '<p class="muted">No game won without losing a trick yet this month.</p>' in html


def test_the_page_reads_a_bounded_number_of_queries(client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get("/leaderboard/").status_code == 200
        return len(seen)

    client.force_login(rated("viewer", mu=20.0, sigma=6.0, series_rated=2, days_ago=0).user)
    three_provisional()
    few = queries()
    for i in range(15):
        rated(f"more{i}", mu=20.0 + i, sigma=5.5, series_rated=4, days_ago=0)
    assert queries() == few
