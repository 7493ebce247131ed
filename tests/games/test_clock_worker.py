"""Real-worker integration tests against real Redis for clocks, redelivery and the sweep."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings

from games.models import Game, Move, Series
from games.services import series as series_service
from games.services import tables
from games.tasks import turn_timeout_task
from tests.games.helpers import current_game, start_with_bots, state_of

ROOT = Path(__file__).resolve().parents[2]
# Children use this run's test database, and restore a dead worker's tasks after 10 s.
CHILD_ENV = {"DJANGO_SETTINGS_MODULE": "kozel_site.settings.test",
             "KOZEL_USE_TEST_DATABASE": "1", "KOZEL_CELERY_VISIBILITY_TIMEOUT": "10"}
pytestmark = [pytest.mark.worker, pytest.mark.slow]


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_humans_timeout_makes_the_server_play_for_them(cast, settings, celery_worker):
    settings.KOZEL_TURN_SECONDS_OVERRIDE = 1.0
    table = tables.create_table(cast.alice, tables.TableSettings(name="t", turn_seconds=15))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    wait_for(lambda: Move.objects.filter(game=game, source="timeout").exists(), 20,
             "the server to play the timed-out turn")
    move = Move.objects.filter(game=game).first()
    assert move.source == "timeout" and move.seq == 1


def test_duplicate_and_late_timeout_tasks_change_nothing(cast, settings, celery_worker):
    table = tables.create_table(cast.alice, tables.TableSettings(name="t", turn_seconds=15))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    from datetime import timedelta

    from django.utils import timezone

    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    for _ in range(3):  # a duplicated task
        turn_timeout_task.apply_async((game.pk, 0))
    wait_for(lambda: Move.objects.filter(game=game).count() >= 1, 20, "one timeout move")
    time.sleep(1.5)
    assert Move.objects.filter(game=game).count() == 1
    turn_timeout_task.apply_async((game.pk, 0))  # late: version 0 is long gone
    turn_timeout_task.apply_async(("not-an-id", -1))  # bad arguments are refused
    time.sleep(1.5)
    assert Move.objects.filter(game=game).count() == 1


def _worker_process(extra_env: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, **CHILD_ENV, **extra_env}
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kozel_site", "worker", "-P", "threads",
         "-c", "2", "-Q", django_settings.CELERY_TASK_DEFAULT_QUEUE, "-l", "WARNING",
         "-n", f"kill-me-{os.getpid()}@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def test_killed_worker_bot_turn_is_redelivered_and_the_table_finishes(cast, transactional_db,
                                                                     settings):
    """kill -9 a worker holding a bot-turn task (acks_late): another worker gets it back."""
    settings.KOZEL_BOT_DELAY_SECONDS = 3.0  # the first worker reserves the task, then dies
    table = tables.create_table(cast.alice, tables.TableSettings(name="k", series_target=6))
    for position in range(4):
        tables.add_bot(table.pk, cast.alice, position, "random")
    victim = _worker_process({"KOZEL_BOT_DELAY_SECONDS": "3"})
    try:
        time.sleep(4)  # let it start and connect
        series = series_service.start_series(table.pk, cast.alice)
        time.sleep(1.0)  # the worker has reserved the countdown task, unacked
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
        game = current_game(series)
        assert Move.objects.filter(game=game).count() == 0
    finally:
        if victim.poll() is None:
            os.killpg(victim.pid, signal.SIGKILL)
    settings.KOZEL_BOT_DELAY_SECONDS = 0.0
    rescuer = _worker_process({"KOZEL_BOT_DELAY_SECONDS": "0"})
    try:
        wait_for(lambda: Move.objects.filter(game=game).exists(), 60,
                 "the redelivered bot turn")
        wait_for(lambda: Series.objects.get(pk=series.pk).status == "finished", 180,
                 "the bots to finish the series")
    finally:
        os.killpg(rescuer.pid, signal.SIGTERM)
        rescuer.wait(timeout=30)


def test_beat_sweep_rescues_a_table_whose_task_was_lost(cast, transactional_db, settings):
    """Delete the queued bot task from Redis; celery beat's sweep gets the table moving."""
    table_series = start_with_bots(cast.alice, ("random",) * 3, target=6)
    game = current_game(table_series)
    state = state_of(game)
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    prefix = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
    queue_key = prefix + django_settings.CELERY_TASK_DEFAULT_QUEUE
    from games.services import play
    from tests.games.helpers import first_legal

    if state.turn == 0:
        play.submit_action(game.pk, cast.alice, first_legal(state, 0).to_dict(), 0)
    time.sleep(0.3)
    assert client.delete(queue_key) >= 0  # every queued task is lost
    client.delete(prefix + "unacked", prefix + "unacked_index")
    game.refresh_from_db()
    before = game.version
    env = {"KOZEL_SWEEP_SECONDS": "1", "KOZEL_BOT_DELAY_SECONDS": "0"}
    worker = _worker_process(env)
    beat = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kozel_site", "beat", "-l", "WARNING",
         "-s", str(ROOT / ".run" / f"beat-{os.getpid()}")],
        cwd=ROOT, env={**os.environ, **CHILD_ENV, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: Game.objects.get(pk=game.pk).version > before, 60,
                 "the sweep to move the stalled bot")
    finally:
        for process in (beat, worker):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
