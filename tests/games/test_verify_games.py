"""``manage.py verify_games``: a game played through the services verifies; each kind of
tampering with what was stored is reported, one line each, with a non-zero exit."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games import engine
from games.models import Game, GameResult, Move, Series, SeriesSeat
from games.services import play
from games.services import series as series_service
from tests.games.helpers import (
    assert_games_verified,
    current_game,
    start_with_bots,
    state_of,
)


def verify_games(*args: str) -> str:
    """Run the command; return its output (it must succeed)."""
    out = StringIO()
    call_command("verify_games", *args, stdout=out)
    return out.getvalue()


def verify_games_fails(*args: str) -> list[str]:
    """Run the command, which must exit non-zero; return its output lines."""
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_games", *args, stdout=out)
    assert failed.value.returncode == 1
    lines = out.getvalue().splitlines()
    assert lines[-1].endswith(f": {len(lines) - 1} anomalies"), lines
    return lines


def act_once(game: Game, person) -> None:
    """One move: alice (seat 0) plays her first legal action on her turn, else a bot."""
    game.refresh_from_db()
    state = state_of(game)
    if state.turn == 0:
        action = engine.legal_actions(state, 0)[0]
        play.submit_action(game.pk, person, action.to_dict(), game.version)
    else:
        assert play.play_bot_turn(game.pk, game.version) is not None


def play_out(game: Game, person) -> Game:
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        act_once(game, person)


@pytest.fixture
def played(cast) -> Series:
    """alice and three random bots: game 1 played out, game 2 five moves in."""
    series = start_with_bots(cast.alice)
    play_out(current_game(series), cast.alice)
    second = series_service.start_next_game(series.pk, 1)
    assert second is not None
    for _ in range(5):
        act_once(second, cast.alice)
    series.refresh_from_db()
    return series


def test_a_game_played_through_the_services_verifies(played):
    first, second = played.games.order_by("number")
    assert first.status == Game.Status.FINISHED and second.status == Game.Status.PLAYING
    assert played.loss_points_a + played.loss_points_b > 0 or first.result.eggs
    assert verify_games().splitlines() == ["verified 2 games in 1 series: 0 anomalies"]
    assert verify_games(str(first.pk)).splitlines() == [
        "verified 1 games in 1 series: 0 anomalies"]
    assert "verified 2 games" in verify_games("--all")
    assert_games_verified()


def test_a_deleted_move_is_reported(played):
    game = current_game(played)
    Move.objects.filter(game=game, seq=3).delete()
    lines = verify_games_fails()
    assert f"game {game.pk}: move seq 3 missing" in lines
    assert f"game {game.pk}: version 5 but 4 moves stored" in lines
    with pytest.raises(AssertionError, match=f"game {game.pk}: move seq 3 missing"):
        assert_games_verified()


def test_an_edited_move_is_reported(played):
    game = played.games.get(number=1)
    move = Move.objects.get(game=game, seq=1)
    start = engine.new_game(game.seed, game.dealer, game.first_leader, game.algorithm)
    other = next(a for a in engine.legal_actions(start, move.seat)
                 if sorted(c.code for c in a.cards) != sorted(move.cards))
    Move.objects.filter(pk=move.pk).update(kind=other.kind, cards=[c.code for c in other.cards])
    lines = verify_games_fails(str(game.pk))
    assert any(line.startswith(f"game {game.pk}: ") and ("does not replay" in line
               or "differs from the replay" in line) for line in lines), lines


def test_a_move_of_cards_not_held_is_reported(played):
    game = current_game(played)
    move = Move.objects.get(game=game, seq=1)
    held = {c.code for c in engine.new_game(game.seed, game.dealer, game.first_leader,
                                            game.algorithm).hands[move.seat]}
    foreign = next(code for code in (engine.Card(i).code for i in range(36))
                   if code not in held)
    Move.objects.filter(pk=move.pk).update(kind="lead", cards=[foreign])
    lines = verify_games_fails(str(game.pk))
    assert any(line.startswith(f"game {game.pk}: move seq 1 (seat {move.seat} lead {foreign})"
                               " does not replay: R8") for line in lines), lines


def test_a_changed_cached_state_is_reported(played):
    game = current_game(played)
    data = game.state
    hands = data["core"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    Game.objects.filter(pk=game.pk).update(state=data)
    lines = verify_games_fails()
    assert f"game {game.pk}: cached state differs from the replay of its moves (hands)" in lines


def test_a_malformed_cached_state_is_reported(played):
    game = current_game(played)
    Game.objects.filter(pk=game.pk).update(state={**game.state, "history": "lost"})
    lines = verify_games_fails()
    assert any(line.startswith(f"game {game.pk}: cached state refused:") for line in lines)


def test_an_old_format_cache_still_verifies(played):
    """Rows written before the cache format (kozel-state/1) are replayed and agree."""
    game = current_game(played)
    state = state_of(game)
    old = {"format": "kozel-state/1", "seed": state.seed, "algorithm": state.algorithm,
           "start": state.start.to_dict(),
           "actions": [[seat, a.to_dict()] for seat, a in state.actions]}
    Game.objects.filter(pk=game.pk).update(state=old)
    assert verify_games().splitlines()[-1].endswith(": 0 anomalies")


def test_a_changed_result_is_reported(played):
    game = played.games.get(number=1)
    GameResult.objects.filter(game=game).update(points_a=game.result.points_a + 1)
    lines = verify_games_fails()
    assert (f"game {game.pk}: result points_a is {game.result.points_a + 1}, "
            f"the replay gives {game.result.points_a}") in lines


def test_changed_series_loss_points_are_reported(played):
    Series.objects.filter(pk=played.pk).update(loss_points_a=played.loss_points_a + 2)
    lines = verify_games_fails()
    assert (f"series {played.pk}: loss points A {played.loss_points_a + 2}, its finished "
            f"games add up to {played.loss_points_a}") in lines


def test_a_finished_series_without_a_goat_over_the_target_is_reported(played):
    Game.objects.filter(series=played, status=Game.Status.PLAYING).delete()
    Series.objects.filter(pk=played.pk).update(status=Series.Status.FINISHED, goat="A")
    lines = verify_games_fails("--all")
    assert any(line.startswith(f"series {played.pk}: goat A has ") for line in lines), lines


def test_a_stalled_game_with_nobody_to_act_is_reported(cast, played):
    game = current_game(played)
    while state_of(game).turn == 0:  # a bot's seat to act
        act_once(game, cast.alice)
    seat = state_of(game).turn
    SeriesSeat.objects.filter(series=played, position=seat).delete()
    Game.objects.filter(pk=game.pk).update(turn_deadline=None)
    lines = verify_games_fails()
    assert any(line.startswith(f"game {game.pk}: waits on nobody: seat ") for line in lines)
    # A clock that will play for the seat, or a paused game, waits on somebody.
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now())
    assert verify_games().endswith(": 0 anomalies\n")
    Game.objects.filter(pk=game.pk).update(turn_deadline=None, paused=True)
    assert verify_games().endswith(": 0 anomalies\n")


def test_a_live_game_of_a_series_not_playing_is_reported(played):
    game = current_game(played)
    Series.objects.filter(pk=played.pk).update(status=Series.Status.ABORTED)
    lines = verify_games_fails()
    assert (f"game {game.pk}: still playing in series {played.pk}, which is aborted"
            in lines)


def test_selection_by_default_since_and_all(played):
    first = played.games.get(number=1)
    long_ago = timezone.now() - timedelta(days=3)
    Game.objects.filter(pk=first.pk).update(started_at=long_ago, finished_at=long_ago)
    GameResult.objects.filter(game=first).update(points_a=(first.result.points_a + 1) % 121)
    # By default only the live game and the last 24 hours are looked at.
    assert verify_games().splitlines() == ["verified 1 games in 1 series: 0 anomalies"]
    day = (long_ago - timedelta(days=1)).date().isoformat()
    assert verify_games_fails("--since", day)[-1] == "verified 2 games in 1 series: 1 anomalies"
    assert verify_games_fails("--all")[-1].startswith("verified 2 games")
    assert verify_games_fails(str(first.pk))[-1].startswith("verified 1 games")


@pytest.mark.parametrize("args", [("--all", "--since", "2026-01-01"), ("1", "--all"),
                                  ("--since", "yesterday"), ("999999",)])
def test_bad_options_are_refused(played, args):
    with pytest.raises(CommandError) as refused:
        call_command("verify_games", *args, stdout=StringIO())
    assert "anomalies" not in str(refused.value)
