"""A director corrects a result in a real browser: an impossible result is refused with
its reason, a possible one is shown as the standings before and after and saved only by
the confirm button; the match's players find it in their notifications."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser]


def test_a_correction_is_checked_previewed_and_confirmed(live_site, new_context, js_errors):
    from games.tournaments.models import Match
    from tests.tournaments.helpers import act, enter_pairs, event, play_round

    cast, by_name = thursday_club(["ann", "ben", "cat", "dov"])
    director, people = cast.director, list(by_name.values())
    t = event(cast, rounds=2)
    enter_pairs(t, people)
    act(t, director, "start")
    play_round(t.round_set.get(number=1), goat="B", loss=(4, 12))
    match = Match.objects.get(round__tournament=t, round__number=1)

    boss = new_context(user=director).new_page()
    boss.goto(f"/tournament/{t.pk}/")
    form = boss.locator("form", has=boss.locator('input[name="action"][value="correct"]'))
    # The impossible result: side A "won" with more loss points than B.
    form.locator('select[name="match_id"]').select_option(str(match.pk))
    form.locator('select[name="outcome"]').select_option("A")
    form.locator('input[name="loss_a"]').fill("6")
    form.locator('input[name="loss_b"]').fill("0")
    form.locator('input[name="reason"]').fill("score sheet")
    form.get_by_role("button", name="Correct the result").click()
    expect(boss.get_by_text("The winning side has fewer loss points")).to_be_visible()
    match.refresh_from_db()
    assert (match.outcome, match.corrected) == ("A", False)

    form = boss.locator("form", has=boss.locator('input[name="action"][value="correct"]'))
    form.locator('select[name="match_id"]').select_option(str(match.pk))
    form.locator('select[name="outcome"]').select_option("B")
    form.locator('input[name="loss_a"]').fill("12")
    form.locator('input[name="loss_b"]').fill("4")
    form.locator('input[name="reason"]').fill("the score sheet was swapped")
    form.get_by_role("button", name="Correct the result").click()
    expect(boss.locator("h1")).to_have_text("Confirm the correction")
    expect(boss.locator("[data-standings]")).to_have_count(2)
    expect(boss.locator("[data-after]")).to_have_text("Side B won · loss points A 12, B 4")
    th.screenshot(boss, "tournament-correction-confirm")
    match.refresh_from_db()
    assert match.outcome == "A", "nothing is saved before the confirmation"
    boss.get_by_role("button", name="Confirm the correction").click()
    expect(boss.get_by_text("Result corrected; the players of the match are told.")) \
        .to_be_visible()
    match.refresh_from_db()
    assert (match.outcome, match.loss_a, match.loss_b, match.corrected) == ("B", 12, 4, True)

    player = new_context(user=people[0]).new_page()
    player.goto("/notifications/")
    expect(player.get_by_text("A director corrected the result of your match in round 1 "
                              "of Friday Cup.")).to_be_visible()
    assert js_errors == []
