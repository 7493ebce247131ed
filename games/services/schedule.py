"""What is due next: a bot's turn, a turn's timeout, an absence check, the next game.

Tasks carry ids and the version they were scheduled for, never state; they are
enqueued only after the transaction commits (games/events.py), so a worker never sees
a version that was rolled back.

Each (task, id, version) is enqueued at most once (a marker, ``once``). That lets
:func:`ensure_due`, called by every task that finds its game moved on, re-queue
what the current version needs without doubling the normal follow-up: a worker that
died between a commit and its enqueue leaves nothing for the beat sweep to find.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games import events
from games.conf import game_settings
from games.models import Game, Series
from games.selectors import bot_seats
from games.services import locks
from games.services.locks import Locked

BOT_TURN_TASK = "games.bot_turn"
NEXT_GAME_TASK = "games.next_game"
TURN_TIMEOUT_TASK = "games.turn_timeout"
DISCONNECT_CHECK_TASK = "games.disconnect_check"


def bot_turn(game_id: int, version: int, force: bool = False) -> None:
    """After commit, give the bots a chance to act on ``version``. The task decides
    under the row lock whether a bot may act.

    ``force``: enqueue even if a task for this version ran already, because something
    changed without a new version (a bot took a seat, the series was resumed).
    """
    events.send_task_on_commit(BOT_TURN_TASK, (game_id, version),
                               countdown=game_settings.BOT_DELAY_SECONDS,
                               once=f"bot:{game_id}:{version}", force=force)


def next_game(series_id: int, finished_number: int) -> None:
    """After commit, deal the next game of the series after the summary pause."""
    events.send_task_on_commit(NEXT_GAME_TASK, (series_id, finished_number),
                               countdown=game_settings.NEXT_GAME_DELAY_SECONDS,
                               once=f"next:{series_id}:{finished_number}")


def turn_timeout(game_id: int, version: int, deadline: datetime, force: bool = False) -> None:
    """After commit, check the clock of ``version`` when its ``deadline`` comes.

    One task per deadline (a resumed series or a reclaimed seat has a new one);
    ``force``: a task that woke early re-arms itself for the same deadline.
    """
    events.send_task_on_commit(TURN_TIMEOUT_TASK, (game_id, version), eta=deadline,
                               once=f"timeout:{game_id}:{version}:{deadline.timestamp():.3f}",
                               force=force)


def disconnect_check(game_id: int, version: int, seconds: float) -> None:
    """After commit, see, ``seconds`` from then, whether a player who left on their
    turn came back. Never deduplicated: a player may leave, return and leave again on
    one version."""
    events.send_task_on_commit(DISCONNECT_CHECK_TASK, (game_id, version), countdown=seconds)


def lock_for_task(game_id: int, expected_version: int) -> Locked | None:
    """The start of every delayed task: the locked rows when the game is still live at
    ``expected_version`` (locks.lock_for_task), else None; when the game moved on, what
    its current version waits for is queued first, so a follow-up lost between a
    commit and its enqueue is restored at once."""
    found = locks.lock_for_task(game_id, expected_version)
    if isinstance(found, locks.MovedOn):
        ensure_due(found.game, found.series)
        return None
    return found


def ensure_due(game: Any, series: Any) -> None:
    """Queue whatever the current version of ``game`` waits for.

    Called on the no-op path of every task (it found the game moved on), so that a
    follow-up lost between a commit and its enqueue is restored without the sweep. The
    rows may have been read without a lock (locks.lock_for_task): every enqueue here is
    claimed once per version, and the task it queues checks its version under the
    locks, so a row that moved on meanwhile queues nothing wrong.
    """
    if series.status != Series.Status.PLAYING:
        return
    if game.status != Game.Status.PLAYING:
        if not series.games.filter(number__gt=game.number).exists():
            next_game(series.pk, game.number)
        return
    if game.paused:
        return
    if game.turn_deadline is not None:
        turn_timeout(game.pk, game.version, game.turn_deadline)
    if bot_seats(series):
        bot_turn(game.pk, game.version)
