"""Two people become friends, one invites the other to a table from the friends list,
the other accepts from the live notification, and they play a trick together (with two
bots on a real worker)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def follow(page, name: str) -> None:
    page.goto("/friends/")
    page.get_by_label("Username", exact=True).fill(name)
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.locator(f'[data-friend="{name}"]')).to_be_visible()


def test_friends_invite_accept_from_the_notification_and_play_a_trick(
        live_site, new_context, django_user_model, celery_worker, js_errors):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    bob = django_user_model.objects.create_user("bob", password="x" * 20)
    alice_page = new_context(user=alice).new_page()
    bob_page = new_context(user=bob).new_page()
    follow(alice_page, "bob")
    follow(bob_page, "alice")
    alice_page.reload()  # bob followed after alice's page loaded
    expect(alice_page.locator('[data-friend="bob"]')).to_contain_text("follows you")
    # Bob's page socket is open (the badge is live) and he is online for alice; his one
    # notification says alice follows him.
    expect(bob_page.locator("#kz-notifications")).to_have_attribute("data-live", "1")
    expect(bob_page.locator("#kz-unread")).to_have_text("1")
    alice_page.reload()
    row = alice_page.locator('[data-friend="bob"]')
    expect(row.locator(".presence-dot")).to_have_attribute("data-online", "1")

    # Alice invites bob from the friends list: a private table opens with her at seat 0.
    row.get_by_role("button", name="Invite to my table").click()
    expect(alice_page).to_have_url(th.TABLE_URL)
    th.wait_ready(alice_page)
    table_url = alice_page.url

    # The notification reaches bob's open page live: the badge and a line.
    expect(bob_page.locator("#kz-unread")).to_have_text("2")
    expect(bob_page.locator("#kz-toasts .toast")).to_contain_text("alice invites you")
    bob_page.locator("#kz-notifications").click()
    expect(bob_page).to_have_url(live_site.path("/notifications/"))
    bob_page.get_by_role("button", name="Accept").click()
    expect(bob_page).to_have_url(table_url)
    th.wait_ready(bob_page)
    expect(bob_page.locator("#kz-unread")).to_have_text("1")  # the invitation's is read
    # Bob sits opposite alice (partners, R1); alice's page learns it by the pushed snapshot.
    expect(th.seat_row(alice_page, 2)).to_contain_text("bob")

    for position in (1, 3):
        th.add_bot(alice_page, position, "random")
    th.start(alice_page)
    expect(bob_page.locator("#kz-table")).to_have_attribute("data-phase", "playing")

    # Whoever is to play plays, until the first trick is taken; both of them play in it.
    pages = {"alice": alice_page, "bob": bob_page}
    played: set[str] = set()
    deadline = time.monotonic() + 60
    while "took the trick" not in alice_page.locator("#kz-log").inner_text():
        assert time.monotonic() < deadline, "the first trick was not taken in time"
        for name, page in pages.items():
            table = page.locator("#kz-table")
            if table.get_attribute("data-my-turn") == "true" \
                    and not page.locator("#kz-actions.is-pending").count():
                th.play_one_turn(page)
                played.add(name)
        alice_page.wait_for_timeout(50)
    assert played == {"alice", "bob"}, played
    expect(bob_page.locator("#kz-log")).to_contain_text("took the trick")
    assert js_errors == []
