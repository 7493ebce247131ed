"""The one place a game ends (lila's ``finisher``): result, series score, next game.

R16–R18: store the GameResult, add the loss points to the series, finish the series
when a team reaches the target (the goat), otherwise deal the next game after a pause
in which the players read the summary (R15: the last taker leads it).
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.utils import timezone

from games import engine, signals
from games.models import Game, GameResult, Series, Table
from games.services import schedule


def finish_game_locked(game: Game, state: engine.GameState, result: engine.GameOutcome) -> None:
    """Record the end of ``game``. The caller holds the game's row lock."""
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.turn_deadline = None
    game.save(update_fields=["status", "finished_at", "turn_deadline"])
    GameResult.objects.create(
        game=game,
        points_a=result.points["A"], points_b=result.points["B"],
        tricks_a=result.tricks["A"], tricks_b=result.tricks["B"],
        loss_points_a=result.loss_points["A"], loss_points_b=result.loss_points["B"],
        eggs=result.eggs, winner=result.winner or "", last_taker=result.last_taker,
    )
    series = Series.objects.select_for_update().get(pk=game.series_id)
    series_state = engine.record_game(engine.Series.from_dict(series.state), result)
    series.state = series_state.to_dict()
    series.loss_points_a = series_state.loss_points["A"]
    series.loss_points_b = series_state.loss_points["B"]
    series.eggs = series_state.eggs
    fields = ["state", "loss_points_a", "loss_points_b", "eggs"]
    if series_state.over:
        series.status = Series.Status.FINISHED
        series.winner = series_state.winner or ""
        series.goat = series_state.goat or ""
        series.finished_at = now
        fields += ["status", "winner", "goat", "finished_at"]
        Table.objects.filter(pk=series.table_id).update(status=Table.Status.FINISHED,
                                                        updated_at=now)
    series.save(update_fields=fields)

    transaction.on_commit(partial(signals.game_finished.send, sender=Game, game_id=game.pk,
                                  series_id=series.pk))
    if series_state.over:
        transaction.on_commit(partial(signals.series_finished.send, sender=Series,
                                      series_id=series.pk, winner=series.winner,
                                      goat=series.goat))
    else:
        schedule.on_commit_next_game(series.pk, game.number)
