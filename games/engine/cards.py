"""Cards, suits, ranks and card points (R2, R3).

A card is one of 36 interned :class:`Card` instances.  Internally every card
also has a small integer ``index = suit * 9 + rank`` and a one-bit ``mask``
(``1 << index``); sets of cards are then plain ``int`` bitmasks, which is what
the fast rules code (:mod:`games.engine.rules`, :mod:`games.engine.fast`)
works on.

>>> c = Card.parse("TD")
>>> c.code, c.symbol, c.name, c.points
('TD', '10♦', '10 of diamonds', 10)
>>> c is parse_card("td")
True
>>> format_cards(parse_cards(["AH", "6C"]))
'6♣ A♥'
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any, Final

__all__ = [
    "Card",
    "Rank",
    "Suit",
    "DECK",
    "FULL_MASK",
    "RANK_CHARS",
    "SUIT_CHARS",
    "card_at",
    "cards_of_mask",
    "codes_of_mask",
    "format_cards",
    "indices_of_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
    "points_of_mask",
    "suit_mask",
]


class Suit(IntEnum):
    """The four suits (R2), in the fixed internal order ♣ ♦ ♥ ♠.

    >>> Suit.parse("H").letter, Suit.HEARTS.symbol
    ('H', '♥')
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The protocol letter: ``C``, ``D``, ``H`` or ``S``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (``"H"``), case-insensitive.

        Raises ``ValueError`` for anything else.
        """
        if not isinstance(text, str) or len(text) != 1 or text.upper() not in SUIT_CHARS:
            raise ValueError(f"R2: not a suit: {text!r} (use one of C D H S)")
        return cls(SUIT_CHARS.index(text.upper()))


class Rank(IntEnum):
    """Ranks from low to high (R2): ``6 7 8 9 J Q K 10 A``.

    Note that the ten ranks above the king.

    >>> Rank.TEN > Rank.KING
    True
    """

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    TEN = 7
    ACE = 8

    @property
    def letter(self) -> str:
        """The protocol letter: ``6 7 8 9 J Q K T A``."""
        return RANK_CHARS[self]

    @property
    def points(self) -> int:
        """Card points of this rank (R3)."""
        return _RANK_POINTS[self]


SUIT_CHARS: Final = "CDHS"
RANK_CHARS: Final = "6789JQKTA"
_SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_RANK_SYMBOLS: Final = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")
_RANK_NAMES: Final = ("6", "7", "8", "9", "jack", "queen", "king", "10", "ace")
#: R3: 6, 7, 8, 9 = 0; J = 2; Q = 3; K = 4; 10 = 10; A = 11.
_RANK_POINTS: Final = (0, 0, 0, 0, 2, 3, 4, 10, 11)

FULL_MASK: Final = (1 << 36) - 1


class Card:
    """One playing card (R2).  Immutable and interned: ``Card("TD") is Card("TD")``.

    ``Card(x)`` accepts a code (``"TD"``), an index 0..35 or a card.  Cards
    order by ``(suit, rank)``; use :meth:`sort_key` with a trump to sort a
    hand for display (R6: trump suit last).

    >>> Card("TD"), Card("TD").index, Card("KD") < Card("TD")
    (Card('TD'), 16, True)
    """

    __slots__ = ("index", "suit", "rank", "mask", "code", "symbol", "name", "points")

    index: int
    suit: Suit
    rank: Rank
    mask: int
    code: str
    symbol: str
    name: str
    points: int

    def __new__(cls, value: str | int | Card) -> Card:
        if isinstance(value, Card):
            return value
        if isinstance(value, str):
            found = _BY_CODE.get(value.upper()) if len(value) == 2 else None
            if found is None:
                raise ValueError(
                    f"R2: not a card: {value!r} (rank 6789JQKTA then suit CDHS, e.g. 'TD')"
                )
            return found
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 36:
            return DECK[value]
        raise ValueError(f"R2: not a card: {value!r}")

    @classmethod
    def _make(cls, index: int) -> Card:
        self = object.__new__(cls)
        suit, rank = Suit(index // 9), Rank(index % 9)
        values: dict[str, Any] = {
            "index": index,
            "suit": suit,
            "rank": rank,
            "mask": 1 << index,
            "code": RANK_CHARS[rank] + SUIT_CHARS[suit],
            "symbol": _RANK_SYMBOLS[rank] + _SUIT_SYMBOLS[suit],
            "name": f"{_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]}",
            "points": _RANK_POINTS[rank],
        }
        for key, val in values.items():
            object.__setattr__(self, key, val)
        return self

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse a two-character code such as ``"TD"`` (case-insensitive).

        Raises ``ValueError`` naming R2 for anything else.
        """
        if not isinstance(code, str):
            raise ValueError(f"R2: not a card: {code!r}")
        return cls(code)

    def sort_key(self, trump: Suit | int | None = None) -> tuple[int, int]:
        """Display order: by suit with the trump suit last, then by rank (R2, R6)."""
        suit = int(self.suit)
        return (4 if trump is not None and suit == int(trump) else suit, int(self.rank))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.symbol

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


