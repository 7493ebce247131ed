"""A dropped socket: the banner, the backoff reconnect, the resync; and the table chat."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_reconnect_after_a_dropped_socket_and_chat(live_site, new_context, django_user_model,
                                                    js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    page = new_context(user=alice).new_page()
    table_id = th.create_table(page, "Flaky wifi")
    other = new_context(user=bob).new_page()
    other.goto(f"/table/{table_id}/")
    th.wait_ready(other)
    page.wait_for_function("() => window.kozelTable && window.kozelTable.state.open")

    # The socket drops: a banner at once, then a reconnect with backoff and a resync.
    page.evaluate("window.kozelTable.state.ws.close()")
    banner = page.get_by_role("status").filter(has_text="Connection lost — reconnecting…")
    expect(banner).to_be_visible()
    expect(page.locator("#kz-banner")).to_be_hidden(timeout=5000)
    # Back on a new socket: pushed snapshots arrive again (bob sits down, alice sees it).
    th.sit(other, 1)
    expect(page.locator('#kz-lobby li[data-position="1"]')).to_contain_text("bob")
    th.sit(page, 0)
    th.add_bot(page, 2)

    # Chat: text is shown as text (never as HTML), to everyone at the table.
    page.get_by_label("Chat message").fill("<b>good luck</b> & have fun")
    page.get_by_role("button", name="Send").click()
    for p in (page, other):
        line = p.locator("#kz-chat-list li").last
        expect(line).to_contain_text("<b>good luck</b> & have fun")
        expect(line.locator("b")).to_have_count(0)
    assert page.get_by_label("Chat message").get_attribute("maxlength") == "300"
    assert js_errors == []


def test_a_deleted_table_stops_reconnecting_and_says_so(live_site, new_context, django_user_model,
                                                        off_loop, js_errors):
    # A browser never sees the 4404 close code (daphne answers the refused handshake with
    # HTTP 403, the socket closes with 1006), so the page asks the table page itself.
    from games.models import Table

    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    page = new_context(user=alice).new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    table_id = th.create_table(page, "Short-lived")
    page.wait_for_function("() => window.kozelTable && window.kozelTable.state.open")

    off_loop(lambda: Table.objects.filter(pk=table_id).delete())
    page.evaluate("window.kozelTable.state.ws && window.kozelTable.state.ws.close()")
    expect(page.locator("#kz-banner")).to_have_text("This table no longer exists.", timeout=15000)
    tried = len(sockets)
    page.wait_for_timeout(6000)  # longer than the next backoff delay would be (at most 5 s)
    assert len(sockets) == tried, sockets
    assert page.evaluate("window.kozelTable.state.stopped") is True
    expect(page.locator("#kz-banner")).to_have_text("This table no longer exists.")
    assert js_errors == []
