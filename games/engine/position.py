"""Explicit positions in the conformance ``position`` format.

A position is a trick boundary: who dealt, who leads, the trump card, the four
hands, the stock (top first), the trick piles and trick counts.  It is how a
game is built from a hand-made situation (tests, the ``setup`` protocol
command) and how a dealt game's start is exported (``deal``).

>>> p = Position.from_dict({
...     "dealer": 3, "leader": 0, "trump_card": "6S",
...     "hands": [["6C"], ["7C"], ["8C"], ["9C"]], "stock": [],
...     "piles": {"A": [c + s for s in "DHS" for c in "6789JQKTA"] + ["JC", "QC", "KC"],
...               "B": ["TC", "AC"]},
...     "tricks": {"A": 4, "B": 1}})
>>> p.to_dict()["hands"]
[['6C'], ['7C'], ['8C'], ['9C']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card, cards_of_mask, parse_cards
from .errors import InvalidPositionError
from .fast import HANDS, LEADER, STOCK, TRUMP_CARD, Core

__all__ = ["Position", "deal_start"]


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InvalidPositionError(f"R1: {what} must be a seat 0-3, got {value!r}")
    return value


def _team_dict(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or set(data) != {"A", "B"}:
        raise InvalidPositionError(f"{what} must be an object with keys 'A' and 'B'")
    return data


@dataclass(frozen=True, slots=True)
class Position:
    """A trick boundary (nobody has played to the trick yet), as in the
    conformance ``position`` object.  All 36 cards are placed exactly once
    across hands, stock and piles (R2)."""

    dealer: int
    leader: int
    trump_card: Card
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    tricks: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        _seat(self.dealer, "dealer")
        _seat(self.leader, "leader")
        if len(self.hands) != 4:
            raise InvalidPositionError("R1: a position has exactly 4 hands")
        placed = [c for h in self.hands for c in h] + list(self.stock)
        placed += [c for p in self.piles for c in p]
        if len(placed) != 36 or len(set(placed)) != 36:
            seen: set[Card] = set()
            twice = sorted({c.code for c in placed if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
            missing = sorted(c.code for c in set(cards_of_mask((1 << 36) - 1)) - set(placed))
            raise InvalidPositionError(
                "R2: every one of the 36 cards must be placed exactly once"
                + (f"; twice: {', '.join(twice)}" if twice else "")
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        sizes = {len(h) for h in self.hands}
        if len(sizes) != 1:
            raise InvalidPositionError(
                "R12: at a trick boundary all hands hold the same number of cards"
            )
        size = sizes.pop()
        if size > 4:
            raise InvalidPositionError("R5: a hand holds at most 4 cards")
        if size == 0:
            raise InvalidPositionError("R14: no cards left to play: the game is over")
        if size < 4 and self.stock:
            raise InvalidPositionError("R12: hands hold 4 cards while the stock is not empty")
        for t in self.tricks:
            if isinstance(t, bool) or not isinstance(t, int) or t < 0:
                raise InvalidPositionError("tricks must be non-negative integers")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Parse the conformance ``position`` object.

        Raises :class:`InvalidPositionError` (a ``ValueError``) when malformed.
        """
        if not isinstance(data, Mapping):
            raise InvalidPositionError("a position must be an object")
        try:
            hands_raw = data["hands"]
            if not isinstance(hands_raw, list | tuple) or len(hands_raw) != 4:
                raise InvalidPositionError("R1: 'hands' must be a list of 4 lists of cards")
            hands = tuple(_cards(h, "a hand") for h in hands_raw)
            piles_raw = _team_dict(data.get("piles", {"A": [], "B": []}), "piles")
            tricks_raw = _team_dict(data.get("tricks", {"A": 0, "B": 0}), "tricks")
            trump = data["trump_card"]
            if not isinstance(trump, str):
                raise InvalidPositionError("trump_card must be a card code")
            return cls(
                dealer=_seat(data["dealer"], "dealer"),
                leader=_seat(data.get("leader", (data["dealer"] + 1) % 4), "leader"),
                trump_card=Card.parse(trump),
                hands=(hands[0], hands[1], hands[2], hands[3]),
                stock=_cards(data.get("stock", []), "the stock"),
                piles=(_cards(piles_raw["A"], "pile A"), _cards(piles_raw["B"], "pile B")),
                tricks=(tricks_raw["A"], tricks_raw["B"]),
            )
        except KeyError as exc:
            raise InvalidPositionError(f"a position needs {exc.args[0]!r}") from None
        except TypeError as exc:
            raise InvalidPositionError(f"malformed position: {exc}") from None
        except ValueError as exc:
            if isinstance(exc, InvalidPositionError):
                raise
            raise InvalidPositionError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        """The conformance ``position`` object (JSON-ready)."""
        return {
            "dealer": self.dealer,
            "leader": self.leader,
            "trump_card": self.trump_card.code,
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock],
            "piles": {"A": [c.code for c in self.piles[0]], "B": [c.code for c in self.piles[1]]},
            "tricks": {"A": self.tricks[0], "B": self.tricks[1]},
        }


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidPositionError(f"{what} must be a list of card codes")
    return parse_cards(value)


def deal_start(core: Core, dealer: int) -> Position:
    """The start position of a freshly dealt ``core`` (R4–R6: no piles, no tricks)."""
    return Position(
        dealer=dealer,
        leader=core[LEADER],
        trump_card=Card(core[TRUMP_CARD]),
        hands=tuple(cards_of_mask(m) for m in core[HANDS]),  # type: ignore[arg-type]
        stock=tuple(Card(i) for i in core[STOCK]),
    )
