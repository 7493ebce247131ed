"""R11 from the UI: a molodka announced out of turn on a game set up from a known position."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import series as series_service
from games.services import tables
from games.services.testing import setup_position
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

NAMES = ["alice", "bob", "carol", "dan"]
# alice (seat 0) holds four hearts: a molodka (R11). bob (seat 1) leads the trick.
HANDS = [["7H", "9H", "QH", "AH"], ["6C", "8C", "TD", "KS"],
         ["7C", "9C", "JD", "QS"], ["6D", "8D", "9D", "7S"]]
STOCK = ["JC", "QC", "KC", "TC", "AC", "7D", "QD", "KD", "AD", "6H",
         "8H", "JH", "KH", "TH", "6S", "8S", "9S", "JS", "TS", "AS"]
POSITION = {"dealer": 0, "leader": 1, "trump_card": "6S", "hands": HANDS, "stock": STOCK,
            "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0}}


def test_molodka_out_of_turn_restarts_the_trick(live_site, new_context, django_user_model,
                                               js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    table = tables.create_table(users[0], tables.TableSettings(name="Molodka"))
    for position, user in enumerate(users):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, users[0])
    setup_position(table.pk, POSITION)
    game = Game.objects.filter(series__table=table).order_by("-id").first()

    alice = new_context(user=users[0]).new_page()
    bob = new_context(user=users[1]).new_page()
    for page in (alice, bob):
        page.goto(f"/table/{table.pk}/")
        th.wait_ready(page)

    # The Molodka button is there at once, before bob (on lead) has led (R11).
    molodka = alice.get_by_role("button", name="Molodka", exact=True)
    expect(molodka).to_be_visible()
    assert th.hand_codes(alice) == ["7H", "9H", "QH", "AH"]

    # bob leads the 8♣ from his page.
    bob.get_by_role("button", name="8 of clubs").dblclick()
    for page in (alice, bob):
        expect(page.locator('#kz-trick .trick-set[data-seat="1"]')).to_be_visible()
    expect(alice.locator("#kz-table")).to_have_attribute("data-turn", "2")  # carol's turn

    # Out of turn, alice cannot play normally: a card selected says why (R9).
    alice.get_by_role("button", name="Ace of hearts").click()
    expect(alice.locator("#kz-reason")).to_contain_text("Not your turn")
    for name in ("Lead", "Beat", "Discard"):
        expect(alice.get_by_role("button", name=name, exact=True)).to_be_hidden()
    alice.get_by_role("button", name="Ace of hearts").click()

    # One click, out of turn: the trick restarts with alice leading her four hearts.
    molodka.click()
    expect(alice.locator("#kz-flash")).to_have_text("You announced a molodka!")
    expect(bob.locator("#kz-flash")).to_have_text("alice announced a molodka!")
    for page in (alice, bob):
        lead = page.locator('#kz-trick .trick-set[data-seat="0"]')
        expect(lead).to_have_attribute("data-kind", "lead")
        expect(lead.locator(".card")).to_have_count(4)
        expect(page.locator('#kz-trick .trick-set[data-seat="1"]')).to_have_count(0)
        expect(page.locator("#kz-log")).to_contain_text("alice announced a molodka!"
                                                        if page is bob else
                                                        "You announced a molodka!")
    # The 8♣ went back to bob's hand (R11); alice's hand is now empty.
    expect(bob.locator("#kz-hand .hand-card")).to_have_count(4)
    expect(bob.get_by_role("button", name="8 of clubs")).to_be_visible()
    expect(alice.locator("#kz-hand .hand-card")).to_have_count(0)
    expect(alice.get_by_role("button", name="Molodka", exact=True)).to_be_hidden()
    # bob must now reply with 4 cards: the helpers offer to pre-select them (R9).
    expect(bob.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
    bob.get_by_role("button", name="Discard lowest").click()
    expect(bob.locator('#kz-hand .hand-card[aria-pressed="true"]')).to_have_count(4)
    expect(bob.get_by_role("button", name="Discard", exact=True)).to_be_visible()

    game.refresh_from_db()
    assert game.moves.filter(kind="molodka", seat=0).count() == 1
    th.screenshot(bob, "table-1280-after-molodka")
    assert js_errors == []
