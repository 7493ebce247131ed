"""Absent players, tables and people, as a new player meets them: the countdown to a bot
at an absent player's seat and the bot at their first timeout; the creator seated at
their new table, its share link, a private table's page without its link; "Online now"
counting you and following live; a follow's notification and a badge that drops when
an invitation is answered."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from games.models import Conduct, Move
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

CLOCK = 8.0  # seconds: a short table clock, in this process and its in-process worker


def test_an_absent_players_seat_shows_the_countdown_and_a_bot_plays_at_the_first_timeout(
        live_site, new_context, django_user_model, settings, deal_seeds, celery_worker,
        off_loop, js_errors):
    settings.KOZEL_TURN_SECONDS_OVERRIDE = CLOCK
    deal_seeds.first_dealer = 0  # seat 1 (bob) leads the first trick (R4)
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Absent", turn_seconds=15))
    tables.take_seat(table.pk, bob, 1)
    tables.take_seat(table.pk, alice, 3)
    for position in (0, 2):
        tables.add_bot(table.pk, alice, position, "random")
    pages = {}
    for user in (alice, bob):
        pages[user.username] = new_context(user=user).new_page()
        pages[user.username].goto(f"/table/{table.pk}/")
        th.wait_ready(pages[user.username])
    series = off_loop(series_service.start_series, table.pk, alice)
    alice_page = pages["alice"]
    expect(alice_page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    bob_plate = alice_page.locator('.kz-seat[data-seat="1"]')
    expect(bob_plate.locator(".turn-marker")).to_be_visible()
    expect(bob_plate.locator(".takeover-tag")).to_have_count(0)  # bob is here

    pages["bob"].close()  # bob walks away on his own turn

    # Alice sees, at once and at bob's seat, when a bot will take over, counting down.
    countdown = bob_plate.locator(".takeover-tag")
    expect(countdown).to_have_text(re.compile(r"a bot plays in \d+ seconds?"), timeout=5000)
    seconds = int(re.search(r"\d+", countdown.inner_text())[0])
    assert 0 < seconds <= CLOCK
    shown_at = int(countdown.get_attribute("data-at")) / 1000
    th.screenshot(alice_page, "absent-player-countdown")
    # The bot takes the seat at bob's first timeout: not a second clock later.
    expect(bob_plate).to_contain_text("away · bot plays", timeout=(CLOCK + 6) * 1000)
    expect(bob_plate.locator(".takeover-tag")).to_have_count(0)
    abandon = Conduct.objects.get(user=bob, kind="abandon")
    assert abandon.reason == "disconnect"
    assert Conduct.objects.filter(user=bob, kind="timeout").count() == 1
    assert Move.objects.filter(game__series=series, seat=1, source="timeout").count() == 1
    assert abs(abandon.created_at.timestamp() - shown_at) < 3, (
        datetime.fromtimestamp(shown_at, UTC), abandon.created_at)
    assert js_errors == []


def test_the_creator_sits_shares_the_link_and_a_private_table_explains_itself(
        live_site, new_context, django_user_model, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    carol = django_user_model.objects.create_user("carol", password="x" * 20)
    page = new_context(user=alice, permissions=["clipboard-read", "clipboard-write"]).new_page()

    # A new table: its creator is seated at once, and the page offers its link to share.
    page.goto("/tables/new/")
    page.get_by_label("Name").fill("Open evening")
    expect(page.get_by_label("Take a seat myself")).to_be_checked()
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(th.TABLE_URL)
    th.wait_ready(page)
    table_id = int(th.TABLE_URL.search(page.url)[1])
    expect(th.seat_row(page, 0)).to_contain_text("alice")
    expect(th.seat_row(page, 0).get_by_role("button", name="Leave")).to_be_visible()
    link = page.get_by_label("Share this link")
    expect(link).to_have_value(live_site.path(f"/table/{table_id}/"))
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#kz-invite-copied")).to_have_text("Link copied: send it to a friend.")
    assert page.evaluate("navigator.clipboard.readText()") == live_site.path(f"/table/{table_id}/")

    # A private table: without its link a stranger is told why and what to do.
    page.goto("/tables/new/")
    page.get_by_label("Name").fill("Just us")
    page.get_by_label("Private").check()
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(th.TABLE_URL)
    th.wait_ready(page)
    private_id = int(th.TABLE_URL.search(page.url)[1])
    invite = page.get_by_label("Share this link").input_value()
    assert "/t/" in invite
    stranger = new_context(user=carol).new_page()
    response = stranger.goto(f"/table/{private_id}/")
    assert response is not None and response.status == 403
    expect(stranger.get_by_role("heading", name="This table is private")).to_be_visible()
    expect(stranger.locator("main")).to_contain_text("ask a player for an invite link")
    expect(stranger.locator("main")).not_to_contain_text("Just us")
    stranger.goto(invite)  # the link the owner shared lets her in
    expect(stranger).to_have_url(live_site.path(f"/table/{private_id}/"))
    th.wait_ready(stranger)
    assert js_errors == []


def test_online_now_counts_you_and_follows_comings_and_goings(
        live_site, new_context, django_user_model, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    page = new_context(user=alice).new_page()
    page.goto("/")
    line = page.locator("section.online-now")
    expect(line).to_contain_text("1 player online")  # alice herself, at first sight
    other = new_context(user=bob).new_page()
    other.goto("/")
    expect(other.locator("section.online-now")).to_contain_text("2 players online")
    expect(line).to_contain_text("2 players online")  # live, without a reload
    other.close()
    expect(line).to_contain_text("1 player online")
    assert js_errors == []


def test_a_follow_notifies_and_an_answered_invitation_drops_the_badge(
        live_site, new_context, django_user_model, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    bob_context = new_context(user=bob)
    bob_page = bob_context.new_page()
    bob_page.goto("/friends/")
    expect(bob_page.locator("#kz-notifications")).to_have_attribute("data-live", "1")
    expect(bob_page.locator("#kz-unread")).to_be_hidden()

    alice_page = new_context(user=alice).new_page()
    alice_page.goto("/friends/")
    alice_page.get_by_label("Username", exact=True).fill("bob")
    alice_page.get_by_role("button", name="Follow", exact=True).click()
    row = alice_page.locator('[data-friend="bob"]')
    expect(row).to_be_visible()
    # Bob is told at once, on the page he has open.
    expect(bob_page.locator("#kz-toasts .toast")).to_contain_text("alice started following you")
    expect(bob_page.locator("#kz-unread")).to_have_text("1")

    row.get_by_role("button", name="Invite to my table").click()
    expect(alice_page).to_have_url(th.TABLE_URL)
    expect(bob_page.locator("#kz-unread")).to_have_text("2")

    # Bob declines in another tab; the badge on the page he left open drops with it.
    centre = bob_context.new_page()
    centre.goto("/notifications/")
    expect(centre.locator("#kz-notification-list")).to_contain_text("alice started following you")
    centre.get_by_role("button", name="Decline").click()
    expect(bob_page.locator("#kz-unread")).to_have_text("1")
    assert js_errors == []
