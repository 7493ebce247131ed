"""The one place a game or a series ends (lila's ``Finisher``).

Every end goes through here with a termination reason (models.Termination):

- ``completed``: the game was played out (R14); the series ends when a team reaches
  the target (R18, the goat), else the next game is dealt after a pause in which the
  players read the summary (R15: the last taker leads it);
- ``voted_end``: the players voted to end a casual series (services/votes.py);
- ``abandoned``: nobody was at the table any more (services/sweep.py);
- ``voided``: a moderator voided the series: its games stay in the record, every one
  marked ``voided`` (the played-out ones keep their result and termination);
- ``round_time``: a tournament round's time limit (games/tournaments): the caller sets
  the winner and the goat by fewer loss points (equal: neither) before calling;
- ``game_limit``: a tournament match of a fixed number of games has played them (the
  winner and the goat set the same way);
- ``forfeit``: a tournament director forfeited the match mid-play: the series stops
  with no winner and no goat (the match's result records who forfeited).

The hooks fire after commit with the reason (games/signals.py, games/events.py), and
the apps that react
(ratings, later tournaments and moderation) act on that reason explicitly. Callers
hold the locks in the order of services/locks.py.
"""

from __future__ import annotations

from functools import partial

from django.utils import timezone

from games import engine, events, signals
from games.models import Game, GameResult, Series, Table, Termination
from games.services import schedule
from games.services.locks import Locked

SERIES_STATUS = {
    Termination.COMPLETED: Series.Status.FINISHED,
    Termination.VOTED_END: Series.Status.ABORTED,
    Termination.ABANDONED: Series.Status.ABORTED,
    Termination.VOIDED: Series.Status.VOIDED,
    Termination.ROUND_TIME: Series.Status.FINISHED,
    Termination.GAME_LIMIT: Series.Status.FINISHED,
    Termination.FORFEIT: Series.Status.ABORTED,
}
# A game stopped before its end: by a vote or an empty table, or voided.
STOPPED_GAME_STATUS = {
    Termination.VOTED_END: Game.Status.ABORTED,
    Termination.ABANDONED: Game.Status.ABORTED,
    Termination.VOIDED: Game.Status.VOIDED,
    Termination.ROUND_TIME: Game.Status.ABORTED,
    Termination.GAME_LIMIT: Game.Status.ABORTED,
    Termination.FORFEIT: Game.Status.ABORTED,
}
TABLE_STATUS = {
    Termination.COMPLETED: Table.Status.FINISHED,
    Termination.VOTED_END: Table.Status.FINISHED,
    Termination.ABANDONED: Table.Status.ABANDONED,
    Termination.VOIDED: Table.Status.FINISHED,
    Termination.ROUND_TIME: Table.Status.FINISHED,
    Termination.GAME_LIMIT: Table.Status.FINISHED,
    Termination.FORFEIT: Table.Status.FINISHED,
}


def finish_game_locked(locked: Locked, state: engine.GameState,
                       result: engine.GameOutcome) -> None:
    """A game was played out (R14–R17): store its result, score the series (R18)."""
    game, series = locked.game, locked.series
    now = timezone.now()
    game.status = Game.Status.FINISHED
    game.termination = Termination.COMPLETED
    game.finished_at = now
    game.turn_deadline = None
    game.turn_seat = None
    game.save(update_fields=["status", "termination", "finished_at", "turn_deadline",
                             "turn_seat"])
    GameResult.objects.create(
        game=game,
        points_a=result.points["A"], points_b=result.points["B"],
        tricks_a=result.tricks["A"], tricks_b=result.tricks["B"],
        loss_points_a=result.loss_points["A"], loss_points_b=result.loss_points["B"],
        eggs=result.eggs, winner=result.winner or "", last_taker=result.last_taker,
    )
    series_state = engine.record_game(engine.Series.from_dict(series.state), result)
    series.state = series_state.to_dict()
    series.loss_points_a = series_state.loss_points["A"]
    series.loss_points_b = series_state.loss_points["B"]
    series.eggs = series_state.eggs
    series.save(update_fields=["state", "loss_points_a", "loss_points_b", "eggs"])
    events.after_commit(partial(signals.game_finished.send, sender=Game, game_id=game.pk,
                                series_id=series.pk))
    if series_state.over:
        series.winner = series_state.winner or ""
        series.goat = series_state.goat or ""
        end_series_locked(locked.table, series, Termination.COMPLETED)
    else:
        schedule.next_game(series.pk, game.number)


def end_series_locked(table: Table, series: Series, termination: str) -> None:
    """End ``series`` for ``termination``; a game still being played stops with it.

    The caller holds the table's and the series' locks (and the live game's, if it
    locked it). Ending a series that already ended is refused loudly: callers check.
    """
    if termination not in SERIES_STATUS:
        raise ValueError(f"unknown termination {termination!r}")
    termination = Termination(termination)
    if series.status != Series.Status.PLAYING and termination != Termination.VOIDED:
        raise ValueError(f"series {series.pk} has already ended")
    now = timezone.now()
    if termination in STOPPED_GAME_STATUS:
        Game.objects.filter(series=series, status=Game.Status.PLAYING).update(
            status=STOPPED_GAME_STATUS[termination], termination=termination,
            finished_at=now, turn_deadline=None, turn_seat=None)
    if termination == Termination.VOIDED:
        # A void takes the whole series out of the record: the games already played out
        # keep their moves, result, replay and termination ("completed") but read void,
        # not finished, everywhere (history, replay, record, the table's games list).
        Game.objects.filter(series=series, status=Game.Status.FINISHED).update(
            status=Game.Status.VOIDED)
    series.status = SERIES_STATUS[termination]
    series.termination = termination
    series.finished_at = series.finished_at or now
    series.save(update_fields=["status", "termination", "finished_at", "winner", "goat"])
    if table.status == Table.Status.PLAYING or termination == Termination.ABANDONED:
        table.status = TABLE_STATUS[termination]
        table.save(update_fields=["status", "updated_at"])
    events.after_commit(partial(signals.series_finished.send, sender=Series,
                                series_id=series.pk, winner=series.winner,
                                goat=series.goat, termination=termination))
