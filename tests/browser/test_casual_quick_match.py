"""A brand-new user finds a game with people in under a minute.

Three people already wait in the casual queue (queued through the service). A new user
signs up through the real allauth form, confirms the emailed link, ends the practice
series of its first table (three bots), clicks "Play with people" on the home page,
then "Find players", and the matcher on a real Celery worker seats the four at one
table. The test prints the seconds from the click on the home
page to the table page showing four people seated, and requires under 60 s.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Series
from games.queue import casual
from games.queue.models import QueueEntry
from tests.browser import table_helpers as th
from tests.ratings.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker]

PASSWORD = "a long and fine passphrase 42"
WAITING = ["vika", "yuri", "zoya"]
TABLE_URL = re.compile(r"/table/(\d+)/$")
LIMIT_SECONDS = 60.0


def _sign_up_and_confirm(page, mailbox, live_site) -> None:  # type: ignore[no-untyped-def]
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Email").fill("nika@example.com")
    page.get_by_label("Username").fill("nika")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    message = mailbox.wait_for(to="nika@example.com", subject_contains="Confirm")
    [link] = [u for u in mailbox.links(message) if "/accounts/confirm-email/" in u]
    assert link.startswith(live_site.url), link
    page.goto(link)
    page.get_by_role("button", name="Yes, confirm it").click()
    expect(page.locator(".profile-menu-name")).to_have_text("nika")
    # A new account starts at its first table, three bots dealt in; to play with people
    # it ends that practice series (the bots always agree to end it).
    expect(page).to_have_url(TABLE_URL)
    th.wait_ready(page)
    page.get_by_role("button", name="Vote to end series").click()
    expect(page.locator("#kz-table")).not_to_have_attribute("data-phase", "playing")


def test_a_new_user_is_seated_with_three_waiting_people_in_under_a_minute(
        live_site, page, mailbox, celery_worker, off_loop, js_errors):
    waiting = [make_user(name) for name in WAITING]
    for user in waiting:
        off_loop(casual.join_casual, user)  # default preferences: any clock, any target
    assert QueueEntry.objects.filter(status="waiting", kind="casual").count() == 3, \
        "three people cannot make a table: they wait"

    _sign_up_and_confirm(page, mailbox, live_site)
    page.goto("/")
    started = time.monotonic()
    page.get_by_role("link", name="Play with people").click()
    expect(page).to_have_url(re.compile(r"/play/casual/$"))
    page.get_by_role("button", name="Find players").click()
    # The page's status poll follows the match to the table.
    expect(page).to_have_url(TABLE_URL, timeout=int(LIMIT_SECONDS * 1000))
    th.wait_ready(page)
    names = page.locator(".kz-seat .pname")
    expect(names).to_have_count(4, timeout=int(LIMIT_SECONDS * 1000))
    for name in ["nika", *WAITING]:
        expect(page.locator(".kz-seat .pname", has_text=name)).to_have_count(1)
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    seconds = time.monotonic() - started
    print(f"\nquick match: {seconds:.1f} s from the click on 'Play with people' to the "
          "table showing four people seated")

    table_id = int(TABLE_URL.search(page.url).group(1))
    series = Series.objects.get(table_id=table_id)
    assert not series.ranked
    people = sorted(seat.user_id for seat in series.roster.all())
    new_user = QueueEntry.objects.get(user__username="nika").user_id
    assert people == sorted([new_user, *(u.pk for u in waiting)]), "four people, no bot"
    assert seconds < LIMIT_SECONDS, f"{seconds:.1f} s"
    assert js_errors == []
