"""No user-visible English outside translation calls: a scan of every template
(inline scripts included), every JavaScript module, and the Python modules of the apps
that speak to people through refusals, flash messages, forms, choices and emails
(tests/i18n/scanner.py says what counts as visible)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.scanner import (
    scan_javascript,
    scan_javascript_source,
    scan_python,
    scan_python_source,
    scan_template,
)

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(p for p in (REPO / "templates").rglob("*") if p.suffix in {".html", ".txt"})
SCRIPTS = sorted((REPO / "static" / "js").rglob("*.js"))
# The apps whose Python texts reach people (migrations only repeat the models' words).
PYTHON_APPS = ["games/tournaments", "accounts/moderation", "accounts/social"]
PYTHON = sorted(p for app in PYTHON_APPS for p in (REPO / app).rglob("*.py")
                if "migrations" not in p.parts)

# The pages of work that landed while the translations were being done (clubs and tournaments,
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


def test_the_python_apps_are_found():
    assert len(PYTHON) > 30 and all(p.exists() for p in PYTHON)


@pytest.mark.parametrize("path", PYTHON, ids=_name)
def test_python_has_no_untranslated_text(path):
    findings = scan_python(path, REPO)
    assert not findings, "\n".join(map(str, findings))


@pytest.mark.parametrize(("source", "flagged"), [
    ('raise PermissionDeniedError("Sign in first.")', True),
    ('raise errors.NotFoundError(f"No such {what}.")', True),
    ('raise ValidationError("Too long.")', True),
    ('form.add_error(None, "That request was not valid.")', True),
    ('messages.success(request, "Saved.")', True),
    ('messages.error(request, f"You blocked {name}.")', True),
    ('name = forms.CharField(label="Address", help_text="Your club\'s page")', True),
    ('x = models.IntegerField(verbose_name="loss points")', True),
    ('subject = f"{t}: round {n} has started"', True),
    ('class S(models.TextChoices):\n    OPEN = "open", "Open"', True),
    ('class S(models.TextChoices):\n    OPEN = "open"', True),
    ('raise InvalidRequestError(_(f"No such {what}."))', True),
    ('class F(forms.Form):\n    starts_at = forms.DateTimeField(required=False)', True),
    ('class F(forms.Form):\n    starts_at = forms.DateTimeField(label=_("Starts at"))', False),
    ('class F(forms.Form):\n    pk = forms.IntegerField(widget=forms.HiddenInput)', False),
    ('raise PermissionDeniedError(_("Sign in first."))', False),
    ('raise InvalidRequestError(_("At most %(n)s.") % {"n": n})', False),
    ('messages.success(request, _("%(club)s is open.") % {"club": name})', False),
    ('name = forms.CharField(label=_("Address"))', False),
    ('class S(models.TextChoices):\n    OPEN = "open", _("Open")', False),
    ('raise ValueError("bad seat")', False),
    ('logger.error("could not push to %s", user)', False),
    ('audit.record(club, user, "club.create", name=club.name)', False),
    ('messages.error(request, exc.message)', False),
])
def test_the_python_scan_itself(source, flagged):
    """The scanner must see English where a person reads it, and nothing else."""
    assert bool(scan_python_source(source, "example.py")) is flagged
