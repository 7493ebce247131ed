"""The table in Russian: a trick played by the Russian accessible names, and a
language switched from the footer in the middle of a game, which goes on.

The position is the layout test's (tests/browser/test_table_layout.py): trump ♠; bob
leads 7♣ 9♣, carol beats with J♣ Q♣, dan discards two; alice (seat 0) replies last.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.services import update_profile
from tests.browser import table_helpers as th
from tests.browser.test_table_layout import NAMES, _mid_trick_table

pytestmark = pytest.mark.browser


def test_a_trick_played_in_russian_by_the_russian_card_names(live_site, new_context,
                                                            django_user_model, js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    update_profile(users[0], preferred_language="ru")
    table = _mid_trick_table(users)
    page = new_context(user=users[0]).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#kz-table")).to_have_attribute("data-my-turn", "true")
    # The hand, named the players' way; the ace of spades shows the Russian letter Т.
    hand = page.locator("#kz-hand")
    for name in ("Восьмёрка пик", "Туз пик", "Десятка червей", "Валет бубен"):
        expect(hand.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(hand.locator('[data-code="AS"] text.rank')).to_have_text("Т")
    expect(page.locator("#kz-trump")).to_have_attribute(
        "aria-label", "Козырь: пики, козырная карта — шестёрка пик")

    # One card is not enough to answer two (R8), said in Russian with the right plural.
    hand.get_by_role("button", name="Десятка червей").click()
    expect(page.locator("#kz-reason")).to_have_text("Выберите ровно 2 карты (R8).")
    page.get_by_role("button", name="Снять выбор").click()
    # Beat J♣ Q♣ with two trumps: the eight and the ace of spades (R7, R9).
    hand.get_by_role("button", name="Восьмёрка пик").click()
    hand.get_by_role("button", name="Туз пик").click()
    version = page.locator("#kz-table").get_attribute("data-version")
    page.get_by_role("button", name="Бить", exact=True).click()
    expect(page.locator("#kz-table")).not_to_have_attribute("data-version", version or "")
    # alice beat last, so the trick is hers (R10); the log says so in Russian.
    expect(page.locator("#kz-log")).to_contain_text("Вы побили: 8♠ Т♠")
    expect(page.locator("#kz-log")).to_contain_text("Вы взяли взятку")
    assert not js_errors


def test_switching_language_from_the_footer_keeps_the_game(live_site, new_context,
                                                          django_user_model, js_errors):
    users = [django_user_model.objects.create_user(n, password="x" * 20) for n in NAMES]
    table = _mid_trick_table(users)
    page = new_context(user=users[0]).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    root = page.locator("#kz-table")
    game_id, version = root.get_attribute("data-game-id"), root.get_attribute("data-version")
    expect(page.get_by_role("button", name="Ace of spades")).to_be_visible()

    page.locator("footer").get_by_label("Language").select_option("ru")
    page.locator("footer").get_by_role("button", name="Change language").click()
    # The same table, now in Russian, in the same game at the same version.
    page.wait_for_url(f"**/table/{table.pk}/")
    th.wait_ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(root).to_have_attribute("data-game-id", game_id or "")
    expect(root).to_have_attribute("data-version", version or "")
    expect(page.get_by_role("button", name="Туз пик")).to_be_visible()
    expect(page.locator("#kz-status")).to_have_text("Ваш ход")
    expect(page.locator("footer").get_by_label("Язык")).to_have_value("ru")
    # And play goes on from there.
    page.get_by_role("button", name="Побить дешевле").click()
    page.get_by_role("button", name="Бить", exact=True).click()
    expect(root).not_to_have_attribute("data-version", version or "")
    expect(page.locator("#kz-log")).to_contain_text("Вы взяли взятку")
    # The choice is saved on the profile.
    from accounts.models import Profile

    assert Profile.objects.get(user=users[0]).preferred_language == "ru"
    assert not js_errors
