"""A server process builds Celery's task sending at start-up (kozel_site/task_sending.py):
the first game to end in a web process no longer finalises the app, builds the result
backend, imports their modules and declares the queue mid-game (python -m tests.load
fuzz, issue 15). Each check runs in a fresh interpreter, against this run's broker: the
test process has long built all of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Start-up as a web process does it, then the first task sent, to a queue of its own
# (deleted after) that no worker reads.
AFTER_START_UP = """
import json, sys
import django
django.setup()
from kozel_site.celery import app
from kozel_site.gc_tuning import freeze_after_start_up
finalized_before = app.finalized
freeze_after_start_up()
queue = app.amqp.queues[app.conf.task_default_queue]
with app.producer_or_acquire() as producer:
    declared = hash(queue) in producer.connection.declared_entities
modules = set(sys.modules)
from games.tasks import bot_turn_task  # as games/services/schedule.py does, on first use
bot_turn_task.apply_async((0, 0), countdown=3600)
imported_by_first_task = sorted(set(sys.modules) - modules)
with app.connection_for_write() as connection:
    queue(connection.default_channel).delete()
print(json.dumps({"finalized_before": finalized_before, "finalized": app.finalized,
                  "declared": declared, "imported_by_first_task": imported_by_first_task}))
"""

BROKER_DOWN = """
import json, time
import django
django.setup()
from kozel_site.task_sending import warm_task_sending
began = time.monotonic()
answered = warm_task_sending()
print(json.dumps({"answered": answered, "seconds": time.monotonic() - began}))
"""


def _run(probe: str, **env: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=180,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "kozel_site.settings.base",
                              "KOZEL_FREEZE_AFTER_START_UP": "true", **env})
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_start_up_builds_what_the_first_task_sent_would_build():
    figures = _run(AFTER_START_UP, KOZEL_CELERY_QUEUE=f"kozel-warm-{uuid.uuid4().hex[:8]}")
    assert figures["finalized_before"] is False  # a fresh process: nothing built yet
    assert figures["finalized"] is True
    assert figures["declared"] is True, "the queue is declared on the pooled connection"
    # Without the warm-up the first task imported games.tasks, celery.contrib.django.task,
    # the result backend's modules and more: with no bytecode written ~100 ms of a web
    # process.
    assert figures["imported_by_first_task"] == [], figures["imported_by_first_task"]


def test_a_broker_that_is_down_costs_start_up_one_attempt_not_kombus_retries():
    figures = _run(BROKER_DOWN, KOZEL_BROKER_URL="redis://127.0.0.1:1/0")
    assert figures["answered"] is False
    assert figures["seconds"] < 3, figures  # kombu's own retries took 6 s
