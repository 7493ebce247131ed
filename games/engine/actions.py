"""Action types: :class:`Lead`, :class:`Beat`, :class:`Discard`, :class:`Molodka`.

An action is the cards a seat plays (R8 lead, R9 beat or discard) or announces
(R11 molodka).  The seat is not part of the action: it is an argument of
:func:`games.engine.apply`.  Actions are frozen, hashable, their ``cards`` are
kept in canonical (suit, rank) order, and their ``repr`` round-trips.

>>> a = Lead(["TD", "6D"])
>>> a
Lead(cards=(Card('6D'), Card('TD')))
>>> a.to_dict()
{'kind': 'lead', 'cards': ['6D', 'TD']}
>>> action_from_dict({"kind": "lead", "cards": ["TD", "6D"]}) == a
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from .cards import DECK, Card, cards_of_mask

__all__ = [
    "ACTION_TYPES",
    "Action",
    "Beat",
    "Discard",
    "Lead",
    "Molodka",
    "action_from_dict",
    "action_from_mask",
]

# Small integer codes used by the fast path (games.engine.fast).
LEAD: Final = 0
BEAT: Final = 1
DISCARD: Final = 2
MOLODKA: Final = 3


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Action:
    """Base class of the four action kinds.  Do not instantiate it directly."""

    kind: ClassVar[str] = ""
    code: ClassVar[int] = -1

    cards: tuple[Card, ...]
    mask: int = field(repr=False)

    def __init__(self, cards: Iterable[Card | str]) -> None:
        if type(self) is Action:
            raise TypeError("use Lead, Beat, Discard or Molodka")
        if isinstance(cards, str):
            raise ValueError(f"R2: expected a list of card codes, got the string {cards!r}")
        mask = 0
        for c in cards:
            card = Card(c)
            if mask & card.mask:
                raise ValueError(f"R2: {card.code} appears twice in one action")
            mask |= card.mask
        object.__setattr__(self, "cards", cards_of_mask(mask))
        object.__setattr__(self, "mask", mask)

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.mask == other.mask  # type: ignore[attr-defined,unused-ignore]

    def __hash__(self) -> int:
        return hash((self.code, self.mask))

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"kind": "lead", "cards": ["6D", "TD"]}``."""
        return {"kind": self.kind, "cards": [c.code for c in self.cards]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_dict`; on a subclass the kind must match.

        Raises ``ValueError`` for a malformed dict.
        """
        action = action_from_dict(data)
        if cls is not Action and type(action) is not cls:
            raise ValueError(f"expected a {cls.kind!r} action, got {action.kind!r}")
        return action

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(c.symbol for c in self.cards)}"


@dataclass(frozen=True, slots=True, eq=False, init=False, repr=True)
class Lead(Action):
    """R8: open a trick with 1–4 cards of one suit (4 of a suit: a molodka on the table)."""

    kind: ClassVar[str] = "lead"
    code: ClassVar[int] = LEAD


@dataclass(frozen=True, slots=True, eq=False, init=False, repr=True)
class Beat(Action):
    """R9: ``k`` cards that beat the current top set one-to-one (R7)."""

    kind: ClassVar[str] = "beat"
    code: ClassVar[int] = BEAT


@dataclass(frozen=True, slots=True, eq=False, init=False, repr=True)
class Discard(Action):
    """R9: any ``k`` cards played face down."""

    kind: ClassVar[str] = "discard"
    code: ClassVar[int] = DISCARD


@dataclass(frozen=True, slots=True, eq=False, init=False, repr=True)
class Molodka(Action):
    """R11: announce a whole hand of 4 cards of one suit out of turn."""

    kind: ClassVar[str] = "molodka"
    code: ClassVar[int] = MOLODKA


#: Action classes by their ``kind`` string.
ACTION_TYPES: Final[dict[str, type[Action]]] = {
    "lead": Lead,
    "beat": Beat,
    "discard": Discard,
    "molodka": Molodka,
}
_BY_CODE: Final[tuple[type[Action], ...]] = (Lead, Beat, Discard, Molodka)
_INTERNED: dict[tuple[int, int], Action] = {}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Build an action from ``{"kind": ..., "cards": [...]}``.

    Raises ``ValueError`` naming what is wrong (unknown kind, bad card code).

    >>> action_from_dict({"kind": "discard", "cards": ["7C"]})
    Discard(cards=(Card('7C'),))
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"an action must be an object with kind and cards, got {data!r}")
    kind = data.get("kind")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action kind {kind!r} (use lead, beat, discard or molodka)")
    cards = data.get("cards")
    if not isinstance(cards, list | tuple):
        raise ValueError("an action needs a list of card codes under 'cards'")
    return cls(cards)


def action_from_mask(code: int, mask: int) -> Action:
    """The interned action of kind ``code`` (LEAD..MOLODKA) over the cards in ``mask``.

    Used by the fast path so that equal actions are usually the same object.
    """
    key = (code, mask)
    found = _INTERNED.get(key)
    if found is None:
        cls = _BY_CODE[code]
        found = object.__new__(cls)
        object.__setattr__(found, "cards", cards_of_mask(mask))
        object.__setattr__(found, "mask", mask)
        if len(_INTERNED) < 300_000:
            _INTERNED[key] = found
    return found


assert len(DECK) == 36
