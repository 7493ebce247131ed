"""The lobby list updates live, without a reload, when a table opens or fills."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import tables

pytestmark = pytest.mark.browser


def test_lobby_shows_a_new_table_and_its_seats_without_reload(live_site, page,
                                                             django_user_model, off_loop,
                                                             js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    page.goto("/tables/")
    expect(page.locator("#lobby-list")).to_contain_text("No open tables")
    page.wait_for_timeout(300)  # the lobby socket is open
    # Services publish after commit; off_loop keeps them off Playwright's event loop.
    table = off_loop(tables.create_table, alice, tables.TableSettings(name="Late night"))
    row = page.locator(f'tr[data-table-id="{table.pk}"]')
    expect(row).to_contain_text("Late night")
    off_loop(tables.take_seat, table.pk, alice, 2)
    expect(row).to_contain_text("alice")
    assert js_errors == []
