"""End cards that speak to the reader (UX: "Speak to the person").

A series is played to its end through the services (as the ranked-queue test does:
``off_loop`` + ``play_out_series``, which publish over the channel layer) while real
pages watch it: two players of opposite teams and a spectator. The game summary and the
series card then say "You won" / "You are the goat" to the players, name the teams to
the spectator, give the score as yours–theirs, keep the last game's summary one click
away, leave nothing stray on the felt and stay wholly in view at desktop and phone
sizes. At a ranked table the card shows the rating change the rating task stored, and
never offers the owner's "Play again".

Each game is first set to a known position (``TEAM_A_SHUT_OUT``: team A takes no trick,
6 loss points, R16), so the casual series to 6 ends after one short game and the ranked
one to 12 after two (R18): seat 0 is always the goat and seat 1 always won, so both
wordings are read on every run.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Series, Table
from games.queue.services import create_ranked_table
from games.ratings.models import RatingChange
from games.services import series as series_service
from games.services import tables as table_service
from games.services.testing import TEAM_A_SHUT_OUT
from tests.browser import table_helpers as th
from tests.queue.helpers import play_out_series
from tests.ratings.factories import make_user

pytestmark = [pytest.mark.browser]

PHONE = {"width": 375, "height": 740}


def _open(new_context: Any, user: Any, table_id: int,
          viewport: dict[str, int] | None = None) -> Page:
    page = new_context(user=user, **({"viewport": viewport} if viewport else {})).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    return page


def _casual_series(users: list[Any]) -> tuple[Table, Series]:
    """A casual table, no clock, a series to 6 (the shortest a table offers), the four
    seated and the series started (the services publish on commit, so this runs off
    Playwright's loop)."""
    table = table_service.create_table(users[0], table_service.TableSettings(
        name="Evening", kind=Table.Kind.CASUAL, turn_seconds=None, series_target=6))
    for position, user in enumerate(users):
        table_service.take_seat(table.pk, user, position)
    return table, series_service.start_series(table.pk, users[0])


def _series_over(page: Page) -> Any:
    card = page.locator("#kz-series-end .series-card")
    # Every event at the services' speed: a busy shared machine needs its time.
    expect(card).to_be_visible(timeout=90_000)
    return card


def _wholly_in_view(page: Page, selector: str) -> None:
    """The element's box lies inside the viewport, and the page did not scroll to it.

    Measured with ``th.measure``: the ranked card is rebuilt when the rating task's
    result arrives, and a locator's ``bounding_box()`` may find the old card just
    detached and answer None."""
    box = th.measure(page, selector, "els => { const r = els[0]?.getBoundingClientRect();"
                     " return r ? {x: r.x, y: r.y, width: r.width, height: r.height} : null; }")
    size = page.viewport_size
    assert size is not None
    assert box is not None and box["width"] > 0 and box["height"] > 0, (selector, box)
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 1, (box, size)
    assert box["y"] + box["height"] <= size["height"] + 1, (box, size)


def _nothing_stray(page: Page) -> None:
    """No trump card or stock left on the felt of a finished series."""
    expect(page.locator("#kz-trump .card")).to_have_count(0)
    expect(page.locator("#kz-stock .card")).to_have_count(0)


def _scores(series: Series) -> tuple[int, int]:
    return series.loss_points_a, series.loss_points_b


def _team_of(position: int) -> str:
    return "A" if position % 2 == 0 else "B"  # R1


def _check_players_cards(pages: dict[int, Page], finished: Series) -> None:
    """R18: the goat is the team that reached the target; each player reads their side."""
    a, b = _scores(finished)
    for position, page in pages.items():
        card = _series_over(page)
        mine = _team_of(position)
        yours, theirs = (a, b) if mine == "A" else (b, a)
        if finished.goat == mine:
            expect(card.locator(".goat-title")).to_have_text(re.compile(r"^You are the goat"))
        else:
            expect(card.locator(".goat-title")).to_have_text("You won the series!")
        expect(card.locator(".final-score")).to_have_text(
            f"Final: your team {yours} – {theirs} theirs (loss points)")
        expect(card).not_to_contain_text("Team A")
        expect(card).not_to_contain_text("Team B")
        _nothing_stray(page)
        _wholly_in_view(page, "#kz-series-end .series-card")
        assert page.evaluate("window.scrollY") == 0, "the series end scrolled the page"
        # The games of the series list each game's points as yours–theirs too.
        last = finished.games.order_by("-number").first().result
        points = (last.points_a, last.points_b) if mine == "A" else (last.points_b, last.points_a)
        games = page.locator("#kz-games")
        expect(games.locator("thead th").nth(1)).to_have_text("Points yours–theirs")
        expect(games.locator("tbody tr").last.locator("td").nth(1)).to_have_text(
            f"{points[0]} – {points[1]}")


def _check_last_game(page: Page, position: int, finished: Series) -> None:
    """The series card's "Last game's summary" opens that game, spoken to the player."""
    last = finished.games.order_by("-number").first()
    card = _series_over(page)
    card.get_by_role("button", name="Last game's summary").click()
    summary = page.locator("#kz-summary .summary-card")
    expect(summary).to_be_visible()
    expect(page.locator("#kz-series-end")).to_be_hidden()
    won = last.result.winner == _team_of(position)
    expect(summary.locator("h2")).to_have_text(
        f"You won game {last.number}" if won else f"You lost game {last.number}")
    # Your team first, then theirs.
    expect(summary.locator("tbody tr").first).to_have_attribute("data-team", _team_of(position))
    expect(summary.locator("tbody tr").first.locator(".team-tag")).to_have_text("Your team")
    _wholly_in_view(page, "#kz-summary .summary-card")
    th.screenshot(page, f"end-card-last-game-seat-{position}")
    summary.get_by_role("button", name="Back to the series result").click()
    expect(page.locator("#kz-summary")).to_be_hidden()
    _series_over(page)


def test_casual_end_cards_say_you_won_or_you_are_the_goat(live_site, new_context, off_loop,
                                                          js_errors):
    users = [make_user(name) for name in ("cara", "dino", "elsa", "finn")]
    watcher = make_user("gwen")
    table, series = off_loop(_casual_series, users)
    owner = _open(new_context, users[0], table.pk)
    other = _open(new_context, users[1], table.pk, viewport=PHONE)
    spectator = _open(new_context, watcher, table.pk)

    finished = off_loop(play_out_series, series.pk, {u.pk: u for u in users},
                        position=TEAM_A_SHUT_OUT)
    assert finished.status == Series.Status.FINISHED
    # R16, R18: team A took no trick, 6 loss points, the target.
    assert (finished.games.count(), _scores(finished), finished.goat) == (1, (6, 0), "A")
    _check_players_cards({0: owner, 1: other}, finished)

    # The owner may play again with the same seats; the other player is told so.
    expect(owner.locator("#kz-series-end").get_by_role("button", name="Play again")).to_be_visible()
    expect(other.locator("#kz-series-end")).to_contain_text(
        "The owner may start another series with the same seats.")
    # A casual card has no rating line.
    expect(owner.locator("#kz-series-end .rating-line")).to_have_count(0)

    # The spectator reads the goats' names, and both teams' names with their points.
    a, b = _scores(finished)
    goat_names = " & ".join(u.username for u in users[(0 if finished.goat == "A" else 1)::2])
    card = _series_over(spectator)
    expect(card.locator(".goat-title")).to_have_text(
        re.compile(rf"^{re.escape(goat_names)} are the goats"))
    expect(card.locator(".final-score")).to_have_text(
        f"Final: cara & elsa {a} – {b} dino & finn (loss points)")
    _nothing_stray(spectator)

    _check_last_game(owner, 0, finished)
    _check_last_game(other, 1, finished)
    assert js_errors == []


@pytest.mark.worker
def test_ranked_end_card_shows_the_stored_rating_change(live_site, new_context, celery_worker,
                                                        off_loop, js_errors):
    users = [make_user(name) for name in ("hana", "ivo", "jana", "karl")]
    watcher = make_user("lena")
    table = off_loop(create_ranked_table, users, 30)
    series = Series.objects.get(table=table)
    owner = _open(new_context, users[0], table.pk)
    other = _open(new_context, users[1], table.pk, viewport=PHONE)
    spectator = _open(new_context, watcher, table.pk)

    finished = off_loop(play_out_series, series.pk, {u.pk: u for u in users},
                        position=TEAM_A_SHUT_OUT)
    assert finished.status == Series.Status.FINISHED
    # R16, R18: two shut-outs of team A, 6 + 6 = 12 loss points, the ranked target.
    assert (finished.games.count(), _scores(finished), finished.goat) == (2, (12, 0), "A")
    _check_players_cards({0: owner, 1: other}, finished)

    deadline = time.monotonic() + 30
    while RatingChange.objects.filter(series=finished).count() < 4:
        assert time.monotonic() < deadline, "the worker did not rate the series"
        time.sleep(0.2)
    changes = {c.position: c for c in RatingChange.objects.filter(series=finished)}

    def shown(delta: int) -> str:
        return f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "±0"

    for position, page in ((0, owner), (1, other)):
        change = changes[position]
        expect(page.locator("#kz-series-end .rating-own")).to_have_text(
            f"Your rating: {change.display_before} → {change.display_after} "
            f"({shown(change.delta)})", timeout=20_000)
        card = page.locator("#kz-series-end")
        # A ranked table is never played again by its owner: the queue makes the next one.
        expect(card).not_to_contain_text("The owner may start another series")
        expect(card.get_by_role("button", name="Play again")).to_have_count(0)
        expect(card.get_by_role("link", name="Play another ranked series")).to_be_visible()
        expect(card.get_by_role("button", name="Report a player")).to_be_in_viewport()
        _wholly_in_view(page, "#kz-series-end .series-card")

    th.screenshot(owner, "end-card-ranked-1280")
    th.screenshot(other, "end-card-ranked-375")
    # The spectator reads every player's change, by name.
    hana = changes[0]
    expect(spectator.locator("#kz-series-end .rating-others")).to_contain_text(
        f"hana: {hana.display_before} → {hana.display_after} ({shown(hana.delta)})",
        timeout=20_000)
    expect(spectator.locator("#kz-series-end").get_by_role("button", name="Play again")
           ).to_have_count(0)
    _check_last_game(other, 1, finished)
    assert js_errors == []
