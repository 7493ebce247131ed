"""The leaderboard and profile pages run a fixed number of queries at any size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.ratings import benchdata
from games.ratings.models import Rating, RatingChange, SeriesRecord

pytestmark = pytest.mark.django_db

# Leaderboard: count, page rows, their users, trends and the three monthly boards (+ session, user,
# and the viewer's score and rank). Profile: user, rating, history, totals, favourite partner
# (2), recent series (+ session and user when signed in). Signed in, every page also asks
# once whether the viewer is in a live series ("Your game is on"), twice about tournament
# rounds (the round banner), once for the sanctions in force (the notice),
# once whether they are a moderator (the menu's link) and once for the unread
# notifications (the badge). A profile also lists the clubs and sums up the player's
# reviewed games (one query).
LEADERBOARD_ANONYMOUS = 7
LEADERBOARD_SIGNED_IN = 18
PROFILE = 9


def a_player_with_series(users):
    top = (SeriesRecord.objects.values("user_id").order_by("-user_id").first())["user_id"]
    return next(u for u in users if u.pk == top)


def listed_player():
    from games.ratings.selectors import eligible

    return eligible().select_related("user").first().user


def counts(client, users) -> tuple[int, int, int]:
    client.logout()
    with CaptureQueriesContext(connection) as anonymous:
        assert client.get("/leaderboard/").status_code == 200
    client.force_login(listed_player())
    with CaptureQueriesContext(connection) as signed_in:
        assert client.get("/leaderboard/?page=2").status_code == 200
    client.logout()
    name = a_player_with_series(users).username
    with CaptureQueriesContext(connection) as profile:
        assert client.get(f"/@/{name}").status_code == 200
    return len(anonymous), len(signed_in), len(profile)


def test_small_site(client):
    users = benchdata.seed(24, 300, prefix="s")
    assert client.get("/leaderboard/").context["board"].total > 0
    assert counts(client, users) == (LEADERBOARD_ANONYMOUS, LEADERBOARD_SIGNED_IN, PROFILE)


@pytest.mark.slow
def test_1000_players_and_5000_series(client, django_assert_num_queries):
    users = benchdata.seed(1000, 5000, prefix="b")
    assert Rating.objects.count() > 990 and RatingChange.objects.count() == 20_000
    listed = client.get("/leaderboard/").context["board"].total
    assert listed > 50, "enough eligible players for several pages"
    with django_assert_num_queries(LEADERBOARD_ANONYMOUS):
        client.get("/leaderboard/")
    client.force_login(listed_player())
    with django_assert_num_queries(LEADERBOARD_SIGNED_IN):
        client.get("/leaderboard/?page=2")
    client.logout()
    for user in users[::250]:
        with django_assert_num_queries(PROFILE):
            response = client.get(f"/@/{user.username}")
        assert response.status_code == 200
