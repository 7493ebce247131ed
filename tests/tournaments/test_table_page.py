"""A tournament match's table reads as one: the event's name with a link back, the round
and table, "Game N of M" for a match of a fixed number of games (not a score out of the
table's cap), and no "Leave" (the seat is the event's: standing up is refused and
changes nothing). An ordinary table keeps its casual words."""

from __future__ import annotations

import pytest

from games.models import Seat
from games.services import tables as table_service
from games.snapshot import table_snapshot
from games.tournaments.models import Match
from games.tournaments.services import rounds
from tests.tournaments.helpers import act, check_in_everybody, enter_pairs, event

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixed_length(club_cast):
    """A pairs Swiss of two pairs, matches of 4 games, round 1 in check-in."""
    t = event(club_cast, name="Winter Cup", games_limit=4)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    return t


def seated(club_cast, match: Match, position: int):
    person = rounds.people_by_position(match)[position][1]
    return next(u for u in club_cast.players if u.pk == person)


def test_the_table_of_a_fixed_length_match_says_game_n_of_m_and_links_back(
        client, club_cast, fixed_length):
    check_in_everybody(fixed_length.round_set.get(number=1))
    match = Match.objects.get(round__tournament=fixed_length)
    assert match.status == "playing"
    player = seated(club_cast, match, 0)
    client.force_login(player)
    html = client.get(f"/table/{match.table_id}/").content.decode()
    assert "Game 1 of 4" in html
    assert f'href="/tournament/{fixed_length.pk}/" id="kz-event-link"' in html
    assert "Winter Cup" in html and "round 1, table 1" in html
    assert "a match of 4 games" in html
    assert " / 18" not in html  # the table's cap is not the match's format
    snap = table_snapshot(match.table, player)
    assert snap["event"] == {"name": "Winter Cup", "url": f"/tournament/{fixed_length.pk}/",
                             "round": 1, "rounds": 3, "match": 1, "games_limit": 4,
                             "target": 12}


def test_a_tournament_seat_has_no_leave_and_standing_up_is_refused(client, club_cast,
                                                                   fixed_length):
    match = Match.objects.get(round__tournament=fixed_length)
    player = seated(club_cast, match, 2)
    client.force_login(player)
    html = client.get(f"/table/{match.table_id}/").content.decode()
    assert f"/table/{match.table_id}/leave/" not in html
    before = list(Seat.objects.filter(table_id=match.table_id)
                  .order_by("position").values_list("user_id", "bot_level"))
    response = client.post(f"/table/{match.table_id}/leave/", follow=True)
    assert response.status_code == 200  # back at the table, not "Refused (404)"
    assert "withdraw on the tournament" in response.content.decode()
    assert list(Seat.objects.filter(table_id=match.table_id).order_by("position")
                .values_list("user_id", "bot_level")) == before


def test_a_target_match_names_its_target(client, club_cast):
    t = event(club_cast, name="Spring Cup")
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    match = Match.objects.get(round__tournament=t)
    client.force_login(seated(club_cast, match, 1))
    html = client.get(f"/table/{match.table_id}/").content.decode()
    assert "a match to 12 loss points" in html and "Spring Cup" in html


def test_an_ordinary_table_keeps_leave_and_has_no_event(client, club_cast):
    alice = club_cast.players[0]
    table = table_service.create_table(alice, table_service.TableSettings(name="Casual"))
    table_service.take_seat(table.pk, alice, 0)
    client.force_login(alice)
    html = client.get(f"/table/{table.pk}/").content.decode()
    assert f"/table/{table.pk}/leave/" in html and "kz-event-link" not in html
    assert table_snapshot(table, alice)["event"] is None
    client.post(f"/table/{table.pk}/leave/")
    assert Seat.objects.get(table=table, position=0).user_id is None
