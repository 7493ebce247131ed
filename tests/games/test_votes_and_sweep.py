"""Votes to pause or end a casual series, and the backstop sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import GameOverError, InvalidRequestError, NotYourSeatError
from games.models import Game, Series, Table
from games.services import play, sweep, votes
from games.services import series as series_service
from tests.games.helpers import current_game, first_legal, start_with_bots, state_of


@pytest.fixture
def series(cast, full_table):
    return series_service.start_series(full_table.pk, cast.alice)


def test_three_of_four_pause_then_resume(series, cast, full_table):
    assert votes.cast_vote(full_table.pk, cast.alice, "pause")["carried"] is False
    assert votes.cast_vote(full_table.pk, cast.bob, "pause")["carried"] is False
    tally = votes.cast_vote(full_table.pk, cast.carol, "pause")
    assert tally == {"kind": "pause", "votes": 3, "needed": 3, "carried": True}
    game = current_game(series)
    assert game.paused and game.turn_deadline is None
    state = state_of(game)
    with pytest.raises(GameOverError, match="paused"):
        play.submit_action(game.pk, cast.seated[state.turn],
                           first_legal(state, state.turn).to_dict(), game.version)
    for user in cast.seated[:3]:
        votes.cast_vote(full_table.pk, user, "resume")
    game.refresh_from_db()
    assert not game.paused


def test_vote_to_end_the_series(series, cast, full_table):
    for user in cast.seated[1:]:
        votes.cast_vote(full_table.pk, user, "end")
    series.refresh_from_db()
    assert series.status == Series.Status.ABORTED
    assert series.termination == "voted_end"  # through the one finisher, with its reason
    stopped = current_game(series)
    assert stopped.status == Game.Status.ABORTED and stopped.termination == "voted_end"
    full_table.refresh_from_db()
    assert full_table.status == Table.Status.FINISHED


def test_a_person_with_three_bots_decides_alone(cast):
    series = start_with_bots(cast.alice)
    assert votes.cast_vote(series.table_id, cast.alice, "pause")["carried"] is True


def test_votes_are_refused_from_strangers_and_bad_kinds(series, cast, full_table):
    with pytest.raises(NotYourSeatError):
        votes.cast_vote(full_table.pk, cast.charlie, "end")
    with pytest.raises(InvalidRequestError):
        votes.cast_vote(full_table.pk, cast.alice, "surrender")
    with pytest.raises(InvalidRequestError, match="already running"):
        votes.cast_vote(full_table.pk, cast.alice, "resume")
    series.refresh_from_db()
    assert series.status == Series.Status.PLAYING


def test_sweep_plays_an_overdue_timeout(cast):
    from games.services import tables

    table = tables.create_table(cast.alice, tables.TableSettings(name="c", turn_seconds=15))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=2))
    assert sweep.sweep()["timeouts"] == 1
    game.refresh_from_db()
    assert game.version == 1


def test_sweep_moves_a_stalled_bot(cast, deal_seeds):
    deal_seeds.first_dealer = 0  # R4: seat 1, a bot, leads
    series = start_with_bots(cast.alice, ("random",) * 3)
    game = current_game(series)
    assert state_of(game).turn == 1
    before = game.version
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    assert sweep.sweep()["bots"] >= 1
    game.refresh_from_db()
    assert game.version > before


def test_sweep_deals_a_missing_next_game(cast, full_table):
    from tests.games.helpers import play_out_game, users_by_position

    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    play_out_game(game, users_by_position(series))
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    assert sweep.sweep()["next_games"] == 1
    assert series.games.count() == 2
    assert sweep.sweep()["next_games"] == 0


def test_empty_table_is_closed_after_5_minutes(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    assert sweep.close_empty_tables(timezone.now() + timedelta(minutes=4)) == 0
    assert sweep.close_empty_tables(timezone.now() + timedelta(minutes=6)) == 1
    full_table.refresh_from_db()
    series.refresh_from_db()
    assert full_table.status == Table.Status.ABANDONED
    assert series.status == Series.Status.ABORTED
    assert series.termination == "abandoned"  # one finisher, with its reason


def test_table_with_someone_connected_stays_open(cast, full_table):
    from games.services import absence

    absence.connected(full_table.pk, "conn-bob", cast.bob)
    Table.objects.filter(pk=full_table.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert sweep.close_empty_tables() == 0


def test_a_table_of_four_bots_is_never_closed_as_empty(cast):
    from games.services import tables

    table = tables.create_table(cast.alice, tables.TableSettings(name="show"))
    for position in range(4):
        tables.add_bot(table.pk, cast.alice, position, "random")
    series_service.start_series(table.pk, cast.alice)
    assert sweep.close_empty_tables(timezone.now() + timedelta(hours=1)) == 0


def test_sweep_hands_an_absent_players_turn_to_a_bot(cast, full_table):
    from games.services import absence
    from tests.games.helpers import roster_entry, users_by_position

    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    seat = state_of(game).turn
    user = users_by_position(series)[seat]
    absence.connected(full_table.pk, "conn-1", user)
    absence.disconnected(full_table.pk, "conn-1", user)
    assert sweep.sweep(timezone.now() + timedelta(seconds=30))["abandoned_seats"] == 0
    assert sweep.sweep(timezone.now() + timedelta(seconds=61))["abandoned_seats"] == 1
    assert roster_entry(series, seat).bot_level == "casual"


def test_sweep_ignores_people_thinking_at_a_table_without_bots(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert sweep.sweep() == {"timeouts": 0, "bots": 0, "next_games": 0,
                             "abandoned_seats": 0, "closed_tables": 0,
                             "presence_reaped": 0, "reannounced": 0}


def test_sweep_hands_an_absent_players_turn_to_a_bot_before_a_longer_clock_runs_out(
        cast, full_table):
    """The instant the others are shown is the earlier of the turn's timeout and the 60 s
    grace (selectors.takeover_deadline): with a clock longer than the grace, the sweep
    keeps that promise too."""
    from games.services import absence
    from tests.games.helpers import roster_entry, users_by_position

    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    far = timezone.now() + timedelta(minutes=10)  # a clock that runs out long after
    Game.objects.filter(pk=game.pk).update(turn_deadline=far)
    seat = state_of(game).turn
    user = users_by_position(series)[seat]
    absence.connected(full_table.pk, "conn-1", user)
    absence.disconnected(full_table.pk, "conn-1", user)
    assert sweep.sweep(timezone.now() + timedelta(seconds=61))["abandoned_seats"] == 1
    assert roster_entry(series, seat).bot_level == "casual"
