"""Never stuck: Bob left a quick match to a bot, then a friend invites him to her table.
Accepting tells him where his game is and offers both ways out: "Return" to it, or
"Leave it (a bot plays on)". He leaves it and lands in his seat at the friend's table,
while a bot plays his old seat on for the person still there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.social import invites
from games.models import Conduct, Series, SeriesSeat
from games.queue import casual
from games.selectors import live_seat_of
from games.services import clock, tables
from tests.browser import table_helpers as th
from tests.ratings.factories import make_user

pytestmark = pytest.mark.browser


def _stale_quick_match(bob, carol):  # type: ignore[no-untyped-def]
    """A quick match of Bob and Carol with two bots; Bob went away and a bot keeps his
    seat warm (what a disconnect does after its grace period)."""
    table = casual.create_casual_table([bob, None, carol, None], None, 12, "beginner")
    assert clock.hand_seats_to_bots(bob.pk, Conduct.Reason.DISCONNECT) == [table.pk]
    return table


def test_leaving_a_stale_game_from_an_invitation_lands_at_the_friends_table(
        live_site, new_context, off_loop, js_errors):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    old = off_loop(_stale_quick_match, bob, carol)
    assert live_seat_of(bob).series.table_id == old.pk, "his game is still on"
    invitation = off_loop(invites.invite, alice, "bob")
    friends_table = invitation.table_id

    page = new_context(user=bob).new_page()
    page.goto("/notifications/")
    page.get_by_role("button", name="Accept").click()
    refusal = page.locator(".playing-elsewhere")
    expect(refusal).to_contain_text("You are playing at table Quick match")
    expect(refusal.get_by_role("link", name="Return")).to_have_attribute(
        "href", f"/table/{old.pk}/")
    refusal.get_by_role("button", name="Leave it (a bot plays on)").click()

    expect(page).to_have_url(live_site.path(f"/table/{friends_table}/"))
    th.wait_ready(page)
    expect(th.seat_row(page, 2)).to_contain_text("bob")  # opposite alice (R1)
    old_seat = SeriesSeat.objects.get(series__table=old, position=0)
    assert old_seat.gave_up and old_seat.user_id is None, "a bot plays his old seat"
    assert Series.objects.get(table=old).status == Series.Status.PLAYING, \
        "Carol's game goes on"
    assert live_seat_of(bob) is None
    assert js_errors == []


def test_sitting_down_elsewhere_offers_the_same_way_out_on_the_table_page(
        live_site, new_context, off_loop, js_errors):
    """The table page's seat forms post in the background: the refusal shows in the
    page with the same two ways out, and leaving seats him where he clicked."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    old = off_loop(_stale_quick_match, bob, carol)
    table = off_loop(tables.create_table, alice, tables.TableSettings(name="Alice's"))
    page = new_context(user=bob).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)
    th.seat_row(page, 1).get_by_role("button", name="Sit here").click()
    refusal = page.locator(".playing-elsewhere")
    expect(refusal).to_contain_text("You are playing at table Quick match")
    expect(refusal.get_by_role("link", name="Return")).to_be_focused()
    refusal.get_by_role("button", name="Leave it (a bot plays on)").click()
    expect(page).to_have_url(live_site.path(f"/table/{table.pk}/"))
    th.wait_ready(page)
    expect(th.seat_row(page, 1)).to_contain_text("bob")
    expect(page.locator(".playing-elsewhere")).to_have_count(0)
    assert SeriesSeat.objects.get(series__table=old, position=0).gave_up
    assert js_errors == []
