"""The game's words per language, read from locale/glossary.toml.

The same file is the translators' reference (its comments say how) and the code's
source for card names: rank letters (Russian В Д К Т for J Q K A; the 10 stays "10"),
the accessible names ("10 of hearts", "десятка червей") and the suit names. Python uses
:func:`cards`; the table's JavaScript gets :func:`for_js` inside the /jsi18n/ catalog.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils import translation

PATH = Path(__file__).resolve().parent.parent / "locale" / "glossary.toml"
RANKS = "6789JQKTA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SOURCE_LANGUAGE = "en"


@functools.cache
def data() -> dict[str, Any]:
    """The whole glossary, by language code."""
    with PATH.open("rb") as handle:
        return tomllib.load(handle)


def _language(code: str | None) -> str:
    code = (code or translation.get_language() or SOURCE_LANGUAGE).lower()
    if code in data():
        return code
    base = code.split("-")[0]
    return base if base in data() else SOURCE_LANGUAGE


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class CardWords:
    """How one language names and marks cards (glossary ``[<code>.cards]``)."""

    language: str
    letters: dict[str, str]
    ranks: dict[str, str]
    suits: dict[str, str]
    suits_in_name: dict[str, str]
    name_pattern: str
    trump_pattern: str

    def rank_label(self, code: str) -> str:
        """What the card face shows: "10" for the ten, else the language's letter."""
        rank = code[0].upper()
        if rank == "T":
            return "10"
        return self.letters.get(rank, rank)

    def symbol(self, code: str) -> str:
        """The short form used in sentences: "10♥", "Д♠"."""
        return self.rank_label(code) + SUIT_SYMBOLS[code[1].upper()]

    def name(self, code: str) -> str:
        """The accessible name inside a sentence: "10 of hearts", "десятка червей"."""
        rank, suit = code[0].upper(), code[1].upper()
        return self.name_pattern.format(rank=self.ranks[rank], suit=self.suits_in_name[suit])

    def label(self, code: str, trump: bool = False) -> str:
        """The name standing alone (a button, an image): "Queen of spades (trump)"."""
        card = self.name(code)
        return capfirst(self.trump_pattern.format(card=card) if trump else card)

    def suit(self, suit: str) -> str:
        """A suit named alone: "hearts", "черви"."""
        return self.suits[suit.upper()]


@functools.cache
def _cards(language: str) -> CardWords:
    c = data()[language]["cards"]
    return CardWords(language=language, letters=dict(c["letters"]), ranks=dict(c["ranks"]),
                     suits=dict(c["suits"]), suits_in_name=dict(c["suits_in_name"]),
                     name_pattern=c["name"], trump_pattern=c["trump"])


def cards(language: str | None = None) -> CardWords:
    """The card words of ``language`` (default: the active language; English if unknown)."""
    return _cards(_language(language))


def terms(language: str | None = None) -> dict[str, dict[str, Any]]:
    """The game's terms of ``language``: {key: {"word": ..., "forms"/"match": ...}}."""
    return dict(data()[_language(language)]["terms"])


def for_js(language: str | None = None) -> dict[str, Any]:
    """What the table's JavaScript needs to name and letter cards (static/js/i18n.js)."""
    c = cards(language)
    return {"letters": c.letters, "ranks": c.ranks, "suits": c.suits,
            "suits_in_name": c.suits_in_name, "name": c.name_pattern, "trump": c.trump_pattern}
