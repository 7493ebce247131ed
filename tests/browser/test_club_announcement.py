"""A director announces the club's next event in a real browser; a member who has the
site open sees the notification arrive live, reads it, and finds it on the club's page;
the e-mail goes to the member who asked for announcements, with absolute links."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser]


def test_a_director_announces_an_event_and_a_member_sees_it(
        live_site, new_context, mailbox, js_errors):
    from accounts.social import services as social
    from games.tournaments.services.texts import EventDetails
    from tests.tournaments.helpers import event

    cast, people = thursday_club(["ann", "ben"])
    club, director = cast.club, cast.director
    member, quiet = people["ann"], people["ben"]
    social.update_settings(member, {"email_announcement": True})
    t = event(cast, name="Thursday Swiss", details=EventDetails(
        description="Three rounds of Swiss.", prizes="A goat mug for the winners"))

    reader = new_context(user=member).new_page()
    reader.goto("/")
    expect(reader.locator("#kz-unread")).to_be_hidden()

    boss = new_context(user=director).new_page()
    boss.goto(f"/club/{club.slug}/")
    text = "Thursday Swiss opens tonight at 19:00 — bring your partner!"
    boss.locator("#club-announce-text").fill(text)
    boss.locator("#club-announce-form").get_by_role("button", name="Announce").click()
    expect(boss.get_by_text("Announced to 2 members.")).to_be_visible()
    expect(boss.locator("#club-announcements .announcement-text")).to_have_text(text)

    # The member's open page hears of it at once (the page socket), then reads it.
    expect(reader.locator("#kz-unread")).to_have_text("1")
    reader.goto("/notifications/")
    expect(reader.get_by_text(f"Announcement from Thursday Goats: {text}")).to_be_visible()
    reader.goto(f"/club/{club.slug}/")
    expect(reader.locator("#club-announcements .announcement-text")).to_have_text(text)
    th.screenshot(reader, "club-announcement-member")
    reader.goto(f"/tournament/{t.pk}/")
    expect(reader.locator("#event-prizes")).to_contain_text("A goat mug for the winners")
    th.screenshot(reader, "tournament-event-details")
    reader.locator("#print-standings").click()
    expect(reader.locator("table#print-standings")).to_be_visible()
    expect(reader.locator(".site-header")).to_have_count(0)
    th.screenshot(reader, "tournament-printable-standings")

    message = mailbox.wait_for(to=member.email, subject_contains="An announcement from")
    assert str(message["Subject"]) == "Kozel: An announcement from Thursday Goats"
    links = mailbox.links(message)
    assert f"{live_site.url}/club/{club.slug}/" in links
    assert all(link.startswith(live_site.url) for link in links), links
    assert [m for m in mailbox.messages() if quiet.email in str(m.get("To"))] == []
    assert js_errors == []
