"""Learn to play, in a real browser: from the home page through all nine lessons (a wrong
move shows the engine's rule and the hint, and a retry works), and from a table's
refusal to beat to the lesson on beating."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.services import series as series_service
from games.services import tables
from games.services.testing import setup_position
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

# Each lesson's winning move, worked out by hand from the rules (R7-R18).
WALK = [
    ("card-order", "beat", ["TH"]),
    ("leading", "lead", ["AC", "TC", "KC"]),
    ("beating", "beat", ["KD", "7C"]),
    ("discarding", "discard", ["6C"]),
    ("drawing", "beat", ["QS"]),
    ("molodka", "molodka", ["6H", "8H", "JH", "AH"]),
    ("counting", "beat", ["AC"]),
    ("loss-points", "beat", ["AD"]),
    ("eggs-and-series", "beat", ["AH"]),
]
ACTION_NAMES = {"lead": "Lead", "beat": "Beat", "discard": "Discard", "molodka": "Molodka"}


def _play(page: Page, kind: str, cards: list[str]) -> None:
    for code in cards:
        page.locator(f'#lesson-form label[data-card="{code}"]').click()
        expect(page.locator(f'#lesson-form input[value="{code}"]')).to_be_checked()
    page.get_by_role("button", name=ACTION_NAMES[kind], exact=True).click()


def test_a_newcomer_walks_every_lesson_from_the_home_page(live_site, page, js_errors):
    page.goto("/")
    page.get_by_role("link", name="Learn to play").first.click()
    expect(page.locator("#lessons-progress")).to_have_text("Finished: 0 of 9")
    page.get_by_role("link", name="Start the first lesson").click()

    for number, (slug, kind, cards) in enumerate(WALK, 1):
        expect(page).to_have_url(live_site.path(f"/learn/{slug}/"))
        expect(page.locator(".lesson-crumbs")).to_contain_text(f"Lesson {number} of 9")
        if slug == "card-order":
            # A legal move that misses the goal: played out, the hint, then a retry.
            _play(page, "discard", ["7D"])
            expect(page.locator("#lesson-feedback")).to_contain_text("does not do what")
            expect(page.locator("#lesson-hint")).to_contain_text("higher heart")
            page.get_by_role("link", name="Try again").click()
        if slug == "beating":
            # An illegal move: the engine's rule, the lesson's hint, the same hand again.
            _play(page, "beat", ["KD", "8H"])
            expect(page.locator("#lesson-refusal")).to_contain_text("R9")
            expect(page.locator("#lesson-refusal")).to_contain_text("(R7)")
            expect(page.locator("#lesson-hint")).to_contain_text("Pair your cards")
            th.screenshot(page, "lesson-beating-refused")
            # The second miss gets the plain hint that names the move.
            _play(page, "beat", ["KD", "AS"])
            expect(page.locator("#lesson-hint")).to_contain_text("K♦ beats the Q♦")
        _play(page, kind, cards)
        expect(page.locator("#lesson-success")).to_contain_text("Lesson complete.")
        if slug == "drawing":  # R12: the taker drew first; the new card is marked
            expect(page.locator(".lesson-card.is-drawn")).to_have_count(1)
        if slug == "eggs-and-series":
            expect(page.locator("#lesson-result")).to_contain_text("Eggs")
            th.screenshot(page, "lesson-eggs-complete")
        page.locator("#lesson-next").click()

    expect(page).to_have_url(live_site.path("/learn/"))
    expect(page.locator("#lessons-progress")).to_have_text("Finished: 9 of 9")
    expect(page.locator(".lesson-list li.is-done")).to_have_count(9)
    assert js_errors == []


def test_a_lesson_fits_a_phone(live_site, new_context):
    phone = new_context(viewport={"width": 375, "height": 740}).new_page()
    phone.goto("/learn/beating/")
    for code in ("KD", "7C", "8H", "AS"):
        expect(phone.locator(f'#lesson-form label[data-card="{code}"]')).to_be_visible()
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 375
    _play(phone, "beat", ["KD", "7C"])
    expect(phone.locator("#lesson-success")).to_be_visible()
    th.screenshot(phone, "lesson-375-complete")


def test_the_rules_page_leads_to_the_lessons(live_site, page):
    page.goto("/rules/")
    page.get_by_role("link", name="Learn how beating works").click()
    expect(page).to_have_url(live_site.path("/learn/beating/"))
    expect(page.locator("#lesson-title")).to_have_text("Beating card by card")


# alice (seat 0) must answer dan's (seat 3) lead of the K♥ with hearts not trump (R6: ♠).
HANDS = [["7H", "9H", "AC", "8D"], ["6C", "8C", "TD", "KS"],
         ["7C", "9C", "JD", "QS"], ["KH", "6D", "9D", "7S"]]
STOCK = ["JC", "QC", "KC", "TC", "7D", "QD", "KD", "AD", "6H", "AH",
         "8H", "JH", "QH", "TH", "6S", "8S", "9S", "JS", "TS", "AS"]
POSITION = {"dealer": 2, "leader": 3, "trump_card": "6S", "hands": HANDS, "stock": STOCK,
            "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0}}


def test_a_refusal_to_beat_at_the_table_offers_the_lesson(live_site, new_context,
                                                           django_user_model, js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20)
             for n in ("alice", "bob", "carol", "dan")]
    table = tables.create_table(users[0], tables.TableSettings(name="First game"))
    for position, user in enumerate(users):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, users[0])
    setup_position(table.pk, POSITION)

    alice = new_context(user=users[0]).new_page()
    dan = new_context(user=users[3]).new_page()
    for p in (alice, dan):
        p.goto(f"/table/{table.pk}/")
        th.wait_ready(p)
    learn = alice.locator("#kz-learn-beating")
    expect(learn).to_be_hidden()

    dan.get_by_role("button", name="King of hearts").dblclick()
    expect(alice.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
    # The 9♥ cannot beat the K♥ (R7): the line says why and offers the lesson.
    alice.get_by_role("button", name="9 of hearts").click()
    expect(alice.locator("#kz-reason")).to_contain_text("cannot beat")
    expect(learn).to_be_visible()
    # Another card that cannot beat: the same offer; nothing selected: no line, no link.
    alice.get_by_role("button", name="9 of hearts").click()
    alice.get_by_role("button", name="Ace of clubs").click()
    expect(alice.locator("#kz-reason")).to_contain_text("cannot beat")
    expect(learn).to_be_visible()
    alice.get_by_role("button", name="Ace of clubs").click()
    expect(learn).to_be_hidden()

    # The lesson opens beside the game (a new tab), so the seat is not left.
    alice.get_by_role("button", name="9 of hearts").click()
    with alice.context.expect_page() as opened:
        learn.click()
    lesson = opened.value
    expect(lesson).to_have_url(live_site.path("/learn/beating/"))
    expect(lesson.locator("#lesson-title")).to_have_text("Beating card by card")
    expect(alice.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
    assert js_errors == []
