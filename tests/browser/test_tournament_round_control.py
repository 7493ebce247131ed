"""A director runs round 1 in a real browser: "Pair round 1" shows the pairings without
starting anything, a swap moves two pairs between the matches, "Start round 1" makes
the tables with the swapped pairings; one pair never checks in, and at the deadline the
standings (updated live on the open page) show it absent, without a place."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser]

NAMES = ["ann", "ben", "cat", "dov", "eve", "fay", "gus", "hal"]


def _pairs(round_) -> set[frozenset[int]]:
    return {frozenset(m.sides.values_list("entry_id", flat=True))
            for m in round_.matches.all()}


def test_director_pairs_swaps_and_starts_and_an_absent_pair_is_shown(
        live_site, new_context, django_user_model, off_loop, js_errors):
    from games.tournaments.models import Entry, Round
    from games.tournaments.services import rounds
    from tests.tournaments.helpers import enter_pairs, event

    cast, by_name = thursday_club(NAMES)
    director, people = cast.director, list(by_name.values())
    t = event(cast, rounds=2, bots_allowed=True)  # bots allowed: absence still forfeits
    entries = enter_pairs(t, people)

    boss = new_context(user=director).new_page()
    boss.goto(f"/tournament/{t.pk}/")
    boss.locator("#pair-round").click()
    expect(boss.locator(".messages")).to_contain_text("Round 1 is paired")
    expect(boss.locator("#tournament-live [data-round='1']")).to_have_attribute(
        "data-round-status", "paired")
    round_ = Round.objects.get(tournament=t, number=1)
    before = _pairs(round_)
    assert round_.matches.filter(table__isnull=False).count() == 0  # nothing started

    # Swap the side-A pairs of matches 1 and 2 through the director's form.
    first = round_.matches.get(number=1).sides.get(side="A").entry
    second = round_.matches.get(number=2).sides.get(side="A").entry
    form = boss.locator("form", has=boss.locator("#swap-entries"))
    form.locator('select[name="first"]').select_option(str(first.pk))
    form.locator('select[name="second"]').select_option(str(second.pk))
    boss.locator("#swap-entries").click()
    expect(boss.locator(".messages")).to_contain_text("were swapped in round 1")
    after = _pairs(round_)
    assert after != before and {first.pk, second.pk} not in after
    th.screenshot(boss, "tournament-round-1-paired-swapped")

    boss.locator("#start-round").click()
    expect(boss.locator(".messages")).to_contain_text("Round 1 has started")
    round_.refresh_from_db()
    assert round_.status == "checkin" and _pairs(round_) == after

    # Everybody checks in but one pair; then the deadline passes.
    absent = Entry.objects.get(pk=entries[-1].pk)

    def check_in_the_others() -> None:
        for match in round_.matches.all():
            for person in sorted(rounds._persons(match) - set(absent.people_ids)):
                rounds.check_in(match.pk, django_user_model.objects.get(pk=person))
        rounds.checkin_deadline(round_.pk, force=True)

    off_loop(check_in_the_others)
    row = boss.locator(f"#standings tr[data-entry='{absent.pk}']")
    expect(row.locator("[data-absent-rounds]")).to_have_text("absent 1 round")
    expect(row.locator("td").first).to_have_text("–")  # never played: no place
    expect(boss.locator(f"[data-absent='{absent.pk}']")).to_have_text("absent")
    th.screenshot(boss, "tournament-standings-absent")
    assert js_errors == []
