"""The table head's score chip as the page's JavaScript renders it: a seated player reads
yours–theirs, their own team's figure first and marked (R1: seat 1 is team B)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Series
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_a_seated_player_reads_the_series_score_as_yours_theirs(live_site, new_context,
                                                               django_user_model, off_loop,
                                                               js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Chip"))
    tables.take_seat(table.pk, alice, 0)
    tables.take_seat(table.pk, bob, 1)
    for position in (2, 3):
        tables.add_bot(table.pk, alice, position, "random")
    series = series_service.start_series(table.pk, alice)
    Series.objects.filter(pk=series.pk).update(loss_points_a=4, loss_points_b=8)
    page = new_context(user=bob).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    chip = page.locator("#kz-score")
    expect(chip).to_have_text("yours 8 – 4 theirs / 12")
    expect(chip.locator(".is-yours")).to_have_class("team-B is-yours")
    assert "your team 8, theirs 4" in chip.get_attribute("aria-label")
    watcher = new_context().new_page()
    watcher.goto(f"/table/{table.pk}/")
    th.wait_ready(watcher)
    expect(watcher.locator("#kz-score")).to_have_text("A 4 – B 8 / 12")
    assert js_errors == []
