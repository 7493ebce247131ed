"""Four people queue for ranked in four browsers, are seated together, play, and see
their new ratings on their profiles.

The matcher and the rating task run on a real Celery worker (this process's
``celery_worker``); the pages talk to the daphne child. Once every page shows the table,
the test plays the series through the services for speed (``off_loop``: the services
publish over the channel layer), as the issue allows. Each game is first set to a known
position (``TEAM_A_SHUT_OUT``: team A takes no trick, 6 loss points, R16), so the ranked
series to 12 ends after its second game (R18) instead of a random number of full games;
its end, the rating task and the profiles are as real as before.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Series
from games.ratings import selectors
from games.ratings.conf import rating_settings
from games.ratings.models import RatingChange
from games.services.testing import TEAM_A_SHUT_OUT
from tests.browser import table_helpers as th
from tests.queue.helpers import play_out_series
from tests.ratings.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.worker]

NAMES = ["rita", "sam", "tess", "ugo"]
TABLE_URL = re.compile(r"/table/(\d+)/$")


def test_four_players_queue_play_a_ranked_series_and_see_their_ratings(
        live_site, new_context, celery_worker, off_loop, js_errors):
    users = [make_user(name) for name in NAMES]
    pages = [new_context(user=u).new_page() for u in users]
    for page in pages:
        page.goto("/play/ranked/")
    # The first three wait in the queue and see how many wait with them; the fourth's
    # join lets the worker match them, and on a fast machine the pages may leave for
    # the table before the fourth page ever shows its "Leave the queue" button.
    for waiting, page in enumerate(pages[:3], start=1):
        page.get_by_role("button", name="Join the solo queue").click()
        expect(page.get_by_role("button", name="Leave the queue")).to_be_visible()
        expect(page.locator("#kz-queue-waiting")).to_have_text(re.compile(rf"\b{waiting}\b"))
    pages[3].get_by_role("button", name="Join the solo queue").click()

    # The worker matches the four; each page's poll follows the match to the table.
    table_ids = set()
    for page in pages:
        expect(page).to_have_url(TABLE_URL, timeout=20_000)
        th.wait_ready(page)
        expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
        table_ids.add(int(TABLE_URL.search(page.url).group(1)))
    assert len(table_ids) == 1, "all four at one table"
    series = Series.objects.get(table_id=table_ids.pop())
    assert series.ranked
    assert sorted(s.user_id for s in series.roster.all()) == sorted(u.pk for u in users)

    finished = off_loop(play_out_series, series.pk, {u.pk: u for u in users},
                        position=TEAM_A_SHUT_OUT)
    assert finished.status == Series.Status.FINISHED
    # R16, R18: two shut-outs of team A, 6 + 6 = 12 loss points, the ranked target.
    assert (finished.games.count(), finished.loss_points_a, finished.loss_points_b,
            finished.goat) == (2, 12, 0, "A")
    # The series was played at the services' speed; each page shows every event, which
    # on a slow shared machine takes its time.
    for page in pages:
        expect(page.locator("#kz-table")).not_to_have_attribute("data-phase", "playing",
                                                                timeout=45_000)

    deadline = time.monotonic() + 30
    while RatingChange.objects.filter(series=finished).count() < 4:
        assert time.monotonic() < deadline, "the worker did not rate the series"
        time.sleep(0.2)

    for user, page in zip(users, pages, strict=True):
        page.goto(f"/@/{user.username}")
        rating = selectors.rating_of(user)
        # The series moved the rating. (Not the displayed figure: a loser's mu - 3 sigma
        # can stay at the start's 0, which shows the same 1000.)
        assert rating.series_rated == 1
        assert (rating.mu, rating.sigma) != (rating_settings.MU, rating_settings.SIGMA)
        expect(page.locator("#profile-rating")).to_have_text(str(rating.display))
        expect(page.locator(".recent-series")).to_contain_text("Ranked")
        expect(page.locator("#favourite-partner")).to_be_visible()
    assert js_errors == []
