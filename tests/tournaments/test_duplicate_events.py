"""Duplicate events through the services (issue 41): the settings a director may choose,
the field the movement needs, a round's boards and the deals every table takes from
them (R4–R6), and the create form's fields."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games import engine, policy
from games.errors import InvalidRequestError, TableStateError
from games.models import FIXED_DEALS_TARGET, Game, Table
from games.services import series as series_service
from games.tournaments import board_reads
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Board, Match, Tournament
from tests.tournaments.helpers import act, check_in_everybody, enter_pairs, event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("settings", "says"), [
    ({}, "boards per round"),
    ({"boards_per_round": 0}, "from 1 to 8"),
    ({"boards_per_round": 9}, "from 1 to 8"),
    ({"boards_per_round": True}, "from 1 to 8"),
    ({"boards_per_round": 2, "duplicate_scoring": "imps"}, "matchpoints or by the difference"),
    ({"boards_per_round": 2, "duplicate_basis": "tricks"}, "card points or loss points"),
    ({"boards_per_round": 2, "games_limit": 3}, "exactly its round's boards"),
    ({"boards_per_round": 2, "rated": True, "turn_seconds": 30}, "not rated"),
])
def test_a_duplicate_event_refuses_settings_it_cannot_play(club_cast, settings, says):
    with pytest.raises(InvalidRequestError, match=says):
        event(club_cast, fmt="duplicate", **settings)
    assert not Tournament.objects.exists()


def test_boards_belong_to_duplicate_events_only(club_cast):
    with pytest.raises(InvalidRequestError, match="for duplicate events"):
        event(club_cast, fmt="swiss", boards_per_round=2)
    with pytest.raises(InvalidRequestError, match="for duplicate events"):
        event(club_cast, fmt="rotation", boards_per_round=2)


def test_a_duplicate_event_is_a_pairs_event_of_exactly_its_boards(club_cast):
    t = event(club_cast, fmt="duplicate", boards_per_round=3, duplicate_scoring="difference",
              duplicate_basis="loss")
    assert (t.kind, t.boards_per_round, t.games_limit) == ("pairs", 3, 3)
    assert (t.duplicate_scoring, t.duplicate_basis) == ("difference", "loss")
    # The database refuses a duplicate event whose matches are not its boards.
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(games_limit=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(kind="individual")


@pytest.mark.parametrize(("pairs", "scoring", "says"), [
    (2, "matchpoints", "even number of pairs, at least 4; 2 are entered"),
    (5, "matchpoints", "even number of pairs, at least 4; 5 are entered"),
    (6, "difference", "exactly 4 pairs; 6 are entered"),
])
def test_the_movement_needs_an_even_field_and_a_difference_two_tables(
        club_cast, pairs, scoring, says):
    t = event(club_cast, fmt="duplicate", boards_per_round=2, duplicate_scoring=scoring)
    enter_pairs(t, club_cast.players[:2 * pairs])
    with pytest.raises(TableStateError, match=says):
        act(t, club_cast.director, "start")
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION and not t.round_set.exists()


def test_r4_r5_every_table_deals_the_rounds_boards_from_their_stored_seeds(club_cast):
    t = event(club_cast, fmt="duplicate", rounds=3, boards_per_round=3)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    round_ = t.round_set.get()
    boards = list(Board.objects.filter(round=round_).order_by("position"))
    # Board k: dealer k-1 round the table, the first player on his left (R4).
    assert [(b.number, b.position, b.dealer, b.first_player) for b in boards] == [
        (1, 1, 0, 1), (2, 2, 1, 2), (3, 3, 2, 3)]
    assert all(b.public_at is None for b in boards)
    matches = list(Match.objects.filter(round=round_).order_by("number"))
    assert len(matches) == 2
    tables = Table.objects.filter(pk__in=[m.table_id for m in matches])
    assert {(tb.visibility, tb.series_target) for tb in tables} == {
        ("private", FIXED_DEALS_TARGET)}
    check_in_everybody(round_)
    firsts = list(Game.objects.filter(series__tournament_match__round=round_))
    assert len(firsts) == 2
    for game in firsts:
        assert (game.number, game.seed, game.dealer, game.first_leader) == (
            1, boards[0].seed, 0, 1)
        dealt = engine.new_game(boards[0].seed, 0, 1)
        assert game.trump_card == dealt.trump_card.code
    # Game k at a table is board k; none beyond the round's boards (the tournament
    # ends the series after the last one: a next-game task must not deal a fourth).
    table = matches[0].table_id
    assert board_reads.planned_deal(table, 2) == (boards[1].seed, 1, 2)
    assert board_reads.planned_deal(table, 4) == policy.NO_MORE_GAMES
    # Boards stand alone: a series of boards is never ended by the target (R18): at
    # most 6 loss points a board (R16), 8 boards at most.
    assert FIXED_DEALS_TARGET > 6 * 8


def test_a_duplicate_match_is_not_corrected_its_boards_are_its_result(club_cast):
    t = event(club_cast, fmt="duplicate", rounds=3, boards_per_round=1)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    match = Match.objects.filter(round__tournament=t).order_by("number").first()
    before = (match.status, match.outcome, match.corrected)
    with pytest.raises(TableStateError, match="boards as played"):
        act(t, club_cast.director, "correct", match_id=match.pk, outcome="B", loss_a=6,
            loss_b=0, reason="typo")
    match.refresh_from_db()
    assert (match.status, match.outcome, match.corrected) == before


def test_no_game_is_dealt_beyond_a_fixed_number_of_games(club_cast):
    t = event(club_cast, fmt="duplicate", rounds=1, boards_per_round=1)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    check_in_everybody(t.round_set.get())
    game = Game.objects.filter(series__tournament_match__round__tournament=t).first()
    assert game is not None
    # The game ended, the series not yet (as when a next-game task beats the
    # tournament's reaction): no second game is dealt.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert series_service.start_next_game(game.series_id, 1) is None
    assert Game.objects.filter(series_id=game.series_id).count() == 1


def test_an_ordinary_table_is_not_planned_nor_held(club_cast):
    t = event(club_cast, fmt="swiss", rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    check_in_everybody(t.round_set.get())
    match = Match.objects.filter(round__tournament=t).first()
    assert board_reads.planned_deal(match.table_id, 1) is None
    game = Game.objects.get(series_id=match.series_id)
    assert board_reads.held_games([game.pk]) == set()


def test_the_create_form_asks_boards_of_a_duplicate_event_only():
    base = {"name": "Duplicate night", "rounds": 3, "target": 12, "checkin_minutes": 5,
            "round_minutes": 60}
    form = TournamentForm({**base, "format": "duplicate"})
    assert not form.is_valid() and "boards_per_round" in form.errors
    form = TournamentForm({**base, "format": "duplicate", "boards_per_round": 9})
    assert not form.is_valid() and "boards_per_round" in form.errors
    form = TournamentForm({**base, "format": "duplicate", "boards_per_round": 4,
                           "duplicate_scoring": "difference"})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["boards_per_round"], form.cleaned_data["duplicate_scoring"],
            form.cleaned_data["duplicate_basis"]) == (4, "difference", "card")
    form = TournamentForm({**base, "format": "swiss", "boards_per_round": 4})
    assert form.is_valid() and form.cleaned_data["boards_per_round"] is None
