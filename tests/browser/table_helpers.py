"""Helpers for the live-table browser tests (tests/browser/test_table_*.py).

They drive the table only through what a player sees: the lobby form, the seat
buttons, the cards of the hand (buttons named "10 of hearts"), the action buttons
(Lead, Beat, Discard, Molodka) and the helpers (Best beat, Discard lowest).
The ``#kz-table`` element carries read-only ``data-*`` attributes (phase, game id,
version, whose turn) that the tests use only to wait, never to act.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO_ROOT / ".run" / "screenshots"
TABLE_URL = re.compile(r"/table/(\d+)/$")


def create_table(page: Page, name: str = "Test table", sit: bool = False) -> int:
    """Create a casual public table through the lobby form; return its id. ``sit``: the
    creator takes seat 0 (the form's default; the tests seat people themselves)."""
    page.goto("/tables/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Take a seat myself").set_checked(sit)
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(TABLE_URL)
    match = TABLE_URL.search(page.url)
    assert match, page.url
    wait_ready(page)
    return int(match.group(1))


def wait_ready(page: Page) -> None:
    """The table module has started (it marks #kz-table with the class ``js``) and its
    socket is open, so a click is sent rather than refused as "not connected"."""
    expect(page.locator("#kz-table.js")).to_be_attached()
    page.wait_for_function("() => window.kozelTable && window.kozelTable.state.open")


def measure(page: Page, selector: str, function: str) -> Any:
    """Runs the JavaScript ``function`` on the list of elements ``selector`` matches, in
    one call inside the page.

    A live table draws its seats, hand and cards again whenever an event arrives (a bot's
    move, a presence change). A locator's ``evaluate``, ``evaluate_all`` or
    ``bounding_box`` finds its elements in one call and measures them in the next, so it
    may measure an element just replaced: detached, it has no size and no style (0, NaN or
    None). Found and measured in one call, the page is measured as it is."""
    found = f"[...document.querySelectorAll({json.dumps(selector)})]"
    return page.evaluate(f"() => ({function})({found})")


def seat_row(page: Page, position: int) -> Any:
    return page.locator(f'#kz-lobby li[data-position="{position}"]')


def sit(page: Page, position: int) -> None:
    row = seat_row(page, position)
    row.get_by_role("button", name="Sit here").click()
    expect(row.get_by_role("button", name="Leave")).to_be_visible()


def add_bot(page: Page, position: int, level: str = "random") -> None:
    row = seat_row(page, position)
    row.get_by_label(f"Bot level for seat {position + 1}").select_option(level)
    row.get_by_role("button", name="Add bot").click()
    expect(row.get_by_role("button", name="Remove bot")).to_be_visible()


def start(page: Page) -> None:
    page.locator("#kz-lobby").get_by_role("button", name="Start").click()
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    expect(page.locator("#kz-hand .hand-card").first).to_be_visible()


def hand_codes(page: Page) -> list[str]:
    return measure(page, "#kz-hand .hand-card", "els => els.map(e => e.dataset.code)")


def visible_action(page: Page) -> str | None:
    for name in ("Lead", "Beat", "Discard"):
        button = page.get_by_role("button", name=name, exact=True)
        if button.count() and button.is_visible() and button.is_enabled():
            return name
    return None


def play_one_turn(page: Page) -> str | None:
    """Play one legal action through the UI; return the button clicked, or None when
    the table moved before the click (a bot's molodka, R11, may come out of turn while
    this page is choosing its lead: the caller waits for its turn again).

    Leading: select the first card (a single card is always a legal lead, R8).
    Replying: "Best beat" when it is offered and Beat appears, else "Discard lowest"
    then Discard (any k cards may be discarded, R9).
    """
    version = page.locator("#kz-table").get_attribute("data-version")
    cards = page.locator("#kz-hand .hand-card")
    best = page.get_by_role("button", name="Best beat")
    lowest = page.get_by_role("button", name="Discard lowest")
    if lowest.is_visible():
        if best.is_visible():
            best.click()
            if page.get_by_role("button", name="Beat", exact=True).is_visible():
                return _click_and_wait(page, "Beat", version)
        lowest.click()
        return _click_and_wait(page, "Discard", version)
    cards.first.click()
    lead = page.get_by_role("button", name="Lead", exact=True)
    moved = page.locator(f'#kz-table:not([data-version="{version or ""}"])')
    expect(lead.or_(moved).first).to_be_visible()
    if moved.count():
        return None
    expect(cards.first).to_have_attribute("aria-pressed", "true")
    return _click_and_wait(page, "Lead", version)


def _click_and_wait(page: Page, name: str, version: str | None) -> str:
    button = page.get_by_role("button", name=name, exact=True)
    expect(button).to_be_visible()
    button.click()
    expect(page.locator("#kz-table")).not_to_have_attribute("data-version", version or "")
    return name


def wait_for_turn_or_end(page: Page, timeout: float = 15.0) -> str:
    """Wait until it is this page's turn ("turn") or the game it was in is over ("over")."""
    table = page.locator("#kz-table")
    game_id = table.get_attribute("data-game-id")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("#kz-summary .summary-card").is_visible():
            return "over"
        if table.get_attribute("data-game-over") == "true":
            return "over"
        if game_id and table.get_attribute("data-game-id") != game_id:
            return "over"  # the next game was dealt already
        if table.get_attribute("data-my-turn") == "true" and not page.locator(
            "#kz-actions.is-pending"
        ).count():
            return "turn"
        page.wait_for_timeout(50)
    raise AssertionError("neither my turn nor the end of the game came in time")


def play_until(pages: Iterable[Page], done: Callable[[], object], what: str,
               timeout: float = 90.0) -> None:
    """Whoever is on turn among ``pages`` clicks a legal action until ``done()`` (the
    bots play on the worker); a game's summary between games is read and closed."""
    pages = list(pages)
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what} did not finish in time"
        acted = False
        for page in pages:
            summary = page.get_by_role("dialog", name="Game summary")
            if summary.is_visible():  # it also closes by itself a few seconds later
                with contextlib.suppress(PlaywrightError):
                    summary.get_by_role("button", name="Continue").click(timeout=1000)
                continue
            table = page.locator("#kz-table")
            if (table.get_attribute("data-my-turn") == "true"
                    and not page.locator("#kz-actions.is-pending").count()
                    and table.get_attribute("data-game-over") != "true"):
                try:
                    play_one_turn(page)
                    acted = True
                except (AssertionError, PlaywrightError):
                    pass  # the turn moved on (a bot, the game's end): look again
        if not acted:
            pages[0].wait_for_timeout(50)


def screenshot(page: Page, name: str, element: Any = None, full_page: bool = True) -> Path:
    """Save a screenshot of the page (the whole page, or only what the viewport shows)
    or of one element under .run/screenshots/ (git-ignored), copy it to
    ``$KOZEL_SHOTS_DIR`` when that is set (screenshots for an issue's note), and return
    its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if element is None:
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    else:
        element.screenshot(path=str(path), animations="disabled")
    target = os.environ.get("KOZEL_SHOTS_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / path.name)
    return path
