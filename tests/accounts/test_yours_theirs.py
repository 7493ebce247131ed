"""Profiles, the game history and replay headers give the reader's side first: a person
who played reads "your team 12 – 4 theirs" and "your team won 90–30"; on another
player's profile or game list anybody else reads that player's side, their team named
after them ("f0's team 0 – 8 opponents"); only a replay watched by someone who did not
play reads the teams by their letters (R1: seats 0 and 2 are team A, 1 and 3 team B)."""

from __future__ import annotations

import html

import pytest
from django.utils.html import strip_tags

from games.models import Game
from games.ratings import services
from tests.accounts.test_game_history import played_series
from tests.ratings.factories import finished_series, make_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(db):
    """Team B (f1, f3) loses two games 30–90 and is the goat: loss points A 0, B 8."""
    players = make_users("f", 5)
    played = finished_series(players[:4], ["A", "A"], ranked=False)
    services.rate_series(played.pk)  # writes the profile's records
    return players, played


def page(client, user, path: str) -> str:
    if user is not None:
        client.force_login(user)
    return " ".join(html.unescape(strip_tags(client.get(path).content.decode())).split())


def test_the_history_gives_a_player_their_side_first(client, series):
    (f0, f1, _f2, _f3, f4), _ = series
    # f1 played for team B, the goat: 8 loss points against 0.
    mine = page(client, f1, "/@/f0/games")
    assert "your team 8 – 0 theirs to 12" in mine
    assert "your team lost 30–90" in mine
    assert "team A won" not in mine
    client.logout()
    # f4 did not play: f0's side first (f0 sat at seat 0, team A: 0 loss points, and
    # won both games 90–30), never the bare letters.
    other = page(client, f4, "/@/f0/games")
    assert "f0's team 0 – 8 opponents to 12" in other
    assert "f0's team won 90–30" in other
    assert "your team" not in other and "A 0 – 8 B" not in other and "team A won" not in other
    # The same series on f1's list (seat 1, team B, the goat): f1's side.
    theirs = page(client, f4, "/@/f1/games")
    assert "f1's team 8 – 0 opponents to 12" in theirs
    assert "f1's team lost 30–90" in theirs


def test_the_profile_gives_its_owner_their_side_first(client, series):
    (_f0, f1, *_), _ = series
    own = page(client, f1, "/@/f1")
    assert "your team 8 – 0 theirs" in own
    client.logout()
    seen_by_others = page(client, None, "/@/f1")
    assert "f1's team 8 – 0 opponents" in seen_by_others  # f1 sat at seat 1, team B
    assert "your team" not in seen_by_others and "A 0 – 8 B" not in seen_by_others


def test_the_replay_header_gives_a_player_their_side_first(client, db):
    f0, f1, f2, f3, f4 = make_users("r", 5)
    played = played_series(f0, [f0, f1, f2, f3])
    game = played.games.get(status=Game.Status.FINISHED)
    a, b = game.result.points_a, game.result.points_b
    assert f"your team {b} – {a} theirs card points" in page(client, f1, f"/game/{game.pk}/replay/")
    client.logout()
    assert f"your team {a} – {b} theirs card points" in page(client, f0, f"/game/{game.pk}/replay/")
    client.logout()
    shown = page(client, f4, f"/game/{game.pk}/replay/")
    assert f"A {a} – {b} B card points" in shown
    assert "your team" not in shown
