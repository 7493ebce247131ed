"""``make audit``: axe-core, the Nu HTML checker and Lighthouse on the main pages.

Not a regression test (its name keeps it out of ``make test``; CI runs the axe part as
test_accessibility_axe.py): it prints one table of figures per page, and writes it with
every checker's full findings under ``.run/audit/``. The pages and the live table are
those of audit_pages.py, served by the browser tests' daphne server on the test
database. The Nu checker and Lighthouse are the npm packages pinned in tools/audit/
(``make audit`` installs them), run with the machine's java and Debian's chromium;
tools/audit/lighthouse.mjs sets the session cookie in the browser, so the table's socket
opens as the seated player's.

Lighthouse uses its mobile defaults (a Moto G Power, slow 4G and a 4× slower CPU,
simulated), so its performance figure moves by a few points from run to run on a busy
machine; the other categories do not.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser import audit_pages
from tests.browser.conftest import CHROMIUM, REPO_ROOT, _session_cookie

pytestmark = pytest.mark.browser

TOOLS = REPO_ROOT / "tools" / "audit"
VNU_JAR = TOOLS / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
LIGHTHOUSE = TOOLS / "lighthouse.mjs"
OUT = REPO_ROOT / ".run" / "audit"
LIGHTHOUSE_PAGES = ("home", "rules", "table")
LIGHTHOUSE_RUNS = int(os.environ.get("LIGHTHOUSE_RUNS", "3"))
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
COLUMNS = ("page", "axe 1280", "axe 375", "Nu errors", "perf", "a11y", "best pr.", "SEO",
           "LCP s", "TBT ms")


def _slug(name: str) -> str:
    """A file name for a page's report: "home (visitor)" -> "home-visitor"."""
    return "-".join(name.replace("(", "").replace(")", "").split())


def _served_html(url: str, cookie: str | None) -> bytes:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return bytes(response.read())


def _nu_errors(files: dict[str, Path]) -> dict[str, list[str]]:
    """The Nu checker's errors for each page's served HTML (warnings left out)."""
    run = subprocess.run(
        ["java", "-jar", str(VNU_JAR), "--format", "json", "--stdout", *map(str, files.values())],
        capture_output=True, text=True, check=False, timeout=300,
    )
    messages = json.loads(run.stdout or "{}").get("messages", [])
    by_file = {str(path): name for name, path in files.items()}
    errors: dict[str, list[str]] = {name: [] for name in files}
    for message in messages:
        if message.get("type") == "error" or message.get("subType") == "fatal":
            name = by_file.get(message.get("url", "").removeprefix("file:"), "?")
            errors.setdefault(name, []).append(
                f"line {message.get('lastLine')}: {message.get('message')}")
    return errors


