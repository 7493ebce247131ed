"""A club evening in real browsers.

A director creates a club and a pairs Swiss through the pages; four people join the
club and register as two pairs (one registers, the partner confirms); the director adds
two bot pairs and starts round 1. Each person, waiting on the home page, is shown the
round-start banner live and is taken to their table by its button; they play their
match (one game) by clicking, bots play on the real worker, and the tournament page each of
them has open in a second tab shows the standings change without a reload.

Once everybody sits at their table, each of their games is set to a known position
(``TEAM_A_SHUT_OUT``: the last four tricks, team A can never beat, R7), so the match is
played by clicking to its end through the real services and worker in four tricks instead
of a whole deal.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services.testing import TEAM_A_SHUT_OUT, setup_position
from tests.browser import table_helpers as th
from tests.ratings.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.slow]

HUMANS = ["ann", "ben", "cat", "dov"]


def test_a_pairs_swiss_evening_from_club_to_live_standings(
        live_site, new_context, celery_worker, off_loop, js_errors):
    from games import engine
    from games.models import Game
    from games.tournaments.models import Match, Tournament

    director = make_user("olga")
    people = [make_user(n) for n in HUMANS]
    boss = new_context(user=director).new_page()

    # The director creates the club and the tournament through the forms.
    boss.goto("/clubs/")
    boss.get_by_role("link", name="Create a club").click()
    boss.get_by_label("Name").fill("Thursday Goats")
    boss.get_by_label("Address").fill("thursday-goats")
    boss.get_by_role("button", name="Create the club").click()
    expect(boss.locator("h1")).to_have_text("Thursday Goats")
    boss.get_by_role("link", name="New tournament").click()
    boss.get_by_label("Name").fill("Thursday Swiss")
    boss.get_by_label("Rounds", exact=True).fill("1")
    # A short match: one game, decided by fewer loss points (equal: a tie).
    boss.get_by_label("Or a fixed number of games per match").fill("1")
    boss.get_by_label("Bots may fill a missing seat or pair").check()
    boss.get_by_role("button", name="Create and open registration").click()
    expect(boss.locator("h1")).to_have_text("Thursday Swiss")
    tournament_url = boss.url

    # Four people join the club and register as two pairs.
    pages = {}
    for user in people:
        page = new_context(user=user).new_page()
        page.goto("/club/thursday-goats/")
        page.get_by_role("button", name="Join the club").click()
        expect(page.locator("#club-membership")).to_contain_text("You are a member")
        pages[user.username] = page
    for first, second in (("ann", "ben"), ("cat", "dov")):
        page = pages[first]
        page.goto(tournament_url)
        page.get_by_label("Partner's username").fill(second)
        page.get_by_role("button", name="Register").click()
        expect(page.locator("#registration")).to_contain_text("waiting for your partner")
        partner = pages[second]
        partner.goto(tournament_url)
        partner.get_by_role("button", name="Confirm").click()
        expect(partner.locator("#registration")).to_contain_text(f"{first} & {second}")

    # Two bot pairs; then everybody waits on the home page (the banner's socket is open).
    boss.goto(tournament_url)
    for _ in range(2):
        boss.locator("select[name=level]").select_option("random")
        boss.locator("#add-bot-entry").click()
        expect(boss.locator(".messages")).to_contain_text("entered")
    expect(boss.locator("#standings tbody tr")).to_have_count(4)
    for page in pages.values():
        page.goto("/")
        expect(page.locator("#tournament-banner")).to_have_attribute("data-connected", "1")
    boss.locator("#pair-round").click()
    boss.locator("#start-round").click()
    expect(boss.locator("#tournament-live [data-round='1']")).to_be_visible()
    th.screenshot(boss, "tournament-director-round-1")

    # The banner appears live on every person's page; its button takes them to the table.
    tables = {}
    for name, page in pages.items():
        button = page.locator("#tournament-checkin")
        expect(button).to_be_visible()
        if name == "ann":
            th.screenshot(page, "tournament-banner-home")
        button.click()
        page.wait_for_url("**/table/*/")
        tables[name] = int(page.url.rstrip("/").split("/")[-1])
    for page in pages.values():
        th.wait_ready(page)
        expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    # A short game at each of their tables (the services publish it: off the loop).
    for table_id in set(tables.values()):
        off_loop(setup_position, table_id, TEAM_A_SHUT_OUT)

    # Each person also has the tournament page open in a second window, where their own
    # match shows as being played (nobody has moved a card yet). A window, not a tab of
    # the table's: a background tab gets no animation frames, and a click there waits
    # for them.
    human_matches = list(Match.objects.filter(sides__entry__player1__isnull=False)
                         .distinct().values_list("pk", flat=True))
    watchers = []
    for user in people:
        tab = new_context(user=user).new_page()
        tab.goto(tournament_url)
        expect(tab.locator("#tournament-live")).to_have_attribute("data-connected", "1")
        for match_id in human_matches:
            expect(tab.locator(f"tr[data-match='{match_id}']")).to_have_attribute(
                "data-status", "playing")
        watchers.append(tab)

    # Play: whoever is on turn clicks, until every match of the round is over.
    t = Tournament.objects.get(name="Thursday Swiss")
    th.play_until(
        pages.values(),
        lambda: not Match.objects.filter(round__tournament=t).exclude(status="finished").exists(),
        "the round", timeout=420)

    # The standings changed live on every tab: each match gives out 2 points (a win 2 + 0,
    # a tie 1 + 1: one game may end in eggs, R17), 4 in all, none while the humans played.
    for tab in watchers:
        for match_id in human_matches:
            expect(tab.locator(f"tr[data-match='{match_id}']")).to_have_attribute(
                "data-status", "finished", timeout=15000)
        expect(tab.locator("#tournament-live [data-round-status='finished']")).to_be_visible()
        points = tab.locator("#standings tbody tr").evaluate_all(
            "rows => rows.map(r => Number(r.dataset.points))")
        assert sum(points) == 4, points
    th.screenshot(watchers[0], "tournament-player-standings")
    # Each of the people's matches was its one game, played from the short position:
    # team B's pile there already holds 69 card points, so B lost nothing (R16). (A bot
    # of team B may discard rather than beat, R9, so A may still take a trick.)
    start = engine.game_from_position(TEAM_A_SHUT_OUT).start
    for table_id in set(tables.values()):
        game = Game.objects.get(series__table_id=table_id)
        assert engine.GameState.from_dict(game.state).start == start
        assert game.status == Game.Status.FINISHED and game.result.loss_points_b == 0
    t.refresh_from_db()
    assert t.status == "finished"
    rows = boss.locator("#standings tbody tr")
    places = [rows.nth(i).locator("td").first.inner_text() for i in range(4)]
    bots = [rows.nth(i).get_attribute("class") == "is-bot" for i in range(4)]
    assert all(p == "–" for p, bot in zip(places, bots, strict=True) if bot)
    assert sorted(p for p, bot in zip(places, bots, strict=True) if not bot) == ["1", "2"]
    boss.reload()
    expect(boss.locator("#director-tools .audit-log")).to_contain_text("tournament.finish")
    th.screenshot(boss, "tournament-director-final")
    assert len(set(tables.values())) in (1, 2)
    assert js_errors == []
