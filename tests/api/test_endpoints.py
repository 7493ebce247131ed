"""What each endpoint answers, and that every parameter is checked before any read:
bad input is a 400 naming the parameter, and changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Move
from games.ratings.models import Rating, epoch_days
from games.tournaments.models import Membership
from games.tournaments.services import clubs
from tests.api.conftest import finished_game, live_game
from tests.games.helpers import card_codes_in
from tests.tournaments.helpers import act, enter_pairs, event, play_round

HUGE = "9" * 30


def get(path: str, headers: dict[str, str] | None = None):
    return Client().get(path, **(headers or {}))


# --- players ------------------------------------------------------------------------------

def test_a_profile_gives_name_country_and_the_record(cast):
    from accounts.services import update_profile

    update_profile(cast.alice, display_name="Alice A.", country="EE")
    body = get("/api/players/alice").json()
    assert body["username"] == "alice" and body["name"] == "Alice A."
    assert body["country"] == "EE" and body["deleted"] is False
    assert body["totals"]["games_played"] == 0 and body["rating"]["provisional"] is True


def test_a_profile_gives_the_rating_history_oldest_first(cast):
    from games.ratings.models import RatingChange

    game = finished_game(cast.alice, [cast.alice, cast.bob, cast.carol, cast.dan])
    now = timezone.now()
    RatingChange.objects.create(
        series=game.series, user=cast.alice, position=0, won=True, mu_before=25,
        sigma_before=8, mu_after=27, sigma_after=7, display_before=1000, display_after=1042,
        created_at=now)
    body = get("/api/players/alice").json()
    assert [(p["rating"], p["change"]) for p in body["rating_history"]] == [(1042, 42)]


def test_a_deleted_account_is_a_deleted_player_with_nothing_it_wrote(cast):
    from accounts.services import delete_account, update_profile

    update_profile(cast.bob, bio="hello", country="EE")
    delete_account(cast.bob)
    body = get(f"/api/players/deleted-{cast.bob.pk}").json()
    assert body["deleted"] is True and body["name"] == "deleted player"
    assert body["bio"] == "" and body["country"] == ""


def test_the_games_list_is_paged_thirty_series_a_page(cast, monkeypatch):
    from kozel_site.api import players

    monkeypatch.setattr(players, "PAGE_SIZE", 1)
    four = [cast.alice, cast.bob, cast.carol, cast.dan]
    first = finished_game(cast.alice, four, name="one")
    second = live_game(cast.bob, [cast.bob, cast.alice, cast.dan, cast.carol])
    page1 = get("/api/players/alice/games").json()
    page2 = get("/api/players/alice/games?page=2").json()
    page3 = get("/api/players/alice/games?page=3").json()
    assert (page1["count"], page1["pages"]) == (2, 2)
    # Newest first: the live series was started last.
    assert [g["id"] for g in page1["items"][0]["games"]] == [second.pk]
    assert page1["items"][0]["games"][0]["record"] is None  # not over: no record (R19)
    assert first.pk in [g["id"] for g in page2["items"][0]["games"]]
    game_line = next(g for g in page2["items"][0]["games"] if g["id"] == first.pk)
    assert game_line["record"] == f"/api/games/{first.pk}"
    assert page3["items"] == [] and page3["page"] == 3
    # alice sat at 1 in the live one (R1: partner opposite, opponents beside).
    line = page1["items"][0]
    assert (line["position"], line["team"], line["partner"]) == (1, "B", "carol")
    assert sorted(line["opponents"]) == ["bob", "dan"]


def test_the_games_list_filters_by_partner_against_and_kind(cast):
    four = [cast.alice, cast.bob, cast.carol, cast.dan]
    finished_game(cast.alice, four)  # alice's partner: carol (seat 2)
    assert get("/api/players/alice/games?partner=carol").json()["count"] == 1
    assert get("/api/players/alice/games?partner=bob").json()["count"] == 0
    assert get("/api/players/alice/games?against=bob").json()["count"] == 1
    assert get("/api/players/alice/games?kind=ranked").json()["count"] == 0
    assert get("/api/players/alice/games?kind=casual").json()["count"] == 1


@pytest.mark.parametrize("query, names", [
    ("page=0", "page"), (f"page={HUGE}", "page"), ("page=two", "page"),
    ("kind=blitz", "kind"), ("partner=" + "x" * 151, "partner"),
])
def test_bad_games_list_parameters_are_refused_with_400_naming_them(cast, query, names):
    response = get(f"/api/players/alice/games?{query}")
    assert response.status_code == 400
    assert names in json.dumps(response.json()["detail"])


def test_an_unknown_partner_is_a_400_not_an_empty_list(cast):
    response = get("/api/players/alice/games?partner=nobody")
    assert response.status_code == 400 and "nobody" in response.json()["detail"]


def test_a_username_longer_than_any_is_refused(cast):
    assert get("/api/players/" + "a" * 151).status_code == 400


# --- games --------------------------------------------------------------------------------

def test_a_finished_games_record_has_every_hand_and_action_and_its_seats(cast):
    game = finished_game(cast.alice, [cast.alice, cast.bob, cast.carol, cast.dan])
    body = get(f"/api/games/{game.pk}").json()
    record = body["record"]
    assert record["seed"] == game.seed and record["dealer"] == game.dealer
    assert len(record["hands"]) == 4 and all(len(h) == 4 for h in record["hands"])
    # R2: the 36 cards, each once, between the starting hands and the stock.
    dealt = [c for hand in record["hands"] for c in hand] + record["stock"]
    assert len(dealt) == 36 and len(set(dealt)) == 36
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list(
        "seat", "kind", "cards"))
    assert [(a["seat"], a["kind"], sorted(a["cards"])) for a in record["actions"]] == [
        (seat, kind, sorted(cards)) for seat, kind, cards in moves]
    assert [s["username"] for s in body["seats"]] == ["alice", "bob", "carol", "dan"]
    assert body["void"] is False and body["status"] == "finished"


def test_a_live_game_answers_404_with_nothing_of_its_state(cast):
    """R19: no seed, no hand, no card at all, to anyone, its players included."""
    game = live_game(cast.alice, [cast.alice, cast.bob, cast.carol, cast.dan])
    for headers in ({}, cast.bearer("alice"), cast.bearer("mona")):
        response = get(f"/api/games/{game.pk}", headers)
        assert response.status_code == 404
        assert str(game.seed) not in response.content.decode()
        assert card_codes_in(response.json()) == set()


def test_a_voided_series_games_record_stays_readable_and_says_void(cast):
    game = finished_game(cast.alice, [cast.alice, cast.bob, cast.carol, cast.dan])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.VOIDED, termination="completed")
    body = get(f"/api/games/{game.pk}").json()
    assert body["void"] is True and body["record"]["actions"]


@pytest.mark.parametrize("game_id", ["0", "-1", HUGE, str(2**63), "abc", "1.5"])
def test_bad_game_ids_are_refused(db, game_id):
    response = get(f"/api/games/{game_id}")
    # A path that is no number at all matches no route (404); a number out of range is 400.
    assert response.status_code in (400, 404)
    if game_id.lstrip("-").isdigit():
        assert response.status_code == 400, game_id


def test_the_largest_id_is_simply_not_found(db):
    assert get(f"/api/games/{2**63 - 1}").status_code == 404


# --- leaderboard ----------------------------------------------------------------------------

def _rated(user, mu: float, sigma: float) -> Rating:
    at = timezone.now() - timedelta(days=1)
    return Rating.objects.create(user=user, mu=mu, sigma=sigma, series_rated=20,
                                 series_won=10, partners=5, opponents=8, last_played_at=at,
                                 last_played_day=epoch_days(at))


def test_the_leaderboard_ranks_by_the_cautious_estimate_and_names_your_rank(cast):
    # mu − 3σ: bob 30 − 9 = 21 first, alice 33 − 12 = 21 − 0.5 … by hand: 32.5 − 12 = 20.5.
    _rated(cast.alice, 32.5, 4.0)
    _rated(cast.bob, 30.0, 3.0)
    body = get("/api/leaderboard", cast.bearer("alice")).json()
    assert [r["username"] for r in body["rows"]] == ["bob", "alice"]
    assert [r["rank"] for r in body["rows"]] == [1, 2]
    assert body["your_rank"] == 2 and body["total"] == 2
    assert get("/api/leaderboard").json()["your_rank"] is None
    assert get(f"/api/leaderboard?page={HUGE}").status_code == 400
    assert get("/api/leaderboard?page=999").json()["page"] == 1  # clamped, as the page


def test_this_months_boards_rank_by_count(cast):
    from games.ratings.models import MonthlyStats, month_start

    month = month_start(timezone.now())
    MonthlyStats.objects.create(user=cast.alice, month=month, series_won=2, goats=1)
    MonthlyStats.objects.create(user=cast.bob, month=month, series_won=5)
    MonthlyStats.objects.create(user=cast.carol, month=month.replace(year=month.year - 1),
                                series_won=9)  # another month: not on this month's board
    body = get("/api/leaderboard/month").json()
    assert [(r["username"], r["rank"], r["count"]) for r in body["series_won"]] == [
        ("bob", 1, 5), ("alice", 2, 2)]
    assert [r["username"] for r in body["goats"]] == ["alice"]
    assert body["clean_games_won"] == [] and body["month"] == month.isoformat()


# --- clubs and tournaments --------------------------------------------------------------------

@pytest.fixture
def club(cast):
    club = clubs.create_club(cast.olga, clubs.ClubSettings(name="Goats", slug="goats",
                                                           description="Fridays"))
    for user in (cast.alice, cast.bob, cast.carol, cast.dan):
        Membership.objects.create(club=club, user=user)
    return club


def test_clubs_are_listed_and_searched(club):
    assert get("/api/clubs").json() == [{"slug": "goats", "name": "Goats", "country": "",
                                         "members": 5}]
    assert get("/api/clubs?q=fridays").json()[0]["slug"] == "goats"
    assert get("/api/clubs?q=nothing").json() == []
    assert get("/api/clubs?q=" + "x" * 61).status_code == 400


def test_a_club_lists_members_and_tournaments_but_never_the_directors_lists(cast, club):
    t = event(type("C", (), {"club": club, "director": cast.olga}), name="Cup")
    body = get("/api/clubs/goats").json()
    assert {m["username"] for m in body["members"]} == {"olga", "alice", "bob", "carol", "dan"}
    assert body["tournaments"]["upcoming"] == [{"id": t.pk, "name": "Cup",
                                                "status": "registration"}]
    assert "invite_token" not in json.dumps(body) and club.invite_token not in json.dumps(body)
    assert get("/api/clubs/no-such").status_code == 404
    assert get("/api/clubs/bad%20slug").status_code == 400
    assert get("/api/clubs/" + "a" * 41).status_code == 400


def test_a_tournament_its_pairings_and_standings(cast, club):
    t = event(type("C", (), {"club": club, "director": cast.olga}), rounds=1)
    entries = enter_pairs(t, [cast.alice, cast.carol, cast.bob, cast.dan])
    act(t, cast.olga, "start")
    round_ = t.round_set.order_by("-number").first()
    match = round_.matches.get()
    side_a = match.sides.get(side="A").entry_id
    play_round(round_, goat="B", loss=(4, 12))  # side A wins, side B is the goat
    body = get(f"/api/tournaments/{t.pk}").json()
    assert {e["id"] for e in body["entries"]} == {e.pk for e in entries}
    pairings = get(f"/api/tournaments/{t.pk}/pairings").json()
    (only,) = pairings["rounds"][0]["matches"]
    assert only["side_a"] == [side_a] and (only["loss_a"], only["loss_b"]) == (4, 12)
    standings = get(f"/api/tournaments/{t.pk}/standings").json()
    assert standings["rows"][0]["entry"] == side_a and standings["rows"][0]["rank"] == 1
    assert standings["rows"][0]["points"] > standings["rows"][1]["points"]
    for path in ("", "/pairings", "/standings"):
        assert get(f"/api/tournaments/{HUGE}{path}").status_code == 400
        assert get(f"/api/tournaments/987654{path}").status_code == 404


def test_the_api_only_reads(cast):
    for method in ("post", "put", "patch", "delete"):
        assert getattr(Client(), method)("/api/players/alice").status_code == 405
