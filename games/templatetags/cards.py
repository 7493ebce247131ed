"""Cards in templates, named and lettered in the active language.

``{% card_face "TD" trump=True as face %}`` gives face.code ("TD"), face.suit ("D"),
face.rank (what the corner shows: "10", "Q", Russian "Д"), face.pip ("♦") and face.label
(the accessible name: "10 of diamonds (trump)", "Десятка бубен (козырь)"), all from
locale/glossary.toml (kozel_site/glossary.py).
"""

from __future__ import annotations

from django import template

from kozel_site import glossary

register = template.Library()


@register.simple_tag
def card_face(code: str, trump: bool = False) -> dict[str, str]:
    """The parts of a face-up card drawn by templates/cards/card.html."""
    c = str(code).upper()
    words = glossary.cards()
    return {"code": c, "suit": c[1], "rank": words.rank_label(c),
            "pip": glossary.SUIT_SYMBOLS[c[1]], "label": words.label(c, trump=bool(trump))}


@register.simple_tag
def card_symbol(code: str) -> str:
    """The short form of a card in a sentence: "A♦", Russian "Т♦"."""
    return glossary.cards().symbol(str(code).upper())


@register.simple_tag
def suit_name(suit: str) -> str:
    """A suit named alone in the active language: "hearts", "черви"."""
    return glossary.cards().suit(str(suit))
