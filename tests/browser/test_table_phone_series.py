"""A phone plays as well as a desktop: a whole series against three bots at 375 px.

At 375 × 667 and 390 × 844 (touch), once a card is selected, the action row, the line
that says why and the molodka button are inside the viewport without scrolling to them;
the four seats' names are shown whole and their tricks and loss points in words; the end
cards sit inside the viewport; and no page uses an emoji as an icon (a phone without an
emoji font shows an empty box instead). The desktop keeps its layout (1280 × 800).

The position is fixed so that the series ends after one short game: the stock is empty,
the bots' team B holds every trump and the high cards, so team A can never beat (R7) and
takes no trick: 6 loss points (R16), which is the table's target (R18). alice, at seat 0,
holds four hearts, so her molodka button shows on the first trick (R11).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import BotLevel, Table
from games.models.tables import BOT_NAMES
from games.services import series as series_service
from games.services import tables
from games.services.testing import setup_position
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

PHONES = [{"width": 375, "height": 667}, {"width": 390, "height": 844}]
DESKTOP = {"width": 1280, "height": 800}
LEVEL = BotLevel.BEGINNER  # the longest level name in English: "Boris (Beginner)"
PLAYER = "alexandrina"

# Trump ♠ (the queen, in seat 3's hand). Seat 3 leads; team B (seats 1, 3) can always
# beat and team A (seats 0, 2) never can. The other 20 cards are already in B's pile.
HANDS = [["6H", "7H", "8H", "9H"], ["AS", "KS", "TS", "9C"],
         ["6C", "7C", "8C", "6D"], ["QS", "JS", "AC", "TD"]]
PILE_B = ["TH", "JH", "QH", "KH", "AH", "7D", "8D", "9D", "JD", "QD", "KD", "AD",
          "6S", "7S", "8S", "9S", "QC", "KC", "TC", "JC"]
POSITION = {"dealer": 2, "leader": 3, "trump_card": "QS", "hands": HANDS, "stock": [],
            "piles": {"A": [], "B": PILE_B}, "tricks": {"A": 0, "B": 5}}

BOXES = """els => els.filter(e => e.getClientRects().length).map(e => {
  const r = e.getBoundingClientRect();
  return {what: e.id || e.className || e.tagName, left: r.left, top: r.top, right: r.right,
          bottom: r.bottom}; })"""
OVERLAPS = """([first, ...others]) => {
  const box = s => document.querySelector(s).getBoundingClientRect();
  const a = box(first);
  return others.filter(s => { const b = box(s); return b.width > 0 && a.left < b.right
    && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }); }"""
# An emoji is a pictograph (Unicode's Extended_Pictographic) or anything asked to show as
# one (U+FE0F). The four suits are the game's letters, drawn by every text font.
EMOJI = r"""html => [...html.matchAll(/[\p{Extended_Pictographic}\uFE0F]/gu)]
  .map(m => m[0]).filter(c => !"♣♦♥♠".includes(c))"""


def _table(owner: Any) -> int:
    table = tables.create_table(owner, tables.TableSettings(
        name="On the night bus", kind=Table.Kind.CASUAL, turn_seconds=None, series_target=6))
    tables.take_seat(table.pk, owner, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, owner, position, LEVEL)
    series_service.start_series(table.pk, owner)
    setup_position(table.pk, POSITION)  # a worker then plays seat 3's lead
    return table.pk


def _outside(page: Page, selector: str) -> list[dict[str, Any]]:
    """The shown boxes of ``selector`` that are not wholly inside the viewport."""
    size = page.viewport_size
    assert size is not None
    boxes = th.measure(page, selector, BOXES)
    assert boxes, f"nothing shown matches {selector}"
    return [b for b in boxes if b["left"] < 0 or b["top"] < 0
            or b["right"] > size["width"] + 0.5 or b["bottom"] > size["height"] + 0.5]


def _shot(page: Page, name: str) -> None:
    """What the player sees (the viewport, not the whole page)."""
    th.screenshot(page, f"phone-{name}", full_page=False)


def _names_whole(page: Page) -> None:
    """Every seat's name is shown whole: not cut sideways, not clipped below."""
    names = page.locator(".kz-seat .pname")
    expect(names).to_have_count(4)
    expect(page.locator('.kz-seat[data-seat="0"] .pname')).to_have_text(PLAYER)
    for position in (1, 2, 3):
        expect(page.locator(f'.kz-seat[data-seat="{position}"] .pname')).to_contain_text(
            BOT_NAMES[position])
    fits = th.measure(page, ".kz-seat .pname", "els => els.map(e => [e.textContent,"
                      " e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight])")
    assert all(sw <= cw and sh <= ch for _, sw, cw, sh, ch in fits), fits


