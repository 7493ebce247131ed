"""The immutable game state (frozen dataclasses) and its stored form.

:class:`GameState` wraps the fast tuple *core* of :mod:`games.engine.fast`
(the current situation) together with what the core does not need for play
but the site does: the starting position, the seed, every action so far and
the public history (R19).  Never read another seat's data from a state in
site code: go through :func:`games.engine.observe` (R19).

The stored form (:meth:`GameState.to_dict`) is a cache: the server restores
it on every move without replaying, and :meth:`GameState.replay_stored` rebuilds the
same state from the seed and the actions when it must be proved (R5).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .actions import BEAT, DISCARD, LEAD, MOLODKA, Action, action_from_dict, action_from_mask
from .cards import DECK, FULL_MASK, Card, Suit, cards_of_mask, codes_of_mask
from .errors import EngineError, InvalidPositionError
from .fast import (
    DEALER,
    HANDS,
    LAST_TAKER,
    LEADER,
    NO_MOLODKA,
    ORIGINAL_LEADER,
    PILES,
    SHUFFLES,
    STOCK,
    TABLE,
    TOP_SEAT,
    TRICKS,
    TRICKS_COMPLETED,
    TRUMP,
    TRUMP_CARD,
    TURN,
    Core,
    K,
    _holders,
    deal,
)
from .position import Position, deal_start

__all__ = ["Event", "GameState", "LastTrick", "OLD_STATE_FORMAT", "STATE_FORMAT"]

#: ``("play", seat, action)``, ``("molodka", seat, action, ((seat, action), ...))``
#: (the plays sent back by the restart), ``("trick", taker, trick_no,
#: (action of seat 0, ..., action of seat 3))`` and ``("draw", (n0, n1, n2, n3))``.
Event = tuple[Any, ...]

#: The stored form written now: the current situation is restored directly.
STATE_FORMAT: Final = "kozel-state/2"
#: The first stored form (start, seed and actions only): still read, by replaying.
OLD_STATE_FORMAT: Final = "kozel-state/1"


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
        turn: int | None = self.core[TURN]
        return turn

    @property
    def game_over(self) -> bool:
        """R14: stock empty and every hand played out."""
        return self.core[TURN] is None

    @property
    def dealer(self) -> int:
        """The dealer of this game (R4)."""
        dealer: int = self.core[DEALER]
        return dealer

    @property
    def leader(self) -> int:
        """Leader of the current trick; after a molodka restart the molodka seat (R11)."""
        leader: int = self.core[LEADER]
        return leader

    @property
    def original_leader(self) -> int:
        """The seat that opened the current trick: R11 distances count from it."""
        orig: int = self.core[ORIGINAL_LEADER]
        return orig

    @property
    def k(self) -> int:
        """Cards per player in this trick (R8); 0 before the lead."""
        k: int = self.core[K]
        return k

    @property
    def trump_card(self) -> Card:
        """The card shown after the deal (R6)."""
        return Card(self.core[TRUMP_CARD])

    @property
    def trump_suit(self) -> Suit:
        """The trump suit (R6)."""
        return Suit(self.core[TRUMP])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """All four hands (hidden information: never show them, R19)."""
        return tuple(cards_of_mask(m) for m in self.core[HANDS])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first (hidden information, R19)."""
        return tuple(Card(i) for i in self.core[STOCK])

    @property
    def table(self) -> tuple[Action | None, ...]:
        """Per seat, what it played to the current (possibly restarted) trick."""
        table: tuple[Action | None, ...] = self.core[TABLE]
        return table

    @property
    def top_seat(self) -> int | None:
        """The seat whose set is the current top set (R9), ``None`` before the lead."""
        seat: int = self.core[TOP_SEAT]
        return None if seat < 0 else seat

    @property
    def tricks(self) -> dict[str, int]:
        """Tricks taken by each team this game."""
        return {"A": self.core[TRICKS][0], "B": self.core[TRICKS][1]}

    @property
    def tricks_completed(self) -> int:
        """Number of tricks completed (including any in the starting position)."""
        done: int = self.core[TRICKS_COMPLETED]
        return done

    @property
    def last_taker(self) -> int | None:
        """Taker of the last completed trick (R10, R15)."""
        last: int = self.core[LAST_TAKER]
        return None if last < 0 else last

    @property
    def piles(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Team A's and team B's trick piles (face down, R10)."""
        return (cards_of_mask(self.core[PILES][0]), cards_of_mask(self.core[PILES][1]))

    # --- serialization ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``kozel-state/2``), a cache that :meth:`from_dict` restores
        without replaying:

        * ``deal`` (``seed``, ``algorithm``, ``dealer``, ``leader``) for a dealt game,
          whose start is rebuilt from the seed (R5), or ``start`` (a
          :class:`Position`) for a game built from a position;
        * ``core``: the current situation (hands, stock, leaders, turn, top seat,
          the table, piles, tricks); the other fields of the fast core follow
          from these;
        * ``history``: the public events (R19), each play as its action text
          (``"lead 6D TD"``); the list of actions, each trick's plays, the cards
          a molodka sent back and the last trick follow from them.

        :meth:`replay` rebuilds the same state from the seed and the actions.

        >>> from games.engine import new_game, GameState
        >>> s = new_game(seed=7, dealer=0)
        >>> GameState.from_dict(s.to_dict()) == s
        True
        """
        core = self.core
        out: dict[str, Any] = {"format": STATE_FORMAT}
        if self.seed is not None:
            out["deal"] = {"seed": self.seed, "algorithm": self.algorithm,
                           "dealer": self.start.dealer, "leader": self.start.leader}
        else:
            out["start"] = self.start.to_dict()
        top_seat = core[TOP_SEAT]
        out["core"] = {
            "hands": [codes_of_mask(m) for m in core[HANDS]],
            "stock": [_CODES[i] for i in core[STOCK]],
            "leader": core[LEADER],
            "original_leader": core[ORIGINAL_LEADER],
            "turn": core[TURN],
            "top_seat": None if top_seat < 0 else top_seat,
            "table": [None if a is None else _action_text(a) for a in core[TABLE]],
            "piles": {"A": codes_of_mask(core[PILES][0]), "B": codes_of_mask(core[PILES][1])},
            "tricks": {"A": core[TRICKS][0], "B": core[TRICKS][1]},
        }
        history: list[list[Any]] = []
        for event in self.history:
            name = event[0]
            if name == "play" or name == "molodka":
                history.append([name, event[1], _action_text(event[2])])
            elif name == "trick":
                history.append(["trick", event[1]])
            else:
                history.append(["draw", list(event[1])])
        out["history"] = history
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Restore a state from :meth:`to_dict` (R5: the cache of a replay).

        The current format is restored directly, checking its shape and that it
        is a possible situation (all 36 cards placed once, R2; the table agrees
        with the history).  It does not prove that the stored situation is the
        one the seed and the actions lead to: :meth:`replay` does (a
        ``verify_games`` run compares the two).  The older ``kozel-state/1``
        form is replayed.

        Raises :class:`InvalidPositionError` for malformed data, and, for the
        old form only, :class:`IllegalActionError` if a stored action does not
        apply.
        """
        if not isinstance(data, Mapping):
            raise InvalidPositionError(f"not a {STATE_FORMAT} object")
        fmt = data.get("format")
        if fmt == OLD_STATE_FORMAT:
            return cls.replay_stored(data)
        if fmt != STATE_FORMAT:
            raise InvalidPositionError(f"not a {STATE_FORMAT} object")
        try:
            return _restore(data)
        except InvalidPositionError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidPositionError(f"malformed {STATE_FORMAT} object: {exc!r}") from None

    @classmethod
    def replay_stored(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a stored state (either format) from its seed, or its start
        position, and its actions, checking every action again (R5).  Nothing
        of the stored current situation is used.

        Raises :class:`InvalidPositionError` for malformed data and
        :class:`IllegalActionError` if a stored action does not apply.

        >>> from games.engine import new_game, apply, legal_actions, GameState
        >>> s = new_game(seed=7, dealer=0)
        >>> s = apply(s, 1, legal_actions(s, 1)[0])
        >>> GameState.replay_stored(s.to_dict()) == s
        True
        """
        # A real circle: replaying checks every action with the rules (game.py), and
        # the rules build on GameState. The stored form lives on the state; its old
        # format and this proof of it need the rules, so they are imported on use.
        from .game import apply, game_from_position, new_game

        if not isinstance(data, Mapping):
            raise InvalidPositionError(f"not a {STATE_FORMAT} object")
        fmt = data.get("format")
        try:
            if fmt == OLD_STATE_FORMAT:
                start = Position.from_dict(data["start"])
                seed = data.get("seed")
                algorithm = data.get("algorithm") or 1
                raw = data.get("actions", [])
                if not isinstance(raw, list):
                    raise InvalidPositionError("'actions' must be a list")
                actions = []
                for item in raw:
                    if not isinstance(item, list | tuple) or len(item) != 2:
                        raise InvalidPositionError("each action must be [seat, action]")
                    actions.append((item[0], action_from_dict(item[1])))
            elif fmt == STATE_FORMAT:
                seed, algorithm, start = _deal_or_start(data)
                actions = list(_events(data.get("history"), 0)[1])
            else:
                raise InvalidPositionError(f"not a {STATE_FORMAT} object")
            if seed is not None:
                state = new_game(_int(seed, "seed"), start.dealer, start.leader, algorithm)
                if state.start != start:
                    raise InvalidPositionError("the stored start does not match the seed's deal")
            else:
                state = game_from_position(start)
        except InvalidPositionError:
            raise
        except EngineError as exc:
            raise InvalidPositionError(str(exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidPositionError(f"malformed state object: {exc!r}") from None
        for seat, action in actions:
            state = apply(state, seat, action)
        return state

    def __str__(self) -> str:
        """Debugging only (R19: never show this to a player)."""
        core = self.core
        hands = " | ".join(
            f"{i}: {' '.join(c.code for c in cards_of_mask(m))}" for i, m in enumerate(core[HANDS])
        )
        table = " ".join(
            "-" if a is None else f"{a.kind}:{'+'.join(c.code for c in a.cards)}"
            for a in core[TABLE]
        )
        return (
            f"<GameState turn={core[TURN]} leader={core[LEADER]} k={core[K]} "
            f"trump={Card(core[TRUMP_CARD]).code} "
            f"stock={len(core[STOCK])} hands[{hands}] table[{table}] tricks={core[TRICKS]}>"
        )


# --- the stored form ---------------------------------------------------------------

_CODES: Final[tuple[str, ...]] = tuple(c.code for c in DECK)
_INDEX: Final[dict[str, int]] = {c.code: c.index for c in DECK}
_KIND_CODES: Final[dict[str, int]] = {
    "lead": LEAD, "beat": BEAT, "discard": DISCARD, "molodka": MOLODKA,
}
# Memos of the action text form, both ways (bounded: there are about 270 000 actions).
_TEXT_OF: dict[Action, str] = {}
_ACTION_OF: dict[str, Action] = {}
_MEMO_LIMIT: Final = 300_000


def _action_text(action: Action) -> str:
    """``"lead 6D TD"``: the kind, then the cards in canonical order."""
    text = _TEXT_OF.get(action)
    if text is None:
        text = " ".join([action.kind, *(c.code for c in action.cards)])
        if len(_TEXT_OF) < _MEMO_LIMIT:
            _TEXT_OF[action] = text
    return text


def _action_of(text: Any) -> Action:
    """Inverse of :func:`_action_text`; only the canonical text is accepted."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"an action is stored as text like 'lead 6D TD', got {text!r}")
    found = _ACTION_OF.get(text)
    if found is None:
        kind, *codes = text.split(" ")
        code = _KIND_CODES.get(kind)
        if code is None or not 1 <= len(codes) <= 4:
            raise InvalidPositionError(f"not a stored action: {text!r}")
        mask = 0
        for card in codes:
            index = _INDEX.get(card)
            if index is None:
                raise InvalidPositionError(f"R2: not a card: {card!r} in {text!r}")
            mask |= 1 << index
        found = action_from_mask(code, mask)
        if _action_text(found) != text:
            raise InvalidPositionError(f"not a canonical stored action: {text!r}")
        if len(_ACTION_OF) < _MEMO_LIMIT:
            _ACTION_OF[text] = found
    return found


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidPositionError(f"{what} must be an integer, got {value!r}")
    return value


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InvalidPositionError(f"R1: {what} must be a seat 0-3, got {value!r}")
    return value


def _mask(codes: Any, what: str) -> int:
    if not isinstance(codes, list):
        raise InvalidPositionError(f"{what} must be a list of card codes")
    mask = 0
    for card in codes:
        index = _INDEX.get(card)
        if index is None:
            raise InvalidPositionError(f"R2: not a card: {card!r} in {what}")
        mask |= 1 << index
    if mask.bit_count() != len(codes):
        raise InvalidPositionError(f"R2: a card appears twice in {what}")
    return mask


def _team_pair(data: Any, what: str) -> tuple[Any, Any]:
    if not isinstance(data, Mapping) or len(data) != 2:
        raise InvalidPositionError(f"{what} must be an object with keys 'A' and 'B'")
    return data["A"], data["B"]


@functools.lru_cache(maxsize=1024)
def _dealt_start(seed: int, dealer: int, leader: int, algorithm: int) -> Position:
    # A pure function of its arguments (R5), so a process may keep recent ones.
    return deal_start(deal(seed, dealer, leader, algorithm), dealer)


def _deal_or_start(data: Mapping[str, Any]) -> tuple[int | None, int | None, Position]:
    """The seed, algorithm and start of a stored ``kozel-state/2`` object."""
    deal = data.get("deal")
    if deal is None:
        if "start" not in data:
            raise InvalidPositionError("a stored state needs 'deal' or 'start'")
        return None, None, Position.from_dict(data["start"])
    if not isinstance(deal, Mapping) or "start" in data:
        raise InvalidPositionError("'deal' must be an object (and then there is no 'start')")
    seed = _int(deal["seed"], "the seed")
    algorithm = _int(deal["algorithm"], "the algorithm")
    if algorithm not in SHUFFLES:
        raise InvalidPositionError(f"R5: unknown deal algorithm version {algorithm!r}")
    dealer = _seat(deal["dealer"], "the dealer")
    leader = _seat(deal["leader"], "the leader")
    try:
        return seed, algorithm, _dealt_start(seed, dealer, leader, algorithm)
    except EngineError as exc:
        raise InvalidPositionError(str(exc)) from None


_NO_PLAYS: Final[tuple[None, None, None, None]] = (None, None, None, None)


def _events(
    raw: Any, first_trick_no: int
) -> tuple[tuple[Event, ...], tuple[tuple[int, Action], ...], LastTrick | None,
           tuple[Action | None, ...]]:
    """Decode a stored history: the events, the actions, the last trick and
    what is on the table now.  The plays of each trick and the cards a
    molodka sends back (R11) are what the table held at that moment."""
    if not isinstance(raw, list):
        raise InvalidPositionError("'history' must be a list")
    events: list[Event] = []
    actions: list[tuple[int, Action]] = []
    table: list[Action | None] = [None, None, None, None]
    last_trick: LastTrick | None = None
    trick_no = first_trick_no
    for item in raw:
        if type(item) is not list or not item:
            raise InvalidPositionError(f"not a stored event: {item!r}")
        name = item[0]
        if name == "play" or name == "molodka":
            if len(item) != 3:
                raise InvalidPositionError(f"not a stored {name} event: {item!r}")
            seat = item[1]
            if type(seat) is not int or not 0 <= seat <= 3:
                raise InvalidPositionError(f"R1: an event's seat must be 0-3: {item!r}")
            action = _ACTION_OF.get(item[2]) or _action_of(item[2])
            if (action.code == MOLODKA) != (name == "molodka"):
                raise InvalidPositionError(f"a {name} event cannot hold {item[2]!r}")
            if table[seat] is not None:
                raise InvalidPositionError(f"seat {seat} plays twice to one trick: {item!r}")
            if name == "molodka":
                # R11: every card played to the trick goes back; the molodka leads.
                returned = tuple((i, a) for i, a in enumerate(table) if a is not None)
                events.append(("molodka", seat, action, returned))
                table = [None, None, None, None]
            else:
                events.append(("play", seat, action))
            table[seat] = action
            actions.append((seat, action))
        elif name == "trick":
            if len(item) != 2 or any(a is None for a in table):
                raise InvalidPositionError(f"a trick ends when all four have played: {item!r}")
            taker = _seat(item[1], "a trick's taker")
            trick_no += 1
            plays = (table[0], table[1], table[2], table[3])
            events.append(("trick", taker, trick_no, plays))
            last_trick = LastTrick(plays=plays, taker=taker, trick_no=trick_no)
            table = [None, None, None, None]
        elif name == "draw":
            counts = item[1] if len(item) == 2 else None
            if not isinstance(counts, list) or len(counts) != 4 or not all(
                type(n) is int and 0 <= n <= 4 for n in counts
            ):
                raise InvalidPositionError(f"not a stored draw event: {item!r}")
            events.append(("draw", tuple(counts)))
        else:
            raise InvalidPositionError(f"unknown stored event {name!r}")
    return tuple(events), tuple(actions), last_trick, tuple(table)


def _restore(data: Mapping[str, Any]) -> GameState:
    """:meth:`GameState.from_dict` of a ``kozel-state/2`` object (no replay)."""
    seed, algorithm, start = _deal_or_start(data)
    raw = data["core"]
    if not isinstance(raw, Mapping):
        raise InvalidPositionError("'core' must be an object")
    raw_hands = raw["hands"]
    if not isinstance(raw_hands, list) or len(raw_hands) != 4:
        raise InvalidPositionError("R1: 'hands' must be a list of 4 lists of cards")
    hands = tuple(_mask(h, "a hand") for h in raw_hands)
    if any(m.bit_count() > 4 for m in hands):
        raise InvalidPositionError("R5: a hand holds at most 4 cards")
    raw_stock = raw["stock"]
    if not isinstance(raw_stock, list):
        raise InvalidPositionError("the stock must be a list of card codes")
    stock = tuple(_INDEX[c] for c in raw_stock)
    start_stock = tuple(c.index for c in start.stock)
    if stock != start_stock[len(start_stock) - len(stock):]:
        raise InvalidPositionError("R12: the stock must be what is left of the start's stock")
    leader = _seat(raw["leader"], "the leader")
    orig = _seat(raw["original_leader"], "the original leader")
    turn = raw["turn"]
    if turn is not None:
        turn = _seat(turn, "the seat on turn")
    top_seat = raw["top_seat"]
    if top_seat is not None:
        top_seat = _seat(top_seat, "the top seat")
    raw_table = raw["table"]
    if not isinstance(raw_table, list) or len(raw_table) != 4:
        raise InvalidPositionError("'table' must list 4 seats' plays")
    table = tuple(None if a is None else _action_of(a) for a in raw_table)
    pile_a, pile_b = _team_pair(raw["piles"], "piles")
    piles = (_mask(pile_a, "pile A"), _mask(pile_b, "pile B"))
    tricks_a, tricks_b = _team_pair(raw["tricks"], "tricks")
    tricks = (_int(tricks_a, "tricks"), _int(tricks_b, "tricks"))
    if min(tricks) < 0:
        raise InvalidPositionError("tricks must be non-negative integers")

    # R2: every card is in exactly one place.
    placed = [*hands, *(1 << i for i in stock), *piles, *(a.mask for a in table if a is not None)]
    total = 0
    for m in placed:
        if total & m:
            raise InvalidPositionError("R2: a card is stored in two places")
        total |= m
    if total != FULL_MASK:
        raise InvalidPositionError("R2: every one of the 36 cards must be placed exactly once")

    start_tricks = start.tricks[0] + start.tricks[1]
    history, actions, last_trick, history_table = _events(data["history"], start_tricks)
    if history_table != table:
        raise InvalidPositionError("the table does not match the history of the trick")
    done = tricks[0] + tricks[1]
    if done != start_tricks + sum(1 for e in history if e[0] == "trick"):
        raise InvalidPositionError("the trick counts do not match the history")

    played = [a for a in table if a is not None]
    if top_seat is None:
        if played:
            raise InvalidPositionError("R9: a trick in progress has a top set")
        top, k = 0, 0
    else:
        top_action = table[top_seat]
        if top_action is None or top_action.code == DISCARD:
            raise InvalidPositionError("R9: the top set is a lead, beat or molodka on the table")
        top = top_action.mask
        k = top.bit_count()
        if any(len(a.cards) != k for a in played):
            raise InvalidPositionError(f"R8: every player plays k = {k} cards to this trick")
    if turn is None:
        if any(hands) or stock or played:
            raise InvalidPositionError("R14: a game is over when the stock and hands are empty")
        holders = 0
    else:
        if table[turn] is not None or not any(hands):
            raise InvalidPositionError(f"seat {turn} cannot be on turn here")
        holders = _holders(tuple(
            h | (0 if a is None else a.mask) for h, a in zip(hands, table, strict=True)
        ))
    # R11: the distance of the molodka on the table (a 4-card lead is one at 0).
    mdist = NO_MOLODKA
    for seat, a in enumerate(table):
        if a is not None and a.code == MOLODKA:
            mdist = (seat - orig) & 3
        elif a is not None and a.code == LEAD and k == 4:
            mdist = 0
    last_taker = -1 if last_trick is None else last_trick.taker
    trump_card = start.trump_card.index
    core = (
        hands, stock, trump_card // 9, trump_card, start.dealer, leader, orig, turn, k,
        top, -1 if top_seat is None else top_seat, table, mdist, piles, tricks, done,
        last_taker, len(played), holders,
    )  # fmt: skip
    return GameState(core=core, start=start, seed=seed, algorithm=algorithm, actions=actions,
                     history=history, last_trick=last_trick)
