"""A commit's follow-ups (games/services/follow_ups.py, issue 15): on a web process the
next task's enqueue and the end hooks run on their own thread, in order, after the
move has been answered; anywhere else at once."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache

from games import signals
from games.services import follow_ups, publish
from kozel_site.ws import db_call
from tests.games.helpers import (
    seated_and_started,
    state_of,
    up_to_the_last_move,
    users_by_position,
)
from tests.games.ws import connect
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_game_one_move_from_its_end(cast):
    """A casual series whose current game has one move left (R14), and that move."""
    series = seated_and_started(cast, "follow-ups")
    users = users_by_position(series)
    game, action = up_to_the_last_move(series, users)
    return series.table, series, game, users[state_of(game).turn], action


async def test_a_slow_end_hook_never_holds_the_movers_event(cast):
    """R14: the game's last move is answered, and its event reaches the mover, while a
    receiver of ``game_finished`` is still busy (was: the mover's socket, which handles
    one message at a time, got its event only after every hook of the move had run;
    a game's end was the slowest move at 100 tables). The hooks then run, in order, on
    the follow-up thread: the end hook first, then the next game's enqueue."""
    table, series, game, mover, action = await a_game_one_move_from_its_end(cast)
    release, ran = threading.Event(), []

    def slow_receiver(sender, series_id, **kwargs):
        ran.append(("game_finished", threading.current_thread().name))
        release.wait(10)

    signals.game_finished.connect(slow_receiver, dispatch_uid="test-slow-end-hook")
    try:
        socket = await connect(table.pk, mover)
        await socket.receive_type("snapshot")
        await socket.send({"type": "act", "action": action.to_dict(),
                           "version": game.version})
        event = await socket.receive_type("event", timeout=3)
        assert event["version"] == game.version + 1 and event["view"]["game_over"]
        await asyncio.to_thread(wait_for, lambda: ran, 5, "the end hook to run")
        assert ran[0][1].startswith("follow-up")
        marker = f"due:next:{series.pk}:{game.number}"
        assert await database_sync_to_async(cache.get)(marker) is None  # queued behind
        release.set()
        await asyncio.to_thread(wait_for, lambda: cache.get(marker) is not None, 5,
                                "the next game's enqueue")
        await socket.close()
    finally:
        release.set()
        signals.game_finished.disconnect(dispatch_uid="test-slow-end-hook")


async def test_follow_ups_run_in_order_and_a_failure_is_only_logged(caplog):
    """On a web process (here: a database call made for a socket's event loop, as a
    site consumer makes it) follow-ups run on the
    one follow-up thread in the order given; one that raises is logged and the next
    still runs; the caller never waits for them."""
    done: list[tuple[int, str]] = []
    release = threading.Event()

    def step(n: int) -> None:
        if n == 1:
            release.wait(10)
        if n == 2:
            raise RuntimeError("the broker is away")
        done.append((n, threading.current_thread().name))

    def hand_on() -> list:
        return [follow_ups.run(lambda n=n: step(n)) for n in (1, 2, 3)]

    publish.serve_from_this_loop()  # as every site consumer does (kozel_site/ws.py)
    with caplog.at_level(logging.ERROR, logger="games.services.follow_ups"):
        futures = await db_call(hand_on)()
        assert all(f is not None and not f.done() for f in futures)  # handed on
        release.set()
        await asyncio.wait_for(asyncio.gather(*map(asyncio.wrap_future, futures)), 5)
    assert [n for n, _ in done] == [1, 3]
    assert all(name.startswith("follow-up") for _, name in done)
    assert "the broker is away" in caplog.text


def test_off_a_web_process_a_follow_up_runs_at_once_and_raises():
    """A Celery worker, a command or a test's own thread runs it where it was
    registered (and an error reaches the caller, as any hook's)."""
    seen: list[str] = []
    assert follow_ups.run(lambda: seen.append(threading.current_thread().name)) is None
    assert seen == [threading.current_thread().name]
    with pytest.raises(ZeroDivisionError):
        follow_ups.run(lambda: 1 / 0)
