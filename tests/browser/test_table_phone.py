"""A phone (375 × 812): on your turn the set to beat, your hand and the action buttons fit
on one screen without scrolling, and the site header folds into a menu(UX.md).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.services import series as series_service
from games.services import tables
from games.services.testing import setup_position
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
# Trump ♠. Seat 3, a bot, leads the first trick; alice (seat 0) must reply to it.
# The bot holds four clubs, so it may well lead all four (the widest set to beat, k = 4).
HANDS = [["8C", "KC", "AS", "TH"], ["6D", "8D", "9D", "7S"],
         ["7D", "JD", "QS", "9H"], ["7C", "9C", "JC", "QC"]]
STOCK = ["6C", "TC", "AC", "QD", "KD", "AD", "TD", "6H", "7H", "8H",
         "JH", "QH", "KH", "AH", "6S", "8S", "9S", "JS", "TS", "KS"]
POSITION = {"dealer": 2, "leader": 3, "trump_card": "6S", "hands": HANDS, "stock": STOCK,
            "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0}}

BOXES = """els => els.map(e => { const r = e.getBoundingClientRect();
  return {what: e.id || e.className || e.tagName, left: r.left, top: r.top,
          right: r.right, bottom: r.bottom}; })"""


def _outside(page: Page, selector: str) -> list[dict[str, object]]:
    """The boxes of ``selector``'s elements that are not wholly inside the viewport."""
    width, height = PHONE["width"], PHONE["height"]
    boxes = th.measure(page, selector, BOXES)
    assert boxes, f"nothing matches {selector}"
    return [b for b in boxes if b["left"] < 0 or b["top"] < 0  # type: ignore[operator]
            or b["right"] > width or b["bottom"] > height]  # type: ignore[operator]


def _table_with_three_bots(owner, level: str) -> int:  # type: ignore[no-untyped-def]
    table = tables.create_table(owner, tables.TableSettings(name="On the bus"))
    tables.take_seat(table.pk, owner, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, owner, position, level)
    series_service.start_series(table.pk, owner)
    setup_position(table.pk, POSITION)  # a worker then plays the bot's lead
    return table.pk


def test_reply_to_a_bot_lead_fits_one_phone_screen(live_site, new_context, django_user_model,
                                                   celery_worker, off_loop, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table_id = off_loop(_table_with_three_bots, alice, "strong")

    page = new_context(user=alice, viewport=PHONE).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    expect(page.locator("#kz-table")).to_have_attribute("data-my-turn", "true", timeout=20_000)
    top = page.locator('#kz-trick .trick-set.is-top[data-seat="3"]')
    expect(top).to_be_visible()
    # Pre-select a reply so that the action button for it shows (UX.md: only when legal).
    page.get_by_role("button", name="Discard lowest").click()
    expect(page.get_by_role("button", name="Discard", exact=True)).to_be_visible()

    # Where the player lands: the top of the page, nothing scrolled.
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("[window.scrollX, window.scrollY]") == [0, 0]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for selector in ('#kz-trick .trick-set.is-top[data-seat="3"] .card',
                     "#kz-hand .hand-card",
                     "#kz-actions button.act:not([hidden])",
                     "#kz-helpers button.helper:not([hidden])"):
        assert _outside(page, selector) == [], selector
    th.screenshot(page, "table-375-reply-to-bot")
    assert js_errors == []


def test_header_folds_into_a_menu_on_a_phone(live_site, new_context, django_user_model,
                                             js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    page = new_context(user=alice, viewport=PHONE).new_page()
    page.goto("/rules/")
    header = page.locator(".site-header")
    assert header.bounding_box()["height"] <= 64, header.bounding_box()  # one row
    summary = page.locator(".site-menu > summary")
    expect(summary).to_be_visible()
    expect(summary).to_have_accessible_name("Menu")
    links = page.locator(".site-menu").get_by_role("link")
    expect(links.first).to_be_hidden()

    summary.click()
    names = ["Play", "Ranked", "Leaderboard", "Clubs", "Rules"]
    for name in names:
        expect(page.locator(".site-menu").get_by_role("link", name=name)).to_be_visible()
    assert _outside(page, ".site-menu a") == []
    th.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(th.SCREENSHOTS / "header-375-menu-open.png"))
    page.locator(".site-menu").get_by_role("link", name="Leaderboard").click()
    expect(page).to_have_url(live_site.path("/leaderboard/"))
    expect(page.locator(".site-menu").get_by_role("link", name="Leaderboard")).to_be_hidden()

    # On a wide screen the same links sit in the header, no menu to open.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(summary).to_be_hidden()
    th.screenshot(page, "header-1280")
    for name in names:
        expect(page.locator(".site-menu").get_by_role("link", name=name)).to_be_visible()
    assert js_errors == []
