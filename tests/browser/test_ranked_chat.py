"""A ranked table has no free chat, only the preset lines, one click each."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import expect

from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_ranked_table_offers_preset_chat_only(live_site, new_context, django_user_model,
                                             js_errors):
    players = []
    for name in ["alice", "bob", "carol", "dan"]:
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "x" * 20)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        players.append(user)
    table = tables.create_table(players[0], tables.TableSettings(
        name="Ranked", kind="ranked", turn_seconds=30))
    for position, user in enumerate(players):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, players[0])
    page = new_context(user=players[1]).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    page.wait_for_function("() => window.kozelTable && window.kozelTable.state.open")
    expect(page.locator("#kz-chat-input")).to_have_count(0)
    page.get_by_role("button", name="Well played").click()
    expect(page.locator("#kz-chat-list")).to_contain_text("Well played")
    assert js_errors == []
