"""Four people in four browsers play a trick together; one reloads mid-trick and goes on."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

NAMES = ["alice", "bob", "carol", "dan"]


def test_four_players_play_a_trick_and_one_reloads_mid_trick(live_site, new_context,
                                                            django_user_model, js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    pages = [new_context(user=u).new_page() for u in users]
    table_id = th.create_table(pages[0], "Four friends")
    for position, page in enumerate(pages):
        if position:
            page.goto(f"/table/{table_id}/")
            th.wait_ready(page)
        th.sit(page, position)
    # Every page learns of every seat through the pushed snapshot (no reload).
    for page in pages:
        for name in NAMES:
            expect(page.locator("#kz-lobby")).to_contain_text(name)
    th.start(pages[0])
    for page in pages[1:]:
        expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")

    # Seats are rotated: each player sees himself at the bottom, his partner on top.
    for position, page in enumerate(pages):
        bottom = page.locator("#kz-seat-bottom .kz-seat")
        expect(bottom).to_have_attribute("data-seat", str(position))
        partner = (position + 2) % 4
        expect(page.locator("#kz-seat-top .pname")).to_have_text(NAMES[partner])

    # A spectator (signed out) sees seat 0 at the bottom, no hand, and the same trick.
    spectator = new_context().new_page()
    spectator.goto(f"/table/{table_id}/")
    th.wait_ready(spectator)
    expect(spectator.locator("#kz-seat-bottom .kz-seat")).to_have_attribute("data-seat", "0")
    expect(spectator.get_by_text("You are watching this table.")).to_be_visible()
    expect(spectator.locator("#kz-hand .hand-card")).to_have_count(0)
    pages_and_spectator = [*pages, spectator]

    def seat_to_play() -> int:
        value = pages[0].locator("#kz-table").get_attribute("data-turn")
        assert value not in (None, ""), "nobody is to play"
        return int(value)

    reloaded = False
    for played in range(4):
        seat = seat_to_play()
        page = pages[seat]
        expect(page.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
        if played == 2 and not reloaded:
            # Mid-trick: two sets are on the table. Reload, and the table comes back.
            page.reload()
            th.wait_ready(page)
            expect(page.locator("#kz-trick .trick-set")).to_have_count(2)
            expect(page.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
            reloaded = True
        th.play_one_turn(page)
        if played < 3:
            for other in pages_and_spectator:
                expect(other.locator("#kz-trick .trick-set")).to_have_count(played + 1)
    assert reloaded
    # The trick is taken: every page shows one trick taken in all, for the same team.
    for page in pages:
        expect(page.locator("#kz-log")).to_contain_text("took the trick")
    totals = set()
    for page in pages:
        a = page.locator('.kz-seat[data-team="A"] .plate-stats').first.inner_text()
        b = page.locator('.kz-seat[data-team="B"] .plate-stats').first.inner_text()
        totals.add((a.split("·")[1].strip(), b.split("·")[1].strip()))
    assert len(totals) == 1, totals
    assert js_errors == []