def _stats_in_words(page: Page) -> None:
    """Tricks and loss points read as words, never "0 tr · 0 lp"."""
    stats = th.measure(page, ".kz-seat .plate-stats", "els => els.map(e => e.innerText)")
    assert len(stats) == 4, stats
    for text in stats:
        assert re.search(r"\b\d+ tricks?\b", text), stats
        assert re.search(r"\b\d+ loss points?\b", text), stats
        assert not re.search(r"\b(tr|lp)\b", text), stats


def _select_and_check(page: Page, size: dict[str, int]) -> None:
    """Select a card as a thumb would; the row, the reason and the molodka stay in view."""
    page.set_viewport_size(size)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    # R8: as many cards as the set to beat (the bot may lead one card or several).
    needed = page.locator("#kz-trick .trick-set.is-top .card").count()
    assert needed >= 1
    for index in range(needed):
        card = page.locator("#kz-hand .hand-card").nth(index)
        if card.get_attribute("aria-pressed") != "true":
            card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Discard", exact=True)).to_be_visible()
    expect(page.locator("#kz-reason")).not_to_be_empty()
    expect(page.locator("#kz-molodka")).to_be_visible()
    # Wherever the page is scrolled: at the top (where it loads) and at the bottom.
    for scroll in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        for selector in ("#kz-actions button.act", "#kz-helpers button.helper", "#kz-reason",
                         "#kz-molodka"):
            assert _outside(page, selector) == [], (size, scroll, selector)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def _in_view(page: Page, selector: str) -> None:
    expect(page.locator(selector)).to_be_visible()
    assert _outside(page, selector) == [], selector


def test_phone_series_keeps_actions_names_and_end_cards_in_view(
        live_site, new_context, django_user_model, celery_worker, off_loop, js_errors):
    alice = django_user_model.objects.create_user(PLAYER, password="x" * 20)
    table_id = off_loop(_table, alice)
    context = new_context(user=alice, viewport=PHONES[0], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    table = page.locator("#kz-table")
    expect(table).to_have_attribute("data-my-turn", "true", timeout=20_000)
    expect(page.locator('#kz-trick .trick-set.is-top[data-seat="3"]')).to_be_visible()

    _names_whole(page)
    _stats_in_words(page)
    for size in PHONES:
        _select_and_check(page, size)
        _names_whole(page)
        _stats_in_words(page)
    page.set_viewport_size(PHONES[0])
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "table-375-mid-trick")
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    _names_whole(page)
    shown = "#kz-actions button.act:not([hidden])"
    for selector in (shown, "#kz-reason", "#kz-molodka", "#kz-felt"):
        expect(page.locator(selector).first).to_be_visible()
    for selector in ("#kz-actions button.act", "#kz-reason", "#kz-molodka"):
        assert _outside(page, selector) == [], ("desktop", selector)
    _shot(page, "table-1280-mid-trick")
    page.set_viewport_size(PHONES[0])

    # Play the game out (team A cannot beat: Discard lowest, then Discard, R9).
    for _ in range(8):
        if th.wait_for_turn_or_end(page, timeout=20) == "over":
            break
        th.play_one_turn(page)
    else:
        pytest.fail("the game did not end in four tricks")

    # R16, R18: team A took no trick, 6 loss points, the target: the series is over.
    card = page.locator("#kz-series-end .series-card")
    expect(card).to_be_visible(timeout=20_000)
    expect(card.locator(".goat-title")).to_have_text(re.compile(r"^You are the goat"))
    for size in PHONES:
        page.set_viewport_size(size)
        _in_view(page, "#kz-series-end .series-card")
    page.set_viewport_size(PHONES[0])
    _shot(page, "series-end-375")
    card.get_by_role("button", name="Last game's summary").click()
    _in_view(page, "#kz-summary .summary-card")
    _shot(page, "game-summary-375")
    page.locator("#kz-summary").get_by_role("button", name="Back to the series result").click()
    _in_view(page, "#kz-series-end .series-card")
    _names_whole(page)
    _stats_in_words(page)

    # No emoji as icons: in the table as drawn, and in the served pages.
    emoji_in = page.evaluate(EMOJI, page.content())
    assert emoji_in == [], emoji_in
    for path in ("/", f"/table/{table_id}/", f"/@/{PLAYER}", "/rules/", "/leaderboard/"):
        response = page.request.get(path)
        assert response.ok, (path, response.status)
        found = page.evaluate(EMOJI, response.text())
        assert found == [], (path, found)
    page.set_viewport_size(DESKTOP)
    _shot(page, "series-end-1280")
    assert js_errors == []


