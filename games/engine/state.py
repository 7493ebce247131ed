"""The immutable game state (frozen dataclasses).

:class:`GameState` wraps the fast tuple *core* of :mod:`games.engine.fast`
(the current situation) together with what the core does not need for play
but the site does: the starting position, the seed, every action so far and
the public history (R19).  Never read another seat's data from a state in
site code: go through :func:`games.engine.observe` (R19).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action, action_from_dict
from .cards import Card, Suit, cards_of_mask
from .errors import InvalidPositionError
from .fast import Core
from .position import Position

__all__ = ["Event", "GameState", "LastTrick", "STATE_FORMAT"]

#: ``("play", seat, action)``, ``("molodka", seat, action, ((seat, action), ...))``
#: (the plays sent back by the restart), ``("trick", taker, trick_no,
#: ((seat, action), ...))`` and ``("draw", (n0, n1, n2, n3))``.
Event = tuple[Any, ...]

STATE_FORMAT = "kozel-state/1"


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The last completed trick: what each seat played (R9) and who took it (R10)."""

    plays: tuple[Action | None, Action | None, Action | None, Action | None]
    taker: int
    trick_no: int


@dataclass(frozen=True, slots=True)
class GameState:
    """One game (a deal) in progress or finished.  Immutable: see
    :func:`games.engine.apply`.

    ``seed``/``algorithm`` are set for dealt games (R5) and ``None`` for games
    built from an explicit position.
    """

    core: Core
    start: Position
    seed: int | None = None
    algorithm: int | None = None
    actions: tuple[tuple[int, Action], ...] = ()
    history: tuple[Event, ...] = ()
    last_trick: LastTrick | None = None

    # --- read-only views of the core -------------------------------------------------

    @property
    def turn(self) -> int | None:
        """Seat whose normal (non-molodka) action is awaited; ``None`` after R14."""
        turn: int | None = self.core[7]
        return turn

    @property
    def game_over(self) -> bool:
        """R14: stock empty and every hand played out."""
        return self.core[7] is None

    @property
    def dealer(self) -> int:
        """The dealer of this game (R4)."""
        dealer: int = self.core[4]
        return dealer

    @property
    def leader(self) -> int:
        """Leader of the current trick; after a molodka restart the molodka seat (R11)."""
        leader: int = self.core[5]
        return leader

    @property
    def original_leader(self) -> int:
        """The seat that opened the current trick: R11 distances count from it."""
        orig: int = self.core[6]
        return orig

    @property
    def k(self) -> int:
        """Cards per player in this trick (R8); 0 before the lead."""
        k: int = self.core[8]
        return k

    @property
    def trump_card(self) -> Card:
        """The card shown after the deal (R6)."""
        return Card(self.core[3])

    @property
    def trump_suit(self) -> Suit:
        """The trump suit (R6)."""
        return Suit(self.core[2])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """All four hands (hidden information: never show them, R19)."""
        return tuple(cards_of_mask(m) for m in self.core[0])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first (hidden information, R19)."""
        return tuple(Card(i) for i in self.core[1])

    @property
    def table(self) -> tuple[Action | None, ...]:
        """Per seat, what it played to the current (possibly restarted) trick."""
        table: tuple[Action | None, ...] = self.core[11]
        return table

    @property
    def top_seat(self) -> int | None:
        """The seat whose set is the current top set (R9), ``None`` before the lead."""
        seat: int = self.core[10]
        return None if seat < 0 else seat

    @property
    def tricks(self) -> dict[str, int]:
        """Tricks taken by each team this game."""
        return {"A": self.core[14][0], "B": self.core[14][1]}

    @property
    def tricks_completed(self) -> int:
        """Number of tricks completed (including any in the starting position)."""
        done: int = self.core[15]
        return done

    @property
    def last_taker(self) -> int | None:
        """Taker of the last completed trick (R10, R15)."""
        last: int = self.core[16]
        return None if last < 0 else last

    @property
    def piles(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Team A's and team B's trick piles (face down, R10)."""
        return (cards_of_mask(self.core[13][0]), cards_of_mask(self.core[13][1]))

    # --- serialization ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the start, the seed and every action (the current situation is
        rebuilt from them), plus a readable snapshot of the current situation.

        >>> from games.engine import new_game, GameState
        >>> s = new_game(seed=7, dealer=0)
        >>> GameState.from_dict(s.to_dict()) == s
        True
        """
        core = self.core
        return {
            "format": STATE_FORMAT,
            "seed": self.seed,
            "algorithm": self.algorithm,
            "start": self.start.to_dict(),
            "actions": [[seat, a.to_dict()] for seat, a in self.actions],
            "current": {
                "turn": core[7],
                "leader": core[5],
                "original_leader": core[6],
                "k": core[8],
                "hands": [[c.code for c in cards_of_mask(m)] for m in core[0]],
                "stock": [Card(i).code for i in core[1]],
                "table": [None if a is None else a.to_dict() for a in core[11]],
                "tricks": self.tricks,
                "tricks_completed": core[15],
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` by replaying its actions.

        Raises :class:`InvalidPositionError` for malformed data, and
        :class:`IllegalActionError` if a stored action is not legal.
        """
        from .game import apply, new_game
        from .position import game_from_position

        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise InvalidPositionError(f"not a {STATE_FORMAT} object")
        start = Position.from_dict(data["start"])
        seed = data.get("seed")
        if seed is not None:
            state = new_game(seed, start.dealer, start.leader, data.get("algorithm") or 1)
            if state.start != start:
                raise InvalidPositionError("the stored start does not match the seed's deal")
        else:
            state = game_from_position(start)
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InvalidPositionError("'actions' must be a list")
        for item in actions:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise InvalidPositionError("each action must be [seat, action]")
            state = apply(state, item[0], action_from_dict(item[1]))
        return state

    def __str__(self) -> str:
        """Debugging only (R19: never show this to a player)."""
        core = self.core
        hands = " | ".join(
            f"{i}: {' '.join(c.code for c in cards_of_mask(m))}" for i, m in enumerate(core[0])
        )
        table = " ".join(
            "-" if a is None else f"{a.kind}:{'+'.join(c.code for c in a.cards)}" for a in core[11]
        )
        return (
            f"<GameState turn={core[7]} leader={core[5]} k={core[8]} trump={Card(core[3]).code} "
            f"stock={len(core[1])} hands[{hands}] table[{table}] tricks={core[14]}>"
        )
