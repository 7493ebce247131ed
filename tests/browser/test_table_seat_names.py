"""Bot names fit their seat plates at 1280 px: never cut off or ellipsised."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import BotLevel
from games.models.tables import BOT_NAMES
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser

# Every level, so the longest label (in pixels, not only in letters) is among them.
LEVELS = [level for level, _ in sorted(BotLevel.choices, key=lambda c: -len(c[1]))]


def _table_with_three_bots(owner, level: str) -> int:  # type: ignore[no-untyped-def]
    table = tables.create_table(owner, tables.TableSettings(name="Bots"))
    tables.take_seat(table.pk, owner, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, owner, position, level)
    series_service.start_series(table.pk, owner)
    return table.pk


@pytest.mark.parametrize("level", LEVELS)
def test_bot_names_fit_their_seat_plates_at_1280(live_site, new_context, django_user_model,
                                                off_loop, js_errors, level):
    alice = django_user_model.objects.create_user("alice", password="x" * 20)
    table_id = off_loop(_table_with_three_bots, alice, level)
    page = new_context(user=alice, viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    expect(page.locator("#kz-table")).to_have_attribute("data-phase", "playing")
    label = BotLevel(level).label
    names = page.locator(".kz-seat .pname")
    expect(names).to_have_count(4)
    for position in (1, 2, 3):
        expect(page.locator(f'.kz-seat[data-seat="{position}"] .pname')).to_have_text(
            f"{BOT_NAMES[position]} ({label})")
    # Neither cut sideways (an ellipsis) nor clipped below (a line clamp).
    fits = th.measure(page, ".kz-seat .pname", "els => els.map(e => [e.textContent,"
                      " e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight])")
    assert all(sw <= cw and sh <= ch for _, sw, cw, sh, ch in fits), fits
    th.screenshot(page, f"table-1280-bots-{level}")
    assert js_errors == []
