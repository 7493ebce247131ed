"""A player at a clocked table does nothing, sees the countdown, and sees the
server play for them (the Casual bot's choice, recorded as a timeout)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Conduct, Move
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_idle_player_sees_the_countdown_and_the_server_plays(live_site, new_context,
                                                            django_user_model, settings,
                                                            celery_worker, js_errors):
    # Clocks are armed in this process and in the in-process worker: 4 s instead of 15 s.
    settings.KOZEL_TURN_SECONDS_OVERRIDE = 4.0
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Idle", turn_seconds=15))
    tables.take_seat(table.pk, alice, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, alice, position, "random")
    series = series_service.start_series(table.pk, alice)
    page = new_context(user=alice).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    assert th.wait_for_turn_or_end(page, timeout=30) == "turn"
    ring = page.locator('.kz-seat[data-seat="0"] .clock-ring')
    expect(ring).to_be_visible()
    assert 0 < int(ring.locator(".ring-text").inner_text()) <= 4
    # alice does nothing. The server plays for her and everyone is told.
    expect(page.locator("#kz-flash")).to_contain_text("time ran out", timeout=15_000)
    deadline = time.monotonic() + 10
    while not Move.objects.filter(game__series=series, seat=0, source="timeout").exists():
        assert time.monotonic() < deadline, "no timeout move was recorded"
        time.sleep(0.1)
    assert Conduct.objects.filter(user=alice, kind="timeout").exists()
    assert js_errors == []
