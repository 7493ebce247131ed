"""games.services.play.submit_action: legal, illegal, stale, wrong seat, double submit."""

from __future__ import annotations

import secrets
import threading

import pytest
from django.db import close_old_connections

from games import engine
from games.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidRequestError,
    NotFoundError,
    NotYourSeatError,
    StaleVersionError,
)
from games.models import Game, Move, Series, Table
from games.services import play
from games.services import series as series_service
from tests.games.helpers import (
    current_game,
    first_legal,
    play_out_game,
    state_of,
    up_to_the_last_move,
    users_by_position,
)


@pytest.fixture
def series(cast, full_table) -> Series:
    return series_service.start_series(full_table.pk, cast.alice)


def test_r4_r5_start_series_deals_a_game_with_a_secret_seed(series, deal_seeds, monkeypatch):
    game = current_game(series)
    state = state_of(game)
    assert game.number == 1 and game.version == 0
    assert series.first_dealer == game.dealer
    assert game.first_leader == (game.dealer + 1) % 4  # R4
    assert engine.observe(state, 0).to_dict()["hand_sizes"] == [4, 4, 4, 4]  # R5
    assert engine.observe(state, 0).to_dict()["stock_size"] == 20  # R5
    assert game.seed == deal_seeds.drawn[0] and 0 <= game.seed < 2**63  # this test's deal
    # Production draws each seed and the first dealer from secrets, one call each (R4, R5).
    seed_source, first_dealer_source = deal_seeds.production
    assert seed_source() != seed_source()
    calls = []
    monkeypatch.setattr(secrets, "randbits", lambda bits: calls.append(("randbits", bits)) or 5)
    monkeypatch.setattr(secrets, "randbelow", lambda n: calls.append(("randbelow", n)) or 2)
    assert (seed_source(), first_dealer_source()) == (5, 2)
    assert calls == [("randbits", 63), ("randbelow", 4)]


def test_legal_action_is_applied_and_logged(series):
    game = current_game(series)
    state = state_of(game)
    users = users_by_position(series)
    leader = state.turn
    action = first_legal(state, leader, "lead")
    version = play.submit_action(game.pk, users[leader], action.to_dict(), 0)
    assert version == 1
    game.refresh_from_db()
    assert game.version == 1
    move = Move.objects.get(game=game)
    assert (move.seq, move.seat, move.kind) == (1, leader, "lead")
    assert sorted(move.cards) == sorted(c.code for c in action.cards)
    assert state_of(game).to_dict() == engine.apply(state, leader, action).to_dict()


def test_illegal_action_names_the_rule_and_changes_nothing(series):
    game = current_game(series)
    state = state_of(game)
    users = users_by_position(series)
    leader = state.turn
    hand = engine.observe(state, leader).to_dict()["hand"]
    # R9: a beat when nothing was led is not legal; a lead of cards not in hand neither.
    not_mine = next(c.code for c in engine.parse_cards(
        ["6C", "7C", "8C", "9C", "JC", "QC", "KC", "TC", "AC", "6H", "7H", "8H", "9H", "JH"])
        if c.code not in hand)
    for bad, rule in [({"kind": "beat", "cards": hand[:1]}, "R9: nothing to beat yet"),
                      ({"kind": "lead", "cards": [not_mine]},
                       f"R8: {engine.parse_card(not_mine).symbol} not in seat {leader}'s hand")]:
        with pytest.raises(IllegalMoveError) as info:
            play.submit_action(game.pk, users[leader], bad, 0)
        assert info.value.message.startswith(rule), info.value.message
    game.refresh_from_db()
    assert game.version == 0 and Move.objects.filter(game=game).count() == 0


def test_stale_version_is_refused(series):
    game = current_game(series)
    state = state_of(game)
    users = users_by_position(series)
    action = first_legal(state, state.turn, "lead")
    play.submit_action(game.pk, users[state.turn], action.to_dict(), 0)
    nxt = state_of(game)
    with pytest.raises(StaleVersionError) as info:
        play.submit_action(game.pk, users[nxt.turn], first_legal(nxt, nxt.turn).to_dict(), 0)
    assert info.value.current_version == 1
    assert Move.objects.filter(game=game).count() == 1


def test_wrong_seat_and_stranger_are_refused(series, cast):
    game = current_game(series)
    state = state_of(game)
    users = users_by_position(series)
    not_on_turn = (state.turn + 1) % 4
    action = first_legal(state, state.turn, "lead")
    with pytest.raises(IllegalMoveError):
        play.submit_action(game.pk, users[not_on_turn], action.to_dict(), 0)
    with pytest.raises(NotYourSeatError):
        play.submit_action(game.pk, cast.charlie, action.to_dict(), 0)
    with pytest.raises(NotYourSeatError):
        play.submit_action(game.pk, None, action.to_dict(), 0)
    assert Move.objects.filter(game=game).count() == 0


