"""Screens that tell the truth: chat lines shown once through a load, a reload
and a reconnect; a line a moderator hides in the admin vanishes from open screens;
"Play again" clears the last series' summary; "Your game is on" on every page and a
"Play now" that asks before opening a second table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def chat_lines(page, text: str):
    """A line in either chat (bob is not seated, so his lines are spectators' lines, which
    alice reads while she is not seated either)."""
    return page.locator(".kz-chat-list li").filter(has_text=text)


def test_each_chat_line_appears_once_after_load_reload_and_reconnect(
        live_site, new_context, django_user_model, off_loop, js_errors):
    from games.services import chat

    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    page = new_context(user=alice).new_page()
    table_id = th.create_table(page, "Chatty")
    for text in ("first line", "second line"):
        off_loop(chat.post_message, table_id, bob, text)
    for text in ("first line", "second line"):
        expect(chat_lines(page, text)).to_have_count(1)
    page.reload()  # the page renders the backlog, then the socket's snapshot repeats it
    th.wait_ready(page)
    page.wait_for_function("() => window.kozelTable && window.kozelTable.state.open")
    for text in ("first line", "second line"):
        expect(chat_lines(page, text)).to_have_count(1)
    page.evaluate("window.kozelTable.state.ws.close()")
    expect(page.locator("#kz-banner")).to_be_hidden(timeout=5000)
    page.wait_for_function("() => window.kozelTable.state.open")
    off_loop(chat.post_message, table_id, bob, "third line")
    expect(chat_lines(page, "third line")).to_have_count(1)
    for text in ("first line", "second line"):
        expect(chat_lines(page, text)).to_have_count(1)
    assert js_errors == []


def test_a_line_hidden_in_the_admin_vanishes_from_open_screens(
        live_site, new_context, django_user_model, off_loop, js_errors):
    from games.services import chat

    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    moderator = django_user_model.objects.create_superuser("mod", "mod@example.com", "x" * 20)
    page = new_context(user=alice).new_page()
    table_id = th.create_table(page, "Moderated")
    off_loop(chat.post_message, table_id, bob, "nasty words")
    off_loop(chat.post_message, table_id, bob, "a kind word")
    expect(chat_lines(page, "nasty words")).to_have_count(1)

    admin = new_context(user=moderator).new_page()
    admin.goto("/admin/games/chatmessage/?q=nasty")
    admin.locator("input[name=_selected_action]").first.check()
    admin.locator("select[name=action]").select_option("hide_messages")
    admin.get_by_role("button", name="Go").click()
    expect(admin.locator(".messagelist")).to_contain_text("1 message(s) hidden")

    # Gone from alice's open screen at once, without a reload; the rest stays.
    expect(chat_lines(page, "nasty words")).to_have_count(0)
    expect(chat_lines(page, "a kind word")).to_have_count(1)
    page.reload()
    th.wait_ready(page)
    expect(chat_lines(page, "nasty words")).to_have_count(0)
    assert js_errors == []


def test_play_again_clears_the_last_series_and_shows_the_new_game(
        live_site, new_context, django_user_model, off_loop, celery_worker, settings,
        js_errors):
    from games.services import tables

    alice = django_user_model.objects.create_user("alice", password="x" * 20)

    def show_table() -> int:
        table = tables.create_table(alice, tables.TableSettings(name="Show", series_target=6))
        for position in range(4):
            tables.add_bot(table.pk, alice, position, "random")
        return table.pk

    table_id = off_loop(show_table)
    page = new_context(user=alice).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    page.locator("#kz-lobby").get_by_role("button", name="Start").click()
    series_end = page.get_by_role("dialog", name="Series over")
    expect(series_end).to_be_visible(timeout=60_000)
    summary = page.get_by_role("dialog", name="Game summary")
    # The series card comes first; the last game's summary is one click away from it.
    expect(summary).to_be_hidden()
    series_end.get_by_role("button", name="Last game's summary").click()
    expect(summary).to_be_visible()
    expect(series_end).to_be_hidden()
    summary.get_by_role("button", name="Back to the series result").click()
    expect(series_end).to_be_visible()
    old_game = page.locator("#kz-table").get_attribute("data-game-id")
    # Slow the bots down so that the new series is still on its first game when we look.
    settings.KOZEL_BOT_DELAY_SECONDS = 1.0
    series_end.get_by_role("button", name="Play again").click()
    expect(series_end).to_be_hidden(timeout=3000)
    expect(summary).to_be_hidden(timeout=2000)
    expect(page.locator("#kz-table")).not_to_have_attribute("data-game-id", old_game or "")
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#kz-trump .trump-suit")).to_be_visible()
    expect(page.locator("#kz-stock .stock-count")).to_be_visible()
    assert js_errors == []


def test_your_game_is_on_everywhere_and_play_now_asks_first(
        live_site, new_context, django_user_model, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    page = new_context(user=alice).new_page()
    page.goto("/")
    page.get_by_role("button", name="Play now against bots").click()
    expect(page).to_have_url(th.TABLE_URL)
    table_url = page.url
    th.wait_ready(page)
    banner = page.get_by_role("status").filter(has_text="Your game is on")
    expect(banner).to_have_count(0)  # not on the table itself
    for path in ("/leaderboard/", "/rules/", "/tables/", f"/@/{alice.username}"):
        page.goto(path)
        expect(banner).to_be_visible()
    banner.get_by_role("link").click()
    expect(page).to_have_url(table_url)
    expect(page.locator("#kz-hand .hand-card").first).to_be_visible()

    page.goto("/")
    page.get_by_role("button", name="Play now against bots").click()
    expect(page.get_by_role("heading", name="You are already playing")).to_be_visible()
    page.get_by_role("link", name="Return to your game").click()
    expect(page).to_have_url(table_url)
    assert js_errors == []