def _lighthouse(url: str, session: dict[str, Any] | None, name: str) -> dict[str, Any]:
    """Lighthouse's mobile run of one page, LIGHTHOUSE_RUNS times: the run with the median
    performance score (as Lighthouse's own guidance advises for a noisy figure), its four
    scores, LCP and TBT, and every performance score seen."""
    runs = []
    for run in range(LIGHTHOUSE_RUNS):
        report = OUT / f"lighthouse-{_slug(name)}-{run + 1}.json"
        command = ["node", str(LIGHTHOUSE), url, str(report)]
        if session:
            command += [session["name"], session["value"]]
        subprocess.run(command, check=True, timeout=300, cwd=TOOLS,
                       env={**os.environ, "CHROME_PATH": str(CHROMIUM)})
        data = json.loads(report.read_text())
        runs.append((data["categories"]["performance"]["score"] or 0, report))
    runs.sort(key=lambda r: r[0])
    report = runs[len(runs) // 2][1]
    report.replace(OUT / f"lighthouse-{_slug(name)}.json")
    report = OUT / f"lighthouse-{_slug(name)}.json"
    data = json.loads(report.read_text())
    figures: dict[str, Any] = {
        c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES
    }
    figures["lcp"] = data["audits"]["largest-contentful-paint"]["numericValue"] / 1000
    figures["tbt"] = data["audits"]["total-blocking-time"]["numericValue"]
    figures["failed"] = sorted(
        audit_id for audit_id, audit in data["audits"].items()
        if audit.get("score") is not None and audit["score"] < 1
        and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
    )
    figures["all_perf"] = [round(100 * score) for score, _ in runs]
    return figures


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [list(COLUMNS), *rows]) for i in range(len(COLUMNS))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True))]
    lines.append("-|-".join("-" * w for w in widths))
    lines += [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join("| " + line + " |" for line in lines)


@pytest.mark.timeout(1800)  # nine Lighthouse runs and the Nu checker, not a unit test
def test_audit_report(live_site, new_context, off_loop, django_user_model):
    if not VNU_JAR.exists() or not (TOOLS / "node_modules" / "lighthouse").exists():
        pytest.skip("run `make audit`: it installs the Nu checker and Lighthouse in tools/audit/")
    OUT.mkdir(parents=True, exist_ok=True)
    player, pages = audit_pages.prepare(off_loop, django_user_model)
    session = _session_cookie(player, live_site.url)
    cookie = f"{session['name']}={session['value']}"

    axe: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for width in audit_pages.WIDTHS:
        viewport = {"width": width, "height": 800}
        signed_in = new_context(user=player, viewport=viewport).new_page()
        visitor = new_context(viewport=viewport).new_page()
        for audit_page in pages:
            page = signed_in if audit_page.signed_in else visitor
            page.goto(audit_page.path)
            audit_pages.settle(page, audit_page)
            axe[audit_page.name, width] = audit_pages.axe_violations(page)

    files = {}
    for audit_page in pages:
        path = OUT / f"page-{_slug(audit_page.name)}.html"
        path.write_bytes(_served_html(live_site.path(audit_page.path),
                                      cookie if audit_page.signed_in else None))
        files[audit_page.name] = path
    nu = _nu_errors(files)

    lighthouse = {
        p.name: _lighthouse(live_site.path(p.path), session if p.signed_in else None, p.name)
        for p in pages if p.name in LIGHTHOUSE_PAGES
    }

    rows = []
    for audit_page in pages:
        counts = [sum(len(v["nodes"]) for v in audit_pages.blocking(axe[audit_page.name, w]))
                  for w in audit_pages.WIDTHS]
        lh = lighthouse.get(audit_page.name)
        scores = ([str(lh[c]) for c in CATEGORIES] + [f"{lh['lcp']:.1f}", f"{lh['tbt']:.0f}"]
                  if lh else ["–"] * 6)
        rows.append([audit_page.name, *map(str, counts), str(len(nu[audit_page.name])), *scores])
    table = _table(rows)

    details = ["# make audit", "", table, "", "## axe-core (every impact)"]
    for (name, width), violations in axe.items():
        if violations:
            details += [f"{name} at {width} px:", audit_pages.describe(violations)]
    details += ["", "## Nu HTML checker errors"]
    for name, errors in nu.items():
        details += [f"{name}:"] + [f"  {e}" for e in errors]
    details += ["", "## Lighthouse audits below full marks"]
    for name, lh in lighthouse.items():
        details += [f"{name} (performance of each run: {lh['all_perf']}): "
                    f"{', '.join(lh['failed'])}"]
    (OUT / "report.md").write_text("\n".join(details) + "\n")
    spread = "; ".join(f"{n} {lh['all_perf']}" for n, lh in lighthouse.items())
    print("\n\n" + table + "\n\naxe: serious + critical elements; Nu: errors; Lighthouse: "
          f"mobile, the median of {LIGHTHOUSE_RUNS} runs (performance of each: {spread}).\n"
          f"Details: {OUT / 'report.md'}\n")
