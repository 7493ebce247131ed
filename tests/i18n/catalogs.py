"""Reading the site's catalogs in tests: the languages, the .po files, and the
messages the code asks for (extracted the way ``makemessages`` does)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

from babel.messages.pofile import read_po
from django.conf import settings
from django.utils.translation.template import templatize

REPO = Path(__file__).resolve().parents[2]
LOCALE = REPO / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
MSGFMT = shutil.which("msgfmt")
XGETTEXT = shutil.which("xgettext")
# Where makemessages looks, and what it leaves out (CONTRIBUTING.md, Translations).
SOURCE_DIRS = ["accounts", "games", "kozel_site", "templates"]
JS_DIR = REPO / "static" / "js"


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def catalog(language: str, domain: str):  # noqa: ANN201 - a babel Catalog
    with po_path(language, domain).open("rb") as handle:
        return read_po(handle, locale=language)


def entries(language: str, domain: str) -> list:
    """Every message of a catalog but the header."""
    return [m for m in catalog(language, domain) if m.id]


def msgid_text(message) -> str:  # noqa: ANN001
    return message.id if isinstance(message.id, str) else " ".join(message.id)


def msgstr_texts(message) -> list[str]:  # noqa: ANN001
    return [message.string] if isinstance(message.string, str) else list(message.string)


DJANGO_KEYWORDS = ["gettext_noop", "gettext_lazy", "ngettext_lazy:1,2", "pgettext:1c,2",
                   "npgettext:1c,2,3", "pgettext_lazy:1c,2", "npgettext_lazy:1c,2,3"]


def _xgettext(files: list[Path], language: str, tmp: Path) -> set[tuple[str | None, str]]:
    pot = tmp / "out.pot"
    args = [XGETTEXT, "--from-code=UTF-8", f"--language={language}", "--output", str(pot),
            *[f"--keyword={k}" for k in DJANGO_KEYWORDS], *map(str, files)]
    subprocess.run(args, check=True, capture_output=True, timeout=120)
    if not pot.exists():
        return set()
    # xgettext's template header has "nplurals=INTEGER", which babel cannot read.
    text = pot.read_bytes().replace(b"nplurals=INTEGER; plural=EXPRESSION;",
                                    b"nplurals=2; plural=(n != 1);")
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0])
            for m in read_po(io.BytesIO(text)) if m.id}


def code_messages(domain: str, tmp: Path) -> set[tuple[str | None, str]]:
    """(context, msgid) of every message the code marks, for ``domain``."""
    if domain == "djangojs":
        return _xgettext(sorted(JS_DIR.rglob("*.js")), "JavaScript", tmp)
    files = []
    for folder in SOURCE_DIRS:
        for path in sorted((REPO / folder).rglob("*")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py":
                files.append(path)
            elif path.suffix in {".html", ".txt"}:
                out = tmp / "templates" / path.relative_to(REPO).with_suffix(path.suffix + ".py")
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(templatize(path.read_text(encoding="utf-8"), origin=str(path)),
                               encoding="utf-8")
                files.append(out)
    return _xgettext(files, "Python", tmp)
