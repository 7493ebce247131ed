"""One player and three random bots: a whole game played by clicking cards and buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def test_play_a_whole_game_against_three_bots(live_site, new_context, django_user_model,
                                              celery_worker, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    page = new_context(user=alice).new_page()
    th.create_table(page, "Alice and the bots")
    th.sit(page, 0)
    for position in (1, 2, 3):
        th.add_bot(page, position, "random")
    th.start(page)

    # The trump card and the stock are always visible (R6); the hand is sorted, named.
    expect(page.locator("#kz-trump .trump-suit")).to_be_visible()
    expect(page.locator("#kz-stock .stock-count")).to_have_text("20")
    names = th.measure(page, "#kz-hand .hand-card",
                       "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(names) == 4 and all(" of " in n and "T " not in n for n in names), names

    plays: list[str] = []
    shot_taken = False
    for _ in range(200):
        state = th.wait_for_turn_or_end(page, timeout=20)
        if state == "over":
            break
        if not shot_taken and len(plays) >= 3:
            th.screenshot(page, "table-1280-midgame")
            page.set_viewport_size({"width": 375, "height": 800})
            th.screenshot(page, "table-375-midgame")
            page.set_viewport_size({"width": 1280, "height": 800})
            shot_taken = True
        played = th.play_one_turn(page)
        if played:
            plays.append(played)
    else:
        pytest.fail("the game did not end in 200 turns")

    summary = page.get_by_role("dialog", name="Game summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Card points")
    th.screenshot(page, "table-1280-summary")
    # Every one of alice's moves went through the buttons: her leads (when the deal and
    # the bots' play gave her the lead at all) used the Lead button.
    from games.models import Move

    alice_moves = Move.objects.filter(game__series__table__name="Alice and the bots", seat=0)
    assert plays and alice_moves.count() >= len(plays)
    assert ("Lead" in plays) == alice_moves.filter(kind="lead").exists()
    assert js_errors == []
