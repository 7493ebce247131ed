"""Leaderboard eligibility, one rule at a time, and the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.ratings import selectors
from games.ratings.models import Rating, RatingChange, epoch_days
from tests.ratings.factories import make_user

pytestmark = pytest.mark.django_db

GOOD = {"mu": 30.0, "sigma": 3.0, "series_rated": 20, "series_won": 12, "partners": 5,
        "opponents": 8}


def rated(name: str, *, days_ago: float = 1.0, **changes) -> Rating:
    at = timezone.now() - timedelta(days=days_ago)
    values = {**GOOD, **changes}
    return Rating.objects.create(user=make_user(name), last_played_at=at,
                                 last_played_day=epoch_days(at), **values)


def listed() -> list[str]:
    return [r.user.username for r in selectors.eligible()]


def test_a_player_meeting_every_rule_at_the_limits_is_listed():
    rated("edge", sigma=4.5 - 1e-6, days_ago=0.0)
    rated("ok")
    assert sorted(listed()) == ["edge", "ok"]


def test_rule_sigma_at_most_4_5():
    rated("unsure", sigma=4.51)
    assert listed() == []


def test_rule_sigma_grown_by_inactivity_counts():
    # sigma 4.4 is fine on its own; 13 idle days grow it to sqrt(4.4² + 0.65) > 4.47...
    rated("fading", sigma=4.4, days_ago=13)
    assert selectors.rating_view(Rating.objects.get()).sigma > 4.47
    rated("lapsed", sigma=4.45, days_ago=13)  # ...and 4.45 to 4.52: off the board
    assert listed() == ["fading"]


def test_rule_at_least_20_rated_series():
    rated("new", series_rated=19)
    assert listed() == []


def test_rule_at_least_5_partners():
    rated("loyal", partners=4)
    assert listed() == []


def test_rule_at_least_8_opponents():
    rated("narrow", opponents=7)
    assert listed() == []


def test_rule_a_ranked_series_in_the_last_14_days():
    rated("away", days_ago=14.01)
    assert listed() == []


def test_order_is_by_conservative_rating():
    rated("steady", mu=30.0, sigma=2.0)   # 24
    rated("lucky", mu=33.0, sigma=4.4)    # 19.8
    rated("strong", mu=34.0, sigma=2.5)   # 26.5
    assert listed() == ["strong", "steady", "lucky"]


def test_page_shows_rank_rating_trend_and_highlights_you(client):
    me = rated("me", mu=30.0, sigma=2.0).user
    top = rated("top", mu=40.0, sigma=2.0)
    RatingChange.objects.create(
        series=_series_for(top.user), user=top.user, position=0, won=True, mu_before=39,
        sigma_before=2.1, mu_after=40, sigma_after=2.0, display_before=1800,
        display_after=1850, created_at=timezone.now())
    client.force_login(me)
    html = client.get("/leaderboard/").content.decode()
    assert "Your rank: <strong>#2</strong>" in html
    assert 'class="is-you" aria-current="true" data-rank="2"' in html
    assert "▲ +50" in html
    assert "<h1>Leaderboard</h1>" in html and "coming soon" not in html
    assert f'data-rating>{selectors.rating_view(top).display}<' in html


def _series_for(user):
    from tests.ratings.factories import finished_series

    others = [make_user(f"o{i}") for i in range(3)]
    return finished_series([user, *others], ["A"])


def test_pagination(client, settings):
    settings.KOZEL_RATING = {"LEADERBOARD_PAGE_SIZE": 2}
    for i in range(5):
        rated(f"p{i}", mu=30.0 + i)
    board = selectors.leaderboard(page=3)
    assert (board.page, board.pages, board.total) == (3, 3, 5)
    assert [r.rank for r in board.rows] == [5]
    assert selectors.leaderboard(page=99).page == 3
    html = client.get("/leaderboard/?page=2").content.decode()
    assert 'data-rank="3"' in html and 'data-rank="1"' not in html
    assert client.get("/leaderboard/?page=x").status_code == 200
