"""The pages the peer checkers look at, and a live table to look at among them.

Shared by the accessibility test that CI runs (test_accessibility_axe.py) and by the
report of ``make audit`` (audit_report.py), so both check the same pages in the same
state: the main pages a player meets, signed in, the sign-in and sign-up forms, signed
out, and a table in play with the player's hand dealt and the player to lead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from games.services import series as series_service
from games.services import tables
from games.services.testing import setup_position

WIDTHS = (1280, 375)
# axe-core's impact levels that fail the check: a person is blocked or badly hindered.
BLOCKING_IMPACTS = frozenset({"serious", "critical"})

# A dealt hand with the trump shown (R6), the player at seat 0 to lead the first trick
# (R4: the dealer is seat 3), the stock still full (R5): four hand cards to label.
_HANDS = [["8C", "KC", "AS", "TH"], ["6D", "8D", "9D", "7S"],
          ["7D", "JD", "QS", "9H"], ["7C", "9C", "JC", "QC"]]
_STOCK = ["6C", "TC", "AC", "QD", "KD", "AD", "TD", "6H", "7H", "8H",
          "JH", "QH", "KH", "AH", "6S", "8S", "9S", "JS", "TS", "KS"]
LIVE_POSITION = {"dealer": 3, "leader": 0, "trump_card": "6S", "hands": _HANDS,
                 "stock": _STOCK, "piles": {"A": [], "B": []}, "tricks": {"A": 0, "B": 0}}


@dataclass(frozen=True)
class AuditPage:
    """One page to check: a short name for the report, its path, and who looks at it."""

    name: str
    path: str
    signed_in: bool


def _live_table(owner: Any) -> int:
    """A casual table with the owner and three bots, a game dealt, the owner to lead."""
    table = tables.create_table(owner, tables.TableSettings(name="Evening table"))
    tables.take_seat(table.pk, owner, 0)
    for position in (1, 2, 3):
        tables.add_bot(table.pk, owner, position, "random")
    series_service.start_series(table.pk, owner)
    setup_position(table.pk, LIVE_POSITION)
    return int(table.pk)


def prepare(off_loop: Callable[..., Any], user_model: Any) -> tuple[Any, list[AuditPage]]:
    """Create the player and the live table; return the player and the pages to check."""
    player = user_model.objects.create_user(
        "alice", email="alice@example.com", password="correct horse battery staple"
    )
    table_id = off_loop(_live_table, player)
    pages = [
        AuditPage("home", "/", True),
        AuditPage("rules", "/rules/", True),
        AuditPage("learn", "/learn/", True),
        AuditPage("lesson", "/learn/beating/", True),
        AuditPage("leaderboard", "/leaderboard/", True),
        AuditPage("clubs", "/clubs/", True),
        AuditPage("profile", "/@/alice", True),
        AuditPage("tables", "/tables/", True),
        AuditPage("table", f"/table/{table_id}/", True),
        AuditPage("home (visitor)", "/", False),
        AuditPage("sign-in", "/accounts/login/", False),
        AuditPage("sign-up", "/accounts/signup/", False),
    ]
    return player, pages


def settle(page: Any, audit_page: AuditPage) -> None:
    """Wait until the page shows what a person would check: the table's hand is dealt."""
    page.wait_for_load_state("load")
    if audit_page.name == "table":
        page.locator("#kz-table.js #kz-hand .hand-card").first.wait_for()


_AXE_SCRIPT = Axe().axe_script
# axe's default rules plus its experimental ones: label-content-name-mismatch (a button
# named "Jack of spades" that shows "J" cannot be spoken to by voice control) is one.
_RUN_AXE = """async () => {
  const rules = Object.fromEntries(
    axe.getRules(['experimental']).map(rule => [rule.ruleId, {enabled: true}]));
  const results = await axe.run(document, {resultTypes: ['violations'], rules});
  return results.violations;
}"""


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands."""
    page.evaluate(_AXE_SCRIPT)
    return list(page.evaluate(_RUN_AXE))


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The serious and critical ones."""
    return [v for v in violations if v.get("impact") in BLOCKING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per violation and up to three of its elements, for a failure message."""
    lines = []
    for v in violations:
        targets = [" ".join(map(str, node["target"])) for node in v["nodes"][:3]]
        lines.append(f"  {v['impact']}: {v['id']} ({len(v['nodes'])}×) {v['help']} "
                     f"— {'; '.join(targets)}")
    return "\n".join(lines)
