"""games/events.py: what follows a commit is sent after it, in the order registered,
never for a rolled-back change, and a failure never reaches the committed caller."""

from __future__ import annotations

import ast
import asyncio
import importlib
import logging
import uuid
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from games import events

ROOT = Path(__file__).resolve().parents[2]


async def _listen() -> tuple[Any, str, str]:
    layer = get_channel_layer()
    group, channel = f"test.{uuid.uuid4().hex}", await layer.new_channel()
    await layer.group_add(group, channel)
    return layer, group, channel


async def _next(layer: Any, channel: str) -> dict[str, Any]:
    return await asyncio.wait_for(layer.receive(channel), 5)


@pytest.mark.django_db(transaction=True)
async def test_a_rolled_back_change_sends_nothing_and_a_committed_one_sends_in_order():
    layer, group, channel = await _listen()
    hooks: list[str] = []

    def write() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            events.send_event_on_commit(group, {"type": "rolled.back"})
            events.after_commit(lambda: hooks.append("rolled back"))
            raise RuntimeError("roll back")
        with transaction.atomic():
            events.send_event_on_commit(group, {"type": "first"})
            events.after_commit(lambda: hooks.append("hook"))
            events.send_events_on_commit(lambda: [(group, {"type": "second"}),
                                                  (group, {"type": "third"})])
            assert hooks == [], "nothing runs before the commit"

    # As a socket's database call: the sends run on this event loop (asgiref).
    await database_sync_to_async(write)()
    assert [(await _next(layer, channel))["type"] for _ in range(3)] == [
        "first", "second", "third"]
    assert hooks == ["hook"]


@pytest.mark.django_db(transaction=True)
async def test_a_failure_after_commit_is_logged_and_the_rest_still_runs(caplog):
    layer, group, channel = await _listen()
    hooks: list[str] = []

    def write() -> None:
        with transaction.atomic():
            events.send_events_on_commit(lambda: [(group, {"type": "made"})][5])
            events.after_commit(lambda: 1 / 0)
            events.after_commit(lambda: hooks.append("later hook"))
            events.send_event_on_commit(group, {"type": "after the failures"})

    with caplog.at_level(logging.ERROR, logger="games.events"):
        await database_sync_to_async(write)()  # raises nothing: the commit stands
    assert (await _next(layer, channel))["type"] == "after the failures"
    assert hooks == ["later hook"]
    assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 2


@pytest.mark.django_db
def test_once_enqueues_a_step_once_unless_forced(monkeypatch, django_capture_on_commit_callbacks):
    """The broker is the boundary faked here."""
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(events.current_app, "send_task",
                        lambda name, args, **options: sent.append((name, args, options)))
    marker = f"test:{uuid.uuid4().hex}"
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for _ in range(3):
            events.send_task_on_commit("games.bot_turn", (1, 2), countdown=3, once=marker)
        events.send_task_on_commit("games.bot_turn", (1, 2), countdown=3, once=marker,
                                   force=True)
        events.send_task_on_commit("queue.match", expires=10)
    assert sent == [("games.bot_turn", (1, 2), {"ignore_result": True, "countdown": 3}),
                    ("games.bot_turn", (1, 2), {"ignore_result": True, "countdown": 3}),
                    ("queue.match", (), {"ignore_result": True, "countdown": 0.0,
                                         "expires": 10})]


def _task_names_sent() -> list[tuple[str, str]]:
    """(module, task name) of every ``send_task_on_commit`` call in the project's code,
    the name evaluated in its module (a literal or a module-level constant)."""
    found = []
    for package in ("games", "accounts", "kozel_site"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts or path == ROOT / "games" / "events.py":
                continue
            tree = ast.parse(path.read_text())
            calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and (getattr(node.func, "id", None) == "send_task_on_commit"
                          or getattr(node.func, "attr", None) == "send_task_on_commit")]
            if not calls:
                continue
            module_name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            module = importlib.import_module(module_name)
            for call in calls:
                found.append((module_name, eval(ast.unparse(call.args[0]), vars(module))))  # noqa: S307
    return found


def test_every_task_sent_by_name_is_a_registered_task():
    """Services send tasks by name (the tasks import the services): a typo or a renamed
    task would be lost silently on the broker."""
    from kozel_site.celery import app

    app.loader.import_default_modules()
    sent = _task_names_sent()
    assert len({module for module, _ in sent}) >= 4, sent  # the check sees the callers
    assert [(m, name) for m, name in sent if name not in app.tasks] == []
