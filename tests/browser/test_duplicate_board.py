"""A duplicate event in a real browser (issue 41): a person plays one board at a table
against a bot pair, with their partner; bots play the same board at the other table on
the real worker. Until both tables have played it the event page only says how far the
board is; then the person reads its traveller (both tables' pairs, card and loss points
and matchpoints), the standings in percent, and the two tables' replays side by side.

Screenshots of the traveller, the standings and the side-by-side replays at 1280 and
375 px go to ``.run/screenshots/duplicate-*.png`` (and ``$KOZEL_SHOTS_DIR`` when set).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.slow]

WIDTHS = {"1280": {"width": 1280, "height": 900}, "375": {"width": 375, "height": 812}}


def _shots(page, name: str) -> None:
    for width, size in WIDTHS.items():
        page.set_viewport_size(size)
        th.screenshot(page, f"{name}-{width}")
    page.set_viewport_size(WIDTHS["1280"])


def test_a_person_plays_a_duplicate_board_and_reads_its_traveller(
        live_site, new_context, celery_worker, js_errors):
    from games.tournaments.models import Board, Match
    from games.tournaments.services import rounds
    from tests.tournaments.helpers import act, enter_pairs, event

    cast, people = thursday_club(["ann", "ben"])
    director, ann, ben = cast.director, people["ann"], people["ben"]
    t = event(cast, fmt="duplicate", name="Duplicate Thursday", rounds=1,
              boards_per_round=1, bots_allowed=True, checkin_seconds=1200)
    enter_pairs(t, [ann, ben])
    for _ in range(3):
        act(t, director, "add_bot", level="random")
    act(t, director, "start")
    ours = Match.objects.get(round__tournament=t, sides__entry__player1=ann)
    other = Match.objects.filter(round__tournament=t).exclude(pk=ours.pk).get()

    # Ann opens the event page first: board 1 is being played, nothing of it shown.
    page = new_context(user=ann).new_page()
    page.goto(f"/tournament/{t.pk}/")
    board = page.locator('#boards div.board[data-board="1"]')
    expect(board).to_have_attribute("data-public", "0")
    expect(board).to_contain_text("being played (")
    expect(page.locator("#duplicate-scoring")).to_contain_text("fewer loss points first")

    # Ben checks in; Ann checks in from the banner, which takes her to the table.
    rounds.check_in(ours.pk, ben)
    page.goto("/")
    page.locator("#tournament-checkin").click()
    page.wait_for_url("**/table/*/")
    partner = new_context(user=ben).new_page()
    partner.goto(page.url)
    for p in (page, partner):
        th.wait_ready(p)
        expect(p.locator("#kz-table")).to_have_attribute("data-phase", "playing")

    def board_public() -> bool:
        return Board.objects.filter(tournament=t, number=1, public_at__isnull=False).exists()

    th.play_until([page, partner], board_public, "the board", timeout=300)

    # The board is played everywhere: the event page shows its traveller and scores.
    page.goto(f"/tournament/{t.pk}/")
    board = page.locator('#boards div.board[data-board="1"]')
    expect(board).to_have_attribute("data-public", "1")
    expect(board.locator("tbody tr")).to_have_count(2)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    percents = rows.evaluate_all("rows => rows.map(r => Number(r.dataset.percent))")
    # Matchpoints on one board at two tables: the two pairs in a direction share 2.
    assert sorted(percents) in ([0, 0, 100, 100], [0, 50, 50, 100], [50, 50, 50, 50]), percents
    expect(page.locator("#standings tr.is-bot").first).to_contain_text("bot · no place")
    expect(page.locator("#cross-table")).to_be_visible()
    _shots(page, "duplicate-standings")

    # The traveller: both tables, each side's score, a replay for each.
    page.locator('#boards div.board[data-board="1"] h3 a').click()
    expect(page.locator("#traveller")).to_have_attribute("data-public", "1")
    lines = page.locator("#traveller tbody tr")
    expect(lines).to_have_count(2)
    scores = lines.evaluate_all(
        "rows => rows.map(r => [Number(r.dataset.scoreA), Number(r.dataset.scoreB)])")
    assert sorted(a for a, _b in scores) in ([0, 2], [1, 1]), scores
    assert sorted(b for _a, b in scores) in ([0, 2], [1, 1]), scores
    expect(page.locator('#traveller a[data-replay="1"]')).to_be_visible()
    _shots(page, "duplicate-traveller")

    # Side by side: the same cards at both tables (the deal is the board's).
    page.locator("#compare-links a").first.click()
    for prefix in ("t1-", "t2-"):
        expect(page.locator(f"#{prefix}kz-replay.js")).to_be_attached()
    first_hands = [page.locator(f"#{p}kz-felt .rp-hand").evaluate_all(
        "els => els.map(e => [...e.querySelectorAll('[data-code]')].map(c => c.dataset.code)"
        ".sort().join(' '))") for p in ("t1-", "t2-")]
    assert sorted(first_hands[0]) == sorted(first_hands[1]) and any(first_hands[0])
    page.locator("#t1-rp-next").click()
    expect(page.locator("#t1-kz-replay")).to_have_attribute("data-step", "1")
    expect(page.locator("#t2-kz-replay")).to_have_attribute("data-step", "0")
    _shots(page, "duplicate-side-by-side")

    # The other table's replay opens for her too, now that the board is public.
    other_game = other.series.games.get(number=1)
    page.goto(f"/game/{other_game.pk}/replay/")
    expect(page.locator("#kz-replay.js")).to_be_attached()
    assert js_errors == []
