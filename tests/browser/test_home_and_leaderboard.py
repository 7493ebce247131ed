"""A young site as a visitor meets it: the home page shows a game being played (teams,
score, Watch), a game that starts later appears without a reload, the next club event
and the top players (provisional ones marked), at 1280 and 375 px without sideways
scrolling; the leaderboard keeps its statistics in a details element and shows a player
below the rules their provisional place and what is left."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.services import series as series_service
from games.services import tables
from games.tournaments.models import Club, Tournament
from tests.browser import table_helpers as th
from tests.ratings.test_leaderboard import rated

pytestmark = pytest.mark.browser


def bots_and(owner, name: str, people=()):
    """A public casual table: ``people`` at seats 0.., bots in the rest; not started."""
    table = tables.create_table(owner, tables.TableSettings(name=name))
    for position, person in enumerate(people):
        tables.take_seat(table.pk, person, position)
    for position in range(len(people), 4):
        tables.add_bot(table.pk, owner, position, "casual")
    return table


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_home_page_shows_live_tables_events_and_top_players_and_updates_live(
        live_site, new_context, django_user_model, off_loop, js_errors):
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    carol = django_user_model.objects.create_user("carol", password="x" * 20)
    evening = bots_and(bob, "Evening game", people=(bob,))
    series_service.start_series(evening.pk, bob)
    club = Club.objects.create(name="Friday Goats", slug="friday-goats", owner=bob)
    Tournament.objects.create(club=club, name="December cup", kind="pairs", format="swiss",
                              starts_at=timezone.now() + timedelta(days=2), created_by=bob)
    rated("rising", mu=30.0, sigma=5.0, series_rated=6, days_ago=0)  # provisional, 1375

    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto("/")
    live = page.locator("#live-tables")
    row = live.locator(f'li[data-table="{evening.pk}"]')
    expect(row).to_contain_text("Evening game")
    expect(row).to_contain_text(re.compile(r"bob & .+0 – 0"))
    expect(page.locator(".next-events")).to_contain_text("December cup")
    expect(page.locator(".next-events")).to_contain_text("Friday Goats")
    top = page.locator(".top-list li").first
    expect(top).to_contain_text("rising")
    expect(top.locator(".badge.provisional")).to_have_text("provisional")
    expect(page.locator(".learn-tile a[href='/learn/']")).to_be_visible()
    # The lobby socket is open, and the server joined it to the lobby's group first.
    expect(live).to_have_attribute("data-live", "1")

    # A game that starts now appears without a reload (ws/lobby/ → live-now/).
    late = bots_and(carol, "Late game", people=(carol,))
    off_loop(series_service.start_series, late.pk, carol)
    expect(live.locator(f'li[data-table="{late.pk}"]')).to_contain_text("carol")
    expect(row).to_be_visible()
    th.screenshot(page, "home-1280")
    assert no_sideways_scroll(page)

    phone = new_context(viewport={"width": 375, "height": 800}).new_page()
    phone.goto("/")
    expect(phone.locator(f'#live-tables li[data-table="{late.pk}"] a.button')).to_be_visible()
    th.screenshot(phone, "home-375")
    assert no_sideways_scroll(phone)

    # Watch: the table's page, the game in play.
    row.get_by_role("link", name="Watch").click()
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    assert js_errors == []


def test_home_page_with_nothing_live_offers_play_now_and_the_lessons(live_site, new_context,
                                                                    js_errors):
    page = new_context(viewport={"width": 375, "height": 800}).new_page()
    page.goto("/")
    live = page.locator("#live-tables")
    expect(live).to_contain_text("No game is being played right now.")
    expect(live.get_by_role("button", name="Start a game against bots")).to_be_visible()
    th.screenshot(page, "home-nothing-live-375")
    assert no_sideways_scroll(page)
    live.get_by_role("link", name="Learn to play").click()
    expect(page).to_have_url(re.compile(r"/learn/$"))
    assert js_errors == []


def test_leaderboard_of_a_young_site_shows_provisional_players_and_what_you_lack(
        live_site, new_context, js_errors):
    rated("rising", mu=30.0, sigma=5.0, series_rated=12, days_ago=0)  # 15 → 1375
    me = rated("me", mu=29.4, sigma=5.0, series_rated=13, partners=3, opponents=8,
               days_ago=0).user  # 14.4 → 1360
    page = new_context(user=me, viewport={"width": 1280, "height": 900}).new_page()
    page.goto("/leaderboard/")
    details = page.locator("details.how-ratings-work")
    expect(details).not_to_have_attribute("open", "")
    expect(details.get_by_text("at least 20 rated series")).to_be_hidden()
    expect(page.locator("#your-rank")).to_contain_text(
        "Your provisional place: #2 among players not on the board yet (rating 1360).")
    expect(page.locator("#left-to-qualify")).to_contain_text(
        "7 more rated series, 2 more partners, a more settled rating")
    rows = page.locator("#provisional-board tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("rising")
    expect(rows.nth(1)).to_have_attribute("aria-current", "true")
    expect(rows.nth(1).locator(".badge.provisional")).to_have_text("provisional")
    details.locator("summary").click()
    expect(details.get_by_text("at least 20 rated series")).to_be_visible()
    th.screenshot(page, "leaderboard-provisional")
    assert js_errors == []
