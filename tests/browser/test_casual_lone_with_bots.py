"""A lone person in "Play with people" who allows bots is seated with three bots when the
wait the page advertised ends: the page's promise is what the matcher does.

Nobody else waits. Alice chooses the shortest wait the form offers (15 s), the page says
so and offers "Play with bots now" meanwhile; she does not take it. The kick the join
queued for the end of her wait runs the matcher on a real Celery worker, and the page's
status poll follows the match to a dealt table: Alice and three bots.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Seat, Series
from games.queue.models import QueueEntry
from tests.browser import table_helpers as th
from tests.ratings.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker]

WAIT_SECONDS = 15  # the shortest wait the form offers (games/queue/models.py BOT_WAITS)


def test_a_lone_person_is_seated_with_three_bots_when_the_advertised_wait_ends(
        live_site, new_context, celery_worker, js_errors):
    alice = make_user("alice")
    page = new_context(user=alice).new_page()
    page.goto("/play/casual/")
    join = page.locator("#kz-casual-join")
    # The page states the rule the matcher follows, with no condition it will not meet.
    expect(page.locator(".lede")).to_contain_text("even if nobody else comes")
    join.get_by_label("Fill empty seats with bots").check()
    join.get_by_label("after").select_option(str(WAIT_SECONDS))
    join.get_by_role("button", name="Find players").click()
    started = time.monotonic()

    expect(page.locator("#kz-queue-bot-wait")).to_have_text(f"{WAIT_SECONDS} s")
    expect(page.locator("#kz-queue-rule")).to_contain_text(
        f"bots fill the empty seats after {WAIT_SECONDS} s")
    expect(page.get_by_role("button", name="Play with bots now")).to_be_visible()
    assert QueueEntry.objects.get(user=alice).status == "waiting"

    # Nothing more from Alice: the status poll follows the match to the table.
    expect(page).to_have_url(th.TABLE_URL, timeout=(WAIT_SECONDS + 20) * 1000)
    seconds = time.monotonic() - started
    th.wait_ready(page)
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    table_id = int(th.TABLE_URL.search(page.url).group(1))
    seats = list(Seat.objects.filter(table_id=table_id).order_by("position"))
    assert [s.user_id for s in seats if s.user_id] == [alice.pk]
    assert sum(1 for s in seats if s.is_bot) == 3, "three bots fill the table"
    series = Series.objects.get(table_id=table_id)
    assert series.status == Series.Status.PLAYING and not series.ranked
    entry = QueueEntry.objects.get(user=alice)
    assert entry.status == "matched" and entry.table_id == table_id
    # Seated once the wait was over, not long after it (the matcher ran on its kick).
    assert WAIT_SECONDS - 1 <= seconds < WAIT_SECONDS + 15, f"{seconds:.1f} s"
    print(f"\nlone casual queue: seated with bots {seconds:.1f} s after 'Find players' "
          f"(advertised {WAIT_SECONDS} s)")
    assert re.search(r"/table/\d+/$", page.url)
    assert js_errors == []
