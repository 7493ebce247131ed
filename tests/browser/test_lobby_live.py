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
    expect(page.locator("#lobby-list")).to_have_attribute("data-live", "1")  # socket open
    # Services publish after commit; off_loop keeps them off Playwright's event loop.
    table = off_loop(tables.create_table, alice, tables.TableSettings(name="Late night"))
    row = page.locator(f'tr[data-table-id="{table.pk}"]')
    expect(row).to_contain_text("Late night")
    off_loop(tables.take_seat, table.pk, alice, 2)
    expect(row).to_contain_text("alice")
    assert js_errors == []


# Every WebSocket the page opens, in order. While ``kzRefuse`` is set, a new one fails
# as it opens, as one to an unreachable server does. (The browser's offline mode is no
# way to do this: it does not cover WebSockets, microsoft/playwright#4910.)
RECORD_SOCKETS = """
window.kzSockets = [];
window.kzRefuse = false;
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    window.kzSockets.push(this);
    if (window.kzRefuse) this.close();
  }
};
"""


def test_a_table_opened_while_the_lobby_was_offline_shows_when_it_is_back(
        live_site, new_context, django_user_model, off_loop, js_errors):
    """A change announced while the page had no socket was never heard: the page reads
    its list again when its socket opens, so the table is listed all the same."""
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    context = new_context()
    context.add_init_script(RECORD_SOCKETS)
    page = context.new_page()
    page.goto("/tables/")
    lobby = page.locator("#lobby-list")
    expect(lobby).to_have_attribute("data-live", "1")
    expect(lobby).to_contain_text("No open tables")

    # The connection drops and stays down: every reconnect fails.
    page.evaluate("() => { window.kzRefuse = true; window.kzSockets[0].close(); }")
    page.wait_for_function("() => window.kzSockets[0].readyState === WebSocket.CLOSED")
    expect(lobby).not_to_have_attribute("data-live", "1")  # it no longer follows changes
    table = off_loop(tables.create_table, alice, tables.TableSettings(name="While away"))
    page.wait_for_function("() => window.kzSockets.length >= 2"
                           " && window.kzSockets.at(-1).readyState === WebSocket.CLOSED")
    expect(lobby).not_to_contain_text("While away")

    # The connection is back: the next reconnect (after its backoff) opens.
    page.evaluate("() => { window.kzRefuse = false; }")
    expect(lobby.locator(f'tr[data-table-id="{table.pk}"]')).to_contain_text(
        "While away", timeout=20_000)
    assert js_errors == []
