"""Avatars drawn from initials: an inline SVG, coloured by the username. No uploads.

Why generated: uploads need storage, moderation and resizing, and an initials disc is
enough to tell four players apart at a table. The colour is a pure function of the
username so the same player looks the same on every page and every server, without
storing anything.
"""

from __future__ import annotations

import hashlib
import unicodedata

from django.utils.html import format_html
from django.utils.safestring import SafeString

# Deleted players all look alike on purpose: nothing of the old account shows through.
DELETED_COLOUR = "hsl(0, 0%, 62%)"


def initials(name: str) -> str:
    """One or two upper-case initials of a display name.

    >>> initials("anna karenina"), initials("bob"), initials("  "), initials("ёжик в тумане")
    ('AK', 'B', '?', 'ЁВ')
    >>> initials("dj-kozel_99")
    'DK'
    """
    words = [w for w in "".join(c if c.isalnum() else " " for c in name).split() if w]
    if not words:
        return "?"
    letters = [w[0] for w in words[:2]] if len(words) > 1 else [words[0][0]]
    return "".join(letters).upper()


def colour_for(username: str) -> str:
    """A stable, readable background colour (an HSL string) derived from the username.

    Hue comes from a hash, so neighbours in the alphabet get unrelated colours; the
    saturation and lightness are fixed so white initials stay readable on every hue.

    >>> colour_for("alice") == colour_for("alice") != colour_for("bob")
    True
    """
    normalised = unicodedata.normalize("NFKC", username).casefold()
    digest = hashlib.sha256(normalised.encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    return f"hsl({hue}, 55%, 38%)"


def avatar_svg(*, name: str, username: str, size: int = 40, deleted: bool = False) -> SafeString:
    """An ``<svg>`` disc with the initials of ``name`` on a colour from ``username``.

    ``size`` is clamped to 16–256 px. The SVG carries ``aria-hidden`` because the player's
    name is always printed next to it; the picture adds nothing for a screen reader.
    """
    size = max(16, min(256, int(size)))
    text = "?" if deleted else initials(name)
    fill = DELETED_COLOUR if deleted else colour_for(username)
    font_size = 40 if len(text) == 1 else 34
    return format_html(
        '<svg class="avatar" width="{size}" height="{size}" viewBox="0 0 100 100" '
        'aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">'
        '<circle cx="50" cy="50" r="50" fill="{fill}"/>'
        '<text x="50" y="50" dy=".35em" text-anchor="middle" fill="#fff" '
        'font-family="system-ui, sans-serif" font-weight="600" font-size="{font_size}">'
        "{text}</text></svg>",
        size=size,
        fill=fill,
        font_size=font_size,
        text=text,
    )