#: The 36 interned cards, by index (suit * 9 + rank).
DECK: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(36))
_BY_CODE: Final[dict[str, Card]] = {c.code: c for c in DECK}
#: Card points per card index (R3).
POINTS: Final[tuple[int, ...]] = tuple(c.points for c in DECK)


def card_at(index: int) -> Card:
    """The card with internal index ``index`` (0..35)."""
    return DECK[index]


def parse_card(code: str | Card) -> Card:
    """Parse one card code (``"TD"``) or pass a :class:`Card` through (R2).

    Raises ``ValueError`` for an unknown code.
    """
    return Card(code)


def parse_cards(codes: Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse several card codes, keeping their order (R2).

    Raises ``ValueError`` for an unknown code or a bare string (``"TD6H"``).
    """
    if isinstance(codes, str):
        raise ValueError(f"R2: expected a list of card codes, got the string {codes!r}")
    return tuple(Card(c) for c in codes)


def format_cards(cards: Iterable[Card], trump: Suit | int | None = None) -> str:
    """Human-readable cards, sorted for display (trump suit last), e.g. ``'6♣ A♥'``."""
    return " ".join(c.symbol for c in sorted(cards, key=lambda c: c.sort_key(trump)))


def suit_mask(suit: Suit | int) -> int:
    """Bitmask of all nine cards of ``suit``."""
    return 0x1FF << (9 * int(suit))


def mask_of(cards: Iterable[Card]) -> int:
    """Bitmask of a collection of cards."""
    m = 0
    for c in cards:
        m |= c.mask
    return m


def indices_of_mask(mask: int) -> list[int]:
    """The card indices (``suit * 9 + rank``) set in ``mask``, lowest first.

    The one set-bit scanner of the engine and the bots; loops that need the
    low bit itself (``mask & -mask``) inline it on their hot paths.

    >>> indices_of_mask(0b1001_0000_0101)
    [0, 2, 8, 11]
    >>> indices_of_mask(0)
    []
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, in index order (suit, then rank)."""
    return _CARDS_CACHE.get(mask) or _cards_of_mask(mask)


def _cards_of_mask(mask: int) -> tuple[Card, ...]:
    cards = tuple(DECK[i] for i in indices_of_mask(mask))
    if len(_CARDS_CACHE) < 400_000:
        _CARDS_CACHE[mask] = cards
    return cards


_CARDS_CACHE: dict[int, tuple[Card, ...]] = {0: ()}


def codes_of_mask(mask: int) -> list[str]:
    """Card codes of a bitmask, in index order."""
    return [c.code for c in cards_of_mask(mask)]


def points_of_mask(mask: int) -> int:
    """Sum of card points (R3) of the cards in ``mask``."""
    total = 0
    for i in indices_of_mask(mask):
        total += POINTS[i]
    return total
