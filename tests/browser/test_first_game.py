"""One click to a game: a visitor's and a new account's first evening, in a real browser.

- A visitor without an account clicks "Play now" on the home page and plays as a guest
  at a dealt table with three bots; the clicks and seconds to the first card played are
  counted and printed.
- A new account lands at its first table right after confirming its email, greeted as
  new (never "Welcome back").
- A guest who signs up keeps the game: the same seat, the same moves, now the account's.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

PASSWORD = "a long and fine passphrase 42"


class ClickCounter:
    """Counts every click a person makes in one browser context, across page loads."""

    def __init__(self, context: Any) -> None:
        self.count = 0
        context.expose_function("kzCountClick", self._click)
        context.add_init_script(
            "document.addEventListener('click', e => { if (e.isTrusted) kzCountClick(); }, true);"
        )

    def _click(self) -> None:
        self.count += 1


def _play_first_card(page: Any) -> str:
    """Wait for this player's turn at the table and play one legal action."""
    th.wait_ready(page)
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    assert th.wait_for_turn_or_end(page, timeout=30) == "turn"
    return th.play_one_turn(page)


def _sign_up(page: Any, mailbox: Any, live_site: Any, name: str) -> None:
    """Fill the sign-up form, then follow the emailed link and confirm."""
    expect(page).to_have_url(re.compile(r"/accounts/signup/"))
    page.get_by_label("Email").fill(f"{name}@example.com")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    message = mailbox.wait_for(to=f"{name}@example.com", subject_contains="Confirm")
    [link] = [u for u in mailbox.links(message) if "/accounts/confirm-email/" in u]
    assert link.startswith(live_site.url), link
    page.goto(link)
    page.get_by_role("button", name="Yes, confirm it").click()


def test_guest_plays_a_first_card_one_click_from_the_home_page(
    live_site, new_context, celery_worker, js_errors
):
    from django.contrib.auth.models import User

    from games.models import Move, SeriesSeat

    context = new_context()
    clicks = ClickCounter(context)
    page = context.new_page()
    started = time.monotonic()
    page.goto("/")
    page.get_by_role("button", name="Play now", exact=True).click()
    expect(page).to_have_url(th.TABLE_URL)
    expect(page.locator("#kz-hand .hand-card")).to_have_count(4)
    # Three bots sit with the guest; the page says the guest plays unrated.
    expect(page.locator(".guest-notice")).to_contain_text("guest")
    played = _play_first_card(page)
    seconds = time.monotonic() - started
    print(
        f"\nguest: {clicks.count} clicks, {seconds:.1f} s from the home page to the "
        f"first card played ({played})"
    )

    [guest] = User.objects.filter(guest__isnull=False)
    assert not guest.has_usable_password()
    seats = SeriesSeat.objects.filter(series__table__owner=guest).order_by("position")
    assert [(s.user_id, bool(s.bot_level)) for s in seats] == [
        (guest.pk, False),
        (None, True),
        (None, True),
        (None, True),
    ]
    assert Move.objects.filter(game__series__table__owner=guest, seat=0).exists()
    assert clicks.count <= 4  # Play now, then a card and its button (three with Best beat)
    # The guest's notice fits a phone: no sideways scroll at 375 px.
    page.set_viewport_size({"width": 375, "height": 740})
    expect(page.locator(".guest-notice")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the table scrolls sideways by {overflow}px at 375 px"
    th.screenshot(page, "guest-table-375")
    assert js_errors == []


def test_new_account_lands_at_its_first_table_after_confirming(
    live_site, new_context, mailbox, celery_worker, js_errors
):
    context = new_context()
    clicks = ClickCounter(context)
    page = context.new_page()
    started = time.monotonic()
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    _sign_up(page, mailbox, live_site, "wanda")

    expect(page).to_have_url(th.TABLE_URL)
    expect(page.locator(".messages")).to_contain_text("Welcome to Kozel")
    expect(page.locator(".messages")).not_to_contain_text("Welcome back")
    expect(page.locator(".profile-menu-name")).to_have_text("wanda")
    expect(page.locator("#kz-hand .hand-card")).to_have_count(4)
    played = _play_first_card(page)
    print(
        f"\nnew account: {clicks.count} clicks on the site (typing and the emailed link not "
        f"counted), "
        f"{time.monotonic() - started:.1f} s from the home page through sign-up and "
        f"confirmation to the first card played ({played})"
    )
    assert js_errors == []


def test_guest_signs_up_and_keeps_the_game(
    live_site, new_context, mailbox, celery_worker, js_errors
):
    from django.contrib.auth.models import User

    from games.models import Move

    page = new_context().new_page()
    page.goto("/")
    page.get_by_role("button", name="Play now", exact=True).click()
    expect(page).to_have_url(th.TABLE_URL)
    table_url = page.url
    _play_first_card(page)
    [guest] = User.objects.filter(guest__isnull=False)
    moves = Move.objects.filter(game__series__table__owner=guest, seat=0).count()

    page.get_by_role("link", name="Sign up to keep your games").click()
    _sign_up(page, mailbox, live_site, "oksana")

    # Back at the very table, in the same seat, now as the account.
    expect(page).to_have_url(table_url)
    expect(page.locator(".profile-menu-name")).to_have_text("oksana")
    expect(page.locator("#kz-hand .hand-card").first).to_be_visible()
    oksana = User.objects.get(username="oksana")
    assert oksana.pk == guest.pk
    assert not User.objects.filter(guest__isnull=False).exists()
    assert Move.objects.filter(game__series__table__owner=oksana, seat=0).count() >= moves
    page.goto("/@/oksana")
    expect(page.get_by_role("heading", level=1)).to_have_text("oksana")
    assert js_errors == []
