"""Without JavaScript the table page still shows the seats and the lobby forms work."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import tables

pytestmark = pytest.mark.browser


def test_lobby_forms_work_without_javascript(live_site, new_context, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Plain HTML"))
    page = new_context(user=alice, java_script_enabled=False).new_page()
    page.goto(f"/table/{table.pk}/")
    lobby = page.locator("#kz-lobby")
    expect(lobby.locator("li")).to_have_count(4)
    expect(lobby.locator("li").first).to_contain_text("Empty")
    mine = lobby.locator('li[data-position="0"]')
    mine.get_by_role("button", name="Sit here").click()
    expect(mine).to_contain_text("alice")
    expect(mine.get_by_role("button", name="Leave")).to_be_visible()
    row = lobby.locator('li[data-position="1"]')
    row.get_by_label("Bot level for seat 2").select_option("club")
    row.get_by_role("button", name="Add bot").click()
    expect(lobby.locator('li[data-position="1"]')).to_contain_text("Boris (Club)")
    expect(page.locator("#kz-status")).to_be_visible()
