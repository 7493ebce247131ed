"""The table's look and its keyboard, on a known mid-trick position (k = 2), at 1280 and 375 px.

Also the end of a series (the goat, with eggs) and the "Play again" button.
Screenshots go to .run/screenshots/ for a human look.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game, Series, Table
from games.services import play, tables
from games.services import series as series_service
from games.services.testing import setup_position
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

NAMES = ["alice", "bob", "carol", "dan"]
# Trump ♠. bob leads 7♣ 9♣, carol beats with J♣ Q♣, dan discards two; alice replies.
HANDS = [["8S", "AS", "TH", "JD"], ["7C", "9C", "6D", "KS"],
         ["JC", "QC", "7D", "9H"], ["6H", "8H", "QS", "KD"]]
STOCK = ["6C", "8C", "KC", "TC", "AC", "8D", "9D", "QD", "TD", "AD",
         "7H", "JH", "QH", "AH", "6S", "7S", "9S", "JS", "TS", "KH"]
POSITION = {"dealer": 0, "leader": 1, "trump_card": "6S", "hands": HANDS, "stock": STOCK,
            "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0}}


def _mid_trick_table(users):  # type: ignore[no-untyped-def]
    table = tables.create_table(users[0], tables.TableSettings(name="Layout"))
    for position, user in enumerate(users):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, users[0])
    setup_position(table.pk, POSITION)
    game = Game.objects.filter(series__table=table).order_by("-id").first()
    version = game.version
    for user, action in [(users[1], {"kind": "lead", "cards": ["7C", "9C"]}),
                         (users[2], {"kind": "beat", "cards": ["JC", "QC"]}),
                         (users[3], {"kind": "discard", "cards": ["6H", "8H"]})]:
        version = play.submit_action(game.pk, user, action, version)
    return table


def test_mid_trick_layout_helpers_and_keyboard(live_site, new_context, django_user_model,
                                               js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    table = _mid_trick_table(users)
    page = new_context(user=users[0]).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)

    # The centre: each set in front of its seat; carol's beat is the top set (R9).
    expect(page.locator("#kz-trick .trick-set")).to_have_count(3)
    expect(page.locator('#kz-trick .trick-set.is-top[data-seat="2"]')).to_be_visible()
    expect(page.locator('#kz-trick .trick-set[data-seat="2"]')).to_have_class(
        "trick-set kz-at-top is-top")  # alice's partner sits on top
    expect(page.locator('#kz-trick .trick-set[data-seat="3"] .card.back')).to_have_count(2)
    expect(page.locator("#kz-table")).to_have_attribute("data-my-turn", "true")

    # Why a selection is not legal, in one line naming the rule.
    page.get_by_role("button", name="10 of hearts").click()
    expect(page.locator("#kz-reason")).to_have_text("Select exactly 2 cards (R8).")
    page.get_by_role("button", name="Jack of diamonds").click()
    expect(page.locator("#kz-reason")).to_contain_text("(R7)")
    expect(page.get_by_role("button", name="Beat", exact=True)).to_be_hidden()
    expect(page.get_by_role("button", name="Discard", exact=True)).to_be_visible()
    page.get_by_role("button", name="Clear").click()

    # Best beat pre-selects the two trumps (the only beat); nothing is sent yet.
    page.get_by_role("button", name="Best beat").click()
    for name in ("8 of spades", "Ace of spades"):
        expect(page.get_by_role("button", name=name)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Beat", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Lead", exact=True)).to_be_hidden()
    th.screenshot(page, "table-1280-reply-k2")

    # 375 px: one row of cards, each at least 44 px and showing its corner.
    page.set_viewport_size({"width": 375, "height": 812})
    boxes = th.measure(page, "#kz-hand .hand-card",
                       "els => els.map(e => { const r = e.getBoundingClientRect();"
                       " return [r.left, r.top, r.width, r.height]; })")
    assert len(boxes) == 4
    assert all(w >= 44 and h >= 44 for _, _, w, h in boxes), boxes
    assert max(t for _, t, _, _ in boxes) - min(t for _, t, _, _ in boxes) < 30, boxes  # one row
    assert boxes[0][0] >= 0 and boxes[-1][0] + boxes[-1][2] <= 375, boxes
    lefts = [left for left, _, _, _ in boxes]
    assert all(b - a >= 24 for a, b in zip(lefts, lefts[1:], strict=False)), boxes  # corners
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    th.screenshot(page, "table-375-reply-k2")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Keyboard: ←/→ move, Space toggles, B beats.
    page.get_by_role("button", name="Clear").click()
    # Sorted by suit, trump (♠) last: J♦ 10♥ 8♠ A♠.
    assert th.hand_codes(page) == ["JD", "TH", "8S", "AS"]
    page.get_by_role("button", name="Jack of diamonds").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name="10 of hearts")).to_be_focused()
    page.keyboard.press(" ")
    expect(page.get_by_role("button", name="10 of hearts")).to_have_attribute(
        "aria-pressed", "true")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("button", name="Ace of spades")).to_be_focused()  # wraps around
    page.keyboard.press(" ")
    expect(page.locator("#kz-reason")).to_contain_text("(R7)")
    page.get_by_role("button", name="Clear").click()
    page.get_by_role("button", name="Best beat").click()
    page.get_by_role("button", name="8 of spades").focus()
    page.keyboard.press("b")
    expect(page.locator("#kz-log")).to_contain_text("You took the trick")
    expect(page.locator("#kz-hand .hand-card")).to_have_count(4)  # drew back to 4 (R12)

    # Z opens the last trick; one more click shows the whole history (R19).
    page.keyboard.press("z")
    review = page.get_by_role("dialog", name="Last trick")
    expect(review).to_be_visible()
    expect(review.locator(".trick-set")).to_have_count(4)
    review.get_by_role("button", name="Whole history of this game").click()
    expect(review.locator("#kz-history")).to_contain_text("bob led 7♣ 9♣")
    expect(review.locator("#kz-history")).to_contain_text("dan discarded 2 cards face down")
    page.keyboard.press("Escape")
    expect(review).to_be_hidden()

    # Four-colour deck: a toggle kept in localStorage.
    page.get_by_label("Four-colour deck").check()
    page.reload()
    th.wait_ready(page)
    expect(page.get_by_label("Four-colour deck")).to_be_checked()
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    th.screenshot(page, "table-1280-four-colour")
    assert js_errors == []


def test_end_of_series_shows_the_goat_and_play_again(live_site, new_context, django_user_model,
                                                     js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    table = _mid_trick_table(users)
    # The series is over: team B reached 12 loss points, and there were eggs (R17, R18).
    Series.objects.filter(table=table).update(status=Series.Status.FINISHED, loss_points_b=12,
                                              goat="B", winner="A", eggs=1)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    owner = new_context(user=users[0]).new_page()
    guest = new_context(user=users[1], viewport={"width": 375, "height": 812}).new_page()
    # Each reads their own side: the owner (team A) won, the guest (team B) is the goat.
    for page, title in ((owner, "You won the series!"), (guest, "You are the goat, with eggs!")):
        page.goto(f"/table/{table.pk}/")
        th.wait_ready(page)
        card = page.get_by_role("dialog", name="Series over")
        expect(card).to_be_visible()
        expect(card.locator(".goat-title")).to_have_text(title)
        expect(card).to_contain_text("goats with eggs (R17)")
        expect(card.get_by_role("img", name="A goat")).to_be_visible()
    expect(owner.get_by_role("button", name="Play again")).to_be_visible()
    expect(guest.get_by_role("button", name="Play again")).to_have_count(0)
    th.screenshot(owner, "table-1280-series-end")
    th.screenshot(guest, "table-375-series-end")
    assert js_errors == []
