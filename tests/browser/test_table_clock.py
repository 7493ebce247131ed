"""A table with a turn clock: a countdown ring on the seat to act, and only there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

RINGS_AND_TURN = """() => [
    [...document.querySelectorAll('.clock-ring')].map(r => r.closest('.kz-seat').dataset.seat),
    document.getElementById('kz-table').dataset.turn]"""


def test_countdown_ring_on_the_seat_to_act(live_site, new_context, django_user_model,
                                           celery_worker, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Clocked", turn_seconds=30))
    tables.take_seat(table.pk, alice, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, alice, position, "random")
    series_service.start_series(table.pk, alice)
    page = new_context(user=alice).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    assert th.wait_for_turn_or_end(page) == "turn"
    ring = page.locator('.kz-seat[data-seat="0"] .clock-ring')
    expect(ring).to_be_visible()
    expect(page.locator(".clock-ring")).to_have_count(1)
    seconds = int(ring.locator(".ring-text").inner_text())
    assert 0 < seconds <= 30
    expect(ring).to_have_attribute("role", "timer")
    # The ring sits only on the seat to act (bots' turns have no deadline).
    th.play_one_turn(page)
    for _ in range(20):
        rings, turn = page.evaluate(RINGS_AND_TURN)
        assert rings in ([], [turn]), (rings, turn)
        page.wait_for_timeout(50)
    assert js_errors == []
