"""Real-worker integration tests against real Redis for clocks, redelivery and the sweep."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from celery.signals import task_postrun
from django.conf import settings as django_settings

from games.models import Game, Move, Series
from games.services import series as series_service
from games.services import tables
from games.tasks import bot_turn_task, turn_timeout_task
from kozel_site.celery import app
from tests.games.helpers import current_game, start_with_bots, state_of
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
# Children use this run's test database, and restore a dead worker's tasks after 10 s.
CHILD_ENV = {"DJANGO_SETTINGS_MODULE": "kozel_site.settings.test",
             "KOZEL_USE_TEST_DATABASE": "1", "KOZEL_CELERY_VISIBILITY_TIMEOUT": "10"}
pytestmark = [pytest.mark.worker, pytest.mark.broker, pytest.mark.slow]
requires_redis_broker = pytest.mark.skipif(
    not django_settings.BROKER_IS_REDIS,
    reason="reads kombu's Redis transport (its queue list and unacked hash); a killed "
           "worker on RabbitMQ is measured by python -m tests.load faults --broker rabbitmq")


def redis_client() -> redis.Redis:
    return redis.Redis.from_url(django_settings.REDIS_URL)


def broker_key(name: str) -> str:
    return django_settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] + name


def queued_tasks(client: redis.Redis) -> list[tuple[str, str]]:
    """``(task name, argsrepr)`` of every message waiting in this run's queue."""
    raw = client.lrange(broker_key(django_settings.CELERY_TASK_DEFAULT_QUEUE), 0, -1)
    return [(m["headers"]["task"], m["headers"]["argsrepr"]) for m in map(json.loads, raw)]


def unacked_task_ids(client: redis.Redis) -> set[str]:
    """Ids of the tasks delivered to a worker and not acknowledged (kombu's ``unacked``
    hash: ``[message, exchange, routing_key]`` per delivery tag)."""
    return {json.loads(v)[0]["headers"]["id"] for v in client.hvals(broker_key("unacked"))}


@contextmanager
def finished_tasks() -> Iterator[set[str]]:
    """The ids of the tasks that finished in this process (an in-process worker) while
    the block runs."""
    done: set[str] = set()

    def record(task_id: str | None = None, **_: object) -> None:
        done.add(str(task_id))

    task_postrun.connect(record, weak=False)
    try:
        yield done
    finally:
        task_postrun.disconnect(record)


def held_by(worker: str, task_name: str, args: list[object]) -> str | None:
    """The id of the ``task_name(*args)`` task ``worker`` holds without running it yet
    (scheduled for its countdown, or reserved), asking the worker itself."""
    inspect = app.control.inspect(destination=[worker], timeout=0.5)
    held = [entry["request"] for entry in (inspect.scheduled() or {}).get(worker, [])]
    held += (inspect.reserved() or {}).get(worker, [])
    for request in held:
        if request["name"] == task_name and list(request["args"]) == args:
            return str(request["id"])
    return None


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
    with finished_tasks() as done:  # the in-process worker runs tasks in this process
        duplicates = {turn_timeout_task.apply_async((game.pk, 0)).id for _ in range(3)}
        wait_for(lambda: duplicates <= done, 20, "all three copies to run")
        assert Move.objects.filter(game=game).count() == 1
        late = {turn_timeout_task.apply_async((game.pk, 0)).id,  # version 0 is long gone
                turn_timeout_task.apply_async(("not-an-id", -1)).id}  # bad arguments
        wait_for(lambda: late <= done, 20, "the late and the bad task to run")
    assert Move.objects.filter(game=game).count() == 1


def _worker_process(extra_env: dict[str, str], role: str = "worker"
                    ) -> tuple[subprocess.Popen[bytes], str]:
    """A worker child process and its node name (for control commands)."""
    env = {**os.environ, **CHILD_ENV, **extra_env}
    name = f"{role}-{os.getpid()}@{socket.gethostname()}"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "kozel_site", "worker", "-P", "threads",
         "-c", "2", "-Q", django_settings.CELERY_TASK_DEFAULT_QUEUE, "-l", "WARNING",
         "-n", name, "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    return process, name


def _wait_until_up(name: str) -> None:
    wait_for(lambda: app.control.ping(destination=[name], timeout=0.5), 60,
             f"worker {name} to answer a ping")


@requires_redis_broker
def test_killed_worker_bot_turn_is_redelivered_and_the_table_finishes(cast, transactional_db,
                                                                     settings, deal_seeds):
    """kill -9 a worker holding a bot-turn task (acks_late): another worker gets it back."""
    # The countdown keeps the task unrun on the victim, well within the 10 s visibility.
    settings.KOZEL_BOT_DELAY_SECONDS = 6.0
    table = tables.create_table(cast.alice, tables.TableSettings(name="k", series_target=6))
    for position in range(4):
        tables.add_bot(table.pk, cast.alice, position, "random")
    client = redis_client()
    victim, victim_name = _worker_process({"KOZEL_BOT_DELAY_SECONDS": "6"}, "victim")
    try:
        _wait_until_up(victim_name)
        series = series_service.start_series(table.pk, cast.alice)
        game = current_game(series)
        # The victim itself says it holds this game's first bot turn, not yet run.
        task_id = wait_for(lambda: held_by(victim_name, bot_turn_task.name, [game.pk, 0]), 5,
                           "the victim to reserve the bot-turn task")
        assert task_id in unacked_task_ids(client)
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait(timeout=10)
        assert Move.objects.filter(game=game).count() == 0
        # Dead without acknowledging: the message waits in Redis to be restored.
        assert task_id in unacked_task_ids(client)
        assert queued_tasks(client) == []
    finally:
        if victim.poll() is None:
            os.killpg(victim.pid, signal.SIGKILL)
    settings.KOZEL_BOT_DELAY_SECONDS = 0.0
    rescuer, _ = _worker_process({"KOZEL_BOT_DELAY_SECONDS": "0"}, "rescuer")
    try:
        wait_for(lambda: Move.objects.filter(game=game).exists(), 120,
                 "the redelivered bot turn")
        # That move was the victim's task, restored and acknowledged by the rescuer.
        wait_for(lambda: task_id not in unacked_task_ids(client), 30,
                 "the redelivered task to be acknowledged")
        wait_for(lambda: Series.objects.get(pk=series.pk).status == "finished", 180,
                 "the bots to finish the series")
    finally:
        os.killpg(rescuer.pid, signal.SIGTERM)
        rescuer.wait(timeout=30)


@requires_redis_broker
def test_beat_sweep_rescues_a_table_whose_task_was_lost(cast, transactional_db, settings,
                                                       deal_seeds):
    """Delete the queued bot task from Redis; celery beat's sweep gets the table moving."""
    deal_seeds.first_dealer = 0  # R4: seat 1, a bot, leads
    table_series = start_with_bots(cast.alice, ("random",) * 3, target=6)
    game = current_game(table_series)
    assert state_of(game).turn == 1
    client = redis_client()
    # Published on commit, before start_with_bots returned; nothing consumes this queue.
    assert (bot_turn_task.name, repr((game.pk, 0))) in queued_tasks(client)
    assert client.delete(broker_key(django_settings.CELERY_TASK_DEFAULT_QUEUE)) == 1
    client.delete(broker_key("unacked"), broker_key("unacked_index"))
    before = game.version
    env = {"KOZEL_SWEEP_SECONDS": "1", "KOZEL_BOT_DELAY_SECONDS": "0"}
    worker, _ = _worker_process(env)
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
