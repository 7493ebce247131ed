"""axe-core finds no serious or critical violation on the main pages, a live table
among them, at a desktop width and a phone width (issue: peer checks in the project).

axe-core comes bundled in the axe-playwright-python dev dependency, so this runs offline
after ``make install``. ``make audit`` runs the same pages through the Nu HTML checker
and Lighthouse as well (docs/accessibility.md).
"""

from __future__ import annotations

import pytest

from tests.browser import audit_pages

pytestmark = pytest.mark.browser


def test_main_pages_and_a_live_table_have_no_serious_axe_violation(
    live_site, new_context, off_loop, django_user_model, js_errors
):
    player, pages = audit_pages.prepare(off_loop, django_user_model)
    found: list[str] = []
    for width in audit_pages.WIDTHS:
        viewport = {"width": width, "height": 800}
        signed_in = new_context(user=player, viewport=viewport).new_page()
        visitor = new_context(viewport=viewport).new_page()
        for audit_page in pages:
            page = signed_in if audit_page.signed_in else visitor
            page.goto(audit_page.path)
            audit_pages.settle(page, audit_page)
            bad = audit_pages.blocking(audit_pages.axe_violations(page))
            if bad:
                found.append(f"{audit_page.name} at {width} px ({audit_page.path}):\n"
                             + audit_pages.describe(bad))
    assert not found, "serious or critical axe violations:\n" + "\n".join(found)
    assert js_errors == []