def _table_with_long_names(owner: Any, others: list[Any]) -> int:
    table = tables.create_table(owner, tables.TableSettings(name="Long names"))
    for position, user in enumerate([owner, *others]):
        tables.take_seat(table.pk, user, position)
    tables.add_bot(table.pk, owner, 3, LEVEL)
    series_service.start_series(table.pk, owner)
    return table.pk


def test_long_first_names_are_set_smaller_never_cut_on_a_side_plate(
        live_site, new_context, django_user_model, off_loop, js_errors):
    """A first name longer than a side plate is set smaller (never below the floor);
    one still too long breaks inside the word rather than lose its end."""
    users = [django_user_model.objects.create_user(name, password="x" * 20)
             for name in ("ann", "Konstantinos", "Bartholomew_the_Patient")]
    table_id = off_loop(_table_with_long_names, users[0], users[1:])
    page = new_context(user=users[0], viewport=PHONES[0], has_touch=True,
                       is_mobile=True).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    for size in (*PHONES, {"width": 320, "height": 640}):
        page.set_viewport_size(size)
        first = page.locator("#kz-seat-left .pfirst")  # seat 1, on ann's left
        expect(first).to_have_text("Konstantinos")
        # Reads the plate once the resize handler ran (the name is whole, on one line), in
        # the same call: a bot's move draws the seats again and detaches the plate read.
        sizes = page.wait_for_function(
            "() => { const e = document.querySelector('#kz-seat-left .pfirst');"
            " return e && e.scrollWidth <= e.clientWidth"
            " && [parseFloat(getComputedStyle(e).fontSize),"
            " parseFloat(getComputedStyle(e.parentNode).fontSize),"
            " e.classList.contains('is-broken')]; }").json_value()
        own, plate, broken = sizes
        assert own >= plate * 0.72 - 0.01 and not broken, (size, sizes)
        longer = page.locator("#kz-seat-top .pfirst")  # seat 2, the partner
        expect(longer).to_have_text("Bartholomew_the_Patient")
        fits = th.measure(page, ".kz-seat .pname",
                          "els => els.map(e => [e.textContent, e.scrollWidth, e.clientWidth])")
        assert all(sw <= cw for _, sw, cw in fits), (size, fits)
        # The partner's plate keeps to its column, clear of the trump and the stock.
        assert page.evaluate(OVERLAPS, ["#kz-seat-top .kz-seat", "#kz-trump", "#kz-stock"]) == []
    _shot(page, "long-names-320")
    assert js_errors == []
