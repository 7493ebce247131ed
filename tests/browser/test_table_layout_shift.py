"""A table in play does not jump when its script draws it (a phone, slow network).

On a slow phone the page the server drew is painted before table.js has loaded; what the
script then adds must fit the room the page kept for it, or the felt, the seats and the
side boxes move under the player's eyes (Lighthouse's cumulative layout shift, which cost
the table page its performance score). Seen on a phone: the seat list meant for a browser
without scripts was painted over the felt and then removed, the partner's and our own
plates arrived into empty rows, the vote buttons made the tools row taller, and our own
seat was drawn "away · a bot plays in 54 seconds" until the first socket opened.

The test holds table.js until the page has painted (a condition, not a delay), then lets
it run, waits for the hand and the socket's first frame, and sums the shifts the browser
saw.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Route

from tests.browser import audit_pages

pytestmark = pytest.mark.browser

PHONE = {"width": 412, "height": 823}
# What the page drew before its script ran, and the same after: where each region
# starts and how tall it is, in CSS pixels.
BOXES = """() => Object.fromEntries(["#kz-felt", ".kz-tools", ".kz-side", ".kz-centre"].map((q) => {
  const r = document.querySelector(q).getBoundingClientRect();
  return [q, {top: Math.round(r.top), height: Math.round(r.height)}];
}))"""
# A plate's own height may differ from the room kept for it by a few pixels (fonts).
SLACK_PX = 6
# Promises the test awaits: conditions, not delays (the page's CSP forbids
# wait_for_function's evaluated strings).
PAINTED = """new Promise((resolve) => {
  const painted = () => performance.getEntriesByName("first-contentful-paint").length > 0;
  if (painted()) return resolve();
  new PerformanceObserver(() => painted() && resolve()).observe({type: "paint", buffered: true});
})"""
NEXT_PAINTS = "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def test_a_table_in_play_keeps_its_layout_while_its_script_draws_it(
    live_site: Any, new_context: Any, off_loop: Any, django_user_model: Any
) -> None:
    player, pages = audit_pages.prepare(off_loop, django_user_model)
    table = next(p for p in pages if p.name == "table")
    page = new_context(user=player, viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    held: list[Route] = []
    page.route("**/static/js/table.js", lambda route: held.append(route))

    page.goto(table.path, wait_until="commit")
    page.evaluate(PAINTED)
    page.evaluate(NEXT_PAINTS)
    assert len(held) == 1, "table.js was requested before the first paint was seen"
    assert not page.locator("#kz-lobby").is_visible(), "the seat list is painted over the felt"
    before = page.evaluate(BOXES)

    with page.expect_websocket() as opened:
        held[0].continue_()
    # The socket's first frame (the snapshot) is drawn and painted.
    opened.value.wait_for_event("framereceived")
    page.locator("#kz-table.js #kz-hand .hand-card").first.wait_for()
    page.locator("#kz-seat-top .kz-seat").wait_for()
    page.evaluate(NEXT_PAINTS)
    after = page.evaluate(BOXES)

    for region, box in before.items():
        # The side boxes fill in below the fold as they please; they must not move.
        keys = ("top",) if region == ".kz-side" else ("top", "height")
        moved = {k: after[region][k] - box[k] for k in keys}
        assert all(abs(d) <= SLACK_PX for d in moved.values()), (
            f"{region} moved when the script drew the table: {box} -> {after[region]}"
        )
    # Our own seat, drawn while the socket was connecting, never said it was away.
    assert page.locator("#kz-seat-bottom .offline-tag").count() == 0