@pytest.mark.parametrize("bad_action, bad_version", [
    ("lead", 0), ({"kind": "lead"}, 0), ({"kind": "lead", "cards": "AH"}, 0),
    ({"kind": "steal", "cards": ["AH"]}, 0), ({"kind": "lead", "cards": ["ZZ"]}, 0),
    ({"kind": "lead", "cards": ["AH", "AH"]}, 0), ({"kind": "lead", "cards": []}, 0),
    ({"kind": "lead", "cards": ["AH"] * 5}, 0), ({"kind": "lead", "cards": ["AH"]}, "0"),
    ({"kind": "lead", "cards": ["AH"]}, -1), ({"kind": "lead", "cards": ["AH"]}, True),
])
def test_malformed_input_is_refused(series, bad_action, bad_version):
    game = current_game(series)
    users = users_by_position(series)
    with pytest.raises(InvalidRequestError):
        play.submit_action(game.pk, users[0], bad_action, bad_version)
    assert Move.objects.filter(game=game).count() == 0


def test_unknown_game_is_not_found(series, cast):
    with pytest.raises(NotFoundError):
        play.submit_action(999999, cast.alice, {"kind": "lead", "cards": ["AH"]}, 0)
    with pytest.raises(NotFoundError):
        play.submit_action("1", cast.alice, {"kind": "lead", "cards": ["AH"]}, 0)


def test_game_over_refuses_actions_and_series_progresses(series):
    users = users_by_position(series)
    game = current_game(series)
    final = play_out_game(game, users)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = game.result
    assert result.points_a + result.points_b == 120  # R16
    outcome = engine.outcome(final)
    assert (result.loss_points_a, result.loss_points_b) == (
        outcome.loss_points["A"], outcome.loss_points["B"])
    with pytest.raises(GameOverError):
        play.submit_action(game.pk, users[0], {"kind": "lead", "cards": ["AH"]}, game.version)
    series.refresh_from_db()
    assert (series.loss_points_a, series.loss_points_b) == (
        result.loss_points_a, result.loss_points_b)
    # R15: the next game is dealt by the seat before the last taker, who leads.
    nxt = series_service.start_next_game(series.pk, game.number)
    assert nxt is not None and nxt.number == 2
    assert nxt.first_leader == result.last_taker
    assert nxt.dealer == (result.last_taker - 1) % 4
    assert nxt.seed != game.seed
    assert series_service.start_next_game(series.pk, game.number) is None  # idempotent


def test_an_act_naming_an_ended_game_or_another_tables_is_refused(series):
    """An ended game of this table is over, a game of another table (or none, or an id
    no game can have) is not found, and naming the game being played is an act."""
    users = users_by_position(series)
    game = current_game(series)
    play_out_game(game, users)
    nxt = series_service.start_next_game(series.pk, game.number)
    table_id = series.table_id
    leader = nxt.first_leader
    act = {"kind": "lead", "cards": [first_legal(state_of(nxt), leader).cards[0].code]}
    with pytest.raises(GameOverError, match="That game is over"):
        play.submit_table_action(table_id, users[leader], act, nxt.version, game.pk)
    for elsewhere in (10 ** 9, 0, -5, 2 ** 63, 10 ** 30):
        with pytest.raises(NotFoundError):
            play.submit_table_action(table_id, users[leader], act, nxt.version, elsewhere)
    other = Table.objects.create(name="Elsewhere", owner=users[leader])
    with pytest.raises(NotFoundError):
        play.submit_table_action(other.pk, users[leader], act, nxt.version, nxt.pk)
    assert Move.objects.filter(game=nxt).count() == 0
    assert play.submit_table_action(table_id, users[leader], act, nxt.version,
                                    nxt.pk) == nxt.version + 1


