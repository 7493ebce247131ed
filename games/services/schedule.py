"""What is due next after a commit: a bot's turn, the next game.

Tasks carry ids and the version they were scheduled for, never state; they are
enqueued only after the transaction commits, so a worker never sees a version that
was rolled back (STYLE g).
"""

from __future__ import annotations

from django.db import transaction

from games.conf import game_settings


def on_commit_after_change(game_id: int, version: int) -> None:
    """After commit, give the bots a chance to act on ``version``.

    The task decides (under the row lock) whether any bot may act; enqueuing it when no
    bot is due costs one cheap no-op, and keeps the decision in one place.
    """
    transaction.on_commit(lambda: _enqueue_bot_turn(game_id, version))


def _enqueue_bot_turn(game_id: int, version: int) -> None:
    from games.tasks import bot_turn_task

    bot_turn_task.apply_async((game_id, version), countdown=game_settings.BOT_DELAY_SECONDS)


def on_commit_next_game(series_id: int, finished_number: int) -> None:
    """After commit, deal the next game of the series after the summary pause."""

    def enqueue() -> None:
        from games.tasks import next_game_task

        next_game_task.apply_async((series_id, finished_number),
                                   countdown=game_settings.NEXT_GAME_DELAY_SECONDS)

    transaction.on_commit(enqueue)


def on_commit_turn_timeout(game_id: int, version: int, seconds: float) -> None:
    """After commit, check the clock of ``version`` when its time is up."""

    def enqueue() -> None:
        from games.tasks import turn_timeout_task

        turn_timeout_task.apply_async((game_id, version), countdown=max(0.0, seconds))

    transaction.on_commit(enqueue)


def on_commit_disconnect_check(game_id: int, version: int, seconds: float) -> None:
    """After commit, see whether a player who left on their turn came back in time."""

    def enqueue() -> None:
        from games.tasks import disconnect_check_task

        disconnect_check_task.apply_async((game_id, version), countdown=max(0.0, seconds))

    transaction.on_commit(enqueue)
