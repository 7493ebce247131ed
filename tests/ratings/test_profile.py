"""The profile shows rating, provisional mark, history chart, record, partner, replays."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.selectors import profile_stats
from games.ratings import selectors, services
from games.ratings.models import Rating
from tests.ratings.factories import finished_series, make_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    players = make_users("f", 5)
    a, b, c, d, e = players
    s1 = finished_series([a, b, c, d], ["A", "A", "", "A"],
                         finished_at=timezone.now() - timedelta(days=2))
    s2 = finished_series([a, e, c, d], ["B", "B", "B"], clean=True)
    s3 = finished_series([a, b, e, d], ["A", "A", "A"], ranked=False)
    for s in (s1, s2, s3):
        services.rate_series(s.pk)
    return players, (s1, s2, s3)


def test_profile_stats_are_real(played):
    (a, b, c, d, e), _ = played
    stats = profile_stats(a)
    assert (stats.series_won, stats.series_lost, stats.goats) == (2, 1, 1)
    assert (stats.games_played, stats.games_won, stats.games_lost) == (10, 6, 3)
    assert stats.eggs == 1 and stats.goats_with_eggs == 0
    assert profile_stats(b).goats_with_eggs == 1, "b was the goat of the series with eggs"


def test_profile_page(client, played):
    (a, b, c, d, e), (s1, s2, s3) = played
    html = client.get("/@/f0").content.decode()
    rating = selectors.rating_of(a)
    assert f'data-rating="{rating.display}"' in html
    assert rating.provisional and "provisional" in html
    chart = html.split('<svg class="rating-chart"')[1].split("</svg>")[0]
    assert chart.count("<circle") == 2, "one point per rated series"
    assert 'data-stat="series_won">2<' in html and 'data-stat="goats">1<' in html
    assert 'data-stat="games_won">6<' in html
    assert "Favourite partner" in html and "@" not in html.split("Favourite partner")[1][:5]
    assert ">f2<" in html.split('id="favourite-partner"')[1].split("</p>")[0]
    for series in (s1, s2, s3):
        assert f'href="/game/{series.games.get(number=1).pk}/replay/"' in html
    assert "Casual" in html and "Ranked" in html


def test_a_settled_rating_is_not_provisional(client, played):
    (a, *_), _ = played
    Rating.objects.filter(user=a).update(sigma=3.0, last_played_at=None, last_played_day=None)
    html = client.get("/@/f0").content.decode().split('<main id="main"')[1]
    assert "provisional" not in html


def test_a_player_who_never_played_shows_the_starting_rating(client, db):
    make_users("n", 1)
    html = client.get("/@/n0").content.decode()
    assert 'data-rating="1000"' in html and "provisional" in html
    assert "rating-chart" not in html.split('<main id="main"')[1]


def test_rating_is_a_plain_number_and_mu_sigma_only_inside_details(client, played):
    (a, *_), _ = played
    rating = selectors.rating_of(a)
    html = client.get("/@/f0").content.decode().split('<main id="main"')[1]
    value = html.split('id="profile-rating">')[1].split("<")[0]
    assert value == str(rating.display)
    details = html.split('<details class="rating-details"')[1].split("</details>")[0]
    assert f"<span data-mu>{rating.mu:.1f}</span>" in details
    assert f"<span data-sigma>{rating.sigma:.1f}</span>" in details
    outside = html.replace(details, "")
    for symbol in ("μ", "σ", "&mu;", "&sigma;"):
        assert symbol not in outside, symbol
    # The numbers as numbers, not as digits inside a timestamp ("17:00:37.717").
    for number in (f"{rating.mu:.1f}", f"{rating.sigma:.1f}"):
        assert not re.search(rf"(?<![\d.:]){re.escape(number)}(?![\d])", outside), number


def test_profile_shows_won_left_only_for_a_recorded_abandonment_and_substitute_games(client, db):
    """The team's result is shown as it was; "Left" only where the person has a
    recorded abandonment; games a substitute bot played are marked and not counted as
    the person's own play."""
    from games.models import Game

    a, b, c, d = make_users("g", 4)
    won = finished_series([a, b, c, d], ["A", "A", "A"], ranked=False, leavers=(0,))
    Game.objects.filter(series=won, number=3).update(substitute_seats=0b0001)
    plain = finished_series([a, b, c, d], ["A", "A", "A"], ranked=False)
    for s in (won, plain):
        services.rate_series(s.pk)
    page = client.get(f"/@/{a.username}").content.decode()
    rows = {s.pk: page.split(f'data-series="{s.pk}"')[1].split("</li>")[0] for s in (won, plain)}
    assert "Won" in rows[won.pk] and "data-left" in rows[won.pk]
    assert "2 games" in rows[won.pk] and "1 played by a substitute bot" in rows[won.pk]
    assert "Won" in rows[plain.pk] and "data-left" not in rows[plain.pk]
    assert "substitute" not in rows[plain.pk]
    stats = profile_stats(a)
    assert stats.games_played == 5  # 2 + 3: the substitute's game is not a's own play
    # c, a's partner, never left: no "Left" anywhere on c's page.
    assert "data-left" not in client.get(f"/@/{c.username}").content.decode()
