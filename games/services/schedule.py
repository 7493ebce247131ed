"""What is due next: a bot's turn, a turn's timeout, an absence check, the next game.

Tasks carry ids and the version they were scheduled for, never state; they are
enqueued only after the transaction commits, so a worker never sees a version that
was rolled back (STYLE g).

Each (task, id, version) is enqueued at most once: a short-lived Redis marker is set
with ``cache.add`` (SET NX) before the enqueue. That lets :func:`ensure_due_locked` —
called by every task that finds its game moved on — re-queue what the current version
needs without doubling the normal follow-up. It matters when a worker died between a
commit and its enqueue: the redelivered task of the old version then starts the next
step at once instead of leaving the table to the beat sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.utils import timezone

from games.conf import game_settings
from games.services import follow_ups

if TYPE_CHECKING:
    from games.services.locks import Locked

logger = logging.getLogger(__name__)
MARKER_SLACK_SECONDS = 60


def _claim(marker: str, countdown: float, force: bool) -> bool:
    """Claim ``marker``; False if its task was enqueued already (unless ``force``)."""
    key, timeout = f"due:{marker}", int(countdown) + MARKER_SLACK_SECONDS
    try:
        if force:
            cache.set(key, 1, timeout=timeout)
            return True
        return bool(cache.add(key, 1, timeout=timeout))
    except Exception:  # noqa: BLE001 - without the marker, enqueue (tasks are idempotent)
        logger.warning("schedule: marker %s unavailable", marker, exc_info=True)
        return True


def _enqueue(task: Any, marker: str | None, args: tuple[int, int], countdown: float,
             force: bool = False) -> None:
    countdown = max(0.0, countdown)
    if marker is not None and not _claim(marker, countdown, force):
        return
    task.apply_async(args, countdown=countdown)


def bot_turn(game_id: int, version: int, force: bool = False) -> None:
    """Give the bots a chance to act on ``version`` now (in a transaction, use the
    on-commit form). The task decides under the row lock whether a bot may act.

    ``force``: enqueue even if a task for this version ran already, because something
    changed without a new version (a bot took a seat, the series was resumed).
    """
    from games.tasks import bot_turn_task

    _enqueue(bot_turn_task, f"bot:{game_id}:{version}", (game_id, version),
             game_settings.BOT_DELAY_SECONDS, force)


def on_commit_bot_turn(game_id: int, version: int, force: bool = False) -> None:
    follow_ups.on_commit(lambda: bot_turn(game_id, version, force))


def next_game(series_id: int, finished_number: int) -> None:
    from games.tasks import next_game_task

    _enqueue(next_game_task, f"next:{series_id}:{finished_number}",
             (series_id, finished_number), game_settings.NEXT_GAME_DELAY_SECONDS)


def on_commit_next_game(series_id: int, finished_number: int) -> None:
    """After commit, deal the next game of the series after the summary pause."""
    follow_ups.on_commit(lambda: next_game(series_id, finished_number))


def on_commit_turn_timeout(game_id: int, version: int, deadline: datetime,
                           force: bool = False) -> None:
    """After commit, check the clock of ``version`` when its ``deadline`` comes.

    One task per deadline (a resumed series or a reclaimed seat has a new one);
    ``force``: a task that woke early re-arms itself for the same deadline.
    """
    from games.tasks import turn_timeout_task

    marker = f"timeout:{game_id}:{version}:{deadline.timestamp():.3f}"

    def enqueue() -> None:
        seconds = (deadline - timezone.now()).total_seconds()
        _enqueue(turn_timeout_task, marker, (game_id, version), seconds, force)

    follow_ups.on_commit(enqueue)


def disconnect_check(game_id: int, version: int, seconds: float) -> None:
    """See, ``seconds`` from now, whether a player who left on their turn came back.

    Never deduplicated: a player may leave, return and leave again on one version.
    """
    from games.tasks import disconnect_check_task

    _enqueue(disconnect_check_task, None, (game_id, version), seconds)


def ensure_due_locked(locked: Locked) -> None:
    """Queue whatever the current version of the game waits for. Caller holds the locks."""
    ensure_due(locked.game, locked.series)


def ensure_due(game: Any, series: Any) -> None:
    """Queue whatever the current version of ``game`` waits for.

    Called on the no-op path of every task (it found the game moved on), so that a
    follow-up lost between a commit and its enqueue is restored without the sweep. The
    rows may have been read without a lock (locks.lock_for_task): every enqueue here is
    claimed once per version, and the task it queues checks its version under the
    locks, so a row that moved on meanwhile queues nothing wrong.
    """
    from games.models import Game, Series
    from games.selectors import bot_seats

    if series.status != Series.Status.PLAYING:
        return
    if game.status != Game.Status.PLAYING:
        if not series.games.filter(number__gt=game.number).exists():
            on_commit_next_game(series.pk, game.number)
        return
    if game.paused:
        return
    if game.turn_deadline is not None:
        on_commit_turn_timeout(game.pk, game.version, game.turn_deadline)
    if bot_seats(series):
        on_commit_bot_turn(game.pk, game.version)
