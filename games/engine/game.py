"""The game API: :func:`new_game`, :func:`legal_actions`, :func:`seats_to_act`,
:func:`apply`, :func:`outcome`, :func:`game_record`, :func:`replay`.

>>> s = new_game(seed=101, dealer=1)
>>> s.turn, s.leader, s.k       # R4: dealer + 1 leads
(2, 2, 0)
>>> a = legal_actions(s, 2)[0]
>>> t = apply(s, 2, a)
>>> t.turn, t.k == len(a.cards), s.k   # apply never mutates its input
(3, True, 0)
>>> from games.engine import Lead
>>> apply(t, 0, Lead(["6C"]))
Traceback (most recent call last):
...
games.engine.errors.IllegalActionError: R8: the trick has been led already (by seat 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import fast
from .actions import BEAT, LEAD, MOLODKA, Action
from .cards import Card, cards_of_mask, mask_of, points_of_mask
from .errors import EngineError, IllegalActionError
from .fast import (
    ALGORITHM_VERSION,
    DEALER,
    HANDS,
    LAST_TAKER,
    LEADER,
    PILES,
    PLAYED,
    STOCK,
    TABLE,
    TRICKS,
    TRICKS_COMPLETED,
    TRUMP_CARD,
    TURN,
    Core,
    K,
    make_core,
)
from .position import Position, deal_start
from .rules import can_beat_mask, is_one_suit
from .scoring import GameOutcome, score
from .state import Event, GameState, LastTrick

__all__ = [
    "ALGORITHM_VERSION",
    "apply",
    "game_from_position",
    "game_record",
    "illegal_reason",
    "legal_actions",
    "new_game",
    "outcome",
    "position_of",
    "replay",
    "seats_to_act",
    "team_of",
    "TEAM_A",
    "TEAM_B",
]

#: R1: team A is seats 0 and 2, team B seats 1 and 3.
TEAM_A = "A"
TEAM_B = "B"


def team_of(seat: int) -> str:
    """R1: the team (``"A"`` or ``"B"``) of a seat.

    >>> team_of(0), team_of(1), team_of(2), team_of(3)
    ('A', 'B', 'A', 'B')
    """
    return TEAM_B if seat & 1 else TEAM_A


def partner_of(seat: int) -> int:
    """R1: partners sit opposite.

    >>> partner_of(0), partner_of(3)
    (2, 1)
    """
    return (seat + 2) % 4


def opponents_of(seat: int) -> tuple[int, int]:
    """R1: the two seats of the other team (one on either side), in seat order.

    >>> opponents_of(2), opponents_of(1)
    ((1, 3), (0, 2))
    """
    return (0, 2) if seat & 1 else (1, 3)


def _check_seat(seat: Any, what: str = "seat") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise IllegalActionError(f"R1: {what} must be one of the seats 0-3, got {seat!r}")
    return seat


def new_game(
    seed: int, dealer: int, leader: int | None = None, algorithm: int = ALGORITHM_VERSION
) -> GameState:
    """R4–R6: deal a new game from ``seed`` with the versioned ``algorithm``.

    Cards are dealt one at a time clockwise from ``dealer + 1`` to the dealer, 4
    each; 20 form the stock; a random stock card is the trump card and stays in
    its place.  ``leader`` defaults to ``dealer + 1`` (R4); later games of a
    series pass the previous game's last taker (R15).  The seed must come from
    a cryptographic source (the service uses :mod:`secrets`); the engine itself
    never draws randomness.

    Raises :class:`EngineError` for a bad seat, seed or algorithm.

    >>> s = new_game(1, dealer=0)
    >>> len(s.stock), [len(h) for h in s.hands], s.leader
    (20, [4, 4, 4, 4], 1)
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError(f"R5: the seed must be an integer, got {seed!r}")
    try:
        _check_seat(dealer, "dealer")
        if leader is not None:
            _check_seat(leader, "leader")
    except IllegalActionError as exc:
        raise EngineError(str(exc)) from None
    core = fast.deal(seed, dealer, leader, algorithm)
    return GameState(core=core, start=deal_start(core, dealer), seed=seed, algorithm=algorithm)


