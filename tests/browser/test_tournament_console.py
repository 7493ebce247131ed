"""The director's console mid-round in a real browser: every table by name, who checked
in and who has the table open, updated live as a player checks in; one click gives an
absent player's seat to a bot (after a confirmation), and a message reaches the table's
chat, where the player reads it as the director's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser]

PEOPLE = ["ann", "ben", "cat", "dov", "eve", "fay", "gus", "hal"]


def _row(page, match_id: int, position: int):
    return page.locator(f'section[data-match="{match_id}"] tr[data-position="{position}"]')


def test_the_console_mid_round(live_site, new_context, js_errors):
    from games.models import ChatMessage, Seat
    from games.tournaments.models import AuditEntry, Match
    from games.tournaments.services import rounds
    from tests.tournaments.helpers import act, enter_pairs, event

    cast, people = thursday_club(PEOPLE)
    director = cast.director
    t = event(cast, rounds=2, checkin_seconds=1200, bots_allowed=True, games_limit=2)
    enter_pairs(t, list(people.values()))
    act(t, director, "start")
    first, second = Match.objects.filter(round__tournament=t).order_by("number")
    seats = {p: person for p, (_e, person) in rounds.people_by_position(first).items()}
    by_id = {u.pk: u for u in people.values()}
    # Seat 0's and seat 1's people checked in already; seat 2's will while the director
    # watches; seat 3's never comes.
    for position in (0, 1):
        rounds.check_in(first.pk, by_id[seats[position]])
    late, absent = by_id[seats[2]], by_id[seats[3]]

    boss = new_context(user=director).new_page()
    boss.goto(f"/tournament/{t.pk}/")
    boss.get_by_role("link", name="Open the director's console").click()
    expect(boss.locator("h1")).to_have_text("Director's console")
    expect(boss.locator("#console-live")).to_have_attribute("data-connected", "1")
    for position in (0, 1, 2, 3):
        expect(_row(boss, first.pk, position)).to_contain_text(by_id[seats[position]].username)
    expect(_row(boss, first.pk, 0).locator("td[data-checked-in]")).to_have_text("✓ yes")
    expect(_row(boss, first.pk, 2).locator("td[data-checked-in]")).to_have_text("not yet")
    expect(boss.locator(f'section[data-match="{second.pk}"]')).to_contain_text(
        "0 of 4 checked in")

    # The late player checks in from the banner and lands at the table: the console
    # shows it (checked in, connected) without a reload.
    player = new_context(user=late).new_page()
    player.goto("/")
    player.locator("#tournament-checkin").click()
    expect(player.locator("#kz-table")).to_be_visible()
    expect(_row(boss, first.pk, 2).locator("td[data-checked-in]")).to_have_text("✓ yes")
    # Presence is not an event: the console reads it on its 5 s refresh (console.js), so
    # the socket may open just after the check-in's refresh and show on the next one.
    expect(_row(boss, first.pk, 2).locator("td[data-connected]")).to_have_text(
        "● connected", timeout=12_000)
    expect(_row(boss, first.pk, 3).locator("td[data-connected]")).to_have_text("○ away")
    # The player's table reads as the event's: its name and link, no Leave, the match's
    # own words while the others check in.
    expect(player.locator("#kz-event-link")).to_have_text(f"← {t.name}")
    expect(player.locator("#kz-lobby")).to_contain_text(
        "The match starts as soon as all four players have checked in.")
    expect(player.get_by_role("button", name="Leave")).to_have_count(0)
    th.screenshot(boss, "console-checkin")

    # A message to table 1 reaches the player's chat as the director's line.
    table = boss.locator(f'section[data-match="{first.pk}"]')
    table.get_by_label("Message the table").fill("Hal, please hurry: the round is waiting")
    table.get_by_role("button", name="Send").click()
    expect(boss.locator(".messages")).to_contain_text("Message sent to table 1")
    expect(player.locator("#kz-chat-list li.chat-director")).to_contain_text(
        "Director olga: Hal, please hurry: the round is waiting")

    # One click (and a confirmation) gives the absent player's seat to a bot: the match
    # starts, and the console names whom the bot plays for.
    boss.once("dialog", lambda dialog: dialog.accept())
    _row(boss, first.pk, 3).get_by_role("button", name="Bot for this seat").click()
    expect(boss.locator(".messages")).to_contain_text(f"A bot plays {absent.username}'s seat")
    expect(_row(boss, first.pk, 3)).to_contain_text(f"bot for {absent.username}")
    expect(boss.locator(f'section[data-match="{first.pk}"]')).to_have_attribute(
        "data-status", "playing")
    expect(boss.locator(f'section[data-match="{first.pk}"] .console-score')).to_contain_text(
        "Loss points A 0 – B 0")
    th.screenshot(boss, "console-mid-round")
    # At the table the match has begun: "Game 1 of 2", the score in loss points.
    expect(player.locator("#kz-game-no")).to_have_text("Game 1 of 2")
    expect(player.locator("#kz-score")).to_contain_text("loss points")
    th.screenshot(player, "table-of-a-match", full_page=False)

    first.refresh_from_db()
    assert first.substitutes == [3]
    assert Seat.objects.get(table=first.table, position=3).bot_level == "casual"
    assert AuditEntry.objects.filter(action="match.substitute_bot",
                                     details__player=absent.username).exists()
    assert ChatMessage.objects.filter(table=first.table, channel="director").count() == 1
    assert not js_errors
