"""No user-visible English outside translation calls (issue 16): a scan of every template
(inline scripts included) and every JavaScript module (tests/i18n/scanner.py says what
counts as visible)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.scanner import scan_javascript, scan_javascript_source, scan_template

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(p for p in (REPO / "templates").rglob("*") if p.suffix in {".html", ".txt"})
SCRIPTS = sorted((REPO / "static" / "js").rglob("*.js"))

# The pages of work that landed while issue 16 was being done (clubs and tournaments,
# moderation, the casual queue, game history, "worth watching"): not translated yet, so
# left out of the scan by name, each listed so that nothing else can slip out unnoticed.
# Remove a line once its file is translated.
NOT_YET_SCANNED: set[str] = {
}


def _name(path: Path) -> str:
    return str(path.relative_to(REPO))


def test_the_exclusions_name_real_files():
    assert all((REPO / name).exists() for name in NOT_YET_SCANNED), NOT_YET_SCANNED


@pytest.mark.parametrize("path", [p for p in TEMPLATES if _name(p) not in NOT_YET_SCANNED],
                         ids=_name)
def test_template_has_no_untranslated_text(path):
    findings = scan_template(path, REPO)
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.parametrize("path", [p for p in SCRIPTS if _name(p) not in NOT_YET_SCANNED],
                         ids=_name)
def test_javascript_has_no_untranslated_text(path):
    findings = scan_javascript(path, REPO)
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.parametrize(("source", "flagged"), [
    ('h("p", { text: "You are watching." })', True),
    ('toast("Could not reach the server.")', True),
    ('el.textContent = `${n} watching`', True),
    ('h("p", { text: gettext("You are watching.") })', False),
    ('ngettext("%(n)s card", "%(n)s cards", n)', False),
    ('pgettext("dealer chip", "D")', False),
    ('h("div", { class: "trick-hint linger-title" })', False),
    ('root.querySelector("#kz-hand .hand-card")', False),
    ('if (e.key === "End") go(last);', False),
    ('const re = /^Key[A-Z]"$/; const s = "It is done.";', True),
])
def test_the_javascript_scan_itself(source, flagged):
    """The scanner must see English where people see it, and nothing else."""
    assert bool(scan_javascript_source(source, "example.js")) is flagged


def test_the_template_scan_itself(tmp_path):
    page = tmp_path / "templates" / "page.html"
    page.parent.mkdir()
    page.write_text('{% load i18n %}{% block main_class %}page rules{% endblock %}'
                    '<h1>{% translate "Rules" %}</h1><p>{% blocktranslate %}Hi {{ n }}'
                    '{% endblocktranslate %}</p><button title="Close it">×</button>'
                    '<p>Left over</p><script>toast("Oops, broken.")</script>')
    found = " | ".join(f.text for f in scan_template(page, tmp_path))
    assert "Close it" in found and "Left over" in found and "Oops, broken." in found
    assert "Rules" not in found and "Hi" not in found and "page rules" not in found
