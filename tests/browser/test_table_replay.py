"""The replay of a finished game: step by move, keyboard, all hands open or one seat's view."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_replay_steps_through_a_finished_game(live_site, new_context, django_user_model,
                                              celery_worker, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table = tables.create_table(alice, tables.TableSettings(name="Bots only"))
    for position in range(4):
        tables.add_bot(table.pk, alice, position, "random")
    series_service.start_series(table.pk, alice)
    deadline = time.monotonic() + 60
    game = None
    while time.monotonic() < deadline:
        game = Game.objects.filter(series__table=table, status=Game.Status.FINISHED).first()
        if game is not None:
            break
        time.sleep(0.2)
    assert game is not None, "the bots did not finish a game"

    page = new_context(user=alice).new_page()
    page.goto(f"/game/{game.pk}/replay/")
    expect(page.locator("#kz-replay.js")).to_be_attached()
    steps = game.version
    expect(page.locator("#rp-step")).to_have_text(f"Step 0 of {steps}")
    expect(page.locator("#rp-move")).to_have_text("The deal.")
    # All hands open at the start: 16 face-up cards (R5), none a back.
    expect(page.locator("#kz-felt .rp-hand .card:not(.back)")).to_have_count(16)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rp-step")).to_have_text(f"Step 1 of {steps}")
    expect(page.locator("#rp-move")).to_contain_text(" led ")
    expect(page.locator("#kz-trick .trick-set")).to_have_count(1)
    page.get_by_role("button", name="Next ▶").click()
    expect(page.locator("#rp-step")).to_have_text(f"Step 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#rp-step")).to_have_text(f"Step 1 of {steps}")

    # View from seat 2: only that hand is open, the others are card backs.
    page.get_by_label("View from").select_option("1")
    expect(page.locator('#kz-seat-bottom .kz-seat')).to_have_attribute("data-seat", "1")
    expect(page.locator("#kz-seat-bottom .rp-hand .card.back")).to_have_count(0)
    for pos in ("top", "left", "right"):
        expect(page.locator(f"#kz-seat-{pos} .rp-hand .card:not(.back)")).to_have_count(0)

    page.get_by_role("button", name="Last ▶▶").click()
    expect(page.locator("#rp-step")).to_have_text(f"Step {steps} of {steps}")
    expect(page.locator("#kz-felt .rp-hand .card")).to_have_count(0)  # all played out (R14)
    page.get_by_role("button", name="◀◀ First").click()
    expect(page.locator("#rp-step")).to_have_text(f"Step 0 of {steps}")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    th.screenshot(page, "replay-1280")
    assert js_errors == []
