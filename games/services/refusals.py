"""The engine's refusals in the player's language.

The engine is pure and speaks English only (``"R9: 7♠ cannot beat A♥ (R7)"``). Before a
refusal reaches a player, :func:`translate` recognises it by one of the patterns below,
one per message the engine can give, and rewrites it through gettext in the active
language, cards in that language's letters (Russian "Т♥"). The rule numbers stay.
A message no pattern knows is passed on unchanged; tests/i18n/test_refusals.py makes
illegal actions in many positions and checks that every one is known.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from kozel_site import glossary

_CARDS = r"(?:[6789JQKA]|10)[♣♦♥♠](?: (?:[6789JQKA]|10)[♣♦♥♠])*"
_SEAT = r"\d+"

# (the engine's message as a pattern, the English message with the same placeholders)
PATTERNS: list[tuple[re.Pattern[str], str]] = [(re.compile(f"^{p}$"), m) for p, m in [
    (r"R14: the game is over", gettext_noop("R14: the game is over")),
    (r"R1: (?P<what>\w+) must be one of the seats 0-3, got .*",
     gettext_noop("R1: a seat is one of 0 to 3")),
    (r"R11: a molodka is a hand of exactly 4 cards of one suit",
     gettext_noop("R11: a molodka is a hand of exactly 4 cards of one suit")),
    (rf"(?P<rule>R8|R9|R11): seat (?P<seat>{_SEAT}) has already played to this trick",
     gettext_noop("%(rule)s: seat %(seat)s has already played to this trick")),
    (rf"(?P<rule>R8|R9|R11): (?P<cards>{_CARDS}) not in seat (?P<seat>{_SEAT})'s hand",
     gettext_noop("%(rule)s: %(cards)s not in seat %(seat)s's hand")),
    (rf"R11: seat (?P<seat>{_SEAT}) is on lead: a molodka on lead is simply led \(R8\)",
     gettext_noop("R11: seat %(seat)s is on lead: a molodka on lead is simply led (R8)")),
    (rf"R11: seat (?P<seat>{_SEAT}) \(distance (?P<distance>\d+)\) is not strictly nearer the "
     rf"original leader \(seat (?P<orig>{_SEAT})\) than the molodka on the table \(seat "
     rf"(?P<leader>{_SEAT}), distance (?P<mdist>\d+)\)",
     gettext_noop("R11: seat %(seat)s (distance %(distance)s) is not strictly nearer the "
                  "original leader (seat %(orig)s) than the molodka on the table (seat "
                  "%(leader)s, distance %(mdist)s)")),
    (rf"R8: the trick has been led already \(by seat (?P<leader>{_SEAT})\)",
     gettext_noop("R8: the trick has been led already (by seat %(leader)s)")),
    (rf"R8: seat (?P<turn>{_SEAT}) is on lead, not seat (?P<seat>{_SEAT}) \(R4, R13\)",
     gettext_noop("R8: seat %(turn)s is on lead, not seat %(seat)s (R4, R13)")),
    (rf"R9: nothing to beat yet: seat (?P<turn>{_SEAT}) must lead first \(R8\)",
     gettext_noop("R9: nothing to beat yet: seat %(turn)s must lead first (R8)")),
    (rf"R9: nothing to reply to yet: seat (?P<turn>{_SEAT}) must lead first \(R8\)",
     gettext_noop("R9: nothing to reply to yet: seat %(turn)s must lead first (R8)")),
    (rf"R9: it is seat (?P<turn>{_SEAT})'s turn, not seat (?P<seat>{_SEAT})'s",
     gettext_noop("R9: it is seat %(turn)s's turn, not seat %(seat)s's")),
    (r"R8: a lead has 1 to 4 cards", gettext_noop("R8: a lead has 1 to 4 cards")),
    (r"R8: a lead must be cards of one suit", gettext_noop("R8: a lead must be cards of one suit")),
    (r"R8: every player plays exactly k = (?P<k>\d+) cards to this trick, not (?P<count>\d+)",
     gettext_noop("R8: every player plays exactly k = %(k)s cards to this trick, not %(count)s")),
    (rf"R9: (?P<cards>{_CARDS}) cannot beat (?P<top>{_CARDS}) \(R7\)",
     gettext_noop("R9: %(cards)s cannot beat %(top)s (R7)")),
    (rf"R9: (?P<cards>{_CARDS}) cannot be paired one-to-one so that each card beats a card of "
     rf"the top set (?P<top>{_CARDS}) of seat (?P<top_seat>{_SEAT}) \(R7\)",
     gettext_noop("R9: %(cards)s cannot be paired one-to-one so that each card beats a card "
                  "of the top set %(top)s of seat %(top_seat)s (R7)")),
]]

_SYMBOL = re.compile(r"([6789JQKA]|10)([♣♦♥♠])")
_SUIT_CODES = {symbol: code for code, symbol in glossary.SUIT_SYMBOLS.items()}


def localized_cards(text: str) -> str:
    """ "10♥ Q♠" in the active language's letters: Russian "10♥ Д♠"."""
    words = glossary.cards()

    def one(match: re.Match[str]) -> str:
        rank = "T" if match[1] == "10" else match[1]
        return words.symbol(rank + _SUIT_CODES[match[2]])

    return _SYMBOL.sub(one, text)


def known(message: str) -> bool:
    """Does a pattern recognise this engine message?"""
    return any(pattern.match(message) for pattern, _ in PATTERNS)


def translate(message: str) -> str:
    """The engine's refusal ``message`` in the active language (unchanged if unknown)."""
    for pattern, english in PATTERNS:
        match = pattern.match(message)
        if match:
            values = {key: localized_cards(value) if key in ("cards", "top") else value
                      for key, value in match.groupdict().items()}
            return gettext(english) % values if values else gettext(english)
    return message
