"""A task that comes due after its game moved on never waits for the table's lock
(at tables with a clock every move queues the next turn's timeout, nearly all
of which come due stale, and each took the table's lock in line with the players' moves;
python -m tests.load play --clock 30 collapsed once they began to arrive)."""

from __future__ import annotations

import threading

from django.db import connection, connections

from games.services import play
from tests.games.helpers import clocked_game_after_one_move, current_game
from tests.waiting import wait_for


def test_a_stale_timeout_is_dropped_while_a_move_holds_the_table(postgresql, cast):
    series, game = clocked_game_after_one_move(cast)
    table_id = series.table_id
    holder = connections.create_connection("default")  # a move in progress at the table
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [table_id])
        outcome: dict = {}

        def timeout_task_of_version_0() -> None:
            try:
                outcome["result"] = play.play_timeout(game.pk, 0)
            finally:
                connection.close()

        worker = threading.Thread(target=timeout_task_of_version_0)
        worker.start()
        wait_for(lambda: "result" in outcome, timeout=5,
                 what="the stale timeout task to return while the table is locked")
        assert outcome["result"] is None
        holder.rollback()
        worker.join(5)
    finally:
        holder.close()
    assert current_game(series).version == 1
