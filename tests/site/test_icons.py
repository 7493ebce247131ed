"""Icons are drawn by us as SVG, never emoji: a phone or desktop without an emoji font
shows an emoji as an empty box. The egg (R17) and the goat (R18) have includes with an
accessible name when they stand alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

ROOT = Path(__file__).resolve().parents[2]
# Pictographs live in these blocks: Miscellaneous Symbols, Dingbats, the emoji planes;
# U+FE0F asks for any character's emoji form.
PICTOGRAPH_BLOCKS = [(0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF), (0xFE0F, 0xFE0F)]
# Text marks every text font draws: the four suits are the game's letters, ✓ a tick.
TEXT_MARKS = set("♣♦♥♠✓")


def _pictographs(text: str) -> list[str]:
    return [c for c in text if c not in TEXT_MARKS
            and any(low <= ord(c) <= high for low, high in PICTOGRAPH_BLOCKS)]


def _site_files() -> list[Path]:
    files = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static").rglob("*.js"),
             *(ROOT / "static").rglob("*.css"), *(ROOT / "static").rglob("*.svg")]
    assert len(files) > 50, files  # the walk found the site
    return files


def test_pictograph_finder_finds_emoji_and_leaves_suits():
    found = _pictographs("Eggs 🥚, the goat 🐐, ⚑ report, ⚠ error, ☕")
    assert found == ["🥚", "🐐", "⚑", "⚠", "☕"]
    assert _pictographs("10♥ beats 9♥, A♠ Q♣ K♦ ✓ → ← – ·") == []


def test_no_template_script_or_stylesheet_uses_an_emoji_as_an_icon():
    found = {str(path.relative_to(ROOT)): hits for path in _site_files()
             if (hits := _pictographs(path.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("include", ["includes/egg_icon.html", "includes/goat_icon.html"])
def test_an_icon_is_named_when_alone_and_hidden_beside_its_word(include):
    alone = render_to_string(include, {"label": "Eggs & more"})
    assert 'role="img" aria-label="Eggs &amp; more"' in alone
    assert "<title>Eggs &amp; more</title>" in alone and "aria-hidden" not in alone
    beside = render_to_string(include, {"size": "20"})
    assert 'aria-hidden="true"' in beside and "role=" not in beside and "<title>" not in beside
    assert 'width="20"' in beside