def game_from_position(position: Position | Mapping[str, Any]) -> GameState:
    """A game (no seed) starting at an explicit position (R4–R13 apply from there).

    Raises :class:`InvalidPositionError` for an impossible position.
    """
    pos = position if isinstance(position, Position) else Position.from_dict(position)
    h = [mask_of(hand) for hand in pos.hands]
    core = make_core(
        (h[0], h[1], h[2], h[3]),
        tuple(c.index for c in pos.stock),
        pos.trump_card.index,
        pos.dealer,
        pos.leader,
        (mask_of(pos.piles[0]), mask_of(pos.piles[1])),
        pos.tricks,
    )
    return GameState(core=core, start=pos)


def position_of(state: GameState) -> Position:
    """The current position of a game at a trick boundary (before the lead).

    Raises :class:`EngineError` mid-trick or after the game is over.
    """
    core = state.core
    if core[TURN] is None:
        raise EngineError("R14: the game is over; there is no position to export")
    if core[PLAYED] or core[K]:
        raise EngineError("a position can only be exported at a trick boundary")
    return Position(
        dealer=core[DEALER],
        leader=core[LEADER],
        trump_card=Card(core[TRUMP_CARD]),
        hands=tuple(cards_of_mask(m) for m in core[HANDS]),  # type: ignore[arg-type]
        stock=tuple(Card(i) for i in core[STOCK]),
        piles=(cards_of_mask(core[PILES][0]), cards_of_mask(core[PILES][1])),
        tricks=core[TRICKS],
    )


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, for **any** seat (R8–R11).

    The seat on turn gets its leads (R8) or beats and discards (R9); any seat
    may also get a :class:`Molodka` announcement (R11), out of turn.  Other
    seats usually get ``[]``.  Each card set is listed once per kind.

    Raises :class:`IllegalActionError` for a seat outside 0-3.
    """
    return fast.legal_for(state.core, _check_seat(seat))


def seats_to_act(state: GameState) -> list[int]:
    """The seats that may act now: the seat on turn plus every seat that may
    announce a molodka (R11), sorted; ``[]`` after R14."""
    core = state.core
    if core[TURN] is None:
        return []
    return sorted({core[TURN], *fast.molodka_seats(core)})


def _fmt(mask: int) -> str:
    return " ".join(c.symbol for c in cards_of_mask(mask))


def illegal_reason(core: Core, seat: int, action: Action) -> str | None:
    """Why ``action`` by ``seat`` is illegal in ``core`` (naming the rule), or ``None``."""
    if not isinstance(action, Action) or type(action) is Action:
        return f"not an action: {action!r}"
    (hands, _, trump, _, _, leader, orig, turn, k, top, top_seat, table, mdist, *_) = core
    if turn is None:
        return "R14: the game is over"
    hand = hands[seat]
    code = action.code
    mask = action.mask
    count = mask.bit_count()
    if code == MOLODKA:
        if count != 4 or not is_one_suit(mask):
            return "R11: a molodka is a hand of exactly 4 cards of one suit"
        if table[seat] is not None:
            return f"R11: seat {seat} has already played to this trick"
        if mask & ~hand:
            return f"R11: {_fmt(mask & ~hand)} not in seat {seat}'s hand"
        if k == 0 and seat == turn:
            return f"R11: seat {seat} is on lead: a molodka on lead is simply led (R8)"
        distance = (seat - orig) & 3
        if distance >= mdist:
            return (
                f"R11: seat {seat} (distance {distance}) is not strictly nearer the original "
                f"leader (seat {orig}) than the molodka on the table (seat {leader}, "
                f"distance {mdist})"
            )
        return None
    rule = "R8" if code == LEAD else "R9"
    if code == LEAD:
        if k:
            return f"R8: the trick has been led already (by seat {leader})"
        if seat != turn:
            return f"R8: seat {turn} is on lead, not seat {seat} (R4, R13)"
    else:
        if not k:
            what = "nothing to beat yet" if code == BEAT else "nothing to reply to yet"
            return f"R9: {what}: seat {turn} must lead first (R8)"
        if seat != turn:
            if table[seat] is not None:
                return f"R9: seat {seat} has already played to this trick"
            return f"R9: it is seat {turn}'s turn, not seat {seat}'s"
    if mask & ~hand:
        return f"{rule}: {_fmt(mask & ~hand)} not in seat {seat}'s hand"
    if code == LEAD:
        if not count:
            return "R8: a lead has 1 to 4 cards"
        if not is_one_suit(mask):
            return "R8: a lead must be cards of one suit"
        return None
    if count != k:
        return f"R8: every player plays exactly k = {k} cards to this trick, not {count}"
    if code == BEAT and not can_beat_mask(mask, top, trump):
        if k == 1:
            return f"R9: {_fmt(mask)} cannot beat {_fmt(top)} (R7)"
        return (
            f"R9: {_fmt(mask)} cannot be paired one-to-one so that each card beats a card "
            f"of the top set {_fmt(top)} of seat {top_seat} (R7)"
        )
    return None


def apply(state: GameState, seat: int, action: Action) -> GameState:
    """Return the state after ``seat`` takes ``action`` (R8–R14).  Never mutates
    ``state`` and always checks legality first.

    Raises :class:`IllegalActionError` (a ``ValueError``) naming the rule,
    e.g. ``"R9: 7♠ cannot beat A♥ (R7)"``.
    """
    seat = _check_seat(seat)
    core = state.core
    reason = illegal_reason(core, seat, action)
    if reason is not None:
        raise IllegalActionError(reason)
    new = fast.step(core, seat, action)
    events: list[Event] = []
    last_trick = state.last_trick
    table = core[TABLE]
    if action.code == MOLODKA:
        returned = tuple((i, a) for i, a in enumerate(table) if a is not None)
        events.append(("molodka", seat, action, returned))
    else:
        events.append(("play", seat, action))
        if new[TRICKS_COMPLETED] > core[TRICKS_COMPLETED]:
            plays = tuple(action if i == seat else table[i] for i in range(4))
            taker: int = new[LAST_TAKER]
            events.append(("trick", taker, new[TRICKS_COMPLETED], plays))
            last_trick = LastTrick(plays=plays, taker=taker, trick_no=new[TRICKS_COMPLETED])  # type: ignore[arg-type]
            if len(new[STOCK]) != len(core[STOCK]):
                after = [m ^ action.mask if i == seat else m for i, m in enumerate(core[HANDS])]
                counts = tuple(new[HANDS][i].bit_count() - after[i].bit_count() for i in range(4))
                events.append(("draw", counts))
    return GameState(
        core=new,
        start=state.start,
        seed=state.seed,
        algorithm=state.algorithm,
        actions=state.actions + ((seat, action),),
        history=state.history + tuple(events),
        last_trick=last_trick,
    )


def last_action_history_start(state: GameState) -> int:
    """Where the history's entries of the last applied action begin (0 before any): its
    play or molodka, followed by the trick and the draw it completed (see :func:`apply`).
    The history only grows, so the entries before it are the history one action ago:
    a live table sends only the new ones (games/WEBSOCKET.md, "Versions")."""
    for index in range(len(state.history) - 1, -1, -1):
        if state.history[index][0] in ("play", "molodka"):
            return index
    return 0


def outcome(state: GameState) -> GameOutcome | None:
    """``None`` while the game runs; after R14 the card points (R3, R16), tricks,
    loss points (R16), eggs (R17), winner and the last taker (R15)."""
    core = state.core
    if core[TURN] is not None:
        return None
    points = {"A": points_of_mask(core[PILES][0]), "B": points_of_mask(core[PILES][1])}
    tricks = {"A": core[TRICKS][0], "B": core[TRICKS][1]}
    loss_points, eggs, winner = score(points, tricks)
    return GameOutcome(points, tricks, loss_points, eggs, winner, core[LAST_TAKER])


def game_record(state: GameState) -> dict[str, Any]:
    """The full record of a finished game (R19: shown to everyone once it is over):
    seed, algorithm version, dealer, leader, trump card, all original hands and
    the stock, and every action with its seat (discards' cards included).

    Raises :class:`EngineError` while the game is still running.
    """
    result = outcome(state)
    if result is None:
        raise EngineError("R19: the record is only available after the game is over")
    start = state.start.to_dict()
    return {
        "seed": state.seed,
        "algorithm": state.algorithm,
        "dealer": start["dealer"],
        "leader": start["leader"],
        "trump_card": start["trump_card"],
        "hands": start["hands"],
        "stock": start["stock"],
        "piles": start["piles"],
        "tricks": start["tricks"],
        "actions": [{"seat": seat, **a.to_dict()} for seat, a in state.actions],
        "result": result.to_dict(),
    }


def replay(
    seed: int,
    dealer: int,
    leader: int | None,
    actions: Iterable[tuple[int, Action]],
    algorithm: int = ALGORITHM_VERSION,
) -> GameState:
    """R5: rebuild a game from its seed and its actions (each checked again).

    Raises :class:`IllegalActionError` if an action does not apply.
    """
    state = new_game(seed, dealer, leader, algorithm)
    for seat, action in actions:
        state = apply(state, seat, action)
    return state