def test_an_illegal_or_stale_act_is_refused_with_its_reason_and_changes_nothing(series):
    """The engine's reason (R8: only the seat on lead leads); ``stale`` with the current
    version for an act on another version; no seat, a paused game, a malformed act."""
    from django.contrib.auth.models import AnonymousUser

    users = users_by_position(series)
    game = current_game(series)
    table_id, leader = series.table_id, game.first_leader
    other = (leader + 1) % 4
    lead = first_legal(state_of(game), leader, "lead").to_dict()
    with pytest.raises(IllegalMoveError, match=f"^R8: seat {leader} is on lead"):
        play.submit_table_action(table_id, users[other], lead, 0)
    with pytest.raises(StaleVersionError) as stale:  # a version not reached
        play.submit_table_action(table_id, users[leader], lead, 1)
    assert stale.value.current_version == 0
    with pytest.raises(NotYourSeatError):
        play.submit_table_action(table_id, AnonymousUser(), lead, 0)
    with pytest.raises(InvalidRequestError):
        play.submit_table_action(table_id, users[leader], {"kind": "lead"}, 0)
    Game.objects.filter(pk=game.pk).update(paused=True)
    with pytest.raises(GameOverError, match="paused"):
        play.submit_table_action(table_id, users[leader], lead, 0)
    assert Move.objects.filter(game=game).count() == 0
    assert Game.objects.get(pk=game.pk).version == 0


def test_r18_series_runs_to_its_target_and_names_the_goat(cast, table):
    from games.services import tables

    table.series_target = 6
    table.save()
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    users = users_by_position(series)
    for _ in range(40):
        game = current_game(series)
        play_out_game(game, users)
        series.refresh_from_db()
        if series.status != Series.Status.PLAYING:
            break
        series_service.start_next_game(series.pk, game.number)
    assert series.status == Series.Status.FINISHED
    assert max(series.loss_points_a, series.loss_points_b) >= 6
    loser = "A" if series.loss_points_a >= 6 else "B"
    assert series.goat == loser and series.winner == ({"A": "B", "B": "A"}[loser])
    table.refresh_from_db()
    assert table.status == "finished"


@pytest.mark.django_db(transaction=True)
def test_double_submission_applies_exactly_once(cast):
    from games.services import tables
    from tests.games.conftest import make_user

    players = [make_user(f"p{i}") for i in range(4)]
    t = tables.create_table(players[0], tables.TableSettings(name="race"))
    for i, user in enumerate(players):
        tables.take_seat(t.pk, user, i)
    series = series_service.start_series(t.pk, players[0])
    game = current_game(series)
    state = state_of(game)
    action = first_legal(state, state.turn, "lead").to_dict()
    user = users_by_position(series)[state.turn]
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def submit() -> None:
        barrier.wait()
        try:
            play.submit_action(game.pk, user, action, 0)
            outcomes.append("applied")
        except (StaleVersionError, IllegalMoveError) as exc:
            outcomes.append(type(exc).__name__)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["StaleVersionError", "applied"]
    assert Move.objects.filter(game=game).count() == 1


def test_series_records_both_teams_when_partners_are_people(series, cast):
    assert {series.team_ns.player_low_id, series.team_ns.player_high_id} == {
        cast.alice.pk, cast.carol.pk}
    assert {series.team_ew.player_low_id, series.team_ew.player_high_id} == {
        cast.bob.pk, cast.dan.pk}


def test_a_team_with_a_bot_is_not_recorded(cast):
    from tests.games.helpers import start_with_bots

    series = start_with_bots(cast.alice)
    assert series.team_ns is None and series.team_ew is None


def test_a_moves_broadcast_is_sent_before_its_next_tasks(
        cast, monkeypatch, django_capture_on_commit_callbacks):
    """After commit the move's broadcast goes first, then the turn's timeout and, at a
    game's end, the next game (registered in that order). The event carries the
    deadline the move stored (read on commit, after the clock was armed)."""
    from games import events
    from tests.games.helpers import clocked_game_after_one_move

    series, game = clocked_game_after_one_move(cast)
    users = users_by_position(series)
    order: list[str] = []
    sent: list[list] = []
    real_send_task = events.send_task

    def note_send(messages):
        order.append("broadcast")
        sent.append(list(messages))

    def note_send_task(name, *args, **kwargs):
        order.append(name.rsplit(".", 1)[-1])
        real_send_task(name, *args, **kwargs)

    monkeypatch.setattr(events, "send_events", note_send)
    monkeypatch.setattr(events, "send_task", note_send_task)
    state = state_of(game)
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, users[state.turn], first_legal(state, state.turn)
                           .to_dict(), game.version)
    assert order == ["broadcast", "turn_timeout"]
    stored = Game.objects.get(pk=game.pk)
    assert stored.turn_deadline is not None
    assert {message["turn_deadline"] for group, message in sent[0]
            if message["type"] == "table.event"} == {stored.turn_deadline.isoformat()}

    game, action = up_to_the_last_move(series, users)
    order.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play.submit_action(game.pk, users[state_of(game).turn], action.to_dict(),
                           game.version)
    assert order[0] == "broadcast" and "next_game" in order, order
