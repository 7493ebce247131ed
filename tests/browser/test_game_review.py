"""A player asks for the strong bot's review of a finished game and reads it on the replay:
grades per decision, the graph, the mistakes, a click that moves the replay there."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import series as series_service
from games.services import tables

pytestmark = pytest.mark.browser


def test_a_finished_game_reviewed_from_the_replay(live_site, new_context, django_user_model,
                                                   worker_with_reviews, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Bots only"))
    for position in range(4):
        tables.add_bot(table.pk, alice, position, "random")
    series_service.start_series(table.pk, alice)
    deadline = time.monotonic() + 60
    game = None
    while time.monotonic() < deadline and game is None:
        game = Game.objects.filter(series__table=table, status=Game.Status.FINISHED).first()
        time.sleep(0.2)
    assert game is not None, "the bots did not finish a game"

    page = new_context(user=alice).new_page()
    page.goto(f"/game/{game.pk}/replay/")
    expect(page.locator("#kz-replay.js")).to_be_attached()
    seat = page.locator('#kz-review .review-seats li[data-seat="1"]')
    seat.get_by_role("button", name="Review").click()
    # Queued, then made by the reviews' worker; the page follows without a reload.
    expect(page.locator("#review-result")).to_be_visible(timeout=60_000)
    expect(seat.locator(".review-status")).to_have_text("Reviewed")
    bars = page.locator("#review-bars .review-bar")
    count = bars.count()
    assert count >= 1
    expect(page.locator("#review-summary")).to_contain_text(f"{count} decisions")
    expect(page.locator("#review-graph circle")).to_have_count(count)
    assert page.locator("#review-mistakes li").count() >= 1  # mistakes, or "No mistakes"
    # A bar moves the replay to that decision's position.
    last = bars.nth(count - 1)
    label = last.get_attribute("aria-label")
    assert label and label.startswith("Trick ")
    last.click()
    expect(page.locator("#rp-step")).not_to_have_text(f"Step 0 of {game.version}")
    page.screenshot(path="test-results/review-replay.png", full_page=True)
    assert js_errors == []
